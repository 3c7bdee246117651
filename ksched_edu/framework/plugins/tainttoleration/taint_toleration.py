"""Port of pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go (v1.30).

TaintToleration rejects a node with a NoSchedule or NoExecute taint the pod
does not tolerate, naming the first such taint. Among the nodes left it
prefers those with fewer untolerated PreferNoSchedule taints: Score counts
them and NormalizeScore reverses the counts onto 0..100.
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import ports
from ....api.tolerations import find_matching_untolerated_taint, tolerations_tolerate_taint
from ....api.types import TAINT_PREFER_NO_SCHEDULE, Pod, Taint, Toleration
from ...cycle_state import CycleState
from ...interface import MAX_NODE_SCORE, Code, NodeScore, Status, new_status
from ...types import NODE, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo
from ..helper.normalize_score import default_normalize_score
from ..helper.taint import do_not_schedule_taints_filter_func
from ..names import TAINT_TOLERATION

NAME = TAINT_TOLERATION

# Extension points: Filter, PreScore, Score (+ NormalizeScore), EnqueueExtensions.

PRE_SCORE_STATE_KEY = "PreScore" + NAME

# The old, key-less Filter reason; the Filter now reports the taint itself:
# "node(s) had untolerated taint {<key>: <value>}".
ERR_REASON_NOT_MATCH = "node(s) had taints that the pod didn't tolerate"


@ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "preScoreState", 77, 79)
class PreScoreState:
    """The pod's tolerations that can tolerate a PreferNoSchedule taint."""

    def __init__(self, tolerations_prefer_no_schedule: list[Toleration]) -> None:
        self.tolerations_prefer_no_schedule = tolerations_prefer_no_schedule

    @ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "(*preScoreState).Clone", 83, 85)
    def clone(self) -> "PreScoreState":
        # upstream: not copied, nothing mutates it.
        return self


@ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "TaintToleration", 32, 34)
class TaintToleration:
    def __init__(self, handle: Any) -> None:
        self.handle = handle

    @ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "(*TaintToleration).Name", 51, 53)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "(*TaintToleration).EventsToRegister", 57, 61)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.Update))]

    @ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "(*TaintToleration).Filter", 64, 74)
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        node = node_info.node()
        if not node.spec.taints:  # nothing to tolerate (speed only: the search below finds nothing)
            return None
        taint = find_matching_untolerated_taint(node.spec.taints, pod.spec.tolerations,
                                                do_not_schedule_taints_filter_func())
        if taint is None:
            return None
        err_reason = f"node(s) had untolerated taint {{{taint.key}: {taint.value}}}"
        return new_status(Code.UnschedulableAndUnresolvable, err_reason)

    @ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "(*TaintToleration).PreScore", 99, 109)
    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Optional[Status]:
        """Keep the tolerations that matter for scoring (never Skips in v1.30)."""
        if len(nodes) == 0:
            return None
        state.write(PRE_SCORE_STATE_KEY,
                    PreScoreState(get_all_toleration_prefer_no_schedule(pod.spec.tolerations)))
        return None

    @ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "(*TaintToleration).Score", 140, 154)
    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        """The number of the node's PreferNoSchedule taints the pod does not tolerate."""
        try:
            node_info = self.handle.snapshot_shared_lister().node_infos().get(node_name)
        except Exception as err:  # upstream: Get returns an error
            return 0, Status.as_status(f'getting node "{node_name}" from Snapshot: {err}')
        node = node_info.node()

        s, err = get_pre_score_state(state)
        if err is not None:
            return 0, Status.as_status(err)

        return count_intolerable_taints_prefer_no_schedule(node.spec.taints, s.tolerations_prefer_no_schedule), None

    @ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "(*TaintToleration).NormalizeScore", 157, 159)
    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Optional[Status]:
        """Fewer untolerated taints is better: reverse the counts onto 0..MAX_NODE_SCORE."""
        return default_normalize_score(MAX_NODE_SCORE, True, scores)

    @ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "(*TaintToleration).ScoreExtensions", 162, 164)
    def score_extensions(self) -> "TaintToleration":
        return self


@ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "getAllTolerationPreferNoSchedule", 88, 96)
def get_all_toleration_prefer_no_schedule(tolerations: list[Toleration]) -> list[Toleration]:
    """The tolerations with effect PreferNoSchedule, or with no effect (which means every effect)."""
    return [t for t in tolerations if len(t.effect) == 0 or t.effect == TAINT_PREFER_NO_SCHEDULE]


@ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "getPreScoreState", 111, 122)
def get_pre_score_state(state: CycleState) -> tuple[Optional[PreScoreState], Optional[str]]:
    try:
        c = state.read(PRE_SCORE_STATE_KEY)
    except KeyError as err:
        return None, f'failed to read "{PRE_SCORE_STATE_KEY}" from cycleState: {err}'
    if not isinstance(c, PreScoreState):
        return None, f"{c!r} convert to tainttoleration.preScoreState error"
    return c, None


@ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "countIntolerableTaintsPreferNoSchedule", 125, 137)
def count_intolerable_taints_prefer_no_schedule(taints: list[Taint], tolerations: list[Toleration]) -> int:
    """How many PreferNoSchedule taints no toleration tolerates."""
    intolerable = 0
    for taint in taints:
        if taint.effect != TAINT_PREFER_NO_SCHEDULE:
            continue
        if not tolerations_tolerate_taint(tolerations, taint):
            intolerable += 1
    return intolerable


@ports("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", "New", 167, 169)
def new(args: Any, handle: Any) -> TaintToleration:
    return TaintToleration(handle)
