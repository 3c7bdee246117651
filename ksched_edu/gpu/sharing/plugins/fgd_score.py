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

from dataclasses import dataclass
from typing import Any, Optional

from ....anchors import FGD_SIMULATOR, plumbing, ports
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


@ports("pkg/simulator/plugin/fgd_score.go", "FGDScorePlugin", 18, 21, repo=FGD_SIMULATOR)
class FGDScorePlugin:
    def __init__(self, handle: Any, ctx: SharingContext) -> None:
        self.handle = handle
        self.ctx = ctx
        self.memo: dict[tuple[NodeResourceFlat, int, PodResource], int] = ctx.score_memo(NAME)
        self._flat: dict[str, tuple[NodeResource, NodeResourceFlat]] = {}  # node -> its last state and key

    @ports("pkg/simulator/plugin/fgd_score.go", "(*FGDScorePlugin).Name", 34, 36, repo=FGD_SIMULATOR)
    def name(self) -> str:
        return NAME

    @ports("pkg/simulator/plugin/fgd_score.go", "(*FGDScorePlugin).Score", 38, 56, repo=FGD_SIMULATOR)
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
        flat = self._flat.get(node_name)
        if flat is None or flat[0] is not node_res:
            flat = self._flat[node_name] = (node_res, node_res.flatten("fgd"))
        key = (flat[1], node_res.gpu_number, pod_res)
        score = self.memo.get(key)
        if score is None:
            score, _ = calculate_gpu_share_frag_extend_score(node_res, pod_res, self.ctx.typical_pods,
                                                             self.ctx.frag_memo)
            if len(self.memo) >= MAX_MEMO_ENTRIES:
                self.memo.clear()
            self.memo[key] = score
        return score, None

    @ports("pkg/simulator/plugin/fgd_score.go", "(*FGDScorePlugin).ScoreExtensions", 58, 60, repo=FGD_SIMULATOR)
    def score_extensions(self) -> None:
        return None


@dataclass(frozen=True)
@plumbing("one placement that calculateGpuShareFragExtendScore weighs, kept as a record")
class Placement:
    """One way FGD imagines the pod on the node: on which GPU(s), the fragmentation after, the score."""

    gpu_id: str
    before: float  # the node's fragmentation amount now (milli GPU)
    after: float  # ... once the pod is there
    score: int  # sigmoid((before - after) / 1000) * 100


@ports("pkg/simulator/plugin/fgd_score.go", "calculateGpuShareFragExtendScore", 62, 85, repo=FGD_SIMULATOR)
def gpu_share_frag_placements(node_res: NodeResource, pod_res: PodResource, typical_pods: TargetPodList,
                              memo: Optional[dict] = None) -> list[Placement]:
    """Every placement FGD weighs: each GPU with room for a shared request, else the pod's whole GPUs."""
    before = node_gpu_share_frag_amount_score(node_res, typical_pods, memo)

    def placement(gpu_id: str, after_res: NodeResource) -> Placement:
        after = node_gpu_share_frag_amount_score(after_res, typical_pods, memo)
        return Placement(gpu_id, before, after, int(sigmoid((before - after) / 1000) * float(MAX_NODE_SCORE)))

    if pod_res.gpu_number == 1 and pod_res.milli_gpu < MILLI:  # a share of one GPU: try each GPU
        out = []
        for i, left in enumerate(node_res.milli_gpu_left_list):
            if left >= pod_res.milli_gpu:
                after_res = node_res.copy()
                after_res.milli_cpu_left -= pod_res.milli_cpu
                after_res.milli_gpu_left_list[i] -= pod_res.milli_gpu
                out.append(placement(str(i), after_res))
        return out
    after_res, _ = node_res.sub(pod_res)  # whole GPUs (or none): tightest fit, as the measure imagines it
    return [placement(allocate_exclusive_gpu_id(node_res, pod_res), after_res)]


@ports("pkg/simulator/plugin/fgd_score.go", "calculateGpuShareFragExtendScore", 62, 85, repo=FGD_SIMULATOR)
def calculate_gpu_share_frag_extend_score(node_res: NodeResource, pod_res: PodResource,
                                          typical_pods: TargetPodList,
                                          memo: Optional[dict] = None) -> tuple[int, str]:
    """(FGD score, GPU ids): the best placement, the first GPU among equals; (0, "") when none fits."""
    score, gpu_id = 0, ""
    for p in gpu_share_frag_placements(node_res, pod_res, typical_pods, memo):
        if gpu_id == "" or p.score > score:
            score, gpu_id = p.score, p.gpu_id
    return score, gpu_id


@ports("pkg/simulator/plugin/fgd_score.go", "allocateGpuIdBasedOnFGDScore", 87, 90, repo=FGD_SIMULATOR)
def allocate_gpu_id_based_on_fgd_score(node_res: NodeResource, pod_res: PodResource, _cfg: GpuPluginArgs,
                                       typical_pods: TargetPodList, memo: Optional[dict] = None) -> str:
    return calculate_gpu_share_frag_extend_score(node_res, pod_res, typical_pods, memo)[1]


@ports("pkg/simulator/plugin/fgd_score.go", "NewFGDScorePlugin", 25, 32, repo=FGD_SIMULATOR)
def new(args: Any, handle: Any, ctx: SharingContext) -> FGDScorePlugin:
    plugin = FGDScorePlugin(handle, ctx)
    ctx.allocate_gpu_id_func[NAME] = lambda n, p, cfg, tp: allocate_gpu_id_based_on_fgd_score(n, p, cfg, tp,
                                                                                            ctx.frag_memo)
    return plugin
