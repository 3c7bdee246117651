"""Mirrors TestNodeUnschedulable in nodeunschedulable/node_unschedulable_test.go (v1.30)."""
import pytest

from ksched_edu.api.types import Taint, Toleration
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.nodeunschedulable.node_unschedulable import (
    ERR_REASON_UNSCHEDULABLE, NAME, TAINT_NODE_UNSCHEDULABLE, new)
from ksched_edu.framework.types import NODE, ActionType, NodeInfo, QueueingHint
from tests.builders import make_node, make_pod

CASES = [
    ("Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)",
     make_pod().obj(), make_node().unschedulable(True).obj(), ERR_REASON_UNSCHEDULABLE),
    ("Schedule pod to normal node", make_pod().obj(), make_node().unschedulable(False).obj(), None),
    ("Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)",
     make_pod().tolerations([Toleration(key=TAINT_NODE_UNSCHEDULABLE, effect="NoSchedule")]).obj(),
     make_node().unschedulable(True).obj(), None),
]


@pytest.mark.parametrize("pod,node,want_reason", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_node_unschedulable(pod, node, want_reason):
    node_info = NodeInfo()
    node_info.set_node(node)
    status = new(None, None).filter(CycleState(), pod, node_info)
    if want_reason is None:
        assert status is None
    else:
        assert status.code == Code.UnschedulableAndUnresolvable
        assert status.reasons == [want_reason]
        assert want_reason == "node(s) were unschedulable"


def test_name_and_events():
    pl = new(None, None)
    assert pl.name() == NAME == "NodeUnschedulable"
    [ev] = pl.events_to_register()
    assert ev.event.resource == NODE and ev.event.action_type == ActionType.Add | ActionType.Update
    pod = make_pod().obj()
    assert ev.queueing_hint_fn(pod, None, make_node().obj()) == QueueingHint.Queue
    assert ev.queueing_hint_fn(pod, None, make_node().unschedulable().obj()) == QueueingHint.QueueSkip


# After TestIsSchedulableAfterNodeChange (node_unschedulable_test.go, v1.30): objects that are
# not nodes answer Queue (upstream also returns the error), a cordoned node answers QueueSkip.
HINT_CASES = [
    ("backoff-wrong-new-object", "not-a-node", "not-a-node", QueueingHint.Queue),
    ("backoff-wrong-old-object", "not-a-node", make_node().obj(), QueueingHint.Queue),
    ("backoff-wrong-old-object-new-node-cordoned", "not-a-node", make_node().unschedulable().obj(),
     QueueingHint.Queue),
    ("skip-queue-on-unschedulable-node-added", None, make_node().unschedulable().obj(), QueueingHint.QueueSkip),
    ("queue-on-schedulable-node-added", None, make_node().unschedulable(False).obj(), QueueingHint.Queue),
    ("skip-unrelated-change", make_node().unschedulable().obj(),
     make_node().unschedulable().taints([Taint(key="k", value="v", effect="NoExecute")]).obj(), QueueingHint.QueueSkip),
    ("queue-on-unschedulable-field-change", make_node().unschedulable().obj(), make_node().unschedulable(False).obj(),
     QueueingHint.Queue),
]


@pytest.mark.parametrize("old_obj,new_obj,want", [c[1:] for c in HINT_CASES], ids=[c[0] for c in HINT_CASES])
def test_is_schedulable_after_node_change(old_obj, new_obj, want):
    pod = make_pod().obj()
    assert new(None, None).is_schedulable_after_node_change(pod, old_obj, new_obj) == want
