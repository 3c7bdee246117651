"""Port of pkg/scheduler/framework/plugins/helper/normalize_score.go (v1.30).

Scales a list of raw node scores onto ``[0, max_priority]`` relative to the
highest one, optionally reversed so that the lowest raw score wins. Plugins
whose raw score is a count (untolerated taints, matching terms) use it as their
NormalizeScore.
"""
from __future__ import annotations

from typing import Optional

from .... import goint
from ....anchors import ports
from ...interface import NodeScore, Status


@ports("pkg/scheduler/framework/plugins/helper/normalize_score.go", "DefaultNormalizeScore", 27, 55)
def default_normalize_score(max_priority: int, reverse: bool, scores: list[NodeScore]) -> Optional[Status]:
    """Rewrite ``scores`` in place: ``max_priority * score / max``, then
    ``max_priority - score`` when ``reverse``.

    When every score is 0 (or the list is empty) nothing is scaled; a reversed
    normalization then gives every node ``max_priority``.
    """
    max_count = 0
    for s in scores:
        if s.score > max_count:
            max_count = s.score

    if max_count == 0:
        if reverse:
            for s in scores:
                s.score = max_priority
        return None

    for s in scores:
        score = s.score

        # upstream: int64 arithmetic; a negative score divides toward zero, and a
        # product past MaxInt64 wraps.
        score = goint.div(goint.wrap64(max_priority * score), max_count)
        if reverse:
            score = max_priority - score

        s.score = score
    return None
