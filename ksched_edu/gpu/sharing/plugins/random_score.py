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

from ....api.types import Pod
from ....framework.cycle_state import CycleState, StateNotFoundError
from ....framework.interface import MAX_NODE_SCORE, MIN_NODE_SCORE, Status
from ....framework.types import NodeInfo
from .plugin_utils import SharingContext

NAME = "RandomScore"
PRE_SCORE_STATE_KEY = "PreScore-RandomScorePlugin"


@dataclass
class PreScoreState:
    node_name: str

    def clone(self) -> "PreScoreState":
        return self  # upstream: not copied


class RandomScorePlugin:
    def __init__(self, handle: Any, ctx: SharingContext) -> None:
        self.handle = handle
        self.ctx = ctx

    def name(self) -> str:
        return NAME

    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Optional[Status]:
        idx = self.ctx.rng.randrange(len(nodes))
        state.write(PRE_SCORE_STATE_KEY, PreScoreState(nodes[idx].name))
        return None

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        try:
            s = state.read(PRE_SCORE_STATE_KEY)
        except StateNotFoundError as err:
            return 0, Status.as_status(f'reading "{PRE_SCORE_STATE_KEY}" from cycleState: {err}')
        if not isinstance(s, PreScoreState):
            return 0, Status.as_status("cannot convert saved state to tainttoleration.preScoreState")
        return (MAX_NODE_SCORE if node_name == s.node_name else MIN_NODE_SCORE), None

    def score_extensions(self) -> None:
        return None


def new(args: Any, handle: Any, ctx: SharingContext) -> RandomScorePlugin:
    return RandomScorePlugin(handle, ctx)
