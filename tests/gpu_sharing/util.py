"""Builders for the GPU-sharing tests: openb-shaped nodes and pods, and a plugin with its context."""
from __future__ import annotations

from typing import Any, Iterable, Optional

from ksched_edu.gpu.sharing.gpushare_utils import gpu_affinity
from ksched_edu.gpu.sharing.openb import NodeRow, PodRow, node_from_row, pod_from_row
from ksched_edu.gpu.sharing.plugins.plugin_utils import SharingContext
from ksched_edu.gpu.sharing.resource import PodResource, TargetPod
from ksched_edu.gpu.sharing.utils import get_pod_resource
from tests.fakes import FakeHandle


def gpu_node(name: str, gpus: int = 8, model: str = "G2", cpu: int = 96000, memory: int = 393216):
    return node_from_row(NodeRow(name, cpu, memory, gpus, model))


def gpu_pod(name: str, cpu: int = 4000, gpus: int = 1, milli: int = 1000, spec: str = "", memory: int = 1024,
            node: Optional[str] = None):
    pod = pod_from_row(PodRow(name, cpu, memory, gpus, milli if gpus else 0, spec))
    if node:
        pod.spec.node_name = node
    return pod


def typical(*pods: tuple[PodResource, float]) -> list[TargetPod]:
    return [TargetPod(res, freq) for res, freq in pods]


def handle_and_context(nodes: Iterable[Any], placed: Iterable[tuple[Any, str]] = (),
                       typical_pods: Iterable[TargetPod] = ()) -> tuple[FakeHandle, SharingContext]:
    """A handle over the nodes with ``placed`` pods (pod, GPU ids) on them, and a context whose ledger knows them."""
    nodes = list(nodes)
    placed = list(placed)
    handle = FakeHandle(pods=[p for p, _ in placed], nodes=nodes)
    ctx = SharingContext(typical_pods=list(typical_pods))
    by_name = {n.metadata.name: n for n in nodes}
    for pod, gpu_ids in placed:
        res = get_pod_resource(pod)
        if res.milli_gpu > 0:
            ctx.ledger.add_or_update_pod(pod.uid, pod.key, by_name[pod.spec.node_name], gpu_ids, res.milli_gpu,
                                         gpu_affinity(res.gpu_number, res.milli_gpu))
    return handle, ctx
