"""Port of pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (v1.30).

The required half of InterPodAffinity. PreFilter counts, per topology pair
(label key, label value), the existing pods that the incoming pod's required
affinity and anti-affinity terms match, and the existing pods whose own
required anti-affinity terms match the incoming pod. Filter then only looks up
a node's labels in those three counts; AddPod/RemovePod keep them current while
preemption and the nominated-pods pass add and remove pods.

Deviations:
- No parallelizer: nodes are processed one after the other, in list order.
- ``framework.NewPodInfo`` does not fail here (label values are checked when a
  manifest is loaded), so PreFilter never returns ``parsing pod: ...``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping, NamedTuple, Optional

from ....anchors import plumbing, ports
from ...cycle_state import CycleState, StateNotFoundError
from ...interface import Code, PreFilterResult, Status, new_status
from ...types import AffinityTerm, NodeInfo, PodInfo
from ..names import INTER_POD_AFFINITY

if TYPE_CHECKING:  # pragma: no cover
    from ....api.types import Node, Pod

# Key in CycleState to the data PreFilter computed for Filter.
PRE_FILTER_STATE_KEY = "PreFilter" + INTER_POD_AFFINITY

# Reasons (upstream ErrReason*).
ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules"
ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules"
ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules"


@ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "topologyPair", 86, 89)
class TopologyPair(NamedTuple):
    key: str
    value: str


@ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "topologyToMatchedTermCount", 90, 90)
class TopologyToMatchedTermCount(dict):
    """``TopologyPair -> number of matched terms`` (upstream topologyToMatchedTermCount)."""

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(topologyToMatchedTermCount).append", 92, 96)
    def append(self, to_append: Mapping[TopologyPair, int]) -> None:
        for pair, count in to_append.items():
            self[pair] = self.get(pair, 0) + count

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(topologyToMatchedTermCount).clone", 98, 102)
    def clone(self) -> "TopologyToMatchedTermCount":
        copy = TopologyToMatchedTermCount()
        copy.append(self)
        return copy

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(topologyToMatchedTermCount).update", 104, 113)
    def update_pair(self, node: "Node", tk: str, value: int) -> None:
        """Upstream ``update`` (renamed: ``dict.update`` exists): add ``value`` to the
        pair ``(tk, node's value for tk)`` when the node has the label ``tk``."""
        tv = node.metadata.labels.get(tk)
        if tv is None:
            return
        pair = TopologyPair(tk, tv)
        self[pair] = self.get(pair, 0) + value
        # value may be negative, so drop a pair that came down to zero.
        if self[pair] == 0:
            del self[pair]

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(topologyToMatchedTermCount).updateWithAffinityTerms", 117, 124)
    def update_with_affinity_terms(self, terms: list[AffinityTerm], pod: "Pod", node: "Node", value: int) -> None:
        """Count every term once, but only when ``pod`` matches ALL of them."""
        if pod_matches_all_affinity_terms(terms, pod):
            for t in terms:
                self.update_pair(node, t.topology_key, value)

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(topologyToMatchedTermCount).updateWithAntiAffinityTerms", 128, 135)
    def update_with_anti_affinity_terms(self, terms: list[AffinityTerm], pod: "Pod",
                                        ns_labels: Optional[Mapping[str, str]], node: "Node", value: int) -> None:
        """Count every anti-affinity term that ``pod`` matches."""
        for t in terms:
            if t.matches(pod, ns_labels):
                self.update_pair(node, t.topology_key, value)


@ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "podMatchesAllAffinityTerms", 138, 150)
def pod_matches_all_affinity_terms(terms: list[AffinityTerm], pod: "Pod") -> bool:
    """True iff ``terms`` is not empty and ``pod`` matches every one of them."""
    if not terms:
        return False
    # The incoming pod's namespaceSelector was merged into its namespaces, so no
    # namespace labels are needed here.
    return all(t.matches(pod, None) for t in terms)


@ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "preFilterState", 44, 55)
@dataclass
class PreFilterState:
    """What PreFilter computed for Filter (upstream preFilterState)."""

    # Pairs -> existing pods whose required anti-affinity terms match the incoming pod.
    existing_anti_affinity_counts: TopologyToMatchedTermCount = field(default_factory=TopologyToMatchedTermCount)
    # Pairs -> existing pods that match the incoming pod's required affinity terms.
    affinity_counts: TopologyToMatchedTermCount = field(default_factory=TopologyToMatchedTermCount)
    # Pairs -> existing pods that match the incoming pod's required anti-affinity terms.
    anti_affinity_counts: TopologyToMatchedTermCount = field(default_factory=TopologyToMatchedTermCount)
    pod_info: Optional[PodInfo] = None
    # A copy of the incoming pod's namespace labels.
    namespace_labels: dict[str, str] = field(default_factory=dict)

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(*preFilterState).Clone", 58, 71)
    def clone(self) -> "PreFilterState":
        # The pod info and the namespace labels do not change: shared, as upstream.
        return PreFilterState(self.existing_anti_affinity_counts.clone(), self.affinity_counts.clone(),
                              self.anti_affinity_counts.clone(), self.pod_info, self.namespace_labels)

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(*preFilterState).updateWithPod", 74, 84)
    def update_with_pod(self, p_info: PodInfo, node: "Node", multiplier: int) -> None:
        """Add (multiplier 1) or remove (-1) the matches ``p_info`` contributes."""
        assert self.pod_info is not None
        self.existing_anti_affinity_counts.update_with_anti_affinity_terms(
            p_info.required_anti_affinity_terms, self.pod_info.pod, self.namespace_labels, node, multiplier)
        self.affinity_counts.update_with_affinity_terms(
            self.pod_info.required_affinity_terms, p_info.pod, node, multiplier)
        # The incoming pod's terms have their namespaceSelector merged: no namespace labels.
        self.anti_affinity_counts.update_with_anti_affinity_terms(
            self.pod_info.required_anti_affinity_terms, p_info.pod, None, node, multiplier)


@plumbing("groups the InterPodAffinity methods of filtering.go into one Python mixin")
class FilteringMixin:
    """PreFilter, PreFilterExtensions and Filter of InterPodAffinity (mixed into the plugin)."""

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(*InterPodAffinity).getExistingAntiAffinityCounts", 155, 178)
    def get_existing_anti_affinity_counts(self, pod: "Pod", ns_labels: Mapping[str, str],
                                          nodes: list[NodeInfo]) -> TopologyToMatchedTermCount:
        """For each existing pod with required anti-affinity: which of its terms match ``pod``."""
        result = TopologyToMatchedTermCount()
        # upstream: parallelizer.Until over the nodes, one map per node, appended at the end.
        for node_info in nodes:
            node = node_info.node()
            topo_map = TopologyToMatchedTermCount()
            for existing_pod in node_info.pods_with_required_anti_affinity:
                topo_map.update_with_anti_affinity_terms(existing_pod.required_anti_affinity_terms, pod, ns_labels,
                                                         node, 1)
            result.append(topo_map)
        return result

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(*InterPodAffinity).getIncomingAffinityAntiAffinityCounts", 184, 221)
    def get_incoming_affinity_anti_affinity_counts(
            self, pod_info: PodInfo,
            all_nodes: list[NodeInfo]) -> tuple[TopologyToMatchedTermCount, TopologyToMatchedTermCount]:
        """The existing pods that the incoming pod's required (anti-)affinity terms match."""
        affinity_counts = TopologyToMatchedTermCount()
        anti_affinity_counts = TopologyToMatchedTermCount()
        if not pod_info.required_affinity_terms and not pod_info.required_anti_affinity_terms:
            return affinity_counts, anti_affinity_counts

        # upstream: parallelizer.Until over the nodes, one pair of maps per node.
        for node_info in all_nodes:
            node = node_info.node()
            affinity = TopologyToMatchedTermCount()
            anti_affinity = TopologyToMatchedTermCount()
            for existing_pod in node_info.pods:
                affinity.update_with_affinity_terms(pod_info.required_affinity_terms, existing_pod.pod, node, 1)
                # The incoming pod's terms have their namespaceSelector merged: no namespace labels.
                anti_affinity.update_with_anti_affinity_terms(pod_info.required_anti_affinity_terms,
                                                              existing_pod.pod, None, node, 1)
            affinity_counts.append(affinity)
            anti_affinity_counts.append(anti_affinity)
        return affinity_counts, anti_affinity_counts

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(*InterPodAffinity).PreFilter", 224, 263)
    def pre_filter(self, cycle_state: CycleState, pod: "Pod") -> tuple[Optional[PreFilterResult], Optional[Status]]:
        node_infos = self.shared_lister.node_infos()
        all_nodes = node_infos.list()
        nodes_with_required_anti_affinity_pods = node_infos.have_pods_with_required_anti_affinity_list()

        s = PreFilterState()
        # A fresh PodInfo: its terms are ours to rewrite below.
        s.pod_info = PodInfo.of(pod)
        for term in s.pod_info.required_affinity_terms:
            self.merge_affinity_term_namespaces_if_not_empty(term)
        for term in s.pod_info.required_anti_affinity_terms:
            self.merge_affinity_term_namespaces_if_not_empty(term)
        s.namespace_labels = self.get_namespace_labels_snapshot(pod.metadata.namespace)

        s.existing_anti_affinity_counts = self.get_existing_anti_affinity_counts(
            pod, s.namespace_labels, nodes_with_required_anti_affinity_pods)
        s.affinity_counts, s.anti_affinity_counts = self.get_incoming_affinity_anti_affinity_counts(
            s.pod_info, all_nodes)

        if (not s.existing_anti_affinity_counts and not s.pod_info.required_affinity_terms
                and not s.pod_info.required_anti_affinity_terms):
            return None, new_status(Code.Skip)

        cycle_state.write(PRE_FILTER_STATE_KEY, s)
        return None, None

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(*InterPodAffinity).PreFilterExtensions", 266, 268)
    def pre_filter_extensions(self) -> "FilteringMixin":
        return self

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(*InterPodAffinity).AddPod", 271, 278)
    def add_pod(self, cycle_state: CycleState, pod_to_schedule: "Pod", pod_info_to_add: PodInfo,
                node_info: NodeInfo) -> Optional[Status]:
        state, err = get_pre_filter_state(cycle_state)
        if err is not None:
            return Status.as_status(err)
        state.update_with_pod(pod_info_to_add, node_info.node(), 1)
        return None

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(*InterPodAffinity).RemovePod", 281, 288)
    def remove_pod(self, cycle_state: CycleState, pod_to_schedule: "Pod", pod_info_to_remove: PodInfo,
                   node_info: NodeInfo) -> Optional[Status]:
        state, err = get_pre_filter_state(cycle_state)
        if err is not None:
            return Status.as_status(err)
        state.update_with_pod(pod_info_to_remove, node_info.node(), -1)
        return None

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "(*InterPodAffinity).Filter", 366, 386)
    def filter(self, cycle_state: CycleState, pod: "Pod", node_info: NodeInfo) -> Optional[Status]:
        state, err = get_pre_filter_state(cycle_state)
        if err is not None:
            return Status.as_status(err)

        if not satisfy_pod_affinity(state, node_info):
            return new_status(Code.UnschedulableAndUnresolvable, ERR_REASON_AFFINITY_RULES_NOT_MATCH)

        if not satisfy_pod_anti_affinity(state, node_info):
            return new_status(Code.Unschedulable, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH)

        if not satisfy_existing_pods_anti_affinity(state, node_info):
            return new_status(Code.Unschedulable, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)

        return None


@ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "getPreFilterState", 290, 302)
def get_pre_filter_state(cycle_state: CycleState) -> tuple[PreFilterState, Optional[str]]:
    """The PreFilter state, or an error text when PreFilter did not run."""
    try:
        c = cycle_state.read(PRE_FILTER_STATE_KEY)
    except StateNotFoundError as err:
        return PreFilterState(), f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: {err}'
    if not isinstance(c, PreFilterState):
        return PreFilterState(), f"{c!r}  convert to interpodaffinity.state error"
    return c, None


@ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "satisfyExistingPodsAntiAffinity", 306, 318)
def satisfy_existing_pods_anti_affinity(state: PreFilterState, node_info: NodeInfo) -> bool:
    """Would placing the pod here break an existing pod's required anti-affinity?"""
    if state.existing_anti_affinity_counts:
        # Any of the node's topology pairs counted by an existing pod's term rejects the node.
        for topology_key, topology_value in node_info.node().metadata.labels.items():
            if state.existing_anti_affinity_counts.get(TopologyPair(topology_key, topology_value), 0) > 0:
                return False
    return True


@ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "satisfyPodAntiAffinity", 321, 333)
def satisfy_pod_anti_affinity(state: PreFilterState, node_info: NodeInfo) -> bool:
    """Does the node satisfy the incoming pod's required anti-affinity terms?"""
    if state.anti_affinity_counts:
        labels = node_info.node().metadata.labels
        for term in state.pod_info.required_anti_affinity_terms:
            topology_value = labels.get(term.topology_key)
            if topology_value is not None:
                if state.anti_affinity_counts.get(TopologyPair(term.topology_key, topology_value), 0) > 0:
                    return False
    return True


@ports("pkg/scheduler/framework/plugins/interpodaffinity/filtering.go", "satisfyPodAffinity", 336, 362)
def satisfy_pod_affinity(state: PreFilterState, node_info: NodeInfo) -> bool:
    """Does the node satisfy the incoming pod's required affinity terms?"""
    pods_exist = True
    labels = node_info.node().metadata.labels
    for term in state.pod_info.required_affinity_terms:
        topology_value = labels.get(term.topology_key)
        if topology_value is None:
            # Every topology label must exist on the node.
            return False
        if state.affinity_counts.get(TopologyPair(term.topology_key, topology_value), 0) <= 0:
            pods_exist = False

    if not pods_exist:
        # The first pod of a group with affinity to itself: when no pod anywhere
        # matches the terms and the pod matches its own terms, let it pass (the
        # node has every topology label, checked above) so the group can start.
        if not state.affinity_counts and pod_matches_all_affinity_terms(state.pod_info.required_affinity_terms,
                                                                        state.pod_info.pod):
            return True
        return False
    return True
