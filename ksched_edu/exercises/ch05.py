"""Checks for chapter 05 (the binding cycle: assume, Permit, PreBind, Bind, PostBind).

``check_team_permit`` runs a learner's Permit plugin in a scheduler, within the
wall-clock and virtual-clock bounds of :func:`run_learner_simulation`, and
reads where the pods ended (a plugin that returns an Error gets a verdict
quoting the cycle's error text). ``check_pods_binding`` compares a count with
the assume/bound events of pods that arrive 0.2 s apart, for a binding latency
the chapter did not run. ``check_first_failure_queues`` compares a prediction
with the queue each failing pod of the overlap scenario was sent to.
``check_permit_outcomes`` compares a prediction with how each pod's wait at
Permit ended in a scripted run (allowed, rejected or timed out), read off the
PermitEvents of the trace.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Optional

from ksched_edu.exercises import core
from ksched_edu.exercises.core import (call_answer, cycle_errors, describe_exception, failed, is_unanswered, passed,
                                       project_path, run_learner_simulation)
from ksched_edu.i18n import N_, _

TEAM_PERMIT = "TeamPermit"
NO_TEAM_REASON = "pod has no team label"
TEAM_CLUSTER = ("data/clusters/three-nodes.yaml", "data/workloads/team-pods.yaml")
ARRIVALS = ("data/clusters/three-nodes.yaml", "data/workloads/arrivals-every-200ms.yaml")
BIND_LATENCY = 0.5
# How far a simulation with a learner's plugin may go on the virtual clock.
VIRTUAL_SECONDS = 120.0

_TEAM_CONFIG = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    permit:
      enabled:
      - name: TeamPermit
"""

PERMIT_HINT = N_("permit(self, state, pod, node_name) returns a pair at once: (None, 0) to allow, "
                 "(new_status(Code.Unschedulable, 'pod has no team label'), 0) to refuse")


def _seconds(seconds: Optional[float]) -> float:
    """``seconds``, or the module-wide wall-clock limit as it is now (tests lower it)."""
    return core.TIME_LIMIT_SECONDS if seconds is None else seconds


def _time_left(deadline: float) -> float:
    """What is left of one check's wall-clock limit: every call of learner code shares it."""
    return max(0.05, deadline - time.monotonic())


def check_team_permit(factory: Any, seconds: Optional[float] = None) -> bool:
    """Does ``factory(args, handle)`` build a Permit plugin that lets team pods through and rejects the rest?"""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import load_config_data
    from ksched_edu.framework.plugins.registry import new_in_tree_registry
    from ksched_edu.framework.runtime import merge_registries
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import PermitEvent, Recorder

    deadline = time.monotonic() + _seconds(seconds)
    if is_unanswered(factory) or not callable(factory):
        return failed(_("no plugin factory yet."),
                      hint=_("define `def new_team_permit(args, handle): return TeamPermit()`."))
    ok, plugin = call_answer(factory, None, None, seconds=_time_left(deadline))
    if not ok and isinstance(plugin, NotImplementedError):
        return failed(_("the factory is not written yet."), hint=_("return a TeamPermit object from new_team_permit."))
    if not ok:
        return failed(_("the factory failed: {error}").format(error=describe_exception(plugin)),
                      hint=_("the factory takes (args, handle) and returns the plugin object."))
    name = _plugin_name(plugin, _time_left(deadline))
    if name != TEAM_PERMIT:
        return failed(_("the plugin's name() is {name!r}.").format(name=name),
                      hint=_("name() must return {name!r}.").format(name=TEAM_PERMIT))
    if not callable(getattr(plugin, "permit", None)):
        return failed(_("the plugin has no permit method."),
                      hint=_("add `def permit(self, state, pod, node_name)` returning (status, timeout)."))
    registry = merge_registries(new_in_tree_registry(), {TEAM_PERMIT: factory})
    cluster = load_cluster([project_path(p) for p in TEAM_CLUSTER])
    rec = Recorder()
    ok, sim = call_answer(Simulation, cluster, load_config_data(_TEAM_CONFIG), seed=0, registry=registry,
                          recorder=rec, seconds=_time_left(deadline))
    if not ok:
        return failed(_("the scheduler could not start with your plugin: {error}").format(
            error=describe_exception(sim)), hint=_(PERMIT_HINT))
    stopped = run_learner_simulation(sim, until=VIRTUAL_SECONDS, seconds=_time_left(deadline))
    errors = cycle_errors(rec)
    if errors:
        # Translators: {error} is the scheduler's error text, in English, as kubectl describe pod shows it.
        return failed(_("a scheduling cycle ended in an Error: {error}").format(error=errors[0]),
                      hint=_("Code.Error means the plugin itself failed, and the pod is retried over and over; "
                             "refuse a pod with Code.Unschedulable instead"))
    waited = sorted({e.pod for e in rec.of(PermitEvent) if e.kind == "wait"})
    if waited:
        return failed(_("{pods} waited at Permit (your plugin returned Code.Wait).").format(pods=", ".join(waited)),
                      hint=_("Wait holds a pod until someone allows it or its timeout ends; "
                             "return (None, 0) to let a team pod through at once"))
    if stopped is not None:
        if stopped.startswith("NotImplementedError"):
            return failed(_("the plugin is not written yet (NotImplementedError)."),
                          hint=_("fill in permit: return (None, 0) to allow, "
                                 "(new_status(Code.Unschedulable, ...), 0) to refuse."))
        if stopped.startswith(("TypeError", "ValueError")):
            return failed(_("the scheduler stopped: {reason}").format(reason=stopped),
                          hint=_("permit returns a pair: (None or a Status, a timeout in seconds)."))
        return failed(_("the scheduler stopped: {reason}").format(reason=stopped), hint=_(PERMIT_HINT))
    return _judge_team_placements(sim.placements(), {p.key: p for p in cluster.pending_pods})


def _plugin_name(plugin: Any, seconds: float) -> Any:
    ok, name = call_answer(getattr(plugin, "name", lambda: None), seconds=seconds)
    return name if ok else None


def _judge_team_placements(placements: list, pods: dict) -> bool:
    for p in placements:
        has_team = "team" in pods[p.pod].metadata.labels
        if has_team and p.node is None:
            # Translators: {message} is the scheduler's message for the pod, in English.
            return failed(_("{pod} has a team label but was not bound ({message}).").format(pod=p.pod,
                                                                                           message=p.message),
                          hint=_("return None (Success) for a pod whose labels have 'team'."))
        if not has_team and p.node is not None:
            return failed(_("{pod} has no team label but was bound to {node}.").format(pod=p.pod, node=p.node),
                          hint=_("return new_status(Code.Unschedulable, ...) for a pod without it."))
        if not has_team and NO_TEAM_REASON not in (p.message or ""):
            return failed(_("{pod} was refused with {message!r}.").format(pod=p.pod, message=p.message),
                          hint=_("give the reason {reason!r}.").format(reason=NO_TEAM_REASON))
    bound = sum(1 for p in placements if p.node)
    # Translators: {message} is the scheduler's message for a refused pod ("0/1 nodes are available: ..."), in English.
    return passed(_("{bound} team pod(s) bound, {refused} refused at Permit: {message}").format(
        bound=bound, refused=len(placements) - bound, message=next(p.message for p in placements if not p.node)))


# --- exercise 2: pods assumed but not yet bound -------------------------------------------------


def check_pods_binding(predicted: Any, pod: str = "default/job-3", bind_latency: float = BIND_LATENCY) -> bool:
    """When ``pod``'s first cycle began, how many pods were assumed but not yet bound, when each
    binding takes ``bind_latency`` seconds?"""
    if is_unanswered(predicted):
        return failed(_("no prediction yet."), hint=_("set `predicted` to a whole number of pods."))
    if isinstance(predicted, bool) or not isinstance(predicted, int):
        return failed(_("{predicted!r} is not a whole number.").format(predicted=predicted),
                      hint=_("set `predicted` to a whole number of pods."))
    binding = pods_binding_when(pod, bind_latency)
    if predicted == len(binding):
        return passed(_("with binding taking {latency:g} s, {count} pod(s) were assumed and still "
                        "binding when {pod} was scheduled: {pods}.").format(
            latency=bind_latency, count=len(binding), pod=pod, pods=", ".join(binding)))
    return failed(_("{predicted} is not the number of pods still binding when {pod} was scheduled.").format(
        predicted=predicted, pod=pod),
                  hint=_("pods arrive every 0.2 s (web and job-0 at once) and bind {latency:g} s after their "
                         "cycle: which pods were scheduled less than {latency:g} s before {pod}?").format(
                      latency=bind_latency, pod=pod))


def pods_binding_when(pod: str, bind_latency: float = BIND_LATENCY) -> list[str]:
    """Pods assumed before ``pod``'s first cycle and bound after it began, read off the trace of
    the arrivals workload with a binding latency."""
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.sim.workload import load_workload
    from ksched_edu.trace import BindEvent, CycleEvent, Recorder

    rec = Recorder()
    workload = load_workload([project_path(p) for p in ARRIVALS])
    sim = Simulation.from_workload(workload, default_config(), seed=0, recorder=rec, bind_latency=bind_latency)
    sim.run(until=VIRTUAL_SECONDS)
    start = next(e for e in rec.of(CycleEvent) if e.pod == pod and e.kind == "start")
    bound_at = {e.pod: e.time for e in rec.of(BindEvent) if e.kind == "bound"}
    return [e.pod for e in rec.of(BindEvent)
            if e.kind == "assume" and e.cycle < start.cycle and bound_at.get(e.pod, float("inf")) > start.time]


# --- exercise 3: the binding cycle overlaps the next scheduling cycle ---------------------------

OVERLAP = ("data/clusters/bind-overlap.yaml", "data/workloads/bind-overlap-more.yaml")
QUEUE_NAMES = {"backoffQ": "Backoff", "unschedulablePods": "Unschedulable"}


def first_failure_queues() -> dict[str, str]:
    """For each pod of the overlap scenario that failed: the queue its first failure sent it to
    (upstream names: backoffQ or unschedulablePods), read off the trace."""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import QueueEvent, Recorder

    rec = Recorder()
    Simulation(load_cluster([project_path(p) for p in OVERLAP]), default_config(), seed=0,
               recorder=rec).run(until=VIRTUAL_SECONDS)
    upstream = {v: k for k, v in QUEUE_NAMES.items()}
    first: dict[str, str] = {}
    for e in rec.of(QueueEvent):
        if e.action == "requeue" and e.queue in upstream and e.pod not in first:
            first[e.pod] = upstream[e.queue]
    return first


def _verdict_on_pod_predictions(predicted: Any, actual_of: Callable[[], dict[str, str]], choices: Any, *, hint: str,
                                kind: str, not_choices: str, choices_hint: str, named: Callable[[dict, dict], str],
                                names_hint: str, sep: str) -> bool:
    """The verdict on a ``{pod: kind}`` prediction: a dict, of known ``choices``, naming exactly the
    pods of ``actual_of()``, each right; ``named`` says what is wrong with the set of pods named.
    ``not_choices`` is the message for values not among ``choices`` (a ``{unknown}`` field), translated."""
    if is_unanswered(predicted) or not isinstance(predicted, dict):
        # Translators: {kind} is a word of the expected dict's shape, kept in English ("queue", "outcome").
        return failed(_("predicted is not a dict {{pod: {kind}}} yet.").format(kind=kind), hint=hint)
    unknown = sorted(str(v) for v in predicted.values() if v not in choices)
    if unknown:
        return failed(not_choices.format(unknown=unknown), hint=choices_hint)
    actual = actual_of()
    if set(predicted) != set(actual):
        return failed(named(predicted, actual), hint=names_hint)
    wrong = sorted(pod for pod in actual if predicted[pod] != actual[pod])
    if wrong:
        return failed(_("{wrong} of {total} predictions are wrong: {pods}.").format(
            wrong=len(wrong), total=len(actual), pods=", ".join(wrong)), hint=hint)
    shown = ", ".join(f"{pod}{sep}{outcome}" for pod, outcome in sorted(actual.items()))
    return passed(_("right: {predictions}.").format(predictions=shown))


def check_first_failure_queues(predicted: Any) -> bool:
    """Is ``predicted`` (pod -> "backoffQ" or "unschedulablePods") where each failing pod of the
    overlap scenario waited after its first failure?"""
    hint = _("a pod that fails goes to backoffQ when a move request came during its cycle (the bind of the "
             "pod scheduled just before it, landing while it was tried); otherwise to unschedulablePods. "
             "Which pod's scheduling cycle came right before each failing pod's, and did it bind?")
    return _verdict_on_pod_predictions(
        predicted, first_failure_queues, QUEUE_NAMES, hint=hint, kind="queue",
        not_choices=_("{unknown} are not queue names."),
        choices_hint=_('use "backoffQ" or "unschedulablePods".'),
        named=_named_failures, names_hint=_("which pods can never fit? name each of them, as namespace/name."),
        sep=" → ")


def _named_failures(predicted: dict, actual: dict) -> str:
    """What is wrong with the pods a prediction names, without telling which pods failed."""
    short = sorted(str(pod) for pod in predicted if "/" not in str(pod))
    if short:
        return _("{short} are not namespace/name keys (a pod of this scenario is named like default/a).").format(
            short=short)
    return _("you named {pods}: not the pods that failed.").format(pods=sorted(predicted))


# --- exercise 4: how does each wait at Permit end? ----------------------------------------------

HOLD = "Hold"
HOLD_CLUSTER = ("data/clusters/three-nodes.yaml", "data/workloads/burst-six-pods.yaml")
# The pods Hold makes wait at Permit (on their first attempt only), and for how long (seconds).
HOLD_TIMEOUTS = {"default/job-1": 10.0, "default/job-2": 3.0, "default/job-3": 10.0, "default/job-4": 5.0,
                 "default/job-5": 10.0}
# What a piece of code holding the framework handle does, and when (virtual seconds): (time, action, pod).
HOLD_SCRIPT = ((1.0, "allow", "default/job-5"), (2.0, "reject", "default/job-3"), (2.0, "reject", "default/job-5"),
               (4.0, "allow", "default/job-1"), (4.0, "allow", "default/job-2"), (6.0, "reject", "default/job-4"))
OUTCOMES = ("allowed", "rejected", "timeout")

_HOLD_CONFIG = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    permit:
      enabled:
      - name: Hold
"""


class _Hold:
    """Permit: a pod of HOLD_TIMEOUTS waits (its own timeout) on its first attempt; every other call allows."""

    def __init__(self) -> None:
        self.held: set[str] = set()

    def name(self) -> str:
        return HOLD

    def permit(self, state: Any, pod: Any, node_name: str) -> tuple[Any, float]:
        from ksched_edu.framework.interface import Code, new_status

        if pod.key in HOLD_TIMEOUTS and pod.key not in self.held:
            self.held.add(pod.key)
            return new_status(Code.Wait), HOLD_TIMEOUTS[pod.key]
        return None, 0.0


def permit_script_simulation(recorder: Any = None) -> Any:
    """The scripted run of exercise 4, run to its end: the Hold plugin, and HOLD_SCRIPT played on
    the waiting pods through the framework handle (a call for a pod that no longer waits does
    nothing, as upstream's GetWaitingPod then returns nil)."""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import load_config_data
    from ksched_edu.framework.plugins.registry import new_in_tree_registry
    from ksched_edu.framework.runtime import merge_registries
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import Recorder

    registry = merge_registries(new_in_tree_registry(), {HOLD: lambda args, handle: _Hold()})
    sim = Simulation(load_cluster([project_path(p) for p in HOLD_CLUSTER]), load_config_data(_HOLD_CONFIG), seed=1,
                     recorder=recorder if recorder is not None else Recorder(), registry=registry)
    fwk = sim.scheduler.profiles["default-scheduler"]

    def act(action: str, pod: str) -> None:
        found: list[Any] = []
        fwk.iterate_over_waiting_pods(lambda wp: found.append(wp) if wp.pod.key == pod else None)
        for wp in found:
            wp.allow(HOLD) if action == "allow" else wp.reject(HOLD, "rejected by the script")

    for time, action, pod in HOLD_SCRIPT:
        sim.clock.call_at(time, lambda a=action, p=pod: act(a, p), label=f"{action} {pod}")
    return sim.run(until=VIRTUAL_SECONDS)


def permit_outcomes(recorder: Any = None) -> dict[str, str]:
    """How each pod's first wait at Permit ended in the scripted run: "allowed", "rejected" or
    "timeout", read off the PermitEvents of the trace."""
    from ksched_edu.trace import PermitEvent, Recorder

    rec = recorder if recorder is not None else Recorder()
    if not rec.events:
        permit_script_simulation(rec)
    first: dict[str, str] = {}
    for e in rec.of(PermitEvent):
        if e.kind in OUTCOMES and e.pod not in first:
            first[e.pod] = e.kind
    return first


def check_permit_outcomes(predicted: Any) -> bool:
    """Is ``predicted`` (pod -> "allowed", "rejected" or "timeout") how each pod's first wait at Permit ended?"""
    hint = _("a wait ends at the first of: every plugin it waits for calls Allow; someone calls Reject; its own "
             "timer runs out (upstream's 'rejected due to timeout'). Once it has ended, the pod no longer waits, "
             "and a later Allow or Reject for it does nothing.")
    return _verdict_on_pod_predictions(
        predicted, permit_outcomes, OUTCOMES, hint=hint, kind="outcome", not_choices=_("{unknown} are not outcomes."),
        choices_hint=_('use "allowed", "rejected" or "timeout".'),
        named=lambda predicted, actual: _("you named {named} pod(s); {waited} pods waited at Permit.").format(
            named=len(predicted), waited=len(actual)),
        names_hint=_("name each pod of HOLD_TIMEOUTS, as namespace/name."), sep=" ")
