"""Tables of scheduler-plugins' pkg/coscheduling/coscheduling_test.go (commit 37b7888a):
TestPodGroupBackoffTime, TestLess, TestPermit and TestPostFilter, plus Unreserve,
the events the plugin registers and its construction from args."""
from __future__ import annotations

import pytest

from ksched_edu.api.podgroup import POD_GROUP_LABEL
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import PODS_TO_ACTIVATE_KEY, Code
from ksched_edu.framework.plugins.coscheduling import coscheduling, core
from ksched_edu.framework.types import POD, ActionType, PodInfo, QueuedPodInfo
from ksched_edu.schedule_one import PodsToActivate
from tests.builders import make_node, make_pod
from tests.framework.plugins.coscheduling.gang import Clock, GangHandle, make_pod_group

pytestmark = pytest.mark.ch06  # Coscheduling is a section of chapter 06 (profiles)

LABEL = POD_GROUP_LABEL
NODE_4CPU = make_node().name("node").capacity(cpu="4").obj()


def _plugin(handle: GangHandle, schedule_timeout: float = 10.0, pg_backoff=None, mgr_timeout=None):
    """The plugin over the handle's listers, as upstream's tests build it by hand."""
    lst = handle.object_lister()
    mgr = core.PodGroupManager(lst, handle.snapshot_shared_lister(),
                               schedule_timeout if mgr_timeout is None else mgr_timeout, lst,
                               now=lambda: handle.clock.now)
    return coscheduling.Coscheduling(handle, mgr, schedule_timeout, pg_backoff)


def _member(name: str, group: str, ns: str = "ns"):
    return make_pod().name(name).uid(name).namespace(ns).label(LABEL, group)


# --- TestPodGroupBackoffTime -------------------------------------------------------------

def test_pod_group_backoff_time_prevents_pod_falling_into_infinite_scheduling_loop():
    pods = [_member("pod1", "pg1").obj(), _member("pod2", "pg1").obj(), _member("pod3", "pg1").obj()]
    pg = make_pod_group("pg1", "ns", 3)
    handle = GangHandle(pods=pods, nodes=[NODE_4CPU], objects=pods + [pg])
    pl = _plugin(handle, schedule_timeout=10.0, pg_backoff=1.0, mgr_timeout=5.0)

    state = CycleState()
    state.write(PODS_TO_ACTIVATE_KEY, PodsToActivate())
    status, _ = pl.permit(state, pods[0], "test")
    assert status.code == Code.Wait
    assert sorted(state.read(PODS_TO_ACTIVATE_KEY).map) == ["ns/pod2", "ns/pod3"]

    pl.post_filter(CycleState(), pods[1], {})
    _, status = pl.pre_filter(CycleState(), pods[2])
    assert status.code == Code.UnschedulableAndUnresolvable
    assert status.reasons[0] == "podGroup ns/pg1 failed recently"


# --- TestLess ----------------------------------------------------------------------------

NOW = 1000.0
LOW, HIGH = 10, 100


def _qpi(name: str, ns: str, prio: int, group: str = "", attempt=None) -> QueuedPodInfo:
    w = make_pod().name(name).namespace(ns).priority(prio)
    if group:
        w = w.label(LABEL, group)
    return QueuedPodInfo(PodInfo.of(w.obj()), initial_attempt_timestamp=attempt)


LESS_CASES = [
    ("p1.priority less than p2.priority",
     _qpi("p1", "ns1", LOW), _qpi("p2", "ns2", HIGH), [], False),
    ("p1.priority greater than p2.priority",
     _qpi("p1", "ns1", HIGH), _qpi("p2", "ns2", LOW), [], True),
    ("equal priority. p1 is added to schedulingQ earlier than p2",
     _qpi("p1", "ns1", HIGH, attempt=NOW + 1), _qpi("p2", "ns2", HIGH, attempt=NOW + 2), [], True),
    ("equal priority. p2 is added to schedulingQ earlier than p1",
     _qpi("p1", "ns1", HIGH, attempt=NOW + 2), _qpi("p2", "ns2", HIGH, attempt=NOW + 1), [], False),
    ("p1.priority less than p2.priority, p1 belongs to pg1",
     _qpi("p1", "ns1", LOW, "pg1"), _qpi("p2", "ns2", HIGH), [make_pod_group("pg1", "ns1")], False),
    ("p1.priority greater than p2.priority, p1 belongs to pg1",
     _qpi("p1", "ns1", HIGH, "pg1"), _qpi("p2", "ns2", LOW), [make_pod_group("pg1", "ns1")], True),
    ("equal priority. p1 is added to schedulingQ earlier than p2, p1 belongs to pg1",
     _qpi("p1", "ns1", HIGH, "pg1", NOW + 1), _qpi("p2", "ns2", HIGH, attempt=NOW + 2),
     [make_pod_group("pg1", "ns1", created=NOW + 1)], True),
    ("equal priority. p2 is added to schedulingQ earlier than p1, p1 belongs to pg1",
     _qpi("p1", "ns1", HIGH, "pg1", NOW + 2), _qpi("p2", "ns2", HIGH, attempt=NOW + 1),
     [make_pod_group("pg1", "ns1", created=NOW + 2)], False),
    ("p1.priority less than p2.priority, p1 belongs to pg1 and p2 belongs to pg2",
     _qpi("p1", "ns1", LOW, "pg1"), _qpi("p2", "ns2", HIGH, "pg2"),
     [make_pod_group("pg1", "ns1", created=NOW + 1), make_pod_group("pg2", "ns2", created=NOW + 2)], False),
    ("p1.priority greater than p2.priority, p1 belongs to pg1 and and p2 belongs to pg2",
     _qpi("p1", "ns1", HIGH, "pg1"), _qpi("p2", "ns2", LOW, "pg1"),
     [make_pod_group("pg1", "ns1", created=NOW + 1), make_pod_group("pg2", "ns2", created=NOW + 2)], True),
    ("equal priority. p1 is added to schedulingQ earlier than p2, p1 belongs to pg1 and p2 belongs to pg2",
     _qpi("p1", "ns1", HIGH, "pg1", NOW + 1), _qpi("p2", "ns2", HIGH, "pg2", NOW + 2),
     [make_pod_group("pg1", "ns1", created=NOW + 1), make_pod_group("pg2", "ns2", created=NOW + 2)], True),
    ("equal priority. p2 is added to schedulingQ earlier than p1, p1 belongs to pg2 and p2 belongs to pg1",
     _qpi("p1", "ns", LOW, "pg2", NOW + 1), _qpi("p2", "ns", HIGH, "pg1", NOW + 2),
     [make_pod_group("pg1", "ns", created=NOW + 1), make_pod_group("pg2", "ns", created=NOW + 2)], False),
    ("equal priority and creation time, p1 belongs pg1 and p2 belong to pg2",
     _qpi("p1", "ns1", HIGH, "pg2", NOW + 1), _qpi("p2", "ns2", HIGH, "pg2", NOW + 1),
     [make_pod_group("pg1", "ns1", created=NOW + 1), make_pod_group("pg2", "ns2", created=NOW + 2)], True),
    ("equal priority and creation time, and p2 belong to pg2",
     _qpi("p1", "ns1", HIGH, attempt=NOW + 1), _qpi("p2", "ns2", HIGH, "pg2", NOW + 1),
     [make_pod_group("pg2", "ns2", created=NOW + 2)], True),
    # Same priority and group: the pods' namespace/name decide.
    ("equal priority, same group: by namespace/name",
     _qpi("b", "ns", HIGH, "pg1", NOW + 1), _qpi("a", "ns", HIGH, "pg1", NOW),
     [make_pod_group("pg1", "ns", created=NOW - 1)], False),
]


@pytest.mark.parametrize("p1,p2,pgs,want", [c[1:] for c in LESS_CASES], ids=[c[0] for c in LESS_CASES])
def test_less(p1, p2, pgs, want):
    pl = _plugin(GangHandle(objects=pgs))
    assert pl.less(p1, p2) == want


# --- TestPermit --------------------------------------------------------------------------

PERMIT_CASES = [
    ("pods do not belong to any podGroup", make_pod().name("p").namespace("ns").uid("p").obj(), Code.Success),
    ("pods belong to a pg1, but quorum not satisfied", _member("p", "pg2").obj(), Code.Wait),
    ("pods belong to a podGroup, and quorum satisfied", _member("p", "pg1").obj(), Code.Success),
]


@pytest.mark.parametrize("pod,want", [c[1:] for c in PERMIT_CASES], ids=[c[0] for c in PERMIT_CASES])
def test_permit(pod, want):
    pgs = [make_pod_group("pg1", "ns", 1), make_pod_group("pg2", "ns", 2)]
    pl = _plugin(GangHandle(nodes=[NODE_4CPU], objects=[pod] + pgs))
    status, _ = pl.permit(CycleState(), pod, "node")
    assert (status.code if status is not None else Code.Success) == want


PERMIT_TIMEOUT_CASES = [
    ("the group's scheduleTimeoutSeconds", 7, 10.0, 7.0),
    ("the plugin's permitWaitingTimeSeconds", None, 10.0, 10.0),
    ("60 s when neither is set", None, 0.0, 60.0),
]


@pytest.mark.parametrize("group_timeout,plugin_timeout,want", [c[1:] for c in PERMIT_TIMEOUT_CASES],
                         ids=[c[0] for c in PERMIT_TIMEOUT_CASES])
def test_permit_wait_time(group_timeout, plugin_timeout, want):
    pod = _member("p", "pg1").obj()
    pl = _plugin(GangHandle(nodes=[NODE_4CPU], objects=[pod, make_pod_group("pg1", "ns", 2, timeout=group_timeout)]),
                 schedule_timeout=plugin_timeout)
    status, wait = pl.permit(CycleState(), pod, "node")
    assert (status.code, wait) == (Code.Wait, want)


def test_permit_rejects_a_pod_whose_group_does_not_exist():
    pod = _member("p", "missing").obj()
    status, wait = _plugin(GangHandle(nodes=[NODE_4CPU], objects=[pod])).permit(CycleState(), pod, "node")
    assert (status.code, status.reasons, wait) == (Code.Unschedulable, ["PodGroup not found"], 0.0)


def test_permit_success_allows_the_waiting_members_of_the_group_only():
    waiting_member = _member("p1", "pg1").node("node").obj()
    other_group = _member("q1", "pg2").node("node").obj()
    handle = GangHandle(pods=[waiting_member, other_group], nodes=[NODE_4CPU],
                        objects=[make_pod_group("pg1", "ns", 2), make_pod_group("pg2", "ns", 2)])
    w1, w2 = handle.wait(waiting_member), handle.wait(other_group)
    status, wait = _plugin(handle).permit(CycleState(), _member("p2", "pg1").obj(), "node")
    assert (status.code, wait) == (Code.Success, 0.0)
    assert w1.status is not None and w1.status.code == Code.Success
    assert w2.status is None


# --- TestPostFilter ----------------------------------------------------------------------

POST_FILTER_CASES = [
    ("pod does not belong to any pod group", make_pod().name("p").namespace("ns").uid("p").obj(), [],
     [make_pod_group("pg1", "ns", 2)], (Code.Unschedulable, ["can not find pod group"])),
    ("enough pods assigned, do not reject all", _member("p", "pg1").obj(),
     [_member("p1", "pg1").node("node").obj()], [make_pod_group("pg1", "ns", 1)], (Code.Unschedulable, [])),
    ("pod failed at filter phase, reject all pods", _member("p", "pg1").obj(),
     [_member("p1", "pg1").node("node").obj()], [make_pod_group("pg1", "ns", 2)],
     (Code.Unschedulable, ["PodGroup ns/pg1 gets rejected due to Pod p is unschedulable even after PostFilter"])),
    # 9 of 10 members hold a node: the last 10% may still come, nobody is rejected.
    ("a gap of 10% or less, do not reject all", _member("p", "pg1").obj(),
     [_member(f"p{i}", "pg1").node("node").obj() for i in range(9)], [make_pod_group("pg1", "ns", 10)],
     (Code.Unschedulable, [])),
]


@pytest.mark.parametrize("pod,existing,pgs,want", [c[1:] for c in POST_FILTER_CASES],
                         ids=[c[0] for c in POST_FILTER_CASES])
def test_post_filter(pod, existing, pgs, want):
    handle = GangHandle(pods=existing, nodes=[NODE_4CPU], objects=existing + [pod] + pgs)
    waiting = [handle.wait(p) for p in existing]
    result, status = _plugin(handle).post_filter(CycleState(), pod, {"node": None})
    assert result is not None and result.nominating_info is None
    assert (status.code, status.reasons) == want
    rejected = want[1] and want[1][0].startswith("PodGroup")
    for wp in waiting:
        if rejected:
            assert (wp.status.code, wp.status.reasons, wp.status.plugin) == (
                Code.Unschedulable, ["optimistic rejection in PostFilter"], "Coscheduling")
        else:
            assert wp.status is None


def test_post_filter_backs_off_the_group_only_when_it_has_enough_pods():
    pod = _member("p", "pg1").obj()
    handle = GangHandle(nodes=[NODE_4CPU], objects=[pod, make_pod_group("pg1", "ns", 2)])
    pl = _plugin(handle, pg_backoff=20.0)
    pl.post_filter(CycleState(), pod, {})
    assert not pl.pg_mgr.backed_off_pg.get("ns/pg1")[1]  # one pod of the two it needs
    handle.objects.objects.append(_member("p2", "pg1").obj())
    pl.post_filter(CycleState(), pod, {})
    assert pl.pg_mgr.backed_off_pg.get("ns/pg1")[1]
    handle.clock.now = 20.5
    assert not pl.pg_mgr.backed_off_pg.get("ns/pg1")[1]


# --- Unreserve, events, New --------------------------------------------------------------

def test_unreserve_rejects_the_waiting_members_of_the_group():
    m1, m2 = _member("p1", "pg1").node("node").obj(), _member("p2", "pg1", ns="other").node("node").obj()
    handle = GangHandle(pods=[m1, m2], nodes=[NODE_4CPU], objects=[make_pod_group("pg1", "ns", 3)])
    w1, w2 = handle.wait(m1), handle.wait(m2)
    pl = _plugin(handle)
    pl.pg_mgr.permitted_pg.add("ns/pg1", "ns/pg1", 60.0)
    pl.unreserve(CycleState(), _member("p3", "pg1").obj(), "node")
    assert (w1.status.code, w1.status.reasons) == (Code.Unschedulable, ["rejection in Unreserve"])
    assert w2.status is None  # same group name, other namespace
    assert not pl.pg_mgr.permitted_pg.get("ns/pg1")[1]


def test_events_to_register():
    events = [(e.event.resource, e.event.action_type) for e in _plugin(GangHandle()).events_to_register()]
    assert events == [(POD, ActionType.Add),
                      ("podgroups.v1alpha1.scheduling.x-k8s.io", ActionType.Add | ActionType.Update)]


NEW_CASES = [
    ("no args: the defaults", None, (60.0, None)),
    ("permitWaitingTimeSeconds and podGroupBackoffSeconds", {"permitWaitingTimeSeconds": 3,
                                                              "podGroupBackoffSeconds": 20}, (3.0, 20.0)),
    ("a zero backoff is off", {"podGroupBackoffSeconds": 0}, (60.0, None)),
]


@pytest.mark.parametrize("args,want", [c[1:] for c in NEW_CASES], ids=[c[0] for c in NEW_CASES])
def test_new(args, want):
    pl = coscheduling.new(args, GangHandle())
    assert (pl.schedule_timeout, pl.pg_backoff) == want
    assert pl.name() == "Coscheduling"


@pytest.mark.parametrize("args,message", [
    ({"podGroupBackoffSeconds": -1}, "parse arguments failed"),
    ({"permitWaitingTimeSecond": 3}, 'decoding CoschedulingArgs: unknown field "permitWaitingTimeSecond"'),
    ({"permitWaitingTimeSeconds": "3"}, "decoding CoschedulingArgs: permitWaitingTimeSeconds: expected an integer, got '3'"),
], ids=["negative backoff", "unknown field", "wrong type"])
def test_new_refuses_bad_args(args, message):
    with pytest.raises(ValueError) as err:
        coscheduling.new(args, GangHandle())
    assert str(err.value) == message


def test_scheduler_reports_bad_args_as_initializing_plugin(tmp_path):
    from ksched_edu.config.loader import load_config
    from ksched_edu.framework.plugins.registry import new_registry_with_out_of_tree
    from ksched_edu.scheduler import ConfigurationError, Scheduler

    path = tmp_path / "config.yaml"
    path.write_text(CONFIG_NEGATIVE_BACKOFF)
    with pytest.raises(ConfigurationError) as err:
        Scheduler(load_config(path), registry=new_registry_with_out_of_tree())
    assert str(err.value) == ("initializing profiles: creating profile for scheduler name default-scheduler: "
                              "initializing plugin \"Coscheduling\": parse arguments failed")


CONFIG_NEGATIVE_BACKOFF = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled:
      - name: Coscheduling
      disabled:
      - name: PrioritySort
  pluginConfig:
  - name: Coscheduling
    args:
      podGroupBackoffSeconds: -1
"""


def test_caches_read_the_clock_of_the_api_server_client():
    handle = GangHandle(clock=Clock(42.0))
    pl = coscheduling.new(None, handle)
    pl.pg_mgr.backoff_pod_group("ns/pg", 1.0)
    handle.clock.now = 43.5
    assert not pl.pg_mgr.backed_off_pg.get("ns/pg")[1]
