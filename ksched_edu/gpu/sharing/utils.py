"""Port of pkg/utils/utils.go (kubernetes-scheduler-simulator), the parts the GPU-sharing policies use.

How a policy reads a pod and a node: ``get_pod_resource`` turns a pod into
its :class:`PodResource`, ``get_node_resource_via_node_info`` turns a node
(its NodeInfo from the snapshot, and its GPUs from the ledger) into a
:class:`NodeResource`; ``is_node_accessible_to_pod`` applies the GPU model
constraint (``gpu_spec``); the vector helpers serve DotProduct.

Deviations:
- A node's GPU affinity counts (pods per tag) come from the ledger, which
  holds exactly the pods that use GPU, instead of a walk over the node's pods.
- :class:`NodeResourceCache` keeps each node's NodeResource until the node
  (its NodeInfo generation or its ledger entry) changes: plugins call it
  once per node per pod, and the simulator rebuilds it every time.
"""
from __future__ import annotations

from typing import Optional

from ...anchors import FGD_SIMULATOR, plumbing, ports
from ...api.resource import get_nonzero_requests
from ...api.types import Pod
from ...framework.types import NodeInfo
from .args import EXT_GPU_DIM, NORM_BY_MAX, NORM_BY_NODE, NORM_BY_POD, SEPARATE_GPU_DIM_AND_DIVIDE_OTHER_DIM, \
    SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM
from .gpushare_utils import (MAX_SPEC_CPU, MAX_SPEC_GPU, MILLI, get_gpu_count_from_pod_annotation,
                             get_gpu_milli_from_pod_annotation, get_gpu_model_from_pod_annotation)
from .ledger import GpuLedger
from .resource import NodeResource, PodResource, SchedulingMatchGroup


@ports("pkg/utils/utils.go", "IsNodeAccessibleToPod", 950, 954, repo=FGD_SIMULATOR)
def is_node_accessible_to_pod(node_res: NodeResource, pod_res: PodResource) -> bool:
    return is_node_accessible_to_pod_by_type(node_res.gpu_type, pod_res.gpu_type)


@ports("pkg/utils/utils.go", "IsNodeAccessibleToPodByType", 956, 995, repo=FGD_SIMULATOR)
def is_node_accessible_to_pod_by_type(node_gpu_type: str, pod_gpu_type: str) -> bool:
    """The GPU model constraint: a pod that names models ("A|B") fits only nodes of one of them."""
    if not pod_gpu_type:
        return True
    if not node_gpu_type:
        return False  # a CPU node
    named = 0
    for gpu_type in pod_gpu_type.split("|"):
        if not gpu_type:
            continue
        named += 1
        if gpu_type == node_gpu_type:
            return True
    return named == 0  # "|" alone names no model: any node will do


@ports("pkg/utils/utils.go", "GetPodResource", 997, 1016, repo=FGD_SIMULATOR)
def get_pod_resource(pod: Pod) -> PodResource:
    """The pod's request: non-zero milli CPU of its containers, and its GPU annotations."""
    cpu = 0
    for c in pod.spec.containers:
        cpu += get_nonzero_requests(c.resources.requests)[0]
    return PodResource(milli_cpu=cpu, milli_gpu=get_gpu_milli_from_pod_annotation(pod),
                       gpu_number=get_gpu_count_from_pod_annotation(pod),
                       gpu_type=get_gpu_model_from_pod_annotation(pod))


@plumbing("a memo of get_pod_resource for the pod being scheduled")
class PodResourceMemo:
    """``get_pod_resource`` for the pod being scheduled, computed once per pod object.

    Score and Filter ask for the same pod once per node; the pod does not change during a cycle.
    """

    def __init__(self) -> None:
        self._pod: Optional[Pod] = None
        self._res: Optional[PodResource] = None

    @plumbing("a memo of get_pod_resource for the pod being scheduled")
    def get(self, pod: Pod) -> PodResource:
        if pod is not self._pod or self._res is None:
            self._pod, self._res = pod, get_pod_resource(pod)
        return self._res


@ports("pkg/utils/utils.go", "GetNodeResourceViaNodeInfo", 1040, 1061, repo=FGD_SIMULATOR)
def get_node_resource_via_node_info(node_info: NodeInfo, ledger: GpuLedger) -> NodeResource:
    """What the node has left: CPU from the scheduler's NodeInfo, GPUs from the ledger."""
    capacity = node_info.allocatable.milli_cpu
    gpu = ledger.get_gpu_node_info(node_info.node())  # the node's GPU count, milli and model, read once
    if gpu.gpu_milli > 0:  # a GPU-sharing node
        left = gpu.milli_gpu_left_list()
        affinity = dict(gpu.affinity)
    else:
        left, affinity = [], {}
    return NodeResource(node_name=node_info.name, milli_cpu_left=capacity - node_info.requested.milli_cpu,
                        milli_cpu_capacity=capacity, milli_gpu_left_list=left, gpu_number=gpu.gpu_count,
                        gpu_type=gpu.model, gpu_affinity=affinity)


@plumbing("a cache of each node's NodeResource until its NodeInfo or ledger entry changes")
class NodeResourceCache:
    """Each node's NodeResource, rebuilt only when its NodeInfo or its ledger entry changed.

    Callers must treat what they get as read-only (copy before changing it).
    """

    def __init__(self, ledger: GpuLedger) -> None:
        self.ledger = ledger
        self._cache: dict[str, tuple[int, int, NodeResource]] = {}

    @plumbing("a cache of each node's NodeResource until its NodeInfo or ledger entry changes")
    def get(self, node_info: NodeInfo) -> NodeResource:
        gpu = self.ledger.nodes.get(node_info.name)
        hit = self._cache.get(node_info.name)
        if hit is not None and gpu is not None and hit[0] == node_info.generation and hit[1] == gpu.version:
            return hit[2]
        res = get_node_resource_via_node_info(node_info, self.ledger)
        gpu = self.ledger.nodes[node_info.name]  # made on first use
        self._cache[node_info.name] = (node_info.generation, gpu.version, res)
        return res


@ports("pkg/utils/utils.go", "GetNodeResourceViaHandleAndName", 1063, 1069, repo=FGD_SIMULATOR)
def get_node_resource_via_handle_and_name(handle: object, node_name: str, cache: NodeResourceCache
                                          ) -> Optional[NodeResource]:
    """The node's NodeResource from the snapshot the handle lends; None when the node is unknown."""
    try:
        node_info = handle.snapshot_shared_lister().node_infos().get(node_name)  # type: ignore[attr-defined]
    except KeyError:  # the lister's "nodeinfo not found"
        return None
    if node_info is None or node_info.node() is None:
        return None
    return cache.get(node_info)


# --- vectors ---------------------------------------------------------------------------------


@ports("pkg/utils/utils.go", "NormalizeVector", 1205, 1221, repo=FGD_SIMULATOR)
def normalize_vector(vec: list[float], norm_vec: list[float]) -> list[float]:
    """``vec`` divided element-wise by ``norm_vec`` (0 where the norm is not positive)."""
    out = list(vec)
    if not norm_vec or not vec or len(norm_vec) != len(vec):
        return out  # upstream: logs the mismatch and returns the vector as it was
    return [v / n if n > 0 else 0.0 for v, n in zip(out, norm_vec)]


@ports("pkg/utils/utils.go", "CalculateVectorDotProduct", 1223, 1233, repo=FGD_SIMULATOR)
def calculate_vector_dot_product(vec1: list[float], vec2: list[float]) -> float:
    """The inner product, or -1 for empty vectors or vectors of different sizes."""
    if not vec1 or not vec2 or len(vec1) != len(vec2):
        return -1.0
    return sum(a * b for a, b in zip(vec1, vec2))


@ports("pkg/utils/utils.go", "GenerateSchedulingMatchGroups", 1259, 1327, repo=FGD_SIMULATOR)
def generate_scheduling_match_groups(node_res: NodeResource, pod_res: PodResource, gpu_dim_ext_method: str,
                                     norm_method: str) -> list[SchedulingMatchGroup]:
    """Every (virtual node, virtual pod) pairing, normalised as ``norm_method`` says."""
    groups: list[SchedulingMatchGroup] = []
    vnodes = node_res.to_virtual_node_resource_list(gpu_dim_ext_method, pod_res)
    vpods = pod_res.to_virtual_pod_resource_list(gpu_dim_ext_method, node_res)
    for vn in vnodes:
        for vp in vpods:
            group = SchedulingMatchGroup(list(vn.resource_vec), list(vp.resource_vec))
            if gpu_dim_ext_method in (SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM, SEPARATE_GPU_DIM_AND_DIVIDE_OTHER_DIM):
                group.gpu_id = vn.gpu_id
            elif gpu_dim_ext_method == EXT_GPU_DIM:
                group.gpu_id = vp.gpu_id
            extra = len(node_res.to_formalized_gpu_resource_list()) if gpu_dim_ext_method == EXT_GPU_DIM else 0
            norm: Optional[list[float]] = None
            if norm_method == NORM_BY_NODE:
                if gpu_dim_ext_method == EXT_GPU_DIM:
                    norm = [float(node_res.milli_cpu_capacity)] + [float(node_res.gpu_number * MILLI)] * extra
                else:
                    norm = [float(node_res.milli_cpu_capacity), float(node_res.gpu_number * MILLI)]
            elif norm_method == NORM_BY_POD:
                if gpu_dim_ext_method == EXT_GPU_DIM:
                    norm = [float(pod_res.milli_cpu)] + [float(pod_res.milli_gpu * pod_res.gpu_number)] * extra
                else:
                    norm = [float(pod_res.milli_cpu), float(pod_res.total_milli_gpu())]
            elif norm_method == NORM_BY_MAX:
                if gpu_dim_ext_method == EXT_GPU_DIM:
                    norm = [float(MAX_SPEC_CPU)] + [float(MAX_SPEC_GPU)] * extra
                else:
                    norm = [float(MAX_SPEC_CPU), float(MAX_SPEC_GPU)]
            if norm is not None:
                group.node_resource_vec = normalize_vector(group.node_resource_vec, norm)
                group.pod_resource_vec = normalize_vector(group.pod_resource_vec, norm)
            groups.append(group)
    return groups
