"""GPU sharing: the FGD paper's simulator (hkust-adsl/kubernetes-scheduler-simulator), ported onto ksched_edu.

The upstream of this package is not kube-scheduler but the simulator of the ATC '23
paper *Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation
Gradient Descent* (Weng et al.), itself kube-scheduler with out-of-tree plugins. Each
module names the simulator file it ports:

- ``gpushare_utils``, ``resource``, ``args``: how GPUs are written on nodes and pods
  (milli GPU per GPU, GPU count, GPU models), and the request/leftover records;
- ``ledger``: the shared-GPU ledger beside the scheduler's cache (milli GPU per GPU,
  never more than 1000 of one GPU);
- ``frag``: the fragmentation measure and the typical pods of a workload;
- ``plugins``: Open-Gpu-Share (Filter, Reserve, the GPU choice inside a node) and the six
  policies as Score plugins: Random, DotProduct, GPU Clustering, GPU Packing, BestFit, FGD;
- ``registry``: :func:`new_registry`, ``{name: factory}`` for ``runtime.merge_registries``;
- ``config``, ``experiment``, ``openb``: the paper's experiment on the openb trace (or on a
  generated trace of the same shape), and its allocation curve.
"""
from __future__ import annotations

from typing import Any

__all__ = ["new_registry"]


def __getattr__(name: str) -> Any:
    if name == "new_registry":  # loaded on first use, so importing the package stays light
        from .registry import new_registry

        return new_registry
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
