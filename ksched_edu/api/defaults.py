"""Port of pkg/apis/core/v1/defaults.go, pkg/apis/scheduling/v1/defaults.go,
pkg/apis/storage/v1/defaults.go and plugin/pkg/admission/priority/admission.go
(v1.30), the parts the scheduler relies on.

An API server fills in fields a manifest leaves out before any scheduler sees
the object: the namespace, the scheduler name, requests taken from limits, a
node's allocatable taken from its capacity, and a pod's priority taken from its
PriorityClass (the Priority admission plugin). :func:`apply_defaults` does the
same to a loaded :class:`~ksched_edu.api.types.Cluster`, in place.

Deviations:
- Priority admission runs only for a pod whose ``spec.priority`` is absent, as
  the conformance harness does (the real plugin refuses a pod whose priority
  differs from its class's value, and then also copies the class's
  preemptionPolicy).
- A pod's ``preemptionPolicy`` still unset afterwards becomes
  PreemptLowerPriority, which is how the scheduler reads a nil policy anyway.
- The UID is derived from kind, namespace and name (a UUID5), not random, so
  two loads of the same manifest give the same objects.
- An empty ``allocatable: {}`` counts as absent (Go tells nil from empty).
- PodDisruptionBudget and TopologySpreadConstraint have no defaults here: their
  nil fields (e.g. ``nodeAffinityPolicy``) stay ``None``, which the plugins
  read as upstream reads nil.
"""
from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Iterable, Optional

from ..anchors import plumbing, ports
from .errors import ManifestError

if TYPE_CHECKING:
    from .storage import CSIDriver, StorageClass
from .types import (
    DEFAULT_SCHEDULER_NAME,
    PREEMPT_LOWER_PRIORITY,
    Cluster,
    Container,
    Node,
    ObjectMeta,
    Pod,
    PriorityClass,
)

NAMESPACE_DEFAULT = "default"
# Kinds that live in a namespace; Node, PriorityClass and NodeResourceTopology do not.
NAMESPACED_KINDS = frozenset({
    "Pod", "Service", "PodDisruptionBudget", "ReplicaSet", "StatefulSet",
    "ReplicationController", "PodGroup",
})
DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30  # core/v1 DefaultTerminationGracePeriodSeconds
TOLERATION_OP_EQUAL = "Equal"

# PriorityClasses every API server creates at start-up (scheduling/types.go).
SYSTEM_CRITICAL_PRIORITY = 2 * 1000000000
SYSTEM_PRIORITY_CLASSES = {
    "system-cluster-critical": SYSTEM_CRITICAL_PRIORITY,
    "system-node-critical": SYSTEM_CRITICAL_PRIORITY + 1000,
}
DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS = 0

_UID_NAMESPACE = uuid.UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")  # uuid.NAMESPACE_URL


@plumbing("stable UIDs for objects loaded from manifests")
def object_uid(kind: str, namespace: str, name: str) -> str:
    """A stable UID for an object that came without one."""
    return str(uuid.uuid5(_UID_NAMESPACE, f"ksched-edu:{kind}/{namespace}/{name}"))


@plumbing("names an object in error messages")
def object_label(kind: str, namespace: str, name: str) -> str:
    """How errors name an object: "Pod default/p", "Node n1"."""
    if kind in NAMESPACED_KINDS:
        return f"{kind} {namespace or NAMESPACE_DEFAULT}/{name}"
    return f"{kind} {name}"


@plumbing("namespace and UID an API server would fill in")
def set_defaults_object_meta(kind: str, meta: ObjectMeta) -> None:
    """Namespace "default" for a namespaced kind (as kubectl sends it), and a UID."""
    if kind in NAMESPACED_KINDS and not meta.namespace:
        meta.namespace = NAMESPACE_DEFAULT
    if not meta.uid:
        meta.uid = object_uid(kind, meta.namespace, meta.name)


def _requests_from_limits(c: Container) -> None:
    # If limits are given but a request is not, the request defaults to the limit.
    for name, limit in c.resources.limits.items():
        if name not in c.resources.requests:
            c.resources.requests[name] = limit


@ports("pkg/apis/core/v1/defaults.go", "SetDefaults_Pod", 158, 219)
def set_defaults_pod(pod: Pod) -> None:
    """Upstream SetDefaults_Pod and SetDefaults_PodSpec (the fields the scheduler reads)."""
    set_defaults_object_meta("Pod", pod.metadata)
    for c in pod.spec.containers:
        _requests_from_limits(c)
    for c in pod.spec.init_containers:
        _requests_from_limits(c)
    if not pod.spec.scheduler_name:
        pod.spec.scheduler_name = DEFAULT_SCHEDULER_NAME
    if pod.spec.termination_grace_period_seconds is None:
        pod.spec.termination_grace_period_seconds = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS
    for t in pod.spec.tolerations:
        if not t.operator:
            t.operator = TOLERATION_OP_EQUAL  # an empty operator means Equal


@ports("pkg/apis/core/v1/defaults.go", "SetDefaults_NodeStatus", 389, 397)
def set_defaults_node(node: Node) -> None:
    """Upstream SetDefaults_NodeStatus: allocatable is the capacity when absent."""
    set_defaults_object_meta("Node", node.metadata)
    if not node.status.allocatable and node.status.capacity:
        node.status.allocatable = dict(node.status.capacity)


def set_defaults_priority_class(pc: PriorityClass) -> None:
    """Upstream SetDefaults_PriorityClass."""
    set_defaults_object_meta("PriorityClass", pc.metadata)
    if pc.preemption_policy is None:
        pc.preemption_policy = PREEMPT_LOWER_PRIORITY


def default_priority_class(classes: Iterable[PriorityClass]) -> Optional[PriorityClass]:
    """Upstream getDefaultPriorityClass: the globalDefault class; the lowest
    value wins when several claim it."""
    found: Optional[PriorityClass] = None
    for pc in classes:
        if pc.global_default and (found is None or found.value > pc.value):
            found = pc
    return found


def admit_pod_priority(pod: Pod, classes: Iterable[PriorityClass]) -> None:
    """The Priority admission plugin: spec.priority and spec.preemptionPolicy
    from the pod's PriorityClass (or the global default one).

    Raises ManifestError naming ``spec.priorityClassName`` for an unknown
    class, or ``spec.preemptionPolicy`` when the pod's own policy disagrees
    with the one the class gives.
    """
    if pod.spec.priority is not None:
        return  # upstream: admission runs on every create (see Deviations)
    classes = list(classes)
    if not pod.spec.priority_class_name:
        pc = default_priority_class(classes)
        if pc is None:
            priority, policy = DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS, PREEMPT_LOWER_PRIORITY
        else:
            pod.spec.priority_class_name = pc.metadata.name
            priority, policy = pc.value, pc.preemption_policy
    else:
        name = pod.spec.priority_class_name
        by_name = {pc.metadata.name: pc for pc in classes}
        if name in by_name:
            priority, policy = by_name[name].value, by_name[name].preemption_policy
        elif name in SYSTEM_PRIORITY_CLASSES:
            priority, policy = SYSTEM_PRIORITY_CLASSES[name], PREEMPT_LOWER_PRIORITY
        else:
            raise ManifestError(
                object=object_label("Pod", pod.metadata.namespace, pod.metadata.name),
                field="spec.priorityClassName",
                message=f"no PriorityClass with name {name} was found")
    pod.spec.priority = priority
    if policy is not None:
        if pod.spec.preemption_policy is not None and pod.spec.preemption_policy != policy:
            raise ManifestError(
                object=object_label("Pod", pod.metadata.namespace, pod.metadata.name),
                field="spec.preemptionPolicy",
                message=(f"the string value of PreemptionPolicy ({pod.spec.preemption_policy}) must not be "
                         f"provided in pod spec; priority admission controller computed {policy} "
                         "from the given PriorityClass name"))
        pod.spec.preemption_policy = policy


@plumbing("applies the defaulting functions to a loaded cluster")
def apply_defaults(cluster: Cluster) -> Cluster:
    """Default every object of ``cluster`` in place, as an API server would on create."""
    for pc in cluster.priority_classes:
        set_defaults_priority_class(pc)
    for node in cluster.nodes:
        set_defaults_node(node)
    for pod in cluster.pods:
        set_defaults_pod(pod)
        admit_pod_priority(pod, cluster.priority_classes)
        if pod.spec.preemption_policy is None:
            pod.spec.preemption_policy = PREEMPT_LOWER_PRIORITY
    for kind, objects in (("PodDisruptionBudget", cluster.pdbs), ("Service", cluster.services),
                          ("ReplicaSet", cluster.replica_sets), ("StatefulSet", cluster.stateful_sets),
                          ("ReplicationController", cluster.replication_controllers)):
        for obj in objects:
            set_defaults_object_meta(kind, obj.metadata)
    return cluster


# --- storage.k8s.io/v1 (pkg/apis/storage/v1/defaults.go) ----------------------------------------


def set_defaults_storage_class(sc: "StorageClass") -> None:
    """SetDefaults_StorageClass (pkg/apis/storage/v1/defaults.go): Delete, Immediate."""
    from .storage import RECLAIM_DELETE, VOLUME_BINDING_IMMEDIATE

    if sc.reclaim_policy is None:
        sc.reclaim_policy = RECLAIM_DELETE
    if sc.volume_binding_mode is None:
        sc.volume_binding_mode = VOLUME_BINDING_IMMEDIATE


def set_defaults_csi_driver(d: "CSIDriver") -> None:
    """SetDefaults_CSIDriver (pkg/apis/storage/v1/defaults.go), with v1.30's GA features on."""
    from .storage import FS_GROUP_POLICY_READ_WRITE_ONCE_WITH_FS_TYPE, VOLUME_LIFECYCLE_PERSISTENT

    s = d.spec
    if s.attach_required is None:
        s.attach_required = True
    if s.pod_info_on_mount is None:
        s.pod_info_on_mount = False
    if s.storage_capacity is None:
        s.storage_capacity = False
    if s.fs_group_policy is None:
        s.fs_group_policy = FS_GROUP_POLICY_READ_WRITE_ONCE_WITH_FS_TYPE
    if not s.volume_lifecycle_modes:
        s.volume_lifecycle_modes = [VOLUME_LIFECYCLE_PERSISTENT]
    if s.requires_republish is None:
        s.requires_republish = False
