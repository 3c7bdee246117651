"""Port of pkg/simulator/plugin/fgd_score.go (kubernetes-scheduler-simulator).

Fragmentation Gradient Descent (Weng et al., ATC '23): place the pod where
the cluster's fragmentation grows least. For each node, and for a
GPU-sharing pod each GPU it could go on, FGD measures the node's
fragmentation (``frag.node_gpu_share_frag_amount_score``) before and after
the placement; the score is ``sigmoid((before - after) / 1000) * 100``, so a
placement that removes fragmentation scores above 50 and one that adds it
below. The GPU with the best score is also the GPU Open-Gpu-Share reserves
(``gpuSelMethod: FGDScore``).

Extension points: Score.

Deviations:
- Scores are memoised by (node state, pod request): a node's score only
  depends on what it has left (``NodeResource.flatten``), and the experiment
  asks the same question of many identical nodes.
"""
from __future__ import annotations

from typing import Any, Optional

from ....api.types import Pod
from ....framework.cycle_state import CycleState
from ....framework.interface import MAX_NODE_SCORE, MIN_NODE_SCORE, Code, Status, new_status
from ..args import GpuPluginArgs
from ..frag import node_gpu_share_frag_amount_score
from ..gpushare_utils import MILLI
from ..resource import NodeResource, NodeResourceFlat, PodResource, TargetPodList, allocate_exclusive_gpu_id
from ..utils import get_node_resource_via_handle_and_name, is_node_accessible_to_pod
from .plugin_utils import SharingContext, sigmoid

NAME = "FGDScore"

# Memo entries kept before the memo is emptied (a bound on memory; entries are cheap to recompute).
MAX_MEMO_ENTRIES = 200_000


class FGDScorePlugin:
    def __init__(self, handle: Any, ctx: SharingContext) -> None:
        self.handle = handle
        self.ctx = ctx
        self.memo: dict[tuple[NodeResourceFlat, int, PodResource], int] = ctx.score_memo(NAME)

    def name(self) -> str:
        return NAME

    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        if not pod.spec.containers or not any(c.resources.requests for c in pod.spec.containers):
            return MAX_NODE_SCORE, None  # upstream: a pod that requests nothing
        node_res = get_node_resource_via_handle_and_name(self.handle, node_name, self.ctx.node_resources)
        if node_res is None:
            return MIN_NODE_SCORE, new_status(Code.Error, f"failed to get nodeRes({node_name})\n")
        pod_res = self.ctx.pod_resources.get(pod)
        if not is_node_accessible_to_pod(node_res, pod_res):
            return MIN_NODE_SCORE, new_status(
                Code.Error, f"Node ({node_name}) {node_res.repr()} does not match GPU type request of pod "
                            f"{pod_res.repr()}\n")
        key = (node_res.flatten("fgd"), node_res.gpu_number, pod_res)
        score = self.memo.get(key)
        if score is None:
            score, _ = calculate_gpu_share_frag_extend_score(node_res, pod_res, self.ctx.typical_pods,
                                                             self.ctx.frag_memo)
            if len(self.memo) >= MAX_MEMO_ENTRIES:
                self.memo.clear()
            self.memo[key] = score
        return score, None

    def score_extensions(self) -> None:
        return None


def calculate_gpu_share_frag_extend_score(node_res: NodeResource, pod_res: PodResource,
                                          typical_pods: TargetPodList,
                                          memo: Optional[dict] = None) -> tuple[int, str]:
    """(FGD score, GPU ids): how much placing the pod here lowers the node's fragmentation."""
    before = node_gpu_share_frag_amount_score(node_res, typical_pods, memo)
    if pod_res.gpu_number == 1 and pod_res.milli_gpu < MILLI:  # a share of one GPU: try each GPU
        score, gpu_id = 0, ""
        for i, left in enumerate(node_res.milli_gpu_left_list):
            if left >= pod_res.milli_gpu:
                after_res = node_res.copy()
                after_res.milli_cpu_left -= pod_res.milli_cpu
                after_res.milli_gpu_left_list[i] -= pod_res.milli_gpu
                after = node_gpu_share_frag_amount_score(after_res, typical_pods, memo)
                frag_score = int(sigmoid((before - after) / 1000) * float(MAX_NODE_SCORE))
                if gpu_id == "" or frag_score > score:
                    score, gpu_id = frag_score, str(i)
        return score, gpu_id
    after_res, _ = node_res.sub(pod_res)  # whole GPUs (or none): tightest fit, as the measure imagines it
    after = node_gpu_share_frag_amount_score(after_res, typical_pods, memo)
    gpu_id = allocate_exclusive_gpu_id(node_res, pod_res)
    return int(sigmoid((before - after) / 1000) * float(MAX_NODE_SCORE)), gpu_id


def allocate_gpu_id_based_on_fgd_score(node_res: NodeResource, pod_res: PodResource, _cfg: GpuPluginArgs,
                                       typical_pods: TargetPodList, memo: Optional[dict] = None) -> str:
    return calculate_gpu_share_frag_extend_score(node_res, pod_res, typical_pods, memo)[1]


def new(args: Any, handle: Any, ctx: SharingContext) -> FGDScorePlugin:
    plugin = FGDScorePlugin(handle, ctx)
    ctx.allocate_gpu_id_func[NAME] = lambda n, p, cfg, tp: allocate_gpu_id_based_on_fgd_score(n, p, cfg, tp,
                                                                                            ctx.frag_memo)
    return plugin
