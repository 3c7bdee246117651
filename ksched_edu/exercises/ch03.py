"""Checks for chapter 03 (the scheduling framework).

``check_score_plugin`` takes the learner's plugin registry and configuration,
builds a Simulation of the teaching cluster with them, runs it within the
wall-clock and virtual-clock bounds of :func:`run_learner_simulation`, and
reads from the trace whether their own Score plugin ran and where
``default/web`` landed (it lands on n3 with the default profile; the exercise
asks for n1). When the plugin returns an Error, the verdict quotes the
cycle's error text.

``check_pre_enqueue_count`` compares a prediction with the number of
PreEnqueue calls the trace records for ``default/web`` in a scenario of node
label changes (PreEnqueue runs each time a pod would enter activeQ).
"""
from __future__ import annotations

import copy
import time
from typing import Any, Optional

from ksched_edu.exercises import core
from ksched_edu.exercises.core import (call_answer, cycle_errors, describe_exception, failed, is_unanswered, passed,
                                       project_path, run_learner_simulation)
from ksched_edu.i18n import N_, _

TEACHING_CLUSTER = "data/clusters/three-nodes.yaml"
POD = "default/web"
TARGET = "n1"
# How long a learner's plugin may run (wall clock: None is core.TIME_LIMIT_SECONDS, as it is when the
# check runs; building the scheduler and running it share it) and how far its simulation may go
# (virtual clock).
SECONDS: Optional[float] = None
VIRTUAL_SECONDS = 120.0

SCORE_HINT = N_("define a class with name(), score(state, pod, node_name) -> (int, None) and score_extensions() -> None; "
              "registry = merge_registries(new_in_tree_registry(), {NAME: lambda args, handle: YourPlugin(handle)}); "
              "config = load_config_data(...) with a profile whose plugins.score.enabled lists NAME with a weight")


def check_score_plugin(registry: Any, config: Any) -> bool:
    """Does a profile of ``config`` built from ``registry`` run an out-of-tree Score plugin that sends web to n1?"""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.types import KubeSchedulerConfiguration
    from ksched_edu.framework.plugins.registry import IN_TREE_PLUGINS
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import PluginEvent, Recorder

    if is_unanswered(registry) or not isinstance(registry, dict):
        return failed(_("registry is not a plugin registry (a dict name -> factory) yet."), hint=_(SCORE_HINT))
    if is_unanswered(config) or not isinstance(config, KubeSchedulerConfiguration):
        return failed(_("config is not a KubeSchedulerConfiguration yet (load_config_data returns one)."),
                      hint=_(SCORE_HINT))
    own = sorted(set(registry) - set(IN_TREE_PLUGINS))
    if not own:
        return failed(_("the registry holds only in-tree plugins."), hint=_(SCORE_HINT))
    rec = Recorder()
    deadline = time.monotonic() + (core.TIME_LIMIT_SECONDS if SECONDS is None else SECONDS)
    ok, sim = call_answer(Simulation, load_cluster(project_path(TEACHING_CLUSTER)), config, seed=1, recorder=rec,
                          registry=registry, seconds=_time_left(deadline))
    if not ok:  # the factory or the profile failed
        return failed(_("the scheduler could not run with your plugin: {reason}").format(
            reason=describe_exception(sim)), hint=_(SCORE_HINT))
    stopped = run_learner_simulation(sim, until=VIRTUAL_SECONDS, seconds=_time_left(deadline))
    errors = cycle_errors(rec, POD)
    if errors:
        # Translators: {error} is the scheduler's error text, in English, as kubectl describe pod shows it.
        return failed(_("{pod}'s scheduling cycle failed: {error}").format(pod=POD, error=errors[0]),
                      hint=_("score returns a pair (a score from 0 to 100, None): None is Success; "
                             "a Status with Code.Error fails the whole cycle"))
    if stopped is not None:
        return failed(_("the scheduler could not run with your plugin: {reason}").format(reason=stopped),
                      hint=_("score must return at once, without raising: (a score, None)"))
    scored = sorted({e.plugin for e in rec.of(PluginEvent) if e.point == "Score" and e.plugin in own})
    if not scored:
        return failed(_("no Score call of {plugins} is in the trace: the profile does not enable it at score.").format(
            plugins=", ".join(own)), hint=_(SCORE_HINT))
    node = next((p.node for p in sim.placements() if p.pod == POD), None)
    if node != TARGET:
        scores = {e.node: e.weighted_score for e in rec.of(PluginEvent) if e.point == "Score" and e.plugin in scored}
        return failed(_("{pod} lands on {node}; {plugin} gave the weighted scores {scores}.").format(
            pod=POD, node=node, plugin=scored[0], scores=scores),
                      hint=_("give n1's zone a high score (up to 100) and the others 0, with a weight of at least 1; "
                             "n3 led by 13 points without your plugin"))
    return passed(_("{plugins} scored every feasible node, and {pod} now lands on {target}.").format(
        plugins=", ".join(scored), pod=POD, target=TARGET))


def _time_left(deadline: float) -> float:
    """What is left of the check's wall-clock limit."""
    return max(0.05, deadline - time.monotonic())


# --- exercise 2: how many times does PreEnqueue run? ------------------------------------------

GATE = "Doorman"
OPEN_LABEL = "example.com/open"
# (time, label key, value) set on n1: two changes that do not open it, then the one that does.
DOORMAN_EVENTS = ((0.5, "example.com/maintenance", "done"), (6.5, "example.com/rack", "r7"),
                  (9.5, OPEN_LABEL, "true"))

_DOORMAN_CONFIG = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    preEnqueue:
      enabled:
      - name: Doorman
    filter:
      enabled:
      - name: Doorman
"""


class _Doorman:
    """PreEnqueue: lets every pod in. Filter: no node fits until it carries example.com/open=true."""

    def name(self) -> str:
        return GATE

    def pre_enqueue(self, pod: Any) -> None:
        return None

    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        from ksched_edu.framework.interface import Code, new_status

        if node_info.node().metadata.labels.get(OPEN_LABEL) == "true":
            return None
        return new_status(Code.Unschedulable, "node is not open yet")


def doorman_run(events: tuple = DOORMAN_EVENTS) -> Any:
    """The teaching cluster with the Doorman plugin, n1's labels changed at the given times; run to the end."""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import load_config_data
    from ksched_edu.framework.plugins.registry import new_in_tree_registry
    from ksched_edu.framework.runtime import merge_registries
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import Recorder

    registry = merge_registries(new_in_tree_registry(), {GATE: lambda args, handle: _Doorman()})
    sim = Simulation(load_cluster(project_path(TEACHING_CLUSTER)), load_config_data(_DOORMAN_CONFIG), seed=1,
                     recorder=Recorder(), registry=registry)

    def relabel(key: str, value: str) -> None:
        node = copy.deepcopy(sim.api.get("Node", "", "n1"))
        node.metadata.labels[key] = value
        sim.api.update(node)

    for at, key, value in events:
        sim.clock.call_at(at, lambda k=key, v=value: relabel(k, v), label=f"label n1 {key}={value}")
    return sim.run()


def pre_enqueue_entries(sim: Any, pod: str = POD) -> list[tuple[float, str]]:
    """(time, why) of each PreEnqueue call of the Doorman for ``pod``, read off the trace: the queue event
    recorded right after the call names the move that ran it."""
    from ksched_edu.trace import PluginEvent, QueueEvent

    out: list[tuple[float, str]] = []
    waiting: Optional[float] = None
    for e in sim.recorder.events:
        if isinstance(e, PluginEvent) and e.point == "PreEnqueue" and e.plugin == GATE and e.pod == pod:
            waiting = e.time
        elif isinstance(e, QueueEvent) and e.pod == pod and waiting is not None:
            out.append((waiting, e.event))
            waiting = None
    return out


def check_pre_enqueue_count(predicted: Any) -> bool:
    """How many times does the Doorman's PreEnqueue run for default/web in the DOORMAN_EVENTS scenario?"""
    if is_unanswered(predicted):
        return failed(_("no prediction yet."), hint=_("set `predicted` to a whole number of PreEnqueue calls."))
    if isinstance(predicted, bool) or not isinstance(predicted, int):
        return failed(_("{predicted!r} is not a whole number.").format(predicted=predicted),
                      hint=_("set `predicted` to an int, e.g. 2."))
    entries = pre_enqueue_entries(doorman_run())
    if predicted == len(entries):
        when = ", ".join(f"t={t:g}s ({why})" for t, why in entries)
        return passed(_("the Doorman's PreEnqueue ran {count} times for {pod}: {when}.").format(
            count=len(entries), pod=POD, when=when))
    return failed(_("{predicted} is not the number of PreEnqueue calls for {pod}.").format(predicted=predicted,
                                                                                          pod=POD),
                  hint=_("PreEnqueue runs each time the pod would enter activeQ: when it is added, when a flush "
                         "takes it out of backoffQ (every whole second), when an event moves it straight to activeQ "
                         "(its backoff over); a move into backoffQ runs none (addToActiveQ and its callers, "
                         "internal/queue/scheduling_queue.go L560-578, L830-861, L1131-1169). Backoff after the 1st, "
                         "2nd, 3rd failure: 1 s, 2 s, 4 s, counted from the failure."))
