"""Shared pods and test doubles for the queue tests (after the globals of scheduling_queue_test.go)."""
from __future__ import annotations

import copy
from typing import Any, Optional

from ksched_edu.api.types import Pod, PodCondition
from ksched_edu.framework.interface import Code, Status, new_status
from ksched_edu.framework.plugins.queuesort.priority_sort import PrioritySort
from ksched_edu.framework.types import QueueingHint
from ksched_edu.internal.queue.scheduling_queue import PriorityQueue, QueueingHintFunction
from ksched_edu.sim.clock import VirtualClock
from tests.builders import make_pod

LOW_PRIORITY, MID_PRIORITY, HIGH_PRIORITY = 0, 100, 1000
MEDIUM_PRIORITY = (LOW_PRIORITY + HIGH_PRIORITY) // 2


def high_priority_pod() -> Pod:
    return make_pod().name("hpp").namespace("ns1").uid("hppns1").priority(HIGH_PRIORITY).obj()


def high_pri_nominated_pod() -> Pod:
    return make_pod().name("hpp").namespace("ns1").uid("hppns1").priority(HIGH_PRIORITY) \
        .nominated_node_name("node1").obj()


def med_priority_pod() -> Pod:
    return make_pod().name("mpp").namespace("ns2").uid("mppns2").annotation("annot2", "val2") \
        .priority(MEDIUM_PRIORITY).nominated_node_name("node1").obj()


def unschedulable_pod() -> Pod:
    return make_pod().name("up").namespace("ns1").uid("upns1").annotation("annot2", "val2") \
        .priority(LOW_PRIORITY).nominated_node_name("node1") \
        .condition("PodScheduled", "False", "Unschedulable").obj()


def non_existent_pod() -> Pod:
    return make_pod().name("ne").namespace("ns1").uid("nens1").obj()


def scheduled_pod() -> Pod:
    return make_pod().name("sp").namespace("ns1").uid("spns1").node("foo").obj()


def clone_pod(pod: Pod, new_name: str) -> Pod:
    """Upstream clonePod: a copy under another name (and UID)."""
    out = copy.deepcopy(pod)
    out.metadata.name = new_name
    out.metadata.uid = new_name + out.metadata.namespace
    return out


def mark_unschedulable(pod: Pod) -> None:
    """Upstream podutil.UpdatePodCondition(..., PodScheduled=False/Unschedulable)."""
    pod.status.conditions = [c for c in pod.status.conditions if c.type != "PodScheduled"]
    pod.status.conditions.append(PodCondition("PodScheduled", "False", "Unschedulable", "fake scheduling failure"))


def queue_hint_return_queue(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    return QueueingHint.Queue


def queue_hint_return_skip(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    return QueueingHint.QueueSkip


def hints(*pairs: tuple[str, Any]) -> list[QueueingHintFunction]:
    return [QueueingHintFunction(name, fn) for name, fn in pairs]


def lister(*pods: Pod):
    """A pod lister over ``pods`` (upstream: an informer started with these objects)."""
    by_key = {(p.namespace, p.name): p for p in pods}
    return lambda namespace, name: by_key.get((namespace, name))


def new_test_queue(*, objs: Optional[list[Pod]] = None, clock: Optional[VirtualClock] = None,
                   **options: Any) -> PriorityQueue:
    """Upstream NewTestQueue / NewTestQueueWithObjects, sorted by PrioritySort."""
    return PriorityQueue(PrioritySort().less, clock=clock or VirtualClock(), pod_lister=lister(*(objs or [])),
                         **options)


def step(clock: VirtualClock, seconds: float) -> None:
    """Upstream FakeClock.Step."""
    clock.advance_to(clock.now + seconds)


class PreEnqueuePlugin:
    """Lets a pod in only when it has a label in ``allowlists`` (upstream's test preEnqueuePlugin)."""

    def __init__(self, allowlists: Optional[list[str]] = None) -> None:
        self.allowlists = allowlists or []

    def name(self) -> str:
        return "preEnqueuePlugin"

    def pre_enqueue(self, pod: Pod) -> Optional[Status]:
        for allowed in self.allowlists:
            if allowed in pod.metadata.labels:
                return None
        return new_status(Code.UnschedulableAndUnresolvable, "pod name not in allowlists")


def expect_in_flight_pods(q: PriorityQueue, *uids: str) -> None:
    """Upstream expectInFlightPods: the in-flight map and the pods in the event list."""
    assert sorted(q.in_flight_pods) == sorted(uids)
    in_list = [v.uid for v in q.in_flight_events.values() if isinstance(v, Pod)]
    assert sorted(in_list) == sorted(uids)
