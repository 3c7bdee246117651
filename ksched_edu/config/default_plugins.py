"""Port of pkg/scheduler/apis/config/v1/default_plugins.go (v1.30).

The default plugin set of v1.30 is one MultiPoint list: each plugin is later
expanded by the framework to every extension point it implements (see
:mod:`ksched_edu.framework.runtime`). A profile's own ``plugins`` are merged
into these defaults point by point: disabled names (or ``"*"``) drop
defaults, a default re-enabled by the user is replaced in place (keeping its
position, taking the user's weight), and other user plugins are appended.

Deviations:
- Works on the internal types (weight 0 for "unset") instead of the v1 ones
  (weight nil); nothing in the merge tells the two apart.
"""
from __future__ import annotations

import copy
from typing import Mapping, Optional

from ..anchors import ports
from . import features
from .types import POINT_ATTRS, Plugin, Plugins, PluginSet

# The v1.30 default MultiPoint list, in order, with its score weights.
DEFAULT_MULTI_POINT: tuple[tuple[str, int], ...] = (
    ("SchedulingGates", 0),
    ("PrioritySort", 0),
    ("NodeUnschedulable", 0),
    ("NodeName", 0),
    ("TaintToleration", 3),
    ("NodeAffinity", 2),
    ("NodePorts", 0),
    ("NodeResourcesFit", 1),
    ("VolumeRestrictions", 0),
    ("EBSLimits", 0),
    ("GCEPDLimits", 0),
    ("NodeVolumeLimits", 0),
    ("AzureDiskLimits", 0),
    ("VolumeBinding", 0),
    ("VolumeZone", 0),
    ("PodTopologySpread", 2),
    ("InterPodAffinity", 2),
    ("DefaultPreemption", 0),
    ("NodeResourcesBalancedAllocation", 1),
    ("ImageLocality", 1),
    ("DefaultBinder", 0),
)


@ports("pkg/scheduler/apis/config/v1/default_plugins.go", "getDefaultPlugins", 30, 61)
def get_default_plugins(gates: Optional[Mapping[str, bool]] = None) -> Plugins:
    """The default set of plugins, after the feature gates are applied."""
    plugins = Plugins(multi_point=PluginSet(
        enabled=[Plugin(name, weight) for name, weight in DEFAULT_MULTI_POINT]))
    apply_feature_gates(plugins, gates)
    return plugins


@ports("pkg/scheduler/apis/config/v1/default_plugins.go", "applyFeatureGates", 63, 81)
def apply_feature_gates(plugins: Plugins, gates: Optional[Mapping[str, bool]] = None) -> None:
    if features.enabled(features.DYNAMIC_RESOURCE_ALLOCATION, gates):
        # DynamicResources goes just before DefaultPreemption: freeing an idle
        # ResourceClaim is better than evicting a pod that does useful work.
        enabled = plugins.multi_point.enabled
        for i, p in enumerate(enabled):
            if p.name == "DefaultPreemption":
                enabled.insert(i, Plugin("DynamicResources"))
                break


@ports("pkg/scheduler/apis/config/v1/default_plugins.go", "mergePlugins", 84, 103)
def merge_plugins(default_plugins: Plugins, custom_plugins: Optional[Plugins]) -> Plugins:
    """Merge a profile's plugins into the defaults, extension point by extension point."""
    if custom_plugins is None:
        return default_plugins
    # upstream: MultiPoint first, then the points in Plugins struct order.
    for point in ("multiPoint",) + tuple(p for p in POINT_ATTRS if p != "multiPoint"):
        attr = POINT_ATTRS[point]
        setattr(default_plugins, attr,
                merge_plugin_set(getattr(default_plugins, attr), getattr(custom_plugins, attr)))
    return default_plugins


@ports("pkg/scheduler/apis/config/v1/default_plugins.go", "mergePluginSet", 110, 160)
def merge_plugin_set(default_set: PluginSet, custom_set: PluginSet) -> PluginSet:
    disabled_names: set[str] = set()
    disabled: list[Plugin] = []
    # The user's disabled names are kept so that MultiPoint expansion knows
    # not to put those (or, with "*", any) plugins at this point.
    for p in custom_set.disabled:
        disabled.append(Plugin(p.name))
        disabled_names.add(p.name)
    # A default set may disable some of its own MultiPoint plugins at a point.
    for p in default_set.disabled:
        disabled.append(Plugin(p.name))
        disabled_names.add(p.name)

    # The last occurrence of a name wins when the user lists it twice.
    custom_index = {p.name: (i, p) for i, p in enumerate(custom_set.enabled)}
    replaced: set[int] = set()
    enabled: list[Plugin] = []
    if "*" not in disabled_names:
        for default in default_set.enabled:
            if default.name in disabled_names:
                continue
            if default.name in custom_index:
                # Re-configured default: keep its position, take the user's entry.
                i, custom = custom_index[default.name]
                default = custom
                replaced.add(i)
            enabled.append(copy.copy(default))
    # Every other user plugin is appended, duplicates included (the framework
    # refuses those when it is built).
    for i, p in enumerate(custom_set.enabled):
        if i not in replaced:
            enabled.append(copy.copy(p))
    return PluginSet(enabled=enabled, disabled=disabled)
