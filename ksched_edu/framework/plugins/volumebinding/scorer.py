"""Port of pkg/scheduler/framework/plugins/volumebinding/scorer.go (v1.30.4): the
VolumeCapacityPriority scorer.

Behind the alpha VolumeCapacityPriority gate (off in v1.30): a node scores by how
full the statically bound volumes would be, per storage class, through the
``shape`` of VolumeBindingArgs (a broken linear function of utilization). All
classes weigh the same; the node's score is their mean, rounded.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ....anchors import ports
from ....goint import div, round_half_away
from ..helper.shape_score import FunctionShape, build_broken_linear_function

MAX_UTILIZATION = 100


@ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "StorageResource", 88, 91)
@dataclass
class StorageResource:
    """Storage asked for by the claims and offered by their volumes, in bytes."""

    requested: int = 0
    capacity: int = 0


ClassResourceMap = dict[str, StorageResource]
VolumeCapacityScorer = Callable[[ClassResourceMap], int]


@ports("pkg/scheduler/framework/plugins/volumebinding/scorer.go", "buildScorerFunction", 32, 54)
def build_scorer_function(shape: FunctionShape) -> VolumeCapacityScorer:
    """A scorer of a node's classes: the shape at each class's utilization, averaged over the classes."""
    raw = build_broken_linear_function(shape)

    def class_score(requested: int, capacity: int) -> int:
        if capacity == 0 or requested > capacity:
            return raw(MAX_UTILIZATION)
        return raw(div(requested * MAX_UTILIZATION, capacity))

    def scorer(class_resources: ClassResourceMap) -> int:
        # upstream: "in alpha stage, all classes have the same weight"
        if not class_resources:
            return 0
        total = sum(class_score(r.requested, r.capacity) for r in class_resources.values())
        return int(round_half_away(total / len(class_resources)))

    return scorer
