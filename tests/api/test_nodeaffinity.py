"""Mirrors component-helpers scheduling/corev1/nodeaffinity/nodeaffinity_test.go (v1.30):
TestNodeSelectorMatch, TestPreferredSchedulingTermsScore, TestNodeSelectorRequirementsAsSelector,
TestPodMatchesNodeSelectorAndAffinityTerms; plus the Gt/Lt rules of apimachinery labels."""
from __future__ import annotations

from typing import Optional

import pytest

from ksched_edu.api.nodeaffinity import (LabelRequirement, NodeAffinityParseError, get_required_node_affinity,
                                         new_lazy_error_node_selector, new_node_selector,
                                         new_preferred_scheduling_terms, node_selector_requirements_as_selector)
from ksched_edu.api.tolerations import match_node_selector_terms
from ksched_edu.api.types import (Affinity, Node, NodeAffinity, NodeSelector, NodeSelectorRequirement as Req,
                                  NodeSelectorTerm as Term, ObjectMeta, Pod, PodSpec, PreferredSchedulingTerm)

NAME_FIELD = "metadata.name"
KEY_DETAIL = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
              "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
              "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")


def node(name: str = "", labels: Optional[dict] = None) -> Node:
    return Node(ObjectMeta(name=name, labels=dict(labels or {})))


def expr(key: str, op: str, *values: str) -> Req:
    return Req(key, op, list(values))


INVALID_TERMS = [
    Term(match_fields=[expr(NAME_FIELD, "In", "host_1", "host_2")]),
    Term([expr("label_1", "In", "label_1_val")], [expr(NAME_FIELD, "In", "host_1")]),
    Term([expr("invalid key", "In", "label_value")]),
]

NODE_SELECTOR_MATCH_CASES = [
    ("nil node", NodeSelector(), None, None, False),
    ("invalid field selector and label selector", NodeSelector(INVALID_TERMS), None,
     '[nodeSelectorTerms[0].matchFields[0].values: Invalid value: []string{"host_1", "host_2"}: must have one '
     'element, nodeSelectorTerms[2].matchExpressions[0].key: Invalid value: "invalid key": ' + KEY_DETAIL + "]",
     False),
    ("node matches field selector, but not labels",
     NodeSelector([Term([expr("label_1", "In", "label_1_val")], [expr(NAME_FIELD, "In", "host_1")])]),
     node("host_1"), None, False),
    ("node matches field selector and label selector",
     NodeSelector([Term([expr("label_1", "In", "label_1_val")], [expr(NAME_FIELD, "In", "host_1")])]),
     node("host_1", {"label_1": "label_1_val"}), None, True),
    ("second term matches",
     NodeSelector([Term([expr("label_1", "In", "label_1_val")]), Term(match_fields=[expr(NAME_FIELD, "In", "host_1")])]),
     node("host_1"), None, True),
]


@pytest.mark.parametrize("ns,n,want_err,want_match", [c[1:] for c in NODE_SELECTOR_MATCH_CASES],
                         ids=[c[0] for c in NODE_SELECTOR_MATCH_CASES])
def test_node_selector_match(ns, n, want_err, want_match):
    if want_err is not None:
        with pytest.raises(NodeAffinityParseError) as e:
            new_node_selector(ns)
        assert str(e.value) == want_err
        return
    assert new_node_selector(ns).match(n) is want_match


def test_lazy_selector_reports_errors_only_when_nothing_matches():
    lazy = new_lazy_error_node_selector(NodeSelector(INVALID_TERMS))
    # The second term matches host_1 with the label: no error.
    assert lazy.match(node("host_1", {"label_1": "label_1_val"})) == (True, None)
    matched, err = lazy.match(node("host_2"))
    assert not matched
    assert isinstance(err, NodeAffinityParseError) and len(err.errors) == 2
    # The helpers.go wrapper: a nil node matches nothing, without error.
    assert match_node_selector_terms(None, NodeSelector(INVALID_TERMS)) == (False, None)


PREFERRED_CASES = [
    ("invalid field selector and label selector",
     [PreferredSchedulingTerm(1, t) for t in INVALID_TERMS], None,
     '[[0].matchFields[0].values: Invalid value: []string{"host_1", "host_2"}: must have one element, '
     '[2].matchExpressions[0].key: Invalid value: "invalid key": ' + KEY_DETAIL + "]", 0),
    ("invalid field selector but no weight, error not reported",
     [PreferredSchedulingTerm(0, Term(match_fields=[expr(NAME_FIELD, "In", "host_1", "host_2")]))],
     node("host_1"), None, 0),
    ("first and third term match",
     [PreferredSchedulingTerm(5, Term(match_fields=[expr(NAME_FIELD, "In", "host_1")])),
      PreferredSchedulingTerm(7, Term([expr("unknown_label", "In", "unknown_label_val")])),
      PreferredSchedulingTerm(11, Term([expr("label_1", "In", "label_1_val")]))],
     node("host_1", {"label_1": "label_1_val"}), None, 16),
]


@pytest.mark.parametrize("terms,n,want_err,want_score", [c[1:] for c in PREFERRED_CASES],
                         ids=[c[0] for c in PREFERRED_CASES])
def test_preferred_scheduling_terms_score(terms, n, want_err, want_score):
    if want_err is not None:
        with pytest.raises(NodeAffinityParseError) as e:
            new_preferred_scheduling_terms(terms)
        assert str(e.value) == want_err
        return
    assert new_preferred_scheduling_terms(terms).score(n) == want_score


AS_SELECTOR_CASES = [
    ("nil", [], [], []),
    ("in", [expr("foo", "In", "bar", "baz")], [LabelRequirement("foo", "In", ("bar", "baz"))], []),
    ("exists with values", [expr("foo", "Exists", "bar", "baz")], None,
     ['root[0].values: Invalid value: []string{"bar", "baz"}: values set must be empty for exists and does not exist']),
    ("gt", [expr("foo", "Gt", "1")], [LabelRequirement("foo", "Gt", ("1",))], []),
    ("lt", [expr("bar", "Lt", "7")], [LabelRequirement("bar", "Lt", ("7",))], []),
    ("gt needs one integer", [expr("foo", "Gt", "x")], None,
     ['root[0].values[0]: Invalid value: "x": for \'Gt\', \'Lt\' operators, the value must be an integer']),
    ("unknown operator", [expr("foo", "Equals", "x")], None,
     ['root[0].operator: Unsupported value: "Equals": supported values: "In", "NotIn", "Exists", '
      '"DoesNotExist", "Gt", "Lt"']),
]


@pytest.mark.parametrize("reqs,want,want_errs", [c[1:] for c in AS_SELECTOR_CASES],
                         ids=[c[0] for c in AS_SELECTOR_CASES])
def test_node_selector_requirements_as_selector(reqs, want, want_errs):
    got, errs = node_selector_requirements_as_selector(reqs, "root")
    assert got == want
    assert [str(e) for e in errs] == want_errs


@pytest.mark.parametrize("op,label,value,want", [
    ("Gt", "0206", "0204", True),
    ("Gt", "0204", "0204", False),
    ("Lt", "3", "7", True),
    ("Lt", "-8", "-7", True),
    ("Gt", "abc", "1", False),      # a label that is not an integer never matches
    ("Gt", "1_000", "1", False),    # Go's ParseInt takes no underscores
    ("Lt", "99999999999999999999", "1", False),  # out of int64 range
])
def test_gt_lt(op, label, value, want):
    assert LabelRequirement("k", op, (value,)).matches({"k": label}) is want
    assert LabelRequirement("k", op, (value,)).matches({}) is False


def affinity_pod(*terms: Term, node_selector: Optional[dict] = None, required: bool = True) -> Pod:
    aff = Affinity(NodeAffinity(required=NodeSelector(list(terms)) if required else None))
    return Pod(ObjectMeta(), PodSpec(node_selector=dict(node_selector or {}), affinity=aff))


def selector_pod(sel: dict) -> Pod:
    return Pod(ObjectMeta(), PodSpec(node_selector=sel))


POD_MATCHES_CASES = [
    ("no selector", Pod(ObjectMeta()), {}, "", True),
    ("missing labels", selector_pod({"foo": "bar"}), {}, "", False),
    ("same labels", selector_pod({"foo": "bar"}), {"foo": "bar"}, "", True),
    ("node labels are superset", selector_pod({"foo": "bar"}), {"foo": "bar", "baz": "blah"}, "", True),
    ("node labels are subset", selector_pod({"foo": "bar", "baz": "blah"}), {"foo": "bar"}, "", False),
    ("Pod with matchExpressions using In operator that matches the existing node",
     affinity_pod(Term([expr("foo", "In", "bar", "value2")])), {"foo": "bar"}, "", True),
    ("Pod with matchExpressions using Gt operator that matches the existing node",
     affinity_pod(Term([expr("kernel-version", "Gt", "0204")])), {"kernel-version": "0206"}, "", True),
    ("Pod with matchExpressions using NotIn operator that matches the existing node",
     affinity_pod(Term([expr("mem-type", "NotIn", "DDR", "DDR2")])), {"mem-type": "DDR3"}, "", True),
    ("Pod with matchExpressions using Exists operator that matches the existing node",
     affinity_pod(Term([expr("GPU", "Exists")])), {"GPU": "NVIDIA-GRID-K1"}, "", True),
    ("Pod with affinity that don't match node's labels won't schedule onto the node",
     affinity_pod(Term([expr("foo", "In", "value1", "value2")])), {"foo": "bar"}, "", False),
    ("Pod with a nil []NodeSelectorTerm in affinity, can't match the node's labels and won't schedule onto the node",
     affinity_pod(), {"foo": "bar"}, "", False),
    ("Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node",
     affinity_pod(Term([])), {"foo": "bar"}, "", False),
    ("Pod with no Affinity will schedule onto a node", Pod(ObjectMeta()), {"foo": "bar"}, "", True),
    ("Pod with Affinity but nil NodeSelector will schedule onto a node",
     affinity_pod(required=False), {"foo": "bar"}, "", True),
    ("Pod with multiple matchExpressions ANDed that matches the existing node",
     affinity_pod(Term([expr("GPU", "Exists"), expr("GPU", "NotIn", "AMD", "INTER")])),
     {"GPU": "NVIDIA-GRID-K1"}, "", True),
    ("Pod with multiple matchExpressions ANDed that doesn't match the existing node",
     affinity_pod(Term([expr("GPU", "Exists"), expr("GPU", "In", "AMD", "INTER")])),
     {"GPU": "NVIDIA-GRID-K1"}, "", False),
    ("Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node",
     affinity_pod(Term([expr("foo", "In", "bar", "value2")]), Term([expr("diffkey", "In", "wrong", "value2")])),
     {"foo": "bar"}, "", True),
    ("Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, "
     "will schedule onto the node",
     affinity_pod(Term([expr("foo", "Exists")]), node_selector={"foo": "bar"}), {"foo": "bar"}, "", True),
    ("Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are "
     "deprecating) is not satisfied, won't schedule onto the node",
     affinity_pod(Term([expr("foo", "Exists")]), node_selector={"foo": "bar"}), {"foo": "barrrrrr"}, "", False),
    ("Pod with an invalid value in Affinity term won't be scheduled onto the node",
     affinity_pod(Term([expr("foo", "NotIn", "invalid value: ___@#$%^")])), {"foo": "bar"}, "", False),
    ("Pod with matchFields using In operator that matches the existing node",
     affinity_pod(Term(match_fields=[expr(NAME_FIELD, "In", "node_1")])), {}, "node_1", True),
    ("Pod with matchFields using In operator that does not match the existing node",
     affinity_pod(Term(match_fields=[expr(NAME_FIELD, "In", "node_1")])), {}, "node_2", False),
    ("Pod with two terms: matchFields does not match, but matchExpressions matches",
     affinity_pod(Term(match_fields=[expr(NAME_FIELD, "In", "node_1")]), Term([expr("foo", "In", "bar")])),
     {"foo": "bar"}, "node_2", True),
    ("Pod with one term: matchFields does not match, but matchExpressions matches",
     affinity_pod(Term([expr("foo", "In", "bar")], [expr(NAME_FIELD, "In", "node_1")])),
     {"foo": "bar"}, "node_2", False),
    ("Pod with one term: both matchFields and matchExpressions match",
     affinity_pod(Term([expr("foo", "In", "bar")], [expr(NAME_FIELD, "In", "node_1")])),
     {"foo": "bar"}, "node_1", True),
    ("Pod with two terms: both matchFields and matchExpressions do not match",
     affinity_pod(Term(match_fields=[expr(NAME_FIELD, "In", "node_1")]),
                  Term([expr("foo", "In", "not-match-to-bar")])),
     {"foo": "bar"}, "node_2", False),
]


@pytest.mark.parametrize("pod,labels,node_name,want", [c[1:] for c in POD_MATCHES_CASES],
                         ids=[c[0] for c in POD_MATCHES_CASES])
def test_pod_matches_node_selector_and_affinity_terms(pod, labels, node_name, want):
    got, _ = get_required_node_affinity(pod).match(node(node_name, labels))
    assert got is want


def test_match_fields_with_two_values_is_a_parse_error():
    # The shape of the conformance case score-nodeaffinity-matchfields: In with two
    # node names is not a valid field selector, so the term never matches.
    pod = affinity_pod(Term(match_fields=[expr(NAME_FIELD, "In", "n2", "n3")]))
    for name in ("n2", "n3"):
        matched, err = get_required_node_affinity(pod).match(node(name))
        assert not matched
        assert str(err) == ('nodeSelectorTerms[0].matchFields[0].values: Invalid value: '
                            '[]string{"n2", "n3"}: must have one element')
