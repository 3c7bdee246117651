"""Checks for chapter 02 (the scheduling queue).

``check_backoff_prediction`` compares predicted backoffs with what a real
PriorityQueue computes (``calculate_backoff_duration``) for the configuration
the exercise states; ``check_free_the_pod`` runs the teaching cluster with the
pod of data/workloads/ssd-job.yaml, calls the learner's function on the API
server, runs on, and reads from the trace which event moved the pod and where
it was bound. ``check_flush_prediction`` and ``check_hint_predictions`` run
the cordoned teaching cluster of the chapter (every node marked
unschedulable, default/web pending) and read from the trace when the
30-second flush moved the pod, and which node changes moved it with queueing
hints on.
"""
from __future__ import annotations

import copy
from typing import Any, Callable, Optional

from ksched_edu.exercises.core import (CheckTimeout, call_answer, describe_exception, failed, is_unanswered,
                                       passed, project_path)

# The configuration the backoff exercise states.
INITIAL_BACKOFF = 2.0
MAX_BACKOFF = 20.0
ATTEMPTS = (1, 2, 3, 4, 5, 6)

SSD_CLUSTER = ("data/clusters/three-nodes.yaml", "data/workloads/ssd-job.yaml")
SSD_POD = "default/ssd-job"

# The cordoned teaching cluster: every node of three-nodes.yaml has spec.unschedulable set.
TEACHING_CLUSTER = "data/clusters/three-nodes.yaml"
WEB = "default/web"
# The flush exercise: at this time n3 gets a label, with queueing hints off.
LABEL_TIME = 100.0
# How far a check runs the cordoned cluster after its change (virtual seconds).
FLUSH_HORIZON = 700.0
HINT_HORIZON = 20.0
# The hint exercise: one change each, made at t=5 s on a fresh cordoned cluster, hints on.
HINT_CHANGES = ("uncordon n2", "uncordon n3", "add n4", "add n4 cordoned")
CHANGE_TIME = 5.0


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
        value = predicted[n]
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and float(value) == want
        if not ok:
            return failed(f"after {n} attempt(s) the pod does not wait {value!r}s.", hint=hint)
    return passed("every backoff is right: " + ", ".join(f"{n}→{backoff_after(n):g}s" for n in ATTEMPTS) + ".")


def check_free_the_pod(free: Callable[[Any], Any], seconds: Optional[float] = None) -> bool:
    """Does ``free(api)``, a change to the cluster through the API server, get default/ssd-job scheduled?"""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.exercises.core import TIME_LIMIT_SECONDS
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import BindEvent, QueueEvent, Recorder

    limit = TIME_LIMIT_SECONDS if seconds is None else seconds
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
    ok, err = call_answer(free, sim.api, seconds=limit)
    if not ok:
        if isinstance(err, CheckTimeout):
            return failed(f"free(api) did not return: {describe_exception(err)}", hint=hint)
        return failed(f"free(api) raised {describe_exception(err)}", hint=hint)
    ok, err = call_answer(sim.run, until=sim.clock.now + 20.0, seconds=limit)
    if not ok:
        return failed(f"after free(api) the simulation stopped: {describe_exception(err)}", hint=hint)
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


# --- the cordoned cluster: the 30-second flush and queueing hints ------------------------------


def cordoned_simulation(queueing_hints: bool = False) -> Any:
    """The teaching cluster with every node cordoned (spec.unschedulable), default/web pending, traced."""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import Recorder

    cluster = load_cluster(project_path(TEACHING_CLUSTER))
    for node in cluster.nodes:
        node.spec.unschedulable = True
    return Simulation(cluster, default_config(), seed=1, recorder=Recorder(), queueing_hints=queueing_hints)


def change_node(api: Any, name: str, change: Callable[[Any], None]) -> None:
    """Update node ``name`` through the API server: a copy, changed by ``change``, sent back."""
    node = copy.deepcopy(api.get("Node", "", name))
    change(node)
    api.update(node)


def _add_label(node: Any) -> None:
    node.metadata.labels["team"] = "blue"


def _uncordon(node: Any) -> None:
    node.spec.unschedulable = False


def make_change(sim: Any, change: str) -> None:
    """Apply one of HINT_CHANGES to the cordoned cluster through its API server."""
    if change.startswith("add n4"):
        from ksched_edu.api.loader import load_cluster

        node = load_cluster(project_path("data/workloads/new-nodes.yaml")).nodes[0]
        node.spec.unschedulable = change.endswith("cordoned")
        sim.api.create(node)
        return
    verb, name = change.split()
    change_node(sim.api, name, _add_label if verb == "label" else _uncordon)


def flush_move_time() -> float:
    """When the 30-second flush moves default/web after n3 got a label at LABEL_TIME (hints off)."""
    from ksched_edu.internal.queue.events import UNSCHEDULABLE_TIMEOUT
    from ksched_edu.trace import QueueEvent

    sim = cordoned_simulation()
    sim.run(until=LABEL_TIME)
    make_change(sim, "label n3")
    sim.run(until=FLUSH_HORIZON)
    return next(e.time for e in sim.recorder.of(QueueEvent)
                if e.pod == WEB and e.action == "move" and e.event == UNSCHEDULABLE_TIMEOUT.label)


def check_flush_prediction(predicted: Any) -> bool:
    """Is ``predicted`` the time the 30-second flush moves default/web (n3 labelled at t=100 s, hints off)?"""
    hint = ("with hints off the label change moves web and it is retried at once; the failure refreshes its "
            "timestamp. flushUnschedulablePodsLeftover runs at t=0, 30, 60, ... and moves a pod that has waited "
            "strictly longer than 5 minutes (300 s) since that timestamp")
    if is_unanswered(predicted):
        return failed("predicted is not a time yet.", hint=hint)
    if isinstance(predicted, bool) or not isinstance(predicted, (int, float)):
        return failed(f"predicted should be a number of seconds, not {type(predicted).__name__}.", hint=hint)
    actual = flush_move_time()
    if float(predicted) == actual:
        return passed(f"the flush at t={actual:g}s moved web (UnschedulableTimeout): it had waited since its "
                      f"failure at t={LABEL_TIME:g}s, and the flush at t={actual - 30:g}s was too early.")
    if float(predicted) == LABEL_TIME + 300:
        return failed(f"no flush runs at t={predicted:g}s, and waiting exactly 300 s is not enough.", hint=hint)
    if float(predicted) < LABEL_TIME + 300:
        return failed(f"at t={predicted:g}s web has not waited 5 minutes since its last failure.", hint=hint)
    return failed(f"web leaves unschedulablePods before t={predicted:g}s.", hint=hint)


def hint_outcomes() -> dict[str, bool]:
    """For each of HINT_CHANGES, whether it moved default/web out of unschedulablePods (hints on)."""
    from ksched_edu.trace import QueueEvent

    out = {}
    for change in HINT_CHANGES:
        sim = cordoned_simulation(queueing_hints=True)
        sim.run(until=CHANGE_TIME)
        make_change(sim, change)
        out[change] = any(e.pod == WEB and e.action == "move" and e.time == CHANGE_TIME
                          for e in sim.recorder.of(QueueEvent))
    return out


def check_hint_predictions(predicted: Any) -> bool:
    """Is ``predicted`` ({change: moved?}) which node changes move default/web with queueing hints on?"""
    hint = ("a node event first meets the pre-check (preCheckForNode: resources, node affinity, ports, "
            "NoSchedule taints web does not tolerate); a pod that passes it is moved only if the hint of a "
            "plugin that rejected it (NodeUnschedulable: is the node schedulable now?) answers Queue")
    if is_unanswered(predicted) or not isinstance(predicted, dict):
        return failed("predicted is not a dict {change: True or False} yet.", hint=hint)
    missing = [c for c in HINT_CHANGES if c not in predicted or is_unanswered(predicted[c])]
    if missing:
        return failed(f"no prediction for {missing}.", hint=hint)
    not_bool = [c for c in HINT_CHANGES if not isinstance(predicted[c], bool)]
    if not_bool:
        return failed(f"the prediction for {not_bool[0]!r} should be True or False, not {predicted[not_bool[0]]!r}.",
                      hint=hint)
    actual = hint_outcomes()
    wrong = [c for c in HINT_CHANGES if predicted[c] != actual[c]]
    if wrong:
        c = wrong[0]
        did = "moved" if actual[c] else "did not move"
        return failed(f"{len(wrong)} prediction(s) off; for instance {c!r} {did} web.", hint=hint)
    moved = [c for c in HINT_CHANGES if actual[c]]
    return passed(f"right for all {len(HINT_CHANGES)}: only {' and '.join(moved)} moved web.")
