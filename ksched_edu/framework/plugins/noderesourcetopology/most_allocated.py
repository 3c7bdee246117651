"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/most_allocated.go (commit 37b7888a).

Scores one NUMA zone by how much of it the request would use:
``requested * 100 / available`` per resource, averaged with the configured
weights, so that pods pack into the fullest zones. A resource the zone lacks
(or cannot hold) scores 0.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ....anchors import SCHEDULER_PLUGINS, ports
from ....api.quantity import Quantity
from ....api.types import ResourceList
from ...interface import MAX_NODE_SCORE
from .gonum_stat import go_div

if TYPE_CHECKING:
    from .score import ResourceToWeightMap


@ports("pkg/noderesourcetopology/most_allocated.go", "mostAllocatedScoreStrategy", 25, 39, repo=SCHEDULER_PLUGINS)
def most_allocated_score_strategy(requested: ResourceList, allocatable: ResourceList,
                                  resource_to_weight_map: "ResourceToWeightMap") -> int:
    numa_node_score = 0
    weight_sum = 0
    for resource_name, quantity in requested.items():
        resource_score = most_allocated_score(quantity, allocatable.get(resource_name, Quantity.zero()))
        weight = resource_to_weight_map.weight(resource_name)
        numa_node_score += resource_score * weight
        weight_sum += weight
    return go_div(numa_node_score, weight_sum)


@ports("pkg/noderesourcetopology/most_allocated.go", "mostAllocatedScore", 45, 54, repo=SCHEDULER_PLUGINS)
def most_allocated_score(requested: Quantity, numa_capacity: Quantity) -> int:
    """0..100: the share of the zone the request takes; 0 when the zone has none or too little."""
    if numa_capacity.is_zero():
        return 0
    if requested.cmp(numa_capacity) > 0:
        return 0
    return go_div(requested.value() * MAX_NODE_SCORE, numa_capacity.value())
