"""Port of pkg/type/resource.go (kubernetes-scheduler-simulator).

The two small records every GPU-sharing policy reasons about: a pod's
request (:class:`PodResource`: milli CPU, GPUs wanted, milli GPU of each, GPU
models accepted) and what a node has left (:class:`NodeResource`: milli CPU
left, milli GPU left on each of its GPUs, in device order). ``sub`` places a
pod on a node the way the fragmentation measure imagines it (tightest GPUs
first); ``flatten`` is the order-free key under which node states are memoised.

Deviations:
- ``sub`` and ``add`` return ``(node, error)`` with the error a string (or None).
- ``NodeResourceFlat`` keeps the GPUs left as a tuple, not a comma-joined string.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Optional

from ...anchors import FGD_SIMULATOR, ports
from .args import (EXT_GPU_DIM, MERGE_GPU_DIM, SEPARATE_GPU_DIM_AND_DIVIDE_OTHER_DIM,
                   SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM)
from .gpushare_utils import DEV_ID_SEP, MILLI

DEFAULT_TYPICAL_POD_POPULARITY_THRESHOLD = 60  # percent
DEFAULT_TYPICAL_POD_INCREASE_STEP = 10
MAX_NUM_GPU_PER_NODE = 8


@dataclass(frozen=True)
@ports("pkg/type/resource.go", "PodResource", 50, 56, repo=FGD_SIMULATOR)
class PodResource:
    """A pod's request, without its name: the unit typical pods are counted in."""

    milli_cpu: int
    milli_gpu: int = 0  # per GPU, 0..1000
    gpu_number: int = 0
    gpu_type: str = ""  # accepted models, "|"-separated; "" means any

    @ports("pkg/type/resource.go", "(PodResource).Less", 31, 41, repo=FGD_SIMULATOR)
    def less(self, other: "PodResource") -> bool:
        """Order by CPU, then milli GPU, then GPU count, then models (to break frequency ties)."""
        if self.milli_cpu != other.milli_cpu:
            return self.milli_cpu < other.milli_cpu
        if self.milli_gpu != other.milli_gpu:
            return self.milli_gpu < other.milli_gpu
        if self.gpu_number != other.gpu_number:
            return self.gpu_number < other.gpu_number
        return self.gpu_type < other.gpu_type

    @ports("pkg/type/resource.go", "(PodResource).Repr", 100, 108, repo=FGD_SIMULATOR)
    def repr(self) -> str:
        return (f"<CPU: {self.milli_cpu / 1000:6.2f}, GPU: {self.gpu_number} x {{{self.milli_gpu:<4d}}}m"
                f" ({self.gpu_type})>")

    @ports("pkg/type/resource.go", "(PodResource).TotalMilliGpu", 110, 112, repo=FGD_SIMULATOR)
    def total_milli_gpu(self) -> int:
        return self.milli_gpu * self.gpu_number

    @ports("pkg/type/resource.go", "(PodResource).IsGpuShare", 371, 376, repo=FGD_SIMULATOR)
    def is_gpu_share(self) -> bool:
        """A GPU-sharing pod: one GPU, and less than all of it."""
        return self.gpu_number == 1 and self.milli_gpu < MILLI

    @ports("pkg/type/resource.go", "(PodResource).ToResourceVec", 379, 387, repo=FGD_SIMULATOR)
    def to_resource_vec(self) -> list[float]:
        """[milli CPU asked, milli GPU asked in total]."""
        return [float(self.milli_cpu), float(self.milli_gpu * self.gpu_number)]

    @ports("pkg/type/resource.go", "(PodResource).ToVirtualPodResourceList", 211, 259, repo=FGD_SIMULATOR)
    def to_virtual_pod_resource_list(self, method: str, node_res: "NodeResource") -> list["VirtualPodResource"]:
        req = self.milli_gpu * self.gpu_number
        if method in (MERGE_GPU_DIM, SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM, SEPARATE_GPU_DIM_AND_DIVIDE_OTHER_DIM):
            return [VirtualPodResource([float(self.milli_cpu), float(req)])]
        if method == EXT_GPU_DIM:
            out = []
            gpus = node_res.to_formalized_gpu_resource_list()
            for i, g in enumerate(gpus):
                if g.milli_gpu_left < req:
                    continue
                vec = [float(self.milli_cpu)] + [float(req) if j == i else 0.0 for j in range(len(gpus))]
                gpu_id = g.id if g.milli_gpu_left < MILLI else allocate_exclusive_gpu_id(node_res, self)
                out.append(VirtualPodResource(vec, gpu_id))
            return out
        # upstream: panic
        raise ValueError(f"undefined gpu dimension extension method: {method}")


@dataclass
@ports("pkg/type/resource.go", "TargetPod", 13, 16, repo=FGD_SIMULATOR)
class TargetPod:
    """A typical pod and how often it occurs in the workload (0.0 to 1.0)."""

    target_pod_resource: PodResource
    percentage: float


TargetPodList = list[TargetPod]


@dataclass
@ports("pkg/type/resource.go", "VirtualPodResource", 71, 74, repo=FGD_SIMULATOR)
class VirtualPodResource:
    resource_vec: list[float]
    gpu_id: str = ""


@dataclass
@ports("pkg/type/resource.go", "VirtualNodeResource", 76, 79, repo=FGD_SIMULATOR)
class VirtualNodeResource:
    resource_vec: list[float]
    gpu_id: str = ""


@dataclass
@ports("pkg/type/resource.go", "SchedulingMatchGroup", 81, 85, repo=FGD_SIMULATOR)
class SchedulingMatchGroup:
    node_resource_vec: list[float]
    pod_resource_vec: list[float]
    gpu_id: str = ""


@dataclass
@ports("pkg/type/resource.go", "GpuResource", 87, 90, repo=FGD_SIMULATOR)
class GpuResource:
    milli_gpu_left: int
    id: str


@ports("pkg/type/resource.go", "NodeResourceFlat", 92, 98, repo=FGD_SIMULATOR)
class NodeResourceFlat(NamedTuple):
    """A node state without its name or GPU order: equal keys, equal fragmentation."""

    milli_cpu: int
    milli_gpu: tuple[int, ...]  # GPUs left, largest first, padded with 0 to MAX_NUM_GPU_PER_NODE
    gpu_type: str
    remark: str


@dataclass
@ports("pkg/type/resource.go", "NodeResource", 59, 69, repo=FGD_SIMULATOR)
class NodeResource:
    """What a node has left. ``milli_gpu_left_list`` is in device order: its index is the GPU id."""

    node_name: str
    milli_cpu_left: int
    milli_cpu_capacity: int
    milli_gpu_left_list: list[int] = field(default_factory=list)
    gpu_number: int = 0
    gpu_type: str = ""
    gpu_affinity: dict[str, int] = field(default_factory=dict)

    @ports("pkg/type/resource.go", "(NodeResource).Repr", 114, 126, repo=FGD_SIMULATOR)
    def repr(self) -> str:
        out = (f"{self.node_name}<CPU: {self.milli_cpu_left / 1000:6.2f}/{self.milli_cpu_capacity / 1000:6.2f}, "
               f"GPU ({self.gpu_type}): {self.gpu_number}")
        if self.gpu_number > 0:
            out += f" x {MILLI}m, Left:" + "".join(f" {g}m" for g in self.milli_gpu_left_list)
        return out + ">"

    @ports("pkg/type/resource.go", "(NodeResource).GetTotalMilliGpuLeft", 128, 133, repo=FGD_SIMULATOR)
    def get_total_milli_gpu_left(self) -> int:
        return sum(self.milli_gpu_left_list)

    @ports("pkg/type/resource.go", "(NodeResource).GetFullyFreeGpuNum", 135, 142, repo=FGD_SIMULATOR)
    def get_fully_free_gpu_num(self) -> int:
        return sum(1 for g in self.milli_gpu_left_list if g == MILLI)

    @ports("pkg/type/resource.go", "(NodeResource).SortedMilliGpuLeftIndexList", 144, 162, repo=FGD_SIMULATOR)
    def sorted_milli_gpu_left_index_list(self, ascending: bool) -> list[int]:
        """GPU ids by GPU left (smallest first when ascending); ties keep device order."""
        left = self.milli_gpu_left_list
        if ascending:
            return sorted(range(len(left)), key=left.__getitem__)
        return sorted(range(len(left)), key=lambda i: -left[i])

    @ports("pkg/type/resource.go", "(NodeResource).Flatten", 164, 180, repo=FGD_SIMULATOR)
    def flatten(self, remark: str) -> NodeResourceFlat:
        desc = sorted(self.milli_gpu_left_list, reverse=True)[:MAX_NUM_GPU_PER_NODE]
        padded = tuple(desc) + (0,) * (MAX_NUM_GPU_PER_NODE - len(desc))
        return NodeResourceFlat(self.milli_cpu_left, padded, self.gpu_type, remark)

    @ports("pkg/type/resource.go", "(NodeResource).ToFormalizedGpuResourceList", 182, 209, repo=FGD_SIMULATOR)
    def to_formalized_gpu_resource_list(self) -> list[GpuResource]:
        """Each partly used GPU on its own, then all fully free GPUs together (ids joined by "-")."""
        out: list[GpuResource] = []
        idle_ids: list[str] = []
        for i, left in enumerate(self.milli_gpu_left_list):
            if left == MILLI:
                idle_ids.append(str(i))
            elif left > 0:
                out.append(GpuResource(left, str(i)))
        if idle_ids:
            out.append(GpuResource(len(idle_ids) * MILLI, DEV_ID_SEP.join(idle_ids)))
        return out

    @ports("pkg/type/resource.go", "(NodeResource).ToVirtualNodeResourceList", 261, 346, repo=FGD_SIMULATOR)
    def to_virtual_node_resource_list(self, method: str, pod_res: PodResource) -> list[VirtualNodeResource]:
        if self.milli_cpu_left < pod_res.milli_cpu:  # not enough CPU for the pod
            return []
        req = pod_res.total_milli_gpu()
        total_left = self.get_total_milli_gpu_left()
        if method == MERGE_GPU_DIM:
            return [VirtualNodeResource([float(self.milli_cpu_left), float(total_left)])]
        if method in (SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM, SEPARATE_GPU_DIM_AND_DIVIDE_OTHER_DIM):
            out: list[VirtualNodeResource] = []
            if req < MILLI:  # a shared GPU may serve it
                for i, left in enumerate(self.milli_gpu_left_list):
                    if left >= MILLI or left < req:  # idle GPUs are counted below; too little left
                        continue
                    cpu = float(self.milli_cpu_left) if method == SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM else \
                        _fdiv(float(self.milli_cpu_left * left), float(total_left))
                    out.append(VirtualNodeResource([cpu, float(left)], str(i)))
            idle = self.get_fully_free_gpu_num()
            if req <= idle * MILLI:  # the fully free GPUs may serve it
                gpu_id = allocate_exclusive_gpu_id(self, pod_res)
                cpu = float(self.milli_cpu_left) if method == SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM else \
                    _fdiv(float(self.milli_cpu_left * idle * MILLI), float(total_left))
                out.append(VirtualNodeResource([cpu, float(idle * MILLI)], gpu_id))
            return out
        if method == EXT_GPU_DIM:
            vec = [float(self.milli_cpu_left)] + [float(g.milli_gpu_left)
                                                  for g in self.to_formalized_gpu_resource_list()]
            return [VirtualNodeResource(vec)]
        # upstream: panic
        raise ValueError(f"undefined gpu dimension extension method: {method}")

    @ports("pkg/type/resource.go", "(NodeResource).ToResourceVec", 390, 399, repo=FGD_SIMULATOR)
    def to_resource_vec(self) -> list[float]:
        """[milli CPU left, milli GPU left in total]."""
        return [float(self.milli_cpu_left), float(self.get_total_milli_gpu_left())]

    @ports("pkg/type/resource.go", "(NodeResource).Copy", 401, 416, repo=FGD_SIMULATOR)
    def copy(self) -> "NodeResource":
        # upstream: the affinity map is shared, not copied
        return NodeResource(self.node_name, self.milli_cpu_left, self.milli_cpu_capacity,
                            list(self.milli_gpu_left_list), self.gpu_number, self.gpu_type, self.gpu_affinity)

    @ports("pkg/type/resource.go", "(NodeResource).Sub", 418, 444, repo=FGD_SIMULATOR)
    def sub(self, pod: PodResource) -> tuple["NodeResource", Optional[str]]:
        """The node after placing ``pod`` on its tightest GPUs that fit (and an error if it cannot)."""
        out = self.copy()
        if out.milli_cpu_left < pod.milli_cpu or out.gpu_number < pod.gpu_number:
            return out, f"node: {self.repr()} failed to accommodate pod: {pod.repr()}"
        out.milli_cpu_left -= pod.milli_cpu
        request = pod.gpu_number
        if request == 0:
            return out, None
        left = out.milli_gpu_left_list
        for i in out.sorted_milli_gpu_left_index_list(True):
            if pod.milli_gpu <= left[i]:
                request -= 1
                left[i] -= pod.milli_gpu
                if request <= 0:
                    return out, None
        return out, (f"node: {self.repr()} failed to accommodate pod: {pod.repr()} "
                     f"({request} GPU requests left)")

    @ports("pkg/type/resource.go", "(NodeResource).Add", 446, 495, repo=FGD_SIMULATOR)
    def add(self, pod: PodResource, idl: list[int]) -> tuple["NodeResource", Optional[str]]:
        """The node after taking ``pod`` off GPUs ``idl`` (or off its fullest GPUs when ``idl`` is empty)."""
        out = self.copy()
        out.milli_cpu_left += pod.milli_cpu
        if out.milli_cpu_left > out.milli_cpu_capacity:
            out.milli_cpu_left -= pod.milli_cpu
            return out, f"[ERROR] CPU of pod {pod.repr()} + node {self.repr()} exceeds {self.milli_cpu_capacity}"
        request = pod.gpu_number
        if request == 0:
            return out, None
        left = out.milli_gpu_left_list
        if idl:
            for i, idx in enumerate(idl):
                if idx > len(left) - 1 or idx < 0:
                    return out, f"[ERROR] idl: {idl} of pod {pod.repr()}"
                if left[idx] + pod.milli_gpu > MILLI:
                    return out, f"[ERROR] idl[{i}]={idx} of pod {pod.repr()} exceeds {MILLI}"
                left[idx] += pod.milli_gpu
            return out, None
        for i in out.sorted_milli_gpu_left_index_list(True):
            if pod.milli_gpu + left[i] <= MILLI:
                request -= 1
                left[i] += pod.milli_gpu
                if request <= 0:
                    return out, None
        return out, f"node: {self.repr()} failed to evict pod: {pod.repr()} ({request} GPU requests left)"


@ports("pkg/type/resource.go", "AllocateExclusiveGpuId", 348, 368, repo=FGD_SIMULATOR)
def allocate_exclusive_gpu_id(node_res: NodeResource, pod_res: PodResource) -> str:
    """The first fully free GPUs (in device order) that cover the pod's request, joined by "-"."""
    need = pod_res.total_milli_gpu()
    ids: list[str] = []
    for i, left in enumerate(node_res.milli_gpu_left_list):
        if need <= 0:
            break
        if left == MILLI:
            ids.append(str(i))
            need -= MILLI
    if need > 0:
        # upstream: panic
        raise ValueError("there is no enough exclusive gpu to serve pod, should not happen")
    return DEV_ID_SEP.join(ids)


def _fdiv(a: float, b: float) -> float:
    """Go's float division: x/0 is +-Inf, 0/0 is NaN."""
    if b == 0:
        return float("nan") if a == 0 else (float("inf") if a > 0 else float("-inf"))
    return a / b
