"""Port of the parts of k8s.io/api core/v1, scheduling/v1, policy/v1 and apps/v1
types (v1.30) that kube-scheduler reads.

Plain dataclasses with snake_case fields; a field keeps its Kubernetes JSON name
in the loader (``nodeSelector`` -> ``node_selector``). Resource amounts are
:class:`~ksched_edu.api.quantity.Quantity` values keyed by resource name.

Deviations:
- Only the fields the scheduler (and its ported plugins) read are kept; the
  loader warns about nothing else, since ``kubectl get -o yaml`` prints many more.
- A pod's volumes are kept as raw mappings (``spec.volumes`` entries): the
  volume plugins read the source keys they know (``persistentVolumeClaim``,
  ``gcePersistentDisk``, ...). The storage kinds live in :mod:`.storage`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from .quantity import Quantity

ResourceList = dict[str, Quantity]

# Resource names (core/v1 types.go).
RESOURCE_CPU = "cpu"
RESOURCE_MEMORY = "memory"
RESOURCE_EPHEMERAL_STORAGE = "ephemeral-storage"
RESOURCE_PODS = "pods"

# Taint effects.
TAINT_NO_SCHEDULE = "NoSchedule"
TAINT_PREFER_NO_SCHEDULE = "PreferNoSchedule"
TAINT_NO_EXECUTE = "NoExecute"

DEFAULT_SCHEDULER_NAME = "default-scheduler"
PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority"
PREEMPT_NEVER = "Never"


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/types.go", "OwnerReference", 295, 320, repo=SCHEDULER_PLUGINS)
@dataclass
class OwnerReference:
    api_version: str = ""
    kind: str = ""
    name: str = ""
    uid: str = ""
    controller: bool = False


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/types.go", "ObjectMeta", 111, 276, repo=SCHEDULER_PLUGINS)
@dataclass
class ObjectMeta:
    name: str = ""
    namespace: str = ""
    uid: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    # Seconds since the epoch (UTC); 0.0 when the manifest gave none.
    creation_timestamp: float = 0.0
    deletion_timestamp: Optional[float] = None
    resource_version: str = ""
    owner_references: list[OwnerReference] = field(default_factory=list)


@plumbing("metav1.Object's GetName for the objects that embed ObjectMeta (Go promotes the embedded fields)")
class NamedObject:
    """``name``, read from the object's ``metadata``."""

    metadata: ObjectMeta

    @property
    def name(self) -> str:
        return self.metadata.name


@plumbing("metav1.Object's GetNamespace and the namespace/name key of namespaced objects")
class NamespacedObject(NamedObject):
    """``name``, ``namespace`` and the ``namespace/name`` key of a namespaced object."""

    @property
    def namespace(self) -> str:
        return self.metadata.namespace

    @property
    def key(self) -> str:
        """``namespace/name`` (cache.MetaNamespaceKeyFunc), as the scheduler logs a pod."""
        return f"{self.metadata.namespace}/{self.metadata.name}"


# --- selectors -----------------------------------------------------------------


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/types.go", "LabelSelectorRequirement", 1256, 1269, repo=SCHEDULER_PLUGINS)
@dataclass
class LabelSelectorRequirement:
    key: str
    operator: str  # In, NotIn, Exists, DoesNotExist
    values: list[str] = field(default_factory=list)


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/types.go", "LabelSelector", 1242, 1252, repo=SCHEDULER_PLUGINS)
@dataclass
class LabelSelector:
    match_labels: dict[str, str] = field(default_factory=dict)
    match_expressions: list[LabelSelectorRequirement] = field(default_factory=list)


@ports("vendor/k8s.io/api/core/v1/types.go", "NodeSelectorRequirement", 3238, 3252, repo=SCHEDULER_PLUGINS)
@dataclass
class NodeSelectorRequirement:
    key: str
    operator: str  # In, NotIn, Exists, DoesNotExist, Gt, Lt
    values: list[str] = field(default_factory=list)


@ports("vendor/k8s.io/api/core/v1/types.go", "NodeSelectorTerm", 3225, 3234, repo=SCHEDULER_PLUGINS)
@dataclass
class NodeSelectorTerm:
    match_expressions: list[NodeSelectorRequirement] = field(default_factory=list)
    match_fields: list[NodeSelectorRequirement] = field(default_factory=list)


@ports("vendor/k8s.io/api/core/v1/types.go", "NodeSelector", 3215, 3219, repo=SCHEDULER_PLUGINS)
@dataclass
class NodeSelector:
    node_selector_terms: list[NodeSelectorTerm] = field(default_factory=list)


@ports("vendor/k8s.io/api/core/v1/types.go", "PreferredSchedulingTerm", 3481, 3486, repo=SCHEDULER_PLUGINS)
@dataclass
class PreferredSchedulingTerm:
    weight: int
    preference: NodeSelectorTerm


@ports("vendor/k8s.io/api/core/v1/types.go", "NodeAffinity", 3448, 3477, repo=SCHEDULER_PLUGINS)
@dataclass
class NodeAffinity:
    required: Optional[NodeSelector] = None  # requiredDuringSchedulingIgnoredDuringExecution
    preferred: list[PreferredSchedulingTerm] = field(default_factory=list)


@ports("vendor/k8s.io/api/core/v1/types.go", "PodAffinityTerm", 3396, 3445, repo=SCHEDULER_PLUGINS)
@dataclass
class PodAffinityTerm:
    topology_key: str
    label_selector: Optional[LabelSelector] = None
    namespaces: list[str] = field(default_factory=list)
    namespace_selector: Optional[LabelSelector] = None
    match_label_keys: list[str] = field(default_factory=list)
    mismatch_label_keys: list[str] = field(default_factory=list)


@ports("vendor/k8s.io/api/core/v1/types.go", "WeightedPodAffinityTerm", 3382, 3388, repo=SCHEDULER_PLUGINS)
@dataclass
class WeightedPodAffinityTerm:
    weight: int
    pod_affinity_term: PodAffinityTerm


@ports("vendor/k8s.io/api/core/v1/types.go", "PodAffinity", 3308, 3342, repo=SCHEDULER_PLUGINS)
@dataclass
class PodAffinity:
    required: list[PodAffinityTerm] = field(default_factory=list)
    preferred: list[WeightedPodAffinityTerm] = field(default_factory=list)


@ports("vendor/k8s.io/api/core/v1/types.go", "Affinity", 3295, 3305, repo=SCHEDULER_PLUGINS)
@dataclass
class Affinity:
    node_affinity: Optional[NodeAffinity] = None
    pod_affinity: Optional[PodAffinity] = None
    pod_anti_affinity: Optional[PodAffinity] = None


@ports("vendor/k8s.io/api/core/v1/types.go", "Toleration", 3532, 3557, repo=SCHEDULER_PLUGINS)
@dataclass
class Toleration:
    key: str = ""
    operator: str = "Equal"  # Equal (default) or Exists
    value: str = ""
    effect: str = ""  # "" matches every effect
    toleration_seconds: Optional[int] = None


@ports("vendor/k8s.io/api/core/v1/types.go", "Taint", 3490, 3504, repo=SCHEDULER_PLUGINS)
@dataclass
class Taint:
    key: str
    effect: str
    value: str = ""


@ports("vendor/k8s.io/api/core/v1/types.go", "TopologySpreadConstraint", 3989, 4105, repo=SCHEDULER_PLUGINS)
@dataclass
class TopologySpreadConstraint:
    max_skew: int
    topology_key: str
    when_unsatisfiable: str  # DoNotSchedule or ScheduleAnyway
    label_selector: Optional[LabelSelector] = None
    min_domains: Optional[int] = None
    node_affinity_policy: Optional[str] = None  # Honor (default) or Ignore
    node_taints_policy: Optional[str] = None  # Ignore (default) or Honor
    match_label_keys: list[str] = field(default_factory=list)


# --- pods ------------------------------------------------------------------------


@ports("vendor/k8s.io/api/core/v1/types.go", "ResourceRequirements", 2581, 2605, repo=SCHEDULER_PLUGINS)
@dataclass
class ResourceRequirements:
    requests: ResourceList = field(default_factory=dict)
    limits: ResourceList = field(default_factory=dict)


@ports("vendor/k8s.io/api/core/v1/types.go", "ContainerPort", 2126, 2149, repo=SCHEDULER_PLUGINS)
@dataclass
class ContainerPort:
    container_port: int
    host_port: int = 0
    protocol: str = "TCP"
    host_ip: str = ""


@ports("vendor/k8s.io/api/core/v1/types.go", "Container", 2642, 2832, repo=SCHEDULER_PLUGINS)
@dataclass
class Container:
    name: str
    image: str = ""
    resources: ResourceRequirements = field(default_factory=ResourceRequirements)
    ports: list[ContainerPort] = field(default_factory=list)
    # "Always" on an init container makes it a restartable sidecar.
    restart_policy: Optional[str] = None


@ports("vendor/k8s.io/api/core/v1/types.go", "PodCondition", 3106, 3126, repo=SCHEDULER_PLUGINS)
@dataclass
class PodCondition:
    type: str
    status: str
    reason: str = ""
    message: str = ""


@ports("vendor/k8s.io/api/core/v1/types.go", "PodSpec", 3575, 3884, repo=SCHEDULER_PLUGINS)
@dataclass
class PodSpec:
    containers: list[Container] = field(default_factory=list)
    init_containers: list[Container] = field(default_factory=list)
    overhead: ResourceList = field(default_factory=dict)
    node_selector: dict[str, str] = field(default_factory=dict)
    affinity: Optional[Affinity] = None
    tolerations: list[Toleration] = field(default_factory=list)
    node_name: str = ""
    priority: Optional[int] = None
    priority_class_name: str = ""
    preemption_policy: Optional[str] = None
    scheduling_gates: list[str] = field(default_factory=list)
    scheduler_name: str = ""
    topology_spread_constraints: list[TopologySpreadConstraint] = field(default_factory=list)
    termination_grace_period_seconds: Optional[int] = None
    volumes: list[dict[str, Any]] = field(default_factory=list)


@ports("vendor/k8s.io/api/core/v1/types.go", "PodStatus", 4544, 4663, repo=SCHEDULER_PLUGINS)
@dataclass
class PodStatus:
    phase: str = ""
    conditions: list[PodCondition] = field(default_factory=list)
    nominated_node_name: str = ""
    start_time: Optional[float] = None


@ports("vendor/k8s.io/api/core/v1/types.go", "Pod", 4689, 4708, repo=SCHEDULER_PLUGINS)
@dataclass
class Pod(NamespacedObject):
    metadata: ObjectMeta
    spec: PodSpec = field(default_factory=PodSpec)
    status: PodStatus = field(default_factory=PodStatus)
    kind = "Pod"

    @property
    def uid(self) -> str:
        return self.metadata.uid or self.key

    @property
    def labels(self) -> dict[str, str]:
        return self.metadata.labels


# --- nodes -----------------------------------------------------------------------


@ports("vendor/k8s.io/api/core/v1/types.go", "ContainerImage", 5984, 5993, repo=SCHEDULER_PLUGINS)
@dataclass
class ContainerImage:
    names: list[str] = field(default_factory=list)
    size_bytes: int = 0


@ports("vendor/k8s.io/api/core/v1/types.go", "NodeSpec", 5677, 5710, repo=SCHEDULER_PLUGINS)
@dataclass
class NodeSpec:
    unschedulable: bool = False
    taints: list[Taint] = field(default_factory=list)


@ports("vendor/k8s.io/api/core/v1/types.go", "NodeStatus", 5871, 5936, repo=SCHEDULER_PLUGINS)
@dataclass
class NodeStatus:
    capacity: ResourceList = field(default_factory=dict)
    allocatable: ResourceList = field(default_factory=dict)
    images: list[ContainerImage] = field(default_factory=list)


@ports("vendor/k8s.io/api/core/v1/types.go", "Node", 6134, 6152, repo=SCHEDULER_PLUGINS)
@dataclass
class Node(NamedObject):
    metadata: ObjectMeta
    spec: NodeSpec = field(default_factory=NodeSpec)
    status: NodeStatus = field(default_factory=NodeStatus)
    kind = "Node"

    @property
    def labels(self) -> dict[str, str]:
        return self.metadata.labels


# --- the other kinds the scheduler reads ---------------------------------------------


@ports("vendor/k8s.io/api/scheduling/v1/types.go", "PriorityClass", 30, 59, repo=SCHEDULER_PLUGINS)
@dataclass
class PriorityClass:
    metadata: ObjectMeta
    value: int = 0
    global_default: bool = False
    preemption_policy: Optional[str] = None
    kind = "PriorityClass"


@ports("vendor/k8s.io/api/policy/v1/types.go", "PodDisruptionBudgetSpec", 28, 78, repo=SCHEDULER_PLUGINS)
@dataclass
class PodDisruptionBudgetSpec:
    selector: Optional[LabelSelector] = None
    min_available: Optional[int | str] = None
    max_unavailable: Optional[int | str] = None


@ports("vendor/k8s.io/api/policy/v1/types.go", "PodDisruptionBudgetStatus", 102, 153, repo=SCHEDULER_PLUGINS)
@dataclass
class PodDisruptionBudgetStatus:
    disruptions_allowed: int = 0
    current_healthy: int = 0
    desired_healthy: int = 0
    expected_pods: int = 0
    # Pods already counted as disrupted (name -> time); preemption skips them.
    disrupted_pods: dict[str, float] = field(default_factory=dict)


@ports("vendor/k8s.io/api/policy/v1/types.go", "PodDisruptionBudget", 175, 188, repo=SCHEDULER_PLUGINS)
@dataclass
class PodDisruptionBudget:
    metadata: ObjectMeta
    spec: PodDisruptionBudgetSpec = field(default_factory=PodDisruptionBudgetSpec)
    status: PodDisruptionBudgetStatus = field(default_factory=PodDisruptionBudgetStatus)
    kind = "PodDisruptionBudget"


@ports("vendor/k8s.io/api/core/v1/types.go", "Service", 5444, 5462, repo=SCHEDULER_PLUGINS)
@dataclass
class Service:
    """A v1 Service; PodTopologySpread's system default constraints select by it."""

    metadata: ObjectMeta
    selector: dict[str, str] = field(default_factory=dict)
    kind = "Service"


@ports("vendor/k8s.io/api/apps/v1/types.go", "ReplicaSet", 801, 823, repo=SCHEDULER_PLUGINS)
@dataclass
class ReplicaSet:
    metadata: ObjectMeta
    selector: Optional[LabelSelector] = None
    kind = "ReplicaSet"


@ports("vendor/k8s.io/api/apps/v1/types.go", "StatefulSet", 48, 63, repo=SCHEDULER_PLUGINS)
@dataclass
class StatefulSet:
    metadata: ObjectMeta
    selector: Optional[LabelSelector] = None
    kind = "StatefulSet"


@ports("vendor/k8s.io/api/core/v1/types.go", "ReplicationController", 4872, 4893, repo=SCHEDULER_PLUGINS)
@dataclass
class ReplicationController:
    metadata: ObjectMeta
    selector: dict[str, str] = field(default_factory=dict)
    kind = "ReplicationController"


@plumbing("every object of a manifest set, by kind")
@dataclass
class Cluster:
    """Every object a manifest set holds, by kind, in file order."""

    nodes: list[Node] = field(default_factory=list)
    pods: list[Pod] = field(default_factory=list)
    priority_classes: list[PriorityClass] = field(default_factory=list)
    pdbs: list[PodDisruptionBudget] = field(default_factory=list)
    services: list[Service] = field(default_factory=list)
    replica_sets: list[ReplicaSet] = field(default_factory=list)
    stateful_sets: list[StatefulSet] = field(default_factory=list)
    replication_controllers: list[ReplicationController] = field(default_factory=list)
    # Storage kinds (ksched_edu.api.storage).
    persistent_volume_claims: list[Any] = field(default_factory=list)
    persistent_volumes: list[Any] = field(default_factory=list)
    storage_classes: list[Any] = field(default_factory=list)
    csi_nodes: list[Any] = field(default_factory=list)
    csi_drivers: list[Any] = field(default_factory=list)
    # Kinds owned by later chapters (PodGroup, NodeResourceTopology) land here by kind.
    extra: dict[str, list[Any]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def running_pods(self) -> list[Pod]:
        return [p for p in self.pods if p.spec.node_name]

    @property
    def pending_pods(self) -> list[Pod]:
        return [p for p in self.pods if not p.spec.node_name]
