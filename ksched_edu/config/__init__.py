"""Port of pkg/scheduler/apis/config (v1.30), with its v1 decoding.

The KubeSchedulerConfiguration: decoding, defaults, validation, and the
per-extension-point plugin lists. The entry
points are :func:`load_config` (a ``--config`` file: decode strictly,
default, validate, or raise :class:`ConfigError` with kube-scheduler's
message) and :func:`default_config` (no file). MultiPoint is expanded into
per-point plugin lists by the framework runtime, as upstream does.
Plugin constructors call the ``validate_<plugin>_args`` functions with
``path=None`` and report :func:`to_aggregate` of what they return.
"""
from .default_plugins import get_default_plugins, merge_plugins
from .defaults import set_defaults_kube_scheduler_configuration
from .errors import Aggregate
from .field import FieldError, Path, new_path, to_aggregate
from .loader import ConfigError, default_config, load_config, load_config_data
from .types import (EXTENSION_POINTS, KubeSchedulerConfiguration, KubeSchedulerProfile, Plugin,
                    PluginConfig, Plugins, PluginSet)
from .types_pluginargs import (DefaultPreemptionArgs, InterPodAffinityArgs, NodeAffinityArgs,
                               NodeResourcesBalancedAllocationArgs, NodeResourcesFitArgs,
                               PodTopologySpreadArgs, RequestedToCapacityRatioParam, ResourceSpec,
                               ScoringStrategy, UtilizationShapePoint, VolumeBindingArgs)
from .validation import validate_kube_scheduler_configuration
from .validation_pluginargs import (validate_default_preemption_args,
                                    validate_inter_pod_affinity_args, validate_node_affinity_args,
                                    validate_node_resources_balanced_allocation_args,
                                    validate_node_resources_fit_args,
                                    validate_pod_topology_spread_args,
                                    validate_volume_binding_args)

__all__ = [
    "Aggregate", "ConfigError", "DefaultPreemptionArgs",
    "EXTENSION_POINTS", "FieldError", "InterPodAffinityArgs",
    "KubeSchedulerConfiguration", "KubeSchedulerProfile", "NodeAffinityArgs",
    "NodeResourcesBalancedAllocationArgs", "NodeResourcesFitArgs", "Path", "Plugin",
    "PluginConfig", "PluginSet", "Plugins", "PodTopologySpreadArgs",
    "RequestedToCapacityRatioParam", "ResourceSpec", "ScoringStrategy", "UtilizationShapePoint",
    "VolumeBindingArgs", "default_config", "get_default_plugins",
    "load_config", "load_config_data", "merge_plugins", "new_path",
    "set_defaults_kube_scheduler_configuration", "to_aggregate",
    "validate_default_preemption_args", "validate_inter_pod_affinity_args",
    "validate_kube_scheduler_configuration", "validate_node_affinity_args",
    "validate_node_resources_balanced_allocation_args", "validate_node_resources_fit_args",
    "validate_pod_topology_spread_args", "validate_volume_binding_args",
]
