"""Port of pkg/simulator/plugin/gpu_clustering_score.go (kubernetes-scheduler-simulator).

The GPU Clustering baseline: keep pods of one kind together. A pod's GPU
affinity is its kind of request (share-gpu, 1-gpu, 2-gpu, ...). A node that
already holds only pods of the pod's kind scores in (75, 100]; one that holds
that kind among others in (50, 75]; an idle node in (25, 50]; a node holding
only other kinds in (0, 25]. Within a band, the less GPU left the higher.
A pod asking for no GPU scores MIN_NODE_SCORE everywhere.

Extension points: Score.
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import FGD_SIMULATOR, ports
from ....api.types import Pod
from ....framework.cycle_state import CycleState
from ....framework.interface import MAX_NODE_SCORE, MIN_NODE_SCORE, Code, Status, new_status
from ..gpushare_utils import MAX_SPEC_GPU, NO_GPU_TAG, gpu_affinity
from ..resource import NodeResource
from ..utils import get_node_resource_via_handle_and_name, is_node_accessible_to_pod
from .plugin_utils import SharingContext

NAME = "GpuClusteringScore"


@ports("pkg/simulator/plugin/gpu_clustering_score.go", "GpuClusteringScorePlugin", 16, 18, repo=FGD_SIMULATOR)
class GpuClusteringScorePlugin:
    def __init__(self, handle: Any, ctx: SharingContext) -> None:
        self.handle = handle
        self.ctx = ctx

    @ports("pkg/simulator/plugin/gpu_clustering_score.go", "(*GpuClusteringScorePlugin).Name", 28, 30,
           repo=FGD_SIMULATOR)
    def name(self) -> str:
        return NAME

    @ports("pkg/simulator/plugin/gpu_clustering_score.go", "(*GpuClusteringScorePlugin).Score", 32, 56,
           repo=FGD_SIMULATOR)
    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        node_res = get_node_resource_via_handle_and_name(self.handle, node_name, self.ctx.node_resources)
        pod_res = self.ctx.pod_resources.get(pod)
        if node_res is None or not is_node_accessible_to_pod(node_res, pod_res):
            return MIN_NODE_SCORE, new_status(Code.Error, "failed to get nodeRes or podRes")
        affinity = gpu_affinity(pod_res.gpu_number, pod_res.milli_gpu)
        if affinity == NO_GPU_TAG:  # asks for no GPU
            return MIN_NODE_SCORE, None
        return get_clustering_score(node_res, affinity), None

    @ports("pkg/simulator/plugin/gpu_clustering_score.go", "(*GpuClusteringScorePlugin).ScoreExtensions", 58, 60,
           repo=FGD_SIMULATOR)
    def score_extensions(self) -> None:
        return None


@ports("pkg/simulator/plugin/gpu_clustering_score.go", "(*GpuClusteringScorePlugin).Score", 32, 56, repo=FGD_SIMULATOR)
def get_clustering_score(node_res: NodeResource, affinity: str) -> int:
    """The band of the node for a pod of this affinity, plus up to 25 the less GPU it has left."""
    fill = MAX_NODE_SCORE // 4 * (MAX_SPEC_GPU - node_res.get_total_milli_gpu_left()) // MAX_SPEC_GPU
    if node_res.gpu_affinity.get(affinity, 0) > 0:
        if len(node_res.gpu_affinity) == 1:  # (75, 100]: only pods of the same kind
            return fill + MAX_NODE_SCORE * 3 // 4
        return fill + MAX_NODE_SCORE * 2 // 4  # (50, 75]: that kind among others
    if len(node_res.gpu_affinity) == 0:  # (25, 50]: an idle node
        return fill + MAX_NODE_SCORE // 4
    return fill  # (0, 25]: only other kinds


@ports("pkg/simulator/plugin/gpu_clustering_score.go", "NewGpuClusteringScorePlugin", 22, 26, repo=FGD_SIMULATOR)
def new(args: Any, handle: Any, ctx: SharingContext) -> GpuClusteringScorePlugin:
    return GpuClusteringScorePlugin(handle, ctx)
