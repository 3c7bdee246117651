"""Port of apis/scheduling/v1alpha1/types.go of kubernetes-sigs/scheduler-plugins (commit 37b7888a), the PodGroup part.

A PodGroup (``scheduling.x-k8s.io/v1alpha1``) names a gang: the pods that
carry the label ``scheduling.x-k8s.io/pod-group: NAME`` in its namespace.
``spec.minMember`` pods must be placeable together or none is bound; the
Coscheduling plugin reads it, ``spec.minResources`` and
``spec.scheduleTimeoutSeconds``. The loader keeps PodGroups as raw mappings;
:func:`parse_pod_group` turns one into a :class:`PodGroup`, refusing bad input
with a :class:`~ksched_edu.api.errors.ManifestError` that names the file, the
object and the field.

Deviations:
- Only the CRD's own checks that matter here are made: field types, and
  ``spec.minMember`` at least 1 (its ``+kubebuilder:validation:Minimum=1``);
  an absent ``minMember`` stays 0, as the Go field's zero value.
- Times are seconds since the epoch, as in :class:`~ksched_edu.api.types.ObjectMeta`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from .defaults import set_defaults_object_meta
from .errors import ManifestError, invalid, required
from .loader import _child, _object_meta, _Reader
from .types import NamespacedObject, ObjectMeta, ResourceList

GROUP_NAME = "scheduling.x-k8s.io"
API_VERSION = GROUP_NAME + "/v1alpha1"
KIND = "PodGroup"
# The label that makes a pod a member of a group (upstream PodGroupLabel).
POD_GROUP_LABEL = GROUP_NAME + "/pod-group"

# PodGroupPhase values.
POD_GROUP_PENDING = "Pending"
POD_GROUP_RUNNING = "Running"
POD_GROUP_SCHEDULING = "Scheduling"
POD_GROUP_UNKNOWN = "Unknown"
POD_GROUP_FINISHED = "Finished"
POD_GROUP_FAILED = "Failed"


@ports("apis/scheduling/v1alpha1/types.go", "PodGroupSpec", 145, 160, repo=SCHEDULER_PLUGINS)
@dataclass
class PodGroupSpec:
    # The fewest members that must be placed together (0 when the manifest gave none).
    min_member: int = 0
    # The least the whole group needs; None when not given (upstream: a nil map).
    min_resources: Optional[ResourceList] = None
    # How long members may wait at Permit; None falls back to the plugin's setting.
    schedule_timeout_seconds: Optional[int] = None


@ports("apis/scheduling/v1alpha1/types.go", "PodGroupStatus", 163, 185, repo=SCHEDULER_PLUGINS)
@dataclass
class PodGroupStatus:
    phase: str = ""
    occupied_by: str = ""
    running: int = 0
    succeeded: int = 0
    failed: int = 0
    schedule_start_time: Optional[float] = None


@ports("apis/scheduling/v1alpha1/types.go", "PodGroup", 128, 142, repo=SCHEDULER_PLUGINS)
@dataclass
class PodGroup(NamespacedObject):
    kind = KIND

    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: PodGroupSpec = field(default_factory=PodGroupSpec)
    status: PodGroupStatus = field(default_factory=PodGroupStatus)


@plumbing("decodes a PodGroup from its raw mapping")
def parse_pod_group(raw: Any, file: str = "") -> PodGroup:
    """A PodGroup from its raw mapping (as the loader keeps it), defaulted like the API server does.

    Raises ManifestError naming ``file`` (when given), the object and the field.
    """
    if isinstance(raw, PodGroup):
        return raw
    r = _Reader(file, KIND)
    if not isinstance(raw, dict):
        r.fail("", f"expected a map with apiVersion and kind, got {type(raw).__name__}")
    meta = r.as_map(raw.get("metadata"), "metadata")
    name = r.as_str(meta.get("name"), "metadata.name")
    namespace = r.as_str(meta.get("namespace"), "metadata.namespace") or "default"
    if not name:
        r.fail("metadata.name", required("name or generateName is required"))
    r.label = f"{KIND} {namespace}/{name}"
    kind = r.as_str(raw.get("kind"), "kind", KIND)
    if kind != KIND:
        r.fail("kind", invalid(kind, f"expected {KIND}"))
    api_version = r.as_str(raw.get("apiVersion"), "apiVersion", API_VERSION)
    if api_version != API_VERSION:
        r.fail("apiVersion", f'no matches for kind "{KIND}" in version "{api_version}"')
    pg = PodGroup(metadata=_object_meta(r, raw), spec=_spec(r, raw.get("spec")),
                  status=_status(r, raw.get("status")))
    set_defaults_object_meta(KIND, pg.metadata)
    return pg


def _spec(r: _Reader, v: Any) -> PodGroupSpec:
    m = r.as_map(v, "spec")
    min_member = r.as_int(m.get("minMember"), "spec.minMember", 0)
    if m.get("minMember") is not None and min_member < 1:
        r.fail("spec.minMember", invalid(min_member, "spec.minMember in body should be greater than or equal to 1"))
    timeout = r.as_int(m.get("scheduleTimeoutSeconds"), "spec.scheduleTimeoutSeconds")
    min_resources = None
    if m.get("minResources") is not None:
        min_resources = r.resources(m["minResources"], "spec.minResources")
    return PodGroupSpec(min_member=min_member, min_resources=min_resources, schedule_timeout_seconds=timeout)


def _status(r: _Reader, v: Any) -> PodGroupStatus:
    m = r.as_map(v, "status")
    return PodGroupStatus(
        phase=r.as_str(m.get("phase"), "status.phase"),
        occupied_by=r.as_str(m.get("occupiedBy"), "status.occupiedBy"),
        running=r.as_int(m.get("running"), "status.running", 0),
        succeeded=r.as_int(m.get("succeeded"), "status.succeeded", 0),
        failed=r.as_int(m.get("failed"), "status.failed", 0),
        schedule_start_time=r.time(m.get("scheduleStartTime"), _child("status", "scheduleStartTime")))


__all__ = ["API_VERSION", "KIND", "POD_GROUP_LABEL", "ManifestError", "PodGroup", "PodGroupSpec",
           "PodGroupStatus", "parse_pod_group"]
