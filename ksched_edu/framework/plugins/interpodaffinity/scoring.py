"""Port of pkg/scheduler/framework/plugins/interpodaffinity/scoring.go (v1.30).

The preferred half of InterPodAffinity. PreScore walks the existing pods once and
adds, per topology key and value, the weights of every term that holds: the
incoming pod's preferred (anti-)affinity terms matched by an existing pod, and,
symmetrically, an existing pod's preferred terms (and, weighted by
``hardPodAffinityWeight``, its required affinity terms) matched by the incoming
pod. Score sums those values over a node's labels; NormalizeScore maps them
onto ``[0, 100]`` between the lowest and the highest raw score.

Deviations:
- No parallelizer: nodes are processed one after the other, in list order.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping, Optional

from ....anchors import plumbing, ports
from ...cycle_state import CycleState, StateNotFoundError
from ...interface import MAX_NODE_SCORE, Code, NodeScore, Status, new_status
from ...types import AffinityTerm, NodeInfo, PodInfo, WeightedAffinityTerm
from ..names import INTER_POD_AFFINITY

if TYPE_CHECKING:  # pragma: no cover
    from ....api.types import Node, Pod

# Key in CycleState to the data PreScore computed for Score.
PRE_SCORE_STATE_KEY = "PreScore" + INTER_POD_AFFINITY


@ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "scoreMap", 34, 34)
class ScoreMap(dict):
    """``topology key -> topology value -> summed weight`` (upstream scoreMap)."""

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "(scoreMap).processTerm", 50, 59)
    def process_term(self, term: AffinityTerm, weight: int, pod: "Pod", ns_labels: Optional[Mapping[str, str]],
                     node: "Node", multiplier: int) -> None:
        if term.matches(pod, ns_labels):
            tp_value = node.metadata.labels.get(term.topology_key)
            if tp_value is not None:
                values = self.setdefault(term.topology_key, {})
                values[tp_value] = values.get(tp_value, 0) + weight * multiplier

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "(scoreMap).processTerms", 61, 65)
    def process_terms(self, terms: list[WeightedAffinityTerm], pod: "Pod", ns_labels: Optional[Mapping[str, str]],
                      node: "Node", multiplier: int) -> None:
        for term in terms:
            self.process_term(term.term, term.weight, pod, ns_labels, node, multiplier)

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "(scoreMap).append", 67, 78)
    def append(self, other: "ScoreMap") -> None:
        for topology, o_scores in other.items():
            scores = self.get(topology)
            if scores is None:
                self[topology] = o_scores
                continue
            for k, v in o_scores.items():
                scores[k] = scores.get(k, 0) + v


@ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "preScoreState", 37, 42)
@dataclass
class PreScoreState:
    """What PreScore computed for Score (upstream preScoreState)."""

    topology_score: ScoreMap = field(default_factory=ScoreMap)
    pod_info: Optional[PodInfo] = None
    # A copy of the incoming pod's namespace labels.
    namespace_labels: dict[str, str] = field(default_factory=dict)

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "(*preScoreState).Clone", 46, 48)
    def clone(self) -> "PreScoreState":
        # Score data is never changed after PreScore: shared, as upstream.
        return self


@ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "getPreScoreState", 226, 237)
def get_pre_score_state(cycle_state: CycleState) -> tuple[PreScoreState, Optional[str]]:
    try:
        c = cycle_state.read(PRE_SCORE_STATE_KEY)
    except StateNotFoundError as err:
        return PreScoreState(), f'failed to read "{PRE_SCORE_STATE_KEY}" from cycleState: {err}'
    if not isinstance(c, PreScoreState):
        return PreScoreState(), f"{c!r}  convert to interpodaffinity.preScoreState error"
    return c, None


@plumbing("groups the InterPodAffinity methods of scoring.go into one Python mixin")
class ScoringMixin:
    """PreScore, Score and NormalizeScore of InterPodAffinity (mixed into the plugin)."""

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "(*InterPodAffinity).processExistingPod", 80, 124)
    def process_existing_pod(self, state: PreScoreState, existing_pod: PodInfo, existing_pod_node_info: NodeInfo,
                             incoming_pod: "Pod", topo_score: ScoreMap) -> None:
        existing_pod_node = existing_pod_node_info.node()
        if not existing_pod_node.metadata.labels:
            return

        # The incoming pod's preferred terms that the existing pod matches: +weight
        # for affinity, -weight for anti-affinity, on the existing pod's topology
        # value. Those terms have their namespaceSelector merged: no namespace labels.
        topo_score.process_terms(state.pod_info.preferred_affinity_terms, existing_pod.pod, None,
                                 existing_pod_node, 1)
        topo_score.process_terms(state.pod_info.preferred_anti_affinity_terms, existing_pod.pod, None,
                                 existing_pod_node, -1)

        # Symmetry: the existing pod's required affinity terms that the incoming
        # pod matches count with the configured hard-affinity weight ...
        if self.args.hard_pod_affinity_weight > 0 and existing_pod_node.metadata.labels:
            for t in existing_pod.required_affinity_terms:
                topo_score.process_term(t, self.args.hard_pod_affinity_weight, incoming_pod,
                                        state.namespace_labels, existing_pod_node, 1)

        # ... and its preferred terms with their own weights.
        topo_score.process_terms(existing_pod.preferred_affinity_terms, incoming_pod, state.namespace_labels,
                                 existing_pod_node, 1)
        topo_score.process_terms(existing_pod.preferred_anti_affinity_terms, incoming_pod, state.namespace_labels,
                                 existing_pod_node, -1)

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "(*InterPodAffinity).PreScore", 127, 224)
    def pre_score(self, cycle_state: CycleState, pod: "Pod", nodes: list[NodeInfo]) -> Optional[Status]:
        if not nodes:
            # No nodes to score.
            return new_status(Code.Skip)

        if self.shared_lister is None:
            return new_status(Code.Error, "empty shared lister in InterPodAffinity PreScore")

        affinity = pod.spec.affinity
        has_preferred_affinity_constraints = (affinity is not None and affinity.pod_affinity is not None
                                              and len(affinity.pod_affinity.preferred) > 0)
        has_preferred_anti_affinity_constraints = (affinity is not None and affinity.pod_anti_affinity is not None
                                                   and len(affinity.pod_anti_affinity.preferred) > 0)
        has_constraints = has_preferred_affinity_constraints or has_preferred_anti_affinity_constraints

        # Optionally ignore existing pods' preferences when the incoming pod has none.
        if self.args.ignore_preferred_terms_of_existing_pods and not has_constraints:
            return new_status(Code.Skip)

        # Without preferred terms of its own, the pod only meets the nodes that host
        # pods with affinity.
        if has_constraints:
            all_nodes = self.shared_lister.node_infos().list()
        else:
            all_nodes = self.shared_lister.node_infos().have_pods_with_affinity_list()

        state = PreScoreState()
        state.pod_info = PodInfo.of(pod)
        for wterm in state.pod_info.preferred_affinity_terms:
            self.merge_affinity_term_namespaces_if_not_empty(wterm.term)
        for wterm in state.pod_info.preferred_anti_affinity_terms:
            self.merge_affinity_term_namespaces_if_not_empty(wterm.term)
        state.namespace_labels = self.get_namespace_labels_snapshot(pod.metadata.namespace)

        found_any = False
        # upstream: parallelizer.Until over the nodes, non-empty maps appended at the end.
        for node_info in all_nodes:
            # Without preferred terms, only the pods with affinity matter.
            pods_to_process = node_info.pods if has_constraints else node_info.pods_with_affinity
            topo_score = ScoreMap()
            for existing_pod in pods_to_process:
                self.process_existing_pod(state, existing_pod, node_info, pod, topo_score)
            if topo_score:
                found_any = True
                state.topology_score.append(topo_score)

        if not found_any:
            return new_status(Code.Skip)

        cycle_state.write(PRE_SCORE_STATE_KEY, state)
        return None

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "(*InterPodAffinity).Score", 243, 262)
    def score(self, cycle_state: CycleState, pod: "Pod", node_name: str) -> tuple[int, Optional[Status]]:
        """The summed weights of the topology values this node carries; positive for
        affinity, negative for anti-affinity. NormalizeScore rescales them."""
        try:
            node_info = self.shared_lister.node_infos().get(node_name)
        except KeyError as err:
            return 0, Status.as_status(f'failed to get node "{node_name}" from Snapshot: {err}')
        node = node_info.node()

        s, err_text = get_pre_score_state(cycle_state)
        if err_text is not None:
            return 0, Status.as_status(err_text)
        score = 0
        for tp_key, tp_values in s.topology_score.items():
            v = node.metadata.labels.get(tp_key)
            if v is not None:
                score += tp_values.get(v, 0)
        return score, None

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "(*InterPodAffinity).NormalizeScore", 265, 297)
    def normalize_score(self, cycle_state: CycleState, pod: "Pod", scores: list[NodeScore]) -> Optional[Status]:
        """Min-max normalization onto ``[0, MAX_NODE_SCORE]``."""
        s, err_text = get_pre_score_state(cycle_state)
        if err_text is not None:
            return Status.as_status(err_text)
        if not s.topology_score:
            return None

        min_count = math.inf
        max_count = -math.inf
        for ns in scores:
            if ns.score > max_count:
                max_count = ns.score
            if ns.score < min_count:
                min_count = ns.score

        max_min_diff = max_count - min_count
        for ns in scores:
            f_score = 0.0
            if max_min_diff > 0:
                f_score = float(MAX_NODE_SCORE) * ((ns.score - min_count) / max_min_diff)
            ns.score = int(f_score)
        return None

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/scoring.go", "(*InterPodAffinity).ScoreExtensions", 300, 302)
    def score_extensions(self) -> "ScoringMixin":
        return self
