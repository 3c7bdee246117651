"""The noderesources scorers' int64 arithmetic, as upstream computes it (v1.30).

leastRequestedScore, mostRequestedScore and RequestedToCapacityRatio's
resourceScoringFunction multiply a resource amount by 100 in int64 before
dividing by the capacity. Past MaxInt64 / 100 (about 92 PB of memory, or a
huge extended resource count) the product wraps, and Go's division of the
wrapped, negative value truncates toward zero.
"""
import pytest

from ksched_edu.config.types_pluginargs import ResourceSpec, UtilizationShapePoint
from ksched_edu.framework.plugins.noderesources.least_allocated import least_requested_score, least_resource_scorer
from ksched_edu.framework.plugins.noderesources.most_allocated import most_requested_score, most_resource_scorer
from ksched_edu.framework.plugins.noderesources.requested_to_capacity_ratio import (
    requested_to_capacity_ratio_scorer)

MAX64 = 2**63 - 1
BIG = 10**17  # above MaxInt64 / 100


@pytest.mark.parametrize("requested,capacity,want", [
    (0, 4000, 100), (1000, 4000, 75), (4001, 4000, 0),
    (MAX64 // 100, MAX64 // 100, 0),               # the largest capacity that cannot wrap
    (0, BIG, -84),                                 # 10^19 wraps to 10^19 - 2^64; / 10^17 toward zero
    (BIG // 2, BIG, 50),                           # 5 * 10^18 still fits
    (0, MAX64, 0),                                 # MaxInt64 * 100 wraps to -100: -100 / MaxInt64 is 0
])
def test_least_requested_score(requested, capacity, want):
    """Mirrors leastRequestedScore (least_allocated.go)."""
    assert least_requested_score(requested, capacity) == want


@pytest.mark.parametrize("requested,capacity,want", [
    (1000, 4000, 25), (5000, 4000, 100),
    (BIG, BIG, -84),                               # requested * 100 wraps like capacity above
    (BIG // 10, BIG, 10),
])
def test_most_requested_score(requested, capacity, want):
    """Mirrors mostRequestedScore (most_allocated.go)."""
    assert most_requested_score(requested, capacity) == want


RES = [ResourceSpec("cpu", 1), ResourceSpec("example.com/foo", 3)]


@pytest.mark.parametrize("scorer,requested,allocatable,want", [
    # cpu scores 50; the extended resource's wrapped score is -84: (50 * 1 - 84 * 3) / 4 = -50.5 -> -50
    (least_resource_scorer, [2000, 0], [4000, BIG], -50),
    (most_resource_scorer, [2000, BIG], [4000, BIG], -50),
    (least_resource_scorer, [2000, 0], [4000, 8], 87),   # (50 + 100 * 3) / 4
])
def test_weighted_average_divides_toward_zero(scorer, requested, allocatable, want):
    """Mirrors leastResourceScorer / mostResourceScorer: an int64 weighted average, Go division."""
    assert scorer(RES)(requested, allocatable) == want


def test_requested_to_capacity_ratio_wrapped_utilization_scores_as_the_first_point():
    """Mirrors buildRequestedToCapacityRatioScorerFunction: requested * 100 wraps negative,
    and the broken-linear function gives a utilization below the first point the first score."""
    shape = [UtilizationShapePoint(0, 10), UtilizationShapePoint(100, 0)]  # LeastAllocated-like
    scorer = requested_to_capacity_ratio_scorer([ResourceSpec("example.com/foo", 1)], shape)
    assert scorer([BIG // 2], [BIG]) == 50
    assert scorer([BIG - 1], [BIG]) == 100  # utilization wrapped to -84: scores as 0% used
