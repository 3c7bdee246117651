"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/balanced_allocation.go (commit 37b7888a).

Scores one NUMA zone by how evenly the request would use its resources:
``(1 - variance) * 100`` of the requested/available fractions (the sample
variance, as gonum computes it). A zone that cannot hold one of the
resources scores 0; a resource the zone lacks counts as fully used.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ....anchors import SCHEDULER_PLUGINS, ports
from ....api.quantity import Quantity
from ....api.types import ResourceList
from ...interface import MAX_NODE_SCORE
from .gonum_stat import go_int64, variance

if TYPE_CHECKING:
    from .score import ResourceToWeightMap


@ports("pkg/noderesourcetopology/balanced_allocation.go", "balancedAllocationScoreStrategy", 27, 47, repo=SCHEDULER_PLUGINS)
def balanced_allocation_score_strategy(requested: ResourceList, allocatable: ResourceList,
                                       resource_to_weight_map: "ResourceToWeightMap") -> int:
    resource_fractions: list[float] = []
    # upstream: Go map order; the variance does not depend on it (up to rounding).
    for resource_name, quantity in requested.items():
        resource_fraction = fraction_of_capacity(quantity, allocatable.get(resource_name, Quantity.zero()))
        if resource_fraction > 1:
            return 0  # the zone should never be preferred
        resource_fractions.append(resource_fraction)
    v = variance(resource_fractions)
    # Fractions lie in [0, 1], so the variance does too: a lower variance scores higher.
    return go_int64((1 - v) * float(MAX_NODE_SCORE))


@ports("pkg/noderesourcetopology/balanced_allocation.go", "fractionOfCapacity", 49, 54, repo=SCHEDULER_PLUGINS)
def fraction_of_capacity(requested: Quantity, capacity: Quantity) -> float:
    if capacity.value() == 0:
        return 1.0
    return float(requested.value()) / float(capacity.value())
