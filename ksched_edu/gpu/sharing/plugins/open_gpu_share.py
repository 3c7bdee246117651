"""Port of pkg/simulator/plugin/open_gpu_share.go (kubernetes-scheduler-simulator).

Open-Gpu-Share makes GPUs schedulable at milli granularity. Filter keeps a
node only if it has GPUs, of a model the pod accepts (``gpu_spec``), with
room for the pod (the ledger's own tightest-fit check). Reserve chooses the
GPU(s) inside the chosen node, by the configured ``gpuSelMethod`` (best,
worst or random fit, or the Score plugin of that name: FGDScore,
DotProductScore), and writes the pod on them in the ledger; Unreserve and
the pod's deletion erase it.

Extension points: Filter, Reserve.

Deviations:
- The chosen GPU ids stay in the ledger; the pod and the node are not patched
  with annotations.
- An unknown ``gpuSelMethod``, or a shared request on several GPUs, is an
  Error status at Reserve where the simulator panics.
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import FGD_SIMULATOR, ports
from ....api.types import Pod
from ....framework.cycle_state import CycleState
from ....framework.interface import Code, Status, new_status
from ....framework.types import NodeInfo
from ..args import SEL_BEST_FIT_GPU, SEL_RANDOM_GPU, SEL_WORST_FIT_GPU, GpuPluginArgs, OpenGpuShareArgs, \
    decode_args
from ..gpushare_utils import MILLI, get_gpu_id_from_annotation, gpu_affinity, gpu_id_str_to_int_list
from ..resource import NodeResource, PodResource, TargetPodList, allocate_exclusive_gpu_id
from ..utils import get_node_resource_via_handle_and_name, is_node_accessible_to_pod_by_type
from .plugin_utils import SharingContext

NAME = "Open-Gpu-Share"


@ports("pkg/simulator/plugin/open_gpu_share.go", "GpuSharePlugin", 27, 33, repo=FGD_SIMULATOR)
class GpuSharePlugin:
    def __init__(self, args: OpenGpuShareArgs, handle: Any, ctx: SharingContext) -> None:
        self.cfg = args
        self.handle = handle
        self.ctx = ctx

    @ports("pkg/simulator/plugin/open_gpu_share.go", "(*GpuSharePlugin).Name", 75, 77, repo=FGD_SIMULATOR)
    def name(self) -> str:
        return NAME

    @ports("pkg/simulator/plugin/open_gpu_share.go", "(*GpuSharePlugin).Filter", 81, 110, repo=FGD_SIMULATOR)
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        pod_res = self.ctx.pod_resources.get(pod)
        if pod_res.milli_gpu <= 0:  # asks for no GPU
            return None
        gpu_node = self.ctx.ledger.get_gpu_node_info(node_info.node())  # count and model read once per node
        if gpu_node.gpu_count == 0:
            return new_status(Code.Unschedulable, "Node:" + node_info.name)
        if not is_node_accessible_to_pod_by_type(gpu_node.model, pod_res.gpu_type):
            return new_status(Code.Unschedulable, "Node:" + node_info.name)
        _, found = gpu_node.allocate_gpu_id(pod_res.gpu_number, pod_res.milli_gpu, get_gpu_id_from_annotation(pod))
        if not found:
            return new_status(Code.Unschedulable, "Node:" + node_info.name)
        return None

    @ports("pkg/simulator/plugin/open_gpu_share.go", "(*GpuSharePlugin).Reserve", 165, 190, repo=FGD_SIMULATOR)
    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        pod_res = self.ctx.pod_resources.get(pod)
        if pod_res.milli_gpu <= 0:
            return None  # pods without GPU are not written in the ledger
        gpu_id, err = self.allocate_gpu_id(pod, pod_res, node_name)
        if err is not None:
            return new_status(Code.Error, err)
        if not gpu_id:
            return new_status(Code.Error, f"failed to allocate gpu to pod({pod.key}) to node({node_name})")
        node_info = self.handle.snapshot_shared_lister().node_infos().get(node_name)
        try:
            self.ctx.ledger.add_or_update_pod(pod.uid, pod.key, node_info.node(), gpu_id, pod_res.milli_gpu,
                                              gpu_affinity(pod_res.gpu_number, pod_res.milli_gpu))
        except ValueError as e:
            return new_status(Code.Error, str(e))
        return None

    @ports("pkg/simulator/plugin/open_gpu_share.go", "(*GpuSharePlugin).Unreserve", 193, 200, repo=FGD_SIMULATOR)
    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        self.ctx.ledger.remove_pod(pod.uid)

    @ports("pkg/simulator/plugin/open_gpu_share.go", "(*GpuSharePlugin).allocateGpuId", 235, 266, repo=FGD_SIMULATOR)
    def allocate_gpu_id(self, pod: Pod, pod_res: PodResource, node_name: str) -> tuple[str, Optional[str]]:
        """The GPU ids for the pod on the node, by ``gpuSelMethod`` (or the ids the pod names)."""
        node_res = get_node_resource_via_handle_and_name(self.handle, node_name, self.ctx.node_resources)
        if node_res is None:
            return "", None
        preset = get_gpu_id_from_annotation(pod)
        if preset:
            try:
                idl = gpu_id_str_to_int_list(preset)
            except ValueError:
                idl = []
            if not idl:
                return "", f"pod ({pod.namespace}) {pod.name} has invalid GPU ID in Annotation: {preset}"
            for dev in idl:
                if node_res.milli_gpu_left_list[dev] < pod_res.milli_gpu:
                    return "", "idleGpuMilli >= podRes.MilliGpu"
            return preset, None
        f = self.ctx.allocate_gpu_id_func.get(self.cfg.gpu_sel_method)
        if f is None:
            return "", "undefined allocate gpu id function"
        if pod_res.milli_gpu < MILLI and pod_res.gpu_number > 1:
            return "", "the pod requests more than one share gpu, should not happen"
        return f(node_res, pod_res, self.cfg, self.ctx.typical_pods), None


@ports("pkg/simulator/plugin/open_gpu_share.go", "allocateGpuIdBasedOnBestFit", 268, 286, repo=FGD_SIMULATOR)
def allocate_gpu_id_based_on_best_fit(node_res: NodeResource, pod_res: PodResource, _cfg: GpuPluginArgs,
                                      _typical_pods: TargetPodList) -> str:
    """The GPU with the least room that fits a shared request; the first free GPUs otherwise."""
    if pod_res.milli_gpu < MILLI:
        cand = -1
        for i, left in enumerate(node_res.milli_gpu_left_list):
            if left >= pod_res.milli_gpu and (cand == -1 or left < node_res.milli_gpu_left_list[cand]):
                cand = i
        return str(cand) if cand != -1 else ""
    return allocate_exclusive_gpu_id(node_res, pod_res)


@ports("pkg/simulator/plugin/open_gpu_share.go", "allocateGpuIdBasedOnWorstFit", 288, 306, repo=FGD_SIMULATOR)
def allocate_gpu_id_based_on_worst_fit(node_res: NodeResource, pod_res: PodResource, _cfg: GpuPluginArgs,
                                       _typical_pods: TargetPodList) -> str:
    """The GPU with the most room for a shared request; the first free GPUs otherwise."""
    if pod_res.milli_gpu < MILLI:
        cand = -1
        for i, left in enumerate(node_res.milli_gpu_left_list):
            if left >= pod_res.milli_gpu and (cand == -1 or left > node_res.milli_gpu_left_list[cand]):
                cand = i
        return str(cand) if cand != -1 else ""
    return allocate_exclusive_gpu_id(node_res, pod_res)


@ports("pkg/simulator/plugin/open_gpu_share.go", "allocateGpuIdBasedOnRandomFit", 308, 326, repo=FGD_SIMULATOR)
def allocate_gpu_id_based_on_random_fit(ctx: SharingContext):  # noqa: ANN201 - returns an AllocateGpuIdFunc
    """A uniformly random GPU that fits a shared request (reservoir sampling); the first free GPUs otherwise."""

    def allocate(node_res: NodeResource, pod_res: PodResource, _cfg: GpuPluginArgs,
                 _typical_pods: TargetPodList) -> str:
        if pod_res.milli_gpu < MILLI:
            gpu_id, seen = "", 0
            for i, left in enumerate(node_res.milli_gpu_left_list):
                if left >= pod_res.milli_gpu:
                    seen += 1
                    if ctx.rng.randrange(seen) == 0:
                        gpu_id = str(i)
            return gpu_id
        return allocate_exclusive_gpu_id(node_res, pod_res)

    return allocate


@ports("pkg/simulator/plugin/open_gpu_share.go", "NewGpuSharePlugin", 41, 72, repo=FGD_SIMULATOR)
def new(args: Any, handle: Any, ctx: SharingContext) -> GpuSharePlugin:
    ctx.allocate_gpu_id_func[SEL_BEST_FIT_GPU] = allocate_gpu_id_based_on_best_fit
    ctx.allocate_gpu_id_func[SEL_WORST_FIT_GPU] = allocate_gpu_id_based_on_worst_fit
    ctx.allocate_gpu_id_func[SEL_RANDOM_GPU] = allocate_gpu_id_based_on_random_fit(ctx)
    plugin = GpuSharePlugin(decode_args(args, OpenGpuShareArgs), handle, ctx)
    watch = getattr(handle.client(), "watch", None) if hasattr(handle, "client") else None
    if watch is not None:
        # upstream: a pod informer's DeleteFunc frees the GPUs of a deleted pod
        def on_pod_event(event: str, old: Any, new: Any) -> None:
            if event == "delete" and old is not None:
                ctx.ledger.remove_pod(old.uid)

        watch("Pod", on_pod_event)
    return plugin
