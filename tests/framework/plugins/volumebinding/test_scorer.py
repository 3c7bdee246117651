"""The VolumeCapacityPriority scorer (volumebinding/scorer.go), behind its alpha gate.

Rows in the manner of upstream's scorer_test.go ``TestScore``: a shape, the
per-class requested/capacity of a node's static bindings, the node's score.
"""
from __future__ import annotations

import pytest

from ksched_edu.config.types_pluginargs import UtilizationShapePoint, VolumeBindingArgs
from ksched_edu.framework.plugins.helper.shape_score import FunctionShapePoint
from ksched_edu.framework.plugins.volumebinding.scorer import StorageResource, build_scorer_function
from ksched_edu.framework.plugins.feature import Features
from ksched_edu.framework.plugins.volumebinding.volume_binding import new

GI = 1 << 30
RISING = [FunctionShapePoint(0, 0), FunctionShapePoint(100, 100)]  # the default shape, scaled to 0..100
FALLING = [FunctionShapePoint(0, 100), FunctionShapePoint(100, 0)]


@pytest.mark.parametrize("shape,classes,score", [
    (RISING, {}, 0),
    (RISING, {"hdd": StorageResource(50 * GI, 100 * GI)}, 50),
    (RISING, {"hdd": StorageResource(0, 100 * GI)}, 0),
    (RISING, {"hdd": StorageResource(101 * GI, 100 * GI)}, 100),  # more than the capacity: full
    (RISING, {"hdd": StorageResource(1, 0)}, 100),  # no capacity: full
    (RISING, {"hdd": StorageResource(30, 100), "ssd": StorageResource(61, 100)}, 46),  # 45.5 rounds away
    (RISING, {"hdd": StorageResource(1, 3)}, 33),  # 100/3 truncated before the shape
    (FALLING, {"hdd": StorageResource(25 * GI, 100 * GI)}, 75),
    (FALLING, {"hdd": StorageResource(25, 100), "ssd": StorageResource(100, 100)}, 38),  # (75 + 0) / 2 = 37.5
], ids=["no class", "half full", "empty", "over capacity", "zero capacity", "two classes round half away",
        "integer division", "falling shape", "falling shape, two classes"])
def test_score(shape, classes, score):
    assert build_scorer_function(shape)(classes) == score


SHAPE = [UtilizationShapePoint(0, 0), UtilizationShapePoint(100, 10)]


@pytest.mark.parametrize("gate,shape,want", [
    (False, None, "no scorer"),
    (True, SHAPE, 80),  # the shape's 0..10 scores scaled to 0..100
    (False, SHAPE, "refused"),
], ids=["gate off: PreScore skips", "gate on: the args' shape scores", "gate off: a shape is refused"])
def test_new_builds_the_scorer_only_with_volume_capacity_priority(gate, shape, want):
    """volume_binding.go New: validation allows a shape, and New builds the score
    function, only when fts.EnableVolumeCapacityPriority is on."""
    args = VolumeBindingArgs(bind_timeout_seconds=600, shape=shape)
    fts = Features(enable_volume_capacity_priority=gate)
    if want == "refused":
        with pytest.raises(ValueError, match="shape"):
            new(args, None, fts)
        return
    pl = new(args, None, fts)
    if want == "no scorer":
        assert pl.scorer is None
    else:
        assert pl.scorer({"hdd": StorageResource(80, 100)}) == want
