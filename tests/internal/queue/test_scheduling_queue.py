"""Tests of internal/queue/scheduling_queue.py, mirroring scheduling_queue_test.go (v1.30).

Where upstream's test moves pods with an event no plugin registered (its
``TestEvent``), these use ``WILD_CARD_EVENT`` or register the event: in v1.30.4
an event no plugin is interested in moves nothing.
"""
from __future__ import annotations

import copy
from typing import Callable, Optional

import pytest

from ksched_edu.api.types import Pod
from ksched_edu.framework.interface import NominatingInfo, NominatingMode
from ksched_edu.framework.types import NODE, ActionType, ClusterEvent, PodInfo, QueuedPodInfo, QueueingHint
from ksched_edu.internal.queue import events as ev
from ksched_edu.internal.queue.scheduling_queue import (ACTIVE_Q, BACKOFF_Q, IN_FLIGHT, PENDING_PODS_SUMMARY,
                                                        QUEUE_AFTER_BACKOFF, QUEUE_IMMEDIATELY, QUEUE_SKIP,
                                                        UNSCHEDULABLE_PODS, ClusterEventRecord, PriorityQueue,
                                                        QueueError, UnschedulablePods, get_pod_full_name,
                                                        new_queued_pod_info_for_lookup)
from ksched_edu.sim.clock import VirtualClock
from ksched_edu.trace import QueueEvent, Recorder
from tests.builders import POD_AFFINITY_WITH_REQUIRED_REQ, make_pod

from .fixtures import (HIGH_PRIORITY, MID_PRIORITY, PreEnqueuePlugin, clone_pod, expect_in_flight_pods,
                       high_pri_nominated_pod, high_priority_pod, hints, mark_unschedulable, med_priority_pod,
                       new_test_queue, non_existent_pod, queue_hint_return_queue, queue_hint_return_skip,
                       scheduled_pod, step, unschedulable_pod)

pytestmark = pytest.mark.ch02

TEST_EVENT = ClusterEvent("test", ActionType(0))


def nominator_state(q: PriorityQueue) -> tuple[dict[str, str], dict[str, list[str]]]:
    return (dict(q.nominated_pod_to_node),
            {node: [pi.pod.name for pi in pods] for node, pods in q.nominated_pods.items()})


def test_priority_queue_add():
    """TestPriorityQueue_Add: nominated pods are recorded; pops follow priority."""
    med, up, hpp = med_priority_pod(), unschedulable_pod(), high_priority_pod()
    q = new_test_queue(objs=[med, up, hpp])
    q.add(med)
    q.add(up)
    q.add(hpp)
    assert nominator_state(q) == ({"mppns2": "node1", "upns1": "node1"}, {"node1": ["mpp", "up"]})
    assert q.pop().pod is hpp
    assert q.pop().pod is med
    assert q.pop().pod is up
    assert len(q.nominated_pods["node1"]) == 2


def test_priority_queue_add_with_reverse_priority_less_func():
    """TestPriorityQueue_AddWithReversePriorityLessFunc."""
    med, hpp = med_priority_pod(), high_priority_pod()
    q = new_test_queue(objs=[med, hpp])
    q.add(med)
    q.add(hpp)
    assert q.pop().pod is hpp
    assert q.pop().pod is med


# --- in-flight pods (queueing hints) ------------------------------------------------------

POD1 = make_pod().name("targetpod").uid("pod1").obj()
POD2 = make_pod().name("targetpod2").uid("pod2").obj()
POD3 = make_pod().name("targetpod3").uid("pod3").obj()

# A plugin interested in every event these cases raise, rejecting no pod here.
INTERESTED = {"": {e: hints(("barPlugin", queue_hint_return_queue))
                   for e in (ev.PV_ADD, ev.PVC_ADD, ev.NODE_ADD, ev.ASSIGNED_POD_ADD, ev.CSI_NODE_UPDATE)}}


def popped(pod: Pod):
    return ("pop", pod)


def event(e: ClusterEvent):
    return ("event", e)


def enqueued(pinfo_fn: Callable[[], QueuedPodInfo]):
    return ("enqueue", pinfo_fn)


def qpi(pod: Pod, unschedulable: tuple[str, ...] = (), pending: tuple[str, ...] = ()) -> Callable[[], QueuedPodInfo]:
    return lambda: QueuedPodInfo(PodInfo.of(pod), unschedulable_plugins=set(unschedulable),
                                 pending_plugins=set(pending))


IN_FLIGHT_CASES = [
    dict(name="when SchedulingQueueHint is disabled, inFlightPods and inFlightEvents should be empty",
         hints_enabled=False, initial=[POD1], hint_map=INTERESTED,
         actions=[popped(POD1), event(ev.PV_ADD)], want_in_flight=[], want_events=[]),
    dict(name="when SchedulingQueueHint is disabled, which queue to enqueue Pod should be decided without "
              "SchedulingQueueHint",
         hints_enabled=False, initial=[POD1],
         hint_map={"": {ev.ASSIGNED_POD_ADD: hints(("fooPlugin1", queue_hint_return_skip))}},
         actions=[popped(POD1), event(ev.ASSIGNED_POD_ADD), enqueued(qpi(POD1, ("fooPlugin1",)))],
         want_backoff=["targetpod"], want_in_flight=[], want_events=[]),
    dict(name="Pod is registered in inFlightPods when Pod is popped from activeQ",
         hints_enabled=True, initial=[POD1], hint_map=INTERESTED,
         actions=[event(ev.PVC_ADD), popped(POD1), event(ev.PV_ADD)],
         want_in_flight=[POD1], want_events=[POD1, ev.PV_ADD]),
    dict(name="Pod, registered in inFlightPods, is enqueued back to activeQ",
         hints_enabled=True, initial=[POD1, POD2], hint_map=INTERESTED,
         actions=[event(ev.PVC_ADD), popped(POD1), event(ev.PV_ADD), popped(POD2), event(ev.NODE_ADD),
                  enqueued(qpi(POD1))],
         want_backoff=["targetpod"], want_in_flight=[POD2], want_events=[POD2, ev.NODE_ADD]),
    dict(name="All Pods registered in inFlightPods are enqueued back to activeQ",
         hints_enabled=True, initial=[POD1, POD2], hint_map=INTERESTED,
         actions=[event(ev.PVC_ADD), popped(POD1), event(ev.PV_ADD), popped(POD2), event(ev.NODE_ADD),
                  enqueued(qpi(POD1)), event(ev.CSI_NODE_UPDATE), enqueued(qpi(POD2))],
         want_backoff=["targetpod", "targetpod2"], want_in_flight=[], want_events=[]),
    dict(name="One intermediate Pod registered in inFlightPods is enqueued back to activeQ",
         hints_enabled=True, initial=[POD1, POD2, POD3], hint_map=INTERESTED,
         actions=[event(ev.PVC_ADD), popped(POD1), event(ev.PV_ADD), popped(POD2), event(ev.NODE_ADD),
                  popped(POD3), event(ev.ASSIGNED_POD_ADD), enqueued(qpi(POD2))],
         want_backoff=["targetpod2"], want_in_flight=[POD1, POD3],
         want_events=[POD1, ev.PV_ADD, ev.NODE_ADD, POD3, ev.ASSIGNED_POD_ADD]),
    dict(name="events before popping Pod are ignored",
         hints_enabled=True, initial=[POD1],
         hint_map={"": {ev.ASSIGNED_POD_ADD: hints(("fooPlugin1", queue_hint_return_skip))}},
         actions=[event(ev.WILD_CARD_EVENT), popped(POD1), event(ev.ASSIGNED_POD_ADD),
                  enqueued(qpi(POD1, ("fooPlugin1",)))],
         want_unsched=["targetpod"], want_in_flight=[], want_events=[]),
    dict(name="pod is enqueued to backoff if no failed plugin",
         hints_enabled=True, initial=[POD1],
         hint_map={"": {ev.ASSIGNED_POD_ADD: hints(("fooPlugin1", queue_hint_return_queue))}},
         actions=[popped(POD1), event(ev.ASSIGNED_POD_ADD), enqueued(qpi(POD1))],
         want_backoff=["targetpod"], want_in_flight=[], want_events=[]),
    dict(name="pod is enqueued to unschedulable pod pool if no events that can make the pod schedulable",
         hints_enabled=True, initial=[POD1],
         hint_map={"": {ev.ASSIGNED_POD_ADD: hints(("fooPlugin1", queue_hint_return_queue))}},
         actions=[popped(POD1), event(ev.NODE_ADD), enqueued(qpi(POD1, ("fooPlugin1",)))],
         want_unsched=["targetpod"], want_in_flight=[], want_events=[]),
    dict(name="pod is enqueued to unschedulable pod pool because the failed plugin has a hint fn but it returns Skip",
         hints_enabled=True, initial=[POD1],
         hint_map={"": {ev.ASSIGNED_POD_ADD: hints(("fooPlugin1", queue_hint_return_skip))}},
         actions=[popped(POD1), event(ev.ASSIGNED_POD_ADD), enqueued(qpi(POD1, ("fooPlugin1",)))],
         want_unsched=["targetpod"], want_in_flight=[], want_events=[]),
    dict(name="pod is enqueued to activeQ because the Pending plugins has a hint fn and it returns Queue",
         hints_enabled=True, initial=[POD1],
         hint_map={"": {ev.ASSIGNED_POD_ADD: hints(("fooPlugin3", queue_hint_return_skip),
                                                   ("fooPlugin2", queue_hint_return_queue),
                                                   ("fooPlugin1", queue_hint_return_queue))}},
         actions=[popped(POD1), event(ev.ASSIGNED_POD_ADD),
                  enqueued(qpi(POD1, ("fooPlugin2", "fooPlugin3"), ("fooPlugin1",)))],
         want_active=["targetpod"], want_in_flight=[], want_events=[]),
    dict(name="pod is enqueued to backoffQ because the failed plugin has a hint fn and it returns Queue",
         hints_enabled=True, initial=[POD1],
         hint_map={"": {ev.ASSIGNED_POD_ADD: hints(("fooPlugin2", queue_hint_return_skip),
                                                   ("fooPlugin1", queue_hint_return_queue))}},
         actions=[popped(POD1), event(ev.ASSIGNED_POD_ADD), enqueued(qpi(POD1, ("fooPlugin1", "fooPlugin2")))],
         want_backoff=["targetpod"], want_in_flight=[], want_events=[]),
]


@pytest.mark.parametrize("case", IN_FLIGHT_CASES, ids=[c["name"] for c in IN_FLIGHT_CASES])
def test_in_flight_pods(case):
    """Test_InFlightPods."""
    q = new_test_queue(objs=case["initial"], queueing_hint_map=case["hint_map"],
                       queueing_hints_enabled=case["hints_enabled"])
    for p in case["initial"]:
        q.add(p)
    for kind, arg in case["actions"]:
        if kind == "pop":
            assert q.pop().pod.uid == arg.uid
        elif kind == "event":
            q.move_all_to_active_or_backoff_queue(arg, None, None, None)
        else:
            assert q.add_unschedulable_if_not_present(arg(), q.scheduling_cycle) is None
    assert sorted(q.in_flight_pods) == sorted(p.uid for p in case["want_in_flight"])
    got_events = [v.event if isinstance(v, ClusterEventRecord) else v for v in q.in_flight_events.values()]
    assert got_events == case["want_events"]
    if "want_active" in case:
        assert sorted(p.pod.name for p in q.active_q.list()) == case["want_active"]
    if "want_backoff" in case:
        assert sorted(p.pod.name for p in q.pod_backoff_q.list()) == case["want_backoff"]
    for name in case.get("want_unsched", []):
        assert q.unschedulable_pods.get(make_pod().name(name).obj()) is not None


def test_in_flight_concurrent_event_while_other_pod_in_flight():
    """Test_InFlightPods: "pod is enqueued to activeQ because the failed plugin has a hint fn and it returns
    Queue for a concurrent event that was received while some other pod was in flight"."""
    hint_map = {"": {ev.ASSIGNED_POD_ADD: hints(("fooPlugin3", queue_hint_return_skip),
                                               ("fooPlugin2", queue_hint_return_queue),
                                               ("fooPlugin1", queue_hint_return_queue))}}
    q = new_test_queue(objs=[POD1, POD2], queueing_hint_map=hint_map, queueing_hints_enabled=True)
    q.add(POD1)
    q.add(POD2)
    popped_pod = q.pop()
    q.move_all_to_active_or_backoff_queue(ev.NODE_ADD, None, None, None)
    popped_pod2 = q.pop()
    q.move_all_to_active_or_backoff_queue(ev.ASSIGNED_POD_ADD, None, None, None)
    assert q.add_unschedulable_if_not_present(popped_pod, q.scheduling_cycle) is None
    popped_pod2.unschedulable_plugins = {"fooPlugin2", "fooPlugin3"}
    popped_pod2.pending_plugins = {"fooPlugin1"}
    assert q.add_unschedulable_if_not_present(popped_pod2, q.scheduling_cycle) is None
    assert [p.pod.name for p in q.active_q.list()] == [POD2.name]
    assert not q.in_flight_pods and not q.in_flight_events.values()


def test_in_flight_popped_pod_has_empty_plugins():
    """Test_InFlightPods: "popped pod must have empty UnschedulablePlugins and PendingPlugins"."""
    hint_map = {"": {ev.PV_ADD: hints(("fooPlugin1", queue_hint_return_queue))}}
    q = new_test_queue(objs=[POD1], queueing_hint_map=hint_map, queueing_hints_enabled=True)
    q.add(POD1)
    p = q.pop()
    p.pending_plugins = {"fooPlugin1"}
    p.unschedulable_plugins = {"fooPlugin2"}
    assert q.add_unschedulable_if_not_present(p, q.scheduling_cycle) is None
    q.move_all_to_active_or_backoff_queue(ev.PV_ADD, None, None, None)  # active again
    p = q.pop()
    assert not p.unschedulable_plugins and not p.pending_plugins
    assert q.add_unschedulable_if_not_present(p, q.scheduling_cycle) is None  # no plugins: backoff
    assert q.queue_of(POD1) == BACKOFF_Q


@pytest.mark.parametrize("hints_enabled", [True, False], ids=["with-hints", "without-hints"])
def test_pop(hints_enabled):
    """TestPop: a pod popped again has no Pending plugins left."""
    pod = make_pod().name("targetpod").uid("pod1").obj()
    hint_map = {"": {ev.PV_ADD: hints(("fooPlugin1", queue_hint_return_queue))}}
    q = new_test_queue(objs=[pod], queueing_hint_map=hint_map, queueing_hints_enabled=hints_enabled)
    q.add(pod)
    p = q.pop()
    p.pending_plugins = {"fooPlugin1"}
    assert q.add_unschedulable_if_not_present(p, q.scheduling_cycle) is None
    q.move_all_to_active_or_backoff_queue(ev.PV_ADD, None, None, None)
    p = q.pop()
    assert p.pod is pod and not p.pending_plugins


# --- AddUnschedulableIfNotPresent ------------------------------------------------------------


def test_priority_queue_add_unschedulable_if_not_present():
    """TestPriorityQueue_AddUnschedulableIfNotPresent."""
    hpn, up = high_pri_nominated_pod(), unschedulable_pod()
    q = new_test_queue(objs=[hpn, up])
    q.add(up)
    assert q.pop().pod is up
    q.add(hpn)
    assert q.add_unschedulable_if_not_present(new_queued_pod_info_for_lookup(up, "plugin"), q.scheduling_cycle) is None
    assert nominator_state(q) == ({"upns1": "node1", "hppns1": "node1"}, {"node1": ["hpp", "up"]})
    assert q.pop().pod is hpn
    assert len(q.nominated_pods) == 1
    assert q.unschedulable_pods.get(up).pod is up


def test_add_unschedulable_if_not_present_refuses_a_pod_already_queued():
    """AddUnschedulableIfNotPresent returns upstream's error when the pod is already in a queue."""
    hpp = high_priority_pod()
    q = new_test_queue()
    q.add(hpp)
    err = q.add_unschedulable_if_not_present(new_queued_pod_info_for_lookup(hpp), q.scheduling_cycle)
    assert isinstance(err, QueueError) and str(err) == "Pod ns1/hpp is already present in the active queue"
    q.pod_backoff_q.add(q.active_q.pop())
    err = q.add_unschedulable_if_not_present(new_queued_pod_info_for_lookup(hpp), q.scheduling_cycle)
    assert str(err) == "Pod ns1/hpp is already present in the backoff queue"
    q.unschedulable_pods.add_or_update(q.pod_backoff_q.pop())
    err = q.add_unschedulable_if_not_present(new_queued_pod_info_for_lookup(hpp), q.scheduling_cycle)
    assert str(err) == "Pod ns1/hpp is already present in unschedulable queue"


def test_priority_queue_add_unschedulable_if_not_present_backoff():
    """TestPriorityQueue_AddUnschedulableIfNotPresent_Backoff: a pod that failed in the cycle of a move
    request goes to backoffQ."""
    q = new_test_queue()
    pods = [make_pod().name(f"pod{i}").namespace(f"ns{i}").uid(f"upns{i}").priority(i).obj() for i in range(10)]
    for p in pods:
        q.add(p)
    for i in range(9, 0, -1):
        assert q.pop().pod is pods[i]
    # Move everything while those pods were being scheduled.
    q.move_all_to_active_or_backoff_queue(ev.WILD_CARD_EVENT, None, None, None)
    old_cycle = q.scheduling_cycle
    assert q.pop().pod is pods[0]
    for p in pods[1:]:
        failed = copy.deepcopy(p)
        mark_unschedulable(failed)
        assert q.add_unschedulable_if_not_present(new_queued_pod_info_for_lookup(failed, "plugin"), old_cycle) is None
    for p in pods[1:]:
        assert q.pod_backoff_q.has(new_queued_pod_info_for_lookup(p))


def test_priority_queue_pop():
    """TestPriorityQueue_Pop: pop returns the pod; its nomination stays. Pop never blocks here."""
    med = med_priority_pod()
    q = new_test_queue(objs=[med])
    assert q.pop() is None  # upstream blocks until a pod arrives
    q.add(med)
    assert q.pop().pod is med
    assert len(q.nominated_pods["node1"]) == 1


# --- Update and Delete -------------------------------------------------------------------------


def _update_prepare_add_high(q, clock):
    return None, high_priority_pod()


def _update_prepare_not_in_queue(q, clock):
    med = med_priority_pod()
    updated = copy.deepcopy(med)
    updated.metadata.annotations["foo"] = "test"
    return med, updated


def _update_prepare_nominated(q, clock):
    return high_priority_pod(), high_pri_nominated_pod()


def _update_prepare_in_active(q, clock):
    hpp = high_priority_pod()
    q.update(None, hpp)
    return hpp, hpp


def _update_prepare_in_backoff(q, clock):
    pinfo = q.new_queued_pod_info(med_priority_pod())
    q.pod_backoff_q.add(pinfo)
    return pinfo.pod, pinfo.pod


def _update_prepare_unsched_backing_off(q, clock):
    med = med_priority_pod()
    q.unschedulable_pods.add_or_update(q.new_queued_pod_info(med, "plugin"))
    updated = copy.deepcopy(med)
    updated.metadata.annotations["foo"] = "test"
    return med, updated


def _update_prepare_unsched_done_backing_off(q, clock):
    med = med_priority_pod()
    q.unschedulable_pods.add_or_update(q.new_queued_pod_info(med, "plugin"))
    updated = copy.deepcopy(med)
    updated.metadata.annotations["foo"] = "test1"
    step(clock, q.pod_initial_backoff_duration)
    return med, updated


UPDATE_CASES = [
    ("add highPriorityPodInfo to activeQ", ACTIVE_Q, False, _update_prepare_add_high),
    ("Update pod that didn't exist in the queue", ACTIVE_Q, False, _update_prepare_not_in_queue),
    ("Update highPriorityPodInfo and add a nominatedNodeName to it", ACTIVE_Q, True, _update_prepare_nominated),
    ("When updating a pod that is already in activeQ, the pod should remain in activeQ after Update()",
     ACTIVE_Q, False, _update_prepare_in_active),
    ("When updating a pod that is in backoff queue and is still backing off, it will be updated in backoff queue",
     BACKOFF_Q, False, _update_prepare_in_backoff),
    ("when updating a pod which is in unschedulable queue and is backing off, it will be moved to backoff queue",
     BACKOFF_Q, False, _update_prepare_unsched_backing_off),
    ("when updating a pod which is in unschedulable queue and is not backing off, it will be moved to active queue",
     ACTIVE_Q, False, _update_prepare_unsched_done_backing_off),
]


@pytest.mark.parametrize("want_q, want_nominated, prepare", [c[1:] for c in UPDATE_CASES],
                         ids=[c[0] for c in UPDATE_CASES])
def test_priority_queue_update(want_q, want_nominated, prepare):
    """TestPriorityQueue_Update."""
    clock = VirtualClock()
    q = new_test_queue(objs=[high_priority_pod(), unschedulable_pod(), med_priority_pod()], clock=clock)
    old_pod, new_pod = prepare(q, clock)
    q.update(old_pod, new_pod)
    assert q.queue_of(new_pod) == want_q
    holder = {ACTIVE_Q: q.active_q, BACKOFF_Q: q.pod_backoff_q}[want_q]
    assert holder.get(new_queued_pod_info_for_lookup(new_pod)).pod is new_pod
    if want_nominated:
        assert len(q.nominated_pods) == 1


def test_update_of_an_unschedulable_pod_that_did_not_change_keeps_it_there():
    """An update that only touches the status leaves the pod in unschedulablePods."""
    med = med_priority_pod()
    q = new_test_queue()
    q.unschedulable_pods.add_or_update(q.new_queued_pod_info(med, "plugin"))
    updated = copy.deepcopy(med)
    mark_unschedulable(updated)
    updated.metadata.resource_version = "2"
    q.update(med, updated)
    assert q.queue_of(updated) == UNSCHEDULABLE_PODS
    assert q.unschedulable_pods.get(med).pod is updated


def test_priority_queue_delete():
    """TestPriorityQueue_Delete."""
    hpp, hpn, up = high_priority_pod(), high_pri_nominated_pod(), unschedulable_pod()
    q = new_test_queue(objs=[hpp, up])
    q.update(hpp, hpn)
    q.add(up)
    q.delete(hpn)
    assert q.active_q.has(new_queued_pod_info_for_lookup(up))
    assert not q.active_q.has(new_queued_pod_info_for_lookup(hpn))
    assert len(q.nominated_pods) == 1
    q.delete(up)
    assert len(q.nominated_pods) == 0


# --- Activate and PreEnqueue -------------------------------------------------------------------

ACTIVATE_CASES = [
    ("pod already in activeQ", "active", 1),
    ("pod not in unschedulablePods/podBackoffQ", None, 0),
    ("pod in unschedulablePods", "unsched", 1),
    ("pod in backoffQ", "backoff", 1),
]


@pytest.mark.parametrize("where, want_active", [c[1:] for c in ACTIVATE_CASES], ids=[c[0] for c in ACTIVATE_CASES])
def test_priority_queue_activate(where, want_active):
    """TestPriorityQueue_Activate."""
    q = new_test_queue()
    pod = high_pri_nominated_pod()
    pinfo = QueuedPodInfo(PodInfo(pod))
    if where == "active":
        q.active_q.add(pinfo)
    elif where == "unsched":
        q.unschedulable_pods.add_or_update(pinfo)
    elif where == "backoff":
        q.pod_backoff_q.add(pinfo)
    q.activate({"test_pod": pod})
    assert len(q.active_q) == want_active
    if want_active:
        assert q.active_q.has(new_queued_pod_info_for_lookup(pod))
    assert len(q.unschedulable_pods) == 0 and len(q.pod_backoff_q) == 0


ADD_TO_ACTIVE_Q_CASES = [
    ("no plugins registered", [], make_pod().name("p").label("p", "").obj(), 0, True),
    ("preEnqueue plugin registered, pod name not in allowlists", [PreEnqueuePlugin(), PreEnqueuePlugin()],
     make_pod().name("p").label("p", "").obj(), 1, False),
    ("preEnqueue plugin registered, pod failed one preEnqueue plugin",
     [PreEnqueuePlugin(["foo", "bar"]), PreEnqueuePlugin(["foo"])], make_pod().name("bar").label("bar", "").obj(),
     1, False),
    ("preEnqueue plugin registered, pod passed all preEnqueue plugins",
     [PreEnqueuePlugin(["foo", "bar"]), PreEnqueuePlugin(["bar"])], make_pod().name("bar").label("bar", "").obj(),
     0, True),
]


@pytest.mark.parametrize("plugins, pod, want_unschedulable, want_success", [c[1:] for c in ADD_TO_ACTIVE_Q_CASES],
                         ids=[c[0] for c in ADD_TO_ACTIVE_Q_CASES])
def test_priority_queue_add_to_active_q(plugins, pod, want_unschedulable, want_success):
    """TestPriorityQueue_addToActiveQ: a pod a PreEnqueue plugin refuses is gated in unschedulablePods."""
    q = new_test_queue(objs=[pod], pre_enqueue_plugins={"": plugins},
                       pod_initial_backoff_seconds=30, pod_max_backoff_seconds=60)
    pinfo = q.new_queued_pod_info(pod)
    assert q.add_to_active_q(pinfo) == want_success
    assert len(q.unschedulable_pods) == want_unschedulable
    assert pinfo.gated == (not want_success)
    # An update that does not satisfy the plugins leaves a gated pod where it is.
    clone = copy.deepcopy(pod)
    clone.metadata.annotations["foo"] = ""
    q.update(pod, clone)
    assert len(q.unschedulable_pods) == want_unschedulable


def test_priority_queue_pre_enqueue_gated_pods():
    """Gated pods: added to unschedulablePods, never moved by events, released by the update that lifts the gate."""
    gate = PreEnqueuePlugin(["ready"])
    rec = Recorder()
    clock = VirtualClock()
    q = new_test_queue(clock=clock, pre_enqueue_plugins={"": [gate]}, recorder=rec)
    gated = make_pod().name("g").namespace("ns").uid("g").obj()
    q.add(gated)
    assert q.queue_of(gated) == UNSCHEDULABLE_PODS
    pinfo = q.unschedulable_pods.get(gated)
    assert pinfo.gated and pinfo.unschedulable_plugins == {"preEnqueuePlugin"}
    assert q.pending_pods_gauges() == {"active": 0, "backoff": 0, "unschedulable": 0, "gated": 1}
    assert q.pop() is None
    # A wildcard event offers it to activeQ again; the plugin still refuses it.
    step(clock, 400)
    q.move_all_to_active_or_backoff_queue(ev.UNSCHEDULABLE_TIMEOUT, None, None, None)
    assert q.queue_of(gated) == UNSCHEDULABLE_PODS and q.pending_pods_gauges()["gated"] == 1
    # Lifting the gate by an update moves it straight to activeQ (a gated pod has no backoff).
    ready = copy.deepcopy(gated)
    ready.metadata.labels["ready"] = ""
    q.update(gated, ready)
    assert q.queue_of(ready) == ACTIVE_Q
    assert q.pending_pods_gauges() == {"active": 1, "backoff": 0, "unschedulable": 0, "gated": 0}
    p = q.pop()
    assert p.attempts == 1 and p.initial_attempt_timestamp == 400
    actions = [(e.action, e.queue, e.event) for e in rec.of(QueueEvent)]
    assert actions[0] == ("gated", UNSCHEDULABLE_PODS, ev.POD_ADD)
    assert ("update", ACTIVE_Q, ev.BACKOFF_COMPLETE) in actions
    plugin_events = [e for e in rec.events if getattr(e, "point", "") == "PreEnqueue"]
    assert plugin_events[0].code == "UnschedulableAndUnresolvable" and plugin_events[-1].code == "Success"


def test_scheduling_gates_pods_are_skipped_by_events():
    """A pod gated by SchedulingGates is not even offered an event (upstream's kubernetes#124384 fix)."""
    q = new_test_queue()
    pod = make_pod().name("sg").namespace("ns").scheduling_gates(["example.com/gate"]).obj()
    pinfo = q.new_queued_pod_info(pod, "SchedulingGates")
    pinfo.gated = True
    q.unschedulable_pods.add_or_update(pinfo)
    q.move_all_to_active_or_backoff_queue(ev.WILD_CARD_EVENT, None, None, None)
    assert q.queue_of(pod) == UNSCHEDULABLE_PODS


# --- moving pods by cluster events -------------------------------------------------------------

P1 = make_pod().name("pod1").namespace("ns1").uid("1").obj()
WITH_HINT_CASES = [
    ("Queue queues pod to activeQ", dict(pending={"foo"}), queue_hint_return_queue, 0.0, ACTIVE_Q),
    ("Queue queues pod to backoffQ if Pod is backing off", {}, queue_hint_return_queue, 0.0, BACKOFF_Q),
    ("Queue queues pod to activeQ if Pod is not backing off", {}, queue_hint_return_queue, 1.0, ACTIVE_Q),
    ("Skip queues pod to unschedulablePods", {}, queue_hint_return_skip, 0.0, UNSCHEDULABLE_PODS),
]


@pytest.mark.parametrize("extra, hint, duration, expected_q", [c[1:] for c in WITH_HINT_CASES],
                         ids=[c[0] for c in WITH_HINT_CASES])
def test_priority_queue_move_all_to_active_or_backoff_queue_with_queueing_hint(extra, hint, duration, expected_q):
    """TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint."""
    clock = VirtualClock()
    q = new_test_queue(clock=clock, queueing_hint_map={"": {ev.NODE_ADD: hints(("foo", hint))}})
    pinfo = QueuedPodInfo(PodInfo.of(P1), unschedulable_plugins={"foo"},
                          pending_plugins=set(extra.get("pending", ())))
    q.active_q.add(q.new_queued_pod_info(P1))
    assert q.pop().pod is P1
    assert q.add_unschedulable_if_not_present(pinfo, q.scheduling_cycle) is None
    step(clock, duration)
    q.move_all_to_active_or_backoff_queue(ev.NODE_ADD, None, None, None)
    assert q.queue_of(P1) == expected_q


def test_priority_queue_move_all_to_active_or_backoff_queue():
    """TestPriorityQueue_MoveAllToActiveOrBackoffQueue (queueing hints on)."""
    clock = VirtualClock()
    q = new_test_queue(clock=clock, queueing_hints_enabled=True,
                       queueing_hint_map={"": {ev.NODE_ADD: hints(("fooPlugin", queue_hint_return_queue))}})
    up, hpp, med = unschedulable_pod(), high_priority_pod(), med_priority_pod()
    q.active_q.add(q.new_queued_pod_info(up))
    assert q.pop().pod is up
    expect_in_flight_pods(q, up.uid)
    q.active_q.add(q.new_queued_pod_info(hpp))
    assert q.pop().pod is hpp
    expect_in_flight_pods(q, up.uid, hpp.uid)
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(up, "fooPlugin"), q.scheduling_cycle) is None
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(hpp, "fooPlugin"), q.scheduling_cycle) is None
    expect_in_flight_pods(q)
    # A pod whose failure no plugin is blamed for goes to backoffQ.
    hpp1 = clone_pod(hpp, "hpp1")
    q.active_q.add(q.new_queued_pod_info(hpp1))
    assert q.pop().pod is hpp1
    expect_in_flight_pods(q, hpp1.uid)
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(hpp1), q.scheduling_cycle) is None
    expect_in_flight_pods(q)
    # A pod rejected by barPlugin, which registered nothing, goes to the unschedulable pool.
    hpp2 = clone_pod(hpp, "hpp2")
    q.active_q.add(q.new_queued_pod_info(hpp2))
    assert q.pop().pod is hpp2
    expect_in_flight_pods(q, hpp2.uid)
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(hpp2, "barPlugin"), q.scheduling_cycle) is None
    expect_in_flight_pods(q)
    # NodeAdd moves up and hpp (fooPlugin's hint says Queue) to backoffQ.
    q.move_all_to_active_or_backoff_queue(ev.NODE_ADD, None, None, None)
    q.add(med)
    assert len(q.active_q) == 1
    assert q.pop().pod is med
    expect_in_flight_pods(q, med.uid)
    assert len(q.pod_backoff_q) == 3  # hpp2 was not moved
    while len(q.pod_backoff_q):
        q.pod_backoff_q.pop()
    expect_in_flight_pods(q, med.uid)

    q.scheduling_cycle += 1
    for pod in (up, hpp, hpp1):
        q.active_q.add(q.new_queued_pod_info(pod))
        assert q.pop().pod is pod
    up_info, hpp_info = q.new_queued_pod_info(up, "fooPlugin"), q.new_queued_pod_info(hpp, "fooPlugin")
    hpp1_info = q.new_queued_pod_info(hpp1)
    expect_in_flight_pods(q, med.uid, up.uid, hpp.uid, hpp1.uid)
    assert q.add_unschedulable_if_not_present(up_info, q.scheduling_cycle) is None
    expect_in_flight_pods(q, med.uid, hpp.uid, hpp1.uid)
    assert q.add_unschedulable_if_not_present(hpp_info, q.scheduling_cycle) is None
    expect_in_flight_pods(q, med.uid, hpp1.uid)
    assert q.add_unschedulable_if_not_present(hpp1_info, q.scheduling_cycle) is None
    expect_in_flight_pods(q, med.uid)
    q.add(med)
    for pod in (up, hpp, hpp2):
        assert q.unschedulable_pods.get(pod) is not None
    assert q.pod_backoff_q.has(hpp1_info)
    # Past the backoff, the flush moves hpp1 and NodeAdd moves the two fooPlugin pods to activeQ.
    step(clock, q.pod_initial_backoff_duration)
    q.flush_backoff_q_completed()
    q.move_all_to_active_or_backoff_queue(ev.NODE_ADD, None, None, None)
    assert len(q.active_q) == 4
    assert len(q.pod_backoff_q) == 0
    expect_in_flight_pods(q, med.uid)
    assert len(q.unschedulable_pods) == 1  # hpp2 never moves


def test_priority_queue_move_all_to_active_or_backoff_queue_without_queueing_hint():
    """TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithOutQueueingHint (the v1.30 default)."""
    clock = VirtualClock()
    q = new_test_queue(clock=clock,
                       queueing_hint_map={"": {ev.NODE_ADD: hints(("fooPlugin", queue_hint_return_queue))}})
    up, hpp, med = unschedulable_pod(), high_priority_pod(), med_priority_pod()
    q.add(med)
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(up, "fooPlugin"), q.scheduling_cycle) is None
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(hpp, "fooPlugin"), q.scheduling_cycle) is None
    hpp1 = clone_pod(hpp, "hpp1")
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(hpp1), q.scheduling_cycle) is None
    hpp2 = clone_pod(hpp, "hpp2")
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(hpp2, "barPlugin"), q.scheduling_cycle) is None
    q.move_all_to_active_or_backoff_queue(ev.NODE_ADD, None, None, None)
    assert len(q.active_q) == 1
    assert q.pop().pod is med
    assert len(q.pod_backoff_q) == 3
    while len(q.pod_backoff_q):
        q.pod_backoff_q.pop()

    q.scheduling_cycle += 1
    up_info, hpp_info = q.new_queued_pod_info(up, "fooPlugin"), q.new_queued_pod_info(hpp, "fooPlugin")
    hpp1_info = q.new_queued_pod_info(hpp1)
    for info in (up_info, hpp_info, hpp1_info):
        assert q.add_unschedulable_if_not_present(info, q.scheduling_cycle) is None
    q.add(med)
    for pod in (up, hpp, hpp2):
        assert q.unschedulable_pods.get(pod) is not None
    assert q.pod_backoff_q.has(hpp1_info)
    step(clock, q.pod_initial_backoff_duration)
    q.flush_backoff_q_completed()
    q.move_all_to_active_or_backoff_queue(ev.NODE_ADD, None, None, None)
    assert len(q.active_q) == 4
    assert len(q.pod_backoff_q) == 0
    assert len(q.unschedulable_pods) == 1


def test_event_nobody_registered_moves_nothing():
    """isEventOfInterest: an event no plugin registered returns before walking the pods."""
    q = new_test_queue(queueing_hint_map={"": {ev.NODE_ADD: hints(("fooPlugin", queue_hint_return_queue))}})
    pod = med_priority_pod()
    q.unschedulable_pods.add_or_update(q.new_queued_pod_info(pod))  # no plugin blamed: any event would move it
    cycle_before = q.move_request_cycle
    q.move_all_to_active_or_backoff_queue(TEST_EVENT, None, None, None)
    assert q.queue_of(pod) == UNSCHEDULABLE_PODS and q.move_request_cycle == cycle_before
    q.move_all_to_active_or_backoff_queue(ev.NODE_ADD, None, None, None)
    assert q.queue_of(pod) == BACKOFF_Q


def test_priority_queue_assigned_pod_added():
    """TestPriorityQueue_AssignedPodAdded: the pod with a matching affinity term moves; the other stays."""
    clock = VirtualClock()
    affinity_pod = make_pod().name("afp").namespace("ns1").uid("afp").annotation("annot2", "val2") \
        .priority(500).nominated_node_name("node1") \
        .pod_affinity_exists("service", "region", POD_AFFINITY_WITH_REQUIRED_REQ).obj()
    label_pod = make_pod().name("lbp").namespace("ns1").label("service", "securityscan").node("node1").obj()
    up, med = unschedulable_pod(), med_priority_pod()
    q = new_test_queue(clock=clock,
                       queueing_hint_map={"": {ev.ASSIGNED_POD_ADD: hints(("fakePlugin", queue_hint_return_queue))}})
    q.active_q.add(q.new_queued_pod_info(up))
    assert q.pop().pod is up
    q.active_q.add(q.new_queued_pod_info(affinity_pod))
    assert q.pop().pod is affinity_pod
    q.add(med)
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(up, "fakePlugin"), q.scheduling_cycle) is None
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(affinity_pod, "fakePlugin"),
                                              q.scheduling_cycle) is None
    step(clock, 1.0 + 1.0)
    q.assigned_pod_added(label_pod)
    assert q.unschedulable_pods.get(affinity_pod) is None
    assert q.active_q.has(new_queued_pod_info_for_lookup(affinity_pod))
    assert q.unschedulable_pods.get(up) is not None


def test_assigned_pod_updated_moves_pods_whose_affinity_it_now_matches():
    """AssignedPodUpdated: a bound pod relabelled to match a waiting pod's required affinity moves that pod."""
    q = new_test_queue(queueing_hint_map={"": {ev.ASSIGNED_POD_UPDATE: hints(("fakePlugin", queue_hint_return_queue))}})
    waiting = make_pod().name("afp").namespace("ns1") \
        .pod_affinity_exists("service", "region", POD_AFFINITY_WITH_REQUIRED_REQ).obj()
    q.unschedulable_pods.add_or_update(q.new_queued_pod_info(waiting, "fakePlugin"))
    old = make_pod().name("lbp").namespace("ns1").node("node1").obj()
    new = copy.deepcopy(old)
    q.assigned_pod_updated(old, new)
    assert q.queue_of(waiting) == UNSCHEDULABLE_PODS
    new.metadata.labels["service"] = "x"
    q.assigned_pod_updated(old, new)
    assert q.queue_of(waiting) == BACKOFF_Q


# --- the nominator -------------------------------------------------------------------------------


def test_priority_queue_nominated_pods_for_node():
    """TestPriorityQueue_NominatedPodsForNode: copies, in nomination order."""
    med, up, hpp = med_priority_pod(), unschedulable_pod(), high_priority_pod()
    q = new_test_queue(objs=[med, up, hpp])
    q.add(med)
    q.add(up)
    q.add(hpp)
    assert q.pop().pod is hpp
    got = q.nominated_pods_for_node("node1")
    assert [pi.pod.name for pi in got] == ["mpp", "up"]
    got[0].pod.metadata.name = "not mpp"
    assert [pi.pod.name for pi in q.nominated_pods_for_node("node1")] == ["mpp", "up"]
    assert q.nominated_pods_for_node("node2") == []


NOMINATED_DELETED_CASES = [
    ("alive pod gets added into PodNominator", med_priority_pod, False, True),
    ("deleted pod shouldn't be added into PodNominator", high_pri_nominated_pod, True, False),
    ("pod without .status.nominatedPodName specified shouldn't be added into PodNominator", high_priority_pod,
     False, False),
]


@pytest.mark.parametrize("make, delete_pod, want", [c[1:] for c in NOMINATED_DELETED_CASES],
                         ids=[c[0] for c in NOMINATED_DELETED_CASES])
def test_priority_queue_nominated_pod_deleted(make, delete_pod, want):
    """TestPriorityQueue_NominatedPodDeleted."""
    pod = make()
    q = new_test_queue(objs=[] if delete_pod else [pod])
    q.add_nominated_pod(PodInfo.of(pod), None)
    assert (len(q.nominated_pods_for_node(pod.status.nominated_node_name)) == 1) == want


def test_priority_queue_update_nominated_pod_for_node():
    """TestPriorityQueue_UpdateNominatedPodForNode."""
    med, up, hpp, sp = med_priority_pod(), unschedulable_pod(), high_priority_pod(), scheduled_pod()
    q = new_test_queue(objs=[med, up, hpp, sp])
    q.add(med)
    q.add_nominated_pod(PodInfo.of(up), NominatingInfo("node5", NominatingMode.ModeOverride))
    q.add_nominated_pod(PodInfo.of(hpp), NominatingInfo("node2", NominatingMode.ModeOverride))
    want = ({"mppns2": "node1", "hppns1": "node2", "upns1": "node5"},
            {"node1": ["mpp"], "node2": ["hpp"], "node5": ["up"]})
    assert nominator_state(q) == want
    assert q.pop().pod is med
    assert nominator_state(q) == want  # popping does not change nominations
    q.add_nominated_pod(PodInfo.of(hpp), NominatingInfo("node4", NominatingMode.ModeOverride))
    want = ({"mppns2": "node1", "hppns1": "node4", "upns1": "node5"},
            {"node1": ["mpp"], "node4": ["hpp"], "node5": ["up"]})
    assert nominator_state(q) == want
    # A pod the lister does not know, or one already bound, is not nominated.
    q.add_nominated_pod(PodInfo.of(non_existent_pod()), NominatingInfo("node1", NominatingMode.ModeOverride))
    assert nominator_state(q) == want
    unbound_copy = copy.deepcopy(sp)
    unbound_copy.spec.node_name = ""
    q.add_nominated_pod(PodInfo.of(unbound_copy), NominatingInfo("node1", NominatingMode.ModeOverride))
    assert nominator_state(q) == want
    q.delete_nominated_pod_if_exists(hpp)
    assert nominator_state(q) == ({"mppns2": "node1", "upns1": "node5"}, {"node1": ["mpp"], "node5": ["up"]})


def test_update_nominated_pod_keeps_the_in_memory_nomination():
    """updateNominatedPodUnlocked: an update naming no node keeps the node nominated in memory."""
    hpp = high_priority_pod()
    q = new_test_queue(objs=[hpp])
    q.add_nominated_pod(PodInfo.of(hpp), NominatingInfo("node7", NominatingMode.ModeOverride))
    newer = copy.deepcopy(hpp)
    newer.metadata.labels["x"] = "y"
    q.update_nominated_pod(hpp, PodInfo.of(newer))
    assert q.nominated_pod_to_node == {"hppns1": "node7"}
    assert q.nominated_pods["node7"][0].pod is newer


# --- listings ------------------------------------------------------------------------------------


def test_priority_queue_pending_pods():
    """TestPriorityQueue_PendingPods."""
    up, hpp, med = unschedulable_pod(), high_priority_pod(), med_priority_pod()
    q = new_test_queue()
    q.active_q.add(q.new_queued_pod_info(up))
    assert q.pop().pod is up
    q.active_q.add(q.new_queued_pod_info(hpp))
    assert q.pop().pod is hpp
    q.add(med)
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(up, "plugin"), q.scheduling_cycle) is None
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(hpp, "plugin"), q.scheduling_cycle) is None
    pods, summary = q.pending_pods()
    assert {p.uid for p in pods} == {med.uid, up.uid, hpp.uid}
    assert summary == PENDING_PODS_SUMMARY.format(1, 0, 2) == "activeQ:1; backoffQ:0; unschedulablePods:2"
    q.move_all_to_active_or_backoff_queue(ev.WILD_CARD_EVENT, None, None, None)
    pods, summary = q.pending_pods()
    assert {p.uid for p in pods} == {med.uid, up.uid, hpp.uid}
    assert summary == "activeQ:1; backoffQ:2; unschedulablePods:0"
    assert [(where, p.pod.name) for where, p in q.pending_pod_infos()] == \
        [(ACTIVE_Q, "mpp"), (BACKOFF_Q, "up"), (BACKOFF_Q, "hpp")]


UNSCHED_PODS = [
    make_pod().name("p0").namespace("ns1").annotation("annot1", "val1").nominated_node_name("node1").obj(),
    make_pod().name("p1").namespace("ns1").annotation("annot", "val").obj(),
    make_pod().name("p2").namespace("ns2").annotation("annot2", "val2").annotation("annot3", "val3")
    .nominated_node_name("node3").obj(),
    make_pod().name("p3").namespace("ns4").annotation("annot2", "val2").annotation("annot3", "val3")
    .nominated_node_name("node1").obj(),
]
UPDATED = {i: copy.deepcopy(UNSCHED_PODS[i]) for i in (0, 1, 3)}
UNSCHED_MAP_CASES = [
    ("create, update, delete subset of pods", [0, 1, 2, 3], [0], [0, 1], {2: 2, 3: 3}),
    ("create, update, delete all", [0, 3], [3], [0, 3], {}),
    ("delete non-existing and existing pods", [1, 2], [1], [2, 3], {1: "u1"}),
]


@pytest.mark.parametrize("to_add, to_update, to_delete, want_after_delete", [c[1:] for c in UNSCHED_MAP_CASES],
                         ids=[c[0] for c in UNSCHED_MAP_CASES])
def test_unschedulable_pods_map(to_add, to_update, to_delete, want_after_delete):
    """TestUnschedulablePodsMap."""
    upm = UnschedulablePods()
    for i in to_add:
        upm.add_or_update(new_queued_pod_info_for_lookup(UNSCHED_PODS[i]))
    assert {k: v.pod for k, v in upm.pod_info_map.items()} == \
        {get_pod_full_name(UNSCHED_PODS[i]): UNSCHED_PODS[i] for i in to_add}
    for i in to_update:
        upm.add_or_update(new_queued_pod_info_for_lookup(UPDATED[i]))
        assert upm.pod_info_map[get_pod_full_name(UNSCHED_PODS[i])].pod is UPDATED[i]
    for i in to_delete:
        upm.delete(UNSCHED_PODS[i], False)
    want = {get_pod_full_name(UNSCHED_PODS[i]): (UPDATED[i] if v == f"u{i}" else UNSCHED_PODS[i])
            for i, v in want_after_delete.items()}
    assert {k: v.pod for k, v in upm.pod_info_map.items()} == want
    upm.clear()
    assert len(upm) == 0


def test_scheduling_queue_close():
    """TestSchedulingQueue_Close: Pop on a closed, empty queue returns nothing; the flush timers stop."""
    clock = VirtualClock()
    q = new_test_queue(clock=clock)
    q.start()
    assert clock.pending() == 2
    q.close()
    assert q.pop() is None
    assert clock.pending() == 0


# --- ordering ------------------------------------------------------------------------------------


def test_recently_tried_pods_go_back():
    """TestRecentlyTriedPodsGoBack: a pod tried before goes behind pods of the same priority."""
    clock = VirtualClock()
    q = new_test_queue(clock=clock)
    for i in range(5):
        q.add(make_pod().name(f"test-pod-{i}").namespace("ns1").uid(f"tp00{i}").priority(HIGH_PRIORITY)
              .node("node1").nominated_node_name("node1").obj())
    step(clock, 1e-6)
    p1 = q.pop()
    mark_unschedulable(p1.pod)
    p1.unschedulable_plugins = {"plugin"}
    assert q.add_unschedulable_if_not_present(p1, q.scheduling_cycle) is None
    step(clock, 1.0)
    q.move_all_to_active_or_backoff_queue(ev.UNSCHEDULABLE_TIMEOUT, None, None, None)
    for i in range(5):
        assert (i == 4) == (q.pop() is p1)


def test_pod_failed_scheduling_multiple_times_does_not_block_newer_pod():
    """TestPodFailedSchedulingMultipleTimesDoesNotBlockNewerPod."""
    clock = VirtualClock()
    q = new_test_queue(clock=clock)
    pod = make_pod().name("test-pod-unscheduled").namespace("ns1").uid("tp001").priority(HIGH_PRIORITY) \
        .nominated_node_name("node1").obj()
    mark_unschedulable(pod)
    q.active_q.add(q.new_queued_pod_info(pod))
    assert q.pop().pod is pod
    assert q.add_unschedulable_if_not_present(new_queued_pod_info_for_lookup(pod, "plugin"),
                                              q.scheduling_cycle) is None
    step(clock, 2.0)
    q.move_all_to_active_or_backoff_queue(ev.UNSCHEDULABLE_TIMEOUT, None, None, None)
    assert q.pop().pod is pod
    newer = make_pod().name("test-newer-pod").namespace("ns1").uid("tp002").priority(HIGH_PRIORITY) \
        .nominated_node_name("node1").obj()
    q.add(newer)
    assert q.add_unschedulable_if_not_present(new_queued_pod_info_for_lookup(pod, "plugin"),
                                              q.scheduling_cycle) is None
    step(clock, 2.0)
    q.move_all_to_active_or_backoff_queue(ev.UNSCHEDULABLE_TIMEOUT, None, None, None)
    # Same priority and (on this clock) the same timestamp: the newer pod's was taken first.
    assert q.pop().pod is newer


def test_high_priority_backoff():
    """TestHighPriorityBackoff: an unschedulable high-priority pod does not block the others."""
    q = new_test_queue()
    mid = make_pod().name("test-midpod").namespace("ns1").uid("tp-mid").priority(MID_PRIORITY) \
        .nominated_node_name("node1").obj()
    high = make_pod().name("test-highpod").namespace("ns1").uid("tp-high").priority(HIGH_PRIORITY) \
        .nominated_node_name("node1").obj()
    q.add(mid)
    q.add(high)
    p = q.pop()
    assert p.pod is high
    mark_unschedulable(p.pod)
    assert q.add_unschedulable_if_not_present(p, q.scheduling_cycle) is None
    q.move_all_to_active_or_backoff_queue(TEST_EVENT, None, None, None)
    assert q.pop().pod is mid


def test_high_priority_flush_unschedulable_pods_leftover():
    """TestHighPriorityFlushUnschedulablePodsLeftover: after 5 minutes the flush moves pods to activeQ."""
    clock = VirtualClock()
    q = new_test_queue(clock=clock,
                       queueing_hint_map={"": {ev.NODE_ADD: hints(("fakePlugin", queue_hint_return_queue))}})
    mid = make_pod().name("test-midpod").namespace("ns1").uid("tp-mid").priority(MID_PRIORITY) \
        .nominated_node_name("node1").obj()
    high = make_pod().name("test-highpod").namespace("ns1").uid("tp-high").priority(HIGH_PRIORITY) \
        .nominated_node_name("node1").obj()
    mark_unschedulable(high)
    mark_unschedulable(mid)
    q.active_q.add(q.new_queued_pod_info(high))
    assert q.pop().pod is high
    q.active_q.add(q.new_queued_pod_info(mid))
    assert q.pop().pod is mid
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(high, "fakePlugin"), q.scheduling_cycle) is None
    assert q.add_unschedulable_if_not_present(q.new_queued_pod_info(mid, "fakePlugin"), q.scheduling_cycle) is None
    step(clock, 300 + 1)
    q.flush_unschedulable_pods_leftover()
    assert q.pop().pod is high
    assert q.pop().pod is mid


@pytest.mark.parametrize("max_in_unschedulable", [None, 30.0], ids=[
    "New priority queue by the default value of podMaxInUnschedulablePodsDuration",
    "New priority queue by user-defined value of podMaxInUnschedulablePodsDuration"])
def test_priority_queue_init_pod_max_in_unschedulable_pods_duration(max_in_unschedulable):
    """TestPriorityQueue_initPodMaxInUnschedulablePodsDuration."""
    clock = VirtualClock(1000.0)
    opts = {} if max_in_unschedulable is None else {"pod_max_in_unschedulable_pods_seconds": max_in_unschedulable}
    q = new_test_queue(clock=clock, **opts)
    p1 = QueuedPodInfo(PodInfo.of(make_pod().name("test-pod-1").namespace("ns1").uid("tp-1")
                                  .nominated_node_name("node1").obj()), timestamp=999.0)
    p2 = QueuedPodInfo(PodInfo.of(make_pod().name("test-pod-2").namespace("ns2").uid("tp-2")
                                  .nominated_node_name("node2").obj()), timestamp=998.0)
    q.unschedulable_pods.add_or_update(p1)
    q.unschedulable_pods.add_or_update(p2)
    step(clock, q.pod_max_in_unschedulable_pods_duration)
    q.flush_unschedulable_pods_leftover()
    assert [q.active_q.pop() for _ in range(len(q.active_q))] == [p2, p1]


# --- upstream's operation tables -----------------------------------------------------------------

Op = Callable[[PriorityQueue, Optional[QueuedPodInfo]], None]


def op_add(q, pinfo):
    q.add(pinfo.pod)


def op_pop_and_requeue_as_unschedulable(q, pinfo):
    plugins = set(pinfo.unschedulable_plugins)
    q.active_q.add(q.new_queued_pod_info(pinfo.pod))
    p = q.pop()
    assert p.pod is pinfo.pod
    p.unschedulable_plugins = plugins
    assert q.add_unschedulable_if_not_present(p, 1) is None


def op_pop_and_requeue_as_backoff(q, pinfo):
    q.active_q.add(q.new_queued_pod_info(pinfo.pod))
    p = q.pop()
    assert p.pod is pinfo.pod
    assert q.add_unschedulable_if_not_present(p, 1) is None


def op_add_pod_active_q(q, pinfo):
    q.active_q.add(pinfo)


def op_update_pod_active_q(q, pinfo):
    q.active_q.update(pinfo)


def op_add_pod_unschedulable_pods(q, pinfo):
    if not pinfo.gated:
        mark_unschedulable(pinfo.pod)
    q.unschedulable_pods.add_or_update(pinfo)


def op_delete_pod(q, pinfo):
    q.delete(pinfo.pod)


def op_update_pod_queueable(q, pinfo):
    new_pod = copy.deepcopy(pinfo.pod)
    new_pod.metadata.labels = {"queueable": ""}
    q.update(pinfo.pod, new_pod)


def op_add_pod_backoff_q(q, pinfo):
    q.pod_backoff_q.add(pinfo)


def op_move_all_to_active_or_backoff_q(q, _):
    q.move_all_to_active_or_backoff_queue(ev.UNSCHEDULABLE_TIMEOUT, None, None, None)


def op_flush_backoff_q(q, _):
    step(q.clock, 2.0)
    q.flush_backoff_q_completed()


def op_move_clock_forward(q, _):
    step(q.clock, 2.0)


def _timestamp_pods(t: float) -> tuple[QueuedPodInfo, QueuedPodInfo]:
    p1 = QueuedPodInfo(PodInfo.of(make_pod().name("test-pod-1").namespace("ns1").uid("tp-1")
                                  .nominated_node_name("node1").obj()), timestamp=t)
    p2 = QueuedPodInfo(PodInfo.of(make_pod().name("test-pod-2").namespace("ns2").uid("tp-2")
                                  .nominated_node_name("node2").obj()), timestamp=t + 1)
    return p1, p2


POD_TIMESTAMP_CASES = [
    ("add two pod to activeQ and sort them by the timestamp", [op_add_pod_active_q, op_add_pod_active_q]),
    ("update two pod to activeQ and sort them by the timestamp", [op_update_pod_active_q, op_update_pod_active_q]),
    ("add two pod to unschedulablePods then move them to activeQ and sort them by the timestamp",
     [op_add_pod_unschedulable_pods, op_add_pod_unschedulable_pods, op_move_clock_forward,
      op_move_all_to_active_or_backoff_q]),
    ("add one pod to BackoffQ and move it to activeQ",
     [op_add_pod_active_q, op_add_pod_backoff_q, op_flush_backoff_q, op_move_all_to_active_or_backoff_q]),
]


@pytest.mark.parametrize("operations", [c[1] for c in POD_TIMESTAMP_CASES], ids=[c[0] for c in POD_TIMESTAMP_CASES])
def test_pod_timestamp(operations):
    """TestPodTimestamp: activeQ orders pods of equal priority by their queue timestamp."""
    clock = VirtualClock(100.0)
    q = new_test_queue(clock=clock)
    p1, p2 = _timestamp_pods(clock.now)
    operands = [p2, p1, None, None]
    for op, pinfo in zip(operations, operands):
        op(q, pinfo)
    assert len(q.active_q) == 2
    assert [q.active_q.pop() for _ in range(2)] == [p1, p2]


def _make_queued_pod_infos(num: int, prefix: str, label: str, timestamp: float) -> list[QueuedPodInfo]:
    return [QueuedPodInfo(PodInfo.of(make_pod().name(f"{prefix}-{i}").namespace(f"ns{i}").label(label, "")
                                     .uid(f"tp-{i}").obj()), timestamp=timestamp) for i in range(1, num + 1)]


def _pending_pods_operands(timestamp: float) -> tuple[list[QueuedPodInfo], list[QueuedPodInfo]]:
    pinfos = _make_queued_pod_infos(50, "x", "queueable", timestamp)
    gated = _make_queued_pod_infos(10, "y", "failme", timestamp)
    for p in gated:
        p.gated = True
    return pinfos + gated, _make_queued_pod_infos(20, "z", "queueable", timestamp + 2)


PENDING_METRIC_CASES = [
    ("add pods to activeQ and unschedulablePods",
     [(op_add_pod_active_q, "p", 0, 30), (op_add_pod_unschedulable_pods, "p", 30, 60)], (30, 0, 20, 10)),
    ("add pods to all kinds of queues",
     [(op_add_pod_active_q, "p", 0, 15), (op_add_pod_backoff_q, "p", 15, 40),
      (op_add_pod_unschedulable_pods, "p", 40, 60)], (15, 25, 10, 10)),
    ("add pods to unschedulablePods and then move all to activeQ",
     [(op_add_pod_unschedulable_pods, "p", 0, 60), (op_move_clock_forward, None, 0, 1),
      (op_move_all_to_active_or_backoff_q, None, 0, 1)], (50, 0, 0, 10)),
    ("make some pods subject to backoff, add pods to unschedulablePods, and then move all to activeQ",
     [(op_add_pod_unschedulable_pods, "p", 20, 60), (op_move_clock_forward, None, 0, 1),
      (op_add_pod_unschedulable_pods, "d", 0, 20), (op_move_all_to_active_or_backoff_q, None, 0, 1)],
     (30, 20, 0, 10)),
    ("make some pods subject to backoff, add pods to unschedulablePods/activeQ, move all to activeQ, and finally "
     "flush backoffQ",
     [(op_add_pod_unschedulable_pods, "p", 0, 40), (op_add_pod_active_q, "p", 40, 50),
      (op_move_all_to_active_or_backoff_q, None, 0, 1), (op_flush_backoff_q, None, 0, 1)], (50, 0, 0, 0)),
    ("add pods to activeQ/unschedulablePods and then delete some Pods",
     [(op_add_pod_active_q, "p", 0, 30), (op_add_pod_unschedulable_pods, "p", 30, 60),
      (op_delete_pod, "p", 0, 2), (op_delete_pod, "p", 30, 33), (op_delete_pod, "p", 50, 54)], (28, 0, 17, 6)),
    ("add pods to activeQ/unschedulablePods and then update some Pods as queueable",
     [(op_add_pod_active_q, "p", 0, 30), (op_add_pod_unschedulable_pods, "p", 30, 60),
      (op_update_pod_queueable, "p", 50, 55)], (35, 0, 20, 5)),
]


@pytest.mark.parametrize("operations, want", [c[1:] for c in PENDING_METRIC_CASES],
                         ids=[c[0] for c in PENDING_METRIC_CASES])
def test_pending_pods_metric(operations, want):
    """TestPendingPodsMetric: the pending-pods gauges (active, backoff, unschedulable, gated)."""
    clock = VirtualClock(100.0)
    q = new_test_queue(clock=clock, pre_enqueue_plugins={"": [PreEnqueuePlugin(["queueable"])]})
    pinfos, delayed = _pending_pods_operands(clock.now)
    for op, which, lo, hi in operations:
        operands = {"p": pinfos, "d": delayed, None: [None]}[which]
        for pinfo in operands[lo:hi] if which else operands:
            op(q, pinfo)
    g = q.pending_pods_gauges()
    assert (g["active"], g["backoff"], g["unschedulable"], g["gated"]) == want


def _scenario_one_attempt(q, clock, pod):
    q.add(pod)


def _scenario_two_attempts(q, clock, pod):
    q.add(pod)
    pinfo = q.pop()
    pinfo.unschedulable_plugins = {"plugin"}
    q.add_unschedulable_if_not_present(pinfo, 1)
    clock.advance_to(clock.now + 300 + 1e-9)
    q.flush_unschedulable_pods_leftover()


def _scenario_two_attempts_and_update(q, clock, pod):
    _scenario_two_attempts(q, clock, pod)
    new_pod = copy.deepcopy(pod)
    new_pod.metadata.resource_version = "1"
    q.update(pod, new_pod)


def _scenario_gated_then_lifted(q, clock, pod):
    q.pre_enqueue_plugin_map = {"": [PreEnqueuePlugin(["foo"])]}
    q.add(pod)
    assert q.unschedulable_pods.get(pod).pod is pod
    step(clock, 60)
    lifted = copy.deepcopy(pod)
    lifted.metadata.labels = {"foo": ""}
    q.update(pod, lifted)


PER_POD_CASES = [
    ("pod is created and scheduled after 1 attempt", _scenario_one_attempt, 1, 0.0),
    ("pod is created and scheduled after 2 attempts", _scenario_two_attempts, 2, 0.0),
    ("pod is created and scheduled after 2 attempts but before the second pop, call update",
     _scenario_two_attempts_and_update, 2, 0.0),
    ("A gated pod is created and scheduled after lifting gate", _scenario_gated_then_lifted, 1, 60.0),
]


@pytest.mark.parametrize("scenario, want_attempts, want_initial", [c[1:] for c in PER_POD_CASES],
                         ids=[c[0] for c in PER_POD_CASES])
def test_per_pod_scheduling_metrics(scenario, want_attempts, want_initial):
    """TestPerPodSchedulingMetrics: attempts count; the initial attempt time is the first enqueue to activeQ."""
    clock = VirtualClock()
    q = new_test_queue(clock=clock)
    pod = make_pod().name("test-pod").namespace("test-ns").uid("test-uid").obj()
    scenario(q, clock, pod)
    pinfo = q.pop()
    assert pinfo.attempts == want_attempts
    assert pinfo.initial_attempt_timestamp == want_initial


INCOMING_CASES = [
    ("add pods to activeQ", [op_add], {(ACTIVE_Q, ev.POD_ADD): 3}),
    ("add pods to unschedulablePods", [op_pop_and_requeue_as_unschedulable],
     {(UNSCHEDULABLE_PODS, ev.SCHEDULE_ATTEMPT_FAILURE): 3}),
    ("add pods to unschedulablePods and then move all to backoffQ",
     [op_pop_and_requeue_as_unschedulable, op_move_all_to_active_or_backoff_q],
     {(UNSCHEDULABLE_PODS, ev.SCHEDULE_ATTEMPT_FAILURE): 3, (BACKOFF_Q, "UnschedulableTimeout"): 3}),
    ("add pods to unschedulablePods and then move all to activeQ",
     [op_pop_and_requeue_as_unschedulable, op_move_clock_forward, op_move_all_to_active_or_backoff_q],
     {(UNSCHEDULABLE_PODS, ev.SCHEDULE_ATTEMPT_FAILURE): 3, (ACTIVE_Q, "UnschedulableTimeout"): 3}),
    ("make some pods subject to backoff and add them to backoffQ, then flush backoffQ",
     [op_pop_and_requeue_as_backoff, op_move_clock_forward, op_flush_backoff_q],
     {(ACTIVE_Q, ev.BACKOFF_COMPLETE): 3, (BACKOFF_Q, ev.SCHEDULE_ATTEMPT_FAILURE): 3}),
]


@pytest.mark.parametrize("operations, want", [c[1:] for c in INCOMING_CASES], ids=[c[0] for c in INCOMING_CASES])
def test_incoming_pods_metrics(operations, want):
    """TestIncomingPodsMetrics, read from the trace: (queue, event) of every move into a queue."""
    rec = Recorder()
    q = new_test_queue(clock=VirtualClock(100.0), recorder=rec)
    pinfos = [QueuedPodInfo(PodInfo.of(make_pod().name(f"test-pod-{i}").namespace(f"ns{i}").uid(f"tp-{i}").obj()),
                            timestamp=100.0, unschedulable_plugins={"unschedulable_plugin"}) for i in range(1, 4)]
    for op in operations:
        for pinfo in pinfos:
            op(q, pinfo)
    got: dict[tuple[str, str], int] = {}
    for e in rec.of(QueueEvent):
        if e.action != "pop":
            got[(e.queue, e.event)] = got.get((e.queue, e.event), 0) + 1
    assert got == want


def test_back_off_flow():
    """TestBackOffFlow: backoff doubles per attempt from 1 s up to 10 s."""
    clock = VirtualClock()
    q = new_test_queue(clock=clock)
    pod = make_pod().name("test-pod").namespace("test-ns").uid("test-uid").obj()
    q.add(pod)
    for i, want_backoff in enumerate([1, 2, 4, 8, 10, 10, 10]):
        timestamp = clock.now
        pinfo = q.pop()
        assert pinfo.attempts == i + 1
        assert q.add_unschedulable_if_not_present(pinfo, i) is None
        q.move_all_to_active_or_backoff_queue(ev.UNSCHEDULABLE_TIMEOUT, None, None, None)
        assert q.pod_backoff_q.has(pinfo)
        backoff = q.get_backoff_time(pinfo) - timestamp
        assert backoff == want_backoff
        step(clock, 0.001)
        q.flush_backoff_q_completed()
        assert q.pod_backoff_q.has(pinfo)  # still backing off after an early flush
        step(clock, backoff)
        q.flush_backoff_q_completed()
        assert not q.pod_backoff_q.has(pinfo)


PRE_CHECK_CASES = [
    ("nil PreEnqueueCheck", None, ["p0", "p1", "p2", "p3", "p4"]),
    ("move Pods with priority greater than 2", lambda pod: pod.spec.priority >= 2, ["p2", "p3", "p4"]),
    ("move Pods with even priority and greater than 2",
     lambda pod: pod.spec.priority % 2 == 0 and pod.spec.priority >= 2, ["p2", "p4"]),
    ("move Pods with even and negative priority", lambda pod: pod.spec.priority % 2 == 0 and pod.spec.priority < 0,
     []),
]


@pytest.mark.parametrize("pre_check, want", [c[1:] for c in PRE_CHECK_CASES], ids=[c[0] for c in PRE_CHECK_CASES])
def test_move_all_to_active_or_backoff_queue_pre_enqueue_checks(pre_check, want):
    """TestMoveAllToActiveOrBackoffQueue_PreEnqueueChecks."""
    clock = VirtualClock(100.0)
    q = new_test_queue(clock=clock)
    infos = [new_queued_pod_info_for_lookup(make_pod().name(f"p{i}").priority(i).obj()) for i in range(5)]
    for i, info in enumerate(infos):
        q.active_q.add(q.new_queued_pod_info(info.pod))
        assert q.pop().pod is info.pod
        info.unschedulable_plugins = {"plugin"}
        assert q.add_unschedulable_if_not_present(info, q.scheduling_cycle) is None
        info.timestamp += (i - len(infos)) * 0.001
    q.move_all_to_active_or_backoff_queue(ev.WILD_CARD_EVENT, None, None, pre_check)
    got = [q.pod_backoff_q.pop().pod.name for _ in range(len(q.pod_backoff_q))]
    assert got == want


BACKOFF_DURATION_CASES = [
    ("normal", 1, 32, 16, 32),
    ("overflow_32bit", 1, 2**31 - 1, 32, 2**31 - 1),
    ("overflow_64bit", 1, 2**63 - 1, 64, 2**63 - 1),
]


@pytest.mark.parametrize("initial, maximum, attempts, want", [c[1:] for c in BACKOFF_DURATION_CASES],
                         ids=[c[0] for c in BACKOFF_DURATION_CASES])
def test_priority_queue_calculate_backoff_duration(initial, maximum, attempts, want):
    """TestPriorityQueue_calculateBackoffDuration."""
    q = new_test_queue(pod_initial_backoff_seconds=initial, pod_max_backoff_seconds=maximum)
    assert q.calculate_backoff_duration(QueuedPodInfo(PodInfo(make_pod().obj()), attempts=attempts)) == want


# --- isPodWorthRequeuing --------------------------------------------------------------------------


class Counting:
    def __init__(self) -> None:
        self.count = 0

    def queue(self, pod, old, new):
        self.count += 1
        return QueueingHint.Queue

    def skip(self, pod, old, new):
        self.count += 1
        return QueueingHint.QueueSkip

    def err(self, pod, old, new):
        self.count += 1
        raise RuntimeError("unexpected error")


def _pinfo(unschedulable: tuple[str, ...], pending: tuple[str, ...] = ()) -> QueuedPodInfo:
    return QueuedPodInfo(PodInfo.of(make_pod().name("pod1").namespace("ns1").uid("1").obj()),
                         unschedulable_plugins=set(unschedulable), pending_plugins=set(pending))


NODE_LABEL = ClusterEvent(NODE, ActionType.UpdateNodeLabel)
WORTH_REQUEUING_CASES = [
    ("return Queue when no queueing hint function is registered for the event",
     _pinfo(("fooPlugin1",)), ev.NODE_ADD, QUEUE_SKIP, 0,
     lambda c: {"": {ev.ASSIGNED_POD_ADD: hints(("fooPlugin1", c.queue))}}),
    ("Treat the event as Queue when QueueHintFn returns error",
     _pinfo(("fooPlugin1",)), ev.NODE_ADD, QUEUE_AFTER_BACKOFF, 1,
     lambda c: {"": {ev.NODE_ADD: hints(("fooPlugin1", c.err))}}),
    ("return Queue when the event is wildcard", _pinfo(("fooPlugin1",)), ev.WILD_CARD_EVENT, QUEUE_AFTER_BACKOFF, 0,
     lambda c: {}),
    ("interprets Queue from the Pending plugin as queueImmediately",
     _pinfo(("fooPlugin1", "fooPlugin3"), ("fooPlugin2",)), ev.NODE_ADD, QUEUE_IMMEDIATELY, 2,
     lambda c: {"": {ev.NODE_ADD: hints(("fooPlugin1", c.queue), ("fooPlugin2", c.queue), ("fooPlugin3", c.queue),
                                        ("fooPlugin4", c.err))}}),
    ("interprets Queue from the Unschedulable plugin as queueAfterBackoff",
     _pinfo(("fooPlugin1", "fooPlugin2")), ev.NODE_ADD, QUEUE_AFTER_BACKOFF, 2,
     lambda c: {"": {ev.NODE_ADD: hints(("fooPlugin1", c.skip), ("fooPlugin2", c.queue))}}),
    ("Queueing hint function that isn't from the plugin in UnschedulablePlugins/PendingPlugins is ignored",
     _pinfo(("fooPlugin1", "fooPlugin2")), ev.NODE_ADD, QUEUE_SKIP, 2,
     lambda c: {"": {ev.NODE_ADD: hints(("fooPlugin1", c.skip), ("fooPlugin2", c.skip), ("fooPlugin3", c.queue))}}),
    ("If event is specific Node update event, queueing hint function for NodeUpdate/UpdateNodeLabel is also executed",
     _pinfo(("fooPlugin1", "fooPlugin2")), NODE_LABEL, QUEUE_AFTER_BACKOFF, 1,
     lambda c: {"": {NODE_LABEL: hints(("fooPlugin1", c.queue), ("fooPlugin2", c.queue)),
                     ClusterEvent(NODE, ActionType.Update): hints(("fooPlugin1", c.queue)),
                     ev.NODE_ADD: hints(("fooPlugin1", c.queue))}}),
    ("If event with '*' Resource, queueing hint function for specified Resource is also executed",
     _pinfo(("fooPlugin1",)), ClusterEvent(NODE, ActionType.Add), QUEUE_AFTER_BACKOFF, 1,
     lambda c: {"": {ClusterEvent("*", ActionType.Add): hints(("fooPlugin1", c.queue))}}),
    ("If event is a wildcard one, queueing hint function for all kinds of events is executed",
     _pinfo(("fooPlugin1",)), ClusterEvent(NODE, ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint),
     QUEUE_AFTER_BACKOFF, 1, lambda c: {"": {ClusterEvent("*", ActionType.All): hints(("fooPlugin1", c.queue))}}),
]


@pytest.mark.parametrize("pinfo, event, expected, expected_count, hint_map", [c[1:] for c in WORTH_REQUEUING_CASES],
                         ids=[c[0] for c in WORTH_REQUEUING_CASES])
def test_is_pod_worth_requeuing(pinfo, event, expected, expected_count, hint_map):
    """Test_isPodWorthRequeuing: the strategy, and how many hint functions ran."""
    counting = Counting()
    q = new_test_queue(queueing_hint_map=hint_map(counting))
    assert q.is_pod_worth_requeuing(pinfo, event, None, make_pod().obj()) == expected
    assert counting.count == expected_count


# --- Run on the virtual clock and the trace ---------------------------------------------------------


def test_start_flushes_backoff_q_every_second_and_unschedulable_pods_every_30s():
    """Run: flushBackoffQCompleted each second, flushUnschedulablePodsLeftover each 30 s, on the clock."""
    clock = VirtualClock()
    q = new_test_queue(clock=clock)
    q.start()
    backing_off = make_pod().name("b").namespace("ns").uid("b").obj()
    waiting = make_pod().name("w").namespace("ns").uid("w").obj()
    q.add(backing_off)
    q.add(waiting)
    a, b = q.pop(), q.pop()
    assert q.add_unschedulable_if_not_present(a, q.scheduling_cycle) is None  # no plugin: backoffQ
    b.unschedulable_plugins = {"SomePlugin"}
    assert q.add_unschedulable_if_not_present(b, q.scheduling_cycle) is None  # unschedulablePods
    clock.advance_to(0.5)
    assert q.queue_of(backing_off) == BACKOFF_Q
    clock.advance_to(1.0)  # the tick at 1 s sees the backoff (1 s from t=0) over
    assert q.queue_of(backing_off) == ACTIVE_Q
    clock.advance_to(300.0)
    assert q.queue_of(waiting) == UNSCHEDULABLE_PODS  # 300 s is not more than 5 minutes
    clock.advance_to(330.0)  # the 30-second tick after five minutes
    assert q.queue_of(waiting) == ACTIVE_Q
    q.close()


def test_ties_pop_in_the_order_timestamps_were_last_taken():
    """Pods the less function ties (same priority, same virtual instant) pop in the order their
    timestamps were taken, and a pod put back after its attempt counts from its new timestamp."""
    clock = VirtualClock()
    q = new_test_queue(clock=clock)
    a, b, c = (make_pod().name(n).namespace("ns").uid(n).obj() for n in "abc")
    q.add(a)
    q.add(b)
    popped = q.pop()
    assert popped.pod is a
    assert q.add_unschedulable_if_not_present(popped, q.scheduling_cycle) is None  # no plugin: backoffQ
    q.add(c)
    step(clock, 1.0)
    q.flush_backoff_q_completed()  # a's backoff (1 s from t=0) is over: activeQ after b and c
    assert [q.pop().pod.name for _ in range(3)] == ["b", "a", "c"]
    assert q.pop() is None


def test_recorder_traces_every_move():
    """Each move is one QueueEvent with the clock time, the pod, the action, the queue and the event."""
    rec = Recorder()
    clock = VirtualClock()
    q = new_test_queue(clock=clock, recorder=rec,
                       queueing_hint_map={"": {ev.NODE_ADD: hints(("NodeResourcesFit", queue_hint_return_queue))}})
    pod = make_pod().name("p").namespace("default").uid("p").obj()
    q.add(pod)
    p = q.pop()
    p.unschedulable_plugins = {"NodeResourcesFit"}
    q.add_unschedulable_if_not_present(p, q.scheduling_cycle)
    step(clock, 5)
    q.move_all_to_active_or_backoff_queue(ev.NODE_ADD, None, None, None)
    q.delete(pod)
    assert [str(e) for e in rec.of(QueueEvent)] == [
        "[t=0s] queue add default/p -> Active on PodAdd",
        f"[t=0s] queue pop default/p -> {IN_FLIGHT}",
        "[t=0s] queue requeue default/p -> Unschedulable on ScheduleAttemptFailure",
        "[t=5s] queue move default/p -> Active on NodeAdd",
        "[t=5s] queue delete default/p -> ",
    ]


def test_null_recorder_records_nothing():
    q = new_test_queue()
    q.add(make_pod().name("p").obj())
    assert q.recorder.enabled is False


# --- building the hint map (upstream scheduler.go buildQueueingHintMap) -------------------------------


class FakeExtension:
    def __init__(self, name: str, events: list) -> None:
        self._name = name
        self._events = events

    def name(self) -> str:
        return self._name

    def events_to_register(self) -> list:
        return self._events


class FakeFramework:
    def __init__(self, profile_name: str, extensions: list) -> None:
        self.profile_name = profile_name
        self.enqueue_extensions = extensions


def _extensions():
    from ksched_edu.framework.types import ClusterEventWithHint
    node_add = ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add), queue_hint_return_skip)
    pod_delete = ClusterEventWithHint(ClusterEvent("Pod", ActionType.Delete))
    node_add_and_taint = ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.UpdateNodeTaint),
                                              queue_hint_return_skip)
    return [FakeExtension("NodeAddOnly", [node_add, pod_delete]),
            FakeExtension("NodeAddAndTaint", [node_add_and_taint]),
            FakeExtension("NoEvents", [])]


@pytest.mark.parametrize("hints_enabled", [False, True], ids=["gate off: every hint is Queue", "gate on"])
def test_build_queueing_hint_map(hints_enabled):
    """buildQueueingHintMap: events by plugin, the UpdateNodeTaint stopgap, the default hint when the gate is off."""
    from ksched_edu.internal.queue.scheduling_queue import build_queueing_hint_map, default_queueing_hint_fn
    m = build_queueing_hint_map({"default-scheduler": FakeFramework("default-scheduler", _extensions())},
                                hints_enabled)
    assert list(m) == ["default-scheduler"]
    hm = m["default-scheduler"]
    node_add = ClusterEvent(NODE, ActionType.Add)
    taint = ClusterEvent(NODE, ActionType.UpdateNodeTaint)
    assert [(h.plugin_name, h.queueing_hint_fn) for h in hm[node_add]] == \
        [("NodeAddOnly", queue_hint_return_skip if hints_enabled else default_queueing_hint_fn)]
    # A plugin interested in NodeAdd but not in taint changes also hears UpdateNodeTaint, with the default hint.
    assert [(h.plugin_name, h.queueing_hint_fn) for h in hm[taint]] == [("NodeAddOnly", default_queueing_hint_fn)]
    # An event registered without a hint function gets the default one.
    assert hm[ClusterEvent("Pod", ActionType.Delete)][0].queueing_hint_fn is default_queueing_hint_fn
    assert [h.plugin_name for h in hm[ClusterEvent(NODE, ActionType.Add | ActionType.UpdateNodeTaint)]] == \
        ["NodeAddAndTaint"]
    assert all(h.plugin_name != "NoEvents" for hs in hm.values() for h in hs)
    # A list of frameworks is keyed by their profile names.
    assert list(build_queueing_hint_map([FakeFramework("a", []), FakeFramework("b", [])])) == ["a", "b"]


def test_hints_off_default_hints_move_pods_whose_plugins_registered_the_event():
    """With the gate off (v1.30 default) a pod moves on any event its rejecting plugins registered."""
    from ksched_edu.internal.queue.scheduling_queue import build_queueing_hint_map
    hint_map = build_queueing_hint_map([FakeFramework("", _extensions())])
    q = new_test_queue(queueing_hint_map=hint_map)
    blocked_by_add_only = make_pod().name("a").namespace("ns").obj()
    blocked_by_no_events = make_pod().name("b").namespace("ns").obj()
    q.unschedulable_pods.add_or_update(q.new_queued_pod_info(blocked_by_add_only, "NodeAddOnly"))
    q.unschedulable_pods.add_or_update(q.new_queued_pod_info(blocked_by_no_events, "NoEvents"))
    q.move_all_to_active_or_backoff_queue(ev.NODE_TAINT_CHANGE, None, None, None)
    assert q.queue_of(blocked_by_add_only) == BACKOFF_Q  # the skip hint was replaced by Queue
    assert q.queue_of(blocked_by_no_events) == UNSCHEDULABLE_PODS
