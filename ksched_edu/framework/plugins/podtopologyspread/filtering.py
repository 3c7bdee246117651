"""Port of pkg/scheduler/framework/plugins/podtopologyspread/filtering.go (v1.30).

The hard half of PodTopologySpread (``whenUnsatisfiable: DoNotSchedule``).
PreFilter counts, per topology domain, the pods the constraints select, and keeps
for each topology key the two least-loaded domains (the "critical paths"). Filter
then admits a node when ``matching pods in its domain + (1 if the pod matches
itself) - global minimum <= maxSkew``; the global minimum is 0 while fewer than
``minDomains`` domains exist. AddPod/RemovePod keep the counts right while
preemption tries removing pods.

Deviations:
- The plugin's methods that live in filtering.go are the mixin :class:`FilteringMixin`.
- Nodes are processed one after another (upstream: parallelizer.Until).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ....anchors import plumbing, ports
from ....api.nodeaffinity import get_required_node_affinity
from ....api.types import Node, Pod
from ...cycle_state import CycleState, StateNotFoundError
from ...interface import Code, PreFilterResult, Status, new_status
from ...types import NodeInfo, PodInfo
from ..names import POD_TOPOLOGY_SPREAD
from .common import (LABEL_HOSTNAME, StateError, TopologyPair, TopologySpreadConstraintInternal, count_pods_match_selector,
                     node_labels_match_spread_constraints)

PRE_FILTER_STATE_KEY = "PreFilter" + POD_TOPOLOGY_SPREAD

ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints"
ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + " (missing required label)"

MAX_INT32 = 2**31 - 1


@ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "criticalPaths", 104, 109)
@dataclass
class CriticalPath:
    topology_value: str = ""
    match_num: int = MAX_INT32


@ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "criticalPaths", 104, 109)
class CriticalPaths:
    """The two domains of one topology key with the fewest matching pods.

    ``paths[0].match_num`` is always the minimum; ``paths[1].match_num`` is at
    least that, but not necessarily the second smallest. Two entries suffice
    because preemption removes pods from one node at a time, on its own copy.
    """

    def __init__(self, first: Optional[CriticalPath] = None, second: Optional[CriticalPath] = None) -> None:
        self.paths = [first or CriticalPath(), second or CriticalPath()]

    def __getitem__(self, i: int) -> CriticalPath:
        return self.paths[i]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CriticalPaths) and self.paths == other.paths

    def __repr__(self) -> str:
        return f"CriticalPaths({self.paths[0]!r}, {self.paths[1]!r})"

    @plumbing("Go copies the fixed-size array by value; Python needs an explicit copy")
    def copy(self) -> "CriticalPaths":
        return CriticalPaths(CriticalPath(self.paths[0].topology_value, self.paths[0].match_num),
                             CriticalPath(self.paths[1].topology_value, self.paths[1].match_num))

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "(*criticalPaths).update", 115, 143)
    def update(self, tp_val: str, num: int) -> None:
        p = self.paths
        i = -1
        if tp_val == p[0].topology_value:
            i = 0
        elif tp_val == p[1].topology_value:
            i = 1
        if i >= 0:
            # A known domain: set its count, keep the smaller one first.
            p[i].match_num = num
            if p[0].match_num > p[1].match_num:
                p[0], p[1] = p[1], p[0]
        elif num < p[0].match_num:
            # A new minimum: the old minimum moves to second place.
            p[1] = p[0]
            p[0] = CriticalPath(tp_val, num)
        elif num < p[1].match_num:
            p[1] = CriticalPath(tp_val, num)


@ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "newCriticalPaths", 111, 113)
def new_critical_paths() -> CriticalPaths:
    return CriticalPaths()


@ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "preFilterState", 40, 51)
@dataclass
class PreFilterState:
    """What PreFilter computed for Filter. An empty state (no constraints) is
    legitimate and admits every node."""

    constraints: list[TopologySpreadConstraintInternal] = field(default_factory=list)
    tp_key_to_critical_paths: dict[str, CriticalPaths] = field(default_factory=dict)
    tp_key_to_domains_num: dict[str, int] = field(default_factory=dict)
    tp_pair_to_match_num: dict[TopologyPair, int] = field(default_factory=dict)

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "(*preFilterState).minMatchNum", 54, 73)
    def min_match_num(self, tp_key: str, min_domains: int) -> int:
        """The global minimum for the skew, 0 while there are fewer than ``min_domains`` domains."""
        paths = self.tp_key_to_critical_paths.get(tp_key)
        if paths is None:
            raise KeyError("failed to retrieve path by topology key")
        min_match_num = paths[0].match_num
        domains_num = self.tp_key_to_domains_num.get(tp_key)
        if domains_num is None:
            raise KeyError("failed to retrieve the number of domains by topology key")
        if domains_num < min_domains:
            min_match_num = 0
        return min_match_num

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "(*preFilterState).Clone", 76, 95)
    def clone(self) -> "PreFilterState":
        return PreFilterState(
            # The constraints and the domain counts do not change with AddPod/RemovePod: shared.
            constraints=self.constraints,
            tp_key_to_critical_paths={k: v.copy() for k, v in self.tp_key_to_critical_paths.items()},
            tp_key_to_domains_num=self.tp_key_to_domains_num,
            tp_pair_to_match_num=dict(self.tp_pair_to_match_num),
        )


@ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "getPreFilterState", 221, 233)
def get_pre_filter_state(cycle_state: CycleState) -> PreFilterState:
    try:
        c = cycle_state.read(PRE_FILTER_STATE_KEY)
    except StateNotFoundError as err:
        # PreFilter probably did not run.
        raise StateError(f'reading "{PRE_FILTER_STATE_KEY}" from cycleState: {err}') from None
    if not isinstance(c, PreFilterState):
        raise StateError(f"{c!r} convert to podtopologyspread.preFilterState error")
    return c


@ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "sizeHeuristic", 364, 371)
def size_heuristic(nodes: int, constraints: list[TopologySpreadConstraintInternal]) -> int:
    """Upstream's map size hint; kept for a reader comparing the two."""
    for c in constraints:
        if c.topology_key == LABEL_HOSTNAME:
            return nodes
    return 0


@plumbing("groups the PodTopologySpread methods of filtering.go into one Python mixin")
class FilteringMixin:
    """The methods of PodTopologySpread that live in filtering.go."""

    shared_lister: Any
    enable_node_inclusion_policy_in_pod_topology_spread: bool

    # get_constraints(pod) is defined in plugin.py, as upstream.

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "(*PodTopologySpread).PreFilter", 146, 156)
    def pre_filter(self, cycle_state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        try:
            s = self.cal_pre_filter_state(pod)
        except ValueError as err:
            return None, Status.as_status(err)
        if not s.constraints:
            return None, new_status(Code.Skip)
        cycle_state.write(PRE_FILTER_STATE_KEY, s)
        return None, None

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "(*PodTopologySpread).PreFilterExtensions", 159, 161)
    def pre_filter_extensions(self) -> "FilteringMixin":
        return self

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "(*PodTopologySpread).AddPod", 164, 172)
    def add_pod(self, cycle_state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfo,
                node_info: NodeInfo) -> Optional[Status]:
        try:
            s = get_pre_filter_state(cycle_state)
        except StateError as err:
            return Status.as_status(err)
        self.update_with_pod(s, pod_info_to_add.pod, pod_to_schedule, node_info.node(), 1)
        return None

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "(*PodTopologySpread).RemovePod", 175, 183)
    def remove_pod(self, cycle_state: CycleState, pod_to_schedule: Pod, pod_info_to_remove: PodInfo,
                   node_info: NodeInfo) -> Optional[Status]:
        try:
            s = get_pre_filter_state(cycle_state)
        except StateError as err:
            return Status.as_status(err)
        self.update_with_pod(s, pod_info_to_remove.pod, pod_to_schedule, node_info.node(), -1)
        return None

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "(*PodTopologySpread).updateWithPod", 185, 218)
    def update_with_pod(self, s: Optional[PreFilterState], updated_pod: Pod, preemptor_pod: Pod,
                        node: Optional[Node], delta: int) -> None:
        if s is None or updated_pod.metadata.namespace != preemptor_pod.metadata.namespace or node is None:
            return
        if not node_labels_match_spread_constraints(node.metadata.labels, s.constraints):
            return

        required_scheduling_term = get_required_node_affinity(preemptor_pod)
        if not self.enable_node_inclusion_policy_in_pod_topology_spread:
            # Spreading only counts nodes that pass the pod's node affinity.
            matched, _ = required_scheduling_term.match(node)
            if not matched:
                return

        pod_labels = updated_pod.metadata.labels
        for constraint in s.constraints:
            if not constraint.selector.matches(pod_labels):
                continue
            if (self.enable_node_inclusion_policy_in_pod_topology_spread
                    and not constraint.match_node_inclusion_policies(preemptor_pod, node, required_scheduling_term)):
                continue
            k, v = constraint.topology_key, node.metadata.labels[constraint.topology_key]
            pair = TopologyPair(k, v)
            s.tp_pair_to_match_num[pair] = s.tp_pair_to_match_num.get(pair, 0) + delta
            s.tp_key_to_critical_paths[k].update(v, s.tp_pair_to_match_num[pair])

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "(*PodTopologySpread).calPreFilterState", 236, 310)
    def cal_pre_filter_state(self, pod: Pod) -> PreFilterState:
        """Count the matching pods per domain over all nodes, and find the critical paths."""
        try:
            constraints = self.get_constraints(pod)  # type: ignore[attr-defined]
        except ValueError as err:
            raise ValueError(f"get constraints from pod: {err}") from err
        if not constraints:
            return PreFilterState()

        all_nodes = self.shared_lister.node_infos().list()
        s = PreFilterState(constraints=constraints)

        tp_counts_by_node: list[Optional[dict[TopologyPair, int]]] = [None] * len(all_nodes)
        required_node_affinity = get_required_node_affinity(pod)
        # upstream: parallelizer.Until over the nodes; here one node after another.
        for i, node_info in enumerate(all_nodes):
            node = node_info.node()
            if not self.enable_node_inclusion_policy_in_pod_topology_spread:
                # Ignore parsing errors for backwards compatibility.
                matched, _ = required_node_affinity.match(node)
                if not matched:
                    continue
            # The node must carry every topology key of the constraints.
            if not node_labels_match_spread_constraints(node.metadata.labels, constraints):
                continue
            tp_counts: dict[TopologyPair, int] = {}
            for c in constraints:
                if (self.enable_node_inclusion_policy_in_pod_topology_spread
                        and not c.match_node_inclusion_policies(pod, node, required_node_affinity)):
                    continue
                pair = TopologyPair(c.topology_key, node.metadata.labels[c.topology_key])
                tp_counts[pair] = count_pods_match_selector(node_info.pods, c.selector, pod.metadata.namespace)
            tp_counts_by_node[i] = tp_counts

        for tp_counts in tp_counts_by_node:
            for tp, count in (tp_counts or {}).items():
                s.tp_pair_to_match_num[tp] = s.tp_pair_to_match_num.get(tp, 0) + count
        s.tp_key_to_domains_num = {}
        for tp in s.tp_pair_to_match_num:
            s.tp_key_to_domains_num[tp.key] = s.tp_key_to_domains_num.get(tp.key, 0) + 1

        # The minimum match per topology key.
        for c in constraints:
            s.tp_key_to_critical_paths[c.topology_key] = new_critical_paths()
        for pair, num in s.tp_pair_to_match_num.items():
            s.tp_key_to_critical_paths[pair.key].update(pair.value, num)
        return s

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/filtering.go", "(*PodTopologySpread).Filter", 313, 362)
    def filter(self, cycle_state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        node = node_info.node()
        try:
            s = get_pre_filter_state(cycle_state)
        except StateError as err:
            return Status.as_status(err)

        # An empty state is legitimate: it admits every pod.
        if not s.constraints:
            return None

        pod_labels = pod.metadata.labels
        for c in s.constraints:
            tp_key = c.topology_key
            tp_val = node.metadata.labels.get(tp_key)  # type: ignore[union-attr]
            if tp_val is None:
                return new_status(Code.UnschedulableAndUnresolvable, ERR_REASON_NODE_LABEL_NOT_MATCH)

            # existing matching pods + (1 if the pod matches itself) - global minimum <= maxSkew
            try:
                min_match_num = s.min_match_num(tp_key, c.min_domains)
            except KeyError:
                # upstream: logged as an internal error, and the constraint is skipped.
                continue

            self_match_num = 1 if c.selector.matches(pod_labels) else 0
            match_num = s.tp_pair_to_match_num.get(TopologyPair(tp_key, tp_val), 0)
            skew = match_num + self_match_num - min_match_num
            if skew > c.max_skew:
                return new_status(Code.Unschedulable, ERR_REASON_CONSTRAINTS_NOT_MATCH)
        return None
