"""Port of pkg/type/open-gpu-share/cache/cache.go, gpunodeinfo.go and deviceinfo.go (kubernetes-scheduler-simulator).

The shared-GPU ledger: beside the scheduler's cache, which counts a node's
CPU and memory, it records which pods hold how much of each GPU. One
:class:`GpuNodeInfo` per node, one :class:`DeviceInfo` per GPU; a pod that
shares a GPU is written on that GPU with its milli GPU, a pod that takes
several GPUs on each of them. ``allocate_gpu_id`` is open-gpu-share's own
choice of GPUs (tightest fit for one GPU, first fit for several), which
the Open-Gpu-Share Filter uses to decide whether a node can host a pod.

Deviations:
- A GPU's used milli is kept as a running sum, not recounted from its pods.
- Adding a pod that would take a GPU past 1000 milli raises :class:`LedgerError`
  (the simulator trusts its callers); so the ledger never hands out more than
  a whole GPU.
- No locks and no node getter: the ledger is built from Node objects as they come.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

from ...anchors import FGD_SIMULATOR, plumbing, ports
from ...api.types import Node
from .gpushare_utils import (DEV_ID_SEP, MILLI, get_gpu_count_of_node, get_gpu_milli_of_node, get_gpu_model_of_node,
                             gpu_id_str_to_int_list)


@plumbing("the ledger's refusal of a write that would break it; the simulator trusts its callers")
class LedgerError(ValueError):
    """A write that would break the ledger: more than a whole GPU, an unknown GPU id."""


@dataclass
@ports("pkg/type/open-gpu-share/cache/deviceinfo.go", "DeviceInfo", 13, 18, repo=FGD_SIMULATOR)
class DeviceInfo:
    """One GPU: the pods on it (uid -> (pod key, milli GPU they hold here))."""

    idx: int
    model: str
    pods: dict[str, tuple[str, int]] = field(default_factory=dict)
    used_milli: int = 0

    @ports("pkg/type/open-gpu-share/cache/deviceinfo.go", "(*DeviceInfo).GetUsedGpuMilli", 37, 58, repo=FGD_SIMULATOR)
    def get_used_gpu_milli(self) -> int:
        return self.used_milli

    @ports("pkg/type/open-gpu-share/cache/deviceinfo.go", "(*DeviceInfo).addPod", 60, 66, repo=FGD_SIMULATOR)
    def add_pod(self, uid: str, key: str, milli: int) -> None:
        old = self.pods.get(uid, ("", 0))[1]
        if self.used_milli - old + milli > MILLI:
            raise LedgerError(f"GPU {self.idx} has {MILLI - self.used_milli + old}m left, "
                              f"pod {key} asks for {milli}m")
        self.pods[uid] = (key, milli)
        self.used_milli += milli - old

    @ports("pkg/type/open-gpu-share/cache/deviceinfo.go", "(*DeviceInfo).removePod", 68, 74, repo=FGD_SIMULATOR)
    def remove_pod(self, uid: str) -> None:
        _, milli = self.pods.pop(uid, ("", 0))
        self.used_milli -= milli


@dataclass
@ports("pkg/type/open-gpu-share/cache/deviceinfo.go", "DeviceInfoBrief", 76, 81, repo=FGD_SIMULATOR)
class DeviceInfoBrief:
    idx: int
    model: str
    pod_list: list[str]
    gpu_used_milli: int


@dataclass
@ports("pkg/type/open-gpu-share/cache/gpunodeinfo.go", "GpuNodeInfoStr", 223, 229, repo=FGD_SIMULATOR)
class GpuNodeInfoStr:
    """What the simulator writes on the node (annotation ``simon/node-gpu-share``)."""

    devs_brief: dict[int, DeviceInfoBrief]
    gpu_count: int
    gpu_model: str
    gpu_used_milli: int
    num_pods: int


@ports("pkg/type/open-gpu-share/cache/gpunodeinfo.go", "GpuNodeInfo", 19, 26, repo=FGD_SIMULATOR)
class GpuNodeInfo:
    """A node's GPUs and the pods on them."""

    def __init__(self, node: Node) -> None:
        self.name = node.metadata.name
        self.gpu_count = get_gpu_count_of_node(node)
        self.gpu_milli = get_gpu_milli_of_node(node)  # 0 on a node that does not share GPUs
        self.model = get_gpu_model_of_node(node)
        self.devs = [DeviceInfo(i, self.model) for i in range(self.gpu_count)]
        self.pod_gpus: dict[str, tuple[str, list[int], int, str]] = {}  # uid -> (key, GPU ids, milli, affinity)
        self.affinity: Counter[str] = Counter()  # GPU affinity tag -> pods on the node with it
        self.version = 0  # bumped on every change, so callers can cache what they derive

    @ports("pkg/type/open-gpu-share/cache/gpunodeinfo.go", "(*GpuNodeInfo).GetDevs", 72, 78, repo=FGD_SIMULATOR)
    def get_devs(self) -> list[DeviceInfo]:
        return list(self.devs)

    @plumbing("the milli GPU left on each GPU, read off the ledger's running sums")
    def milli_gpu_left_list(self) -> list[int]:
        return [MILLI - d.used_milli for d in self.devs]

    @ports("pkg/type/open-gpu-share/cache/gpunodeinfo.go", "(*GpuNodeInfo).getIdleGpus", 203, 211, repo=FGD_SIMULATOR)
    def get_idle_gpus(self) -> dict[int, int]:
        """GPU id -> milli GPU left."""
        return {d.idx: MILLI - d.used_milli for d in self.devs}

    @ports("pkg/type/open-gpu-share/cache/gpunodeinfo.go", "(*GpuNodeInfo).AllocateGpuId", 132, 200, repo=FGD_SIMULATOR)
    def allocate_gpu_id(self, req_gpu_num: int, req_gpu_milli: int, preset_id: str = "") -> tuple[str, bool]:
        """open-gpu-share's GPU choice: ``("2", True)``, ``("0-1", True)``, or ``("", False)``."""
        if req_gpu_milli <= 0 or req_gpu_num <= 0 or not self.devs:
            return "", False
        if preset_id:  # the pod names its GPUs already: check that they have room
            try:
                idl = gpu_id_str_to_int_list(preset_id)
            except ValueError:
                idl = []  # upstream: logs "invalid GPU ID" and allocates as usual
            if idl:
                idle = self.get_idle_gpus()
                if any(dev_id not in idle or idle[dev_id] < req_gpu_milli for dev_id in idl):
                    return "", False
                return preset_id, True
        if req_gpu_num == 1:  # the tightest GPU that fits, the first in device order on a tie
            cand, cand_left = -1, 0
            for dev in self.devs:
                left = MILLI - dev.used_milli
                if left >= req_gpu_milli and (cand == -1 or left < cand_left):
                    cand, cand_left = dev.idx, left
            return (str(cand), True) if cand != -1 else ("", False)
        idle = self.get_idle_gpus()
        # Several GPUs: walk the devices once, taking a GPU as often as it still fits the request.
        chosen: list[int] = []
        dev_id = 0
        while dev_id < len(self.devs) and len(chosen) < req_gpu_num:
            left = idle.get(dev_id)
            if left is not None and left >= req_gpu_milli:
                chosen.append(dev_id)
                idle[dev_id] = left - req_gpu_milli
            else:
                dev_id += 1
        if len(chosen) == req_gpu_num:
            return DEV_ID_SEP.join(str(i) for i in chosen), True
        return "", False

    @ports("pkg/type/open-gpu-share/cache/gpunodeinfo.go", "(*GpuNodeInfo).addOrUpdatePod", 111, 129,
           repo=FGD_SIMULATOR)
    def add_or_update_pod(self, uid: str, key: str, gpu_ids: list[int], milli: int, affinity: str) -> bool:
        """Write a pod on its GPUs (all or nothing); False when it names no GPU of this node."""
        if not gpu_ids or any(i < 0 or i >= len(self.devs) for i in gpu_ids):
            return False
        per_dev = Counter(gpu_ids)
        for i, n in per_dev.items():
            dev = self.devs[i]
            left = MILLI - dev.used_milli + dev.pods.get(uid, ("", 0))[1]  # an update frees the old share first
            if n * milli > left:
                raise LedgerError(f"GPU {i} of node {self.name} has {left}m left, pod {key} asks for {n * milli}m")
        self.remove_pod(uid)
        for i, n in per_dev.items():
            self.devs[i].add_pod(uid, key, n * milli)
        self.pod_gpus[uid] = (key, list(gpu_ids), milli, affinity)
        self.affinity[affinity] += 1
        self.version += 1
        return True

    @ports("pkg/type/open-gpu-share/cache/gpunodeinfo.go", "(*GpuNodeInfo).removePod", 93, 108, repo=FGD_SIMULATOR)
    def remove_pod(self, uid: str) -> bool:
        entry = self.pod_gpus.pop(uid, None)
        if entry is None:
            return False
        _, gpu_ids, _, affinity = entry
        for i in set(gpu_ids):
            self.devs[i].remove_pod(uid)
        self.affinity[affinity] -= 1
        if self.affinity[affinity] <= 0:
            del self.affinity[affinity]
        self.version += 1
        return True

    @ports("pkg/type/open-gpu-share/cache/gpunodeinfo.go", "(*GpuNodeInfo).ExportGpuNodeInfoAsStr", 231, 242,
           repo=FGD_SIMULATOR)
    def export_gpu_node_info_as_str(self) -> GpuNodeInfoStr:
        briefs = {d.idx: DeviceInfoBrief(d.idx, d.model, sorted(k for k, _ in d.pods.values()), d.used_milli)
                  for d in self.devs}
        return GpuNodeInfoStr(briefs, self.gpu_count, self.model, sum(d.used_milli for d in self.devs),
                              sum(len(b.pod_list) for b in briefs.values()))


@ports("pkg/type/open-gpu-share/cache/cache.go", "SchedulerCache", 13, 18, repo=FGD_SIMULATOR)
class GpuLedger:
    """Every node's GPUs (upstream SchedulerCache of open-gpu-share)."""

    def __init__(self) -> None:
        self.nodes: dict[str, GpuNodeInfo] = {}
        self.known_pods: dict[str, str] = {}  # uid -> node name
        self.used_gpu_milli = 0  # over the whole cluster

    @ports("pkg/type/open-gpu-share/cache/cache.go", "(*SchedulerCache).GetGpuNodeInfo", 113, 128, repo=FGD_SIMULATOR)
    def get_gpu_node_info(self, node: Node) -> GpuNodeInfo:
        """The node's entry, made on first use."""
        info = self.nodes.get(node.metadata.name)
        if info is None:
            info = GpuNodeInfo(node)
            self.nodes[info.name] = info
        return info

    @ports("pkg/type/open-gpu-share/cache/cache.go", "(*SchedulerCache).KnownPod", 74, 80, repo=FGD_SIMULATOR)
    def known_pod(self, uid: str) -> bool:
        return uid in self.known_pods

    @ports("pkg/type/open-gpu-share/cache/cache.go", "(*SchedulerCache).AddOrUpdatePod", 82, 97, repo=FGD_SIMULATOR)
    def add_or_update_pod(self, uid: str, key: str, node: Node, gpu_id: str, milli: int, affinity: str) -> bool:
        """Record that pod ``uid`` holds ``milli`` on each GPU of ``gpu_id`` ("1" or "0-1-2") on ``node``."""
        try:
            gpu_ids = gpu_id_str_to_int_list(gpu_id)
        except ValueError as err:
            raise LedgerError(f"pod {key}: bad GPU id {gpu_id!r}: {err}") from None
        info = self.get_gpu_node_info(node)
        if self.known_pods.get(uid, info.name) != info.name:
            self.remove_pod(uid)  # the pod moves to another node
        held = info.pod_gpus.get(uid)
        if not info.add_or_update_pod(uid, key, gpu_ids, milli, affinity):
            raise LedgerError(f"pod {key}: node {info.name} has no GPU {gpu_id!r}")
        if held is not None:
            self.used_gpu_milli -= held[2] * len(held[1])
        self.known_pods[uid] = info.name
        self.used_gpu_milli += milli * len(gpu_ids)
        return True

    @ports("pkg/type/open-gpu-share/cache/cache.go", "(*SchedulerCache).RemovePod", 100, 110, repo=FGD_SIMULATOR)
    def remove_pod(self, uid: str) -> Optional[str]:
        """Forget a pod; the name of the node it was on (None when unknown)."""
        node_name = self.known_pods.pop(uid, None)
        if node_name is None:
            return None
        info = self.nodes[node_name]
        entry = info.pod_gpus.get(uid)
        if entry is not None:
            self.used_gpu_milli -= entry[2] * len(entry[1])
        info.remove_pod(uid)
        return node_name

    @plumbing("the GPU ids the ledger holds for a pod (the simulator writes them on the pod as an annotation)")
    def pod_gpu_ids(self, uid: str) -> str:
        """The GPU ids a pod holds, as written on it ("" when it holds none)."""
        node_name = self.known_pods.get(uid)
        if node_name is None:
            return ""
        return DEV_ID_SEP.join(str(i) for i in self.nodes[node_name].pod_gpus[uid][1])
