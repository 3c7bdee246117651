"""How GPUs are shared in production clusters, and what the FGD paper's ``gpu_milli`` model makes of each way.

Not a port: the course's own bridge between the resources a node advertises
and the simulator's model. The NVIDIA device plugin and GPU Operator share a
GPU three ways, each visible to kube-scheduler only as an extended-resource
count:

- **time-slicing**: one GPU advertised ``replicas`` times as ``nvidia.com/gpu``;
  CUDA time-slices the clients, with no memory or fault isolation;
- **MPS**: the same ``replicas``, but the MPS control daemon limits each client
  to an equal fraction of the GPU's memory and compute; the clients still share
  the GPU's MPS server and its faults (https://docs.nvidia.com/deploy/mps/);
- **MIG** (mixed strategy): the GPU cut into hardware instances, one resource
  per profile (``nvidia.com/mig-3g.40gb``), each with its own compute slices
  (of seven on an A100 or H100) and memory.

Sources: the device plugin's README, v0.17.1
(https://github.com/NVIDIA/k8s-device-plugin#shared-access-to-gpus), and the
GPU Operator's MIG guide
(https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-mig.html).

The FGD model (:mod:`ksched_edu.gpu.sharing`) gives a pod any share of one GPU
in thousandths (``gpu_milli``) or whole GPUs, with no memory, isolation or SM
partition. :func:`mig_profile` and :func:`milli_of` translate, and
:func:`modes_table` states the comparison.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from ..anchors import plumbing

_PLUMBING = ("the project's own account of GPU sharing modes (time-slicing, MPS, MIG) against the FGD model's "
             "gpu_milli; no upstream counterpart")

# A100 and H100 MIG: the GPU's compute is cut into seven slices.
MIG_COMPUTE_SLICES = 7
MILLI = 1000
_MIG = re.compile(r"^nvidia\.com/mig-(\d+)g\.(\d+)gb$")


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class MigProfile:
    """A MIG profile read from its resource name: compute slices and memory."""

    resource: str
    compute_slices: int
    memory_gb: int

    @property
    def milli(self) -> int:
        """The share of the GPU's compute, in the FGD model's thousandths (rounded down)."""
        return self.compute_slices * MILLI // MIG_COMPUTE_SLICES


@plumbing(_PLUMBING)
def mig_profile(resource: str) -> MigProfile:
    """``"nvidia.com/mig-3g.40gb"`` -> ``MigProfile(..., 3, 40)``; ValueError for anything else."""
    match = _MIG.match(resource)
    if not match:
        raise ValueError(f"{resource!r} is not a MIG resource of the mixed strategy (nvidia.com/mig-<g>g.<mem>gb)")
    slices, memory = int(match.group(1)), int(match.group(2))
    if not 1 <= slices <= MIG_COMPUTE_SLICES:
        raise ValueError(f"{resource!r}: a MIG instance has 1 to {MIG_COMPUTE_SLICES} compute slices")
    return MigProfile(resource, slices, memory)


@plumbing(_PLUMBING)
def idle_slices(free: Mapping[str, int]) -> int:
    """The compute slices held by the free MIG instances ``{resource: count}``."""
    return sum(mig_profile(r).compute_slices * n for r, n in free.items())


@plumbing(_PLUMBING)
def milli_of(mode: str, replicas: int = 1, resource: str = "nvidia.com/gpu") -> int:
    """The ``gpu_milli`` one unit of the resource would be in the FGD model.

    ``whole``: 1000; ``time-slicing`` and ``mps``: 1000 / replicas (for time-slicing
    only a nominal figure: nothing enforces it); ``mig``: the profile's slices of seven.
    """
    if mode == "whole":
        return MILLI
    if mode in ("time-slicing", "mps"):
        if replicas < 1:
            raise ValueError(f"replicas must be at least 1, got {replicas}")
        return MILLI // replicas
    if mode == "mig":
        return mig_profile(resource).milli
    raise ValueError(f"unknown sharing mode {mode!r} (want whole, time-slicing, mps or mig)")


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class SharingMode:
    """One way of sharing a GPU, as the scheduler sees it and as the hardware enforces it."""

    mode: str
    advertised_as: str
    scheduler_sees: str
    gpu_milli: str
    memory: str
    compute: str
    faults: str


@plumbing(_PLUMBING)
def modes_table(replicas: int = 4, mig_resource: str = "nvidia.com/mig-1g.10gb") -> list[SharingMode]:
    """The four ways, with the ``gpu_milli`` of one unit computed for ``replicas`` and ``mig_resource``."""
    profile = mig_profile(mig_resource)
    return [
        SharingMode("whole GPU", "nvidia.com/gpu: N", "N devices", f"{milli_of('whole')} per GPU",
                    "the GPU's", "the GPU's", "isolated"),
        SharingMode(f"time-slicing ({replicas} replicas)", f"nvidia.com/gpu: {replicas} x N",
                    f"{replicas} x N devices", f"nominal {milli_of('time-slicing', replicas)}, not enforced",
                    "shared, no limit", "time slices among all clients", "one fault domain"),
        SharingMode(f"MPS ({replicas} replicas)", f"nvidia.com/gpu: {replicas} x N", f"{replicas} x N devices",
                    f"{milli_of('mps', replicas)}, limited by the MPS daemon", f"1/{replicas} of it, limited",
                    f"1/{replicas} of it, limited", "shared with the other clients"),
        SharingMode(f"MIG mixed ({profile.resource.split('/')[1]})", f"{profile.resource}: k",
                    "k devices of that profile", f"{profile.milli} ({profile.compute_slices} of "
                    f"{MIG_COMPUTE_SLICES} slices)", f"{profile.memory_gb} GB, hardware", "its own SMs, hardware",
                    "isolated"),
    ]


__all__ = ["MIG_COMPUTE_SLICES", "MigProfile", "mig_profile", "idle_slices", "milli_of", "SharingMode",
           "modes_table"]
