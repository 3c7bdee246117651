"""Mirrors pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go (v1.30):
TestRequiredAffinitySingleNode, TestRequiredAffinityMultipleNodes,
TestPreFilterDisabled, TestPreFilterStateAddRemovePod, TestPreFilterStateClone and
TestGetTPMapMatchingIncomingAffinityAntiAffinity.

Upstream's two "fails PreFilter with an invalid ... label syntax" cases are left
out: label values are checked when a manifest is loaded, not by the plugin.
"""
from __future__ import annotations

import pytest

from ksched_edu.api.types import Affinity, LabelSelector, PodAffinity
from ksched_edu.config.types_pluginargs import InterPodAffinityArgs
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, Status
from ksched_edu.framework.plugins.interpodaffinity.filtering import (
    ERR_REASON_AFFINITY_RULES_NOT_MATCH as AFF, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH as ANTI,
    ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH as EXIST, PRE_FILTER_STATE_KEY, PreFilterState,
    TopologyPair, TopologyToMatchedTermCount)
from ksched_edu.framework.plugins.interpodaffinity import new
from ksched_edu.framework.types import NODE, POD, ActionType, ClusterEvent, NodeInfo, PodInfo
from tests.builders import POD_AFFINITY_WITH_REQUIRED_REQ as AFF_REQ
from tests.builders import POD_ANTI_AFFINITY_WITH_REQUIRED_REQ as ANTI_REQ
from tests.builders import make_pod
from tests.fakes import FakeHandle

from .objects import (NAMESPACES, assert_status, create_pod_with_affinity_terms, namespace, node, req,
                      setup_plugin, term)
from .objects import pod as plain_pod

OK = (Code.Success,)
SKIP = Code.Skip

# --- TestRequiredAffinitySingleNode -------------------------------------------------------

POD_LABEL = {"service": "securityscan"}
POD_LABEL2 = {"security": "S1"}
NODE1 = node("node1", {"region": "r1", "zone": "z11"})
EXISTING_POD = make_pod().name("existing").labels(POD_LABEL).node("node1").obj()
TEAM1 = LabelSelector(match_expressions=[req("team", "In", "team1")])


def _single_node_cases():
    # (name, pod, existing pods, PreFilter code, Filter status (code, *reasons))
    return [
        ("A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods",
         make_pod().obj(), [], SKIP, None),
        ("satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that "
         "matches the existing pod",
         make_pod().labels(POD_LABEL2).pod_affinity_in("service", "region", ["securityscan", "value2"], AFF_REQ).obj(),
         [EXISTING_POD], None, OK),
        ("satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator "
         "in labelSelector that matches the existing pod",
         make_pod().labels(POD_LABEL2).pod_affinity_not_in("service", "region", ["securityscan3", "value3"],
                                                           AFF_REQ).obj(),
         [EXISTING_POD], None, OK),
        ("Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
         create_pod_with_affinity_terms("", "", POD_LABEL2, [
             term("", req("service", "In", "securityscan", "value2"), namespaces=("DiffNameSpace",))], None),
         [make_pod().namespace("ns").label("service", "securityscan").node("node1").obj()],
         None, (Code.UnschedulableAndUnresolvable, AFF)),
        ("Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
         make_pod().labels(POD_LABEL).pod_affinity_in("service", "", ["antivirusscan", "value2"], AFF_REQ).obj(),
         [EXISTING_POD], None, (Code.UnschedulableAndUnresolvable, AFF)),
        ("satisfies the PodAffinity with different label Operators in multiple "
         "RequiredDuringSchedulingIgnoredDuringExecution ",
         create_pod_with_affinity_terms("", "", POD_LABEL2, [
             term("region", req("service", "Exists"), req("wrongkey", "DoesNotExist")),
             term("region", req("service", "In", "securityscan"), req("service", "NotIn", "WrongValue"))], None),
         [EXISTING_POD], None, OK),
        ("The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node "
         "because one of the matchExpression item don't match.",
         create_pod_with_affinity_terms("", "", POD_LABEL2, [
             term("region", req("service", "Exists"), req("wrongkey", "DoesNotExist")),
             term("region", req("service", "In", "securityscan2"), req("service", "NotIn", "WrongValue"))], None),
         [EXISTING_POD], None, (Code.UnschedulableAndUnresolvable, AFF)),
        ("satisfies the PodAffinity and PodAntiAffinity with the existing pod",
         make_pod().labels(POD_LABEL2)
         .pod_affinity_in("service", "region", ["securityscan", "value2"], AFF_REQ)
         .pod_anti_affinity_in("service", "node", ["antivirusscan", "value2"], ANTI_REQ).obj(),
         [EXISTING_POD], None, OK),
        ("satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
         make_pod().labels(POD_LABEL2)
         .pod_affinity_in("service", "region", ["securityscan", "value2"], AFF_REQ)
         .pod_anti_affinity_in("service", "node", ["antivirusscan", "value2"], ANTI_REQ).obj(),
         [make_pod().name("existing").node("node1").labels(POD_LABEL)
          .pod_anti_affinity_in("service", "node", ["antivirusscan", "value2"], ANTI_REQ).obj()],
         None, OK),
        ("satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
         make_pod().labels(POD_LABEL2)
         .pod_affinity_in("service", "region", ["securityscan", "value2"], AFF_REQ)
         .pod_anti_affinity_in("service", "zone", ["securityscan", "value2"], ANTI_REQ).obj(),
         [EXISTING_POD], None, (Code.Unschedulable, ANTI)),
        ("satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the "
         "existing pod",
         make_pod().labels(POD_LABEL)
         .pod_affinity_in("service", "region", ["securityscan", "value2"], AFF_REQ)
         .pod_anti_affinity_in("service", "node", ["antivirusscan", "value2"], ANTI_REQ).obj(),
         [make_pod().name("existing").labels(POD_LABEL).node("node1")
          .pod_anti_affinity_in("service", "zone", ["securityscan", "value2"], ANTI_REQ).obj()],
         None, (Code.Unschedulable, EXIST)),
        ("pod matches its own Label in PodAffinity and that matches the existing pod Labels",
         make_pod().labels(POD_LABEL).pod_affinity_not_in("service", "region", ["securityscan", "value2"],
                                                          AFF_REQ).obj(),
         [make_pod().name("existing").label("service", "securityscan").node("node2").obj()],
         None, (Code.UnschedulableAndUnresolvable, AFF)),
        ("verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. "
         "doesn't satisfy PodAntiAffinity symmetry with the existing pod",
         make_pod().labels(POD_LABEL).obj(),
         [make_pod().name("existing").node("node1").labels(POD_LABEL)
          .pod_anti_affinity_in("service", "zone", ["securityscan", "value2"], ANTI_REQ).obj()],
         None, (Code.Unschedulable, EXIST)),
        ("verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. "
         "satisfy PodAntiAffinity symmetry with the existing pod",
         make_pod().labels(POD_LABEL).obj(),
         [make_pod().name("existing").node("node1").labels(POD_LABEL)
          .pod_anti_affinity_not_in("service", "zone", ["securityscan", "value2"], ANTI_REQ).obj()],
         SKIP, None),
        ("satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming "
         "pod",
         make_pod().labels(POD_LABEL).pod_anti_affinity_exists("service", "region", ANTI_REQ)
         .pod_anti_affinity_exists("security", "region", ANTI_REQ).obj(),
         [make_pod().name("existing").node("node1").labels(POD_LABEL2)
          .pod_anti_affinity_exists("security", "zone", ANTI_REQ).obj()],
         None, (Code.Unschedulable, ANTI)),
        ("PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on "
         "AffinityTerms",
         make_pod().labels(POD_LABEL).pod_anti_affinity_exists("service", "zone", ANTI_REQ)
         .pod_anti_affinity_exists("security", "zone", ANTI_REQ).obj(),
         [make_pod().name("existing").node("node1").labels(POD_LABEL2)
          .pod_anti_affinity_exists("security", "zone", ANTI_REQ).obj()],
         None, (Code.Unschedulable, ANTI)),
        ("PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on "
         "AffinityTerms",
         make_pod().labels(POD_LABEL2).pod_anti_affinity_exists("security", "zone", ANTI_REQ).obj(),
         [make_pod().name("existing").node("node1").labels(POD_LABEL)
          .pod_anti_affinity_exists("service", "zone", ANTI_REQ)
          .pod_anti_affinity_exists("security", "zone", ANTI_REQ).obj()],
         None, (Code.Unschedulable, EXIST)),
        ("PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on "
         "AffinityTerms",
         make_pod().labels({"abc": "", "xyz": ""}).pod_anti_affinity_exists("abc", "zone", ANTI_REQ)
         .pod_anti_affinity_exists("def", "zone", ANTI_REQ).obj(),
         [make_pod().name("existing").node("node1").labels({"def": "", "xyz": ""})
          .pod_anti_affinity_exists("abc", "zone", ANTI_REQ).pod_anti_affinity_exists("def", "zone", ANTI_REQ).obj()],
         None, (Code.Unschedulable, ANTI)),
        ("PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on "
         "AffinityTerms",
         make_pod().labels({"def": "", "xyz": ""}).pod_anti_affinity_exists("abc", "zone", ANTI_REQ)
         .pod_anti_affinity_exists("def", "zone", ANTI_REQ).obj(),
         [make_pod().name("existing").node("node1").labels({"abc": "", "xyz": ""})
          .pod_anti_affinity_exists("abc", "zone", ANTI_REQ).pod_anti_affinity_exists("def", "zone", ANTI_REQ).obj()],
         None, (Code.Unschedulable, ANTI)),
        ("affinity with NamespaceSelector",
         create_pod_with_affinity_terms("", "", POD_LABEL2, [
             term("region", req("service", "In", "securityscan", "value2"), ns_selector=TEAM1)], None),
         [make_pod().name("existing").namespace("subteam1.team1").labels(POD_LABEL).node("node1").obj()],
         None, OK),
        ("affinity with non-matching NamespaceSelector",
         create_pod_with_affinity_terms("", "", POD_LABEL2, [
             term("region", req("service", "In", "securityscan", "value2"), ns_selector=TEAM1)], None),
         [make_pod().name("existing").namespace("subteam1.team2").labels(POD_LABEL).node("node1").obj()],
         None, (Code.UnschedulableAndUnresolvable, AFF)),
        ("anti-affinity with matching NamespaceSelector",
         create_pod_with_affinity_terms("subteam1.team1", "", POD_LABEL2, None, [
             term("zone", req("service", "In", "securityscan", "value2"), ns_selector=TEAM1)]),
         [make_pod().name("existing").namespace("subteam2.team1").labels(POD_LABEL).node("node1").obj()],
         None, (Code.Unschedulable, ANTI)),
        ("anti-affinity with matching all NamespaceSelector",
         create_pod_with_affinity_terms("subteam1.team1", "", POD_LABEL2, None, [
             term("zone", req("service", "In", "securityscan", "value2"), ns_selector=LabelSelector())]),
         [make_pod().name("existing").namespace("subteam2.team1").labels(POD_LABEL).node("node1").obj()],
         None, (Code.Unschedulable, ANTI)),
        ("anti-affinity with non-matching NamespaceSelector",
         create_pod_with_affinity_terms("subteam1.team1", "", POD_LABEL2, None, [
             term("zone", req("service", "In", "securityscan", "value2"), ns_selector=TEAM1)]),
         [make_pod().name("existing").namespace("subteam1.team2").labels(POD_LABEL).node("node1").obj()],
         None, OK),
    ]


_SINGLE = _single_node_cases()


@pytest.mark.parametrize("name,pod,pods,want_pre_filter,want_filter", _SINGLE, ids=[c[0] for c in _SINGLE])
def test_required_affinity_single_node(name, pod, pods, want_pre_filter, want_filter):
    p, snapshot = setup_plugin(pods, [NODE1], namespaces=NAMESPACES)
    state = CycleState()
    _, pre_status = p.pre_filter(state, pod)
    if want_pre_filter is None:
        assert pre_status is None
    else:
        assert pre_status is not None and pre_status.code == want_pre_filter
        return
    assert_status(p.filter(state, pod, snapshot.get("node1")), *want_filter)


# --- TestRequiredAffinityMultipleNodes -----------------------------------------------------

RG_CHINA = {"region": "China"}
RG_CHINA_AZ1 = {"region": "China", "az": "az1"}
RG_INDIA = {"region": "India"}
U_AFF = (Code.UnschedulableAndUnresolvable, AFF)
U_ANTI = (Code.Unschedulable, ANTI)
U_EXIST = (Code.Unschedulable, EXIST)


def _abc_nodes(*zones: str):
    return [node(f"node{n}", {"region": "r1", "zone": z, "hostname": f"node{n}"}) for n, z in zip("ABC", zones)]


def _multiple_nodes_cases():
    # (name, pod, existing pods, nodes, PreFilter code, Filter status per node)
    return [
        ("A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them "
         "has an existing pod that matches the affinity rules",
         make_pod().pod_affinity_in("foo", "region", ["bar"], AFF_REQ).obj(),
         [make_pod().name("p1").node("node1").labels({"foo": "bar"}).obj()],
         [node("node1", RG_CHINA), node("node2", RG_CHINA_AZ1), node("node3", RG_INDIA)],
         None, [OK, OK, U_AFF]),
        ("The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the "
         "collection should not be blocked from being scheduled onto any node, even there's no existing pod that "
         "matches the rule anywhere.",
         make_pod().labels({"foo": "bar", "service": "securityscan"})
         .pod_affinity_in("foo", "zone", ["bar"], AFF_REQ)
         .pod_affinity_in("service", "zone", ["securityscan"], AFF_REQ).obj(),
         [make_pod().name("p1").node("nodeA").labels({"foo": "bar"}).obj()],
         [node("nodeA", {"zone": "az1", "hostname": "h1"}), node("nodeB", {"zone": "az2", "hostname": "h2"})],
         None, [OK, OK]),
        ("The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys",
         make_pod().labels({"foo": "bar", "service": "securityscan"})
         .pod_affinity_in("foo", "zone", ["bar"], AFF_REQ)
         .pod_affinity_in("service", "zone", ["securityscan"], AFF_REQ).obj(),
         [make_pod().name("p1").node("nodeA").labels({"foo": "bar"}).obj()],
         [node("nodeA", {"zoneLabel": "az1", "hostname": "h1"}), node("nodeB", {"zoneLabel": "az2", "hostname": "h2"})],
         None, [U_AFF, U_AFF]),
        ("NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
         "affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
         make_pod().pod_anti_affinity_in("foo", "region", ["abc"], ANTI_REQ).obj(),
         [make_pod().name("e").node("nodeA").labels({"foo": "abc"}).obj()],
         [node("nodeA", {"region": "r1", "hostname": "nodeA"}), node("nodeB", {"region": "r1", "hostname": "nodeB"})],
         None, [U_ANTI, U_ANTI]),
        ("This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.",
         make_pod().pod_anti_affinity_in("foo", "region", ["abc"], ANTI_REQ)
         .pod_anti_affinity_in("service", "zone", ["securityscan"], ANTI_REQ).obj(),
         [make_pod().name("e").node("nodeA").labels({"foo": "abc", "service": "securityscan"}).obj()],
         [node("nodeA", {"region": "r1", "zone": "z1", "hostname": "nodeA"}),
          node("nodeB", {"region": "r1", "zone": "z2", "hostname": "nodeB"})],
         None, [U_ANTI, U_ANTI]),
        ("NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
         "affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
         make_pod().pod_anti_affinity_in("foo", "region", ["abc"], ANTI_REQ).obj(),
         [make_pod().name("e").node("nodeA").labels({"foo": "abc"}).obj()],
         [node("nodeA", RG_CHINA), node("nodeB", RG_CHINA_AZ1), node("nodeC", RG_INDIA)],
         None, [U_ANTI, U_ANTI, OK]),
        ("NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod "
         "affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has "
         "an existing pod that match the inter pod affinity rule but in different namespace)",
         make_pod().namespace("NS1").labels({"foo": "123"}).pod_anti_affinity_in("foo", "region", ["bar"],
                                                                                 ANTI_REQ).obj(),
         [make_pod().name("e1").node("nodeA").namespace("NS1").labels({"foo": "bar"}).obj(),
          make_pod().name("e2").node("nodeC").namespace("NS2").pod_anti_affinity_in("foo", "region", ["123"],
                                                                                    ANTI_REQ).obj()],
         [node("nodeA", RG_CHINA), node("nodeB", RG_CHINA_AZ1), node("nodeC", RG_INDIA)],
         None, [U_ANTI, U_ANTI, OK]),
        ("Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of "
         "the term is firstly checked, and then topologyKey of the term is also checked",
         make_pod().label("foo", "").obj(),
         [make_pod().name("e").node("nodeA").pod_anti_affinity_exists("foo", "invalid-node-label", ANTI_REQ).obj()],
         _abc_nodes("z1", "z1"),
         SKIP, [OK, OK]),
        ("Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
         make_pod().node("nodeA").pod_anti_affinity_exists("foo", "invalid-node-label", ANTI_REQ).obj(),
         [make_pod().name("e").node("nodeA").labels({"foo": ""}).obj()],
         _abc_nodes("z1", "z1"),
         None, [OK, OK]),
        ("Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each "
         "existingPod's terms on all nodes",
         make_pod().label("foo", "").label("bar", "").obj(),
         [make_pod().name("e1").node("nodeA").pod_anti_affinity_exists("foo", "zone", ANTI_REQ).obj(),
          make_pod().name("e2").node("nodeA").pod_anti_affinity_exists("bar", "region", ANTI_REQ).obj()],
         _abc_nodes("z1", "z2"),
         None, [U_EXIST, U_EXIST]),
        ("Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one "
         "anti-affinity rule of existingPod",
         make_pod().pod_anti_affinity_exists("foo", "zone", ANTI_REQ)
         .pod_anti_affinity_exists("bar", "region", ANTI_REQ).obj(),
         [make_pod().name("e1").node("nodeA").labels({"foo": ""}).obj(),
          make_pod().name("e2").node("nodeB").labels({"bar": ""}).obj()],
         _abc_nodes("z1", "z2"),
         None, [U_ANTI, U_ANTI]),
        ("Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
         "single term match - case when one term has invalid topologyKey",
         make_pod().label("foo", "").label("bar", "").obj(),
         [make_pod().name("e").node("nodeA").pod_anti_affinity_exists("foo", "invalid-node-label", ANTI_REQ)
          .pod_anti_affinity_exists("bar", "zone", ANTI_REQ).obj()],
         _abc_nodes("z1", "z2"),
         None, [U_EXIST, OK]),
        ("Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
         "single term match - case when one term has invalid topologyKey",
         make_pod().pod_anti_affinity_exists("foo", "invalid-node-label", ANTI_REQ)
         .pod_anti_affinity_exists("bar", "zone", ANTI_REQ).obj(),
         [make_pod().name("podA").node("nodeA").labels({"foo": "", "bar": ""}).obj()],
         _abc_nodes("z1", "z2"),
         None, [U_ANTI, OK]),
        ("Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
         "single term match - case when all terms have valid topologyKey",
         make_pod().label("foo", "").label("bar", "").obj(),
         [make_pod().name("e").node("nodeA").pod_anti_affinity_exists("foo", "region", ANTI_REQ)
          .pod_anti_affinity_exists("bar", "zone", ANTI_REQ).obj()],
         _abc_nodes("z1", "z2"),
         None, [U_EXIST, U_EXIST]),
        ("Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a "
         "single term match - case when all terms have valid topologyKey",
         make_pod().pod_anti_affinity_exists("foo", "region", ANTI_REQ)
         .pod_anti_affinity_exists("bar", "zone", ANTI_REQ).obj(),
         [make_pod().name("e").node("nodeA").labels({"foo": "", "bar": ""}).obj()],
         _abc_nodes("z1", "z2"),
         None, [U_ANTI, U_ANTI]),
        ("Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term "
         "matches incoming pod, so incoming pod can only be scheduled to nodeC",
         make_pod().label("foo", "").label("bar", "").obj(),
         [make_pod().name("e1").node("nodeA").pod_anti_affinity_exists("foo", "zone", ANTI_REQ)
          .pod_anti_affinity_exists("labelA", "zone", ANTI_REQ).obj(),
          make_pod().name("e2").node("nodeB").pod_anti_affinity_exists("bar", "zone", ANTI_REQ)
          .pod_anti_affinity_exists("labelB", "zone", ANTI_REQ).obj()],
         _abc_nodes("z1", "z2", "z3"),
         None, [U_EXIST, U_EXIST, OK]),
        ("Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys "
         "match",
         make_pod().pod_affinity_exists("foo", "region", AFF_REQ).pod_affinity_exists("bar", "zone", AFF_REQ).obj(),
         [make_pod().name("pod1").labels({"foo": "", "bar": ""}).node("nodeA").obj()],
         _abc_nodes("z1", "z1"),
         None, [OK, OK]),
        ("Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys "
         "match, and the match logic should be satisfied on the same pod",
         make_pod().pod_affinity_exists("foo", "region", AFF_REQ).pod_affinity_exists("bar", "zone", AFF_REQ).obj(),
         [make_pod().node("nodeA").name("pod1").labels({"foo": ""}).obj(),
          make_pod().node("nodeB").name("pod2").labels({"bar": ""}).obj()],
         _abc_nodes("z1", "z2"),
         None, [U_AFF, U_AFF]),
    ]


_MULTIPLE = _multiple_nodes_cases()


@pytest.mark.parametrize("name,pod,pods,nodes,want_pre_filter,want_filters", _MULTIPLE,
                         ids=[c[0] for c in _MULTIPLE])
def test_required_affinity_multiple_nodes(name, pod, pods, nodes, want_pre_filter, want_filters):
    p, snapshot = setup_plugin(pods, nodes, namespaces=[namespace("NS1")])
    state = CycleState()
    _, pre_status = p.pre_filter(state, pod)
    if want_pre_filter is None:
        assert pre_status is None
    else:
        assert pre_status is not None and pre_status.code == want_pre_filter
        return
    for n, want in zip(nodes, want_filters):
        assert_status(p.filter(state, pod, snapshot.get(n.metadata.name)), *want)


# --- TestPreFilterDisabled ----------------------------------------------------------------------


def test_pre_filter_disabled():
    node_info = NodeInfo()
    node_info.set_node(node(""))
    p, _ = setup_plugin([], [])
    got = p.filter(CycleState(), make_pod().obj(), node_info)
    assert got == Status.as_status(f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found')


# --- TestPreFilterStateAddRemovePod ----------------------------------------------------------------

LABEL1 = {"region": "r1", "zone": "z11"}
LABEL2 = {"region": "r1", "zone": "z12"}
LABEL3 = {"region": "r2", "zone": "z21"}
SELECTOR1 = {"foo": "bar"}
ANTI_FOO_BAR = PodAffinity(required=[term("region", req("foo", "In", "bar"))])
ANTI_COMPLEX = PodAffinity(required=[term("region", req("foo", "In", "bar", "buzz")),
                                     term("zone", req("service", "NotIn", "bar", "security", "test"))])
AFF_COMPLEX = PodAffinity(required=[term("region", req("foo", "In", "bar", "buzz")),
                                    term("zone", req("service", "NotIn", "bar", "security", "test"))])
ADD_REMOVE_NODES = [node("nodeA", LABEL1), node("nodeB", LABEL2), node("nodeC", LABEL3)]


def _p(name, node_name="", labels=None, affinity=None):
    return plain_pod(name, "", node_name, labels, affinity)


def _counts(d):
    return {TopologyPair(k, v): n for (k, v), n in d.items()}


_ADD_REMOVE = [
    ("preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
     _p("pending", labels=SELECTOR1, affinity=Affinity(pod_anti_affinity=ANTI_FOO_BAR)),
     [_p("p1", "nodeA", SELECTOR1), _p("p2", "nodeC", affinity=Affinity(pod_anti_affinity=ANTI_FOO_BAR))],
     _p("addedPod", "nodeB", SELECTOR1, Affinity(pod_anti_affinity=ANTI_FOO_BAR)),
     {("region", "r1"): 2}, {}),
    ("preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
     _p("pending", labels=SELECTOR1, affinity=Affinity(pod_anti_affinity=ANTI_COMPLEX)),
     [_p("p1", "nodeA", SELECTOR1), _p("p2", "nodeC", affinity=Affinity(pod_anti_affinity=ANTI_FOO_BAR))],
     _p("addedPod", "nodeA", SELECTOR1, Affinity(pod_anti_affinity=ANTI_COMPLEX)),
     {("region", "r1"): 2, ("zone", "z11"): 2, ("zone", "z21"): 1}, {}),
    ("preFilterState matching pod affinity and anti-affinity are updated correctly after adding and removing a pod",
     _p("pending", labels=SELECTOR1, affinity=Affinity(pod_affinity=AFF_COMPLEX)),
     [_p("p1", "nodeA", SELECTOR1),
      _p("p2", "nodeC", affinity=Affinity(pod_anti_affinity=ANTI_FOO_BAR, pod_affinity=AFF_COMPLEX))],
     _p("addedPod", "nodeA", SELECTOR1, Affinity(pod_anti_affinity=ANTI_COMPLEX)),
     {}, {("region", "r1"): 2, ("zone", "z11"): 2}),
]


@pytest.mark.parametrize("name,pending,existing,added,want_anti,want_aff", _ADD_REMOVE,
                         ids=[f"{c[0]} #{i}" for i, c in enumerate(_ADD_REMOVE)])
def test_pre_filter_state_add_remove_pod(name, pending, existing, added, want_anti, want_aff):
    def get_state(pods):
        p, snapshot = setup_plugin(pods, ADD_REMOVE_NODES)
        cycle_state = CycleState()
        _, status = p.pre_filter(cycle_state, pending)
        assert status is None
        return p, cycle_state, cycle_state.read(PRE_FILTER_STATE_KEY), snapshot

    # The state PreFilter builds when the added pod is already there.
    _, _, all_pods_state, _ = get_state(existing + [added])
    # The state without it, and a copy to compare with after the removal.
    ipa, cycle_state, state, snapshot = get_state(existing)
    original_state = state.clone()

    node_info = snapshot.get(added.spec.node_name)
    assert ipa.add_pod(cycle_state, pending, PodInfo.of(added), node_info) is None
    new_state = cycle_state.read(PRE_FILTER_STATE_KEY)
    assert new_state.anti_affinity_counts == _counts(want_anti)
    assert new_state.affinity_counts == _counts(want_aff)
    assert state == all_pods_state

    assert ipa.remove_pod(cycle_state, pending, PodInfo.of(added), node_info) is None
    assert state == original_state


def test_pre_filter_state_clone():
    source = PreFilterState(
        existing_anti_affinity_counts=TopologyToMatchedTermCount(_counts({("name", "node1"): 1, ("name", "node2"): 1})),
        affinity_counts=TopologyToMatchedTermCount(_counts({("name", "nodeA"): 1, ("name", "nodeC"): 2})),
        anti_affinity_counts=TopologyToMatchedTermCount(_counts({("name", "nodeN"): 3, ("name", "nodeM"): 1})))
    clone = source.clone()
    assert clone is not source
    assert clone == source
    clone.affinity_counts[TopologyPair("name", "nodeA")] = 5
    assert source.affinity_counts[TopologyPair("name", "nodeA")] == 1


# --- TestGetTPMapMatchingIncomingAffinityAntiAffinity -----------------------------------------------


def _normal_pod(*labels: str):
    w = make_pod().name("normal").node("nodeA")
    for label in labels:
        w.label(label, "")
    return w.obj()


NODE_A = node("nodeA", {"hostname": "nodeA"})
_TP_MAP = [
    ("nil test", [], make_pod().name("aaa-normal").obj(), {}, {}),
    ("incoming pod without affinity/anti-affinity causes a no-op", [_normal_pod("aaa")],
     make_pod().name("aaa-normal").obj(), {}, {}),
    ("no pod has label that violates incoming pod's affinity and anti-affinity", [_normal_pod("bbb")],
     make_pod().name("aaa-anti").pod_affinity_exists("aaa", "hostname", AFF_REQ)
     .pod_anti_affinity_exists("aaa", "hostname", ANTI_REQ).obj(), {}, {}),
    ("existing pod matches incoming pod's affinity and anti-affinity - single term case", [_normal_pod("aaa")],
     make_pod().name("affi-antiaffi").pod_affinity_exists("aaa", "hostname", AFF_REQ)
     .pod_anti_affinity_exists("aaa", "hostname", ANTI_REQ).obj(),
     {("hostname", "nodeA"): 1}, {("hostname", "nodeA"): 1}),
    ("existing pod matches incoming pod's affinity and anti-affinity - multiple terms case",
     [_normal_pod("aaa", "bbb")],
     make_pod().name("affi-antiaffi").pod_affinity_exists("aaa", "hostname", AFF_REQ)
     .pod_affinity_exists("bbb", "hostname", AFF_REQ).pod_anti_affinity_exists("aaa", "hostname", ANTI_REQ).obj(),
     {("hostname", "nodeA"): 2}, {("hostname", "nodeA"): 1}),
    ("existing pod not match incoming pod's affinity but matches anti-affinity", [_normal_pod("aaa")],
     make_pod().name("affi-antiaffi").pod_affinity_exists("aaa", "hostname", AFF_REQ)
     .pod_affinity_exists("bbb", "hostname", AFF_REQ).pod_anti_affinity_exists("aaa", "hostname", ANTI_REQ)
     .pod_anti_affinity_exists("bbb", "hostname", ANTI_REQ).obj(),
     {}, {("hostname", "nodeA"): 1}),
    ("incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 1",
     [_normal_pod("aaa", "bbb")],
     make_pod().name("anaffi-antiaffiti").pod_affinity_exists("aaa", "hostname", AFF_REQ)
     .pod_affinity_exists("ccc", "hostname", AFF_REQ).pod_anti_affinity_exists("aaa", "hostname", ANTI_REQ)
     .pod_anti_affinity_exists("ccc", "hostname", ANTI_REQ).obj(),
     {}, {("hostname", "nodeA"): 1}),
    ("incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 2",
     [_normal_pod("bbb")],
     make_pod().name("affi-antiaffi").pod_affinity_exists("aaa", "hostname", AFF_REQ)
     .pod_affinity_exists("bbb", "hostname", AFF_REQ).pod_anti_affinity_exists("aaa", "hostname", ANTI_REQ)
     .pod_anti_affinity_exists("bbb", "hostname", ANTI_REQ).obj(),
     {}, {("hostname", "nodeA"): 1}),
]


@pytest.mark.parametrize("name,existing,pod,want_affinity,want_anti_affinity", _TP_MAP, ids=[c[0] for c in _TP_MAP])
def test_get_tp_map_matching_incoming_affinity_anti_affinity(name, existing, pod, want_affinity, want_anti_affinity):
    p, snapshot = setup_plugin(existing, [NODE_A])
    got_affinity, got_anti_affinity = p.get_incoming_affinity_anti_affinity_counts(PodInfo.of(pod),
                                                                                   snapshot.list())
    assert got_affinity == _counts(want_affinity)
    assert got_anti_affinity == _counts(want_anti_affinity)


# --- what the plugin registers -----------------------------------------------------------------------


def test_events_to_register():
    p, _ = setup_plugin([], [])
    assert [e.event for e in p.events_to_register()] == [
        ClusterEvent(POD, ActionType.All),
        ClusterEvent(NODE, ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint),
    ]
    assert all(e.queueing_hint_fn is None for e in p.events_to_register())


def test_new_rejects_out_of_range_weight():
    with pytest.raises(ValueError) as err:
        new(InterPodAffinityArgs(hard_pod_affinity_weight=101), FakeHandle())
    assert str(err.value) == "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"
