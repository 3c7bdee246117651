"""Port of pkg/simulator/plugin/random_score.go (kubernetes-scheduler-simulator).

The Random baseline: PreScore draws one of the feasible nodes at random and
Score gives it MAX_NODE_SCORE and every other node MIN_NODE_SCORE, so the
pod lands on a uniformly random node that fits. Inside the node, the
experiment pairs it with random GPU selection (``gpuSelMethod: random``).

Extension points: PreScore, Score.

Deviations:
- The draw uses the seeded random source of the plugins' context.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ....anchors import FGD_SIMULATOR, ports
from ....api.types import Pod
from ....framework.cycle_state import CycleState, StateNotFoundError
from ....framework.interface import MAX_NODE_SCORE, MIN_NODE_SCORE, Status
from ....framework.types import NodeInfo
from .plugin_utils import SharingContext

NAME = "RandomScore"
PRE_SCORE_STATE_KEY = "PreScore-RandomScorePlugin"


@dataclass
@ports("pkg/simulator/plugin/random_score.go", "preScoreState", 23, 25, repo=FGD_SIMULATOR)
class PreScoreState:
    node_name: str

    @ports("pkg/simulator/plugin/random_score.go", "(*preScoreState).Clone", 28, 30, repo=FGD_SIMULATOR)
    def clone(self) -> "PreScoreState":
        return self  # upstream: not copied


@ports("pkg/simulator/plugin/random_score.go", "RandomScorePlugin", 14, 16, repo=FGD_SIMULATOR)
class RandomScorePlugin:
    def __init__(self, handle: Any, ctx: SharingContext) -> None:
        self.handle = handle
        self.ctx = ctx

    @ports("pkg/simulator/plugin/random_score.go", "(*RandomScorePlugin).Name", 38, 40, repo=FGD_SIMULATOR)
    def name(self) -> str:
        return NAME

    @ports("pkg/simulator/plugin/random_score.go", "(*RandomScorePlugin).PreScore", 42, 51, repo=FGD_SIMULATOR)
    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Optional[Status]:
        idx = self.ctx.rng.randrange(len(nodes))
        state.write(PRE_SCORE_STATE_KEY, PreScoreState(nodes[idx].name))
        return None

    @ports("pkg/simulator/plugin/random_score.go", "(*RandomScorePlugin).Score", 53, 68, repo=FGD_SIMULATOR)
    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        try:
            s = state.read(PRE_SCORE_STATE_KEY)
        except StateNotFoundError as err:
            return 0, Status.as_status(f'reading "{PRE_SCORE_STATE_KEY}" from cycleState: {err}')
        if not isinstance(s, PreScoreState):
            return 0, Status.as_status("cannot convert saved state to tainttoleration.preScoreState")
        return (MAX_NODE_SCORE if node_name == s.node_name else MIN_NODE_SCORE), None

    @ports("pkg/simulator/plugin/random_score.go", "(*RandomScorePlugin).ScoreExtensions", 70, 72, repo=FGD_SIMULATOR)
    def score_extensions(self) -> None:
        return None


@ports("pkg/simulator/plugin/random_score.go", "NewRandomScorePlugin", 32, 36, repo=FGD_SIMULATOR)
def new(args: Any, handle: Any, ctx: SharingContext) -> RandomScorePlugin:
    return RandomScorePlugin(handle, ctx)
