"""Mirrors pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go (v1.30):
TestNodeAffinity, TestNodeAffinityPriority, Test_isSchedulableAfterNodeChange."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Optional

import pytest

from ksched_edu.api.types import (Affinity, Node, NodeAffinity as V1NodeAffinity, NodeSelector,
                                  NodeSelectorRequirement as Req, NodeSelectorTerm as Term, ObjectMeta, Pod,
                                  PodSpec, PreferredSchedulingTerm)
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, NodeScore, PreFilterResult
from ksched_edu.framework.plugins.nodeaffinity.node_affinity import (ERR_REASON_CONFLICT, ERR_REASON_ENFORCED,
                                                                     ERR_REASON_POD, NAME, new)
from ksched_edu.framework.types import NODE, ActionType, NodeInfo, QueueingHint
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle

NAME_FIELD = "metadata.name"


def required(*terms: Term, node_selector: Optional[dict] = None) -> Pod:
    return Pod(ObjectMeta(), PodSpec(node_selector=dict(node_selector or {}),
                                     affinity=Affinity(V1NodeAffinity(required=NodeSelector(list(terms))))))


def expr(key: str, op: str, *values: str) -> Req:
    return Req(key, op, list(values))


def args(required_terms: Optional[list[Term]] = None,
         preferred: Optional[list[PreferredSchedulingTerm]] = None) -> SimpleNamespace:
    aff = V1NodeAffinity(required=NodeSelector(required_terms) if required_terms is not None else None,
                         preferred=list(preferred or []))
    return SimpleNamespace(added_affinity=aff)


NO_ARGS = SimpleNamespace(added_affinity=None)

# (name, pod, node labels, node name, want filter (code, reason), want prefilter (code, reason),
#  want prefilter node names, args, run prefilter)
NODE_AFFINITY_CASES = [
    ("missing labels", make_pod().node_selector({"foo": "bar"}).obj(), {}, "",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD), None, None, NO_ARGS, True),
    ("same labels", make_pod().node_selector({"foo": "bar"}).obj(), {"foo": "bar"}, "",
     None, None, None, NO_ARGS, True),
    ("node labels are superset", make_pod().node_selector({"foo": "bar"}).obj(), {"foo": "bar", "baz": "blah"}, "",
     None, None, None, NO_ARGS, True),
    ("node labels are subset", make_pod().node_selector({"foo": "bar", "baz": "blah"}).obj(), {"foo": "bar"}, "",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD), None, None, NO_ARGS, True),
    ("Pod with matchExpressions using In operator that matches the existing node",
     required(Term([expr("foo", "In", "bar", "value2")])), {"foo": "bar"}, "", None, None, None, NO_ARGS, True),
    ("Pod with matchExpressions using Gt operator that matches the existing node",
     required(Term([expr("kernel-version", "Gt", "0204")])), {"kernel-version": "0206"}, "",
     None, None, None, NO_ARGS, True),
    ("Pod with matchExpressions using NotIn operator that matches the existing node",
     required(Term([expr("mem-type", "NotIn", "DDR", "DDR2")])), {"mem-type": "DDR3"}, "",
     None, None, None, NO_ARGS, True),
    ("Pod with matchExpressions using Exists operator that matches the existing node",
     required(Term([expr("GPU", "Exists")])), {"GPU": "NVIDIA-GRID-K1"}, "", None, None, None, NO_ARGS, True),
    ("Pod with affinity that don't match node's labels won't schedule onto the node",
     required(Term([expr("foo", "In", "value1", "value2")])), {"foo": "bar"}, "",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD), None, None, NO_ARGS, True),
    ("Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
     required(Term([])), {"foo": "bar"}, "",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD), None, None, NO_ARGS, True),
    ("Pod with no Affinity will schedule onto a node", Pod(ObjectMeta()), {"foo": "bar"}, "",
     None, (Code.Skip, None), None, NO_ARGS, True),
    ("Pod with Affinity but nil NodeSelector will schedule onto a node",
     Pod(ObjectMeta(), PodSpec(affinity=Affinity(V1NodeAffinity(required=None)))), {"foo": "bar"}, "",
     None, (Code.Skip, None), None, NO_ARGS, True),
    ("Pod with multiple matchExpressions ANDed that matches the existing node",
     required(Term([expr("GPU", "Exists"), expr("GPU", "NotIn", "AMD", "INTER")])), {"GPU": "NVIDIA-GRID-K1"}, "",
     None, None, None, NO_ARGS, True),
    ("Pod with multiple matchExpressions ANDed that doesn't match the existing node",
     required(Term([expr("GPU", "Exists"), expr("GPU", "In", "AMD", "INTER")])), {"GPU": "NVIDIA-GRID-K1"}, "",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD), None, None, NO_ARGS, True),
    ("Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
     required(Term([expr("foo", "In", "bar", "value2")]), Term([expr("diffkey", "In", "wrong", "value2")])),
     {"foo": "bar"}, "", None, None, None, NO_ARGS, True),
    ("Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) "
     "both are satisfied, will schedule onto the node",
     required(Term([expr("foo", "Exists")]), node_selector={"foo": "bar"}), {"foo": "bar"}, "",
     None, None, None, NO_ARGS, True),
    ("Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are "
     "deprecating) is not satisfied, won't schedule onto the node",
     required(Term([expr("foo", "Exists")]), node_selector={"foo": "bar"}), {"foo": "barrrrrr"}, "",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD), None, None, NO_ARGS, True),
    ("Pod with an invalid value in Affinity term won't be scheduled onto the node",
     required(Term([expr("foo", "NotIn", "invalid value: ___@#$%^")])), {"foo": "bar"}, "",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD), None, None, NO_ARGS, True),
    ("Pod with matchFields using In operator that matches the existing node",
     required(Term(match_fields=[expr(NAME_FIELD, "In", "node1")])), {}, "node1",
     None, None, {"node1"}, NO_ARGS, True),
    ("Pod with matchFields using In operator that does not match the existing node",
     required(Term(match_fields=[expr(NAME_FIELD, "In", "node1")])), {}, "node2",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD), None, {"node1"}, NO_ARGS, True),
    ("Pod with two terms: matchFields does not match, but matchExpressions matches",
     required(Term(match_fields=[expr(NAME_FIELD, "In", "node1"), expr(NAME_FIELD, "In", "node2")]),
              Term([expr("foo", "In", "bar")])), {"foo": "bar"}, "node2", None, None, None, NO_ARGS, True),
    ("Pod with one term: matchFields does not match, but matchExpressions matches",
     required(Term([expr("foo", "In", "bar")], [expr(NAME_FIELD, "In", "node1")])), {"foo": "bar"}, "node2",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD), None, {"node1"}, NO_ARGS, True),
    ("Pod with one term: both matchFields and matchExpressions match",
     required(Term([expr("foo", "In", "bar")], [expr(NAME_FIELD, "In", "node1")])), {"foo": "bar"}, "node1",
     None, None, {"node1"}, NO_ARGS, True),
    ("Pod with two terms: both matchFields and matchExpressions do not match",
     required(Term(match_fields=[expr(NAME_FIELD, "In", "node1")]),
              Term([expr("foo", "In", "not-match-to-bar")])), {"foo": "bar"}, "node2",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD), None, None, NO_ARGS, True),
    ("Pod with two terms of node.Name affinity",
     required(Term(match_fields=[expr(NAME_FIELD, "In", "node1")]),
              Term(match_fields=[expr(NAME_FIELD, "In", "node2")])), {}, "node2",
     None, None, {"node1", "node2"}, NO_ARGS, True),
    ("Pod with two conflicting mach field requirements",
     required(Term(match_fields=[expr(NAME_FIELD, "In", "node1"), expr(NAME_FIELD, "In", "node2")])),
     {"foo": "bar"}, "node2",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD),
     (Code.UnschedulableAndUnresolvable, ERR_REASON_CONFLICT), None, NO_ARGS, True),
    ("Matches added affinity and Pod's node affinity",
     required(Term([expr("zone", "In", "foo")])), {"zone": "foo"}, "node2",
     None, None, None, args([Term(match_fields=[expr(NAME_FIELD, "In", "node2")])]), True),
    ("Matches added affinity but not Pod's node affinity",
     required(Term([expr("zone", "In", "bar")])), {"zone": "foo"}, "node2",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_POD), None, None,
     args([Term(match_fields=[expr(NAME_FIELD, "In", "node2")])]), True),
    ("Doesn't match added affinity", Pod(ObjectMeta()), {"zone": "foo"}, "node2",
     (Code.UnschedulableAndUnresolvable, ERR_REASON_ENFORCED), None, None,
     args([Term([expr("zone", "In", "bar")])]), True),
    ("Matches node selector correctly even if PreFilter is not called",
     Pod(ObjectMeta(), PodSpec(node_selector={"foo": "bar"})), {"foo": "bar", "baz": "blah"}, "",
     None, None, None, NO_ARGS, False),
    ("Matches node affinity correctly even if PreFilter is not called",
     required(Term([expr("GPU", "Exists"), expr("GPU", "NotIn", "AMD", "INTER")])), {"GPU": "NVIDIA-GRID-K1"}, "",
     None, None, None, NO_ARGS, False),
]


@pytest.mark.parametrize(
    "pod,labels,node_name,want_status,want_pre_filter_status,want_pre_filter_nodes,plugin_args,run_pre_filter",
    [c[1:] for c in NODE_AFFINITY_CASES], ids=[c[0] for c in NODE_AFFINITY_CASES])
def test_node_affinity(pod, labels, node_name, want_status, want_pre_filter_status, want_pre_filter_nodes,
                       plugin_args, run_pre_filter):
    node = Node(ObjectMeta(name=node_name, labels=dict(labels)))
    node_info = NodeInfo()
    node_info.set_node(node)
    p = new(plugin_args, None)
    state = CycleState()
    if run_pre_filter:
        result, status = p.pre_filter(state, pod)
        if want_pre_filter_status is None:
            assert status is None
        else:
            assert status.code == want_pre_filter_status[0]
            assert status.reasons == ([want_pre_filter_status[1]] if want_pre_filter_status[1] else [])
        if want_pre_filter_nodes is None:
            assert result is None
        else:
            assert result == PreFilterResult(want_pre_filter_nodes)
    status = p.filter(state, pod, node_info)
    if want_status is None:
        assert status is None
    else:
        assert (status.code, status.reasons) == (want_status[0], [want_status[1]])


LABEL1 = {"foo": "bar"}
LABEL2 = {"key": "value"}
LABEL3 = {"az": "az1"}
LABEL4 = {"abc": "az11", "def": "az22"}
LABEL5 = {"foo": "bar", "key": "value", "az": "az1"}


def preferred_pod(*terms: PreferredSchedulingTerm) -> Pod:
    return Pod(ObjectMeta(), PodSpec(affinity=Affinity(V1NodeAffinity(preferred=list(terms)))))


AFFINITY1 = [PreferredSchedulingTerm(2, Term([expr("foo", "In", "bar")]))]
AFFINITY2 = [
    PreferredSchedulingTerm(2, Term([expr("foo", "In", "bar")])),
    PreferredSchedulingTerm(4, Term([expr("key", "In", "value")])),
    PreferredSchedulingTerm(5, Term([expr("foo", "In", "bar"), expr("key", "In", "value"),
                                     expr("az", "In", "az1")])),
]


def nodes(*pairs: tuple[str, dict]) -> list[Node]:
    return [Node(ObjectMeta(name=n, labels=dict(lbl))) for n, lbl in pairs]


PRIORITY_CASES = [
    ("all nodes are same priority as NodeAffinity is nil", Pod(ObjectMeta()),
     nodes(("node1", LABEL1), ("node2", LABEL2), ("node3", LABEL3)),
     [("node1", 0), ("node2", 0), ("node3", 0)], NO_ARGS, True),
    ("no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero",
     preferred_pod(*AFFINITY1), nodes(("node1", LABEL4), ("node2", LABEL2), ("node3", LABEL3)),
     [("node1", 0), ("node2", 0), ("node3", 0)], NO_ARGS, True),
    ("only node1 matches the preferred scheduling requirements of pod", preferred_pod(*AFFINITY1),
     nodes(("node1", LABEL1), ("node2", LABEL2), ("node3", LABEL3)),
     [("node1", 100), ("node2", 0), ("node3", 0)], NO_ARGS, True),
    ("all nodes matches the preferred scheduling requirements of pod but with different priorities ",
     preferred_pod(*AFFINITY2), nodes(("node1", LABEL1), ("node5", LABEL5), ("node2", LABEL2)),
     [("node1", 18), ("node5", 100), ("node2", 36)], NO_ARGS, True),
    ("added affinity", Pod(ObjectMeta()), nodes(("node1", LABEL1), ("node2", LABEL2)),
     [("node1", 100), ("node2", 0)], args(preferred=AFFINITY1), True),
    ("added affinity and pod has default affinity", preferred_pod(*AFFINITY1),
     nodes(("node1", LABEL1), ("node2", LABEL2), ("node3", LABEL5)),
     [("node1", 40), ("node2", 60), ("node3", 100)],
     args(preferred=[PreferredSchedulingTerm(3, Term([expr("key", "In", "value")]))]), True),
    ("calculate the priorities correctly even if PreScore is not called", preferred_pod(*AFFINITY2),
     nodes(("node1", LABEL1), ("node5", LABEL5), ("node2", LABEL2)),
     [("node1", 18), ("node5", 100), ("node2", 36)], NO_ARGS, False),
]


@pytest.mark.parametrize("pod,node_list,expected,plugin_args,run_pre_score",
                         [c[1:] for c in PRIORITY_CASES], ids=[c[0] for c in PRIORITY_CASES])
def test_node_affinity_priority(pod, node_list, expected, plugin_args, run_pre_score):
    state = CycleState()
    handle = FakeHandle(nodes=node_list)
    p = new(plugin_args, handle)
    if run_pre_score:
        status = p.pre_score(state, pod, [handle.snapshot.get(n.name) for n in node_list])
        # upstream treats Skip as "not success" only when it is an error: Skip is fine here.
        assert status is None or status.code == Code.Skip
    got = []
    for n in node_list:
        score, status = p.score(state, pod, n.name)
        assert status is None
        got.append(NodeScore(n.name, score))
    assert p.score_extensions().normalize_score(state, pod, got) is None
    assert [(s.name, s.score) for s in got] == expected


POD_WITH_NODE_AFFINITY = make_pod().node_affinity_in("foo", ["bar"]).obj()
ENFORCED = args([Term([expr("foo", "In", "bar")])])

HINT_CASES = [
    ("backoff-wrong-new-object", NO_ARGS, None, "not-a-node", QueueingHint.Queue),
    ("backoff-wrong-old-object", NO_ARGS, "not-a-node", make_node().obj(), QueueingHint.Queue),
    ("skip-queue-on-add", NO_ARGS, None, make_node().obj(), QueueingHint.QueueSkip),
    ("queue-on-add", NO_ARGS, None, make_node().label("foo", "bar").obj(), QueueingHint.Queue),
    ("skip-unrelated-changes", NO_ARGS, make_node().obj(), make_node().capacity().obj(), QueueingHint.QueueSkip),
    ("skip-unrelated-changes-on-labels", NO_ARGS, make_node().obj(), make_node().label("k", "v").obj(),
     QueueingHint.QueueSkip),
    ("skip-labels-changes-on-suitable-node", NO_ARGS, make_node().label("foo", "bar").obj(),
     make_node().label("foo", "bar").label("k", "v").obj(), QueueingHint.Queue),
    ("skip-labels-changes-on-node-from-suitable-to-unsuitable", NO_ARGS, make_node().label("foo", "bar").obj(),
     make_node().label("k", "v").obj(), QueueingHint.QueueSkip),
    ("queue-on-labels-change-makes-pod-schedulable", NO_ARGS, make_node().obj(),
     make_node().label("foo", "bar").obj(), QueueingHint.Queue),
    ("skip-queue-on-add-scheduler-enforced-node-affinity", ENFORCED, None, make_node().obj(),
     QueueingHint.QueueSkip),
    ("queue-on-add-scheduler-enforced-node-affinity", ENFORCED, None, make_node().label("foo", "bar").obj(),
     QueueingHint.Queue),
]


@pytest.mark.parametrize("plugin_args,old_obj,new_obj,want", [c[1:] for c in HINT_CASES],
                         ids=[c[0] for c in HINT_CASES])
def test_is_schedulable_after_node_change(plugin_args, old_obj, new_obj, want):
    # upstream v1.30 queues "skip-labels-changes-on-suitable-node" as well: the hint
    # only asks whether the new node matches (the old one is not compared yet).
    p = new(plugin_args, None)
    assert p.is_schedulable_after_node_change(POD_WITH_NODE_AFFINITY, old_obj, new_obj) == want


def test_events_to_register():
    p = new(NO_ARGS, None)
    events = p.events_to_register()
    assert [(e.event.resource, e.event.action_type) for e in events] == [
        (NODE, ActionType.Add | ActionType.Update)]
    assert p.name() == NAME == "NodeAffinity"


def test_pre_score_skip_without_preferred_terms():
    p = new(NO_ARGS, FakeHandle(nodes=[make_node().name("n").obj()]))
    state = CycleState()
    ni = NodeInfo()
    ni.set_node(make_node().name("n").obj())
    assert p.pre_score(state, Pod(ObjectMeta()), [ni]).code == Code.Skip
    # No nodes: nothing to do, and no Skip either.
    assert p.pre_score(state, Pod(ObjectMeta()), []) is None


def test_new_rejects_unparsable_added_affinity():
    bad = args([Term(match_fields=[expr(NAME_FIELD, "In", "a", "b")])])
    with pytest.raises(ValueError) as e:
        new(bad, None)
    # ValidateNodeAffinityArgs refuses it first, with the same parse error under its path.
    assert str(e.value) == ('addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.'
                            'nodeSelectorTerms[0].matchFields[0].values: Invalid value: '
                            '[]string{"a", "b"}: must have one element')
