"""Mirrors TestBrokenLinearFunction in noderesources/requested_to_capacity_ratio_test.go (v1.30)."""
import pytest

from ksched_edu.framework.plugins.helper.shape_score import FunctionShapePoint, build_broken_linear_function

CASES = [
    ([(10, 1), (90, 9)],
     [(-10, 1), (0, 1), (9, 1), (10, 1), (15, 1), (19, 1), (20, 2), (89, 8), (90, 9), (99, 9), (100, 9), (110, 9)]),
    ([(0, 2), (40, 10), (100, 0)],
     [(-10, 2), (0, 2), (20, 6), (30, 8), (40, 10), (70, 5), (100, 0), (110, 0)]),
    ([(0, 2), (40, 2), (100, 2)],
     [(-10, 2), (0, 2), (20, 2), (30, 2), (40, 2), (70, 2), (100, 2), (110, 2)]),
]


@pytest.mark.parametrize("points,assertions", CASES, ids=[f"case_{i}" for i in range(len(CASES))])
def test_broken_linear_function(points, assertions):
    fn = build_broken_linear_function([FunctionShapePoint(u, s) for u, s in points])
    for p, expected in assertions:
        assert fn(p) == expected, f"p={p}"


def test_decreasing_segment_truncates_toward_zero():
    # 10 -> 0 over 0..30: at 10 the slope term is -100/30; Go truncates it to -3 (score 7),
    # where Python's floor division would give -4 (score 6).
    fn = build_broken_linear_function([FunctionShapePoint(0, 10), FunctionShapePoint(30, 0)])
    assert fn(10) == 7
