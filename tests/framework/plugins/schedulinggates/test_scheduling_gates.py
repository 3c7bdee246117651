"""Mirrors TestPreEnqueue in schedulinggates/scheduling_gates_test.go (v1.30)."""
import pytest

from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.schedulinggates.scheduling_gates import NAME, new
from tests.builders import make_pod

CASES = [
    ("pod does not carry scheduling gates", make_pod().name("p").obj(), None),
    ("pod carrying scheduling gates", make_pod().name("p").scheduling_gates(["foo", "bar"]).obj(),
     "waiting for scheduling gates: [foo bar]"),
]


@pytest.mark.parametrize("pod,want_reason", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_pre_enqueue(pod, want_reason):
    status = new(None, None).pre_enqueue(pod)
    if want_reason is None:
        assert status is None
    else:
        assert status.code == Code.UnschedulableAndUnresolvable
        assert status.reasons == [want_reason]


def test_no_cluster_events():
    pl = new(None, None)
    assert pl.name() == NAME == "SchedulingGates"
    assert pl.events_to_register() == []
