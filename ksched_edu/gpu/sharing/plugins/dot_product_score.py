"""Port of pkg/simulator/plugin/dot_product_score.go (kubernetes-scheduler-simulator).

The DotProduct baseline, Tetris's packing heuristic (Grandl et al., SIGCOMM
'14): the node whose free resources align least with the pod's request
scores highest, ``(1 - <free, request> / dims) * 100`` over normalised
[CPU, GPU] vectors, best of the node's virtual nodes (see
``args.GPU_DIM_EXT_METHODS``). With ``gpuSelMethod: DotProductScore`` it also
picks the GPU inside the node.

Extension points: Score.
"""
from __future__ import annotations

import math
from typing import Any, Optional

from ....anchors import FGD_SIMULATOR, ports
from ....api.types import Pod
from ....framework.cycle_state import CycleState
from ....framework.interface import MAX_NODE_SCORE, MIN_NODE_SCORE, Code, Status, new_status
from ..args import NORM_BY_MAX, NORM_BY_NODE, NORM_BY_POD, GpuPluginArgs, decode_args
from ..resource import NodeResource, PodResource, TargetPodList
from ..utils import calculate_vector_dot_product, generate_scheduling_match_groups, \
    get_node_resource_via_handle_and_name
from .plugin_utils import SharingContext

NAME = "DotProductScore"


@ports("pkg/simulator/plugin/dot_product_score.go", "DotProductScorePlugin", 20, 23, repo=FGD_SIMULATOR)
class DotProductScorePlugin:
    def __init__(self, args: GpuPluginArgs, handle: Any, ctx: SharingContext) -> None:
        self.cfg = args
        self.handle = handle
        self.ctx = ctx

    @ports("pkg/simulator/plugin/dot_product_score.go", "(*DotProductScorePlugin).Name", 41, 43, repo=FGD_SIMULATOR)
    def name(self) -> str:
        return NAME

    @ports("pkg/simulator/plugin/dot_product_score.go", "(*DotProductScorePlugin).Score", 45, 58, repo=FGD_SIMULATOR)
    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        node_res = get_node_resource_via_handle_and_name(self.handle, node_name, self.ctx.node_resources)
        if node_res is None:
            return MIN_NODE_SCORE, new_status(Code.Error, f"failed to get nodeRes({node_name})\n")
        pod_res = self.ctx.pod_resources.get(pod)
        score, _ = calculate_dot_product_score(node_res, pod_res, self.cfg)
        return score, None

    @ports("pkg/simulator/plugin/dot_product_score.go", "(*DotProductScorePlugin).ScoreExtensions", 60, 62,
           repo=FGD_SIMULATOR)
    def score_extensions(self) -> None:
        return None


@ports("pkg/simulator/plugin/dot_product_score.go", "calculateDotProductScore", 64, 100, repo=FGD_SIMULATOR)
def calculate_dot_product_score(node_res: NodeResource, pod_res: PodResource,
                                cfg: GpuPluginArgs) -> tuple[int, str]:
    """(score, GPU ids of the best virtual node); (0, "") when no virtual node fits."""
    score, gpu_id = -1.0, ""
    for group in generate_scheduling_match_groups(node_res, pod_res, cfg.dim_ext_method, cfg.norm_method):
        cur = calculate_vector_dot_product(group.node_resource_vec, group.pod_resource_vec)
        if cur == -1:
            continue
        dims = float(len(group.pod_resource_vec))
        if cfg.norm_method in (NORM_BY_NODE, NORM_BY_MAX):
            cur /= dims  # in [0, 1]
        elif cfg.norm_method == NORM_BY_POD:
            # tanh(0.1) = 9.6% for room for one such pod, tanh(2.0) = 96.4% for room for twenty
            cur = math.tanh(cur / dims / 10)
        else:
            # upstream: panic
            raise ValueError(f"undefined normalization for dot product: {cfg.norm_method}")
        cur = 1 - cur  # the larger the dot product, the lower the score
        if score < cur:
            score, gpu_id = cur, group.gpu_id
    if score == -1:
        return MIN_NODE_SCORE, ""
    return int(float(MAX_NODE_SCORE) * score), gpu_id


@ports("pkg/simulator/plugin/dot_product_score.go", "allocateGpuIdBasedOnDotProduct", 102, 107, repo=FGD_SIMULATOR)
def allocate_gpu_id_based_on_dot_product(node_res: NodeResource, pod_res: PodResource, cfg: GpuPluginArgs,
                                         _typical_pods: TargetPodList) -> str:
    return calculate_dot_product_score(node_res, pod_res, cfg)[1]


@ports("pkg/simulator/plugin/dot_product_score.go", "NewDotProductScorePlugin", 27, 39, repo=FGD_SIMULATOR)
def new(args: Any, handle: Any, ctx: SharingContext) -> DotProductScorePlugin:
    plugin = DotProductScorePlugin(decode_args(args, GpuPluginArgs), handle, ctx)
    ctx.allocate_gpu_id_func[NAME] = allocate_gpu_id_based_on_dot_product
    return plugin
