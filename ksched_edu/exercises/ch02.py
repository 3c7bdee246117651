"""Checks for chapter 02 (the scheduling queue).

``check_second_attempt`` runs section 1's workload (the teaching cluster with
data/workloads/queue-waiting-pods.yaml) with queueing hints on and reads from
the trace where ``default/big`` went after its first attempt and when its
second attempt started;
``check_free_the_pod`` runs the teaching cluster with the pod of
data/workloads/ssd-job.yaml, calls the learner's function on the API server,
runs on, and reads from the trace which event moved the pod and where it was
bound. ``check_flush_prediction`` and ``check_hint_predictions`` run the
cordoned teaching cluster of the chapter (every node marked unschedulable,
default/web pending) and read from the trace when the 30-second flush moved
the pod, and which node changes moved it with queueing hints on.
"""
from __future__ import annotations

import copy
import functools
from typing import Any, Callable, Optional

from ksched_edu.exercises.core import (CheckTimeout, call_answer, describe_exception, failed, is_unanswered,
                                       passed, project_path)
from ksched_edu.i18n import N_, _

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


# --- section 1's workload with queueing hints on --------------------------------------------

WAITING_PODS = ("data/clusters/three-nodes.yaml", "data/workloads/queue-waiting-pods.yaml")
BIG = "default/big"
# The three parts of the queue, with the other names a learner may use for them.
QUEUE_PARTS = {"activeq": "activeQ", "active": "activeQ",
               "backoffq": "backoffQ", "backoff": "backoffQ", "podbackoffq": "backoffQ",
               "unschedulablepods": "unschedulablePods", "unschedulable": "unschedulablePods",
               "unschedulableq": "unschedulablePods"}
TRACE_PARTS = {"Active": "activeQ", "Backoff": "backoffQ", "Unschedulable": "unschedulablePods"}
SECOND_ATTEMPT_HORIZON = 700.0
# The hints of exercise 1: the Go to read for where big goes, and for when it is tried next.
PART_HINT = N_("find the event that reached the queue during big's first attempt (web's bind: addPodToCache, "
             "pkg/scheduler/eventhandlers.go L194-208, then AssignedPodAdded, "
             "pkg/scheduler/internal/queue/scheduling_queue.go L1064-1068), then what AddUnschedulableIfNotPresent "
             "does with it when the gate is on: determineSchedulingHintForInFlightPod (L676-732) asks "
             "isPodWorthRequeuing (L442-513) about the plugins that rejected big; section 2 prints the events "
             "they registered")
TIME_HINT = N_("once you know where big waits, find what moves it next: flushBackoffQCompleted (L830-859) or "
             "flushUnschedulablePodsLeftover (L863-879), how often (*PriorityQueue).Run calls each "
             "(pkg/scheduler/internal/queue/scheduling_queue.go L393-400), and the timestamp each compares "
             "(set at L805)")


def second_attempt(queueing_hints: bool = True) -> tuple[str, float, float]:
    """Section 1's workload: (where big went after its first attempt, when that attempt failed,
    when its second attempt started)."""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import QueueEvent, Recorder

    sim = Simulation(load_cluster([project_path(p) for p in WAITING_PODS]), default_config(), seed=1,
                     recorder=Recorder(), queueing_hints=queueing_hints)
    sim.run(until=SECOND_ATTEMPT_HORIZON)
    moves = [e for e in sim.recorder.of(QueueEvent) if e.pod == BIG]
    first_failure = next(e for e in moves if e.action == "requeue")
    second_pop = [e for e in moves if e.action == "pop"][1]
    return TRACE_PARTS[first_failure.queue], first_failure.time, second_pop.time


def check_second_attempt(goes_to: Any, next_attempt: Any) -> bool:
    """Section 1's workload with queueing hints on: where does big go after its first attempt, and when
    does its second attempt start?"""
    if is_unanswered(goes_to) or is_unanswered(next_attempt):
        return failed(_("goes_to and next_attempt are not both set yet."),
                      hint=_("goes_to is \"activeQ\", \"backoffQ\" or \"unschedulablePods\"; {hint}").format(
                          hint=_(PART_HINT)))
    part = QUEUE_PARTS.get(goes_to.strip().lower()) if isinstance(goes_to, str) else None
    if part is None:
        return failed(_("{goes_to!r} is not one of the queue's parts activeQ, backoffQ, unschedulablePods.").format(
            goes_to=goes_to), hint=_(PART_HINT))
    if isinstance(next_attempt, bool) or not isinstance(next_attempt, (int, float)):
        return failed(_("next_attempt should be a virtual time in seconds, not {type}.").format(
            type=type(next_attempt).__name__), hint=_(TIME_HINT))
    went, failed_at, second = second_attempt()
    if part != went:
        return failed(_("with the gate on, big did not go to {part} after its first attempt.").format(part=part),
                      hint=_(PART_HINT))
    if abs(float(next_attempt) - second) < 1e-6:
        return passed(_("right: with the gate on, web's bind was replayed through the hints of the plugins that "
                        "rejected big, none of which registered it, so big waited in {queue} from t={failed_at:g} s "
                        "until the 30-second flush of t={second:g} s; with the gate off, section 1 retried it at "
                        "t={gate_off:g} s.").format(queue=went, failed_at=failed_at, second=second,
                                                    gate_off=second_attempt(queueing_hints=False)[2]))
    return failed(_("big's second attempt did not start at t={time:g} s.").format(time=next_attempt),
                  hint=_(TIME_HINT))


def check_free_the_pod(free: Callable[[Any], Any], seconds: Optional[float] = None) -> bool:
    """Does ``free(api)``, a change to the cluster through the API server, get default/ssd-job scheduled?"""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.exercises.core import TIME_LIMIT_SECONDS
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import BindEvent, QueueEvent, Recorder

    limit = TIME_LIMIT_SECONDS if seconds is None else seconds
    hint = _("ssd-job wants a node labelled disk=ssd that it may use; label a node (take a copy of it with "
             "copy.deepcopy(api.get('Node', '', name)), change the copy, api.update(copy)) or create a new node; "
             "leave the pod alone")
    if is_unanswered(free) or not callable(free):
        return failed(_("free is not a function yet."), hint=hint)
    rec = Recorder()
    sim = Simulation(load_cluster([project_path(p) for p in SSD_CLUSTER]), default_config(), seed=1, recorder=rec)
    # Its first failure lands while default/web binds (backoffQ); the retry a second later parks it.
    sim.run(until=2.0)
    queue = sim.scheduler.scheduling_queue
    pod = sim.api.get_pod("default", "ssd-job")
    if queue.queue_of(pod) != "Unschedulable":  # the scenario itself, not the learner
        return failed(_("ssd-job should wait in unschedulablePods before free() runs."), hint=_("reload data/"))
    ok, err = call_answer(free, sim.api, seconds=limit)
    if not ok:
        if isinstance(err, CheckTimeout):
            return failed(_("free(api) did not return: {reason}").format(reason=describe_exception(err)), hint=hint)
        # Translators: {error} is the exception, as Python names it ("KeyError: 'n9'").
        return failed(_("free(api) raised {error}").format(error=describe_exception(err)), hint=hint)
    ok, err = call_answer(sim.run, until=sim.clock.now + 20.0, seconds=limit)
    if not ok:
        return failed(_("after free(api) the simulation stopped: {reason}").format(reason=describe_exception(err)),
                      hint=hint)
    bound = next((e for e in rec.of(BindEvent) if e.pod == SSD_POD and e.kind == "bound"), None)
    current = sim.api.get_pod("default", "ssd-job")
    if current is None or current.spec.node_selector != {"disk": "ssd"}:
        return failed(_("ssd-job itself was changed or deleted."), hint=hint)
    if bound is None:
        moves = [e.event for e in rec.of(QueueEvent) if e.pod == SSD_POD and e.action == "move"]
        if moves:
            return failed(_("an event ({event}) moved ssd-job, but it still fits no node.").format(event=moves[-1]),
                          hint=hint)
        return failed(_("no cluster event moved ssd-job out of unschedulablePods."), hint=hint)
    move = next(e for e in rec.of(QueueEvent) if e.pod == SSD_POD and e.action == "move")
    return passed(_("{event} moved ssd-job to {queue}; it was bound to {node} at t={time:g}s.").format(
        event=move.event, queue=move.queue, node=bound.node, time=bound.time))


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
    hint = _("with hints off the label change moves web and it is retried at once; the failure refreshes its "
             "timestamp. flushUnschedulablePodsLeftover runs at t=0, 30, 60, ... and moves a pod that has waited "
             "strictly longer than 5 minutes (300 s) since that timestamp")
    if is_unanswered(predicted):
        return failed(_("predicted is not a time yet."), hint=hint)
    if isinstance(predicted, bool) or not isinstance(predicted, (int, float)):
        return failed(_("predicted should be a number of seconds, not {type}.").format(type=type(predicted).__name__),
                      hint=hint)
    actual = flush_move_time()
    if float(predicted) == actual:
        return passed(_("the flush at t={actual:g}s moved web (UnschedulableTimeout): it had waited since its "
                        "failure at t={label_time:g}s, and the flush at t={earlier:g}s was too early.").format(
            actual=actual, label_time=LABEL_TIME, earlier=actual - 30))
    if float(predicted) == LABEL_TIME + 300:
        return failed(_("no flush runs at t={predicted:g}s, and waiting exactly 300 s is not enough.").format(
            predicted=predicted), hint=hint)
    if float(predicted) < LABEL_TIME + 300:
        return failed(_("at t={predicted:g}s web has not waited 5 minutes since its last failure.").format(
            predicted=predicted), hint=hint)
    return failed(_("web leaves unschedulablePods before t={predicted:g}s.").format(predicted=predicted), hint=hint)


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
    hint = _("a node event first meets the pre-check (preCheckForNode: resources, node affinity, ports, "
             "NoSchedule taints web does not tolerate); a pod that passes it is moved only if the hint of a "
             "plugin that rejected it (NodeUnschedulable: is the node schedulable now?) answers Queue")
    if is_unanswered(predicted) or not isinstance(predicted, dict):
        return failed(_("predicted is not a dict {change: True or False} yet."), hint=hint)
    missing = [c for c in HINT_CHANGES if c not in predicted or is_unanswered(predicted[c])]
    if missing:
        return failed(_("no prediction for {changes}.").format(changes=missing), hint=hint)
    not_bool = [c for c in HINT_CHANGES if not isinstance(predicted[c], bool)]
    if not_bool:
        return failed(_("the prediction for {change!r} should be True or False, not {value!r}.").format(
            change=not_bool[0], value=predicted[not_bool[0]]), hint=hint)
    actual = hint_outcomes()
    wrong = [c for c in HINT_CHANGES if predicted[c] != actual[c]]
    if wrong:
        c = wrong[0]
        if actual[c]:
            message = _("{count} prediction(s) off; for instance {change!r} moved web.")
        else:
            message = _("{count} prediction(s) off; for instance {change!r} did not move web.")
        return failed(message.format(count=len(wrong), change=c), hint=hint)
    moved = [c for c in HINT_CHANGES if actual[c]]
    # Translators: {changes} are the changes that moved web, the keys of the learner's dict ("uncordon n3 and add n4").
    return passed(_("right for all {count}: only {changes} moved web.").format(count=len(HINT_CHANGES),
                                                                              changes=_joined(moved)))


def _joined(items: list[str]) -> str:
    """``a and b and c``, in the course's language."""
    if not items:
        return ""
    # Translators: two of the changes that moved web ("uncordon n3 and add n4").
    return functools.reduce(lambda first, second: _("{first} and {second}").format(first=first, second=second),
                            items)
