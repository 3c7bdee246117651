"""Port of pkg/scheduler/framework/plugins/noderesources/resource_allocation.go (v1.30).

The machinery shared by every resource scorer (LeastAllocated, MostAllocated,
RequestedToCapacityRatio, BalancedAllocation): for each configured resource it
finds the node's allocatable amount and what would be requested once the pod
lands, then hands the two lists to a strategy function.

NodeResourcesFit scores with ``use_requested=False``: CPU and memory come from
the node's *non-zero* requests, and a container that asks for no CPU or memory
counts as asking for 100m and 200Mi. BalancedAllocation uses the real requests.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ....anchors import ports
from ....api.quantity import Quantity
from ....api.resource import DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST, pod_requests
from ....api.types import RESOURCE_CPU, RESOURCE_EPHEMERAL_STORAGE, RESOURCE_MEMORY, Pod
from ...interface import Code, Status, new_status
from ...types import NodeInfo, is_scalar_resource_name

# A strategy: (requested per resource, allocatable per resource) -> node score.
ResourceScorerFn = Callable[[list[int], list[int]], int]


@ports("pkg/scheduler/framework/plugins/noderesources/resource_allocation.go", "resourceAllocationScorer", 38, 45)
@dataclass
class ResourceAllocationScorer:
    """Upstream resourceAllocationScorer."""

    name: str
    scorer: ResourceScorerFn
    # ResourceSpec-like objects with ``.name`` and ``.weight``, in config order.
    resources: list[Any] = field(default_factory=list)
    # Read Requested (True) or NonZeroRequested (False) for cpu and memory.
    use_requested: bool = False
    # Speed only: the resources are cpu and memory, in that order (see score).
    _cpu_and_memory: bool = field(init=False, repr=False, compare=False, default=False)

    def __post_init__(self) -> None:
        self._cpu_and_memory = [r.name for r in self.resources] == [RESOURCE_CPU, RESOURCE_MEMORY]

    @ports("pkg/scheduler/framework/plugins/noderesources/resource_allocation.go", "(*resourceAllocationScorer).score", 48, 83)
    def score(self, pod: Pod, node_info: NodeInfo, pod_requests_list: list[int]) -> tuple[int, Optional[Status]]:
        """The strategy's score of ``node_info`` for ``pod``.

        ``pod_requests_list`` holds the pod's request for each configured resource,
        in the order of ``self.resources`` (see calculate_pod_resource_request_list).
        """
        if not self.resources:
            return 0, new_status(Code.Error, "resources not found")

        if self._cpu_and_memory:
            # Speed only: the two resources of nearly every scorer, read directly as
            # calculate_resource_allocatable_request reads them (a node without one counts 0 for it).
            on_node = node_info.requested if self.use_requested else node_info.non_zero_requested
            alloc_cpu, alloc_memory = node_info.allocatable.milli_cpu, node_info.allocatable.memory
            return self.scorer([on_node.milli_cpu + pod_requests_list[0] if alloc_cpu else 0,
                                on_node.memory + pod_requests_list[1] if alloc_memory else 0],
                               [alloc_cpu, alloc_memory]), None

        requested = [0] * len(self.resources)
        allocatable = [0] * len(self.resources)
        for i, res in enumerate(self.resources):
            alloc, req = self.calculate_resource_allocatable_request(node_info, res.name, pod_requests_list[i])
            # Only fill the extended resource entry when it's non-zero.
            if alloc == 0:
                continue
            allocatable[i] = alloc
            requested[i] = req

        return self.scorer(requested, allocatable), None

    @ports("pkg/scheduler/framework/plugins/noderesources/resource_allocation.go", "(*resourceAllocationScorer).calculateResourceAllocatableRequest", 89, 114)
    def calculate_resource_allocatable_request(self, node_info: NodeInfo, resource: str,
                                               pod_request: int) -> tuple[int, int]:
        """(allocatable on the node, node's requested + pod's request) for one resource.

        (0, 0) for an extended resource the pod does not request, and for a
        resource the node does not have.
        """
        requested = node_info.requested if self.use_requested else node_info.non_zero_requested

        if pod_request == 0 and is_scalar_resource_name(resource):
            return 0, 0
        if resource == RESOURCE_CPU:
            return node_info.allocatable.milli_cpu, requested.milli_cpu + pod_request
        if resource == RESOURCE_MEMORY:
            return node_info.allocatable.memory, requested.memory + pod_request
        if resource == RESOURCE_EPHEMERAL_STORAGE:
            return node_info.allocatable.ephemeral_storage, node_info.requested.ephemeral_storage + pod_request
        if resource in node_info.allocatable.scalar_resources:
            return (node_info.allocatable.scalar_resources[resource],
                    node_info.requested.scalar_resources.get(resource, 0) + pod_request)
        # upstream: logged at V(10) "Requested resource is omitted for node score calculation".
        return 0, 0

    @ports("pkg/scheduler/framework/plugins/noderesources/resource_allocation.go", "(*resourceAllocationScorer).calculatePodResourceRequest", 118, 137)
    def calculate_pod_resource_request(self, pod: Pod, resource_name: str) -> int:
        """The pod's total request for one resource, overhead included.

        Without ``use_requested``, a container missing a cpu or memory request
        is taken to ask for the defaults (100m, 200Mi); an explicit 0 stays 0.
        """
        non_missing = None
        if not self.use_requested:
            non_missing = {
                RESOURCE_CPU: Quantity.from_milli(DEFAULT_MILLI_CPU_REQUEST),
                RESOURCE_MEMORY: Quantity.from_int(DEFAULT_MEMORY_REQUEST),
            }
        # upstream: InPlacePodVerticalScaling is off in v1.30, so container statuses are not read.
        requests = pod_requests(pod, non_missing_container_requests=non_missing)

        quantity = requests.get(resource_name, Quantity.zero())
        if resource_name == RESOURCE_CPU:
            return quantity.milli_value()
        return quantity.value()

    @ports("pkg/scheduler/framework/plugins/noderesources/resource_allocation.go", "(*resourceAllocationScorer).calculatePodResourceRequestList", 139, 145)
    def calculate_pod_resource_request_list(self, pod: Pod, resources: list[Any]) -> list[int]:
        return [self.calculate_pod_resource_request(pod, r.name) for r in resources]
