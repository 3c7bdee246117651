"""Port of pkg/scheduler/util/utils.go (v1.30), in part: PatchPodStatus.

The scheduler never writes a pod's whole status: it patches the difference between the
status of *its own copy* of the pod and the status it wants (a strategic merge patch on
the ``status`` subresource). What the API server holds may differ from that copy; a field
the copy already shows as wanted is not in the patch, whatever the server holds. (The
rest of utils.go lives beside its callers: ``GetPodStartTime``, ``MoreImportantPod`` and
``ClearNominatedNodeName`` in ``framework/preemption.py``, ``GetPodFullName`` in the queue.)

Deviations:
- The patch holds the fields the scheduler writes: the conditions (merged by type, each
  with the fields that changed) and ``nominatedNodeName``. No condition is ever removed.
- No retry on a conflict (``retry.OnError``): the simulated API server has none.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .anchors import SCHEDULER_PLUGINS, plumbing, ports
from .api.types import Pod, PodStatus

_CONDITION_FIELDS = ("status", "reason", "message")


@plumbing("a strategic merge patch of a pod's status: the fields the scheduler writes")
@dataclass
class PodStatusPatch:
    """``conditions``: per changed condition, its ``type`` and the fields that changed;
    ``nominated_node_name``: None when not in the patch, ``""`` to clear it."""

    conditions: list[dict[str, str]] = field(default_factory=list)
    nominated_node_name: Optional[str] = None

    @plumbing("the patch of PatchPodStatus's \"{}\" check")
    def is_empty(self) -> bool:
        return not self.conditions and self.nominated_node_name is None


@ports("pkg/scheduler/util/utils.go", "PatchPodStatus", 105, 134)
def patch_pod_status(cs: Any, old: Pod, new_status: PodStatus) -> None:
    """Send the two-way merge patch from ``old.status`` to ``new_status``; nothing when empty."""
    if new_status is None:
        return
    patch = create_two_way_merge_patch(old.status, new_status)
    if patch.is_empty():
        return
    cs.patch_pod_status(old.metadata.namespace, old.metadata.name, patch)


@ports("vendor/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go", "CreateTwoWayMergePatch", 94, 101,
       repo=SCHEDULER_PLUGINS)
def create_two_way_merge_patch(old: PodStatus, new: PodStatus) -> PodStatusPatch:
    """The fields of ``new`` that differ from ``old`` (strategicpatch.CreateTwoWayMergePatch on
    the status fields the scheduler writes)."""
    patch = PodStatusPatch()
    old_by_type = {c.type: c for c in old.conditions}
    for c in new.conditions:
        before = old_by_type.get(c.type)
        changed = {f: getattr(c, f) for f in _CONDITION_FIELDS
                   if before is None or getattr(before, f) != getattr(c, f)}
        if changed:
            patch.conditions.append({"type": c.type, **changed})
    if new.nominated_node_name != old.nominated_node_name:
        patch.nominated_node_name = new.nominated_node_name
    return patch
