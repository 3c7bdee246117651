"""Port of pkg/simulator/plugin/gpu_packing_score.go (kubernetes-scheduler-simulator).

The GPU Packing baseline: fill partly used GPUs first, then free GPUs of
partly used nodes, and touch an idle node last. From high to low:

1. the pod fits on GPUs already in use: ``100 - (their % left)/10``, at least 50;
2. it needs fully free GPUs of a node in use: ``50 - free GPUs taken``, at least 33;
3. every GPU of the node is free: ``33 - free GPUs``, bounded by ``max(., free GPUs)``.

A pod asking for no GPU scores MIN_NODE_SCORE everywhere.

Extension points: Score.
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import FGD_SIMULATOR, ports
from ....api.types import Pod
from ....framework.cycle_state import CycleState
from ....framework.interface import MAX_NODE_SCORE, MIN_NODE_SCORE, Code, Status, new_status
from ..gpushare_utils import MILLI
from ..resource import NodeResource, PodResource
from ..utils import get_node_resource_via_handle_and_name, is_node_accessible_to_pod
from .plugin_utils import SharingContext

NAME = "GpuPackingScore"


@ports("pkg/simulator/plugin/gpu_packing_score.go", "GpuPackingScorePlugin", 18, 20, repo=FGD_SIMULATOR)
class GpuPackingScorePlugin:
    def __init__(self, handle: Any, ctx: SharingContext) -> None:
        self.handle = handle
        self.ctx = ctx

    @ports("pkg/simulator/plugin/gpu_packing_score.go", "(*GpuPackingScorePlugin).Name", 31, 33, repo=FGD_SIMULATOR)
    def name(self) -> str:
        return NAME

    @ports("pkg/simulator/plugin/gpu_packing_score.go", "(*GpuPackingScorePlugin).Score", 35, 61, repo=FGD_SIMULATOR)
    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        pod_res = self.ctx.pod_resources.get(pod)
        if pod_res.milli_gpu <= 0:
            return MIN_NODE_SCORE, None
        node_res = get_node_resource_via_handle_and_name(self.handle, node_name, self.ctx.node_resources)
        if node_res is None:
            return MIN_NODE_SCORE, new_status(Code.Error, f"failed to get nodeRes({node_name})\n")
        if not is_node_accessible_to_pod(node_res, pod_res):
            return MIN_NODE_SCORE, new_status(
                Code.Error, f"Node ({node_name}) {node_res.repr()} does not match GPU type request of pod "
                            f"{pod_res.repr()}\n")
        score, err = get_packing_score(node_res, pod_res)
        if err is not None:
            return MIN_NODE_SCORE, new_status(Code.Error, f"failed to schedule pod({pod.key}) on node({node_name})")
        return score, None

    @ports("pkg/simulator/plugin/gpu_packing_score.go", "(*GpuPackingScorePlugin).ScoreExtensions", 63, 65,
           repo=FGD_SIMULATOR)
    def score_extensions(self) -> None:
        return None


@ports("pkg/simulator/plugin/gpu_packing_score.go", "getPackingScore", 71, 117, repo=FGD_SIMULATOR)
def get_packing_score(node_res: NodeResource, pod_res: PodResource) -> tuple[int, Optional[str]]:
    """The packing score of the pod on the node (and an error when its GPUs do not fit)."""
    fully_free = node_res.get_fully_free_gpu_num()
    if fully_free == node_res.gpu_number:  # case 3: every GPU of the node is free
        # upstream: bounded below by the number of free GPUs (not by a constant)
        return max(MAX_NODE_SCORE // 3 - fully_free, fully_free), None
    left = node_res.milli_gpu_left_list
    need = pod_res.gpu_number
    fully_free_to_use = 0
    to_use: list[int] = []
    for idx in node_res.sorted_milli_gpu_left_index_list(True):  # least GPU left first
        if need == 0:
            break
        if pod_res.milli_gpu <= left[idx]:
            need -= 1
            to_use.append(idx)
            if left[idx] == MILLI:
                fully_free_to_use += 1
    if need != 0:
        return MIN_NODE_SCORE, (f"failed to allocate gpu resource to pod({pod_res.repr()}) on "
                                f"node({node_res.repr()})\n")
    if fully_free_to_use > 0:  # case 2: it needs fully free GPUs
        return max(MAX_NODE_SCORE // 2 - fully_free_to_use, MAX_NODE_SCORE // 3), None
    free_ratio_on_used = sum(left[i] * 100 // MILLI for i in to_use)  # case 1: GPUs already in use
    return max(MAX_NODE_SCORE - free_ratio_on_used // 10, MAX_NODE_SCORE // 2), None


@ports("pkg/simulator/plugin/gpu_packing_score.go", "NewGpuPackingScorePlugin", 24, 29, repo=FGD_SIMULATOR)
def new(args: Any, handle: Any, ctx: SharingContext) -> GpuPackingScorePlugin:
    return GpuPackingScorePlugin(handle, ctx)
