"""Property tests of the scheduling queue: no pod is ever lost or duplicated.

Random sequences of the calls the scheduler and the event handlers make (add,
pop, a failed attempt, done, update, delete, activate, cluster events, the
clock running the flushes) must keep every pending pod in exactly one of
activeQ, podBackoffQ and unschedulablePods, and every popped pod in none.
"""
from __future__ import annotations

import copy
from typing import Any, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_edu.api.types import Pod
from ksched_edu.framework.interface import Code, Status, new_status
from ksched_edu.framework.types import QueuedPodInfo, QueueingHint
from ksched_edu.internal.queue import events as ev
from ksched_edu.internal.queue.scheduling_queue import PriorityQueue, pod_info_key_func
from ksched_edu.sim.clock import VirtualClock
from tests.builders import POD_AFFINITY_WITH_REQUIRED_REQ, make_pod

from .fixtures import hints, new_test_queue
from .test_heap import check_invariant

pytestmark = pytest.mark.ch02

N_PODS = 6
PLUGINS = ["fooPlugin", "barPlugin", "preEnqueueHold"]


class HoldPlugin:
    """Refuses pods labelled ``hold`` at PreEnqueue."""

    def name(self) -> str:
        return "preEnqueueHold"

    def pre_enqueue(self, pod: Pod) -> Optional[Status]:
        if "hold" in pod.metadata.labels:
            return new_status(Code.UnschedulableAndUnresolvable, "held")
        return None


def even_pods_only(pod: Pod, old: Any, new: Any) -> QueueingHint:
    return QueueingHint.Queue if int(pod.metadata.name[1:]) % 2 == 0 else QueueingHint.QueueSkip


HINT_MAP = {"": {ev.NODE_ADD: hints(("fooPlugin", even_pods_only)),
                 ev.ASSIGNED_POD_ADD: hints(("barPlugin", lambda pod, old, new: QueueingHint.Queue))}}
EVENTS = [ev.NODE_ADD, ev.ASSIGNED_POD_ADD, ev.NODE_LABEL_CHANGE, ev.WILD_CARD_EVENT, ev.UNSCHEDULABLE_TIMEOUT]


def make_pods(priorities: list[int]) -> list[Pod]:
    pods = []
    for i in range(N_PODS):
        w = make_pod().name(f"p{i}").namespace("ns").uid(f"uid{i}").priority(priorities[i])
        if i % 3 == 0:
            w = w.pod_affinity_exists("app", "zone", POD_AFFINITY_WITH_REQUIRED_REQ)
        if i >= 4:
            w = w.label("hold", "")
        pods.append(w.obj())
    return pods


idx = st.integers(0, N_PODS - 1)
plugin_sets = st.sets(st.sampled_from(PLUGINS), max_size=2)
ops = st.one_of(
    st.tuples(st.just("add"), idx),
    st.tuples(st.just("pop")),
    st.tuples(st.just("fail"), idx, plugin_sets, plugin_sets),
    st.tuples(st.just("add"), idx),
    st.tuples(st.just("pop")),
    st.tuples(st.just("fail"), idx, plugin_sets, plugin_sets),
    st.tuples(st.just("done"), idx),
    st.tuples(st.just("update"), idx),
    st.tuples(st.just("delete"), idx),
    st.tuples(st.just("activate"), idx),
    st.tuples(st.just("event"), st.integers(0, len(EVENTS) - 1)),
    st.tuples(st.just("assigned"), idx),
    st.tuples(st.just("advance"), st.sampled_from([0.0, 0.5, 1.0, 3.0, 11.0, 31.0, 301.0])),
)


def check(q: PriorityQueue, state: dict[int, str], current: list[Pod]) -> None:
    active = {pod_info_key_func(p) for p in q.active_q.list()}
    backoff = {pod_info_key_func(p) for p in q.pod_backoff_q.list()}
    unsched = {pod_info_key_func(p) for p in q.unschedulable_pods.pod_info_map.values()}
    assert len(active) + len(backoff) + len(unsched) == len(active | backoff | unsched), "a pod is in two queues"
    queued = {current[i].key for i, s in state.items() if s == "queued"}
    assert active | backoff | unsched == queued, "a pod was lost or appeared"
    for pinfo in q.active_q.list() + q.pod_backoff_q.list():
        assert not pinfo.gated, "a gated pod outside unschedulablePods"
    check_invariant(q.active_q)
    check_invariant(q.pod_backoff_q)
    u = q.unschedulable_pods
    assert u.unschedulable_gauge + u.gated_gauge == len(u)
    in_flight = {current[i].uid for i, s in state.items() if s == "inflight"}
    if q.is_scheduling_queue_hint_enabled:
        assert set(q.in_flight_pods) == in_flight
        if not in_flight:
            assert len(q.in_flight_events) == 0, "events kept with no pod in flight"
    else:
        assert not q.in_flight_pods and len(q.in_flight_events) == 0


@settings(max_examples=120, deadline=None)
@given(st.lists(ops, min_size=10, max_size=60), st.booleans(), st.lists(st.integers(0, 2), min_size=N_PODS, max_size=N_PODS))
def test_no_pod_is_lost_or_duplicated(operations, hints_enabled, priorities):
    clock = VirtualClock()
    q = new_test_queue(clock=clock, queueing_hint_map=HINT_MAP, queueing_hints_enabled=hints_enabled,
                       pre_enqueue_plugins={"": [HoldPlugin()]})
    q.start()
    current = make_pods(priorities)
    state = {i: "absent" for i in range(N_PODS)}
    popped: dict[int, QueuedPodInfo] = {}
    for op in operations:
        kind, args = op[0], op[1:]
        # An index picks among the pods the call makes sense for (absent for add, in flight for fail, ...).
        pick = {"add": "absent", "fail": "inflight", "done": "inflight", "update": "queued"}.get(kind)
        if pick is not None:
            fits = [i for i, s in state.items() if s == pick]
            if not fits:
                continue
            i = fits[args[0] % len(fits)]
        if kind == "add":
            q.add(current[i])
            state[i] = "queued"
        elif kind == "pop":
            pinfo = q.pop()
            if pinfo is not None:
                j = int(pinfo.pod.name[1:])
                assert state[j] == "queued"
                state[j], popped[j] = "inflight", pinfo
        elif kind == "fail":
            pinfo = popped.pop(i)
            pinfo.unschedulable_plugins, pinfo.pending_plugins = set(args[1]), set(args[2])
            assert q.add_unschedulable_if_not_present(pinfo, q.scheduling_cycle) is None
            state[i] = "queued"
        elif kind == "done":
            q.done(current[i].uid)  # scheduled and bound
            popped.pop(i)
            state[i] = "absent"
        elif kind == "update":
            new = copy.deepcopy(current[i])
            new.metadata.labels.pop("hold", None)  # lift the hold, or else change an annotation
            new.metadata.annotations["v"] = str(int(new.metadata.annotations.get("v", "0")) + 1)
            q.update(current[i], new)
            current[i] = new
        elif kind == "delete":
            i = args[0]
            q.delete(current[i])
            if state[i] == "inflight":
                q.done(current[i].uid)  # the failure handler finds the pod gone
                popped.pop(i)
            state[i] = "absent"
        elif kind == "activate":
            q.activate({"x": current[args[0]]})
        elif kind == "event":
            q.move_all_to_active_or_backoff_queue(EVENTS[args[0]], None, None, None)
        elif kind == "assigned":
            q.assigned_pod_added(make_pod().name(f"bound{args[0]}").namespace("ns").label("app", "x")
                                 .node("n1").obj())
        elif kind == "advance":
            clock.advance_to(clock.now + args[0])
        check(q, state, current)
    q.close()
