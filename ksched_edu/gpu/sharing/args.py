"""Port of pkg/type/config.go (kubernetes-scheduler-simulator).

The args of the GPU-sharing plugins. A policy that compares a pod with a node
as vectors (DotProduct, FGD's GPU choice) must first decide what a node's
GPUs look like as dimensions (``dim_ext_method``) and how to scale the
dimensions (``norm_method``); Open-Gpu-Share also needs the rule that picks
the GPU(s) inside the chosen node (``gpu_sel_method``).

Deviations:
- An absent args object gets the experiment's defaults (``share``, ``max``,
  ``best``), as ``scripts/generate_config_and_run.py`` writes them, instead of
  empty strings that make the simulator panic.
- Args arrive either as these dataclasses or as the raw mapping of a
  ``pluginConfig`` entry (``dimExtMethod``, ``normMethod``, ``gpuSelMethod``).
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from ...anchors import FGD_SIMULATOR, plumbing, ports

# GpuDimExtMethod. For a pod <100 CPU, 100 GPU> and a node <3000 CPU, GPUs left 200, 500, 1000 x 6>:
MERGE_GPU_DIM = "merge"  # all GPUs as one dimension: <3000, 6700>
SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM = "share"  # one virtual node per shared GPU plus one for the free
# GPUs, each with all the CPU: <3000, 200>, <3000, 500>, <3000, 6000>
SEPARATE_GPU_DIM_AND_DIVIDE_OTHER_DIM = "divide"  # as "share", CPU split by GPU left: <89.55, 200>, ...
EXT_GPU_DIM = "extend"  # the pod raised to the node's dimensions: <100, 100, 0, 0>, <100, 0, 100, 0>, ...
GPU_DIM_EXT_METHODS = (MERGE_GPU_DIM, SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM, SEPARATE_GPU_DIM_AND_DIVIDE_OTHER_DIM,
                       EXT_GPU_DIM)

# GpuSelMethod: the GPU chosen inside a node (or the name of a Score plugin that chooses it).
SEL_BEST_FIT_GPU = "best"
SEL_WORST_FIT_GPU = "worst"
SEL_RANDOM_GPU = "random"

# NormMethod
NORM_BY_NODE = "node"  # divide by the node's capacity
NORM_BY_POD = "pod"  # divide by the pod's request
NORM_BY_MAX = "max"  # divide by the largest node's capacity (MAX_SPEC_CPU, MAX_SPEC_GPU)
NORM_METHODS = (NORM_BY_NODE, NORM_BY_POD, NORM_BY_MAX)


@dataclass
@ports("pkg/type/config.go", "GpuPluginCfg", 50, 55, repo=FGD_SIMULATOR)
class GpuPluginArgs:
    dim_ext_method: str = SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM
    norm_method: str = NORM_BY_MAX


@dataclass
@ports("pkg/type/config.go", "OpenGpuSharePluginCfg", 57, 61, repo=FGD_SIMULATOR)
class OpenGpuShareArgs(GpuPluginArgs):
    gpu_sel_method: str = SEL_BEST_FIT_GPU


_CAMEL = {"dimExtMethod": "dim_ext_method", "normMethod": "norm_method", "gpuSelMethod": "gpu_sel_method"}


@plumbing("reads a pluginConfig entry into the args dataclass (the simulator's plugins decode theirs with the "
          "framework's DecodeInto)")
def decode_args(raw: Any, cls: type) -> Any:
    """``raw`` (None, a dataclass, or a pluginConfig mapping) as ``cls``; ValueError on an unknown field."""
    if raw is None:
        return cls()
    if isinstance(raw, cls):
        return raw
    if not isinstance(raw, Mapping):
        # duck typing: an object with the same attribute names
        return cls(**{f.name: getattr(raw, f.name) for f in fields(cls) if hasattr(raw, f.name)})
    known = {f.name for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        name = _CAMEL.get(key, key)
        if name not in known:
            raise ValueError(f'unknown field "{key}"')
        values[name] = value
    return cls(**values)
