"""Mirrors pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go (v1.30):
TestPreScoreSkip, TestPreScoreStateEmptyNodes, TestPodTopologySpreadScore."""
from __future__ import annotations

import math

import pytest

from ksched_edu.api.types import (LabelSelector, ObjectMeta, OwnerReference, ReplicaSet, Service, Taint,
                                  TopologySpreadConstraint)
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, NodeScore
from ksched_edu.framework.plugins.podtopologyspread.common import TopologyPair
from ksched_edu.framework.plugins.podtopologyspread.scoring import (PRE_SCORE_STATE_KEY, get_pre_score_state,
                                                                    go_round, score_for_count,
                                                                    topology_normalizing_weight)
from tests.builders import make_label_selector, make_node, make_pod
from .util import BAR_SELECTOR, DNS, FOO_SELECTOR, SA, foo_pod, setup_plugin

HOST = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"


def hn(name, **labels):
    """A node labelled with its hostname, plus ``labels``."""
    w = make_node().name(name).label(HOST, name)
    for k, v in labels.items():
        w.label(k, v)
    return w.obj()


def node(name, labels):
    w = make_node().name(name)
    for k, v in labels.items():
        w.label(k, v)
    return w.obj()


def rs_owned(pod_builder, name="rs1"):
    pod = pod_builder.obj()
    pod.metadata.owner_references = [OwnerReference(api_version="apps/v1", kind="ReplicaSet", name=name,
                                                    controller=True)]
    return pod


def replica_set(name, selector: LabelSelector):
    return ReplicaSet(ObjectMeta(name=name, namespace="default"), selector=selector)


def p_foo():
    return make_pod().name("p").label("foo", "")


# --- TestPreScoreSkip ----------------------------------------------------------------------

PRE_SCORE_SKIP_CASES = [
    ("the pod doesn't have soft topology spread Constraints", make_pod().name("p").namespace("default").obj(),
     [hn("node-a"), hn("node-b")], [], [], "List"),
    ("default constraints and a replicaset that doesn't match",
     rs_owned(make_pod().name("p").namespace("default").label("foo", "bar").label("baz", "sup"), "rs2"),
     [node("node-a", {"planet": "mars"})], [replica_set("rs1", make_label_selector().exists("tar").obj())],
     [TopologySpreadConstraint(2, "planet", SA)], "List"),
]


@pytest.mark.parametrize("pod,nodes,objects,defaults,defaulting", [c[1:] for c in PRE_SCORE_SKIP_CASES],
                         ids=[c[0] for c in PRE_SCORE_SKIP_CASES])
def test_pre_score_skip(pod, nodes, objects, defaults, defaulting):
    p, handle = setup_plugin([], nodes, objects, default_constraints=defaults, defaulting_type=defaulting)
    status = p.pre_score(CycleState(), pod, handle.snapshot.list())
    assert status is not None and status.code == Code.Skip


def test_pre_score_skip_without_nodes():
    p, _ = setup_plugin([], [])
    pod = p_foo().spread_constraint(1, "zone", SA, FOO_SELECTOR).obj()
    assert p.pre_score(CycleState(), pod, []).code == Code.Skip


# --- TestPreScoreStateEmptyNodes -----------------------------------------------------------

W = topology_normalizing_weight

PRE_SCORE_STATE_CASES = [
    ("normal case",
     p_foo().spread_constraint(1, "zone", SA, FOO_SELECTOR).spread_constraint(1, HOST, SA, FOO_SELECTOR).obj(),
     [hn("node-a", zone="zone1"), hn("node-b", zone="zone1"), hn("node-x", zone="zone2")], [], "List", [], True,
     ([(1, "zone"), (1, HOST)], set(), {("zone", "zone1"): 0, ("zone", "zone2"): 0}, [W(2), W(3)])),
    ("null selector", p_foo().spread_constraint(1, "zone", SA, None).obj(),
     [hn("node-a", zone="zone1"), hn("node-b", zone="zone1"), hn("node-x", zone="zone2")], [], "List", [], True,
     ([(1, "zone")], set(), {("zone", "zone1"): 0, ("zone", "zone2"): 0}, [W(2)])),
    ("node-x doesn't have label zone",
     p_foo().spread_constraint(1, "zone", SA, FOO_SELECTOR).spread_constraint(1, HOST, SA, BAR_SELECTOR).obj(),
     [hn("node-a", zone="zone1"), hn("node-b", zone="zone1"), hn("node-x")], [], "List", [], True,
     ([(1, "zone"), (1, HOST)], {"node-x"}, {("zone", "zone1"): 0}, [W(1), W(2)])),
    ("system default constraints and a replicaset",
     rs_owned(make_pod().name("p").namespace("default").label("foo", "tar").label("baz", "sup")),
     [hn("node-a", **{ZONE: "mars"}), hn("node-b", **{ZONE: "mars"}), hn("node-c"), hn("node-d")],
     [replica_set("rs1", FOO_SELECTOR)], "System", [], True,
     ([(3, HOST), (5, ZONE)], set(), {(ZONE, "mars"): 0, (ZONE, ""): 0}, [W(4), W(2)])),
    ("default constraints and a replicaset",
     rs_owned(make_pod().name("p").namespace("default").label("foo", "tar").label("baz", "sup")),
     [hn("node-a", rack="rack1", planet="mars")], [replica_set("rs1", FOO_SELECTOR)], "List",
     [TopologySpreadConstraint(1, HOST, SA), TopologySpreadConstraint(2, "rack", DNS),
      TopologySpreadConstraint(2, "planet", SA)], True,
     ([(1, HOST), (2, "planet")], set(), {("planet", "mars"): 0}, [W(1), W(1)])),
    ("default constraints and a replicaset, but pod has constraints",
     rs_owned(make_pod().name("p").namespace("default").label("foo", "bar").label("baz", "sup")
              .spread_constraint(1, "zone", DNS, BAR_SELECTOR)
              .spread_constraint(2, "planet", SA, make_label_selector().label("baz", "sup").obj())),
     [node("node-a", {"planet": "mars", "galaxy": "andromeda"})], [replica_set("rs1", FOO_SELECTOR)], "List",
     [TopologySpreadConstraint(2, "galaxy", SA)], True,
     ([(2, "planet")], set(), {("planet", "mars"): 0}, [W(1)])),
    ("NodeAffinityPolicy honored with labelSelectors",
     p_foo().node_selector({"foo": ""}).spread_constraint(1, "zone", SA, BAR_SELECTOR).obj(),
     [hn("node-a", zone="zone1", foo=""), hn("node-b", zone="zone1", foo=""), hn("node-x", zone="zone2")],
     [], "List", [], True,
     ([(1, "zone")], set(), {("zone", "zone1"): 0, ("zone", "zone2"): 0}, [W(2)])),
]


@pytest.mark.parametrize("pod,nodes,objects,defaulting,defaults,policy,want",
                         [c[1:] for c in PRE_SCORE_STATE_CASES], ids=[c[0] for c in PRE_SCORE_STATE_CASES])
def test_pre_score_state_empty_nodes(pod, nodes, objects, defaulting, defaults, policy, want):
    p, handle = setup_plugin([], nodes, objects, default_constraints=defaults, defaulting_type=defaulting,
                             node_inclusion_policy=policy)
    cs = CycleState()
    assert p.pre_score(cs, pod, handle.snapshot.list()) is None
    s = get_pre_score_state(cs)
    assert [(c.max_skew, c.topology_key) for c in s.constraints] == want[0]
    assert s.ignored_nodes == want[1]
    assert s.topology_pair_to_pod_counts == {TopologyPair(*k): v for k, v in want[2].items()}
    assert s.topology_normalizing_weight == pytest.approx(want[3])


# --- TestPodTopologySpreadScore ------------------------------------------------------------

def pods_on(**per_node):
    """pods_on(a=2, b=1) -> foo-labelled pods p-a1, p-a2 on node-a, p-b1 on node-b."""
    return [foo_pod(f"p-{n}{i + 1}", f"node-{n}") for n, k in per_node.items() for i in range(k)]


def tainted(n):
    n.spec.taints = [Taint("node.kubernetes.io/unschedulable", "NoSchedule")]
    return n


HOST_ABCD = [hn("node-a"), hn("node-b"), hn("node-c"), hn("node-d")]
ZONE_NODES = [hn("node-a", zone="zone1"), hn("node-b", zone="zone1"), hn("node-x", zone="zone2"),
              hn("node-y", zone="zone2")]

SCORE_CASES = [
    ("one constraint on node, no existing pods", p_foo().spread_constraint(1, HOST, SA, FOO_SELECTOR).obj(),
     [], [hn("node-a"), hn("node-b")], [], [], {"node-a": 100, "node-b": 100}),
    ("one constraint on node, only one node is candidate",
     p_foo().spread_constraint(1, HOST, SA, FOO_SELECTOR).obj(), pods_on(a=2, b=1), [hn("node-a")],
     [hn("node-b")], [], {"node-a": 100}),
    ("one constraint on node, all nodes have the same number of matching pods",
     p_foo().spread_constraint(1, HOST, SA, FOO_SELECTOR).obj(), pods_on(a=1, b=1), [hn("node-a"), hn("node-b")],
     [], [], {"node-a": 100, "node-b": 100}),
    ("one constraint on node, all 4 nodes are candidates",
     p_foo().spread_constraint(1, HOST, SA, FOO_SELECTOR).obj(), pods_on(a=2, b=1, d=3), HOST_ABCD, [], [],
     {"node-a": 20, "node-b": 60, "node-c": 100, "node-d": 0}),
    ("one constraint on node, null selector", p_foo().spread_constraint(1, HOST, SA, None).obj(),
     pods_on(a=2, b=1, d=3), HOST_ABCD, [], [], {"node-a": 100, "node-b": 100, "node-c": 100, "node-d": 100}),
    ("one constraint on node, all 4 nodes are candidates, maxSkew=2",
     p_foo().spread_constraint(2, HOST, SA, FOO_SELECTOR).obj(), pods_on(a=2, b=1, d=3), HOST_ABCD, [], [],
     {"node-a": 33, "node-b": 66, "node-c": 100, "node-d": 16}),
    ("one constraint on node, all 4 nodes are candidates, maxSkew=3",
     p_foo().spread_constraint(3, HOST, SA, FOO_SELECTOR).obj(), pods_on(a=4, b=3, c=2, d=1), HOST_ABCD, [], [],
     {"node-a": 44, "node-b": 66, "node-c": 77, "node-d": 100}),
    ("system defaulting, nodes don't have zone, pods match service", p_foo().obj(), pods_on(a=4, b=3, c=2, d=1),
     HOST_ABCD, [], [Service(ObjectMeta(name="s"), selector={"foo": ""})],
     {"node-a": 44, "node-b": 66, "node-c": 77, "node-d": 100}),
    ("one constraint on node, 3 out of 4 nodes are candidates",
     p_foo().spread_constraint(1, HOST, SA, FOO_SELECTOR).obj(), pods_on(a=4, b=2, x=1, y=3),
     [hn("node-a"), hn("node-b"), hn("node-x")], [hn("node-y")], [], {"node-a": 33, "node-b": 83, "node-x": 100}),
    ("one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
     p_foo().spread_constraint(1, HOST, SA, FOO_SELECTOR).obj(), pods_on(a=4, b=2, x=1, y=3),
     [hn("node-a"), node("node-b", {"n": "node-b"}), hn("node-x")], [hn("node-y")], [],
     {"node-a": 16, "node-b": 0, "node-x": 100}),
    ("one constraint on zone, 3 out of 4 nodes are candidates",
     p_foo().spread_constraint(1, "zone", SA, FOO_SELECTOR).obj(), pods_on(a=4, b=2, x=1, y=3), ZONE_NODES[:3],
     ZONE_NODES[3:], [], {"node-a": 75, "node-b": 75, "node-x": 100}),
    ("two Constraints on zone and node, 2 out of 4 nodes are candidates",
     p_foo().spread_constraint(1, "zone", SA, FOO_SELECTOR).spread_constraint(1, HOST, SA, FOO_SELECTOR).obj(),
     pods_on(a=2, b=1, x=2, y=4), [ZONE_NODES[0], ZONE_NODES[2]], [ZONE_NODES[1], ZONE_NODES[3]], [],
     {"node-a": 100, "node-x": 63}),
    ("two Constraints on zone, 2 out of 4 nodes are candidates",
     p_foo().label("bar", "").spread_constraint(1, "zone", SA, FOO_SELECTOR)
     .spread_constraint(1, "zone", SA, BAR_SELECTOR).obj(),
     [foo_pod("p-a1", "node-a", bar=""), foo_pod("p-a2", "node-a"), foo_pod("p-b1", "node-b", bar=""),
      foo_pod("p-y1", "node-y"), foo_pod("p-y2", "node-y", bar=""), foo_pod("p-y3", "node-y")],
     [node("node-a", {"zone": "zone1"}), node("node-x", {"zone": "zone2"})],
     # v1.30 keys the domain counters by (key, value), so two constraints on one key share them
     # (and the second gets weight log(0 + 2)); later releases count per constraint and get 85.
     [node("node-b", {"zone": "zone1"}), node("node-y", {"zone": "zone2"})], [], {"node-a": 80, "node-x": 100}),
    ("two Constraints on zone and node, with different labelSelectors",
     p_foo().label("bar", "").spread_constraint(1, "zone", SA, FOO_SELECTOR)
     .spread_constraint(1, HOST, SA, BAR_SELECTOR).obj(),
     [foo_pod("p-a1", "node-a"), foo_pod("p-b1", "node-b", bar=""), foo_pod("p-y1", "node-y"),
      make_pod().name("p-y2").node("node-y").label("bar", "").obj()], ZONE_NODES, [], [],
     {"node-a": 60, "node-b": 20, "node-x": 100, "node-y": 60}),
    ("two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods",
     p_foo().label("bar", "").spread_constraint(1, "zone", SA, FOO_SELECTOR)
     .spread_constraint(1, HOST, SA, BAR_SELECTOR).obj(),
     [make_pod().name("p-b1").node("node-b").label("bar", "").obj(), foo_pod("p-x1", "node-x"),
      foo_pod("p-y1", "node-y", bar="")], ZONE_NODES, [], [],
     {"node-a": 100, "node-b": 60, "node-x": 40, "node-y": 0}),
    ("two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates",
     p_foo().label("bar", "").spread_constraint(1, "zone", SA, FOO_SELECTOR)
     .spread_constraint(1, HOST, SA, BAR_SELECTOR).obj(),
     [foo_pod("p-a1", "node-a"), foo_pod("p-b1", "node-b", bar=""), foo_pod("p-y1", "node-y"),
      make_pod().name("p-y2").node("node-y").label("bar", "").obj()], ZONE_NODES[:3], ZONE_NODES[3:], [],
     {"node-a": 50, "node-b": 25, "node-x": 100}),
    ("existing pods in a different namespace do not count",
     p_foo().spread_constraint(1, HOST, SA, FOO_SELECTOR).obj(),
     [foo_pod("p-a1", "node-a", ns="ns1"), foo_pod("p-a2", "node-a"), foo_pod("p-b1", "node-b"),
      foo_pod("p-b2", "node-b")], [hn("node-a"), hn("node-b")], [], [], {"node-a": 100, "node-b": 33}),
    ("terminating Pods should be excluded", p_foo().spread_constraint(1, HOST, SA, FOO_SELECTOR).obj(),
     [make_pod().name("p-a").node("node-a").label("foo", "").terminating(1.0).obj(), foo_pod("p-b", "node-b")],
     [hn("node-a"), hn("node-b")], [], [], {"node-a": 100, "node-b": 0}),
    ("minDomains has no effect when ScheduleAnyway",
     p_foo().spread_constraint(2, "node", SA, FOO_SELECTOR, min_domains=10).obj(), pods_on(a=2, b=2, c=1),
     [node("node-a", {"node": "node-a"}), node("node-b", {"node": "node-b"}), node("node-c", {"node": "node-c"})],
     [], [], {"node-a": 75, "node-b": 75, "node-c": 100}),
    ("NodeAffinityPolicy honoed with labelSelectors",
     p_foo().node_selector({"foo": ""}).spread_constraint(1, "node", SA, FOO_SELECTOR).obj(),
     pods_on(a=2, b=1, c=1),
     [node("node-a", {"node": "node-a", "foo": ""}), node("node-b", {"node": "node-b", "foo": ""}),
      node("node-c", {"node": "node-c"})], [], [], {"node-a": 0, "node-b": 33, "node-c": 100}),
    ("NodeAffinityPolicy ignored with labelSelectors",
     p_foo().node_selector({"foo": ""}).spread_constraint(1, "node", SA, FOO_SELECTOR,
                                                          node_affinity_policy="Ignore").obj(),
     pods_on(a=2, b=1, c=1),
     [node("node-a", {"node": "node-a", "foo": ""}), node("node-b", {"node": "node-b", "foo": ""}),
      node("node-c", {"node": "node-c"})], [], [], {"node-a": 66, "node-b": 100, "node-c": 100}),
    ("NodeAffinityPolicy honoed with nodeAffinity",
     p_foo().node_affinity_in("foo", [""]).spread_constraint(1, "node", SA, FOO_SELECTOR).obj(),
     pods_on(a=2, b=1, c=1),
     [node("node-a", {"node": "node-a", "foo": ""}), node("node-b", {"node": "node-b", "foo": ""}),
      node("node-c", {"node": "node-c"})], [], [], {"node-a": 0, "node-b": 33, "node-c": 100}),
    ("NodeTaintsPolicy honored",
     p_foo().spread_constraint(1, "node", SA, FOO_SELECTOR, node_taints_policy="Honor").obj(),
     pods_on(a=2, b=1, c=1),
     [node("node-a", {"node": "node-a"}), node("node-b", {"node": "node-b"}),
      tainted(node("node-c", {"node": "node-c"}))], [], [], {"node-a": 0, "node-b": 33, "node-c": 100}),
]


def _system_or_list(name):
    return "System" if name.startswith("system defaulting") else "List"


@pytest.mark.parametrize("name,pod,existing,nodes,failed,objects,want", SCORE_CASES,
                         ids=[c[0] for c in SCORE_CASES])
def test_pod_topology_spread_score(name, pod, existing, nodes, failed, objects, want):
    p, handle = setup_plugin(existing, nodes + failed, objects, defaulting_type=_system_or_list(name))
    cs = CycleState()
    filtered = [handle.snapshot.get(n.name) for n in nodes]
    assert p.pre_score(cs, pod, filtered) is None
    scores = []
    for n in nodes:
        score, status = p.score(cs, pod, n.name)
        assert status is None
        scores.append(NodeScore(n.name, score))
    assert p.score_extensions().normalize_score(cs, pod, scores) is None
    assert {s.name: s.score for s in scores} == want


def test_zone_score_counts_all_nodes_of_candidate_zones():
    # Upstream "one constraint on zone, 3 out of 4 nodes are candidates", step by step:
    # node-y failed the filters but zone2 still counts its pods.
    pod = p_foo().spread_constraint(1, "zone", SA, FOO_SELECTOR).obj()
    p, handle = setup_plugin(pods_on(a=4, b=2, x=1, y=3), ZONE_NODES)
    cs = CycleState()
    filtered = [handle.snapshot.get(n) for n in ("node-a", "node-b", "node-x")]
    p.pre_score(cs, pod, filtered)
    s = get_pre_score_state(cs)
    assert s.topology_pair_to_pod_counts == {TopologyPair("zone", "zone1"): 6, TopologyPair("zone", "zone2"): 4}
    raw = {n: p.score(cs, pod, n)[0] for n in ("node-a", "node-b", "node-x")}
    assert raw == {"node-a": go_round(6 * math.log(4)), "node-b": go_round(6 * math.log(4)),
                   "node-x": go_round(4 * math.log(4))}
    scores = [NodeScore(n, v) for n, v in raw.items()]
    p.normalize_score(cs, pod, scores)
    assert [s.score for s in scores] == [75, 75, 100]


def test_score_without_pre_score_is_an_error():
    p, handle = setup_plugin([], [hn("node-a")])
    _, status = p.score(CycleState(), p_foo().obj(), "node-a")
    assert status.code == Code.Error
    assert status.get_reasons() == [f'error reading "{PRE_SCORE_STATE_KEY}" from cycleState: not found']


@pytest.mark.parametrize("x,want", [(0.5, 1), (1.5, 2), (2.5, 3), (2.4999, 2), (-0.5, -1), (0.0, 0)])
def test_go_round(x, want):
    assert go_round(x) == want


def test_score_for_count():
    assert score_for_count(3, 2, 1.5) == 3 * 1.5 + 1
