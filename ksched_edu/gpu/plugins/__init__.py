"""The course's own GPU plugins, and how a configuration takes them in.

GPUTopology is not an in-tree plugin: like scheduler-plugins' ones it joins a
scheduler through a registry merged into the in-tree one::

    from ksched_edu.framework.plugins.registry import new_in_tree_registry
    from ksched_edu.framework.runtime import merge_registries
    from ksched_edu.gpu import plugins

    registry = merge_registries(new_in_tree_registry(), plugins.registry())
    sim = Simulation(cluster, plugins.scheduler_config("Binpack"), registry=registry)
"""
from __future__ import annotations

from typing import Any

from ...anchors import plumbing

_PLUMBING = "registry and configuration of the project's own topology-aware GPU plugin; no upstream counterpart"

DEFAULT_WEIGHT = 5


@plumbing(_PLUMBING)
def registry() -> dict[str, Any]:
    """Plugin name -> factory, for ``runtime.merge_registries``."""
    from . import gpu_topology

    return {gpu_topology.NAME: gpu_topology.new}


@plumbing(_PLUMBING)
def config_text(strategy: str = "Binpack", weight: int = DEFAULT_WEIGHT, bandwidth_weight: int = 50,
                scheduler_name: str = "default-scheduler") -> str:
    """A KubeSchedulerConfiguration that adds GPUTopology to the default plugins (multiPoint)."""
    return f"""\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: {scheduler_name}
  plugins:
    multiPoint:
      enabled:
      - name: GPUTopology
        weight: {weight}
  pluginConfig:
  - name: GPUTopology
    args:
      scoringStrategy: {strategy}
      bandwidthWeight: {bandwidth_weight}
"""


@plumbing(_PLUMBING)
def scheduler_config(strategy: str = "Binpack", weight: int = DEFAULT_WEIGHT, bandwidth_weight: int = 50) -> Any:
    """:func:`config_text`, loaded (decoded, defaulted, validated) as the scheduler reads a file."""
    from ...config.loader import load_config_data

    return load_config_data(config_text(strategy, weight, bandwidth_weight))


@plumbing(_PLUMBING)
def full_registry() -> dict[str, Any]:
    """The in-tree registry with the course's GPU plugins merged in."""
    from ...framework.plugins.registry import new_in_tree_registry
    from ...framework.runtime import merge_registries

    return merge_registries(new_in_tree_registry(), registry())
