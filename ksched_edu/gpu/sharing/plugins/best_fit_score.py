"""Port of pkg/simulator/plugin/best_fit_score.go (kubernetes-scheduler-simulator).

The BestFit baseline: the node with the least left over after placing the
pod wins. Left over is ``sum_i w_i (free_i - request_i) / maxSpec_i`` over
CPU and GPU (weights 0.5 each, maxSpec the largest node's CPU and GPU),
turned into ``(1 - leftover) * 100`` and then stretched over 0..100 by
NormalizeScore.

Extension points: Score (with NormalizeScore).
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import FGD_SIMULATOR, ports
from ....api.types import Pod
from ....framework.cycle_state import CycleState
from ....framework.interface import MAX_NODE_SCORE, MIN_NODE_SCORE, Code, NodeScore, Status, new_status
from ..gpushare_utils import MAX_SPEC_CPU, MAX_SPEC_GPU
from ..resource import NodeResource, PodResource
from ..utils import get_node_resource_via_handle_and_name, is_node_accessible_to_pod
from .plugin_utils import SharingContext, normalize_score

NAME = "BestFitScore"

WEIGHTS = (0.5, 0.5)  # CPU, GPU


@ports("pkg/simulator/plugin/best_fit_score.go", "BestFitScorePlugin", 17, 19, repo=FGD_SIMULATOR)
class BestFitScorePlugin:
    def __init__(self, handle: Any, ctx: SharingContext) -> None:
        self.handle = handle
        self.ctx = ctx

    @ports("pkg/simulator/plugin/best_fit_score.go", "(*BestFitScorePlugin).Name", 29, 31, repo=FGD_SIMULATOR)
    def name(self) -> str:
        return NAME

    @ports("pkg/simulator/plugin/best_fit_score.go", "(*BestFitScorePlugin).Score", 33, 53, repo=FGD_SIMULATOR)
    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        node_res = get_node_resource_via_handle_and_name(self.handle, node_name, self.ctx.node_resources)
        if node_res is None:
            return MIN_NODE_SCORE, new_status(Code.Error, f"failed to get nodeRes({node_name})\n")
        pod_res = self.ctx.pod_resources.get(pod)
        if not is_node_accessible_to_pod(node_res, pod_res):
            return MIN_NODE_SCORE, new_status(
                Code.Error, f"Node ({node_name}) {node_res.repr()} does not match GPU type request of pod "
                            f"{pod_res.repr()}\n")
        score = get_best_fit_score(node_res, pod_res)
        if score == -1:
            return MIN_NODE_SCORE, new_status(
                Code.Error, f"the score between node({node_name}) and pod({pod.key}) is negative, "
                            "should not happen\n")
        return score, None

    @ports("pkg/simulator/plugin/best_fit_score.go", "(*BestFitScorePlugin).ScoreExtensions", 55, 57,
           repo=FGD_SIMULATOR)
    def score_extensions(self) -> "BestFitScorePlugin":
        return self

    @ports("pkg/simulator/plugin/best_fit_score.go", "(*BestFitScorePlugin).NormalizeScore", 59, 61, repo=FGD_SIMULATOR)
    def normalize_score(self, state: CycleState, pod: Pod, scores: list[NodeScore]) -> Optional[Status]:
        return normalize_score(scores)


@ports("pkg/simulator/plugin/best_fit_score.go", "getBestFitScore", 66, 97, repo=FGD_SIMULATOR)
def get_best_fit_score(node_res: NodeResource, pod_res: PodResource) -> int:
    """``(1 - weighted leftover) * 100`` (higher is a tighter fit); -1 when the pod does not fit."""
    free = node_res.to_resource_vec()
    req = pod_res.to_resource_vec()
    max_spec = (float(MAX_SPEC_CPU), float(MAX_SPEC_GPU))
    score = 0.0
    for i in range(len(free)):
        if free[i] < req[i]:
            return -1
        score += (free[i] - req[i]) / max_spec[i] * WEIGHTS[i]  # in [0, 1], lower is better
    return int((1.0 - score) * float(MAX_NODE_SCORE))


@ports("pkg/simulator/plugin/best_fit_score.go", "NewBestFitScorePlugin", 23, 27, repo=FGD_SIMULATOR)
def new(args: Any, handle: Any, ctx: SharingContext) -> BestFitScorePlugin:
    return BestFitScorePlugin(handle, ctx)
