"""Tables of scheduler-plugins' pkg/coscheduling/core/core_test.go (commit 37b7888a):
TestPreFilter, TestPermit and TestCheckClusterResource, plus the exact texts
and the go-cache behaviour the manager relies on."""
from __future__ import annotations

import pytest

from ksched_edu.api.podgroup import POD_GROUP_LABEL
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.plugins.coscheduling import core
from ksched_edu.framework.plugins.coscheduling.util import GoAmount
from ksched_edu.internal.cache.snapshot import Snapshot
from tests.builders import make_node, make_pod
from tests.framework.plugins.coscheduling.gang import Clock, lister, make_pod_group

pytestmark = pytest.mark.ch06  # Coscheduling is a section of chapter 06 (profiles)

LABEL = POD_GROUP_LABEL


def _member(name: str, group: str, ns: str = "ns", uid: str = "") -> object:
    return make_pod().name(name).namespace(ns).uid(uid or name).label(LABEL, group)


def _manager(pods_in_snapshot, nodes, pgs, pod_lister_pods, timeout: float = 10.0, clock: Clock = None):
    clock = clock or Clock()
    return core.PodGroupManager(lister(pgs), Snapshot.from_objects(pods_in_snapshot, nodes), timeout,
                                lister(pod_lister_pods), now=lambda: clock.now)


# --- TestPreFilter -----------------------------------------------------------------------

_NODES_4CPU = [make_node().name("node-a").capacity(cpu="4").obj(), make_node().name("node-b").capacity(cpu="4").obj()]

PRE_FILTER_CASES = [
    ("pod does not belong to any pg", make_pod().name("p").obj(),
     [_member("p1", "pg1").obj(), _member("p2", "pg2").obj()],
     [make_pod_group("pg1", "ns", 1), make_pod_group("pg2", "ns", 1)], True),
    ("pod belongs to a non-existent pg", _member("p", "pg-non-existent").obj(), [],
     [make_pod_group("pg1", "ns", 1)], True),
    ("pod count less than minMember", _member("p", "pg1").obj(), [_member("pg2-1", "pg2", uid="p2-1").obj()],
     [make_pod_group("pg1", "ns", 2), make_pod_group("pg2", "ns", 2)], False),
    ("pod count equal minMember", _member("p1a", "pg1").obj(), [_member("p1b", "pg1").obj(), _member("p1c", "pg1").obj()],
     [make_pod_group("pg1", "ns", 2), make_pod_group("pg2", "ns", 2)], True),
    ("pod count more than minMember", _member("p1a", "pg1").obj(),
     [_member("p1b", "pg1").obj(), _member("p1c", "pg1").obj()],
     [make_pod_group("pg1", "ns", 2), make_pod_group("pg2", "ns", 2)], True),
    # Two nodes of 4 CPUs: a group asking for 6 passes (it may still fail Filter) ...
    ("cluster's resource satisfies minResource", _member("p1a", "pg1").obj(),
     [_member("p1b", "pg1").obj(), _member("p1c", "pg1").obj()],
     [make_pod_group("pg1", "ns", 2, min_resources={"cpu": "6"})], True),
    # ... and one asking for 10 does not.
    ("cluster's resource cannot satisfy minResource", _member("p1a", "pg1").obj(),
     [_member("p1b", "pg1").obj(), _member("p1c", "pg1").obj()],
     [make_pod_group("pg1", "ns", 2, min_resources={"cpu": "10"})], False),
]


@pytest.mark.parametrize("pod,pending,pgs,expected_success",
                         [c[1:] for c in PRE_FILTER_CASES], ids=[c[0] for c in PRE_FILTER_CASES])
def test_pre_filter(pod, pending, pgs, expected_success):
    mgr = _manager(pending, _NODES_4CPU, pgs, pending)
    assert (mgr.pre_filter(pod) is None) == expected_success


@pytest.mark.parametrize("case,message", [
    ("pod count less than minMember",
     "pre-filter pod p cannot find enough sibling pods, current pods number: 0, minMember of group: 2"),
    ("cluster's resource cannot satisfy minResource",
     # 10 CPUs asked, 4 + 4 free: Go prints the Quantity struct {{value scale} {<nil>} "" Format}.
     "resource gap: map[cpu:{{2000 -3} {<nil>}  DecimalSI}]"),
])
def test_pre_filter_messages(case, message):
    _, pod, pending, pgs, _ = next(c for c in PRE_FILTER_CASES if c[0] == case)
    mgr = _manager(pending, _NODES_4CPU, pgs, pending)
    assert mgr.pre_filter(pod) == message


def test_pre_filter_keeps_a_passed_resource_check_for_the_schedule_timeout():
    clock = Clock(100.0)
    pending = [_member("p1b", "pg1").obj(), _member("p1c", "pg1").obj()]
    pg = make_pod_group("pg1", "ns", 2, min_resources={"cpu": "6"})
    mgr = _manager(pending, _NODES_4CPU, [pg], pending, timeout=10.0, clock=clock)
    assert mgr.pre_filter(pending[0]) is None
    assert mgr.permitted_pg.get("ns/pg1") == ("ns/pg1", True)
    clock.now = 110.0  # go-cache: an item expires once the clock is past its deadline
    assert mgr.permitted_pg.get("ns/pg1")[1]
    clock.now = 110.5
    assert not mgr.permitted_pg.get("ns/pg1")[1]


def test_pre_filter_refuses_a_backed_off_group():
    clock = Clock()
    pending = [_member("p1b", "pg1").obj(), _member("p1c", "pg1").obj()]
    mgr = _manager(pending, _NODES_4CPU, [make_pod_group("pg1", "ns", 2)], pending, clock=clock)
    mgr.backoff_pod_group("ns/pg1", 5.0)
    assert mgr.pre_filter(pending[0]) == "podGroup ns/pg1 failed recently"
    clock.now = 5.5
    assert mgr.pre_filter(pending[0]) is None


# --- TestPermit --------------------------------------------------------------------------

PERMIT_CASES = [
    ("pod does not belong to any pg", make_pod().name("p").namespace("ns").uid("p").obj(), [],
     [make_pod_group("pg1", "ns", 2)], core.POD_GROUP_NOT_SPECIFIED),
    ("pod specifies a non-existent pg", _member("p", "pg-non-existent").obj(), [],
     [make_pod_group("pg1", "ns", 2)], core.POD_GROUP_NOT_FOUND),
    ("pod belongs to a pg that doesn't have quorum", _member("p", "pg1").obj(), [],
     [make_pod_group("pg1", "ns", 2)], core.WAIT),
    ("pod belongs to a pg that have quorum satisfied", _member("p1a", "pg1").obj(),
     [_member("p1b", "pg1").node("node").obj()], [make_pod_group("pg1", "ns", 2)], core.SUCCESS),
]


@pytest.mark.parametrize("pod,existing,pgs,want", [c[1:] for c in PERMIT_CASES], ids=[c[0] for c in PERMIT_CASES])
def test_permit(pod, existing, pgs, want):
    node = make_node().name("node").capacity(cpu="4").obj()
    mgr = _manager(existing, [node], pgs, existing)
    assert mgr.permit(CycleState(), pod) == want


def test_permit_asks_to_activate_siblings_only_for_the_first_member():
    node = make_node().name("node").capacity(cpu="4").obj()
    state = CycleState()
    mgr = _manager([], [node], [make_pod_group("pg1", "ns", 3)], [])
    assert mgr.permit(state, _member("p", "pg1").obj()) == core.WAIT
    assert state.read(core.PERMIT_STATE_KEY) == core.PermitState(activate=True)

    state = CycleState()
    assigned = [_member("p1", "pg1").node("node").obj()]
    mgr = _manager(assigned, [node], [make_pod_group("pg1", "ns", 3)], assigned)
    assert mgr.permit(state, _member("p2", "pg1").obj()) == core.WAIT
    assert [k for k, _ in state.items()] == []


# --- TestCheckClusterResource ------------------------------------------------------------

_NODES_3CPU = [make_node().name("node-a").capacity(cpu="3").obj(), make_node().name("node-b").capacity(cpu="3").obj()]

CHECK_CLUSTER_RESOURCE_CASES = [
    ("Cluster resource enough",
     [make_pod().name("p1").namespace("ns").uid("p1").node("node-a").req(cpu="2").obj()], True),
    ("Cluster resource not enough",
     [make_pod().name("p1").namespace("ns").uid("p1").node("node-a").req(cpu="2").obj(),
      make_pod().name("p2").namespace("ns").uid("p2").node("node-b").req(cpu="1").obj()], False),
    ("Cluster resource enough as p1's resource needs to be excluded from minResources",
     [make_pod().name("p1").namespace("ns").uid("p1").label(LABEL, "pg1").node("node-a").req(cpu="2").obj(),
      make_pod().name("p2").namespace("ns").uid("p2").node("node-b").req(cpu="1").obj()], True),
]


@pytest.mark.parametrize("existing,want", [c[1:] for c in CHECK_CLUSTER_RESOURCE_CASES],
                         ids=[c[0] for c in CHECK_CLUSTER_RESOURCE_CASES])
def test_check_cluster_resource(existing, want):
    # In total the cluster has 3*2 = 6 CPUs.
    nodes = Snapshot.from_objects(existing, _NODES_3CPU).node_infos().list()
    request = {"cpu": GoAmount(4, 0, "DecimalSI")}
    assert (core.check_cluster_resource(nodes, request, "ns/pg1") is None) == want


def test_check_cluster_resource_reports_the_gap_as_go_prints_it():
    nodes = Snapshot.from_objects(CHECK_CLUSTER_RESOURCE_CASES[1][1], _NODES_3CPU).node_infos().list()
    request = {"cpu": GoAmount(4, 0, "DecimalSI"), "pods": GoAmount(3, 0, "DecimalSI"),
               "nvidia.com/gpu": GoAmount(2, 0, "DecimalSI")}
    # node-a leaves 1000m, node-b 2000m: 4 - 1 - 2 CPUs remain; nodes hold no GPU.
    assert core.check_cluster_resource(nodes, request, "ns/pg1") == (
        "resource gap: map[cpu:{{1000 -3} {<nil>}  DecimalSI} nvidia.com/gpu:{{2 0} {<nil>}  DecimalSI}]")


# --- pieces ------------------------------------------------------------------------------

@pytest.mark.parametrize("text,want", [("6", (6, 0, "DecimalSI")), ("500m", (500, -3, "DecimalSI")),
                                       ("16Gi", (16 << 30, 0, "BinarySI")), ("1e3", (1, 3, "DecimalExponent"))],
                         ids=["plain", "milli", "binary", "exponent"])
def test_go_amount_of_a_quantity(text, want):
    from ksched_edu.api.quantity import Quantity

    a = GoAmount.of(Quantity(text))
    assert (a.value, a.scale, a.format) == want


def test_go_amount_sub_aligns_to_the_finer_scale():
    assert GoAmount(6, 0).sub(GoAmount(4000, -3)) == GoAmount(2000, -3)
    assert GoAmount(0, 0, "DecimalSI").sub(GoAmount(5, 0, "BinarySI")) == GoAmount(-5, 0, "BinarySI")
    assert GoAmount(5, 0).sub(GoAmount(0, 0)) == GoAmount(5, 0)


def test_calculate_assigned_pods_counts_members_with_a_node_in_the_namespace():
    node = make_node().name("node").capacity(cpu="4").obj()
    pods = [_member("a", "pg1").node("node").obj(), _member("b", "pg1").node("node").obj(),
            _member("c", "pg1", ns="other").node("node").obj(), _member("d", "pg2").node("node").obj()]
    mgr = _manager(pods, [node], [], pods)
    assert mgr.calculate_assigned_pods("pg1", "ns") == 2


def test_get_creation_timestamp():
    pg = make_pod_group("pg1", "ns", 1, created=-5.0)
    mgr = _manager([], [], [pg], [])
    assert mgr.get_creation_timestamp(_member("p", "pg1").obj(), 3.0) == -5.0
    assert mgr.get_creation_timestamp(_member("p", "missing").obj(), 3.0) == 3.0
    assert mgr.get_creation_timestamp(make_pod().name("p").namespace("ns").obj(), 3.0) == 3.0


def test_expiring_cache_add_keeps_a_live_item():
    clock = Clock()
    c = core.ExpiringCache(3.0, lambda: clock.now)
    assert c.add("k", 1, core.DEFAULT_EXPIRATION)  # the default: 3 s
    assert not c.add("k", 2, 100.0)
    assert c.get("k") == (1, True)
    clock.now = 3.5
    assert c.get("k") == (None, False)
    assert c.add("k", 2, core.NO_EXPIRATION)
    clock.now = 1e9
    assert c.get("k") == (2, True)
