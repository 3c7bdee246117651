"""Port of the API server's decoding (k8s.io/apimachinery/pkg/runtime/serializer) and of
pkg/apis/core/validation/validation.go (v1.30), for the kinds kube-scheduler reads.

Reads kubectl-style YAML (many documents, or a ``kind: List``) of core/v1,
scheduling/v1, policy/v1 and apps/v1 objects into the dataclasses of
:mod:`ksched_edu.api.types`, mapping each Kubernetes JSON name to its
snake_case field. Input the API server would refuse raises a
:class:`~ksched_edu.api.errors.ManifestError`: one line naming the file, the
object and the field. Nothing is half-loaded: :func:`load_cluster` returns
every object or raises.

A kind the scheduler does not read (Deployment, ConfigMap, ...) is skipped
with a one-line warning, kept in ``Cluster.warnings`` and logged with
``logging`` (logger ``ksched_edu.api.loader``, level WARNING) once loading
has succeeded. PodGroup and NodeResourceTopology are kept as raw mappings in
``Cluster.extra[kind]``; the chapters that use them parse them.

Decoding checks types only, as Go's JSON decoding does. Every decoded object
is then defaulted and validated the way kube-apiserver validates a create
(:mod:`ksched_edu.api.validation`): a refused object raises an
:class:`~ksched_edu.api.errors.InvalidObjectError` whose message is the API
server's own, ``Pod "p" is invalid: ...``, after the file name.

Decoding is strict, as ``kubectl apply`` and kube-apiserver's strict field
validation are: a field the object's API type does not have, or a key written
twice in one mapping, raises :class:`~ksched_edu.api.errors.StrictDecodingError`
(``strict decoding error: unknown field "spec.nodeSelectr"``), checked against
the field names of the v1.30 API types (:mod:`ksched_edu.api.strict`).
``strict=False`` decodes as Go does without it: unknown fields dropped, the last
of a repeated key kept (the ``case`` command, as the reference harness decoded).

Deviations:
- Only the fields that matter to a scheduler are read and validated; the other
  fields of the API types are checked for their names (and for being a map or
  a list where the type has one), not for their values.
- Type errors read "expected a list, got a map" rather than Go's json
  unmarshalling text, and YAML syntax errors carry PyYAML's wording.
"""
from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, NoReturn, Optional, Sequence, Union

import yaml

from ..anchors import plumbing
from .defaults import (
    NAMESPACE_DEFAULT,
    apply_defaults,
    set_defaults_node,
    set_defaults_object_meta,
    set_defaults_pod,
    set_defaults_priority_class,
)
from .errors import ManifestError, StrictDecodingError, duplicate, invalid, required
from .quantity import Quantity, QuantityError
from .types import (
    Affinity,
    Cluster,
    Container,
    ContainerImage,
    ContainerPort,
    LabelSelector,
    LabelSelectorRequirement,
    Node,
    NodeAffinity,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    NodeSpec,
    NodeStatus,
    ObjectMeta,
    OwnerReference,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    PodCondition,
    PodDisruptionBudget,
    PodDisruptionBudgetSpec,
    PodDisruptionBudgetStatus,
    PodSpec,
    PodStatus,
    PreferredSchedulingTerm,
    PriorityClass,
    ReplicaSet,
    ReplicationController,
    ResourceList,
    ResourceRequirements,
    Service,
    StatefulSet,
    Taint,
    Toleration,
    TopologySpreadConstraint,
    WeightedPodAffinityTerm,
)
from .storage import (
    NAMESPACED,
    PV_SOURCE_KEYS,
    STORAGE_KINDS,
    CSIDriver,
    CSIDriverSpec,
    CSINode,
    CSINodeDriver,
    CSINodeSpec,
    CSIPersistentVolumeSource,
    ObjectReference,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    PersistentVolumeClaimStatus,
    PersistentVolumeSpec,
    PersistentVolumeStatus,
    StorageClass,
    TopologySelectorLabelRequirement,
    TopologySelectorTerm,
    VolumeNodeAffinity,
    VolumeNodeResources,
    VolumeResourceRequirements,
    label_of,
    set_defaults_storage_object,
)
from .strict import ShapeError, strict_decoding_message, strict_errors
from .validation import ValidationOptions, validate_objects

log = logging.getLogger(__name__)

REQUIRED_DURING = "requiredDuringSchedulingIgnoredDuringExecution"
PREFERRED_DURING = "preferredDuringSchedulingIgnoredDuringExecution"


# Raw kinds kept for later chapters: kind -> apiVersion.
RAW_KINDS = {
    "PodGroup": "scheduling.x-k8s.io/v1alpha1",
    "NodeResourceTopology": "topology.node.k8s.io/v1alpha2",
}

_RFC3339 = re.compile(
    r"^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MERGE_TAG = "tag:yaml.org,2002:merge"


class _StrictLoader(_FAST_LOADER):  # type: ignore[misc,valid-type]
    """The fast loader, remembering the keys a mapping repeats (``duplicates``, by ``id()``
    of the dict built): a strict decode refuses them, where a plain one keeps the last."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.duplicates: dict[int, list[str]] = {}

    def construct_strict_map(self, node: yaml.MappingNode) -> Any:
        data: dict = {}
        yield data
        merges = any(k.tag == _MERGE_TAG for k, _ in node.value)
        data.update(self.construct_mapping(node))
        if len(data) < len(node.value) and not merges:
            seen: set[str] = set()
            repeated = self.duplicates.setdefault(id(data), [])
            for key_node, _ in node.value:
                key = str(self.construct_object(key_node))
                if key in seen and key not in repeated:
                    repeated.append(key)
                seen.add(key)


_StrictLoader.add_constructor("tag:yaml.org,2002:map", _StrictLoader.construct_strict_map)


# --- reading one value, with its path for errors -------------------------------------


def _describe(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return f"boolean {str(v).lower()}"
    if isinstance(v, int):
        return f"integer {v}"
    if isinstance(v, float):
        return f"number {v}"
    if isinstance(v, str):
        return f'string "{v}"'
    if isinstance(v, dict):
        return "a map"
    if isinstance(v, list):
        return "a list"
    return type(v).__name__


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


@dataclass
class _Reader:
    """Reads the fields of one object; every error names the file and the object."""

    file: str
    label: str  # "Pod default/p", or "document 3" before the name is known
    # id(Quantity) -> (the Quantity, the text it was written as); field errors quote the text
    texts: Optional[dict[int, tuple[Quantity, str]]] = None

    def fail(self, path: str, message: str) -> NoReturn:
        raise ManifestError(self.file, self.label, path, message)

    def expected(self, path: str, what: str, v: Any) -> NoReturn:
        self.fail(path, f"expected {what}, got {_describe(v)}")

    def as_map(self, v: Any, path: str) -> dict:
        if v is None:
            return {}
        if not isinstance(v, dict):
            self.expected(path, "a map", v)
        return v

    def as_list(self, v: Any, path: str) -> list:
        if v is None:
            return []
        if not isinstance(v, list):
            self.expected(path, "a list", v)
        return v

    def as_str(self, v: Any, path: str, default: str = "") -> str:
        if v is None:
            return default
        if not isinstance(v, str):
            self.expected(path, "a string", v)
        return v

    def as_int(self, v: Any, path: str, default: Optional[int] = None) -> Optional[int]:
        if v is None:
            return default
        if isinstance(v, bool) or not isinstance(v, int):
            self.expected(path, "an integer", v)
        return v

    def as_bool(self, v: Any, path: str) -> bool:
        if v is None:
            return False
        if not isinstance(v, bool):
            self.expected(path, "a boolean", v)
        return v

    def str_map(self, v: Any, path: str) -> dict[str, str]:
        m = self.as_map(v, path)
        for k, val in m.items():
            self.as_str(k, path, "")
            if not isinstance(val, str):
                self.expected(_child(path, str(k)), "a string", val)
        return dict(m)

    def str_list(self, v: Any, path: str) -> list[str]:
        return [self.as_str(s, f"{path}[{i}]") for i, s in enumerate(self.as_list(v, path))]

    def optional_str(self, v: Any, path: str) -> Optional[str]:
        return None if v is None else self.as_str(v, path)

    def int_or_str(self, v: Any, path: str) -> Optional[Union[int, str]]:
        if v is None or isinstance(v, str):
            return v
        return self.as_int(v, path)

    def quantity(self, v: Any, path: str) -> Quantity:
        if isinstance(v, (dict, list)) or v is None:
            self.expected(path, "a quantity", v)
        try:
            q = Quantity(v)
        except QuantityError as e:
            self.fail(path, str(e))
        if self.texts is not None:
            self.texts[id(q)] = (q, v if isinstance(v, str) else repr(v))
        return q

    def resources(self, v: Any, path: str) -> ResourceList:
        """A ResourceList (validation checks the amounts)."""
        return {str(name): self.quantity(raw, _child(path, str(name)))
                for name, raw in self.as_map(v, path).items()}

    def time(self, v: Any, path: str) -> Optional[float]:
        """An RFC 3339 time (metav1.Time) as seconds since the epoch."""
        if v is None:
            return None
        if isinstance(v, dt.datetime):  # YAML may have parsed an unquoted time
            when = v if v.tzinfo else v.replace(tzinfo=dt.timezone.utc)
            return when.timestamp()
        text = v if isinstance(v, str) else str(v)
        m = _RFC3339.match(text)
        try:
            if not isinstance(v, str) or not m:
                raise ValueError(text)
            micros = (m.group(3) or ".")[1:7].ljust(6, "0")  # Python keeps microseconds
            zone = "+00:00" if m.group(4) in "Zz" else m.group(4)
            when = dt.datetime.fromisoformat(f"{m.group(1)}T{m.group(2)}.{micros}{zone}")
        except ValueError:
            self.fail(path, invalid(text, 'must be an RFC3339 time such as "2024-01-01T00:00:00Z"'))
        return when.timestamp()


# --- the pieces ----------------------------------------------------------------------


def _object_meta(r: _Reader, raw: dict) -> ObjectMeta:
    m = r.as_map(raw.get("metadata"), "metadata")
    owners = []
    for i, o in enumerate(r.as_list(m.get("ownerReferences"), "metadata.ownerReferences")):
        p = f"metadata.ownerReferences[{i}]"
        o = r.as_map(o, p)
        owners.append(OwnerReference(
            api_version=r.as_str(o.get("apiVersion"), _child(p, "apiVersion")),
            kind=r.as_str(o.get("kind"), _child(p, "kind")),
            name=r.as_str(o.get("name"), _child(p, "name")),
            uid=r.as_str(o.get("uid"), _child(p, "uid")),
            controller=r.as_bool(o.get("controller"), _child(p, "controller"))))
    return ObjectMeta(
        name=r.as_str(m.get("name"), "metadata.name"),
        namespace=r.as_str(m.get("namespace"), "metadata.namespace"),
        uid=r.as_str(m.get("uid"), "metadata.uid"),
        labels=r.str_map(m.get("labels"), "metadata.labels"),
        annotations=r.str_map(m.get("annotations"), "metadata.annotations"),
        creation_timestamp=r.time(m.get("creationTimestamp"), "metadata.creationTimestamp") or 0.0,
        deletion_timestamp=r.time(m.get("deletionTimestamp"), "metadata.deletionTimestamp"),
        resource_version=r.as_str(m.get("resourceVersion"), "metadata.resourceVersion"),
        owner_references=owners)


def _label_selector(r: _Reader, v: Any, path: str) -> Optional[LabelSelector]:
    if v is None:
        return None
    m = r.as_map(v, path)
    exprs = []
    for i, e in enumerate(r.as_list(m.get("matchExpressions"), _child(path, "matchExpressions"))):
        p = f"{_child(path, 'matchExpressions')}[{i}]"
        e = r.as_map(e, p)
        op = r.as_str(e.get("operator"), _child(p, "operator"))
        exprs.append(LabelSelectorRequirement(
            key=r.as_str(e.get("key"), _child(p, "key")), operator=op,
            values=r.str_list(e.get("values"), _child(p, "values"))))
    return LabelSelector(match_labels=r.str_map(m.get("matchLabels"), _child(path, "matchLabels")),
                         match_expressions=exprs)


def _node_selector_requirements(r: _Reader, v: Any, path: str) -> list[NodeSelectorRequirement]:
    out = []
    for i, e in enumerate(r.as_list(v, path)):
        p = f"{path}[{i}]"
        e = r.as_map(e, p)
        op = r.as_str(e.get("operator"), _child(p, "operator"))
        out.append(NodeSelectorRequirement(
            key=r.as_str(e.get("key"), _child(p, "key")), operator=op,
            values=r.str_list(e.get("values"), _child(p, "values"))))
    return out


def _node_selector_term(r: _Reader, v: Any, path: str) -> NodeSelectorTerm:
    m = r.as_map(v, path)
    return NodeSelectorTerm(
        match_expressions=_node_selector_requirements(
            r, m.get("matchExpressions"), _child(path, "matchExpressions")),
        match_fields=_node_selector_requirements(r, m.get("matchFields"), _child(path, "matchFields")))


def _node_affinity(r: _Reader, v: Any, path: str) -> Optional[NodeAffinity]:
    if v is None:
        return None
    m = r.as_map(v, path)
    required_ = None
    if m.get(REQUIRED_DURING) is not None:
        p = _child(path, REQUIRED_DURING)
        terms = r.as_list(r.as_map(m[REQUIRED_DURING], p).get("nodeSelectorTerms"),
                          _child(p, "nodeSelectorTerms"))
        required_ = NodeSelector([_node_selector_term(r, t, f"{p}.nodeSelectorTerms[{i}]")
                                  for i, t in enumerate(terms)])
    preferred = []
    for i, t in enumerate(r.as_list(m.get(PREFERRED_DURING), _child(path, PREFERRED_DURING))):
        p = f"{_child(path, PREFERRED_DURING)}[{i}]"
        t = r.as_map(t, p)
        preferred.append(PreferredSchedulingTerm(
            weight=r.as_int(t.get("weight"), _child(p, "weight"), 0),
            preference=_node_selector_term(r, t.get("preference"), _child(p, "preference"))))
    return NodeAffinity(required=required_, preferred=preferred)


def _pod_affinity_term(r: _Reader, v: Any, path: str) -> PodAffinityTerm:
    m = r.as_map(v, path)
    return PodAffinityTerm(
        topology_key=r.as_str(m.get("topologyKey"), _child(path, "topologyKey")),
        label_selector=_label_selector(r, m.get("labelSelector"), _child(path, "labelSelector")),
        namespaces=r.str_list(m.get("namespaces"), _child(path, "namespaces")),
        namespace_selector=_label_selector(r, m.get("namespaceSelector"),
                                           _child(path, "namespaceSelector")),
        match_label_keys=r.str_list(m.get("matchLabelKeys"), _child(path, "matchLabelKeys")),
        mismatch_label_keys=r.str_list(m.get("mismatchLabelKeys"), _child(path, "mismatchLabelKeys")))


def _pod_affinity(r: _Reader, v: Any, path: str) -> Optional[PodAffinity]:
    if v is None:
        return None
    m = r.as_map(v, path)
    req_path, pref_path = _child(path, REQUIRED_DURING), _child(path, PREFERRED_DURING)
    required_ = [_pod_affinity_term(r, t, f"{req_path}[{i}]")
                 for i, t in enumerate(r.as_list(m.get(REQUIRED_DURING), req_path))]
    preferred = []
    for i, t in enumerate(r.as_list(m.get(PREFERRED_DURING), pref_path)):
        p = f"{pref_path}[{i}]"
        t = r.as_map(t, p)
        preferred.append(WeightedPodAffinityTerm(
            weight=r.as_int(t.get("weight"), _child(p, "weight"), 0),
            pod_affinity_term=_pod_affinity_term(r, t.get("podAffinityTerm"),
                                                 _child(p, "podAffinityTerm"))))
    return PodAffinity(required=required_, preferred=preferred)


def _affinity(r: _Reader, v: Any, path: str) -> Optional[Affinity]:
    if v is None:
        return None
    m = r.as_map(v, path)
    return Affinity(
        node_affinity=_node_affinity(r, m.get("nodeAffinity"), _child(path, "nodeAffinity")),
        pod_affinity=_pod_affinity(r, m.get("podAffinity"), _child(path, "podAffinity")),
        pod_anti_affinity=_pod_affinity(r, m.get("podAntiAffinity"), _child(path, "podAntiAffinity")))


def _toleration(r: _Reader, v: Any, path: str) -> Toleration:
    m = r.as_map(v, path)
    return Toleration(
        key=r.as_str(m.get("key"), _child(path, "key")),
        operator=r.as_str(m.get("operator"), _child(path, "operator")),
        value=r.as_str(m.get("value"), _child(path, "value")),
        effect=r.as_str(m.get("effect"), _child(path, "effect")),
        toleration_seconds=r.as_int(m.get("tolerationSeconds"), _child(path, "tolerationSeconds")))


def _taint(r: _Reader, v: Any, path: str) -> Taint:
    m = r.as_map(v, path)
    return Taint(key=r.as_str(m.get("key"), _child(path, "key")),
                 effect=r.as_str(m.get("effect"), _child(path, "effect")),
                 value=r.as_str(m.get("value"), _child(path, "value")))


def _spread_constraint(r: _Reader, v: Any, path: str) -> TopologySpreadConstraint:
    m = r.as_map(v, path)
    return TopologySpreadConstraint(
        max_skew=r.as_int(m.get("maxSkew"), _child(path, "maxSkew"), 0),
        topology_key=r.as_str(m.get("topologyKey"), _child(path, "topologyKey")),
        when_unsatisfiable=r.as_str(m.get("whenUnsatisfiable"), _child(path, "whenUnsatisfiable")),
        label_selector=_label_selector(r, m.get("labelSelector"), _child(path, "labelSelector")),
        min_domains=r.as_int(m.get("minDomains"), _child(path, "minDomains")),
        node_affinity_policy=r.optional_str(m.get("nodeAffinityPolicy"), _child(path, "nodeAffinityPolicy")),
        node_taints_policy=r.optional_str(m.get("nodeTaintsPolicy"), _child(path, "nodeTaintsPolicy")),
        match_label_keys=r.str_list(m.get("matchLabelKeys"), _child(path, "matchLabelKeys")))


def _container(r: _Reader, v: Any, path: str) -> Container:
    m = r.as_map(v, path)
    name = r.as_str(m.get("name"), _child(path, "name"))
    res = r.as_map(m.get("resources"), _child(path, "resources"))
    ports = []
    for i, p in enumerate(r.as_list(m.get("ports"), _child(path, "ports"))):
        pp = f"{_child(path, 'ports')}[{i}]"
        p = r.as_map(p, pp)
        ports.append(ContainerPort(
            container_port=r.as_int(p.get("containerPort"), _child(pp, "containerPort"), 0),
            host_port=r.as_int(p.get("hostPort"), _child(pp, "hostPort"), 0),
            # v1 default: an empty protocol is TCP
            protocol=r.as_str(p.get("protocol"), _child(pp, "protocol")) or "TCP",
            host_ip=r.as_str(p.get("hostIP"), _child(pp, "hostIP"))))
    return Container(
        name=name,
        image=r.as_str(m.get("image"), _child(path, "image")),
        resources=ResourceRequirements(
            requests=r.resources(res.get("requests"), _child(path, "resources.requests")),
            limits=r.resources(res.get("limits"), _child(path, "resources.limits"))),
        ports=ports,
        restart_policy=r.as_str(m.get("restartPolicy"), _child(path, "restartPolicy"), None))


def _containers(r: _Reader, v: Any, path: str) -> list[Container]:
    return [_container(r, c, f"{path}[{i}]") for i, c in enumerate(r.as_list(v, path))]


# --- the kinds -------------------------------------------------------------------------


def _pod(r: _Reader, raw: dict) -> Pod:
    spec = r.as_map(raw.get("spec"), "spec")
    status = r.as_map(raw.get("status"), "status")
    containers = _containers(r, spec.get("containers"), "spec.containers")
    gates = []
    for i, g in enumerate(r.as_list(spec.get("schedulingGates"), "spec.schedulingGates")):
        gates.append(r.as_str(r.as_map(g, f"spec.schedulingGates[{i}]").get("name"),
                              f"spec.schedulingGates[{i}].name"))
    volumes = r.as_list(spec.get("volumes"), "spec.volumes")
    for i, vol in enumerate(volumes):
        r.as_map(vol, f"spec.volumes[{i}]")
    conditions = []
    for i, c in enumerate(r.as_list(status.get("conditions"), "status.conditions")):
        p = f"status.conditions[{i}]"
        c = r.as_map(c, p)
        conditions.append(PodCondition(
            type=r.as_str(c.get("type"), _child(p, "type")),
            status=r.as_str(c.get("status"), _child(p, "status")),
            reason=r.as_str(c.get("reason"), _child(p, "reason")),
            message=r.as_str(c.get("message"), _child(p, "message"))))
    return Pod(
        metadata=_object_meta(r, raw),
        spec=PodSpec(
            containers=containers,
            init_containers=_containers(r, spec.get("initContainers"), "spec.initContainers"),
            overhead=r.resources(spec.get("overhead"), "spec.overhead"),
            node_selector=r.str_map(spec.get("nodeSelector"), "spec.nodeSelector"),
            affinity=_affinity(r, spec.get("affinity"), "spec.affinity"),
            tolerations=[_toleration(r, t, f"spec.tolerations[{i}]")
                         for i, t in enumerate(r.as_list(spec.get("tolerations"), "spec.tolerations"))],
            node_name=r.as_str(spec.get("nodeName"), "spec.nodeName"),
            priority=r.as_int(spec.get("priority"), "spec.priority"),
            priority_class_name=r.as_str(spec.get("priorityClassName"), "spec.priorityClassName"),
            preemption_policy=r.optional_str(spec.get("preemptionPolicy"), "spec.preemptionPolicy"),
            scheduling_gates=gates,
            scheduler_name=r.as_str(spec.get("schedulerName"), "spec.schedulerName"),
            topology_spread_constraints=[
                _spread_constraint(r, c, f"spec.topologySpreadConstraints[{i}]")
                for i, c in enumerate(r.as_list(spec.get("topologySpreadConstraints"),
                                                "spec.topologySpreadConstraints"))],
            termination_grace_period_seconds=r.as_int(spec.get("terminationGracePeriodSeconds"),
                                                      "spec.terminationGracePeriodSeconds"),
            volumes=list(volumes)),
        status=PodStatus(
            phase=r.as_str(status.get("phase"), "status.phase"),
            conditions=conditions,
            nominated_node_name=r.as_str(status.get("nominatedNodeName"), "status.nominatedNodeName"),
            start_time=r.time(status.get("startTime"), "status.startTime")))


def _node(r: _Reader, raw: dict) -> Node:
    spec = r.as_map(raw.get("spec"), "spec")
    status = r.as_map(raw.get("status"), "status")
    images = []
    for i, img in enumerate(r.as_list(status.get("images"), "status.images")):
        p = f"status.images[{i}]"
        img = r.as_map(img, p)
        images.append(ContainerImage(names=r.str_list(img.get("names"), _child(p, "names")),
                                     size_bytes=r.as_int(img.get("sizeBytes"), _child(p, "sizeBytes"), 0)))
    return Node(
        metadata=_object_meta(r, raw),
        spec=NodeSpec(
            unschedulable=r.as_bool(spec.get("unschedulable"), "spec.unschedulable"),
            taints=[_taint(r, t, f"spec.taints[{i}]")
                    for i, t in enumerate(r.as_list(spec.get("taints"), "spec.taints"))]),
        status=NodeStatus(
            capacity=r.resources(status.get("capacity"), "status.capacity"),
            allocatable=r.resources(status.get("allocatable"), "status.allocatable"),
            images=images))


def _priority_class(r: _Reader, raw: dict) -> PriorityClass:
    return PriorityClass(
        metadata=_object_meta(r, raw),
        value=r.as_int(raw.get("value"), "value", 0),
        global_default=r.as_bool(raw.get("globalDefault"), "globalDefault"),
        preemption_policy=r.optional_str(raw.get("preemptionPolicy"), "preemptionPolicy"))


def _pdb(r: _Reader, raw: dict) -> PodDisruptionBudget:
    spec = r.as_map(raw.get("spec"), "spec")
    status = r.as_map(raw.get("status"), "status")
    disrupted = {}
    for name, when in r.as_map(status.get("disruptedPods"), "status.disruptedPods").items():
        disrupted[str(name)] = r.time(when, f"status.disruptedPods.{name}") or 0.0
    return PodDisruptionBudget(
        metadata=_object_meta(r, raw),
        spec=PodDisruptionBudgetSpec(
            selector=_label_selector(r, spec.get("selector"), "spec.selector"),
            min_available=r.int_or_str(spec.get("minAvailable"), "spec.minAvailable"),
            max_unavailable=r.int_or_str(spec.get("maxUnavailable"), "spec.maxUnavailable")),
        status=PodDisruptionBudgetStatus(
            disruptions_allowed=r.as_int(status.get("disruptionsAllowed"), "status.disruptionsAllowed", 0),
            current_healthy=r.as_int(status.get("currentHealthy"), "status.currentHealthy", 0),
            desired_healthy=r.as_int(status.get("desiredHealthy"), "status.desiredHealthy", 0),
            expected_pods=r.as_int(status.get("expectedPods"), "status.expectedPods", 0),
            disrupted_pods=disrupted))


def _service(r: _Reader, raw: dict) -> Service:
    spec = r.as_map(raw.get("spec"), "spec")
    return Service(metadata=_object_meta(r, raw), selector=r.str_map(spec.get("selector"), "spec.selector"))


def _replication_controller(r: _Reader, raw: dict) -> ReplicationController:
    spec = r.as_map(raw.get("spec"), "spec")
    return ReplicationController(metadata=_object_meta(r, raw),
                                 selector=r.str_map(spec.get("selector"), "spec.selector"))


def _replica_set(r: _Reader, raw: dict) -> ReplicaSet:
    spec = r.as_map(raw.get("spec"), "spec")
    return ReplicaSet(metadata=_object_meta(r, raw),
                      selector=_label_selector(r, spec.get("selector"), "spec.selector"))


def _stateful_set(r: _Reader, raw: dict) -> StatefulSet:
    spec = r.as_map(raw.get("spec"), "spec")
    return StatefulSet(metadata=_object_meta(r, raw),
                       selector=_label_selector(r, spec.get("selector"), "spec.selector"))


# --- storage kinds (api/storage.py) ------------------------------------------------------


def _topology_terms(r: _Reader, v: Any, path: str) -> list[TopologySelectorTerm]:
    terms = []
    for i, t in enumerate(r.as_list(v, path)):
        p = f"{path}[{i}]"
        t = r.as_map(t, p)
        exprs = []
        for j, e in enumerate(r.as_list(t.get("matchLabelExpressions"), _child(p, "matchLabelExpressions"))):
            pe = f"{_child(p, 'matchLabelExpressions')}[{j}]"
            e = r.as_map(e, pe)
            exprs.append(TopologySelectorLabelRequirement(
                key=r.as_str(e.get("key"), _child(pe, "key")), values=r.str_list(e.get("values"), _child(pe, "values"))))
        terms.append(TopologySelectorTerm(exprs))
    return terms


def _optional_bool(r: _Reader, v: Any, path: str) -> Optional[bool]:
    return None if v is None else r.as_bool(v, path)


def _persistent_volume_claim(r: _Reader, raw: dict) -> PersistentVolumeClaim:
    spec = r.as_map(raw.get("spec"), "spec")
    status = r.as_map(raw.get("status"), "status")
    res = r.as_map(spec.get("resources"), "spec.resources")
    return PersistentVolumeClaim(
        metadata=_object_meta(r, raw),
        spec=PersistentVolumeClaimSpec(
            access_modes=r.str_list(spec.get("accessModes"), "spec.accessModes"),
            selector=_label_selector(r, spec.get("selector"), "spec.selector"),
            resources=VolumeResourceRequirements(
                requests=r.resources(res.get("requests"), "spec.resources.requests"),
                limits=r.resources(res.get("limits"), "spec.resources.limits")),
            volume_name=r.as_str(spec.get("volumeName"), "spec.volumeName"),
            storage_class_name=r.optional_str(spec.get("storageClassName"), "spec.storageClassName"),
            volume_mode=r.optional_str(spec.get("volumeMode"), "spec.volumeMode")),
        status=PersistentVolumeClaimStatus(
            phase=r.as_str(status.get("phase"), "status.phase"),
            access_modes=r.str_list(status.get("accessModes"), "status.accessModes"),
            capacity=r.resources(status.get("capacity"), "status.capacity")))


def _persistent_volume(r: _Reader, raw: dict) -> PersistentVolume:
    spec = r.as_map(raw.get("spec"), "spec")
    status = r.as_map(raw.get("status"), "status")
    source = {k: r.as_map(spec[k], _child("spec", k)) for k in PV_SOURCE_KEYS if spec.get(k) is not None}
    csi = None
    if "csi" in source:
        c = source["csi"]
        csi = CSIPersistentVolumeSource(
            driver=r.as_str(c.get("driver"), "spec.csi.driver"),
            volume_handle=r.as_str(c.get("volumeHandle"), "spec.csi.volumeHandle"),
            read_only=r.as_bool(c.get("readOnly"), "spec.csi.readOnly"),
            fs_type=r.as_str(c.get("fsType"), "spec.csi.fsType"),
            volume_attributes=r.str_map(c.get("volumeAttributes"), "spec.csi.volumeAttributes"))
    claim_ref = None
    if spec.get("claimRef") is not None:
        c = r.as_map(spec["claimRef"], "spec.claimRef")
        claim_ref = ObjectReference(
            kind=r.as_str(c.get("kind"), "spec.claimRef.kind"),
            namespace=r.as_str(c.get("namespace"), "spec.claimRef.namespace"),
            name=r.as_str(c.get("name"), "spec.claimRef.name"),
            uid=r.as_str(c.get("uid"), "spec.claimRef.uid"),
            api_version=r.as_str(c.get("apiVersion"), "spec.claimRef.apiVersion"),
            resource_version=r.as_str(c.get("resourceVersion"), "spec.claimRef.resourceVersion"))
    node_affinity = None
    if spec.get("nodeAffinity") is not None:
        na = r.as_map(spec["nodeAffinity"], "spec.nodeAffinity")
        required_ = None
        if na.get("required") is not None:
            p = "spec.nodeAffinity.required"
            terms = r.as_list(r.as_map(na["required"], p).get("nodeSelectorTerms"), _child(p, "nodeSelectorTerms"))
            required_ = NodeSelector([_node_selector_term(r, t, f"{p}.nodeSelectorTerms[{i}]")
                                      for i, t in enumerate(terms)])
        node_affinity = VolumeNodeAffinity(required_)
    return PersistentVolume(
        metadata=_object_meta(r, raw),
        spec=PersistentVolumeSpec(
            capacity=r.resources(spec.get("capacity"), "spec.capacity"),
            source=source,
            csi=csi,
            access_modes=r.str_list(spec.get("accessModes"), "spec.accessModes"),
            claim_ref=claim_ref,
            persistent_volume_reclaim_policy=r.as_str(spec.get("persistentVolumeReclaimPolicy"),
                                                      "spec.persistentVolumeReclaimPolicy"),
            storage_class_name=r.as_str(spec.get("storageClassName"), "spec.storageClassName"),
            volume_mode=r.optional_str(spec.get("volumeMode"), "spec.volumeMode"),
            node_affinity=node_affinity),
        status=PersistentVolumeStatus(phase=r.as_str(status.get("phase"), "status.phase")))


def _storage_class(r: _Reader, raw: dict) -> StorageClass:
    return StorageClass(
        metadata=_object_meta(r, raw),
        provisioner=r.as_str(raw.get("provisioner"), "provisioner"),
        parameters=r.str_map(raw.get("parameters"), "parameters"),
        reclaim_policy=r.optional_str(raw.get("reclaimPolicy"), "reclaimPolicy"),
        allow_volume_expansion=_optional_bool(r, raw.get("allowVolumeExpansion"), "allowVolumeExpansion"),
        volume_binding_mode=r.optional_str(raw.get("volumeBindingMode"), "volumeBindingMode"),
        allowed_topologies=_topology_terms(r, raw.get("allowedTopologies"), "allowedTopologies"))


def _csi_node(r: _Reader, raw: dict) -> CSINode:
    spec = r.as_map(raw.get("spec"), "spec")
    drivers = []
    for i, d in enumerate(r.as_list(spec.get("drivers"), "spec.drivers")):
        p = f"spec.drivers[{i}]"
        d = r.as_map(d, p)
        allocatable = None
        if d.get("allocatable") is not None:
            a = r.as_map(d["allocatable"], _child(p, "allocatable"))
            allocatable = VolumeNodeResources(r.as_int(a.get("count"), _child(p, "allocatable.count")))
        drivers.append(CSINodeDriver(
            name=r.as_str(d.get("name"), _child(p, "name")),
            node_id=r.as_str(d.get("nodeID"), _child(p, "nodeID")),
            topology_keys=r.str_list(d.get("topologyKeys"), _child(p, "topologyKeys")),
            allocatable=allocatable))
    return CSINode(metadata=_object_meta(r, raw), spec=CSINodeSpec(drivers))


def _csi_driver(r: _Reader, raw: dict) -> CSIDriver:
    spec = r.as_map(raw.get("spec"), "spec")
    return CSIDriver(metadata=_object_meta(r, raw), spec=CSIDriverSpec(
        attach_required=_optional_bool(r, spec.get("attachRequired"), "spec.attachRequired"),
        pod_info_on_mount=_optional_bool(r, spec.get("podInfoOnMount"), "spec.podInfoOnMount"),
        volume_lifecycle_modes=r.str_list(spec.get("volumeLifecycleModes"), "spec.volumeLifecycleModes"),
        storage_capacity=_optional_bool(r, spec.get("storageCapacity"), "spec.storageCapacity"),
        fs_group_policy=r.optional_str(spec.get("fsGroupPolicy"), "spec.fsGroupPolicy"),
        requires_republish=_optional_bool(r, spec.get("requiresRepublish"), "spec.requiresRepublish"),
        se_linux_mount=_optional_bool(r, spec.get("seLinuxMount"), "spec.seLinuxMount")))


# kind -> (apiVersion, decoder, Cluster attribute)
KINDS: dict[str, tuple[str, Callable[[_Reader, dict], Any], str]] = {
    "Node": ("v1", _node, "nodes"),
    "Pod": ("v1", _pod, "pods"),
    "Service": ("v1", _service, "services"),
    "ReplicationController": ("v1", _replication_controller, "replication_controllers"),
    "PriorityClass": ("scheduling.k8s.io/v1", _priority_class, "priority_classes"),
    "PodDisruptionBudget": ("policy/v1", _pdb, "pdbs"),
    "ReplicaSet": ("apps/v1", _replica_set, "replica_sets"),
    "StatefulSet": ("apps/v1", _stateful_set, "stateful_sets"),
    "PersistentVolumeClaim": ("v1", _persistent_volume_claim, "persistent_volume_claims"),
    "PersistentVolume": ("v1", _persistent_volume, "persistent_volumes"),
    "StorageClass": ("storage.k8s.io/v1", _storage_class, "storage_classes"),
    "CSINode": ("storage.k8s.io/v1", _csi_node, "csi_nodes"),
    "CSIDriver": ("storage.k8s.io/v1", _csi_driver, "csi_drivers"),
}


# --- documents -------------------------------------------------------------------------


@dataclass
class _Loaded:
    """One decoded object and where it came from."""

    kind: str
    key: tuple[str, str, str]  # (kind, namespace, name) with the namespace defaulted
    obj: Any  # a dataclass, or the raw mapping of a RAW_KINDS object
    file: str
    where: str  # "document 3" or "document 3, items[0]"


def _decode_object(raw: Any, file: str, where: str, out: list[_Loaded], warnings: list[str],
                   texts: Optional[dict[int, tuple[Quantity, str]]] = None,
                   duplicates: Optional[dict[int, list[str]]] = None) -> None:
    """Decode one object (``duplicates`` given: strictly, refusing unknown and repeated fields)."""
    r = _Reader(file, where, texts)
    if not isinstance(raw, dict):
        r.fail("", f"expected a map with apiVersion and kind, got {_describe(raw)}")
    api_version = r.as_str(raw.get("apiVersion"), "apiVersion")
    kind = r.as_str(raw.get("kind"), "kind")
    if not kind:
        r.fail("kind", required())
    if not api_version:
        r.fail("apiVersion", required())
    if kind == "List":
        if duplicates is not None:
            r.label = f"List in {where}"
            _check_strict(r, "List", raw, duplicates)
            r.label = where
        for i, item in enumerate(r.as_list(raw.get("items"), "items")):
            _decode_object(item, file, f"{where}, items[{i}]", out, warnings, texts, duplicates)
        return

    meta = r.as_map(raw.get("metadata"), "metadata")
    name = r.as_str(meta.get("name"), "metadata.name")
    namespace = r.as_str(meta.get("namespace"), "metadata.namespace")
    if kind not in KINDS and kind not in RAW_KINDS:
        label = f"{kind} {namespace + '/' if namespace else ''}{name}" if name else f"{kind} in {where}"
        warnings.append(f"{file}: {label}: skipped: the scheduler does not read {api_version} {kind}")
        return
    if not name:
        r.label = f"{kind} in {where}"
        r.fail("metadata.name", required("name or generateName is required"))
    r.label = label_of(kind, namespace, name)
    want_version = KINDS[kind][0] if kind in KINDS else RAW_KINDS[kind]
    if api_version != want_version:
        r.fail("apiVersion", f'no matches for kind "{kind}" in version "{api_version}"')
    if kind in NAMESPACED:
        namespace = namespace or NAMESPACE_DEFAULT
    key = (kind, namespace if kind in NAMESPACED else "", name)
    obj = KINDS[kind][1](r, raw) if kind in KINDS else raw
    if duplicates is not None:
        _check_strict(r, kind, raw, duplicates)
    out.append(_Loaded(kind, key, obj, file, where))


def _check_strict(r: _Reader, kind: str, raw: dict, duplicates: dict[int, list[str]]) -> None:
    """Refuse the object's unknown and duplicate fields, as strict field validation does."""
    try:
        errors = strict_errors(kind, raw, duplicates)
    except ShapeError as e:
        r.expected(e.path, e.expected, e.value)
    if errors:
        raise StrictDecodingError(r.file, r.label, errors, strict_decoding_message(errors))


def _yaml_documents(text: str, filename: str,
                    duplicates: Optional[dict[int, list[str]]] = None) -> list[Any]:
    """Every YAML document of ``text``; a syntax error names its line. With ``duplicates``
    given, the keys each mapping repeats are added to it (by ``id()`` of the mapping)."""
    try:
        if duplicates is None:
            return list(yaml.load_all(text, Loader=_FAST_LOADER))
        loader = _StrictLoader(text)
        try:
            documents = []
            while loader.check_data():
                documents.append(loader.get_data())
        finally:
            loader.dispose()
        duplicates.update((k, v) for k, v in loader.duplicates.items() if v)
        return documents
    except yaml.YAMLError:
        pass
    # Parse again with the pure-Python loader, whose messages do not depend on
    # whether libyaml is installed, counting the documents read before the error.
    number = 0
    try:
        for number, _ in enumerate(yaml.load_all(text, Loader=yaml.SafeLoader), start=1):
            pass
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        line = f"line {mark.line + 1}: " if mark is not None else ""
        raise ManifestError(filename, f"document {number + 1}", "", f"yaml: {line}{problem}") from None
    raise ManifestError(filename, "", "", "yaml: the file could not be parsed")


def _decode_text(text: str, filename: str,
                 texts: Optional[dict[int, tuple[Quantity, str]]] = None,
                 strict: bool = True) -> tuple[list[_Loaded], list[str]]:
    out: list[_Loaded] = []
    warnings: list[str] = []
    duplicates: Optional[dict[int, list[str]]] = {} if strict else None
    for number, doc in enumerate(_yaml_documents(text, filename, duplicates), start=1):
        if doc is not None:  # an empty document, as kubectl skips it
            _decode_object(doc, filename, f"document {number}", out, warnings, texts, duplicates)
    return out, warnings


def _validation_options(texts: dict[int, tuple[Quantity, str]]) -> ValidationOptions:
    def quantity_text(q: Quantity) -> Optional[str]:
        known = texts.get(id(q))
        return known[1] if known is not None and known[0] is q else None
    return ValidationOptions(quantity_text=quantity_text)


def _validate(loaded: list[_Loaded], texts: dict[int, tuple[Quantity, str]]) -> None:
    """Validate the (defaulted) objects in file order, as kube-apiserver would on create."""
    try:
        validate_objects((item.obj for item in loaded), _validation_options(texts))
    except ManifestError as e:
        origin = {label_of(*i.key): i.file for i in loaded}
        raise e.with_file(origin.get(e.object, "")) from None


def _defaulted_copy(item: _Loaded) -> Any:
    """A copy of one object with the v1 defaults an API server applies (no admission)."""
    obj = copy.deepcopy(item.obj)
    if isinstance(obj, Pod):
        set_defaults_pod(obj)
    elif isinstance(obj, Node):
        set_defaults_node(obj)
    elif isinstance(obj, PriorityClass):
        set_defaults_priority_class(obj)
    elif item.kind in STORAGE_KINDS:
        set_defaults_storage_object(obj)
    elif hasattr(obj, "metadata"):
        set_defaults_object_meta(item.kind, obj.metadata)
    return obj


def _check_unique(loaded: list[_Loaded]) -> None:
    """Two objects of one kind may not share a namespace and name."""
    seen: dict[tuple[str, str, str], _Loaded] = {}
    for item in loaded:
        first = seen.setdefault(item.key, item)
        if first is not item:
            kind, namespace, name = item.key
            raise ManifestError(item.file, label_of(kind, namespace, name), "metadata.name",
                                f"{duplicate(name)}: already defined in {first.file}, {first.where}")


@plumbing("YAML manifest decoding for the simulator")
def load_objects(text: str, filename: str = "<string>", *, strict: bool = True) -> list[Any]:
    """Decode every object of one YAML text, in order, without defaulting.

    Typed kinds become dataclasses; PodGroup and NodeResourceTopology stay raw
    mappings; other kinds are skipped with a logged warning. An object the API
    server would refuse (judged on a defaulted copy) raises InvalidObjectError;
    one with a field its API type lacks, or a key written twice, raises
    StrictDecodingError (``strict=False`` drops the field and keeps the last key,
    as a decode without strict field validation does).
    """
    texts: dict[int, tuple[Quantity, str]] = {}
    loaded, warnings = _decode_text(text, filename, texts, strict)
    _check_unique(loaded)
    # Refuse what the API server would refuse, judging defaulted copies.
    _validate([dataclasses.replace(item, obj=_defaulted_copy(item)) for item in loaded], texts)
    for w in warnings:
        log.warning(w)
    return [item.obj for item in loaded]


def _manifest_files(paths: Union[str, Path, Sequence[Union[str, Path]]]) -> list[tuple[Path, bool]]:
    """Each file to read, and whether it was named (not found in a directory)."""
    given = [paths] if isinstance(paths, (str, Path)) else list(paths)
    files: list[tuple[Path, bool]] = []
    for p in map(Path, given):
        if p.is_dir():
            files += sorted((f, False) for f in p.iterdir() if f.suffix in (".yaml", ".yml"))
        else:
            files.append((p, True))
    return files


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ManifestError(str(path), "", "", "no such file or directory") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ManifestError(str(path), "", "", str(e)) from None


@plumbing("manifest loading for the simulator")
def load_cluster(paths: Union[str, Path, Sequence[Union[str, Path]]], *, validate: bool = True,
                 strict: bool = True) -> Cluster:
    """Load one manifest file, a directory of them, or a list, into a defaulted Cluster.

    Objects keep their file order within each kind. Raises ManifestError and
    returns nothing when any object is bad: InvalidObjectError when
    kube-apiserver's validation would refuse it, StrictDecodingError when an
    object has a field its API type lacks or a key written twice (kubectl's and
    kube-apiserver's strict field validation). ``validate=False`` skips the
    validation (decoding and defaulting still check types), as a client-go fake
    clientset accepts any object; ``strict=False`` drops unknown fields and keeps
    the last of a repeated key, as a Go decode without strict validation does.
    """
    loaded: list[_Loaded] = []
    warnings: list[str] = []
    texts: dict[int, tuple[Quantity, str]] = {}
    for path, named in _manifest_files(paths):
        objs, warns = _decode_text(_read(path), str(path), texts, strict)
        if named and not objs and not warns:
            # as kubectl apply -f refuses a file with nothing in it ("no objects passed to apply")
            raise ManifestError(str(path), "", "", "no objects in the file")
        loaded += objs
        warnings += warns
    _check_unique(loaded)

    cluster = Cluster(warnings=warnings)
    for item in loaded:
        if item.kind in KINDS:
            getattr(cluster, KINDS[item.kind][2]).append(item.obj)
        else:
            cluster.extra.setdefault(item.kind, []).append(item.obj)
    try:
        apply_defaults(cluster)
        for kind in STORAGE_KINDS:
            for obj in getattr(cluster, KINDS[kind][2]):
                set_defaults_storage_object(obj)
    except ManifestError as e:
        origin = {label_of(*i.key): i.file for i in loaded}
        raise e.with_file(origin.get(e.object, "")) from None
    if validate:
        _validate(loaded, texts)  # after defaulting, as the API server does
    for w in warnings:
        log.warning(w)
    return cluster
