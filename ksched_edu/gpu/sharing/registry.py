"""Port of the plugin registry of pkg/simulator/simulator.go (kubernetes-scheduler-simulator), ``New``.

:func:`new_registry` returns ``{plugin name: factory}`` for the GPU-sharing
plugins, ready for ``runtime.merge_registries(new_in_tree_registry(), ...)``.
All factories of one registry share one :class:`SharingContext` (the GPU
ledger, the typical pods, a seeded random source), as the simulator hands
its plugins ``&sim.typicalPods`` beside the framework handle.
"""
from __future__ import annotations

import importlib
import random
from typing import Any, Optional

from ...anchors import FGD_SIMULATOR, plumbing, ports
from ...framework.runtime import Registry
from .plugins.plugin_utils import SharingContext
from .resource import TargetPodList

# Plugin name -> module in plugins/, in the simulator's registry order.
PLUGIN_MODULES: dict[str, str] = {
    "Open-Gpu-Share": "open_gpu_share",
    "RandomScore": "random_score",
    "DotProductScore": "dot_product_score",
    "GpuClusteringScore": "gpu_clustering_score",
    "GpuPackingScore": "gpu_packing_score",
    "BestFitScore": "best_fit_score",
    "FGDScore": "fgd_score",
}

# The six policies of the experiment: short name (as in the paper's figures) -> Score plugin.
SCORE_POLICY_ABBR: dict[str, str] = {
    "Random": "RandomScore",
    "DotProd": "DotProductScore",
    "GpuClustering": "GpuClusteringScore",
    "GpuPacking": "GpuPackingScore",
    "BestFit": "BestFitScore",
    "FGD": "FGDScore",
}


@ports("pkg/simulator/simulator.go", "New", 88, 177, repo=FGD_SIMULATOR)
def new_registry(typical_pods: Optional[TargetPodList] = None, *, seed: int = 0,
                 ctx: Optional[SharingContext] = None) -> Registry:
    """The GPU-sharing plugins' factories, sharing one context (made here unless given)."""
    if ctx is None:
        ctx = SharingContext(typical_pods=list(typical_pods or []), rng=random.Random(seed))
    registry: Registry = {}
    for name, module_name in PLUGIN_MODULES.items():
        module = importlib.import_module(f"{__package__}.plugins.{module_name}")
        registry[name] = _bind(module.new, ctx)
    return registry


def _bind(factory: Any, ctx: SharingContext) -> Any:
    def new(args: Any, handle: Any) -> Any:
        return factory(args, handle, ctx)

    new.sharing_context = ctx  # type: ignore[attr-defined]
    return new


@plumbing("reads the shared context back from a registry made by new_registry")
def sharing_context(registry: Registry) -> SharingContext:
    """The context the factories of a registry made by :func:`new_registry` share."""
    for factory in registry.values():
        ctx = getattr(factory, "sharing_context", None)
        if ctx is not None:
            return ctx
    raise ValueError("no GPU-sharing plugin in this registry")
