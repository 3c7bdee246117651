"""Port of pkg/utils/frag.go (kubernetes-scheduler-simulator): the fragmentation measure of the FGD paper.

A node's idle GPUs are *fragmented for a pod* when that pod cannot use them.
``get_node_pod_frag`` sorts a (node, pod) pair into one of seven cases: the
pod fits (Q3), lacks GPU (Q2), lacks CPU (Q4), lacks both (Q1), asks for no
GPU at all (XL, XR), or may not use this GPU model (no access). Weighting
each case by how often that pod occurs in the workload (the *typical pods*)
gives the node's fragmentation amount: the expected milli GPU that the next
pod cannot use. For a pod that fits, only the GPUs with too little left for
it count; in every other case all the node's idle GPU does.

Deviations:
- The Bellman variant and the skyline measure, which the simulator only
  logs, are not ported.
- ``node_gpu_share_frag_amount_score`` takes an optional memo keyed by
  ``NodeResource.flatten``, as the simulator's own report memoises it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cmp_to_key
from typing import Iterable, Optional

from ...anchors import FGD_SIMULATOR, ports
from .gpushare_utils import MILLI
from .resource import (DEFAULT_TYPICAL_POD_INCREASE_STEP, DEFAULT_TYPICAL_POD_POPULARITY_THRESHOLD,
                       NodeResource, NodeResourceFlat, PodResource, TargetPod, TargetPodList)
from .utils import is_node_accessible_to_pod

Q1_LACK_BOTH = "q1_lack_both"
Q2_LACK_GPU = "q2_lack_gpu"
Q3_SATISFIED = "q3_satisfied"
Q4_LACK_CPU = "q4_lack_cpu"
XL_SATISFIED = "xl_satisfied"
XR_LACK_CPU = "xr_lack_cpu"
NO_ACCESS = "no_access"

# Frag type -> its slot in a FragAmount's data, in upstream's order.
FRAG_RATIO_DATA_MAP: dict[str, int] = {
    Q1_LACK_BOTH: 0, Q2_LACK_GPU: 1, Q3_SATISFIED: 2, Q4_LACK_CPU: 3, XL_SATISFIED: 4, XR_LACK_CPU: 5, NO_ACCESS: 6,
}
_Q3 = FRAG_RATIO_DATA_MAP[Q3_SATISFIED]

GPU_NUM_TYPE_LIST = ["PureCpu", "ShareGpu", "OneGpu", "TwoGpu", "FourGpu", "EightGpu", "Others"]


@dataclass
@ports("pkg/utils/frag.go", "FragAmount", 43, 46, repo=FGD_SIMULATOR)
class FragAmount:
    """Milli GPU of one node (or the cluster) by frag type, in FRAG_RATIO_DATA_MAP order."""

    node_name: str
    data: list[float] = field(default_factory=lambda: [0.0] * len(FRAG_RATIO_DATA_MAP))

    @ports("pkg/utils/frag.go", "(FragAmount).AddByFragType", 86, 96, repo=FGD_SIMULATOR)
    def add_by_frag_type(self, frag_type: str, amount: float) -> None:
        if amount < 0:
            raise ValueError("bad freq")
        if frag_type not in FRAG_RATIO_DATA_MAP:
            raise ValueError("bad fragType")
        self.data[FRAG_RATIO_DATA_MAP[frag_type]] += amount

    @ports("pkg/utils/frag.go", "(FragAmount).AddGamma", 66, 80, repo=FGD_SIMULATOR)
    def add_gamma(self, other: "FragAmount", gamma: float) -> None:
        if len(self.data) != len(other.data):
            raise ValueError(f"this ({len(self.data)}) does not match the other ({len(other.data)})")
        for i, v in enumerate(other.data):
            self.data[i] += gamma * v

    @ports("pkg/utils/frag.go", "(FragAmount).AddFragAmount", 82, 84, repo=FGD_SIMULATOR)
    def add_frag_amount(self, other: "FragAmount") -> None:
        self.add_gamma(other, 1.0)

    @ports("pkg/utils/frag.go", "(FragAmount).FragAmountSumExceptQ3", 507, 514, repo=FGD_SIMULATOR)
    def frag_amount_sum_except_q3(self) -> float:
        """The fragmentation amount: idle milli GPU the typical pods cannot use."""
        out = 0.0
        for i in range(len(FRAG_RATIO_DATA_MAP)):
            if i != _Q3:
                out += self.data[i]
        return out

    @ports("pkg/utils/frag.go", "(FragAmount).FragAmountSumQ1Q2Q4", 516, 521, repo=FGD_SIMULATOR)
    def frag_amount_sum_q1_q2_q4(self) -> float:
        return (self.data[FRAG_RATIO_DATA_MAP[Q1_LACK_BOTH]] + self.data[FRAG_RATIO_DATA_MAP[Q2_LACK_GPU]]
                + self.data[FRAG_RATIO_DATA_MAP[Q4_LACK_CPU]])

    @ports("pkg/utils/frag.go", "(FragAmount).Repr", 110, 121, repo=FGD_SIMULATOR)
    def repr(self) -> str:
        return f"{self.node_name}: [" + ", ".join(f"{v:6.1f}" for v in self.data) + "]"


@ports("pkg/utils/frag.go", "CanNodeHostPodOnGpuMemory", 543, 554, repo=FGD_SIMULATOR)
def can_node_host_pod_on_gpu_memory(node_res: NodeResource, pod_res: PodResource) -> bool:
    """Whether ``gpu_number`` of the node's GPUs each have ``milli_gpu`` left."""
    need = pod_res.gpu_number
    for left in node_res.milli_gpu_left_list:
        if left >= pod_res.milli_gpu:
            need -= 1
            if need <= 0:
                return True
    return False


@ports("pkg/utils/frag.go", "GetNodePodFrag", 556, 582, repo=FGD_SIMULATOR)
def get_node_pod_frag(node_res: NodeResource, pod_res: PodResource) -> str:
    """Which of the seven cases the (node, pod) pair is in."""
    if pod_res.milli_gpu == 0:
        return XL_SATISFIED if node_res.milli_cpu_left >= pod_res.milli_cpu else XR_LACK_CPU
    if not is_node_accessible_to_pod(node_res, pod_res):
        return NO_ACCESS
    cpu_ok = node_res.milli_cpu_left >= pod_res.milli_cpu
    if can_node_host_pod_on_gpu_memory(node_res, pod_res):
        return Q3_SATISFIED if cpu_ok else Q4_LACK_CPU
    return Q2_LACK_GPU if cpu_ok else Q1_LACK_BOTH


@ports("pkg/utils/frag.go", "GetGpuMilliLeftTotal", 203, 208, repo=FGD_SIMULATOR)
def get_gpu_milli_left_total(node_res: NodeResource) -> int:
    return sum(node_res.milli_gpu_left_list)


@ports("pkg/utils/frag.go", "GetGpuFragMilliByNodeResAndPodRes", 184, 192, repo=FGD_SIMULATOR)
def get_gpu_frag_milli_by_node_res_and_pod_res(node_res: NodeResource, pod_res: PodResource) -> int:
    """Milli GPU left on the GPUs that have less left than the pod asks per GPU."""
    return sum(left for left in node_res.milli_gpu_left_list if left < pod_res.milli_gpu)


@ports("pkg/utils/frag.go", "NodeGpuShareFragAmount", 147, 167, repo=FGD_SIMULATOR)
def node_gpu_share_frag_amount(node_res: NodeResource, typical_pods: TargetPodList) -> FragAmount:
    """The node's idle milli GPU by frag type, each typical pod weighted by its frequency."""
    amount = FragAmount(node_res.node_name)
    total = get_gpu_milli_left_total(node_res)
    for pod in typical_pods:
        freq = pod.percentage
        if freq < 0 or freq > 1:
            continue  # upstream: logs "bad freq" and skips the pod
        frag_type = get_node_pod_frag(node_res, pod.target_pod_resource)
        if frag_type == Q3_SATISFIED:  # the pod fits, but the GPUs too small for it are still fragments
            frag_milli = get_gpu_frag_milli_by_node_res_and_pod_res(node_res, pod.target_pod_resource)
            amount.add_by_frag_type(Q2_LACK_GPU, freq * float(frag_milli))
            amount.add_by_frag_type(Q3_SATISFIED, freq * float(total - frag_milli))
        else:  # Q1, Q2, Q4, XL, XR, no access: all the idle GPU counts as fragment
            amount.add_by_frag_type(frag_type, freq * float(total))
    return amount


@ports("pkg/utils/frag.go", "NodeGpuShareFragAmountScore", 179, 182, repo=FGD_SIMULATOR)
def node_gpu_share_frag_amount_score(node_res: NodeResource, typical_pods: TargetPodList,
                                     memo: Optional[dict[NodeResourceFlat, float]] = None) -> float:
    """The node's fragmentation amount (milli GPU): what FGD tries to keep from growing."""
    if memo is None:
        return node_gpu_share_frag_amount(node_res, typical_pods).frag_amount_sum_except_q3()
    key = node_res.flatten("origin")
    value = memo.get(key)
    if value is None:
        value = node_gpu_share_frag_amount(node_res, typical_pods).frag_amount_sum_except_q3()
        memo[key] = value
    return value


# --- typical pods ----------------------------------------------------------------------------


@dataclass
@ports("pkg/api/v1alpha1/types.go", "TypicalPodsConfig", 55, 60, repo=FGD_SIMULATOR)
class TypicalPodsConfig:
    """v1alpha1.TypicalPodsConfig, with the values ``generate_config_and_run.py`` passes by default."""

    is_involved_cpu_pods: bool = True
    pod_popularity_threshold: int = 95  # percent of the workload the typical pods must cover
    pod_increase_step: int = 1
    gpu_res_weight: float = 0.0  # > 0: count a whole-GPU pod as 1 + GPUs * weight pods


def _target_pod_less(a: TargetPod, b: TargetPod) -> bool:
    if a.percentage != b.percentage:
        return a.percentage < b.percentage
    return a.target_pod_resource.less(b.target_pod_resource)


@ports("pkg/utils/frag.go", "SortTargetPodInDecreasingCount", 532, 541, repo=FGD_SIMULATOR)
def sort_target_pod_in_decreasing_count(counts: dict[PodResource, float]) -> TargetPodList:
    """(request, count) pairs, most frequent first; ties by the larger request first."""
    pods = [TargetPod(k, v) for k, v in counts.items()]

    def cmp(a: TargetPod, b: TargetPod) -> int:  # sort.Reverse(TargetPodList)
        if _target_pod_less(b, a):
            return -1
        if _target_pod_less(a, b):
            return 1
        return 0

    return sorted(pods, key=cmp_to_key(cmp))


@ports("pkg/utils/frag.go", "GetTypicalPods", 381, 476, repo=FGD_SIMULATOR)
def gpu_num_type(pod_res: PodResource) -> str:
    """The class of a request in GPU_NUM_TYPE_LIST."""
    n = pod_res.gpu_number
    if n == 0:
        return GPU_NUM_TYPE_LIST[0]
    if n == 1:
        return GPU_NUM_TYPE_LIST[1] if pod_res.milli_gpu < MILLI else GPU_NUM_TYPE_LIST[2]
    return {2: GPU_NUM_TYPE_LIST[3], 4: GPU_NUM_TYPE_LIST[4], 8: GPU_NUM_TYPE_LIST[5]}.get(n, GPU_NUM_TYPE_LIST[6])


@ports("pkg/utils/frag.go", "GetTypicalPods", 381, 476, repo=FGD_SIMULATOR)
def get_typical_pods(all_pods: Iterable[PodResource], config: Optional[TypicalPodsConfig] = None) -> TargetPodList:
    """The most frequent requests of the workload, covering ``pod_popularity_threshold`` percent of it.

    Requests are counted, sorted by count, and taken ``pod_increase_step`` at a time until
    their share reaches the threshold; the frequencies are then renormalised to sum to 1.
    """
    config = config or TypicalPodsConfig()
    counts: dict[PodResource, float] = {}
    total = 0.0
    for res in all_pods:
        if not config.is_involved_cpu_pods and res.gpu_number == 0:
            continue
        weighted = 1.0
        if config.gpu_res_weight > 0 and res.milli_gpu == MILLI:
            weighted = 1 + float(res.gpu_number) * config.gpu_res_weight
        counts[res] = counts.get(res, 0.0) + weighted
        total += weighted
    pods = sort_target_pod_in_decreasing_count(counts)
    threshold = config.pod_popularity_threshold if config.pod_popularity_threshold > 0 else \
        DEFAULT_TYPICAL_POD_POPULARITY_THRESHOLD
    step = config.pod_increase_step if config.pod_increase_step > 0 else DEFAULT_TYPICAL_POD_INCREASE_STEP
    expected = float(threshold) * total / 100.0
    i = n = 0
    cum = 0.0
    while cum < expected:
        n += step
        while i < n and i < len(pods):
            cum += pods[i].percentage
            pods[i].percentage = pods[i].percentage / total  # a count becomes a share of the workload
            i += 1
        if i >= len(pods):
            break  # upstream: the loop ends because cum reaches total
    if i >= len(pods):
        return pods
    out = pods[:i]  # renormalise the chosen ones to sum to 1
    for p in out:
        p.percentage /= cum / total
    return out


@ports("pkg/utils/utils.go", "PodListRatioSum", 1341, 1346, repo=FGD_SIMULATOR)
def pod_list_ratio_sum(pods: TargetPodList) -> float:
    return sum(p.percentage for p in pods)

