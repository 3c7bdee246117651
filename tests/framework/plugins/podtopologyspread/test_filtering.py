"""Mirrors pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go (v1.30):
TestPreFilterState, TestPreFilterStateAddPod, TestPreFilterStateRemovePod, TestSingleConstraint,
TestMultipleConstraints, TestPreFilterDisabled."""
from __future__ import annotations

import pytest

from ksched_edu.api.types import ObjectMeta, Service, Taint, TopologySpreadConstraint
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.podtopologyspread.common import TopologyPair
from ksched_edu.framework.plugins.podtopologyspread.filtering import (ERR_REASON_CONSTRAINTS_NOT_MATCH,
                                                                      ERR_REASON_NODE_LABEL_NOT_MATCH, MAX_INT32,
                                                                      PRE_FILTER_STATE_KEY, CriticalPath,
                                                                      CriticalPaths, get_pre_filter_state)
from ksched_edu.framework.types import PodInfo
from tests.builders import make_label_selector, make_node, make_pod
from .util import BAR_SELECTOR, DNS, FOO_SELECTOR, SA, foo_pod, four_nodes, setup_plugin, zn


def p_foo():
    return make_pod().name("p").label("foo", "")


def bare_node(name, **labels):
    """A node with only the given labels (no ``node`` label)."""
    w = make_node().name(name)
    for k, v in labels.items():
        w.label(k, v)
    return w.obj()


TAINTED = [Taint("node.kubernetes.io/unschedulable", "NoSchedule")]


def tainted(node):
    node.spec.taints = list(TAINTED)
    return node


def paths(*pairs):
    """Critical paths as [(value, num), ...], normalized like upstream's cmp option:
    equal counts are compared in name order."""
    if len(pairs) == 1:
        pairs = pairs + (("", MAX_INT32),)
    return sorted(pairs, key=lambda p: (p[1], p[0]))


def got_paths(cp: CriticalPaths):
    return sorted([(cp[0].topology_value, cp[0].match_num), (cp[1].topology_value, cp[1].match_num)],
                  key=lambda p: (p[1], p[0]))


def counts(**by_key):
    """{"zone": {"zone1": 3}} -> {TopologyPair("zone", "zone1"): 3}."""
    return {TopologyPair(k, v): n for k, vals in by_key.items() for v, n in vals.items()}


FIVE_PODS = [foo_pod("p-a1", "node-a"), foo_pod("p-a2", "node-a"), foo_pod("p-b1", "node-b"),
             foo_pod("p-y1", "node-y"), foo_pod("p-y2", "node-y")]
SEVEN_PODS = FIVE_PODS + [foo_pod("p-y3", "node-y"), foo_pod("p-y4", "node-y")]
THREE_NODES = [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-y", "zone2")]
POLICY_NODES = [zn("node-a", foo=""), zn("node-b", foo=""), zn("node-c", bar="")]
POLICY_PODS = [make_pod().name("p-a").node("node-a").label("bar", "").obj(),
               make_pod().name("p-b").node("node-b").label("bar", "").obj(),
               make_pod().name("p-c").node("node-b").label("bar", "").obj(),
               make_pod().name("p-d").node("node-c").obj()]

# (name, pod, nodes, existing pods, objects, default constraints, want: None for Skip, else
#  (constraint summaries [(maxSkew, key, policies)], {key: critical paths}, match counts), node inclusion policy)
PRE_FILTER_STATE_CASES = [
    ("clean cluster with one spreadConstraint",
     p_foo().spread_constraint(5, "zone", DNS, make_label_selector().label("foo", "bar").obj()).obj(),
     four_nodes(), [], [], None,
     ([(5, "zone")], {"zone": paths(("zone1", 0), ("zone2", 0))}, counts(zone={"zone1": 0, "zone2": 0})), True),
    ("normal case with one spreadConstraint",
     p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj(), four_nodes(), FIVE_PODS, [], None,
     ([(1, "zone")], {"zone": paths(("zone2", 2), ("zone1", 3))}, counts(zone={"zone1": 3, "zone2": 2})), True),
    ("normal case with null label selector",
     p_foo().spread_constraint(1, "zone", DNS, None).obj(), four_nodes(), FIVE_PODS, [], None,
     ([(1, "zone")], {"zone": paths(("zone2", 0), ("zone1", 0))}, counts(zone={"zone1": 0, "zone2": 0})), True),
    ("normal case with one spreadConstraint, on a 3-zone cluster",
     p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj(),
     four_nodes() + [zn("node-o", "zone3"), zn("node-p", "zone3")], FIVE_PODS, [], None,
     ([(1, "zone")], {"zone": paths(("zone3", 0), ("zone2", 2))},
      counts(zone={"zone1": 3, "zone2": 2, "zone3": 0})), True),
    ("namespace mismatch doesn't count",
     p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj(), four_nodes(),
     [foo_pod("p-a1", "node-a"), foo_pod("p-a2", "node-a", ns="ns1"), foo_pod("p-b1", "node-b"),
      foo_pod("p-y1", "node-y", ns="ns2"), foo_pod("p-y2", "node-y")], [], None,
     ([(1, "zone")], {"zone": paths(("zone2", 1), ("zone1", 2))}, counts(zone={"zone1": 2, "zone2": 1})), True),
    ("normal case with two spreadConstraints",
     p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(),
     four_nodes(), SEVEN_PODS, [], None,
     ([(1, "zone"), (1, "node")],
      {"zone": paths(("zone1", 3), ("zone2", 4)), "node": paths(("node-x", 0), ("node-b", 1))},
      counts(zone={"zone1": 3, "zone2": 4}, node={"node-a": 2, "node-b": 1, "node-x": 0, "node-y": 4})), True),
    ("soft spreadConstraints should be bypassed",
     p_foo().spread_constraint(1, "zone", SA, FOO_SELECTOR).spread_constraint(1, "zone", DNS, FOO_SELECTOR)
     .spread_constraint(1, "node", SA, FOO_SELECTOR).spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(),
     THREE_NODES, SEVEN_PODS, [], None,
     ([(1, "zone"), (1, "node")],
      {"zone": paths(("zone1", 3), ("zone2", 4)), "node": paths(("node-b", 1), ("node-a", 2))},
      counts(zone={"zone1": 3, "zone2": 4}, node={"node-a": 2, "node-b": 1, "node-y": 4})), True),
    ("different labelSelectors - simple version",
     p_foo().label("bar", "").spread_constraint(1, "zone", DNS, FOO_SELECTOR)
     .spread_constraint(1, "node", DNS, BAR_SELECTOR).obj(),
     THREE_NODES, [foo_pod("p-a", "node-a"), make_pod().name("p-b").node("node-b").label("bar", "").obj()], [], None,
     ([(1, "zone"), (1, "node")],
      {"zone": paths(("zone2", 0), ("zone1", 1)), "node": paths(("node-a", 0), ("node-y", 0))},
      counts(zone={"zone1": 1, "zone2": 0}, node={"node-a": 0, "node-b": 1, "node-y": 0})), True),
    ("different labelSelectors - complex pods",
     p_foo().label("bar", "").spread_constraint(1, "zone", DNS, FOO_SELECTOR)
     .spread_constraint(1, "node", DNS, BAR_SELECTOR).obj(),
     THREE_NODES,
     [foo_pod("p-a1", "node-a"), foo_pod("p-a2", "node-a", bar=""), foo_pod("p-b1", "node-b"),
      foo_pod("p-y1", "node-y"), foo_pod("p-y2", "node-y", bar=""), foo_pod("p-y3", "node-y"),
      foo_pod("p-y4", "node-y", bar="")], [], None,
     ([(1, "zone"), (1, "node")],
      {"zone": paths(("zone1", 3), ("zone2", 4)), "node": paths(("node-b", 0), ("node-a", 1))},
      counts(zone={"zone1": 3, "zone2": 4}, node={"node-a": 1, "node-b": 0, "node-y": 2})), True),
    ("two spreadConstraints, and with podAffinity",
     p_foo().node_affinity_not_in("node", ["node-x"]).spread_constraint(1, "zone", DNS, FOO_SELECTOR)
     .spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(),
     four_nodes(), SEVEN_PODS, [], None,
     ([(1, "zone"), (1, "node")],
      {"zone": paths(("zone1", 3), ("zone2", 4)), "node": paths(("node-b", 1), ("node-a", 2))},
      counts(zone={"zone1": 3, "zone2": 4}, node={"node-a": 2, "node-b": 1, "node-y": 4})), True),
    ("default constraints and a service",
     make_pod().name("p").label("foo", "bar").label("baz", "kar").obj(), [], [],
     [Service(ObjectMeta(name="s"), selector={"foo": "bar"})],
     [TopologySpreadConstraint(3, "node", DNS), TopologySpreadConstraint(2, "node", SA),
      TopologySpreadConstraint(5, "rack", DNS)],
     ([(3, "node"), (5, "rack")], {"node": paths(("", MAX_INT32), ("", MAX_INT32)),
                                   "rack": paths(("", MAX_INT32), ("", MAX_INT32))}, {}), True),
    ("default constraints and a service that doesn't match",
     make_pod().name("p").label("foo", "bar").obj(), [], [],
     [Service(ObjectMeta(name="s"), selector={"baz": "kep"})], [TopologySpreadConstraint(3, "node", DNS)],
     None, True),
    ("default constraints and a service, but pod has constraints",
     make_pod().name("p").label("foo", "bar").label("baz", "tar")
     .spread_constraint(1, "zone", DNS, make_label_selector().label("baz", "tar").obj())
     .spread_constraint(2, "planet", SA, make_label_selector().label("fot", "rok").obj()).obj(), [], [],
     [Service(ObjectMeta(name="s"), selector={"foo": "bar"})], [TopologySpreadConstraint(2, "node", DNS)],
     ([(1, "zone")], {"zone": paths(("", MAX_INT32), ("", MAX_INT32))}, {}), True),
    ("default soft constraints and a service",
     make_pod().name("p").label("foo", "bar").obj(), [], [],
     [Service(ObjectMeta(name="s"), selector={"foo": "bar"})], [TopologySpreadConstraint(2, "node", SA)],
     None, True),
    ("feature gate disabled with NodeAffinityPolicy",
     p_foo().node_selector({"foo": ""}).spread_constraint(1, "node", DNS, BAR_SELECTOR).obj(),
     POLICY_NODES, POLICY_PODS, [], None,
     ([(1, "node")], {"node": paths(("node-a", 1), ("node-b", 2))}, counts(node={"node-a": 1, "node-b": 2})),
     False),
    ("NodeAffinityPolicy honored with labelSelectors",
     p_foo().node_selector({"foo": ""}).spread_constraint(1, "node", DNS, BAR_SELECTOR).obj(),
     POLICY_NODES, POLICY_PODS, [], None,
     ([(1, "node")], {"node": paths(("node-a", 1), ("node-b", 2))}, counts(node={"node-a": 1, "node-b": 2})),
     True),
    ("NodeAffinityPolicy ignored with labelSelectors",
     p_foo().node_selector({"foo": ""}).spread_constraint(1, "node", DNS, BAR_SELECTOR,
                                                          node_affinity_policy="Ignore").obj(),
     POLICY_NODES, POLICY_PODS, [], None,
     ([(1, "node")], {"node": paths(("node-c", 0), ("node-a", 1))},
      counts(node={"node-a": 1, "node-b": 2, "node-c": 0})), True),
    ("NodeTaintsPolicy honored",
     p_foo().spread_constraint(1, "node", DNS, BAR_SELECTOR, node_taints_policy="Honor").obj(),
     POLICY_NODES[:2] + [tainted(zn("node-c", bar=""))], POLICY_PODS, [], None,
     ([(1, "node")], {"node": paths(("node-a", 1), ("node-b", 2))}, counts(node={"node-a": 1, "node-b": 2})),
     True),
    ("matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
     p_foo().label("version", "v1").spread_constraint(1, "node", DNS, FOO_SELECTOR,
                                                      match_label_keys=["version"]).obj(),
     [zn("node-a"), zn("node-b")],
     [foo_pod("p-a", "node-a", version="v1"), foo_pod("p-b", "node-b", version="v2"), foo_pod("p-c", "node-b")],
     [], None,
     ([(1, "node")], {"node": paths(("node-b", 0), ("node-a", 1))}, counts(node={"node-a": 1, "node-b": 0})),
     True),
]


@pytest.mark.parametrize("pod,nodes,pods,objects,defaults,want,policy", [c[1:] for c in PRE_FILTER_STATE_CASES],
                         ids=[c[0] for c in PRE_FILTER_STATE_CASES])
def test_pre_filter_state(pod, nodes, pods, objects, defaults, want, policy):
    p, _ = setup_plugin(pods, nodes, objects, default_constraints=defaults, node_inclusion_policy=policy)
    cs = CycleState()
    result, status = p.pre_filter(cs, pod)
    assert result is None
    if want is None:
        assert status.code == Code.Skip
        return
    assert status is None
    s = get_pre_filter_state(cs)
    assert [(c.max_skew, c.topology_key) for c in s.constraints] == want[0]
    assert {k: got_paths(v) for k, v in s.tp_key_to_critical_paths.items()} == want[1]
    assert s.tp_pair_to_match_num == want[2]


def test_pre_filter_state_policies_default():
    pod = p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj()
    p, _ = setup_plugin([], four_nodes())
    cs = CycleState()
    p.pre_filter(cs, pod)
    c = get_pre_filter_state(cs).constraints[0]
    assert (c.min_domains, c.node_affinity_policy, c.node_taints_policy) == (1, "Honor", "Ignore")
    assert get_pre_filter_state(cs).tp_key_to_domains_num == {"zone": 2}


def test_node_taints_policy_counts_only_tolerated_nodes():
    taints = [Taint("node.kubernetes.io/unschedulable", "NoSchedule")]
    nodes = [zn("node-a"), zn("node-b")]
    nodes[1].spec.taints = taints
    pod = p_foo().spread_constraint(1, "node", DNS, FOO_SELECTOR, node_taints_policy="Honor").obj()
    p, _ = setup_plugin([foo_pod("p-a", "node-a")], nodes)
    cs = CycleState()
    p.pre_filter(cs, pod)
    assert get_pre_filter_state(cs).tp_pair_to_match_num == counts(node={"node-a": 1})


# --- AddPod / RemovePod ----------------------------------------------------------------

ZONE_NODE_POD = p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).spread_constraint(
    1, "node", DNS, FOO_SELECTOR).obj()

ADD_POD_CASES = [
    ("node a and b both impact current min match",
     p_foo().spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(), foo_pod("p-b1", "node-b"), "node-b",
     [], [zn("node-a", "zone1"), zn("node-b", "zone1")],
     {"node": paths(("node-a", 0), ("node-b", 1))}, counts(node={"node-a": 0, "node-b": 1})),
    ("only node a impacts current min match",
     p_foo().spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(), foo_pod("p-a1", "node-a"), "node-a",
     [foo_pod("p-b1", "node-b")], [zn("node-a", "zone1"), zn("node-b", "zone1")],
     {"node": paths(("node-a", 1), ("node-b", 1))}, counts(node={"node-a": 1, "node-b": 1})),
    ("add a pod in a different namespace doesn't change topologyKeyToMinPodsMap",
     p_foo().spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(), foo_pod("p-a1", "node-a", ns="ns1"), "node-a",
     [foo_pod("p-b1", "node-b")], [zn("node-a", "zone1"), zn("node-b", "zone1")],
     {"node": paths(("node-a", 0), ("node-b", 1))}, counts(node={"node-a": 0, "node-b": 1})),
    ("add pod on non-critical node won't trigger re-calculation",
     p_foo().spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(), foo_pod("p-b2", "node-b"), "node-b",
     [foo_pod("p-b1", "node-b")], [zn("node-a", "zone1"), zn("node-b", "zone1")],
     {"node": paths(("node-a", 0), ("node-b", 2))}, counts(node={"node-a": 0, "node-b": 2})),
    ("node a and x both impact topologyKeyToMinPodsMap on zone and node",
     ZONE_NODE_POD, foo_pod("p-a1", "node-a"), "node-a", [], [zn("node-a", "zone1"), zn("node-x", "zone2")],
     {"zone": paths(("zone2", 0), ("zone1", 1)), "node": paths(("node-x", 0), ("node-a", 1))},
     counts(zone={"zone1": 1, "zone2": 0}, node={"node-a": 1, "node-x": 0})),
    ("only node a impacts topologyKeyToMinPodsMap on zone and node",
     ZONE_NODE_POD, foo_pod("p-a1", "node-a"), "node-a", [foo_pod("p-x1", "node-x")],
     [zn("node-a", "zone1"), zn("node-x", "zone2")],
     {"zone": paths(("zone1", 1), ("zone2", 1)), "node": paths(("node-a", 1), ("node-x", 1))},
     counts(zone={"zone1": 1, "zone2": 1}, node={"node-a": 1, "node-x": 1})),
    ("add a pod on a node without the topology labels is a no-op",
     ZONE_NODE_POD, foo_pod("p-c1", "node-c"), "node-c", [],
     [zn("node-a", "zone1"), zn("node-x", "zone2"), bare_node("node-c")],
     {"zone": paths(("zone1", 0), ("zone2", 0)), "node": paths(("node-a", 0), ("node-x", 0))},
     counts(zone={"zone1": 0, "zone2": 0}, node={"node-a": 0, "node-x": 0})),
]


@pytest.mark.parametrize("preemptor,added,node_name,pods,nodes,want_paths,want_counts",
                         [c[1:] for c in ADD_POD_CASES], ids=[c[0] for c in ADD_POD_CASES])
def test_pre_filter_state_add_pod(preemptor, added, node_name, pods, nodes, want_paths, want_counts):
    p, handle = setup_plugin(pods, nodes)
    cs = CycleState()
    assert p.pre_filter(cs, preemptor)[1] is None
    assert p.add_pod(cs, preemptor, PodInfo.of(added), handle.snapshot.get(node_name)) is None
    s = get_pre_filter_state(cs)
    assert {k: got_paths(v) for k, v in s.tp_key_to_critical_paths.items()} == want_paths
    assert s.tp_pair_to_match_num == want_counts


REMOVE_NODES = [zn("node-a", "zone1", foo="bar"), zn("node-b", "zone2", foo="")]


def test_pre_filter_state_remove_pod_zone_3_1():
    # "pods spread across zones as 3/1, preemptor pod uses zone as topologyKey, and delete 1 pod on zone1"
    nodes = four_nodes()
    pods = [foo_pod("p-a1", "node-a"), foo_pod("p-a2", "node-a"), foo_pod("p-b1", "node-b"),
            foo_pod("p-y1", "node-y")]
    pod = p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj()
    p, handle = setup_plugin(pods, nodes)
    cs = CycleState()
    p.pre_filter(cs, pod)
    assert p.remove_pod(cs, pod, PodInfo.of(pods[0]), handle.snapshot.get("node-a")) is None
    s = get_pre_filter_state(cs)
    assert got_paths(s.tp_key_to_critical_paths["zone"]) == paths(("zone2", 1), ("zone1", 2))
    assert s.tp_pair_to_match_num == counts(zone={"zone1": 2, "zone2": 1})


def test_pre_filter_state_remove_pod_then_min_changes():
    # "pods spread across zones as 2/1, preemptor pod uses zone as topologyKey, and delete 2 pods on zone1"
    pods = [foo_pod("p-a1", "node-a"), foo_pod("p-b1", "node-b"), foo_pod("p-x1", "node-x")]
    pod = p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj()
    p, handle = setup_plugin(pods, four_nodes())
    cs = CycleState()
    p.pre_filter(cs, pod)
    p.remove_pod(cs, pod, PodInfo.of(pods[0]), handle.snapshot.get("node-a"))
    p.remove_pod(cs, pod, PodInfo.of(pods[1]), handle.snapshot.get("node-b"))
    s = get_pre_filter_state(cs)
    assert got_paths(s.tp_key_to_critical_paths["zone"]) == paths(("zone1", 0), ("zone2", 1))


@pytest.mark.parametrize("policy,want_paths,want_counts", [
    # "remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy disabled/enabled"
    (False, paths(("zone2", 1)), counts(zone={"zone2": 1})),
    (True, paths(("zone2", 1)), counts(zone={"zone2": 1})),
], ids=["remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy disabled",
        "remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled"])
def test_pre_filter_state_remove_pod_unmatched_node(policy, want_paths, want_counts):
    preemptor = p_foo().node_affinity_not_in("foo", ["bar"]).spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj()
    pods = [foo_pod("p-a2", "node-a", zone="zone1"), foo_pod("p-b1", "node-b", zone="zone2")]
    deleted = foo_pod("p-a1", "node-a", zone="zone1")
    p, handle = setup_plugin(pods, REMOVE_NODES, node_inclusion_policy=policy)
    cs = CycleState()
    assert p.pre_filter(cs, preemptor)[1] is None
    assert p.remove_pod(cs, preemptor, PodInfo.of(deleted), handle.snapshot.get("node-a")) is None
    s = get_pre_filter_state(cs)
    assert got_paths(s.tp_key_to_critical_paths["zone"]) == want_paths
    assert s.tp_pair_to_match_num == want_counts


def test_pre_filter_state_clone_is_independent():
    pods = [foo_pod("p-a1", "node-a")]
    pod = p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj()
    p, handle = setup_plugin(pods, four_nodes())
    cs = CycleState()
    p.pre_filter(cs, pod)
    copy = cs.clone()
    p.remove_pod(copy, pod, PodInfo.of(pods[0]), handle.snapshot.get("node-a"))
    assert get_pre_filter_state(cs).tp_pair_to_match_num == counts(zone={"zone1": 1, "zone2": 0})
    assert get_pre_filter_state(copy).tp_pair_to_match_num == counts(zone={"zone1": 0, "zone2": 0})
    assert get_pre_filter_state(cs).constraints is get_pre_filter_state(copy).constraints


# --- Filter ------------------------------------------------------------------------------

S, U, UU = Code.Success, Code.Unschedulable, Code.UnschedulableAndUnresolvable

SIX_PODS = [foo_pod("p-a1", "node-a"), foo_pod("p-a2", "node-a"), foo_pod("p-b1", "node-b"),
            foo_pod("p-y1", "node-y"), foo_pod("p-y2", "node-y"), foo_pod("p-y3", "node-y")]
ABC = [zn("node-a"), zn("node-b"), zn("node-c")]
FIVE_ABC = [foo_pod("p-a1", "node-a"), foo_pod("p-a2", "node-a"), foo_pod("p-b1", "node-b"),
            foo_pod("p-b2", "node-b"), foo_pod("p-c1", "node-c")]
AFF_NODES = [zn("node-a", foo=""), zn("node-b", foo=""), zn("node-x", foo=""), zn("node-y")]
AFF_PODS = [foo_pod("p-b1", "node-a"), foo_pod("p-b2", "node-b"), foo_pod("p-y1", "node-y")]

SINGLE_CONSTRAINT_CASES = [
    ("no existing pods", p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj(), four_nodes(), [],
     {"node-a": S, "node-b": S, "node-x": S, "node-y": S}, True),
    ("no existing pods, incoming pod doesn't match itself",
     p_foo().spread_constraint(1, "zone", DNS, BAR_SELECTOR).obj(), four_nodes(), [],
     {"node-a": S, "node-b": S, "node-x": S, "node-y": S}, True),
    ("existing pods in a different namespace do not count",
     p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj(), four_nodes(),
     [foo_pod("p-a1", "node-a", ns="ns1"), foo_pod("p-b1", "node-a", ns="ns2"), foo_pod("p-x1", "node-x"),
      foo_pod("p-y1", "node-y")],
     {"node-a": S, "node-b": S, "node-x": U, "node-y": U}, True),
    ("existing pods do not match null selector", p_foo().spread_constraint(1, "zone", DNS, None).obj(),
     four_nodes(), [foo_pod("p-x1", "node-x"), foo_pod("p-y1", "node-y")],
     {"node-a": S, "node-b": S, "node-x": S, "node-y": S}, True),
    ("pods spread across zones as 3/3, all nodes fit", p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj(),
     four_nodes(), SIX_PODS, {"node-a": S, "node-b": S, "node-x": S, "node-y": S}, True),
    ("pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
     p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj(),
     [zn("node-a", "zone1"), zn("node-b", zon="zone1"), zn("node-x", "zone2"), zn("node-y", "zone2")],
     [foo_pod("p-a1", "node-a"), foo_pod("p-b1", "node-b"), foo_pod("p-x1", "node-x"), foo_pod("p-y1", "node-y")],
     {"node-a": S, "node-b": UU, "node-x": U, "node-y": U}, True),
    ("pod cannot be scheduled as all nodes don't have label 'rack'",
     p_foo().spread_constraint(1, "rack", DNS, FOO_SELECTOR).obj(), [zn("node-a", "zone1"), zn("node-x", "zone2")],
     [], {"node-a": UU, "node-x": UU}, True),
    ("pods spread across nodes as 2/1/0/3, only node-x fits",
     p_foo().spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(), four_nodes(), SIX_PODS,
     {"node-a": U, "node-b": U, "node-x": S, "node-y": U}, True),
    ("pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
     p_foo().spread_constraint(2, "node", DNS, FOO_SELECTOR).obj(), four_nodes(), SIX_PODS,
     {"node-a": U, "node-b": S, "node-x": S, "node-y": U}, True),
    ("pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
     make_pod().name("p").label("bar", "").spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(), four_nodes(),
     SIX_PODS, {"node-a": U, "node-b": S, "node-x": S, "node-y": U}, True),
    ("incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
     p_foo().node_affinity_in("node", ["node-a", "node-y"]).spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(),
     four_nodes(), SIX_PODS, {"node-a": S, "node-b": S, "node-x": S, "node-y": U}, True),
    ("terminating Pods should be excluded", p_foo().spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(),
     [zn("node-a"), zn("node-b")],
     [make_pod().name("p-a").node("node-a").label("foo", "").terminating(1.0).obj(), foo_pod("p-b", "node-b")],
     {"node-a": S, "node-b": U}, True),
    ("incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
     p_foo().node_affinity_not_in("node", ["node-b"]).spread_constraint(1, "zone", DNS, FOO_SELECTOR).obj(),
     four_nodes(), [foo_pod("p-b1", "node-b"), foo_pod("p-b2", "node-b"), foo_pod("p-y1", "node-y")],
     {"node-a": S, "node-b": S, "node-x": U, "node-y": U}, True),
    ("pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third "
     "node fits", p_foo().spread_constraint(2, "node", DNS, FOO_SELECTOR, min_domains=4).obj(), ABC, FIVE_ABC,
     {"node-a": U, "node-b": U, "node-c": S}, True),
    ("pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes "
     "fit", p_foo().spread_constraint(2, "node", DNS, FOO_SELECTOR, min_domains=2).obj(), ABC, FIVE_ABC,
     {"node-a": S, "node-b": S, "node-c": S}, True),
    ("pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and "
     "fourth nodes fit", p_foo().spread_constraint(2, "zone", DNS, FOO_SELECTOR, min_domains=3).obj(), four_nodes(),
     [foo_pod("p-b1", "node-a"), foo_pod("p-b2", "node-b"), foo_pod("p-y1", "node-y")],
     {"node-a": U, "node-b": U, "node-x": S, "node-y": S}, True),
    ("pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit",
     p_foo().spread_constraint(2, "zone", DNS, FOO_SELECTOR, min_domains=1).obj(), four_nodes(),
     [foo_pod("p-b1", "node-a"), foo_pod("p-b2", "node-b"), foo_pod("p-y1", "node-y")],
     {"node-a": S, "node-b": S, "node-x": S, "node-y": S}, True),
    ("NodeAffinityPolicy honored with labelSelectors",
     p_foo().node_selector({"foo": ""}).spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(), AFF_NODES, AFF_PODS,
     {"node-a": U, "node-b": U, "node-x": S, "node-y": S}, True),
    ("NodeAffinityPolicy ignored with labelSelectors",
     p_foo().node_selector({"foo": ""}).spread_constraint(1, "node", DNS, FOO_SELECTOR,
                                                          node_affinity_policy="Ignore").obj(),
     AFF_NODES, AFF_PODS, {"node-a": U, "node-b": U, "node-x": S, "node-y": U}, True),
    ("NodeAffinityPolicy honored with nodeAffinity",
     p_foo().node_affinity_in("foo", [""]).spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(), AFF_NODES,
     AFF_PODS, {"node-a": U, "node-b": U, "node-x": S, "node-y": S}, True),
    ("NodeAffinityPolicy ignored with nodeAffinity",
     p_foo().node_affinity_in("foo", [""]).spread_constraint(1, "node", DNS, FOO_SELECTOR,
                                                             node_affinity_policy="Ignore").obj(),
     AFF_NODES, AFF_PODS, {"node-a": U, "node-b": U, "node-x": S, "node-y": U}, True),
    ("NodeTaintsPolicy honored",
     p_foo().spread_constraint(1, "node", DNS, FOO_SELECTOR, node_taints_policy="Honor").obj(),
     [zn("node-a", foo=""), zn("node-b", foo=""), zn("node-x", foo=""), tainted(zn("node-y"))], AFF_PODS,
     {"node-a": U, "node-b": U, "node-x": S, "node-y": S}, True),
    ("NodeTaintsPolicy ignored",
     p_foo().spread_constraint(1, "node", DNS, FOO_SELECTOR).obj(),
     [zn("node-a", foo=""), zn("node-b", foo=""), zn("node-x", foo=""), tainted(zn("node-y"))], AFF_PODS,
     {"node-a": U, "node-b": U, "node-x": S, "node-y": U}, True),
    ("NodeAffinityPolicy is ignored when the feature gate is off",
     p_foo().node_selector({"foo": ""}).spread_constraint(1, "node", DNS, FOO_SELECTOR,
                                                          node_affinity_policy="Ignore").obj(),
     AFF_NODES, AFF_PODS, {"node-a": U, "node-b": U, "node-x": S, "node-y": S}, False),
    ("matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
     p_foo().label("version", "v1").spread_constraint(1, "node", DNS, FOO_SELECTOR,
                                                      match_label_keys=["version"]).obj(),
     [zn("node-a"), zn("node-b")],
     [foo_pod("p-a", "node-a", version="v1"), foo_pod("p-b", "node-b", version="v2"), foo_pod("p-c", "node-b")],
     {"node-a": U, "node-b": S}, True),
]


@pytest.mark.parametrize("pod,nodes,pods,want,policy", [c[1:] for c in SINGLE_CONSTRAINT_CASES],
                         ids=[c[0] for c in SINGLE_CONSTRAINT_CASES])
def test_single_constraint(pod, nodes, pods, want, policy):
    p, handle = setup_plugin(pods, nodes, node_inclusion_policy=policy)
    cs = CycleState()
    assert p.pre_filter(cs, pod)[1] is None
    for node in nodes:
        status = p.filter(cs, pod, handle.snapshot.get(node.name))
        code = Code.Success if status is None else status.code
        assert code == want[node.name], node.name
        if code == Code.Unschedulable:
            assert status.reasons == [ERR_REASON_CONSTRAINTS_NOT_MATCH]
        elif code == Code.UnschedulableAndUnresolvable:
            assert status.reasons == [ERR_REASON_NODE_LABEL_NOT_MATCH]


TWO_ZONE_NODE = p_foo().spread_constraint(1, "zone", DNS, FOO_SELECTOR).spread_constraint(
    1, "node", DNS, FOO_SELECTOR).obj()

MULTIPLE_CONSTRAINTS_CASES = [
    # 1st constraint: zone1 has 3 pods, zone2 has 3 (node-x: 0); 2nd: nodes 2/1/0/3.
    ("two Constraints on zone and node, spreads = [3/3, 2/1/0/3]", TWO_ZONE_NODE, four_nodes(), SIX_PODS,
     {"node-a": U, "node-b": U, "node-x": S, "node-y": U}),
    ("two Constraints on zone and node, spreads = [3/4, 2/1/0/4]", TWO_ZONE_NODE, four_nodes(),
     SIX_PODS + [foo_pod("p-y4", "node-y")], {"node-a": U, "node-b": U, "node-x": U, "node-y": U}),
    ("Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
     p_foo().label("bar", "").spread_constraint(1, "zone", DNS, FOO_SELECTOR)
     .spread_constraint(1, "node", DNS, BAR_SELECTOR).obj(), four_nodes(),
     [foo_pod("p-a1", "node-a"), make_pod().name("p-y1").node("node-y").label("bar", "").obj()],
     {"node-a": U, "node-b": U, "node-x": S, "node-y": U}),
    ("Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
     p_foo().label("bar", "").spread_constraint(1, "zone", DNS, FOO_SELECTOR)
     .spread_constraint(1, "node", DNS, BAR_SELECTOR).obj(), four_nodes(),
     [foo_pod("p-a1", "node-a"), make_pod().name("p-x1").node("node-x").label("bar", "").obj(),
      make_pod().name("p-y1").node("node-y").label("bar", "").obj()],
     {"node-a": U, "node-b": U, "node-x": U, "node-y": U}),
    ("one node misses the 2nd topology key, spreads = [1/1, 1/0/0]",
     TWO_ZONE_NODE, [zn("node-a", "zone1"), zn("node-b", "zone1"), bare_node("node-x", zone="zone2")],
     [foo_pod("p-a1", "node-a"), foo_pod("p-x1", "node-x")],
     {"node-a": U, "node-b": S, "node-x": UU}),
]


@pytest.mark.parametrize("pod,nodes,pods,want", [c[1:] for c in MULTIPLE_CONSTRAINTS_CASES],
                         ids=[c[0] for c in MULTIPLE_CONSTRAINTS_CASES])
def test_multiple_constraints(pod, nodes, pods, want):
    p, handle = setup_plugin(pods, nodes)
    cs = CycleState()
    assert p.pre_filter(cs, pod)[1] is None
    got = {}
    for node in nodes:
        status = p.filter(cs, pod, handle.snapshot.get(node.name))
        got[node.name] = Code.Success if status is None else status.code
    assert got == want


def test_pre_filter_disabled():
    # Filter without PreFilter state is an error (upstream TestPreFilterDisabled).
    p, handle = setup_plugin([], [zn("node-a")])
    status = p.filter(CycleState(), make_pod().obj(), handle.snapshot.get("node-a"))
    assert status.code == Code.Error
    assert status.get_reasons() == [f'reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found']


def test_pre_filter_skip_without_constraints():
    p, _ = setup_plugin([], [zn("node-a")])
    cs = CycleState()
    result, status = p.pre_filter(cs, make_pod().name("p").obj())
    assert (result, status.code) == (None, Code.Skip)


def test_critical_paths_update_keeps_minimum_first():
    cp = CriticalPaths()
    for value, num in [("a", 3), ("b", 1), ("c", 2), ("b", 5)]:
        cp.update(value, num)
    assert cp[0] == CriticalPath("c", 2)
    assert cp[1].match_num >= cp[0].match_num
