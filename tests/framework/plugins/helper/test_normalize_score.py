"""Mirrors TestDefaultNormalizeScore in helper/normalize_score_test.go (v1.30)."""
import pytest

from ksched_edu.framework.interface import MAX_NODE_SCORE, NodeScore
from ksched_edu.framework.plugins.helper.normalize_score import default_normalize_score

CASES = [
    # (reverse, scores, expected)
    (False, [1, 2, 3, 4], [25, 50, 75, 100]),
    (True, [1, 2, 3, 4], [75, 50, 25, 0]),
    (False, [1000, 10, 20, 30], [100, 1, 2, 3]),
    (True, [1000, 10, 20, 30], [0, 99, 98, 97]),
    (False, [1, 1, 1, 1], [100, 100, 100, 100]),
    (False, [1000, 1, 1, 1], [100, 0, 0, 0]),
    (True, [0, 1, 1, 1], [100, 0, 0, 0]),
    # All zero: unchanged, or all MAX_NODE_SCORE when reversed.
    (False, [0, 0, 0], [0, 0, 0]),
    (True, [0, 0, 0], [100, 100, 100]),
]


@pytest.mark.parametrize("reverse,scores,expected", CASES, ids=[f"case_{i}" for i in range(len(CASES))])
def test_default_normalize_score(reverse, scores, expected):
    node_scores = [NodeScore(name="", score=s) for s in scores]
    assert default_normalize_score(MAX_NODE_SCORE, reverse, node_scores) is None
    assert [s.score for s in node_scores] == expected


@pytest.mark.parametrize("reverse,scores,expected", [
    # A negative raw score divides toward zero, as Go's int64 division does (Python's // floors).
    (False, [-1, 3], [-33, 100]),
    (True, [-1, 3], [133, 0]),
    # maxPriority * score wraps past MaxInt64 before the division.
    # 100 * 2^61 wraps to MinInt64 (-4 * 2^61); 100 * (2^61 - 1) wraps to 2^63 - 100.
    (False, [2**61, 2**61 - 1], [-4, 3]),
])
def test_default_normalize_score_int64(reverse, scores, expected):
    """Mirrors DefaultNormalizeScore's int64 arithmetic (helper/normalize_score.go)."""
    node_scores = [NodeScore(name="", score=s) for s in scores]
    default_normalize_score(MAX_NODE_SCORE, reverse, node_scores)
    assert [s.score for s in node_scores] == expected
