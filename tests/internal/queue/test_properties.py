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
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

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
pick = st.integers(0, 2 * N_PODS)


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


class QueueMachine(RuleBasedStateMachine):
    """A model of where each pod is ("absent", "queued" or "inflight") beside the real queue."""

    @initialize(hints_enabled=st.booleans(), priorities=st.lists(st.integers(0, 2), min_size=N_PODS,
                                                                  max_size=N_PODS))
    def setup(self, hints_enabled: bool, priorities: list[int]) -> None:
        self.clock = VirtualClock()
        self.q = new_test_queue(clock=self.clock, queueing_hint_map=HINT_MAP, queueing_hints_enabled=hints_enabled,
                                pre_enqueue_plugins={"": [HoldPlugin()]})
        self.q.start()
        self.current = make_pods(priorities)
        self.state = {i: "absent" for i in range(N_PODS)}
        self.popped: dict[int, QueuedPodInfo] = {}

    def _in(self, where: str) -> list[int]:
        return [i for i, s in self.state.items() if s == where]

    @precondition(lambda self: self._in("absent"))
    @rule(k=pick)
    def add(self, k: int) -> None:
        fits = self._in("absent")
        i = fits[k % len(fits)]
        self.q.add(self.current[i])
        self.state[i] = "queued"

    @rule()
    def pop(self) -> None:
        pinfo = self.q.pop()
        if pinfo is not None:
            i = int(pinfo.pod.name[1:])
            assert self.state[i] == "queued"
            self.state[i], self.popped[i] = "inflight", pinfo

    @rule(outcome=st.sampled_from(["fail", "fail", "done", "keep"]), unschedulable=plugin_sets, pending=plugin_sets)
    def scheduling_attempt(self, outcome: str, unschedulable: set[str], pending: set[str]) -> None:
        """What schedule_one does: pop, then fail (back to the queue), bind (done), or stay in flight."""
        pinfo = self.q.pop()
        if pinfo is None:
            return
        i = int(pinfo.pod.name[1:])
        assert self.state[i] == "queued"
        self.state[i] = "inflight"
        if outcome == "fail":
            pinfo.unschedulable_plugins, pinfo.pending_plugins = set(unschedulable), set(pending)
            assert self.q.add_unschedulable_if_not_present(pinfo, self.q.scheduling_cycle) is None
            self.state[i] = "queued"
        elif outcome == "done":
            self.q.done(pinfo.pod.uid)
            self.state[i] = "absent"
        else:
            self.popped[i] = pinfo

    @precondition(lambda self: self._in("inflight"))
    @rule(k=pick, unschedulable=plugin_sets, pending=plugin_sets)
    def fail(self, k: int, unschedulable: set[str], pending: set[str]) -> None:
        fits = self._in("inflight")
        i = fits[k % len(fits)]
        pinfo = self.popped.pop(i)
        pinfo.unschedulable_plugins, pinfo.pending_plugins = set(unschedulable), set(pending)
        assert self.q.add_unschedulable_if_not_present(pinfo, self.q.scheduling_cycle) is None
        self.state[i] = "queued"

    @precondition(lambda self: self._in("inflight"))
    @rule(k=pick)
    def done(self, k: int) -> None:
        fits = self._in("inflight")
        i = fits[k % len(fits)]
        self.q.done(self.current[i].uid)  # scheduled and bound
        self.popped.pop(i)
        self.state[i] = "absent"

    @precondition(lambda self: self._in("queued"))
    @rule(k=pick)
    def update(self, k: int) -> None:
        fits = self._in("queued")
        i = fits[k % len(fits)]
        new = copy.deepcopy(self.current[i])
        new.metadata.labels.pop("hold", None)  # lift the hold, or else change an annotation
        new.metadata.annotations["v"] = str(int(new.metadata.annotations.get("v", "0")) + 1)
        self.q.update(self.current[i], new)
        self.current[i] = new

    @rule(i=idx)
    def delete(self, i: int) -> None:
        self.q.delete(self.current[i])
        if self.state[i] == "inflight":
            self.q.done(self.current[i].uid)  # the failure handler finds the pod gone
            self.popped.pop(i)
        self.state[i] = "absent"

    @rule(i=idx)
    def activate(self, i: int) -> None:
        self.q.activate({"x": self.current[i]})

    @rule(e=st.sampled_from(EVENTS))
    def event(self, e) -> None:
        self.q.move_all_to_active_or_backoff_queue(e, None, None, None)

    @rule(i=idx)
    def assigned(self, i: int) -> None:
        self.q.assigned_pod_added(make_pod().name(f"bound{i}").namespace("ns").label("app", "x").node("n1").obj())

    @rule(dt=st.sampled_from([0.0, 0.5, 1.0, 3.0, 11.0, 31.0, 301.0]))
    def advance(self, dt: float) -> None:
        self.clock.advance_to(self.clock.now + dt)

    @invariant()
    def no_pod_is_lost_or_duplicated(self) -> None:
        check(self.q, self.state, self.current)

    def teardown(self) -> None:
        self.q.close()


TestNoPodIsLostOrDuplicated = QueueMachine.TestCase
TestNoPodIsLostOrDuplicated.settings = settings(max_examples=60, stateful_step_count=40, deadline=None)
