"""Port of pkg/scheduler/framework/plugins/registry.go (v1.30).

The one place that knows every in-tree plugin: ``new_in_tree_registry()`` maps
each plugin name to the factory that builds it from its args and the
framework handle. An out-of-tree plugin (Coscheduling, a plugin of your own)
joins through ``runtime.merge_registries``.

Deviations:
- Plugin modules are imported when the registry is built, not at package
  import, so ``import ksched_edu`` stays light.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping, Optional

from ...anchors import plumbing, ports
from ..runtime import Registry, merge_registries
from . import names
from .feature import Features, new_features

# name -> "module:factory" (relative to this package), in upstream's registry order.
# DynamicResources is left out: its feature gate is off in v1.30 and it is not ported.
IN_TREE_PLUGINS: dict[str, str] = {
    names.IMAGE_LOCALITY: "imagelocality.image_locality:new",
    names.TAINT_TOLERATION: "tainttoleration.taint_toleration:new",
    names.NODE_NAME: "nodename.node_name:new",
    names.NODE_PORTS: "nodeports.node_ports:new",
    names.NODE_AFFINITY: "nodeaffinity.node_affinity:new",
    names.POD_TOPOLOGY_SPREAD: "podtopologyspread.plugin:new",
    names.NODE_UNSCHEDULABLE: "nodeunschedulable.node_unschedulable:new",
    names.NODE_RESOURCES_FIT: "noderesources.fit:new",
    names.NODE_RESOURCES_BALANCED_ALLOCATION: "noderesources.balanced_allocation:new",
    names.VOLUME_BINDING: "volumebinding.volume_binding:new",
    names.VOLUME_RESTRICTIONS: "volumerestrictions.volume_restrictions:new",
    names.VOLUME_ZONE: "volumezone.volume_zone:new",
    names.NODE_VOLUME_LIMITS: "nodevolumelimits.csi:new_csi",
    names.EBS_LIMITS: "nodevolumelimits.non_csi:new_ebs",
    names.GCEPD_LIMITS: "nodevolumelimits.non_csi:new_gcepd",
    names.AZURE_DISK_LIMITS: "nodevolumelimits.non_csi:new_azure_disk",
    names.CINDER_LIMITS: "nodevolumelimits.non_csi:new_cinder",
    names.INTER_POD_AFFINITY: "interpodaffinity.plugin:new",
    names.PRIORITY_SORT: "queuesort.priority_sort:new",
    names.DEFAULT_BINDER: "defaultbinder.default_binder:new",
    names.DEFAULT_PREEMPTION: "defaultpreemption.default_preemption:new",
    names.SCHEDULING_GATES: "schedulinggates.scheduling_gates:new",
}


# The plugins whose factory takes the feature gates (upstream wraps them in FactoryAdapter).
WITH_FEATURES = frozenset({
    names.POD_TOPOLOGY_SPREAD, names.NODE_RESOURCES_FIT, names.NODE_RESOURCES_BALANCED_ALLOCATION,
    names.VOLUME_BINDING, names.VOLUME_RESTRICTIONS, names.NODE_VOLUME_LIMITS, names.EBS_LIMITS,
    names.GCEPD_LIMITS, names.AZURE_DISK_LIMITS, names.CINDER_LIMITS, names.DEFAULT_PREEMPTION,
})


@ports("pkg/scheduler/framework/plugins/registry.go", "NewInTreeRegistry", 47, 85)
def new_in_tree_registry(gates: Optional[Mapping[str, bool]] = None) -> Registry:
    """Every in-tree plugin name with its factory; ``gates`` are the feature gates set
    (absent ones have their v1.30 default), handed to the plugins as ``Features``."""
    fts = new_features(gates)
    registry: Registry = {}
    for name, target in IN_TREE_PLUGINS.items():
        module_path, factory = target.split(":")
        module = importlib.import_module(f"{__package__}.{module_path}")
        new = getattr(module, factory)
        registry[name] = factory_adapter(fts, new) if name in WITH_FEATURES else new
    return registry


@ports("pkg/scheduler/framework/runtime/registry.go", "FactoryAdapter", 38, 42)
def factory_adapter(fts: Features, with_fts: Callable[..., Any]) -> Callable[[Any, Any], Any]:
    """A plugin factory that passes ``fts`` to a factory taking the feature gates."""
    def factory(args: Any, handle: Any) -> Any:
        return with_fts(args, handle, fts)
    return factory


# Out-of-tree plugins of kubernetes-sigs/scheduler-plugins (commit 37b7888a) that the
# ``case`` command registers next to the in-tree ones: name -> "module:factory".
OUT_OF_TREE_PLUGINS: dict[str, str] = {
    "NodeResourceTopologyMatch": "noderesourcetopology.plugin:new",
    "Coscheduling": "coscheduling.coscheduling:new",
}


@plumbing("the scheduler-plugins plugins the case command registers next to the in-tree ones")
def new_out_of_tree_registry() -> Registry:
    """Every plugin of OUT_OF_TREE_PLUGINS with its factory."""
    registry: Registry = {}
    for name, target in OUT_OF_TREE_PLUGINS.items():
        module_path, factory = target.split(":")
        module = importlib.import_module(f"{__package__}.{module_path}")
        registry[name] = getattr(module, factory)
    return registry


@plumbing("both registries merged, as kube-scheduler's command merges out-of-tree plugins")
def new_registry_with_out_of_tree(gates: Optional[Mapping[str, bool]] = None) -> Registry:
    """The in-tree registry merged with OUT_OF_TREE_PLUGINS (upstream app.WithPlugin for each)."""
    return merge_registries(new_in_tree_registry(gates), new_out_of_tree_registry())
