"""Port of pkg/type/open-gpu-share/utils/const.go, node.go and pod.go (kubernetes-scheduler-simulator).

How a GPU-sharing cluster writes GPUs on its objects, after Alibaba's
open-gpu-share: a node says how many GPUs it has (``alibabacloud.com/gpu-count``
in its capacity) and their model (a label); a pod says, in annotations, how
many GPUs it wants and how much of each one in thousandths (``gpu-milli``:
1000 is a whole GPU, 470 is 47% of one card shared with other pods).

Deviations:
- Creation, deletion and assume-time annotations are not read: the experiment
  orders pods itself (see ``experiment.py``).
"""
from __future__ import annotations

import re
from typing import Optional

from ...anchors import FGD_SIMULATOR, ports
from ...api.quantity import QuantityError, parse_quantity
from ...api.types import Node, Pod

RESOURCE_NAME = "alibabacloud.com/gpu-milli"  # milli GPU per GPU asked by a pod (1000 == one GPU)
COUNT_NAME = "alibabacloud.com/gpu-count"  # GPUs asked by a pod, or owned by a node
DEVICE_INDEX = "alibabacloud.com/gpu-index"  # the GPU ids a pod was given, e.g. "2" or "0-1-2-3"
MODEL_NAME = "alibabacloud.com/gpu-card-model"  # GPU model of a node; accepted models of a pod ("A|B")
POD_NS_NAME_SEP = "/"
DEV_ID_SEP = "-"
MILLI = 1000

MAX_SPEC_CPU = 128000  # milli CPU of the largest node, used to normalise scores
MAX_SPEC_MEM = 1048576  # MiB
MAX_SPEC_GPU = 8000  # milli GPU of the largest node
NO_GPU_TAG = "no-gpu"
SHARE_GPU_TAG = "share-gpu"

# GPU memory (MiB) of each model; kept for reference, the scheduler matches models by name.
MAP_GPU_TYPE_MEMORY_MIB: dict[str, int] = {
    "P4": 7611, "2080": 11019, "1080": 11178, "M40": 11448, "T4": 15109, "V100M16": 16160,
    "P100": 16280, "A10": 22731, "3090": 24268, "V100M32": 32510, "A100": 81251,
    "G1": 1000, "G2": 20000, "G3": 30000,
}

_GO_ATOI = re.compile(r"^[+-]?[0-9]+$")


# --- nodes -------------------------------------------------------------------------------


def _capacity_value(node: Node, name: str) -> int:
    q = node.status.capacity.get(name)
    return q.value() if q is not None else 0


@ports("pkg/type/open-gpu-share/utils/node.go", "IsGpuSharingNode", 6, 8, repo=FGD_SIMULATOR)
def is_gpu_sharing_node(node: Node) -> bool:
    return get_gpu_milli_of_node(node) > 0


@ports("pkg/type/open-gpu-share/utils/node.go", "GetGpuMilliOfNode", 11, 16, repo=FGD_SIMULATOR)
def get_gpu_milli_of_node(node: Node) -> int:
    """The node's GPU in milli (0 to 8000 in the trace)."""
    return _capacity_value(node, RESOURCE_NAME)


@ports("pkg/type/open-gpu-share/utils/node.go", "GetGpuCountOfNode", 19, 24, repo=FGD_SIMULATOR)
def get_gpu_count_of_node(node: Node) -> int:
    return _capacity_value(node, COUNT_NAME)


@ports("pkg/type/open-gpu-share/utils/node.go", "GetGpuModelOfNode", 27, 32, repo=FGD_SIMULATOR)
def get_gpu_model_of_node(node: Node) -> str:
    return node.metadata.labels.get(MODEL_NAME, "")


# --- pods --------------------------------------------------------------------------------


@ports("pkg/type/open-gpu-share/utils/pod.go", "GetGpuIdFromAnnotation", 41, 48, repo=FGD_SIMULATOR)
def get_gpu_id_from_annotation(pod: Pod) -> str:
    """The GPU ids written on a pod: "1", or "0-1-2-3" for a multi-GPU pod ("" when none)."""
    return pod.metadata.annotations.get(DEVICE_INDEX, "")


@ports("pkg/type/open-gpu-share/utils/pod.go", "GpuIdStrToIntList", 129, 142, repo=FGD_SIMULATOR)
def gpu_id_str_to_int_list(gpu_id: str) -> list[int]:
    """``"2-3-4"`` -> ``[2, 3, 4]``; raises ValueError on a part that is not a number."""
    if not gpu_id:
        return []
    out = []
    for part in gpu_id.split(DEV_ID_SEP):
        if not _GO_ATOI.match(part):
            raise ValueError(f'strconv.Atoi: parsing "{part}": invalid syntax')
        out.append(int(part))
    return out


@ports("pkg/type/open-gpu-share/utils/pod.go", "GetGpuMilliFromPodAnnotation", 57, 67, repo=FGD_SIMULATOR)
def get_gpu_milli_from_pod_annotation(pod: Pod) -> int:
    """The pod's milli GPU per GPU (0 to 1000); 0 when absent or not a quantity."""
    value = pod.metadata.annotations.get(RESOURCE_NAME)
    if value is None:
        return 0
    try:
        return parse_quantity(value).value()
    except QuantityError:
        return 0


@ports("pkg/type/open-gpu-share/utils/pod.go", "GetGpuModelFromPodAnnotation", 69, 76, repo=FGD_SIMULATOR)
def get_gpu_model_from_pod_annotation(pod: Pod) -> str:
    """The GPU models the pod accepts, ``|``-separated ("" means any)."""
    return pod.metadata.annotations.get(MODEL_NAME, "")


@ports("pkg/type/open-gpu-share/utils/pod.go", "GetGpuCountFromPodAnnotation", 79, 89, repo=FGD_SIMULATOR)
def get_gpu_count_from_pod_annotation(pod: Pod) -> int:
    """The pod's GPU count; 0 when absent, not a number, or negative."""
    value = pod.metadata.annotations.get(COUNT_NAME)
    if value is None or not _GO_ATOI.match(value):
        return 0
    n = int(value)
    return n if n >= 0 else 0


@ports("pkg/type/open-gpu-share/utils/pod.go", "GetGpuAffinityFromPodAnnotation", 92, 104, repo=FGD_SIMULATOR)
def gpu_affinity(gpu_count: int, gpu_milli: int) -> str:
    """The GPU affinity tag of a request: no-gpu, share-gpu, or "<n>-gpu" for whole GPUs."""
    if gpu_count == 0:
        return NO_GPU_TAG
    if gpu_count == 1 and gpu_milli < MILLI:
        return SHARE_GPU_TAG
    if gpu_count >= 1 and gpu_milli == MILLI:
        return f"{gpu_count}-gpu"
    # upstream: panic
    raise ValueError(f"unknown gpu affinity, gpu count = {gpu_count}, gpu milli = {gpu_milli}")


@ports("pkg/type/open-gpu-share/utils/pod.go", "GetGpuAffinityFromPodAnnotation", 92, 104, repo=FGD_SIMULATOR)
def get_gpu_affinity_from_pod_annotation(pod: Pod) -> str:
    return gpu_affinity(get_gpu_count_from_pod_annotation(pod), get_gpu_milli_from_pod_annotation(pod))


@ports("pkg/type/open-gpu-share/utils/pod.go", "GeneratePodKey", 168, 170, repo=FGD_SIMULATOR)
def generate_pod_key(pod: Pod) -> str:
    return pod.metadata.namespace + POD_NS_NAME_SEP + pod.metadata.name


@ports("data/pod_csv_to_yaml.py", "output_pod", 79, 132, repo=FGD_SIMULATOR)
def gpu_annotations(gpu_count: int, gpu_milli: int, gpu_spec: Optional[str] = "") -> dict[str, str]:
    """The annotations a pod carries for a GPU request (none for a CPU-only pod).

    As the simulator's ``pod_csv_to_yaml.py`` writes them: ``gpu_milli`` is clipped
    to 0..1000 and empty model names are dropped from ``gpu_spec``.
    """
    if gpu_count == 0:
        return {}
    milli = gpu_milli if 0 < gpu_milli <= MILLI else (MILLI if gpu_milli > MILLI else 0)
    out = {RESOURCE_NAME: str(milli), COUNT_NAME: str(gpu_count)}
    models = "|".join(m for m in (gpu_spec or "").split("|") if m)
    if models:
        out[MODEL_NAME] = models
    return out
