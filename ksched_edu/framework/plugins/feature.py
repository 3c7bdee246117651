"""Port of pkg/scheduler/framework/plugins/feature/feature.go (v1.30).

``Features`` carries the feature gates the in-tree plugins read, so that a plugin
depends on a few booleans and not on the feature-gate machinery. The registry fills it
from the gates (``new_features``, as ``NewInTreeRegistry`` does) and hands it to each
plugin whose factory takes it (``factory_adapter``, upstream ``runtime.FactoryAdapter``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from ...anchors import ports
from ...config import features


@ports("pkg/scheduler/framework/plugins/feature/feature.go", "Features", 22, 30)
@dataclass(frozen=True)
class Features:
    """The gates the plugins read; the defaults are v1.30's."""

    enable_dynamic_resource_allocation: bool = False
    enable_volume_capacity_priority: bool = False
    enable_node_inclusion_policy_in_pod_topology_spread: bool = True
    enable_match_label_keys_in_pod_topology_spread: bool = True
    enable_pod_disruption_conditions: bool = True
    enable_in_place_pod_vertical_scaling: bool = False
    enable_sidecar_containers: bool = True


@ports("pkg/scheduler/framework/plugins/registry.go", "NewInTreeRegistry", 47, 85)
def new_features(gates: Optional[Mapping[str, bool]] = None) -> Features:
    """The ``fts`` NewInTreeRegistry builds from the feature gates (``gates``: those set)."""
    return Features(
        enable_dynamic_resource_allocation=features.enabled("DynamicResourceAllocation", gates),
        enable_volume_capacity_priority=features.enabled("VolumeCapacityPriority", gates),
        enable_node_inclusion_policy_in_pod_topology_spread=features.enabled(
            "NodeInclusionPolicyInPodTopologySpread", gates),
        enable_match_label_keys_in_pod_topology_spread=features.enabled("MatchLabelKeysInPodTopologySpread", gates),
        enable_pod_disruption_conditions=features.enabled("PodDisruptionConditions", gates),
        enable_in_place_pod_vertical_scaling=features.enabled("InPlacePodVerticalScaling", gates),
        enable_sidecar_containers=features.enabled("SidecarContainers", gates),
    )
