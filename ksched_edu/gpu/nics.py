"""Which GPUs sit close to which NIC: the GPU-NIC columns of ``nvidia-smi topo -m``.

Not a port: neither kube-scheduler nor the device plugin API knows about NICs
beside GPUs. A multi-node job sends its gradients through a NIC; GPUDirect RDMA
lets the NIC read GPU memory straight over PCIe, which pays off when the NIC
and the GPU share a PCIe switch (``PIX``: one bridge, ``PXB``: several, without
the CPU's host bridge) and much less when the path crosses the CPU (``PHB``,
``NODE``) or the socket link (``SYS``). This module reads
:attr:`Topology.nic_links` and answers the questions a placement asks: which
NICs are near a GPU, which GPU sets share one near NIC, and whether every GPU
of a set can have a near NIC of its own (one NIC per GPU, as rail-optimized
clusters are cabled).
"""
from __future__ import annotations

import itertools
from typing import Iterable, Optional

from ..anchors import plumbing
from .topology import Topology

_PLUMBING = "the project's own reading of the GPU-NIC columns of nvidia-smi topo -m; no upstream counterpart"

# The classes of a GPU-NIC path that keep GPUDirect RDMA under a PCIe switch.
NEAR = ("PIX", "PXB")


@plumbing(_PLUMBING)
def near_nics(top: Topology, gpu: int, classes: Iterable[str] = NEAR) -> tuple[int, ...]:
    """The NICs (indexes into ``top.nics``) that GPU ``gpu`` reaches by a path of one of ``classes``."""
    wanted = set(classes)
    if not top.nic_links:
        return ()
    return tuple(k for k, link in enumerate(top.nic_links[gpu]) if link.kind in wanted)


@plumbing(_PLUMBING)
def nic_table(top: Topology, classes: Iterable[str] = NEAR) -> list[dict[str, str]]:
    """One row per NIC: its column title, its device name and the GPUs near it."""
    wanted = tuple(classes)
    rows = []
    for k, nic in enumerate(top.nics):
        near = [g.index for g in top.gpus if k in near_nics(top, g.index, wanted)]
        rows.append({"NIC": nic, "device": top.nic_names[k], "near GPUs": ",".join(map(str, near)) or "-"})
    return rows


@plumbing(_PLUMBING)
def shared_nic(top: Topology, gpus: Iterable[int], classes: Iterable[str] = NEAR) -> Optional[int]:
    """The first NIC near every GPU of ``gpus``, or None."""
    wanted = tuple(classes)
    common: Optional[set[int]] = None
    for g in gpus:
        mine = set(near_nics(top, g, wanted))
        common = mine if common is None else common & mine
    return min(common) if common else None


@plumbing(_PLUMBING)
def nic_per_gpu(top: Topology, gpus: Iterable[int], classes: Iterable[str] = NEAR) -> Optional[dict[int, int]]:
    """A near NIC of its own for every GPU of ``gpus`` (GPU -> NIC), or None when there is no such matching.

    A bipartite matching by augmenting paths: the GPUs in id order, each NIC used once.
    """
    wanted = tuple(classes)
    ids = sorted(gpus)
    options = {g: near_nics(top, g, wanted) for g in ids}
    owner: dict[int, int] = {}  # NIC -> GPU

    def place(g: int, seen: set[int]) -> bool:
        for nic in options[g]:
            if nic in seen:
                continue
            seen.add(nic)
            if nic not in owner or place(owner[nic], seen):
                owner[nic] = g
                return True
        return False

    for g in ids:
        if not place(g, set()):
            return None
    return {g: nic for nic, g in sorted(owner.items(), key=lambda kv: kv[1])}


@plumbing(_PLUMBING)
def sets_near_nics(top: Topology, count: int, classes: Iterable[str] = NEAR) -> dict[str, int]:
    """Among all ``count``-GPU sets of ``top``: how many share one near NIC, how many have one near NIC per GPU."""
    wanted = tuple(classes)
    combos = list(itertools.combinations(range(len(top.gpus)), count))
    return {"GPU sets": len(combos),
            "share one near NIC": sum(shared_nic(top, c, wanted) is not None for c in combos),
            "a near NIC per GPU": sum(nic_per_gpu(top, c, wanted) is not None for c in combos)}


__all__ = ["NEAR", "near_nics", "nic_table", "shared_nic", "nic_per_gpu", "sets_near_nics"]
