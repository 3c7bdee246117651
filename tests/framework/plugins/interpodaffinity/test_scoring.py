"""Mirrors pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go (v1.30):
TestPreferredAffinity and TestPreferredAffinityWithHardPodAffinitySymmetricWeight.

Upstream's "invalid (Anti)Affinity fails PreScore" cases are left out: label
values are checked when a manifest is loaded, not by the plugin.
"""
from __future__ import annotations

import pytest

from ksched_edu.api.types import Affinity, LabelSelector, PodAffinity
from ksched_edu.config.types_pluginargs import InterPodAffinityArgs
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import MAX_NODE_SCORE, Code, NodeScore
from ksched_edu.framework.types import NodeInfo

from .objects import NAMESPACES, node, pod, req, setup_plugin, term, weighted

MAX = MAX_NODE_SCORE


RG_CHINA = {"region": "China"}
RG_INDIA = {"region": "India"}
AZ1 = {"az": "az1"}
AZ2 = {"az": "az2"}
RG_CHINA_AZ1 = {"region": "China", "az": "az1"}
S1 = {"security": "S1"}
S2 = {"security": "S2"}
TEAM1 = LabelSelector(match_expressions=[req("team", "In", "team1")])

STAY_WITH_S1_IN_REGION = Affinity(pod_affinity=PodAffinity(preferred=[
    weighted(5, term("region", req("security", "In", "S1")))]))
STAY_WITH_S2_IN_REGION = Affinity(pod_affinity=PodAffinity(preferred=[
    weighted(6, term("region", req("security", "In", "S2")))]))
AFFINITY3 = Affinity(pod_affinity=PodAffinity(preferred=[
    weighted(8, term("region", req("security", "NotIn", "S1"), req("security", "In", "S2"))),
    weighted(2, term("region", req("security", "Exists"), req("wrongkey", "DoesNotExist")))]))
HARD_AFFINITY = Affinity(pod_affinity=PodAffinity(required=[
    term("region", req("security", "In", "S1", "value2")),
    term("region", req("security", "Exists"), req("wrongkey", "DoesNotExist"))]))
AWAY_FROM_S1_IN_AZ = Affinity(pod_anti_affinity=PodAffinity(preferred=[
    weighted(5, term("az", req("security", "In", "S1")))]))
AWAY_FROM_S2_IN_AZ = Affinity(pod_anti_affinity=PodAffinity(preferred=[
    weighted(5, term("az", req("security", "In", "S2")))]))
STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ = Affinity(
    pod_affinity=PodAffinity(preferred=[weighted(8, term("region", req("security", "In", "S1")))]),
    pod_anti_affinity=PodAffinity(preferred=[weighted(5, term("az", req("security", "In", "S2")))]))
AFFINITY_NAMESPACE_SELECTOR = Affinity(pod_affinity=PodAffinity(preferred=[
    weighted(5, term("region", req("security", "In", "S1"), namespaces=("subteam2.team2",), ns_selector=TEAM1))]))
ANTI_AFFINITY_NAMESPACE_SELECTOR = Affinity(pod_anti_affinity=PodAffinity(preferred=[
    weighted(5, term("region", req("security", "In", "S1"), namespaces=("subteam2.team2",), ns_selector=TEAM1))]))


def _pods(*specs):
    """(node, labels, affinity[, namespace]) -> running pods named e0, e1, ..."""
    out = []
    for i, s in enumerate(specs):
        node_name, labels, affinity = s[:3]
        ns = s[3] if len(s) > 3 else ""
        out.append(pod(f"e{i}", ns, node_name, labels, affinity))
    return out


def _nodes(*specs):
    return [node(name, labels) for name, labels in specs]


def _scores(*values):
    return [NodeScore(f"node{i + 1}", v) for i, v in enumerate(values)]


# (name, pod, existing pods, nodes, want scores or None, PreScore code, ignorePreferredTermsOfExistingPods)
_PREFERRED = [
    ("all nodes are same priority as Affinity is nil", pod(labels=S1), [],
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA), ("node3", AZ1)), None, Code.Skip, False),
    ("Affinity: pod that matches topology key & pods in nodes will get high score comparing to others"
     "which doesn't match either pods in nodes or in topology key",
     pod(labels=S1, affinity=STAY_WITH_S1_IN_REGION),
     _pods(("node1", S1, None), ("node2", S2, None), ("node3", S1, None)),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA), ("node3", AZ1)), _scores(MAX, 0, 0), None, False),
    ("All the nodes that have the same topology key & label value with one of them has an existing pod that match "
     "the affinity rules, have the same score",
     pod(affinity=STAY_WITH_S1_IN_REGION), _pods(("node1", S1, None)),
     _nodes(("node1", RG_CHINA), ("node2", RG_CHINA_AZ1), ("node3", RG_INDIA)), _scores(MAX, MAX, 0), None, False),
    ("Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more "
     "matches will get high score",
     pod(labels=S1, affinity=STAY_WITH_S2_IN_REGION),
     _pods(("node1", S2, None), ("node1", S2, None), ("node2", S2, None), ("node3", S2, None), ("node4", S2, None),
           ("node5", S2, None)),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA), ("node3", RG_CHINA), ("node4", RG_CHINA), ("node5", RG_INDIA)),
     _scores(MAX, 0, MAX, MAX, 0), None, False),
    ("Affinity: different Label operators and values for pod affinity scheduling preference, including some match "
     "failures ",
     pod(labels=S1, affinity=AFFINITY3),
     _pods(("node1", S1, None), ("node2", S2, None), ("node3", S1, None)),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA), ("node3", AZ1)), _scores(20, MAX, 0), None, False),
    ("Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity "
     "symmetry",
     pod(labels=S2),
     _pods(("node1", S1, STAY_WITH_S1_IN_REGION), ("node2", S2, STAY_WITH_S2_IN_REGION)),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA), ("node3", AZ1)), _scores(0, MAX, 0), None, False),
    ("Affinity symmetry with namespace selector",
     pod(namespace="subteam1.team1", labels=S1),
     _pods(("node1", S1, AFFINITY_NAMESPACE_SELECTOR), ("node2", S2, STAY_WITH_S2_IN_REGION)),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA), ("node3", AZ1)), _scores(MAX, 0, 0), None, False),
    ("AntiAffinity symmetry with namespace selector",
     pod(namespace="subteam1.team1", labels=S1),
     _pods(("node1", S1, ANTI_AFFINITY_NAMESPACE_SELECTOR), ("node2", S2, STAY_WITH_S2_IN_REGION)),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA), ("node3", AZ1)), _scores(0, MAX, MAX), None, False),
    ("Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
     pod(labels=S1),
     _pods(("node1", S1, HARD_AFFINITY), ("node2", S2, HARD_AFFINITY)),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA), ("node3", AZ1)), _scores(MAX, MAX, 0), None, False),
    ("Anti Affinity: pod that does not match existing pods in node will get high score ",
     pod(labels=S1, affinity=AWAY_FROM_S1_IN_AZ),
     _pods(("node1", S1, None), ("node2", S2, None)),
     _nodes(("node1", AZ1), ("node2", RG_CHINA)), _scores(0, MAX), None, False),
    ("Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing "
     "to others ",
     pod(labels=S1, affinity=AWAY_FROM_S1_IN_AZ),
     _pods(("node1", S1, None), ("node2", S1, None)),
     _nodes(("node1", AZ1), ("node2", RG_CHINA)), _scores(0, MAX), None, False),
    ("Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches "
     "will get high score",
     pod(labels=S1, affinity=AWAY_FROM_S1_IN_AZ),
     _pods(("node1", S1, None), ("node1", S1, None), ("node2", S2, None)),
     _nodes(("node1", AZ1), ("node2", RG_INDIA)), _scores(0, MAX), None, False),
    ("Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
     pod(labels=S2),
     _pods(("node1", S1, AWAY_FROM_S2_IN_AZ), ("node2", S2, AWAY_FROM_S1_IN_AZ)),
     _nodes(("node1", AZ1), ("node2", AZ2)), _scores(0, MAX), None, False),
    ("Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod "
     "affinity & anti affinity",
     pod(labels=S1, affinity=STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
     _pods(("node1", S1, None), ("node2", S1, None)),
     _nodes(("node1", RG_CHINA), ("node2", AZ1)), _scores(MAX, 0), None, False),
    ("Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods "
     "have the same labels",
     pod(labels=S1, affinity=STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
     _pods(("node1", S1, None), ("node1", S1, None), ("node2", S1, None), ("node3", S1, None), ("node3", S1, None),
           ("node4", S1, None), ("node5", S1, None)),
     _nodes(("node1", RG_CHINA_AZ1), ("node2", RG_INDIA), ("node3", RG_CHINA), ("node4", RG_CHINA),
            ("node5", RG_INDIA)),
     _scores(MAX, 0, MAX, MAX, 0), None, False),
    ("Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in "
     "both pod affinity & anti affinity & symmetry",
     pod(labels=S1, affinity=STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
     _pods(("node1", S1, None), ("node2", S2, None), ("node3", None, STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ),
           ("node4", None, AWAY_FROM_S1_IN_AZ)),
     _nodes(("node1", RG_CHINA), ("node2", AZ1), ("node3", RG_INDIA), ("node4", AZ2)),
     _scores(MAX, 0, MAX, 0), None, False),
    ("Avoid panic when partial nodes in a topology don't have pods with affinity",
     pod(labels=S1),
     _pods(("node1", S1, None), ("node2", None, STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ)),
     _nodes(("node1", RG_CHINA), ("node2", RG_CHINA)), _scores(0, 0), None, False),
    ("Affinity with pods matching NamespaceSelector",
     pod(namespace="subteam1.team1", labels=S1, affinity=AFFINITY_NAMESPACE_SELECTOR),
     _pods(("node1", S1, None, "subteam1.team1"), ("node1", S1, None, "subteam1.team1"),
           ("node1", S1, None, "subteam1.team2"), ("node2", S1, None, "subteam2.team1")),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA)), _scores(MAX, 0), None, False),
    ("Affinity with pods matching both NamespaceSelector and Namespaces fields",
     pod(namespace="subteam1.team1", labels=S1, affinity=AFFINITY_NAMESPACE_SELECTOR),
     _pods(("node1", S1, None, "subteam1.team1"), ("node1", S1, None, "subteam1.team1"),
           ("node1", S1, None, "subteam2.team2"), ("node2", S1, None, "subteam2.team1")),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA)), _scores(MAX, 0), None, False),
    ("Affinity with pods matching NamespaceSelector",
     pod(namespace="subteam1.team1", labels=S1, affinity=ANTI_AFFINITY_NAMESPACE_SELECTOR),
     _pods(("node1", S1, None, "subteam1.team1"), ("node1", S1, None, "subteam1.team1"),
           ("node1", S1, None, "subteam1.team2"), ("node2", S1, None, "subteam2.team1")),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA)), _scores(0, MAX), None, False),
    ("Affinity with pods matching both NamespaceSelector and Namespaces fields",
     pod(namespace="subteam1.team1", labels=S1, affinity=ANTI_AFFINITY_NAMESPACE_SELECTOR),
     _pods(("node1", S1, None, "subteam1.team1"), ("node1", S1, None, "subteam1.team1"),
           ("node1", S1, None, "subteam2.team2"), ("node2", S1, None, "subteam2.team1")),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA)), _scores(0, MAX), None, False),
    ("Ignore preferred terms of existing pods",
     pod(labels=S2),
     _pods(("node1", S1, STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ), ("node2", S2, STAY_WITH_S2_IN_REGION)),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA)), None, Code.Skip, True),
    ("Do not ignore preferred terms of existing pods",
     pod(labels=S2),
     _pods(("node1", S1, STAY_WITH_S1_IN_REGION_AWAY_FROM_S2_IN_AZ), ("node2", S2, STAY_WITH_S2_IN_REGION)),
     _nodes(("node1", RG_CHINA), ("node2", RG_INDIA)), _scores(0, MAX), None, False),
    ("No nodes to score", pod(labels=S2), [], [], None, Code.Skip, False),
]


def _run_scoring(p, test_pod, nodes):
    """PreScore over ``nodes`` (fresh NodeInfos, as upstream BuildNodeInfos), then
    Score and NormalizeScore per node; returns (PreScore status, scores)."""
    state = CycleState()
    node_infos = []
    for n in nodes:
        ni = NodeInfo()
        ni.set_node(n)
        node_infos.append(ni)
    status = p.pre_score(state, test_pod, node_infos)
    if status is not None:
        return status, None
    got = []
    for ni in node_infos:
        score, st = p.score(state, test_pod, ni.node().metadata.name)
        assert st is None
        got.append(NodeScore(ni.node().metadata.name, score))
    assert p.score_extensions().normalize_score(state, test_pod, got) is None
    return None, got


@pytest.mark.parametrize("name,test_pod,pods,nodes,want,want_code,ignore", _PREFERRED,
                         ids=[f"{c[0]} #{i}" for i, c in enumerate(_PREFERRED)])
def test_preferred_affinity(name, test_pod, pods, nodes, want, want_code, ignore):
    p, _ = setup_plugin(pods, nodes, InterPodAffinityArgs(1, ignore), NAMESPACES)
    status, got = _run_scoring(p, test_pod, nodes)
    if want_code is not None:
        assert status is not None and status.code == want_code
        return
    assert status is None
    assert got == want


HARD_POD_AFFINITY = Affinity(pod_affinity=PodAffinity(required=[
    term("region", req("service", "In", "S1"), namespaces=("", "subteam2.team2"), ns_selector=TEAM1)]))
SERVICE_S1 = {"service": "S1"}
_HARD_NODES = _nodes(("node1", RG_CHINA), ("node2", RG_INDIA), ("node3", AZ1))
_HARD_PODS = _pods(("node1", None, HARD_POD_AFFINITY), ("node2", None, HARD_POD_AFFINITY))
DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT = 1

_HARD = [
    ("with default weight", pod(labels=SERVICE_S1), DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT,
     _scores(MAX, MAX, 0), None),
    ("with zero weight", pod(labels=SERVICE_S1), 0, None, Code.Skip),
    ("with no matching namespace", pod(namespace="subteam1.team2", labels=SERVICE_S1),
     DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT, None, Code.Skip),
    ("with matching NamespaceSelector", pod(namespace="subteam1.team1", labels=SERVICE_S1),
     DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT, _scores(MAX, MAX, 0), None),
    ("with matching Namespaces", pod(namespace="subteam2.team2", labels=SERVICE_S1),
     DEFAULT_HARD_POD_AFFINITY_SYMMETRIC_WEIGHT, _scores(MAX, MAX, 0), None),
]


@pytest.mark.parametrize("name,test_pod,weight,want,want_code", _HARD, ids=[c[0] for c in _HARD])
def test_preferred_affinity_with_hard_pod_affinity_symmetric_weight(name, test_pod, weight, want, want_code):
    p, _ = setup_plugin(_HARD_PODS, _HARD_NODES, InterPodAffinityArgs(weight), NAMESPACES)
    status, got = _run_scoring(p, test_pod, _HARD_NODES)
    if want_code is not None:
        assert status is not None and status.code == want_code
        return
    assert status is None
    assert got == want


def test_score_without_pre_score_is_an_error():
    p, _ = setup_plugin([], _HARD_NODES)
    score, status = p.score(CycleState(), pod(), "node1")
    assert (score, status.code, status.message()) == (
        0, Code.Error, 'failed to read "PreScoreInterPodAffinity" from cycleState: not found')
