"""Port of pkg/scheduler/framework/types.go (v1.30).

The scheduler's own view of the cluster: ``PodInfo`` (a pod with its affinity
terms pre-parsed), ``NodeInfo`` (a node with the pods on it and the aggregates
the filters read: requested and non-zero requested resources, used host
ports, image states), ``QueuedPodInfo`` for the queue, cluster events, and the
``FitError`` whose message a user reads in ``kubectl describe pod``.

Deviations:
- The global generation counter is a module-level ``itertools.count``; it only
  orders changes, as upstream's atomic counter does.
"""
from __future__ import annotations

import enum
import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..anchors import plumbing, ports
from ..api.labels import EVERYTHING, NOTHING, Selector, selector_from_label_selector
from ..api.resource import CONTAINERS, INIT_CONTAINERS, get_nonzero_requests, pod_requests
from ..api.types import (RESOURCE_CPU, RESOURCE_EPHEMERAL_STORAGE, RESOURCE_MEMORY, RESOURCE_PODS, Node, Pod,
                         PodAffinityTerm, ResourceList)
from .interface import NodeToStatusMap, Status

_generation = itertools.count(1)


@ports("pkg/scheduler/framework/types.go", "nextGeneration", 587, 589)
def next_generation() -> int:
    return next(_generation)


# --- cluster events ---------------------------------------------------------------


@ports("pkg/scheduler/framework/types.go", "ActionType", 45, 45)
class ActionType(enum.IntFlag):
    Add = 1
    Delete = 2
    UpdateNodeAllocatable = 4
    UpdateNodeLabel = 8
    UpdateNodeTaint = 16
    UpdateNodeCondition = 32
    UpdateNodeAnnotation = 64
    All = 127
    Update = 4 | 8 | 16 | 32 | 64


# GVKs (upstream framework.GVK).
POD = "Pod"
NODE = "Node"
PERSISTENT_VOLUME = "PersistentVolume"
PERSISTENT_VOLUME_CLAIM = "PersistentVolumeClaim"
CSI_NODE = "storage.k8s.io/CSINode"
CSI_DRIVER = "storage.k8s.io/CSIDriver"
CSI_STORAGE_CAPACITY = "storage.k8s.io/CSIStorageCapacity"
STORAGE_CLASS = "storage.k8s.io/StorageClass"
WILDCARD = "*"


@ports("pkg/scheduler/framework/types.go", "QueueingHint", 131, 131)
class QueueingHint(enum.IntEnum):
    QueueSkip = 0
    Queue = 1


QueueingHintFn = Callable[[Pod, Any, Any], QueueingHint]


@ports("pkg/scheduler/framework/types.go", "ClusterEvent", 155, 159)
@dataclass(frozen=True)
class ClusterEvent:
    resource: str
    action_type: ActionType
    label: str = ""

    @ports("pkg/scheduler/framework/types.go", "(ClusterEvent).IsWildCard", 162, 164)
    def is_wildcard(self) -> bool:
        return self.resource == WILDCARD and self.action_type == ActionType.All

    @ports("pkg/scheduler/framework/types.go", "(ClusterEvent).Match", 173, 175)
    def match(self, event: "ClusterEvent") -> bool:
        return self.is_wildcard() or (
            (self.resource == WILDCARD or self.resource == event.resource)
            and bool(self.action_type & event.action_type))


@ports("pkg/scheduler/framework/types.go", "ClusterEventWithHint", 108, 116)
@dataclass(frozen=True)
class ClusterEventWithHint:
    event: ClusterEvent
    queueing_hint_fn: Optional[QueueingHintFn] = None


# --- pods -------------------------------------------------------------------------


@ports("pkg/scheduler/framework/types.go", "AffinityTerm", 302, 307)
@dataclass
class AffinityTerm:
    namespaces: frozenset[str]
    selector: Selector
    topology_key: str
    namespace_selector: Selector

    @ports("pkg/scheduler/framework/types.go", "(*AffinityTerm).Matches", 310, 315)
    def matches(self, pod: Pod, ns_labels: Optional[dict[str, str]]) -> bool:
        if pod.metadata.namespace in self.namespaces or self.namespace_selector.matches(ns_labels or {}):
            return self.selector.matches(pod.metadata.labels)
        return False


@ports("pkg/scheduler/framework/types.go", "WeightedAffinityTerm", 318, 321)
@dataclass
class WeightedAffinityTerm:
    term: AffinityTerm
    weight: int


@ports("pkg/scheduler/framework/types.go", "getNamespacesFromPodAffinityTerm", 510, 518)
def _namespaces_of_term(pod: Pod, term: PodAffinityTerm) -> frozenset[str]:
    if not term.namespaces and term.namespace_selector is None:
        return frozenset([pod.metadata.namespace])
    return frozenset(term.namespaces)


@ports("pkg/scheduler/framework/types.go", "newAffinityTerm", 423, 436)
def new_affinity_term(pod: Pod, term: PodAffinityTerm) -> AffinityTerm:
    return AffinityTerm(
        namespaces=_namespaces_of_term(pod, term),
        selector=selector_from_label_selector(term.label_selector),
        topology_key=term.topology_key,
        namespace_selector=selector_from_label_selector(term.namespace_selector),
    )


@ports("pkg/scheduler/framework/types.go", "PodInfo", 234, 240)
@dataclass
class PodInfo:
    """A pod with its pod-affinity terms parsed once (upstream PodInfo)."""

    pod: Pod
    required_affinity_terms: list[AffinityTerm] = field(default_factory=list)
    required_anti_affinity_terms: list[AffinityTerm] = field(default_factory=list)
    preferred_affinity_terms: list[WeightedAffinityTerm] = field(default_factory=list)
    preferred_anti_affinity_terms: list[WeightedAffinityTerm] = field(default_factory=list)

    @classmethod
    @ports("pkg/scheduler/framework/types.go", "NewPodInfo", 476, 480)
    def of(cls, pod: Pod) -> "PodInfo":
        info = cls(pod)
        info.update(pod)
        return info

    @ports("pkg/scheduler/framework/types.go", "(*PodInfo).Update", 255, 299)
    def update(self, pod: Pod) -> None:
        self.pod = pod
        aff = pod.spec.affinity
        pa = aff.pod_affinity if aff else None
        paa = aff.pod_anti_affinity if aff else None
        self.required_affinity_terms = [new_affinity_term(pod, t) for t in (pa.required if pa else [])]
        self.required_anti_affinity_terms = [new_affinity_term(pod, t) for t in (paa.required if paa else [])]
        self.preferred_affinity_terms = [WeightedAffinityTerm(new_affinity_term(pod, w.pod_affinity_term), w.weight)
                                         for w in (pa.preferred if pa else [])]
        self.preferred_anti_affinity_terms = [
            WeightedAffinityTerm(new_affinity_term(pod, w.pod_affinity_term), w.weight)
            for w in (paa.preferred if paa else [])]


@ports("pkg/scheduler/framework/types.go", "QueuedPodInfo", 198, 217)
@dataclass
class QueuedPodInfo:
    """A pod in the scheduling queue, with its attempts and the plugins that rejected it."""

    pod_info: PodInfo
    timestamp: float = 0.0
    attempts: int = 0
    initial_attempt_timestamp: Optional[float] = None
    unschedulable_plugins: set[str] = field(default_factory=set)
    pending_plugins: set[str] = field(default_factory=set)
    gated: bool = False

    @property
    def pod(self) -> Pod:
        return self.pod_info.pod


# --- resources --------------------------------------------------------------------

@ports("pkg/scheduler/util/utils.go", "IsScalarResourceName", 159, 162)
def is_scalar_resource_name(name: str) -> bool:
    """Upstream schedutil.IsScalarResourceName: extended, hugepages, prefixed native, attachable volumes."""
    if name.startswith("hugepages-") or name.startswith("attachable-volumes-"):
        return True
    if "kubernetes.io/" in name:  # a prefixed native resource
        return True
    # An extended resource: domain-qualified, outside the native names and the quota prefix.
    return "/" in name and not name.startswith("requests.")


@ports("pkg/scheduler/framework/types.go", "Resource", 592, 601)
@dataclass(slots=True)
class Resource:
    milli_cpu: int = 0
    memory: int = 0
    ephemeral_storage: int = 0
    allowed_pod_number: int = 0
    scalar_resources: dict[str, int] = field(default_factory=dict)

    @classmethod
    @ports("pkg/scheduler/framework/types.go", "NewResource", 604, 608)
    def from_list(cls, rl: ResourceList) -> "Resource":
        r = cls()
        r.add(rl)
        return r

    @ports("pkg/scheduler/framework/types.go", "(*Resource).Add", 611, 632)
    def add(self, rl: ResourceList) -> None:
        for name, q in rl.items():
            if name == RESOURCE_CPU:
                self.milli_cpu += q.milli_value()
            elif name == RESOURCE_MEMORY:
                self.memory += q.value()
            elif name == RESOURCE_PODS:
                self.allowed_pod_number += q.value()
            elif name == RESOURCE_EPHEMERAL_STORAGE:
                self.ephemeral_storage += q.value()
            elif is_scalar_resource_name(name):
                self.scalar_resources[name] = self.scalar_resources.get(name, 0) + q.value()

    @ports("pkg/scheduler/framework/types.go", "(*Resource).Clone", 635, 649)
    def clone(self) -> "Resource":
        return Resource(self.milli_cpu, self.memory, self.ephemeral_storage, self.allowed_pod_number,
                        dict(self.scalar_resources))

    @ports("pkg/scheduler/framework/types.go", "(*Resource).SetMaxResource", 666, 685)
    def set_max_resource(self, rl: ResourceList) -> None:
        for name, q in rl.items():
            if name == RESOURCE_MEMORY:
                self.memory = max(self.memory, q.value())
            elif name == RESOURCE_CPU:
                self.milli_cpu = max(self.milli_cpu, q.milli_value())
            elif name == RESOURCE_EPHEMERAL_STORAGE:
                self.ephemeral_storage = max(self.ephemeral_storage, q.value())
            elif is_scalar_resource_name(name):
                self.scalar_resources[name] = max(self.scalar_resources.get(name, 0), q.value())


@ports("pkg/scheduler/framework/types.go", "calculateResource", 867, 902)
def calculate_resource(pod: Pod) -> tuple[Resource, int, int]:
    """Upstream calculateResource: (requests, non-zero milli CPU, non-zero memory)."""
    acc = {"cpu": 0, "mem": 0, "init_cpu": 0, "init_mem": 0}

    def per_container(reqs: ResourceList, kind: str) -> None:
        cpu, mem = get_nonzero_requests(reqs)
        if kind == CONTAINERS:
            acc["cpu"] += cpu
            acc["mem"] += mem
        elif kind == INIT_CONTAINERS:
            acc["init_cpu"] = max(acc["init_cpu"], cpu)
            acc["init_mem"] = max(acc["init_mem"], mem)

    requests = pod_requests(pod, container_fn=per_container)
    non0_cpu = max(acc["cpu"], acc["init_cpu"])
    non0_mem = max(acc["mem"], acc["init_mem"])
    overhead = pod.spec.overhead
    if overhead:
        if RESOURCE_CPU in overhead:
            non0_cpu += overhead[RESOURCE_CPU].milli_value()
        if RESOURCE_MEMORY in overhead:
            non0_mem += overhead[RESOURCE_MEMORY].value()
    return Resource.from_list(requests), non0_cpu, non0_mem


# --- host ports ---------------------------------------------------------------------

DEFAULT_BIND_ALL_HOST_IP = "0.0.0.0"


@ports("pkg/scheduler/framework/types.go", "HostPortInfo", 987, 987)
class HostPortInfo(dict):
    """ip -> set of (protocol, port) in use on a node (upstream HostPortInfo)."""

    @staticmethod
    @ports("pkg/scheduler/framework/types.go", "(HostPortInfo).sanitize", 1068, 1075)
    def _sanitize(ip: str, protocol: str) -> tuple[str, str]:
        return ip or DEFAULT_BIND_ALL_HOST_IP, protocol or "TCP"

    @ports("pkg/scheduler/framework/types.go", "(HostPortInfo).Add", 990, 1006)
    def add(self, ip: str, protocol: str, port: int) -> None:
        if port <= 0:
            return
        ip, protocol = self._sanitize(ip, protocol)
        self.setdefault(ip, set()).add((protocol, port))

    @ports("pkg/scheduler/framework/types.go", "(HostPortInfo).Remove", 1009, 1023)
    def remove(self, ip: str, protocol: str, port: int) -> None:
        if port <= 0:
            return
        ip, protocol = self._sanitize(ip, protocol)
        ports = self.get(ip)
        if ports is not None:
            ports.discard((protocol, port))
            if not ports:
                del self[ip]

    @ports("pkg/scheduler/framework/types.go", "(HostPortInfo).Len", 1026, 1032)
    def length(self) -> int:
        return sum(len(v) for v in self.values())

    @ports("pkg/scheduler/framework/types.go", "(HostPortInfo).CheckConflict", 1036, 1065)
    def check_conflict(self, ip: str, protocol: str, port: int) -> bool:
        if port <= 0:
            return False
        ip, protocol = self._sanitize(ip, protocol)
        pp = (protocol, port)
        if ip == DEFAULT_BIND_ALL_HOST_IP:
            return any(pp in ports for ports in self.values())
        return any(pp in self.get(key, ()) for key in (DEFAULT_BIND_ALL_HOST_IP, ip))

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).Snapshot", 715, 756)
    def copy(self) -> "HostPortInfo":  # type: ignore[override]
        out = HostPortInfo()
        for ip, ports in self.items():
            out[ip] = set(ports)
        return out


# --- nodes --------------------------------------------------------------------------


@ports("pkg/scheduler/framework/types.go", "ImageStateSummary", 521, 530)
@dataclass
class ImageStateSummary:
    size: int
    num_nodes: int = 0
    nodes: set[str] = field(default_factory=set)

    @ports("pkg/scheduler/framework/types.go", "(*ImageStateSummary).Snapshot", 533, 538)
    def snapshot(self) -> "ImageStateSummary":
        # A summary that is itself a snapshot has no node set; keep its count.
        return ImageStateSummary(self.size, len(self.nodes) if self.nodes else self.num_nodes)


@ports("pkg/scheduler/framework/types.go", "podWithAffinity", 789, 792)
def pod_with_affinity(pod: Pod) -> bool:
    aff = pod.spec.affinity
    return aff is not None and (aff.pod_affinity is not None or aff.pod_anti_affinity is not None)


@ports("pkg/scheduler/framework/types.go", "podWithRequiredAntiAffinity", 794, 798)
def pod_with_required_anti_affinity(pod: Pod) -> bool:
    aff = pod.spec.affinity
    return aff is not None and aff.pod_anti_affinity is not None and bool(aff.pod_anti_affinity.required)


@ports("pkg/scheduler/framework/types.go", "GetPodKey", 950, 956)
def get_pod_key(pod: Pod) -> str:
    """Upstream GetPodKey: the cache keys pods by UID."""
    return pod.uid


@ports("pkg/scheduler/framework/types.go", "NodeInfo", 541, 581)
class NodeInfo:
    """Node-level aggregated information (upstream NodeInfo)."""

    __slots__ = ("_node", "name", "pods", "pods_with_affinity", "pods_with_required_anti_affinity", "used_ports",
                 "requested", "non_zero_requested", "allocatable", "image_states", "pvc_ref_counts", "generation")

    @ports("pkg/scheduler/framework/types.go", "NewNodeInfo", 690, 704)
    def __init__(self, *pods: Pod) -> None:
        self._node: Optional[Node] = None
        self.name = ""  # the node's name, kept beside it: every loop reads it
        self.pods: list[PodInfo] = []
        self.pods_with_affinity: list[PodInfo] = []
        self.pods_with_required_anti_affinity: list[PodInfo] = []
        self.used_ports = HostPortInfo()
        self.requested = Resource()
        self.non_zero_requested = Resource()
        self.allocatable = Resource()
        self.image_states: dict[str, ImageStateSummary] = {}
        self.pvc_ref_counts: dict[str, int] = {}
        self.generation = next_generation()
        for p in pods:
            self.add_pod(p)

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).Node", 707, 712)
    def node(self) -> Optional[Node]:
        return self._node

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).Snapshot", 715, 756)
    def snapshot(self) -> "NodeInfo":
        c = NodeInfo.__new__(NodeInfo)
        c._node = self._node
        c.name = self.name
        c.pods = list(self.pods)
        c.pods_with_affinity = list(self.pods_with_affinity)
        c.pods_with_required_anti_affinity = list(self.pods_with_required_anti_affinity)
        c.used_ports = self.used_ports.copy()
        c.requested = self.requested.clone()
        c.non_zero_requested = self.non_zero_requested.clone()
        c.allocatable = self.allocatable.clone()
        c.image_states = {k: v.snapshot() for k, v in self.image_states.items()}
        c.pvc_ref_counts = dict(self.pvc_ref_counts)
        c.generation = self.generation
        return c

    @plumbing("Python stand-in for a Go struct assignment")
    def overwrite_from(self, other: "NodeInfo") -> None:
        """Take every field of ``other`` (upstream's ``*existing = *clone``)."""
        for slot in NodeInfo.__slots__:
            setattr(self, slot, getattr(other, slot))

    # upstream: Clone() in cycle-state copies is the same operation as Snapshot().
    clone = snapshot

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).AddPodInfo", 770, 779)
    def add_pod_info(self, pi: PodInfo) -> None:
        self.pods.append(pi)
        if pod_with_affinity(pi.pod):
            self.pods_with_affinity.append(pi)
        if pod_with_required_anti_affinity(pi.pod):
            self.pods_with_required_anti_affinity.append(pi)
        self._update(pi.pod, 1)

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).AddPod", 782, 787)
    def add_pod(self, pod: Pod) -> None:
        self.add_pod_info(PodInfo.of(pod))

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).RemovePod", 824, 842)
    def remove_pod(self, pod: Pod) -> None:
        key = get_pod_key(pod)
        if pod_with_affinity(pod):
            _remove_from(self.pods_with_affinity, key)
        if pod_with_required_anti_affinity(pod):
            _remove_from(self.pods_with_required_anti_affinity, key)
        if _remove_from(self.pods, key):
            self._update(pod, -1)
            return
        raise KeyError(f"no corresponding pod {pod.metadata.name} in pods of node {self.name}")

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).update", 846, 865)
    def _update(self, pod: Pod, sign: int) -> None:
        res, non0_cpu, non0_mem = calculate_resource(pod)
        r = self.requested
        r.milli_cpu += sign * res.milli_cpu
        r.memory += sign * res.memory
        r.ephemeral_storage += sign * res.ephemeral_storage
        for name, q in res.scalar_resources.items():
            r.scalar_resources[name] = r.scalar_resources.get(name, 0) + sign * q
        self.non_zero_requested.milli_cpu += sign * non0_cpu
        self.non_zero_requested.memory += sign * non0_mem
        self._update_used_ports(pod, sign > 0)
        self._update_pvc_ref_counts(pod, sign > 0)
        self.generation = next_generation()

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).updateUsedPorts", 905, 915)
    def _update_used_ports(self, pod: Pod, add: bool) -> None:
        for c in pod.spec.containers:
            for p in c.ports:
                if add:
                    self.used_ports.add(p.host_ip, p.protocol, p.host_port)
                else:
                    self.used_ports.remove(p.host_ip, p.protocol, p.host_port)

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).updatePVCRefCounts", 918, 934)
    def _update_pvc_ref_counts(self, pod: Pod, add: bool) -> None:
        for v in pod.spec.volumes:
            claim = (v.get("persistentVolumeClaim") or {}).get("claimName") if isinstance(v, dict) else None
            if not claim:
                continue
            key = f"{pod.metadata.namespace}/{claim}"
            if add:
                self.pvc_ref_counts[key] = self.pvc_ref_counts.get(key, 0) + 1
            else:
                self.pvc_ref_counts[key] = self.pvc_ref_counts.get(key, 0) - 1
                if self.pvc_ref_counts[key] <= 0:
                    del self.pvc_ref_counts[key]

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).SetNode", 937, 941)
    def set_node(self, node: Node) -> None:
        self._node = node
        self.name = node.metadata.name
        self.allocatable = Resource.from_list(node.status.allocatable)
        self.generation = next_generation()

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).RemoveNode", 944, 947)
    def remove_node(self) -> None:
        self._node = None
        self.name = ""
        self.generation = next_generation()

    @ports("pkg/scheduler/framework/types.go", "(*NodeInfo).String", 759, 766)
    def __repr__(self) -> str:
        return f"NodeInfo({self.name!r}, pods={[p.pod.metadata.name for p in self.pods]})"


@ports("pkg/scheduler/framework/types.go", "removeFromSlice", 800, 821)
def _remove_from(items: list[PodInfo], key: str) -> bool:
    for i, pi in enumerate(items):
        if get_pod_key(pi.pod) == key:
            # upstream: swap with the last element and truncate (order is not kept).
            items[i] = items[-1]
            items.pop()
            return True
    return False


# --- the failure a user reads ------------------------------------------------------

NO_NODE_AVAILABLE_MSG = "0/{} nodes are available"


@ports("pkg/scheduler/framework/types.go", "Diagnosis", 327, 342)
@dataclass
class Diagnosis:
    node_to_status_map: NodeToStatusMap = field(default_factory=dict)
    unschedulable_plugins: set[str] = field(default_factory=set)
    pending_plugins: set[str] = field(default_factory=set)
    pre_filter_msg: str = ""
    post_filter_msg: str = ""

    @ports("pkg/scheduler/framework/types.go", "(*Diagnosis).AddPluginStatus", 356, 372)
    def add_plugin_status(self, sts: Status) -> None:
        if not sts.plugin:
            return
        if sts.is_rejected():
            self.unschedulable_plugins.add(sts.plugin)
        if sts.code.name == "Pending":
            self.pending_plugins.add(sts.plugin)


@ports("pkg/scheduler/framework/types.go", "FitError", 345, 349)
class FitError(Exception):
    """No node fits the pod; ``str()`` is the message of the PodScheduled condition."""

    def __init__(self, pod: Pod, num_all_nodes: int, diagnosis: Diagnosis) -> None:
        super().__init__()
        self.pod = pod
        self.num_all_nodes = num_all_nodes
        self.diagnosis = diagnosis

    @ports("pkg/scheduler/framework/types.go", "(*FitError).Error", 376, 421)
    def __str__(self) -> str:
        msg = NO_NODE_AVAILABLE_MSG.format(self.num_all_nodes) + ":"
        d = self.diagnosis
        if d.pre_filter_msg:
            msg += f" {d.pre_filter_msg}."
        else:
            histogram: dict[str, int] = {}
            for status in d.node_to_status_map.values():
                for reason in status.get_reasons():
                    histogram[reason] = histogram.get(reason, 0) + 1
            parts = sorted(f"{n} {reason}" for reason, n in histogram.items())
            if parts:
                msg += f" {', '.join(parts)}."
        if d.post_filter_msg:
            msg += f" {d.post_filter_msg}"
        return msg
