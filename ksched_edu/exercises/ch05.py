"""Checks for chapter 05 (the binding cycle: assume, Permit, PreBind, Bind, PostBind).

``check_team_permit`` runs a learner's Permit plugin in a scheduler and reads
where the pods ended; ``check_pods_binding`` compares a count with the
assume/bound events of pods that arrive 0.2 s apart.
"""
from __future__ import annotations

from typing import Any

from ksched_edu.exercises.core import call_answer, failed, is_unanswered, passed, project_path

TEAM_PERMIT = "TeamPermit"
NO_TEAM_REASON = "pod has no team label"
TEAM_CLUSTER = ("data/clusters/three-nodes.yaml", "data/workloads/team-pods.yaml")
ARRIVALS = ("data/clusters/three-nodes.yaml", "data/workloads/arrivals-every-200ms.yaml")
BIND_LATENCY = 0.5

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


def check_team_permit(factory: Any) -> bool:
    """Does ``factory(args, handle)`` build a Permit plugin that lets team pods through and rejects the rest?"""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import load_config_data
    from ksched_edu.framework.plugins.registry import new_in_tree_registry
    from ksched_edu.framework.runtime import merge_registries
    from ksched_edu.sim.simulation import Simulation

    if is_unanswered(factory) or not callable(factory):
        return failed("no plugin factory yet.", hint="define `def new_team_permit(args, handle): return TeamPermit()`.")
    ok, plugin = call_answer(factory, None, None)
    if not ok and isinstance(plugin, NotImplementedError):
        return failed("the factory is not written yet.", hint="return a TeamPermit object from new_team_permit.")
    if not ok:
        return failed(f"the factory raised {type(plugin).__name__}: {plugin}",
                      hint="the factory takes (args, handle) and returns the plugin object.")
    name = _plugin_name(plugin)
    if name != TEAM_PERMIT:
        return failed(f"the plugin's name() is {name!r}.", hint=f"name() must return {TEAM_PERMIT!r}.")
    if not callable(getattr(plugin, "permit", None)):
        return failed("the plugin has no permit method.",
                      hint="add `def permit(self, state, pod, node_name)` returning (status, timeout).")
    registry = merge_registries(new_in_tree_registry(), {TEAM_PERMIT: factory})
    cluster = load_cluster([project_path(p) for p in TEAM_CLUSTER])
    sim = Simulation(cluster, load_config_data(_TEAM_CONFIG), seed=0, registry=registry)
    try:
        sim.run()
    except NotImplementedError:
        return failed("the plugin is not written yet (NotImplementedError).",
                      hint="fill in permit: return (None, 0) to allow, (new_status(Code.Unschedulable, ...), 0) to refuse.")
    except Exception as err:  # a learner's plugin may fail in any way
        return failed(f"the scheduler stopped: {type(err).__name__}: {err}",
                      hint="permit returns a pair: (None or a Status, a timeout in seconds).")
    return _judge_team_placements(sim.placements(), {p.key: p for p in cluster.pending_pods})


def _plugin_name(plugin: Any) -> Any:
    ok, name = call_answer(getattr(plugin, "name", lambda: None))
    return name if ok else None


def _judge_team_placements(placements: list, pods: dict) -> bool:
    for p in placements:
        has_team = "team" in pods[p.pod].metadata.labels
        if has_team and p.node is None:
            return failed(f"{p.pod} has a team label but was not bound ({p.message}).",
                          hint="return None (Success) for a pod whose labels have 'team'.")
        if not has_team and p.node is not None:
            return failed(f"{p.pod} has no team label but was bound to {p.node}.",
                          hint="return new_status(Code.Unschedulable, ...) for a pod without it.")
        if not has_team and NO_TEAM_REASON not in (p.message or ""):
            return failed(f"{p.pod} was refused with {p.message!r}.",
                          hint=f"give the reason {NO_TEAM_REASON!r}.")
    bound = sum(1 for p in placements if p.node)
    return passed(f"{bound} team pod(s) bound, {len(placements) - bound} refused at Permit: "
                  f"{next(p.message for p in placements if not p.node)}")


def check_pods_binding(predicted: Any, pod: str = "default/job-3") -> bool:
    """When ``pod``'s first cycle began, how many pods were assumed but not yet bound?"""
    if is_unanswered(predicted):
        return failed("no prediction yet.", hint="set `predicted` to a whole number of pods.")
    binding = pods_binding_when(pod)
    if predicted == len(binding):
        return passed(f"{len(binding)} pod(s) were assumed and still binding when {pod} was scheduled: "
                      f"{', '.join(binding)}.")
    return failed(f"{predicted} is not the number of pods still binding when {pod} was scheduled.",
                  hint=f"pods arrive every 0.2 s and bind {BIND_LATENCY} s after their cycle: which pods "
                       f"were scheduled less than {BIND_LATENCY} s before {pod}?")


def pods_binding_when(pod: str) -> list[str]:
    """Pods assumed before ``pod``'s first cycle and bound after it began, read off the trace of
    the arrivals workload with a binding latency."""
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.sim.workload import load_workload
    from ksched_edu.trace import BindEvent, CycleEvent, Recorder

    rec = Recorder()
    workload = load_workload([project_path(p) for p in ARRIVALS])
    sim = Simulation.from_workload(workload, default_config(), seed=0, recorder=rec, bind_latency=BIND_LATENCY)
    sim.run()
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
    Simulation(load_cluster([project_path(p) for p in OVERLAP]), default_config(), seed=0, recorder=rec).run()
    upstream = {v: k for k, v in QUEUE_NAMES.items()}
    first: dict[str, str] = {}
    for e in rec.of(QueueEvent):
        if e.action == "requeue" and e.queue in upstream and e.pod not in first:
            first[e.pod] = upstream[e.queue]
    return first


def check_first_failure_queues(predicted: Any) -> bool:
    """Is ``predicted`` (pod -> "backoffQ" or "unschedulablePods") where each failing pod of the
    overlap scenario waited after its first failure?"""
    hint = ("a pod that fails goes to backoffQ when a move request came during its cycle (the bind of the "
            "pod scheduled just before it, landing while it was tried); otherwise to unschedulablePods. "
            "Which pod's scheduling cycle came right before each failing pod's, and did it bind?")
    actual = first_failure_queues()
    if is_unanswered(predicted) or not isinstance(predicted, dict):
        return failed("predicted is not a dict {pod: queue} yet.", hint=hint)
    unknown = sorted(str(v) for v in predicted.values() if v not in QUEUE_NAMES)
    if unknown:
        return failed(f"{unknown} are not queue names.", hint='use "backoffQ" or "unschedulablePods".')
    if set(predicted) != set(actual):
        return failed(f"you named {sorted(predicted)}; the pods that failed are {len(actual)}.",
                      hint="which pods can never fit? name each of them, as namespace/name.")
    wrong = sorted(pod for pod in actual if predicted[pod] != actual[pod])
    if wrong:
        return failed(f"{len(wrong)} of {len(actual)} predictions are wrong: {', '.join(wrong)}.", hint=hint)
    return passed("right: " + ", ".join(f"{pod} → {queue}" for pod, queue in sorted(actual.items())) + ".")
