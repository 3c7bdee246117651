"""Port of pkg/scheduler/framework/plugins/noderesources/least_allocated.go (v1.30).

The LeastAllocated strategy (the default): a node scores higher the more of
each resource stays free after placing the pod, as a weighted average of
``(capacity - requested) * 100 / capacity`` over the configured resources.
"""
from __future__ import annotations

from typing import Any

from .... import goint
from ....anchors import ports
from ...interface import MAX_NODE_SCORE
from .resource_allocation import ResourceScorerFn

# Up to this capacity, (capacity - requested) * MAX_NODE_SCORE fits an int64.
_NO_OVERFLOW_CAPACITY = goint.MAX_INT64 // MAX_NODE_SCORE


@ports("pkg/scheduler/framework/plugins/noderesources/least_allocated.go", "leastResourceScorer", 30, 47)
def least_resource_scorer(resources: list[Any]) -> ResourceScorerFn:
    """A scorer weighting each resource's free share by ``resources[i].weight``."""

    weights = [r.weight for r in resources]

    def scorer(requested: list[int], allocatable: list[int]) -> int:
        node_score = weight_sum = 0
        for req, alloc, weight in zip(requested, allocatable, weights):
            if alloc == 0:
                continue
            if 0 <= req <= alloc <= _NO_OVERFLOW_CAPACITY:  # least_requested_score's common case, inline
                node_score += (alloc - req) * MAX_NODE_SCORE // alloc * weight
            else:
                node_score += least_requested_score(req, alloc) * weight
            weight_sum += weight
        if weight_sum == 0:
            return 0
        # node_score is negative only after a wrapped resource score; Go divides toward zero.
        return node_score // weight_sum if node_score >= 0 else goint.div(node_score, weight_sum)

    return scorer


@ports("pkg/scheduler/framework/plugins/noderesources/least_allocated.go", "leastRequestedScore", 52, 61)
def least_requested_score(requested: int, capacity: int) -> int:
    """Free capacity on a 0..MAX_NODE_SCORE scale; 0 when over-requested."""
    if capacity == 0:
        return 0
    if requested > capacity:
        return 0
    if capacity > _NO_OVERFLOW_CAPACITY:
        # upstream: the int64 product wraps (a capacity above ~92 PB of memory, or a huge
        # extended resource), and the wrapped value is divided toward zero.
        return goint.div(goint.wrap64((capacity - requested) * MAX_NODE_SCORE), capacity)
    return (capacity - requested) * MAX_NODE_SCORE // capacity  # 0 <= requested <= capacity
