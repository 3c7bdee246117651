"""Port of pkg/scheduler/framework/plugins/helper/shape_score.go (v1.30).

A broken-linear function given by points ``(utilization, score)`` sorted by
utilization: flat before the first point and after the last, straight lines
in between. RequestedToCapacityRatio scores a node's utilization with it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .... import goint
from ....anchors import ports


@ports("pkg/scheduler/framework/plugins/helper/shape_score.go", "FunctionShapePoint", 23, 28)
@dataclass(frozen=True)
class FunctionShapePoint:
    utilization: int  # the function's argument
    score: int  # the function's value


FunctionShape = list[FunctionShapePoint]


@ports("pkg/scheduler/framework/plugins/helper/shape_score.go", "BuildBrokenLinearFunction", 40, 52)
def build_broken_linear_function(shape: FunctionShape) -> Callable[[int], int]:
    """The function through ``shape``'s points, in integer arithmetic.

    The shape must be sorted by increasing utilization and not empty (the
    args validation guarantees both).
    """

    def fn(p: int) -> int:
        for i, point in enumerate(shape):
            if p <= point.utilization:
                if i == 0:
                    return shape[0].score
                prev = shape[i - 1]
                # A falling segment makes the numerator negative: Go divides toward zero.
                return prev.score + goint.div((point.score - prev.score) * (p - prev.utilization),
                                              point.utilization - prev.utilization)
        return shape[-1].score

    return fn
