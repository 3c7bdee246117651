"""Mirrors TestNodeName in nodename/node_name_test.go (v1.30)."""
import pytest

from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.nodename.node_name import ERR_REASON, NAME, new
from ksched_edu.framework.types import NODE, ActionType, NodeInfo
from tests.builders import make_node, make_pod

CASES = [
    ("no host specified", make_pod().obj(), None),
    ("host matches", make_pod().node("foo").obj(), None),
    ("host doesn't match", make_pod().node("bar").obj(), ERR_REASON),
]


@pytest.mark.parametrize("pod,want_reason", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_node_name(pod, want_reason):
    node_info = NodeInfo()
    node_info.set_node(make_node().name("foo").obj())
    status = new(None, None).filter(CycleState(), pod, node_info)
    if want_reason is None:
        assert status is None
    else:
        assert status.code == Code.UnschedulableAndUnresolvable
        assert status.reasons == ["node(s) didn't match the requested node name"]


def test_name_and_events():
    pl = new(None, None)
    assert pl.name() == NAME == "NodeName"
    [ev] = pl.events_to_register()
    assert ev.event.resource == NODE and ev.event.action_type == ActionType.Add | ActionType.Update
    assert ev.queueing_hint_fn is None
