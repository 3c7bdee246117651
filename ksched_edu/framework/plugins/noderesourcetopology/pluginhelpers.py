"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/pluginhelpers.go (commit 37b7888a).

Builds the plugin's NodeResourceTopology cache from its args, and turns a
node's zones into the NUMANode list that filtering and scoring work on: one
entry per zone of type ``Node`` named ``node-<id>``, holding what the zone
has ``available`` and its distances to the other NUMA nodes.

Deviations:
- Only the passthrough cache is ported: ``discardReservedNodes`` or a
  ``cacheResyncPeriodSeconds`` above 0 (which need the reserve cache, its
  resync loop and foreign-pod detection) are refused when the plugin is built.
- A zone named ``node-64`` is skipped with the larger ids (upstream indexes
  past its 64-entry lookup table there and panics).
"""
from __future__ import annotations

from typing import Any

from ....anchors import SCHEDULER_PLUGINS, ports
from ....api.noderesourcetopology import CostInfo, Zone, name_to_id
from ....api.types import ResourceList
from .cache.passthrough import new_passthrough
from .config import NodeResourceTopologyMatchArgs
from .numaresources import NUMANode, NUMANodeList

MAX_NUMA_ID = 64


@ports("pkg/noderesourcetopology/pluginhelpers.go", "initNodeTopologyInformer", 45, 76, repo=SCHEDULER_PLUGINS)
def init_node_topology_informer(tcfg: NodeResourceTopologyMatchArgs, handle: Any) -> Any:
    """The cache the args ask for; only the passthrough one (no reserve cache) exists here."""
    client = handle.object_lister()
    if tcfg.discard_reserved_nodes:
        raise ValueError("discardReservedNodes: the DiscardReserved cache is not ported (passthrough only)")
    if (tcfg.cache_resync_period_seconds or 0) <= 0:
        return new_passthrough(client)
    raise ValueError("cacheResyncPeriodSeconds: the OverReserve cache is not ported (passthrough only)")


@ports("pkg/noderesourcetopology/pluginhelpers.go", "createNUMANodeList", 103, 132, repo=SCHEDULER_PLUGINS)
def create_numa_node_list(zones: list[Zone]) -> NUMANodeList:
    """One NUMANode per ``Node`` zone with a valid ``node-<id>`` name, in zone order."""
    numa_id_to_zone_idx: dict[int, int] = {}
    nodes: NUMANodeList = []
    for i, zone in enumerate(zones):
        if zone.type != "Node":
            continue
        try:
            numa_id = name_to_id(zone.name)
        except ValueError:
            continue  # upstream: logged
        if numa_id >= MAX_NUMA_ID:  # upstream: > maxNUMAId (see Deviations)
            continue
        numa_id_to_zone_idx[numa_id] = i
        nodes.append(NUMANode(numa_id=numa_id, resources=extract_resources(zone)))
    for node in nodes:
        node.with_costs(extract_costs(zones[numa_id_to_zone_idx[node.numa_id]].costs))
    return nodes


@ports("pkg/noderesourcetopology/pluginhelpers.go", "extractCosts", 134, 151, repo=SCHEDULER_PLUGINS)
def extract_costs(costs: list[CostInfo]) -> dict[int, int]:
    """NUMA id -> distance, for the cost entries named ``node-<id>``."""
    node_costs: dict[int, int] = {}
    for cost in costs:
        try:
            numa_id = name_to_id(cost.name)
        except ValueError:
            continue
        if numa_id > MAX_NUMA_ID:
            continue
        node_costs[numa_id] = cost.value
    return node_costs


@ports("pkg/noderesourcetopology/pluginhelpers.go", "extractResources", 153, 159, repo=SCHEDULER_PLUGINS)
def extract_resources(zone: Zone) -> ResourceList:
    """What the zone has ``available``, by resource name."""
    return {res_info.name: res_info.available for res_info in zone.resources}


@ports("pkg/noderesourcetopology/pluginhelpers.go", "onlyNonNUMAResources", 161, 171, repo=SCHEDULER_PLUGINS)
def only_non_numa_resources(numa_nodes: NUMANodeList, resources: ResourceList) -> bool:
    """True when no requested resource is reported by any NUMA node (also for no request)."""
    for resource_name in resources:
        for node in numa_nodes:
            if resource_name in node.resources:
                return False
    return True
