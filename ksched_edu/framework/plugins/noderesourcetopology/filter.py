"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/filter.go (commit 37b7888a).

The Filter of NodeResourceTopologyMatch: a simplified Topology Manager admit
check, run on the node's NodeResourceTopology. Only the kubelet policy
``single-numa-node`` constrains anything: with scope ``container`` every
container (init containers checked one by one, app containers taking their
share from the NUMA node they land on) must fit in one NUMA node; with scope
``pod`` the pod's effective request must fit in one NUMA node. A node
without a NodeResourceTopology, or with another policy, passes.

Deviations:
- No logging (upstream logs every step at high verbosity).
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from ....anchors import SCHEDULER_PLUGINS, plumbing, ports
from ....api.noderesourcetopology import Zone
from ....api.types import Pod, ResourceList
from ...cycle_state import CycleState
from ...interface import Code, Status, new_status
from ...types import NodeInfo
from .bitmask import new_empty_bit_mask
from .kubeletconfig import (CONTAINER_TOPOLOGY_MANAGER_SCOPE, POD_TOPOLOGY_MANAGER_SCOPE,
                            SINGLE_NUMA_NODE_TOPOLOGY_MANAGER_POLICY)
from .nodeconfig.topologymanager import TopologyManager, topology_manager_from_node_resource_topology
from .numaresources import (NUMANodeList, ResourceAccountingError, is_host_level_resource,
                            is_resource_set_suitable, subtract_resources_from_numa_node_list)
from .pluginhelpers import create_numa_node_list
from .qos import POD_QOS_BEST_EFFORT, get_pod_qos
from .resourcerequests.exclusive import include_non_native
from .util import get_pod_effective_request, resource_list

# The Topology Manager handles at most 8 NUMA nodes; this id means "none chosen".
HIGHEST_NUMA_ID = 8

ERR_NODE_NOT_FOUND = "node not found"
ERR_INVALID_NODE_TOPOLOGY = "invalid node topology data"
ERR_CANNOT_ALIGN_INIT_CONTAINER = "cannot align init container"
ERR_CANNOT_ALIGN_CONTAINER = "cannot align container"
ERR_CANNOT_ALIGN_POD = "cannot align pod"
ERR_INCONSISTENT_RESOURCE_ACCOUNTING = "inconsistent resource accounting"

FilterFn = Callable[[Pod, list[Zone], NodeInfo], Optional[Status]]


@ports("pkg/noderesourcetopology/filter.go", "singleNUMAContainerLevelHandler", 44, 91, repo=SCHEDULER_PLUGINS)
def single_numa_container_level_handler(pod: Pod, zones: list[Zone], node_info: NodeInfo) -> Optional[Status]:
    """Scope ``container``: each container must fit in one NUMA node."""
    nodes = create_numa_node_list(zones)
    qos = get_pod_qos(pod)

    # Init containers run one after the other and before the app containers,
    # so each is checked alone and takes nothing away.
    for init_container in pod.spec.init_containers:
        _, match = resources_available_in_any_numa_nodes(nodes, init_container.resources.requests, qos, node_info)
        if not match:
            return new_status(Code.Unschedulable, ERR_CANNOT_ALIGN_INIT_CONTAINER)

    for container in pod.spec.containers:
        numa_id, match = resources_available_in_any_numa_nodes(nodes, container.resources.requests, qos, node_info)
        if not match:
            return new_status(Code.Unschedulable, ERR_CANNOT_ALIGN_CONTAINER)
        # the next containers must not count on what this one took
        try:
            subtract_resources_from_numa_node_list(nodes, numa_id, qos, container.resources.requests)
        except ResourceAccountingError as err:  # should never happen
            return new_status(Code.Error, ERR_INCONSISTENT_RESOURCE_ACCOUNTING, str(err))
    return None


@ports("pkg/noderesourcetopology/filter.go", "resourcesAvailableInAnyNUMANodes", 95, 161, repo=SCHEDULER_PLUGINS)
def resources_available_in_any_numa_nodes(numa_nodes: NUMANodeList, resources: ResourceList, qos: str,
                                          node_info: NodeInfo) -> tuple[int, bool]:
    """Whether one NUMA node can hold all of ``resources``, and which one the kubelet would pick.

    Each requested resource narrows a mask of NUMA nodes; the kubelet takes the
    lowest id left (the narrowest affinity). A resource no NUMA node reports is
    fine when it lives at host level (storage, devices without NUMA affinity),
    but it must exist on the node.
    """
    numa_id = HIGHEST_NUMA_ID
    bitmask = new_empty_bit_mask()
    bitmask.fill()  # every NUMA node, until a resource rules it out

    node_resources = resource_list(node_info.allocatable)

    # upstream: Go map order; the verdict does not depend on the order.
    for resource, quantity in resources.items():
        if quantity.is_zero():
            continue
        if resource not in node_resources:
            # every resource is reported at node level, NUMA-aware or not
            return numa_id, False

        has_numa_affinity = False
        resource_bitmask = new_empty_bit_mask()
        for numa_node in numa_nodes:
            numa_quantity = numa_node.resources.get(resource)
            if numa_quantity is None:
                continue
            has_numa_affinity = True
            if not is_resource_set_suitable(qos, resource, quantity, numa_quantity):
                continue
            resource_bitmask.add(numa_node.numa_id)

        if not has_numa_affinity and is_host_level_resource(resource):
            continue

        bitmask.and_(resource_bitmask)
        if bitmask.is_empty():
            return numa_id, False

    numa_id = bitmask.get_bits()[0]
    return numa_id, not bitmask.is_empty()


@ports("pkg/noderesourcetopology/filter.go", "singleNUMAPodLevelHandler", 163, 181, repo=SCHEDULER_PLUGINS)
def single_numa_pod_level_handler(pod: Pod, zones: list[Zone], node_info: NodeInfo) -> Optional[Status]:
    """Scope ``pod``: the pod's effective request must fit in one NUMA node."""
    resources = get_pod_effective_request(pod)
    _, match = resources_available_in_any_numa_nodes(create_numa_node_list(zones), resources, get_pod_qos(pod),
                                                     node_info)
    if not match:
        return new_status(Code.Unschedulable, ERR_CANNOT_ALIGN_POD)
    return None


@ports("pkg/noderesourcetopology/filter.go", "filterHandlerFromTopologyManager", 223, 234, repo=SCHEDULER_PLUGINS)
def filter_handler_from_topology_manager(conf: TopologyManager) -> Optional[FilterFn]:
    """Only ``single-numa-node`` is checked; the scope picks the handler."""
    if conf.policy != SINGLE_NUMA_NODE_TOPOLOGY_MANAGER_POLICY:
        return None
    if conf.scope == POD_TOPOLOGY_MANAGER_SCOPE:
        return single_numa_pod_level_handler
    if conf.scope == CONTAINER_TOPOLOGY_MANAGER_SCOPE:
        return single_numa_container_level_handler
    return None  # cannot happen


@plumbing("holds the TopologyMatch method of filter.go as one Python mixin")
class TopologyMatchFilter:
    """The Filter method of TopologyMatch (plugin.py); needs ``self.nrt_cache``."""

    nrt_cache: Any

    @ports("pkg/noderesourcetopology/filter.go", "(*TopologyMatch).Filter", 184, 221, repo=SCHEDULER_PLUGINS)
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        node = node_info.node()
        if node is None:
            return new_status(Code.Error, ERR_NODE_NOT_FOUND)
        if get_pod_qos(pod) == POD_QOS_BEST_EFFORT and not include_non_native(pod):
            return None  # nothing of this pod is pinned to a NUMA node

        node_name = node.metadata.name
        node_topology, ok = self.nrt_cache.get_cached_nrt_copy(node_name, pod)
        if not ok:
            return new_status(Code.Unschedulable, ERR_INVALID_NODE_TOPOLOGY)
        if node_topology is None:
            return None

        conf = topology_manager_from_node_resource_topology(node_topology)
        handler = filter_handler_from_topology_manager(conf)
        if handler is None:
            return None
        status = handler(pod, node_topology.zones, node_info)
        if status is not None:
            self.nrt_cache.node_maybe_over_reserved(node_name, pod)
        return status
