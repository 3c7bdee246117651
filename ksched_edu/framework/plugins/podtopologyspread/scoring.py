"""Port of pkg/scheduler/framework/plugins/podtopologyspread/scoring.go (v1.30).

The soft half of PodTopologySpread (``whenUnsatisfiable: ScheduleAnyway``, and
the system default constraints). A node's raw score sums, per constraint,
``matching pods in its domain * log(number of domains + 2) + (maxSkew - 1)``;
NormalizeScore turns "fewer matching pods" into "higher score":
``100 * (max + min - raw) / max``.

Deviations:
- The plugin's methods that live in scoring.go are the mixin :class:`ScoringMixin`.
- Per-domain counts are plain ints in a dict (upstream: ``*int64`` updated atomically
  by parallel workers); nodes are processed one after another.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Optional

from .... import goint
from ....anchors import plumbing, ports
from ....api.nodeaffinity import get_required_node_affinity
from ....api.types import Pod
from ...cycle_state import CycleState, StateNotFoundError
from ...interface import MAX_NODE_SCORE, Code, NodeScore, Status, new_status
from ...types import NodeInfo
from ..names import POD_TOPOLOGY_SPREAD
from .common import (LABEL_HOSTNAME, SCHEDULE_ANYWAY, StateError, TopologyPair, TopologySpreadConstraintInternal,
                     count_pods_match_selector, node_labels_match_spread_constraints)

PRE_SCORE_STATE_KEY = "PreScore" + POD_TOPOLOGY_SPREAD
INVALID_SCORE = -1
MAX_INT64 = 2**63 - 1


@ports("pkg/scheduler/framework/plugins/podtopologyspread/scoring.go", "preScoreState", 36, 46)
@dataclass
class PreScoreState:
    """What PreScore computed for Score and NormalizeScore."""

    constraints: list[TopologySpreadConstraintInternal] = field(default_factory=list)
    # Nodes missing some constraint's topology key: they score 0.
    ignored_nodes: set[str] = field(default_factory=set)
    # Matching pods per domain, for the domains of the filtered nodes (hostname excluded).
    topology_pair_to_pod_counts: dict[TopologyPair, int] = field(default_factory=dict)
    # Per constraint: log(number of domains + 2), so small topologies are not watered down.
    topology_normalizing_weight: list[float] = field(default_factory=list)

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/scoring.go", "(*preScoreState).Clone", 50, 52)
    def clone(self) -> "PreScoreState":
        # Read-only after PreScore: shared, as upstream.
        return self


@ports("pkg/scheduler/framework/plugins/podtopologyspread/scoring.go", "getPreScoreState", 273, 284)
def get_pre_score_state(cycle_state: CycleState) -> PreScoreState:
    try:
        c = cycle_state.read(PRE_SCORE_STATE_KEY)
    except StateNotFoundError as err:
        raise StateError(f'error reading "{PRE_SCORE_STATE_KEY}" from cycleState: {err}') from None
    if not isinstance(c, PreScoreState):
        raise StateError(f"{c!r}  convert to podtopologyspread.preScoreState error")
    return c


@ports("pkg/scheduler/framework/plugins/podtopologyspread/scoring.go", "topologyNormalizingWeight", 295, 297)
def topology_normalizing_weight(size: int) -> float:
    """The weight of a topology with ``size`` domains: ``log(size + 2)``.

    ``size`` is at least 1 when any node passed the filters, so the weight lies in
    about [1.09, 8.52] for clusters of up to 5000 nodes.
    """
    return math.log(float(size + 2))


@ports("pkg/scheduler/framework/plugins/podtopologyspread/scoring.go", "scoreForCount", 303, 305)
def score_for_count(cnt: int, max_skew: int, tp_weight: float) -> float:
    """``cnt * weight + (maxSkew - 1)``: a larger maxSkew makes domains look more alike."""
    return float(cnt) * tp_weight + float(max_skew - 1)


@plumbing("Go's int64(math.Round(x)) rounding, which Python's round() does not match")
def go_round(x: float) -> int:
    """Go's ``int64(math.Round(x))``: half away from zero (Python's round() is half to even).

    The score is a sum of non-negative counts times log weights, far below 2^63, so
    the conversion is a plain truncation of an already whole number.
    """
    return int(goint.round_half_away(x))


@plumbing("groups the PodTopologySpread methods of scoring.go into one Python mixin")
class ScoringMixin:
    """The methods of PodTopologySpread that live in scoring.go."""

    shared_lister: Any
    system_defaulted: bool
    enable_node_inclusion_policy_in_pod_topology_spread: bool

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/scoring.go", "(*PodTopologySpread).initPreScoreState", 59, 109)
    def init_pre_score_state(self, s: PreScoreState, pod: Pod, filtered_nodes: list[NodeInfo],
                             require_all_topologies: bool) -> None:
        """Fill the soft constraints, the ignored nodes, the domains of the filtered
        nodes and the normalizing weights."""
        if pod.spec.topology_spread_constraints:
            s.constraints = self.filter_topology_spread_constraints(  # type: ignore[attr-defined]
                pod.spec.topology_spread_constraints, pod.metadata.labels, SCHEDULE_ANYWAY)
        else:
            s.constraints = self.build_default_constraints(pod, SCHEDULE_ANYWAY) or []  # type: ignore[attr-defined]
        if not s.constraints:
            return
        topo_size = [0] * len(s.constraints)
        for node_info in filtered_nodes:
            node = node_info.node()
            if require_all_topologies and not node_labels_match_spread_constraints(node.metadata.labels,
                                                                                   s.constraints):
                # A node missing some topology key is ignored when scoring.
                s.ignored_nodes.add(node.metadata.name)
                continue
            for i, constraint in enumerate(s.constraints):
                # Per-node counts are computed in Score.
                if constraint.topology_key == LABEL_HOSTNAME:
                    continue
                pair = TopologyPair(constraint.topology_key, node.metadata.labels.get(constraint.topology_key, ""))
                if pair not in s.topology_pair_to_pod_counts:
                    s.topology_pair_to_pod_counts[pair] = 0
                    topo_size[i] += 1

        s.topology_normalizing_weight = []
        for i, c in enumerate(s.constraints):
            sz = topo_size[i]
            if c.topology_key == LABEL_HOSTNAME:
                sz = len(filtered_nodes) - len(s.ignored_nodes)
            s.topology_normalizing_weight.append(topology_normalizing_weight(sz))

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/scoring.go", "(*PodTopologySpread).PreScore", 112, 186)
    def pre_score(self, cycle_state: CycleState, pod: Pod, filtered_nodes: list[NodeInfo]) -> Optional[Status]:
        all_nodes = self.shared_lister.node_infos().list()
        if not all_nodes:
            # Nothing to score.
            return new_status(Code.Skip)

        state = PreScoreState()
        # Only the non-system-default rules require every topology label on a node,
        # so that nodes without a zone label still get hostname spreading.
        require_all_topologies = bool(pod.spec.topology_spread_constraints) or not self.system_defaulted
        self.init_pre_score_state(state, pod, filtered_nodes, require_all_topologies)

        # No soft constraints for this pod.
        if not state.constraints:
            return new_status(Code.Skip)

        # Ignore parsing errors for backwards compatibility.
        required_node_affinity = get_required_node_affinity(pod)
        # upstream: parallelizer.Until over all nodes, adding atomically.
        for node_info in all_nodes:
            node = node_info.node()
            if not self.enable_node_inclusion_policy_in_pod_topology_spread:
                # The node must satisfy the pod's nodeSelector / node affinity.
                matched, _ = required_node_affinity.match(node)
                if not matched:
                    continue
            # Every topology key must be on the node.
            if require_all_topologies and not node_labels_match_spread_constraints(node.metadata.labels,
                                                                                   state.constraints):
                continue
            for c in state.constraints:
                if (self.enable_node_inclusion_policy_in_pod_topology_spread
                        and not c.match_node_inclusion_policies(pod, node, required_node_affinity)):
                    continue
                pair = TopologyPair(c.topology_key, node.metadata.labels.get(c.topology_key, ""))
                # Only domains of candidate nodes are counted; hostname counts happen in Score.
                if pair not in state.topology_pair_to_pod_counts:
                    continue
                count = count_pods_match_selector(node_info.pods, c.selector, pod.metadata.namespace)
                state.topology_pair_to_pod_counts[pair] += count

        cycle_state.write(PRE_SCORE_STATE_KEY, state)
        return None

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/scoring.go", "(*PodTopologySpread).Score", 191, 224)
    def score(self, cycle_state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """The weighted matching-pod count of the node's domains, normalized later."""
        try:
            node_info = self.shared_lister.node_infos().get(node_name)
        except KeyError as err:
            return 0, Status.as_status(f'getting node "{node_name}" from Snapshot: {err}')
        node = node_info.node()
        try:
            s = get_pre_score_state(cycle_state)
        except StateError as err:
            return 0, Status.as_status(err)

        # A node missing a topology key is not qualified.
        if node.metadata.name in s.ignored_nodes:
            return 0, None

        score = 0.0
        for i, c in enumerate(s.constraints):
            tp_val = node.metadata.labels.get(c.topology_key)
            if tp_val is None:
                continue
            if c.topology_key == LABEL_HOSTNAME:
                cnt = count_pods_match_selector(node_info.pods, c.selector, pod.metadata.namespace)
            else:
                cnt = s.topology_pair_to_pod_counts[TopologyPair(c.topology_key, tp_val)]
            score += score_for_count(cnt, c.max_skew, s.topology_normalizing_weight[i])
        return go_round(score), None

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/scoring.go", "(*PodTopologySpread).ScoreExtensions", 269, 271)
    def score_extensions(self) -> "ScoringMixin":
        return self

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/scoring.go", "(*PodTopologySpread).NormalizeScore", 227, 266)
    def normalize_score(self, cycle_state: CycleState, pod: Pod, scores: list[NodeScore]) -> Optional[Status]:
        try:
            s = get_pre_score_state(cycle_state)
        except StateError as err:
            return Status.as_status(err)

        min_score = MAX_INT64
        max_score = 0
        for ns in scores:
            # Ignored nodes must be checked here: their raw score is 0 like a real one.
            if ns.name in s.ignored_nodes:
                ns.score = INVALID_SCORE
                continue
            min_score = min(min_score, ns.score)
            max_score = max(max_score, ns.score)

        for ns in scores:
            if ns.score == INVALID_SCORE:
                ns.score = 0
                continue
            if max_score == 0:
                ns.score = MAX_NODE_SCORE
                continue
            ns.score = MAX_NODE_SCORE * (max_score + min_score - ns.score) // max_score
        return None
