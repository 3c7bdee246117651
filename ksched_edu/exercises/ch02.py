"""Checks for chapter 02 (the scheduling queue).

``check_backoff_prediction`` compares predicted backoffs with what a real
PriorityQueue computes (``calculate_backoff_duration``) for the configuration
the exercise states; ``check_free_the_pod`` runs the teaching cluster with the
pod of data/workloads/ssd-job.yaml, calls the learner's function on the API
server, runs on, and reads from the trace which event moved the pod and where
it was bound.
"""
from __future__ import annotations

from typing import Any, Callable

from ksched_edu.exercises.core import call_answer, failed, is_unanswered, passed, project_path

# The configuration the backoff exercise states.
INITIAL_BACKOFF = 2.0
MAX_BACKOFF = 20.0
ATTEMPTS = (1, 2, 3, 4, 5, 6)

SSD_CLUSTER = ("data/clusters/three-nodes.yaml", "data/workloads/ssd-job.yaml")
SSD_POD = "default/ssd-job"


def backoff_after(attempts: int, initial: float = INITIAL_BACKOFF, maximum: float = MAX_BACKOFF) -> float:
    """The backoff a real PriorityQueue gives a pod after ``attempts`` attempts."""
    from ksched_edu.api.types import ObjectMeta, Pod
    from ksched_edu.framework.types import PodInfo, QueuedPodInfo
    from ksched_edu.internal.queue.scheduling_queue import PriorityQueue

    queue = PriorityQueue(lambda a, b: False, pod_initial_backoff_seconds=initial, pod_max_backoff_seconds=maximum)
    pod = Pod(ObjectMeta(name="p", namespace="default", uid="p"))
    return queue.calculate_backoff_duration(QueuedPodInfo(PodInfo(pod), attempts=attempts))


def check_backoff_prediction(predicted: Any) -> bool:
    """Is ``predicted`` (attempts -> seconds) the backoff with podInitialBackoffSeconds 2, podMaxBackoffSeconds 20?"""
    hint = (f"the first failure waits podInitialBackoffSeconds ({INITIAL_BACKOFF:g}s); each further attempt "
            f"doubles it, and no wait is longer than podMaxBackoffSeconds ({MAX_BACKOFF:g}s)")
    if is_unanswered(predicted) or not isinstance(predicted, dict):
        return failed("predicted is not a dict {attempts: seconds} yet.", hint=hint)
    missing = [n for n in ATTEMPTS if is_unanswered(predicted.get(n))]
    if missing:
        return failed(f"no prediction for {len(missing)} attempt count(s): {missing}.", hint=hint)
    for n in ATTEMPTS:
        want = backoff_after(n)
        try:
            ok = float(predicted[n]) == want
        except (TypeError, ValueError):
            ok = False
        if not ok:
            return failed(f"after {n} attempt(s) the pod does not wait {predicted[n]!r}s.", hint=hint)
    return passed("every backoff is right: " + ", ".join(f"{n}→{backoff_after(n):g}s" for n in ATTEMPTS) + ".")


def check_free_the_pod(free: Callable[[Any], Any]) -> bool:
    """Does ``free(api)``, a change to the cluster through the API server, get default/ssd-job scheduled?"""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import BindEvent, QueueEvent, Recorder

    hint = ("ssd-job wants a node labelled disk=ssd that it may use; label a node (take a copy of it with "
            "copy.deepcopy(api.get('Node', '', name)), change the copy, api.update(copy)) or create a new node; "
            "leave the pod alone")
    if is_unanswered(free) or not callable(free):
        return failed("free is not a function yet.", hint=hint)
    rec = Recorder()
    sim = Simulation(load_cluster([project_path(p) for p in SSD_CLUSTER]), default_config(), seed=1, recorder=rec)
    # Its first failure lands while default/web binds (backoffQ); the retry a second later parks it.
    sim.run(until=2.0)
    queue = sim.scheduler.scheduling_queue
    pod = sim.api.get_pod("default", "ssd-job")
    if queue.queue_of(pod) != "Unschedulable":  # the scenario itself, not the learner
        return failed("ssd-job should wait in unschedulablePods before free() runs.", hint="reload data/")
    ok, err = call_answer(free, sim.api)
    if not ok:
        return failed(f"free(api) raised {type(err).__name__}: {err}", hint=hint)
    sim.run(until=sim.clock.now + 20.0)
    bound = next((e for e in rec.of(BindEvent) if e.pod == SSD_POD and e.kind == "bound"), None)
    current = sim.api.get_pod("default", "ssd-job")
    if current is None or current.spec.node_selector != {"disk": "ssd"}:
        return failed("ssd-job itself was changed or deleted.", hint=hint)
    if bound is None:
        moves = [e.event for e in rec.of(QueueEvent) if e.pod == SSD_POD and e.action == "move"]
        if moves:
            return failed(f"an event ({moves[-1]}) moved ssd-job, but it still fits no node.", hint=hint)
        return failed("no cluster event moved ssd-job out of unschedulablePods.", hint=hint)
    move = next(e for e in rec.of(QueueEvent) if e.pod == SSD_POD and e.action == "move")
    return passed(f"{move.event} moved ssd-job to {move.queue}; it was bound to {bound.node} at t={bound.time:g}s.")
