"""Port of pkg/scheduler/framework/plugins/noderesources/requested_to_capacity_ratio.go (v1.30).

The RequestedToCapacityRatio strategy: each resource's utilization after
placing the pod (0..100) goes through a user-given broken-linear shape, and the
node's score is the weighted average of the resources that scored above 0,
rounded. Shape scores are given on 0..10 and scaled by 10 onto 0..100.
"""
from __future__ import annotations

from typing import Any

from .... import goint
from ....anchors import ports
from ....config.types import MAX_CUSTOM_PRIORITY_SCORE
from ...interface import MAX_NODE_SCORE
from ..helper.shape_score import FunctionShape, FunctionShapePoint, build_broken_linear_function
from .resource_allocation import ResourceScorerFn

MAX_UTILIZATION = 100
# Up to this capacity, requested * MAX_UTILIZATION (requested <= capacity) fits an int64.
_NO_OVERFLOW_CAPACITY = goint.MAX_INT64 // MAX_UTILIZATION


@ports("pkg/scheduler/framework/plugins/noderesources/requested_to_capacity_ratio.go", "buildRequestedToCapacityRatioScorerFunction", 31, 58)
def build_requested_to_capacity_ratio_scorer_function(scoring_function_shape: FunctionShape,
                                                      resources: list[Any]) -> ResourceScorerFn:
    raw_scoring_function = build_broken_linear_function(scoring_function_shape)

    def resource_scoring_function(requested: int, capacity: int) -> int:
        if capacity == 0 or requested > capacity:
            return raw_scoring_function(MAX_UTILIZATION)
        if capacity > _NO_OVERFLOW_CAPACITY:
            # upstream: the int64 product wraps; a negative utilization scores as the first point.
            return raw_scoring_function(goint.div(goint.wrap64(requested * MAX_UTILIZATION), capacity))
        return raw_scoring_function(requested * MAX_UTILIZATION // capacity)

    def scorer(requested: list[int], allocatable: list[int]) -> int:
        node_score = weight_sum = 0
        for i in range(len(requested)):
            if allocatable[i] == 0:
                continue
            weight = resources[i].weight
            resource_score = resource_scoring_function(requested[i], allocatable[i])
            # A resource scoring 0 does not count towards the average at all.
            if resource_score > 0:
                node_score += resource_score * weight
                weight_sum += weight
        if weight_sum == 0:
            return 0
        # Shape scores and weights are small and non-negative: no int64 concern here.
        return int(goint.round_half_away(float(node_score) / float(weight_sum)))

    return scorer


@ports("pkg/scheduler/framework/plugins/noderesources/requested_to_capacity_ratio.go", "requestedToCapacityRatioScorer", 60, 73)
def requested_to_capacity_ratio_scorer(resources: list[Any], shape: list[Any]) -> ResourceScorerFn:
    """Scale the configured shape (``.utilization``, ``.score`` on 0..10) to 0..100 and build the scorer."""
    shapes = [FunctionShapePoint(utilization=int(point.utilization),
                                 score=int(point.score) * (MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE))
              for point in shape]
    return build_requested_to_capacity_ratio_scorer_function(shapes, resources)
