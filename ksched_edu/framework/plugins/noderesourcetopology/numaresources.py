"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/numaresources.go (commit 37b7888a).

A node's NUMA cells as the plugin sees them: each with its id, what it has
``available`` of each resource, and its distances to the other cells. Also
the per-resource rules the filter follows: which resources must be bound to
a NUMA node (cpu, memory, hugepages), which may live at host level
(ephemeral storage, devices without NUMA affinity), and when a zone is good
enough for a request (only Guaranteed pods get NUMA-pinned cpu and memory).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ....anchors import SCHEDULER_PLUGINS, plumbing, ports
from ....api.quantity import Quantity
from ....api.types import RESOURCE_CPU, RESOURCE_EPHEMERAL_STORAGE, RESOURCE_MEMORY, ResourceList
from .qos import POD_QOS_GUARANTEED
from .v1helper import is_huge_page_resource_name, is_native_resource

RESOURCE_STORAGE = "storage"


@ports("pkg/noderesourcetopology/numaresources.go", "NUMANode", 32, 36, repo=SCHEDULER_PLUGINS)
@dataclass
class NUMANode:
    numa_id: int
    resources: ResourceList = field(default_factory=dict)
    costs: dict[int, int] = field(default_factory=dict)  # NUMA id -> distance

    @ports("pkg/noderesourcetopology/numaresources.go", "(*NUMANode).WithCosts", 38, 41, repo=SCHEDULER_PLUGINS)
    def with_costs(self, costs: dict[int, int]) -> "NUMANode":
        self.costs = costs
        return self

    @ports("pkg/noderesourcetopology/numaresources.go", "(NUMANode).DeepCopy", 43, 55, repo=SCHEDULER_PLUGINS)
    def deep_copy(self) -> "NUMANode":
        return NUMANode(self.numa_id, dict(self.resources), dict(self.costs))

    @ports("pkg/noderesourcetopology/numaresources.go", "(NUMANode).Equal", 57, 65, repo=SCHEDULER_PLUGINS)
    def equal(self, other: "NUMANode") -> bool:
        return (self.numa_id == other.numa_id and self.costs == other.costs
                and equal_resource_list(self.resources, other.resources))


NUMANodeList = list[NUMANode]


@ports("pkg/noderesourcetopology/numaresources.go", "equalResourceList", 67, 81, repo=SCHEDULER_PLUGINS)
def equal_resource_list(ra: ResourceList, rb: ResourceList) -> bool:
    """Same names, equal amounts (formats may differ)."""
    return len(ra) == len(rb) and all(k in rb and v.cmp(rb[k]) == 0 for k, v in ra.items())


@ports("pkg/noderesourcetopology/numaresources.go", "(NUMANodeList).DeepCopy", 85, 91, repo=SCHEDULER_PLUGINS)
def deep_copy_numa_node_list(nodes: NUMANodeList) -> NUMANodeList:
    return [n.deep_copy() for n in nodes]


@ports("pkg/noderesourcetopology/numaresources.go", "isHostLevelResource", 105, 118, repo=SCHEDULER_PLUGINS)
def is_host_level_resource(resource: str) -> bool:
    """A resource that *may* not be bound to a NUMA node: storage and non-native resources."""
    if resource == RESOURCE_EPHEMERAL_STORAGE:
        return True
    if resource == RESOURCE_STORAGE:
        return True
    if not is_native_resource(resource):
        return True
    return False


@ports("pkg/noderesourcetopology/numaresources.go", "isNUMAAffineResource", 120, 135, repo=SCHEDULER_PLUGINS)
def is_numa_affine_resource(resource: str) -> bool:
    """A resource that must be bound to a NUMA node: cpu, memory, hugepages.

    Devices are expected, not required, to report NUMA affinity, so they are not.
    """
    if resource == RESOURCE_CPU:
        return True
    if resource == RESOURCE_MEMORY:
        return True
    if is_huge_page_resource_name(resource):
        return True
    return False


@ports("pkg/noderesourcetopology/numaresources.go", "isResourceSetSuitable", 137, 142, repo=SCHEDULER_PLUGINS)
def is_resource_set_suitable(qos: str, resource: str, quantity: Quantity, numa_quantity: Quantity) -> bool:
    """Whether a zone with ``numa_quantity`` left can hold ``quantity`` of ``resource``.

    A non-Guaranteed pod's cpu, memory and hugepages are not pinned to a NUMA
    node, so any zone will do for them.
    """
    if qos != POD_QOS_GUARANTEED and is_numa_affine_resource(resource):
        return True
    return numa_quantity.cmp(quantity) >= 0


@plumbing("Python exception for the accounting error upstream returns as a value")
class ResourceAccountingError(Exception):
    """A container's request exceeds what its chosen NUMA node has (should never happen)."""


@ports("pkg/noderesourcetopology/numaresources.go", "subtractResourcesFromNUMANodeList", 145, 182, repo=SCHEDULER_PLUGINS)
def subtract_resources_from_numa_node_list(nodes: NUMANodeList, numa_id: int, qos: str,
                                           container_res: ResourceList) -> None:
    """Take a container's request out of NUMA node ``numa_id`` in place.

    Raises ResourceAccountingError, with upstream's message, if an amount
    would go negative.
    """
    for node in nodes:
        if node.numa_id != numa_id:
            continue
        for res_name, res_qty in container_res.items():
            is_affine = is_numa_affine_resource(res_name)
            if qos != POD_QOS_GUARANTEED and is_affine:
                continue  # not pinned: the kubelet takes it from the shared pool
            if res_qty.is_zero():
                continue
            n_res_q = node.resources.get(res_name)
            if n_res_q is None:
                continue
            node_res_qty = n_res_q - res_qty
            if node_res_qty.sign() < 0:
                raise ResourceAccountingError(
                    f'resource "{res_name}" request {res_qty} exceeds NUMA {numa_id} availability {n_res_q}')
            node.resources[res_name] = node_res_qty


@ports("pkg/noderesourcetopology/numaresources.go", "subtractFromNUMAs", 184, 215, repo=SCHEDULER_PLUGINS)
def subtract_from_numas(resources: ResourceList, numa_nodes: NUMANodeList, *nodes: int) -> None:
    """Take ``resources`` out of the NUMA nodes at positions ``nodes``, emptying each in turn.

    As upstream, ``nodes`` index the list (callers pass NUMA ids, which are
    positions when the ids are 0, 1, 2, ...).
    """
    for res_name, quantity in resources.items():
        for node in nodes:
            if quantity.is_zero():
                break  # this resource is fully placed
            n_res = numa_nodes[node].resources
            available = n_res.get(res_name)
            if available is None:
                continue
            if quantity.cmp(available) >= 0:
                # the zone gives all it has; the rest comes from the next zone
                quantity = quantity - available
                n_res[res_name] = Quantity.zero()
            else:
                n_res[res_name] = available - quantity
                quantity = Quantity.zero()
