"""Port of pkg/scheduler/testing/wrappers.go (v1.30): fluent builders for test objects.

    make_pod().name("p").namespace("default").req(cpu="1", memory="1Gi").node("n1").obj()
    make_node().name("n1").capacity(cpu="4", memory="8Gi").label("zone", "a").obj()

Each setter changes the object in place and returns the builder, so calls
chain; ``obj()`` returns the object. Like upstream, nothing is defaulted: a
pod's namespace stays "" unless set, and a node's capacity starts at 32 pods.
Resource maps take keyword arguments (``ephemeral_storage=`` means
"ephemeral-storage") and/or a dict for names such as ``"nvidia.com/gpu"``.

Deviations:
- Go's PodAffinityKind constants are module constants here.
- ``terminating()`` takes the deletion time as an argument (no wall clock).
"""
from __future__ import annotations

from typing import Iterable, Mapping, Optional, Union

from ksched_edu.api.quantity import Quantity
from ksched_edu.api.types import (
    Affinity,
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
    ObjectMeta,
    OwnerReference,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    PodCondition,
    PreferredSchedulingTerm,
    ResourceList,
    ResourceRequirements,
    Taint,
    Toleration,
    TopologySpreadConstraint,
    WeightedPodAffinityTerm,
)

PAUSE_IMAGE = "registry.k8s.io/pause:3.9"

# Upstream PodAffinityKind.
NIL_POD_AFFINITY = 0
POD_AFFINITY_WITH_REQUIRED_REQ = 1
POD_AFFINITY_WITH_PREFERRED_REQ = 2
POD_AFFINITY_WITH_REQUIRED_PREFERRED_REQ = 3
POD_ANTI_AFFINITY_WITH_REQUIRED_REQ = 4
POD_ANTI_AFFINITY_WITH_PREFERRED_REQ = 5
POD_ANTI_AFFINITY_WITH_REQUIRED_PREFERRED_REQ = 6


def resource_list(resources: Optional[Mapping[str, str]] = None, **kw: str) -> ResourceList:
    """{"cpu": "1", ...} and/or cpu="1" -> {name: Quantity}; underscores become dashes."""
    merged = dict(resources or {})
    merged.update({k.replace("_", "-"): v for k, v in kw.items()})
    return {name: Quantity(v) for name, v in merged.items()}


# --- selectors -------------------------------------------------------------------------


class NodeSelectorWrapper:
    def __init__(self) -> None:
        self._obj = NodeSelector()

    def in_(self, key: str, vals: Iterable[str]) -> "NodeSelectorWrapper":
        self._obj.node_selector_terms.append(
            NodeSelectorTerm(match_expressions=[NodeSelectorRequirement(key, "In", list(vals))]))
        return self

    def not_in(self, key: str, vals: Iterable[str]) -> "NodeSelectorWrapper":
        self._obj.node_selector_terms.append(
            NodeSelectorTerm(match_expressions=[NodeSelectorRequirement(key, "NotIn", list(vals))]))
        return self

    def obj(self) -> NodeSelector:
        return self._obj


def make_node_selector() -> NodeSelectorWrapper:
    return NodeSelectorWrapper()


class LabelSelectorWrapper:
    def __init__(self) -> None:
        self._obj = LabelSelector()

    def label(self, k: str, v: str) -> "LabelSelectorWrapper":
        self._obj.match_labels[k] = v
        return self

    def in_(self, key: str, vals: Iterable[str]) -> "LabelSelectorWrapper":
        self._obj.match_expressions.append(LabelSelectorRequirement(key, "In", list(vals)))
        return self

    def not_in(self, key: str, vals: Iterable[str]) -> "LabelSelectorWrapper":
        self._obj.match_expressions.append(LabelSelectorRequirement(key, "NotIn", list(vals)))
        return self

    def exists(self, key: str) -> "LabelSelectorWrapper":
        self._obj.match_expressions.append(LabelSelectorRequirement(key, "Exists"))
        return self

    def not_exist(self, key: str) -> "LabelSelectorWrapper":
        self._obj.match_expressions.append(LabelSelectorRequirement(key, "DoesNotExist"))
        return self

    def obj(self) -> LabelSelector:
        return self._obj


def make_label_selector() -> LabelSelectorWrapper:
    return LabelSelectorWrapper()


# --- containers ------------------------------------------------------------------------


class ContainerWrapper:
    def __init__(self) -> None:
        self._obj = Container(name="")

    def name(self, n: str) -> "ContainerWrapper":
        self._obj.name = n
        return self

    def image(self, image: str) -> "ContainerWrapper":
        self._obj.image = image
        return self

    def host_port(self, port: int) -> "ContainerWrapper":
        self._obj.ports = [ContainerPort(container_port=0, host_port=port)]
        return self

    def container_port(self, ports: list[ContainerPort]) -> "ContainerWrapper":
        self._obj.ports = ports
        return self

    def resources(self, res: Optional[Mapping[str, str]] = None, **kw: str) -> "ContainerWrapper":
        """Requests and limits both set to ``res``."""
        rl = resource_list(res, **kw)
        self._obj.resources = ResourceRequirements(requests=rl, limits=dict(rl))
        return self

    def resource_requests(self, res: Optional[Mapping[str, str]] = None, **kw: str) -> "ContainerWrapper":
        self._obj.resources = ResourceRequirements(requests=resource_list(res, **kw))
        return self

    def resource_limits(self, res: Optional[Mapping[str, str]] = None, **kw: str) -> "ContainerWrapper":
        self._obj.resources = ResourceRequirements(limits=resource_list(res, **kw))
        return self

    def restart_policy(self, policy: str) -> "ContainerWrapper":
        self._obj.restart_policy = policy
        return self

    def obj(self) -> Container:
        return self._obj


def make_container() -> ContainerWrapper:
    return ContainerWrapper()


# --- pods ------------------------------------------------------------------------------


class PodWrapper:
    def __init__(self) -> None:
        self._obj = Pod(metadata=ObjectMeta())

    def obj(self) -> Pod:
        return self._obj

    # metadata

    def name(self, s: str) -> "PodWrapper":
        self._obj.metadata.name = s
        return self

    def uid(self, s: str) -> "PodWrapper":
        self._obj.metadata.uid = s
        return self

    def namespace(self, s: str) -> "PodWrapper":
        self._obj.metadata.namespace = s
        return self

    def label(self, k: str, v: str) -> "PodWrapper":
        self._obj.metadata.labels[k] = v
        return self

    def labels(self, labels: Mapping[str, str]) -> "PodWrapper":
        self._obj.metadata.labels.update(labels)
        return self

    def annotation(self, k: str, v: str) -> "PodWrapper":
        self._obj.metadata.annotations[k] = v
        return self

    def annotations(self, annotations: Mapping[str, str]) -> "PodWrapper":
        self._obj.metadata.annotations.update(annotations)
        return self

    def owner_reference(self, name: str, kind: str, api_version: str = "v1") -> "PodWrapper":
        self._obj.metadata.owner_references = [
            OwnerReference(api_version=api_version, kind=kind, name=name, controller=True)]
        return self

    def creation_timestamp(self, t: float) -> "PodWrapper":
        self._obj.metadata.creation_timestamp = t
        return self

    def terminating(self, t: float = 0.0) -> "PodWrapper":
        self._obj.metadata.deletion_timestamp = t
        return self

    # containers and resources

    def container(self, image: str) -> "PodWrapper":
        name = f"con{len(self._obj.spec.containers)}"
        self._obj.spec.containers.append(make_container().name(name).image(image).obj())
        return self

    def containers(self, containers: list[Container]) -> "PodWrapper":
        self._obj.spec.containers = containers
        return self

    def res(self, res: Optional[Mapping[str, str]] = None, **kw: str) -> "PodWrapper":
        """A new container whose requests and limits are both ``res``."""
        if not res and not kw:
            return self
        name = f"con{len(self._obj.spec.containers)}"
        self._obj.spec.containers.append(
            make_container().name(name).image(PAUSE_IMAGE).resources(res, **kw).obj())
        return self

    def req(self, res: Optional[Mapping[str, str]] = None, **kw: str) -> "PodWrapper":
        """A new container with these requests."""
        if not res and not kw:
            return self
        name = f"con{len(self._obj.spec.containers)}"
        self._obj.spec.containers.append(
            make_container().name(name).image(PAUSE_IMAGE).resource_requests(res, **kw).obj())
        return self

    def lim(self, res: Optional[Mapping[str, str]] = None, **kw: str) -> "PodWrapper":
        """A new container with these limits."""
        if not res and not kw:
            return self
        name = f"con{len(self._obj.spec.containers)}"
        self._obj.spec.containers.append(
            make_container().name(name).image(PAUSE_IMAGE).resource_limits(res, **kw).obj())
        return self

    def init_req(self, res: Optional[Mapping[str, str]] = None, **kw: str) -> "PodWrapper":
        """A new init container whose requests and limits are both ``res``."""
        if not res and not kw:
            return self
        name = f"init-con{len(self._obj.spec.init_containers)}"
        self._obj.spec.init_containers.append(
            make_container().name(name).image(PAUSE_IMAGE).resources(res, **kw).obj())
        return self

    def sidecar_req(self, res: Optional[Mapping[str, str]] = None, **kw: str) -> "PodWrapper":
        """A new restartable init container (restartPolicy: Always) with these requests."""
        if not res and not kw:
            return self
        name = f"sidecar-con{len(self._obj.spec.init_containers)}"
        self._obj.spec.init_containers.append(
            make_container().name(name).image(PAUSE_IMAGE).resource_requests(res, **kw)
            .restart_policy("Always").obj())
        return self

    def overhead(self, res: Optional[Mapping[str, str]] = None, **kw: str) -> "PodWrapper":
        self._obj.spec.overhead = resource_list(res, **kw)
        return self

    def host_port(self, port: int) -> "PodWrapper":
        """A new container using ``port`` on the host."""
        self._obj.spec.containers.append(
            make_container().name("container").image("pause").host_port(port).obj())
        return self

    def container_port(self, ports: list[ContainerPort]) -> "PodWrapper":
        self._obj.spec.containers.append(
            make_container().name("container").image("pause").container_port(ports).obj())
        return self

    def pvc(self, name: str) -> "PodWrapper":
        self._obj.spec.volumes.append({"name": name, "persistentVolumeClaim": {"claimName": name}})
        return self

    def volume(self, volume: dict) -> "PodWrapper":
        self._obj.spec.volumes.append(volume)
        return self

    # scheduling fields

    def scheduler_name(self, s: str) -> "PodWrapper":
        self._obj.spec.scheduler_name = s
        return self

    def priority(self, val: int) -> "PodWrapper":
        self._obj.spec.priority = val
        return self

    def priority_class_name(self, name: str) -> "PodWrapper":
        self._obj.spec.priority_class_name = name
        return self

    def preemption_policy(self, policy: str) -> "PodWrapper":
        self._obj.spec.preemption_policy = policy
        return self

    def zero_termination_grace_period(self) -> "PodWrapper":
        self._obj.spec.termination_grace_period_seconds = 0
        return self

    def node(self, s: str) -> "PodWrapper":
        self._obj.spec.node_name = s
        return self

    def node_selector(self, m: Mapping[str, str]) -> "PodWrapper":
        self._obj.spec.node_selector = dict(m)
        return self

    def _node_affinity(self) -> NodeAffinity:
        spec = self._obj.spec
        if spec.affinity is None:
            spec.affinity = Affinity()
        if spec.affinity.node_affinity is None:
            spec.affinity.node_affinity = NodeAffinity()
        return spec.affinity.node_affinity

    def node_affinity_in(self, key: str, vals: Iterable[str]) -> "PodWrapper":
        """A required node affinity: ``key`` In ``vals``."""
        self._node_affinity().required = make_node_selector().in_(key, vals).obj()
        return self

    def node_affinity_not_in(self, key: str, vals: Iterable[str]) -> "PodWrapper":
        self._node_affinity().required = make_node_selector().not_in(key, vals).obj()
        return self

    def preferred_node_affinity(self, weight: int, key: str, op: str,
                                vals: Iterable[str] = ()) -> "PodWrapper":
        term = NodeSelectorTerm(match_expressions=[NodeSelectorRequirement(key, op, list(vals))])
        self._node_affinity().preferred.append(PreferredSchedulingTerm(weight, term))
        return self

    def toleration(self, key: str, operator: str = "Exists", value: str = "",
                   effect: str = "") -> "PodWrapper":
        """Upstream Toleration(key) adds ``key`` with operator Exists."""
        self._obj.spec.tolerations.append(Toleration(key=key, operator=operator, value=value, effect=effect))
        return self

    def tolerations(self, tolerations: list[Toleration]) -> "PodWrapper":
        self._obj.spec.tolerations = tolerations
        return self

    def scheduling_gates(self, gates: Iterable[str]) -> "PodWrapper":
        self._obj.spec.scheduling_gates.extend(gates)
        return self

    def _pod_affinity_terms(self, anti: bool) -> PodAffinity:
        spec = self._obj.spec
        if spec.affinity is None:
            spec.affinity = Affinity()
        attr = "pod_anti_affinity" if anti else "pod_affinity"
        if getattr(spec.affinity, attr) is None:
            setattr(spec.affinity, attr, PodAffinity())
        return getattr(spec.affinity, attr)

    def pod_affinity(self, topology_key: str, selector: Optional[LabelSelector], kind: int) -> "PodWrapper":
        if kind == NIL_POD_AFFINITY:
            return self
        pa = self._pod_affinity_terms(anti=False)
        term = PodAffinityTerm(topology_key=topology_key, label_selector=selector)
        if kind in (POD_AFFINITY_WITH_REQUIRED_REQ, POD_AFFINITY_WITH_REQUIRED_PREFERRED_REQ):
            pa.required.append(term)
        if kind in (POD_AFFINITY_WITH_PREFERRED_REQ, POD_AFFINITY_WITH_REQUIRED_PREFERRED_REQ):
            pa.preferred.append(WeightedPodAffinityTerm(weight=1, pod_affinity_term=term))
        return self

    def pod_anti_affinity(self, topology_key: str, selector: Optional[LabelSelector],
                          kind: int) -> "PodWrapper":
        if kind == NIL_POD_AFFINITY:
            return self
        pa = self._pod_affinity_terms(anti=True)
        term = PodAffinityTerm(topology_key=topology_key, label_selector=selector)
        if kind in (POD_ANTI_AFFINITY_WITH_REQUIRED_REQ, POD_ANTI_AFFINITY_WITH_REQUIRED_PREFERRED_REQ):
            pa.required.append(term)
        if kind in (POD_ANTI_AFFINITY_WITH_PREFERRED_REQ, POD_ANTI_AFFINITY_WITH_REQUIRED_PREFERRED_REQ):
            pa.preferred.append(WeightedPodAffinityTerm(weight=1, pod_affinity_term=term))
        return self

    def pod_affinity_exists(self, label_key: str, topology_key: str, kind: int) -> "PodWrapper":
        return self.pod_affinity(topology_key, make_label_selector().exists(label_key).obj(), kind)

    def pod_anti_affinity_exists(self, label_key: str, topology_key: str, kind: int) -> "PodWrapper":
        return self.pod_anti_affinity(topology_key, make_label_selector().exists(label_key).obj(), kind)

    def pod_affinity_not_exists(self, label_key: str, topology_key: str, kind: int) -> "PodWrapper":
        return self.pod_affinity(topology_key, make_label_selector().not_exist(label_key).obj(), kind)

    def pod_anti_affinity_not_exists(self, label_key: str, topology_key: str, kind: int) -> "PodWrapper":
        return self.pod_anti_affinity(topology_key, make_label_selector().not_exist(label_key).obj(), kind)

    def pod_affinity_in(self, label_key: str, topology_key: str, vals: Iterable[str],
                        kind: int) -> "PodWrapper":
        return self.pod_affinity(topology_key, make_label_selector().in_(label_key, vals).obj(), kind)

    def pod_anti_affinity_in(self, label_key: str, topology_key: str, vals: Iterable[str],
                             kind: int) -> "PodWrapper":
        return self.pod_anti_affinity(topology_key, make_label_selector().in_(label_key, vals).obj(), kind)

    def pod_affinity_not_in(self, label_key: str, topology_key: str, vals: Iterable[str],
                            kind: int) -> "PodWrapper":
        return self.pod_affinity(topology_key, make_label_selector().not_in(label_key, vals).obj(), kind)

    def pod_anti_affinity_not_in(self, label_key: str, topology_key: str, vals: Iterable[str],
                                 kind: int) -> "PodWrapper":
        return self.pod_anti_affinity(topology_key, make_label_selector().not_in(label_key, vals).obj(),
                                      kind)

    def spread_constraint(self, max_skew: int, topology_key: str, mode: str,
                          selector: Optional[LabelSelector], min_domains: Optional[int] = None,
                          node_affinity_policy: Optional[str] = None,
                          node_taints_policy: Optional[str] = None,
                          match_label_keys: Optional[list[str]] = None) -> "PodWrapper":
        self._obj.spec.topology_spread_constraints.append(TopologySpreadConstraint(
            max_skew=max_skew, topology_key=topology_key, when_unsatisfiable=mode,
            label_selector=selector, min_domains=min_domains,
            node_affinity_policy=node_affinity_policy, node_taints_policy=node_taints_policy,
            match_label_keys=list(match_label_keys or [])))
        return self

    # status

    def start_time(self, t: float) -> "PodWrapper":
        self._obj.status.start_time = t
        return self

    def nominated_node_name(self, n: str) -> "PodWrapper":
        self._obj.status.nominated_node_name = n
        return self

    def phase(self, phase: str) -> "PodWrapper":
        self._obj.status.phase = phase
        return self

    def condition(self, type_: str, status: str, reason: str = "") -> "PodWrapper":
        self._obj.status.conditions.append(PodCondition(type=type_, status=status, reason=reason))
        return self


def make_pod() -> PodWrapper:
    return PodWrapper()


# --- nodes -----------------------------------------------------------------------------


class NodeWrapper:
    def __init__(self) -> None:
        self._obj = Node(metadata=ObjectMeta())
        self.capacity()

    def obj(self) -> Node:
        return self._obj

    def name(self, s: str) -> "NodeWrapper":
        self._obj.metadata.name = s
        return self

    def uid(self, s: str) -> "NodeWrapper":
        self._obj.metadata.uid = s
        return self

    def label(self, k: str, v: str) -> "NodeWrapper":
        self._obj.metadata.labels[k] = v
        return self

    def labels(self, labels: Mapping[str, str]) -> "NodeWrapper":
        self._obj.metadata.labels.update(labels)
        return self

    def annotation(self, k: str, v: str) -> "NodeWrapper":
        self._obj.metadata.annotations[k] = v
        return self

    def capacity(self, res: Optional[Mapping[str, str]] = None, **kw: str) -> "NodeWrapper":
        """Capacity and allocatable both; pods is 32 unless given, as upstream."""
        rl = {"pods": Quantity("32")}
        rl.update(resource_list(res, **kw))
        self._obj.status.capacity = rl
        self._obj.status.allocatable = dict(rl)
        return self

    def images(self, images: Union[Mapping[str, int], list[ContainerImage]]) -> "NodeWrapper":
        """{image name: size in bytes} (one ContainerImage each), or ContainerImages."""
        if isinstance(images, Mapping):
            images = [ContainerImage(names=[n], size_bytes=size) for n, size in images.items()]
        self._obj.status.images = list(images)
        return self

    def taints(self, taints: list[Taint]) -> "NodeWrapper":
        self._obj.spec.taints = taints
        return self

    def unschedulable(self, unschedulable: bool = True) -> "NodeWrapper":
        self._obj.spec.unschedulable = unschedulable
        return self


def make_node() -> NodeWrapper:
    return NodeWrapper()
