"""Mirrors TestTaintTolerationScore and TestTaintTolerationFilter in
tainttoleration/taint_toleration_test.go (v1.30)."""
import pytest

from ksched_edu.api.types import Taint, Toleration
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import MAX_NODE_SCORE, Code, NodeScore
from ksched_edu.framework.plugins.tainttoleration.taint_toleration import NAME, new
from ksched_edu.framework.types import NODE, ActionType, NodeInfo
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle


def node_with_taints(name, taints):
    return make_node().name(name).taints(taints).obj()


def pod_with_tolerations(name, tolerations):
    return make_pod().name(name).tolerations(tolerations).obj()


PNS = "PreferNoSchedule"

SCORE_CASES = [
    ("node with taints tolerated by the pod, gets a higher score than those node with intolerable taints",
     pod_with_tolerations("pod1", [Toleration(key="foo", operator="Equal", value="bar", effect=PNS)]),
     [node_with_taints("nodeA", [Taint(key="foo", value="bar", effect=PNS)]),
      node_with_taints("nodeB", [Taint(key="foo", value="blah", effect=PNS)])],
     [("nodeA", MAX_NODE_SCORE), ("nodeB", 0)]),
    ("the nodes that all of their taints are tolerated by the pod, get the same score, "
     "no matter how many tolerable taints a node has",
     pod_with_tolerations("pod1", [Toleration(key="cpu-type", operator="Equal", value="arm64", effect=PNS),
                                   Toleration(key="disk-type", operator="Equal", value="ssd", effect=PNS)]),
     [node_with_taints("nodeA", []),
      node_with_taints("nodeB", [Taint(key="cpu-type", value="arm64", effect=PNS)]),
      node_with_taints("nodeC", [Taint(key="cpu-type", value="arm64", effect=PNS),
                                 Taint(key="disk-type", value="ssd", effect=PNS)])],
     [("nodeA", MAX_NODE_SCORE), ("nodeB", MAX_NODE_SCORE), ("nodeC", MAX_NODE_SCORE)]),
    ("the more intolerable taints a node has, the lower score it gets.",
     pod_with_tolerations("pod1", [Toleration(key="foo", operator="Equal", value="bar", effect=PNS)]),
     [node_with_taints("nodeA", []),
      node_with_taints("nodeB", [Taint(key="cpu-type", value="arm64", effect=PNS)]),
      node_with_taints("nodeC", [Taint(key="cpu-type", value="arm64", effect=PNS),
                                 Taint(key="disk-type", value="ssd", effect=PNS)])],
     [("nodeA", MAX_NODE_SCORE), ("nodeB", 50), ("nodeC", 0)]),
    ("only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations "
     "priority function",
     pod_with_tolerations("pod1", [Toleration(key="cpu-type", operator="Equal", value="arm64", effect="NoSchedule"),
                                   Toleration(key="disk-type", operator="Equal", value="ssd", effect="NoSchedule")]),
     [node_with_taints("nodeA", []),
      node_with_taints("nodeB", [Taint(key="cpu-type", value="arm64", effect="NoSchedule")]),
      node_with_taints("nodeC", [Taint(key="cpu-type", value="arm64", effect=PNS),
                                 Taint(key="disk-type", value="ssd", effect=PNS)])],
     [("nodeA", MAX_NODE_SCORE), ("nodeB", MAX_NODE_SCORE), ("nodeC", 0)]),
    ("Default behaviour No taints and tolerations, lands on node with no taints",
     pod_with_tolerations("pod1", []),
     [node_with_taints("nodeA", []),
      node_with_taints("nodeB", [Taint(key="cpu-type", value="arm64", effect=PNS)])],
     [("nodeA", MAX_NODE_SCORE), ("nodeB", 0)]),
]


@pytest.mark.parametrize("pod,nodes,expected", [c[1:] for c in SCORE_CASES], ids=[c[0] for c in SCORE_CASES])
def test_taint_toleration_score(pod, nodes, expected):
    handle = FakeHandle(nodes=nodes)
    pl = new(None, handle)
    state = CycleState()
    assert pl.pre_score(state, pod, handle.snapshot.list()) is None
    scores = []
    for node in nodes:
        score, status = pl.score(state, pod, node.name)
        assert status is None
        scores.append(NodeScore(node.name, score))
    assert pl.score_extensions().normalize_score(state, pod, scores) is None
    assert [(s.name, s.score) for s in scores] == expected


UNTOLERATED = "node(s) had untolerated taint {dedicated: user1}"

FILTER_CASES = [
    ("A pod having no tolerations can't be scheduled onto a node with nonempty taints",
     pod_with_tolerations("pod1", []),
     node_with_taints("nodeA", [Taint(key="dedicated", value="user1", effect="NoSchedule")]), UNTOLERATED),
    ("A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
     pod_with_tolerations("pod1", [Toleration(key="dedicated", value="user1", effect="NoSchedule")]),
     node_with_taints("nodeA", [Taint(key="dedicated", value="user1", effect="NoSchedule")]), None),
    ("A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
     pod_with_tolerations("pod1", [Toleration(key="dedicated", operator="Equal", value="user2", effect="NoSchedule")]),
     node_with_taints("nodeA", [Taint(key="dedicated", value="user1", effect="NoSchedule")]), UNTOLERATED),
    ("A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints "
     "on the node",
     pod_with_tolerations("pod1", [Toleration(key="foo", operator="Exists", effect="NoSchedule")]),
     node_with_taints("nodeA", [Taint(key="foo", value="bar", effect="NoSchedule")]), None),
    ("A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be "
     "scheduled onto the node",
     pod_with_tolerations("pod1", [Toleration(key="dedicated", operator="Equal", value="user2", effect="NoSchedule"),
                                   Toleration(key="foo", operator="Exists", effect="NoSchedule")]),
     node_with_taints("nodeA", [Taint(key="dedicated", value="user2", effect="NoSchedule"),
                                Taint(key="foo", value="bar", effect="NoSchedule")]), None),
    ("A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't "
     "match, can't be scheduled onto the node",
     pod_with_tolerations("pod1", [Toleration(key="foo", operator="Equal", value="bar", effect=PNS)]),
     node_with_taints("nodeA", [Taint(key="foo", value="bar", effect="NoSchedule")]),
     "node(s) had untolerated taint {foo: bar}"),
    ("The pod has a toleration that keys and values match the taint on the node, the effect of toleration is "
     "empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
     pod_with_tolerations("pod1", [Toleration(key="foo", operator="Equal", value="bar")]),
     node_with_taints("nodeA", [Taint(key="foo", value="bar", effect="NoSchedule")]), None),
    ("The pod has a toleration that key and value don't match the taint on the node, but the effect of taint "
     "on node is PreferNoSchedule. Pod can be scheduled onto the node",
     pod_with_tolerations("pod1", [Toleration(key="dedicated", operator="Equal", value="user2", effect="NoSchedule")]),
     node_with_taints("nodeA", [Taint(key="dedicated", value="user1", effect=PNS)]), None),
    ("The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled "
     "onto the node",
     pod_with_tolerations("pod1", []),
     node_with_taints("nodeA", [Taint(key="dedicated", value="user1", effect=PNS)]), None),
    ("the first untolerated NoExecute taint is reported",
     pod_with_tolerations("pod1", [Toleration(key="a", operator="Exists")]),
     node_with_taints("nodeA", [Taint(key="a", value="1", effect="NoSchedule"),
                                Taint(key="b", value="", effect="NoExecute"),
                                Taint(key="c", value="3", effect="NoSchedule")]),
     "node(s) had untolerated taint {b: }"),
]


@pytest.mark.parametrize("pod,node,want_reason", [c[1:] for c in FILTER_CASES], ids=[c[0] for c in FILTER_CASES])
def test_taint_toleration_filter(pod, node, want_reason):
    node_info = NodeInfo()
    node_info.set_node(node)
    status = new(None, None).filter(CycleState(), pod, node_info)
    if want_reason is None:
        assert status is None
    else:
        assert status.code == Code.UnschedulableAndUnresolvable
        assert status.reasons == [want_reason]


def test_score_without_pre_score_is_an_error():
    handle = FakeHandle(nodes=[node_with_taints("nodeA", [])])
    score, status = new(None, handle).score(CycleState(), make_pod().obj(), "nodeA")
    assert score == 0 and status.code == Code.Error
    assert status.message() == 'failed to read "PreScoreTaintToleration" from cycleState: not found'


def test_pre_score_with_no_nodes_writes_nothing():
    state = CycleState()
    assert new(None, None).pre_score(state, make_pod().obj(), []) is None
    with pytest.raises(KeyError):
        state.read("PreScoreTaintToleration")


def test_name_and_events():
    pl = new(None, None)
    assert pl.name() == NAME == "TaintToleration"
    assert pl.score_extensions() is pl
    [ev] = pl.events_to_register()
    assert ev.event.resource == NODE and ev.event.action_type == ActionType.Add | ActionType.Update
    assert ev.queueing_hint_fn is None
