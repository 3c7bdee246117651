"""Port of the feature gates of pkg/features/kube_features.go (v1.30) that the configuration reads.

Only two gates change how a configuration is defaulted or validated:
DynamicResourceAllocation (adds the DynamicResources plugin to the default
set) and VolumeCapacityPriority (gives VolumeBindingArgs a default shape and
lets validation accept one). Both are alpha and off by default in v1.30,
which is what kube-scheduler v1.30.4 runs with.

Deviations:
- No command-line ``--feature-gates``: a caller that wants another value
  passes its own mapping to the functions that read a gate.
"""
from __future__ import annotations

from typing import Mapping, Optional

from ..anchors import SCHEDULER_PLUGINS, ports

DYNAMIC_RESOURCE_ALLOCATION = "DynamicResourceAllocation"
VOLUME_CAPACITY_PRIORITY = "VolumeCapacityPriority"

DEFAULT_FEATURE_GATES: Mapping[str, bool] = {
    DYNAMIC_RESOURCE_ALLOCATION: False,
    VOLUME_CAPACITY_PRIORITY: False,
}


@ports("vendor/k8s.io/component-base/featuregate/feature_gate.go", "(*featureGate).Enabled", 346, 355, repo=SCHEDULER_PLUGINS)
def enabled(name: str, gates: Optional[Mapping[str, bool]] = None) -> bool:
    """Whether a gate is on: ``gates`` overrides the v1.30 defaults."""
    if gates is not None and name in gates:
        return bool(gates[name])
    return bool(DEFAULT_FEATURE_GATES.get(name, False))
