"""Runs a noderesources score plugin over some nodes, as the upstream score tests do."""
from __future__ import annotations

from ksched_edu.framework.cycle_state import CycleState
from tests.fakes import FakeHandle


def run_scores(factory, args, pod, nodes, existing=(), run_pre_score=True):
    """(plugin scores per node, status codes per node) for ``pod``."""
    handle = FakeHandle(pods=list(existing), nodes=nodes)
    pl = factory(args, handle)
    state = CycleState()
    if run_pre_score:
        assert pl.pre_score(state, pod, handle.snapshot.list()) is None
    scores, statuses = [], []
    for n in nodes:
        score, status = pl.score(state, pod, n.name)
        scores.append(score)
        statuses.append(status)
    return scores, statuses
