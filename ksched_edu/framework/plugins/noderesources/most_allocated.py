"""Port of pkg/scheduler/framework/plugins/noderesources/most_allocated.go (v1.30).

The MostAllocated strategy (bin packing): a node scores higher the more of each
resource would be in use after placing the pod, as a weighted average of
``requested * 100 / capacity`` over the configured resources.
"""
from __future__ import annotations

from typing import Any

from .... import goint
from ....anchors import ports
from ...interface import MAX_NODE_SCORE
from .resource_allocation import ResourceScorerFn

# Up to this capacity, requested * MAX_NODE_SCORE (requested <= capacity) fits an int64.
_NO_OVERFLOW_CAPACITY = goint.MAX_INT64 // MAX_NODE_SCORE


@ports("pkg/scheduler/framework/plugins/noderesources/most_allocated.go", "mostResourceScorer", 30, 47)
def most_resource_scorer(resources: list[Any]) -> ResourceScorerFn:
    """A scorer weighting each resource's used share by ``resources[i].weight``."""

    def scorer(requested: list[int], allocatable: list[int]) -> int:
        node_score = weight_sum = 0
        for i in range(len(requested)):
            if allocatable[i] == 0:
                continue
            weight = resources[i].weight
            node_score += most_requested_score(requested[i], allocatable[i]) * weight
            weight_sum += weight
        if weight_sum == 0:
            return 0
        # node_score is negative only after a wrapped resource score; Go divides toward zero.
        return node_score // weight_sum if node_score >= 0 else goint.div(node_score, weight_sum)

    return scorer


@ports("pkg/scheduler/framework/plugins/noderesources/most_allocated.go", "mostRequestedScore", 54, 65)
def most_requested_score(requested: int, capacity: int) -> int:
    """Used capacity on a 0..MAX_NODE_SCORE scale, capped at MAX_NODE_SCORE.

    ``requested`` may exceed ``capacity`` because pods without requests count
    the non-zero defaults.
    """
    if capacity == 0:
        return 0
    if requested > capacity:
        requested = capacity
    if capacity > _NO_OVERFLOW_CAPACITY:
        # upstream: the int64 product wraps, and the wrapped value is divided toward zero.
        return goint.div(goint.wrap64(requested * MAX_NODE_SCORE), capacity)
    return requested * MAX_NODE_SCORE // capacity  # 0 <= requested <= capacity
