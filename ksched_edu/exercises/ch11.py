"""Checks for chapter 11 (the capstone: a gang- and GPU-topology-aware plugin set).

``check_gang_gpu`` takes the learner's factory of ``GangGPU`` and asks the plugin,
one extension point at a time, about the pods of ``data/clusters/capstone-probe.yaml``
(QueueSort's order, PreFilter on a gang that lacks members, Filter on nodes that can
never, not now, or can hold a 4-GPU NVLink set, Score's range, Permit's wait), with the
status codes each answer must carry. Then it runs the chapter's workload with the
plugin's profile and reads from the trace that every gang was placed whole, on NVLink
sets, leaving fewer GPUs stranded than the stock profile does.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Optional

from ksched_edu.exercises import core
from ksched_edu.exercises.core import (call_answer, cycle_errors, describe_exception, failed, is_unanswered, passed,
                                       project_path, run_learner_simulation)
from ksched_edu.framework.interface import MAX_NODE_SCORE, Code, Status

NAME = "GangGPU"
CLUSTER = "data/clusters/capstone-gpu-lab.yaml"
PROBE = "data/clusters/capstone-probe.yaml"
WORKLOAD = "data/workloads/capstone-jobs.yaml"
PROFILE = "default-scheduler"
# How far (virtual seconds) the check lets the workload run: it ends near 650 s; a plugin that keeps
# failing keeps its pods retrying, and this ends them.
VIRTUAL_LIMIT = 2000.0
# How often (virtual seconds) the run is sampled for stranded GPUs, as chapter 11 samples it.
SAMPLE_EVERY = 5.0

# The learner's profile (the one the chapter enables) and the stock one it is compared with.
CONFIG = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    queueSort:
      enabled: [{name: GangGPU}]
      disabled: [{name: "*"}]
    preFilter: {enabled: [{name: GangGPU}]}
    filter: {enabled: [{name: GangGPU}]}
    score: {enabled: [{name: GangGPU, weight: 10}]}
    reserve: {enabled: [{name: GangGPU}]}
    permit: {enabled: [{name: GangGPU}]}
    preBind: {enabled: [{name: GangGPU}]}
"""
STOCK_CONFIG = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    queueSort:
      enabled: [{name: Coscheduling}]
      disabled: [{name: "*"}]
    preFilter: {enabled: [{name: Coscheduling}]}
    postFilter: {enabled: [{name: Coscheduling}]}
    permit: {enabled: [{name: Coscheduling}]}
    reserve: {enabled: [{name: Coscheduling}]}
  pluginConfig:
  - name: Coscheduling
    args: {permitWaitingTimeSeconds: 60, podGroupBackoffSeconds: 20}
"""

# The probe cluster's pods and nodes (see data/clusters/capstone-probe.yaml).
MEMBER, SIBLING, LONELY, SOLO = "full-0", "full-1", "lonely-0", "solo"
# Filter of MEMBER (4 GPUs, NVLink): node -> the code it must get (None: kept).
FILTER_EXPECTED: dict[str, Optional[Code]] = {
    "pcie-a": Code.UnschedulableAndUnresolvable,  # no NVLink at all
    "ws-a": Code.UnschedulableAndUnresolvable,  # NVLink pairs only
    "a100-a": Code.Unschedulable,  # an A100 with 2 of 8 GPUs free
    "a100-b": None,  # an idle A100
}
FILTER_HINTS = {
    ("pcie-a", None): "pcie-a has no NVLink: keep a node only when best_subset finds a free set with the "
                      "pod's constraint.",
    ("pcie-a", Code.Unschedulable): "pcie-a has no NVLink set of 4 even when idle; no wait and no preemption "
                                    "can change that, so reject it with Code.UnschedulableAndUnresolvable.",
    ("ws-a", None): "ws-a has NVLink pairs only: keep a node only when best_subset finds a free set with the "
                    "pod's constraint.",
    ("ws-a", Code.Unschedulable): "ws-a has no NVLink set of 4 even when idle: Code.UnschedulableAndUnresolvable.",
    ("a100-a", None): "6 of a100-a's GPUs are in use: count them with gpus_in_use(node_info, top, self.ledger) "
                      "and search only its free_mask.",
    ("a100-a", Code.UnschedulableAndUnresolvable): "a100-a would hold the set once its GPUs are free (or "
                                                   "preemption frees them): that is Code.Unschedulable; keep "
                                                   "UnschedulableAndUnresolvable for nodes that never can.",
    ("a100-b", Code.Unschedulable): "a100-b is idle and its 8 GPUs sit on NVSwitch: return None for it.",
    ("a100-b", Code.UnschedulableAndUnresolvable): "a100-b is idle and its 8 GPUs sit on NVSwitch: return None.",
}
STATUS_HINT = 'return None to keep the node or a Status to reject it (new_status(Code.Unschedulable, "why"))'

Verdict = Optional[tuple[str, str]]  # None, or (what went wrong, the hint)


def check_gang_gpu(factory: Any, seconds: Any = None) -> bool:
    """Does ``factory(args, handle)`` build a GangGPU that answers each extension point as it must,
    and places the chapter's gangs whole, on NVLink sets, with fewer stranded GPUs than the stock profile?

    The learner's code runs within ``seconds`` of wall time per call (default: the module's limit);
    the workload within ``VIRTUAL_LIMIT`` seconds of virtual time.
    """
    limit = core.TIME_LIMIT_SECONDS if seconds is None else seconds
    for step in (_check_factory, _check_points, _check_run):
        verdict = step(factory, limit)
        if isinstance(verdict, str):
            return passed(verdict)
        if verdict is not None:
            return failed(*verdict)
    return failed("the check found nothing to say.", hint="run the cells above this one first.")


# --- the factory and the profile ---------------------------------------------------------------


def _check_factory(factory: Any, limit: float) -> Verdict:
    if is_unanswered(factory) or not callable(factory):
        return ("no plugin factory yet.", "define `def new_gang_gpu(args, handle): return GangGPU(GPUTopologyArgs(), "
                                          "handle)`.")
    ok, plugin = call_answer(factory, None, None, seconds=limit)
    if not ok:
        if isinstance(plugin, NotImplementedError):
            return ("the factory is not written yet.", "return a GangGPU object from new_gang_gpu(args, handle).")
        return (f"the factory failed: {describe_exception(plugin)}",
                "the factory takes (args, handle): return GangGPU(GPUTopologyArgs(), handle).")
    if plugin is None:
        return ("the factory returned None.", "end new_gang_gpu with `return GangGPU(GPUTopologyArgs(), handle)`.")
    ok, name = call_answer(getattr(plugin, "name", lambda: None), seconds=limit)
    if not ok or name != NAME:
        shown = describe_exception(name) if not ok else repr(name)
        return (f"the plugin's name() is {shown}.", f"name() must return {NAME!r}.")
    missing = [m for m in ("less", "pre_filter", "filter", "score", "permit", "reserve", "pre_bind")
               if not callable(getattr(plugin, m, None))]
    if missing:
        return (f"GangGPU has no {missing[0]} method.",
                f"GangGPU extends GPUTopology (Reserve, PreBind) and adds def {missing[0]}(...) "
                f"for its {_POINT[missing[0]]} extension point.")
    return None


_POINT = {"less": "QueueSort", "pre_filter": "PreFilter", "filter": "Filter", "score": "Score",
          "permit": "Permit", "reserve": "Reserve", "pre_bind": "PreBind"}


def _simulation(config: str, factory: Optional[Callable[..., Any]], paths: list[str], recorder: Any = None) -> Any:
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import load_config_data
    from ksched_edu.framework.plugins.registry import new_registry_with_out_of_tree
    from ksched_edu.framework.runtime import merge_registries
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.sim.workload import load_workload
    from ksched_edu.trace import Recorder

    registry = new_registry_with_out_of_tree()
    if factory is not None:
        registry = merge_registries(registry, {NAME: factory})
    files = [project_path(p) for p in paths]
    rec = recorder if recorder is not None else Recorder()
    if any("workloads" in p for p in paths):
        return Simulation.from_workload(load_workload(files), load_config_data(config), seed=1, recorder=rec,
                                        registry=registry)
    return Simulation(load_cluster(files), load_config_data(config), seed=1, recorder=rec, registry=registry)


# --- one extension point at a time --------------------------------------------------------------


def _check_points(factory: Any, limit: float) -> Verdict:
    ok, sim = call_answer(_simulation, CONFIG, factory, [CLUSTER, PROBE], seconds=limit)
    if not ok:
        return (f"the profile could not be built with GangGPU: {describe_exception(sim)}",
                "GangGPU extends GPUTopology and new_gang_gpu returns GangGPU(GPUTopologyArgs(), handle).")
    sched = sim.scheduler
    fwk = sched.profiles[PROFILE]
    plugin = fwk.plugins_map[NAME]
    sched.cache.update_snapshot(sched.node_info_snapshot)
    pods = {p.metadata.name: p for p in sim.api.list("Pod")}
    nodes = {i.name: i for i in sched.node_info_snapshot.node_info_list}
    for probe in (_probe_queue_sort, _probe_pre_filter, _probe_filter, _probe_score, _probe_permit):
        verdict = probe(plugin, pods, nodes, limit)
        if verdict is not None:
            return verdict
    return None


def _queued(pod: Any, timestamp: float) -> Any:
    from ksched_edu.framework.types import PodInfo, QueuedPodInfo

    return QueuedPodInfo(PodInfo.of(pod), timestamp=timestamp, initial_attempt_timestamp=timestamp)


def _probe_queue_sort(plugin: Any, pods: dict, nodes: dict, limit: float) -> Verdict:
    member, lonely, sibling, solo = (_queued(pods[n], t) for n, t in
                                     ((MEMBER, 0.0), (LONELY, 1.0), (SIBLING, 2.0), (SOLO, 3.0)))
    ok, first = call_answer(plugin.less, solo, member, seconds=limit)
    if not ok:
        return _raised("less (QueueSort)", first, "return True when the first pod should leave the queue first.")
    if not isinstance(first, bool):
        return (f"less returned {_shown(first)}.", "QueueSort's less(a, b) returns a bool: True when a goes first.")
    ok, second = call_answer(plugin.less, member, solo, seconds=limit)
    if not ok:
        return _raised("less (QueueSort)", second, "return True when the first pod should leave the queue first.")
    if not first or second:
        return ("the inference pod (priority 100000) does not leave the queue before a training member (1000).",
                "compare pod_priority(a.pod) and pod_priority(b.pod) first: the higher goes first.")
    try:
        with core.time_limit(limit):
            order = sorted([member, lonely, sibling],
                           key=functools.cmp_to_key(lambda a, b: -1 if plugin.less(a, b) else
                                                    (1 if plugin.less(b, a) else 0)))
    except Exception as exc:
        return _raised("less (QueueSort)", exc, "compare by priority, then by the pod-group label, then by arrival.")
    names = [q.pod.metadata.name for q in order]
    if abs(names.index(MEMBER) - names.index(SIBLING)) != 1:
        return (f"the queue orders {', '.join(names)}: gang probe-full is split by {LONELY}.",
                "at equal priority, compare pods of different gangs by their pod-group label, so that a gang's "
                "members leave the queue one after another.")
    return None


def _probe_pre_filter(plugin: Any, pods: dict, nodes: dict, limit: float) -> Verdict:
    from ksched_edu.framework.cycle_state import CycleState

    for name, must_reject in ((LONELY, True), (MEMBER, False), (SOLO, False)):
        ok, answer = call_answer(plugin.pre_filter, CycleState(), pods[name], seconds=limit)
        if not ok:
            return _raised("pre_filter", answer, "look the PodGroup up with handle.object_lister().get(\"PodGroup\", "
                                                 "namespace, name) and count its pods.")
        if not (isinstance(answer, tuple) and len(answer) == 2):
            return (f"pre_filter returned {_shown(answer)}.",
                    "PreFilter returns a pair: (None, None) to go on, (None, Status) to reject "
                    "(return super().pre_filter(state, pod) at the end).")
        status = answer[1]
        bad = _not_a_status("pre_filter", status)
        if bad is not None:
            return bad
        code = _code(status)
        if must_reject and code != Code.UnschedulableAndUnresolvable:
            if code == Code.Unschedulable:
                return (f"pre_filter rejected {LONELY} (1 of its gang's 3 members exists) as Unschedulable.",
                        "a gang that lacks members cannot be helped by any node or by preemption: return "
                        "Code.UnschedulableAndUnresolvable, so that preemption does not try.")
            said = "no rejection" if code is None else _code_name(code)
            return (f"pre_filter let {LONELY} through ({said}), though only 1 of its gang's 3 members exists.",
                    "count the pods with the pod's scheduling.x-k8s.io/pod-group label and compare with the "
                    "PodGroup's spec.min_member; too few: new_status(Code.UnschedulableAndUnresolvable, why).")
        if not must_reject and code is not None and code not in (Code.Success,):
            return (f"pre_filter answered {name} with {_code_name(code)}.",
                    "a pod whose gang is complete (or that has no gang) goes on: return "
                    "super().pre_filter(state, pod), which reads its GPU request for Filter.")
    return None


def _probe_filter(plugin: Any, pods: dict, nodes: dict, limit: float) -> Verdict:
    from ksched_edu.framework.cycle_state import CycleState

    state = CycleState()
    call_answer(plugin.pre_filter, state, pods[MEMBER], seconds=limit)  # Filter's own call reports a failure
    for node, want in FILTER_EXPECTED.items():
        ok, status = call_answer(plugin.filter, state, pods[MEMBER], nodes[node], seconds=limit)
        if not ok:
            return _raised("filter", status, "read the request PreFilter wrote (state.read(PRE_FILTER_STATE_KEY)) "
                                             "and the node's topology (self.catalog.for_node(node)).")
        bad = _not_a_status("Filter", status, f" on {node}")
        if bad is not None:
            return bad
        code = _code(status)
        if code == want:
            if code is not None and not status.reasons:
                return (f"Filter rejected {node} without a reason.",
                        'give the Status a reason: new_status(code, "why"); the pod\'s message lists it.')
            continue
        if code not in (None, Code.Unschedulable, Code.UnschedulableAndUnresolvable):
            return (f"Filter answered {node} with {_code_name(code)}.",
                    "Filter keeps a node (None) or rejects it with Code.Unschedulable (not now) or "
                    "Code.UnschedulableAndUnresolvable (never); Code.Error means the plugin itself failed.")
        return (f"Filter answered {node} for a 4-GPU NVLink member with {_code_name(code)}, not {_code_name(want)}.",
                FILTER_HINTS[(node, code)])
    solo_state = CycleState()
    call_answer(plugin.pre_filter, solo_state, pods[SOLO], seconds=limit)
    ok, status = call_answer(plugin.filter, solo_state, pods[SOLO], nodes["pcie-a"], seconds=limit)
    if not ok:
        return _raised("filter", status, "a pod without a constraint needs free GPUs only.")
    bad = _not_a_status("Filter", status, " on pcie-a")
    if bad is not None:
        return bad
    if _code(status) is not None:
        return (f"Filter rejected pcie-a for {SOLO}, which asks for 1 GPU and no NVLink.",
                "search with the pod's own constraint (req.constraint), not always NVLink.")
    return None


def _probe_score(plugin: Any, pods: dict, nodes: dict, limit: float) -> Verdict:
    from ksched_edu.framework.cycle_state import CycleState

    for name, feasible in ((MEMBER, ("a100-b", "h100-a", "h100-b", "v100-a")), (SOLO, tuple(sorted(nodes)))):
        state = CycleState()
        call_answer(plugin.pre_filter, state, pods[name], seconds=limit)
        for node in feasible:
            ok, answer = call_answer(plugin.score, state, pods[name], node, seconds=limit)
            if not ok:
                return _raised("score", answer, "read the node with self.handle.snapshot_shared_lister()"
                                                ".node_infos().get(node_name).")
            if not (isinstance(answer, tuple) and len(answer) == 2):
                return (f"score returned {_shown(answer)} for {name} on {node}.",
                        "Score returns a pair: (the score, None).")
            value, status = answer
            bad = _not_a_status("Score", status, f" on {node}")
            if bad is not None:
                return bad
            if _code(status) is not None:
                return (f"Score answered {name} on {node} with {_code_name(_code(status))}.",
                        "Score ranks the nodes Filter kept: return (score, None).")
            if isinstance(value, bool) or not isinstance(value, int):
                return (f"score gave {name} on {node} {_shown(value)}.",
                        f"a score is a whole number from 0 to MAX_NODE_SCORE ({MAX_NODE_SCORE}): use // not /.")
            if not 0 <= value <= MAX_NODE_SCORE:
                return (f"score gave {name} {value} on {node}.",
                        f"keep every score within [0, MAX_NODE_SCORE] ({MAX_NODE_SCORE}): the runtime turns "
                        "any other value into an Error.")
    return None


def _probe_permit(plugin: Any, pods: dict, nodes: dict, limit: float) -> Verdict:
    from ksched_edu.framework.cycle_state import CycleState

    for name, must_wait in ((MEMBER, True), (SOLO, False)):
        ok, answer = call_answer(plugin.permit, CycleState(), pods[name], "a100-b", seconds=limit)
        if not ok:
            return _raised("permit", answer, "count the gang's members that hold a node in "
                                             "self.handle.snapshot_shared_lister().node_infos().list().")
        if not (isinstance(answer, tuple) and len(answer) == 2):
            return (f"permit returned {_shown(answer)} for {name}.",
                    "Permit returns a pair: (Status or None, timeout in seconds).")
        status, timeout = answer
        bad = _not_a_status("Permit", status)
        if bad is not None:
            return bad
        code = _code(status)
        if must_wait:
            if code != Code.Wait:
                return (f"permit answered {MEMBER} with {_code_name(code)} while no other member of its gang "
                        "holds a node.",
                        "a member whose gang is not complete waits: return new_status(Code.Wait), PERMIT_TIMEOUT; "
                        "the member that completes it allows the others.")
            if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0:
                return (f"permit asked {MEMBER} to wait with timeout {_shown(timeout)}.",
                        "give the wait a timeout in seconds (e.g. 60.0): when it runs out, the member is "
                        "unreserved and its GPUs are free again.")
        elif code is not None and code != Code.Success:
            return (f"permit answered {SOLO} (no gang) with {_code_name(code)}.",
                    "only gang members wait: a pod without the pod-group label gets (None, 0.0).")
    return None


# --- the whole workload ------------------------------------------------------------------------------


def _check_run(factory: Any, limit: float) -> Any:
    from ksched_edu.trace import Recorder
    from ksched_edu.viz.capstone import measure, members_without_nvlink_set

    rec = Recorder()
    ok, sim = call_answer(_simulation, CONFIG, factory, [CLUSTER, WORKLOAD], rec, seconds=limit)
    if not ok:
        return (f"the profile could not be built: {describe_exception(sim)}",
                "new_gang_gpu returns GangGPU(GPUTopologyArgs(), handle).")
    stopped = run_learner_simulation(sim, until=VIRTUAL_LIMIT, seconds=limit)
    errors = cycle_errors(rec)
    if errors:
        return (f"the scheduler could not run GangGPU: {errors[0]}",
                "Filter returns None or a Status, Score (score, None), Permit (Status or None, timeout); "
                "Code.Error means the plugin itself failed.")
    if stopped is not None:
        return (f"the scheduler stopped: {stopped}",
                "a gang member waits at Permit with a timeout, and the member that completes its gang allows "
                "the others.")
    # The same run again, sampled as it goes (the run above ended, so this one ends too).
    ok, mine = call_answer(lambda: measure(NAME, _simulation(CONFIG, factory, [CLUSTER, WORKLOAD]), SAMPLE_EVERY,
                                           VIRTUAL_LIMIT), seconds=limit)
    if not ok:
        return (f"the scheduler stopped: {describe_exception(mine)}", "each method returns what its point expects.")
    stock = measure("stock", _simulation(STOCK_CONFIG, None, [CLUSTER, WORKLOAD]))
    unplaced = [g.group for g in mine.gangs if g.placed is None]
    if unplaced:
        return (f"gang {unplaced[0]} was never placed whole.",
                "in permit, the member that completes its gang allows the waiting ones: "
                "self.handle.iterate_over_waiting_pods(lambda wp: wp.allow(self.name()) if ... same gang).")
    loose = members_without_nvlink_set(sim)
    if loose:
        return (f"{loose[0][0]} ran on {loose[0][1]}, a server without an NVLink set of 4.",
                "Filter must keep only nodes where best_subset finds the pod's constraint among the free GPUs.")
    if not mine.mean_stranded() < stock.mean_stranded():
        return (f"on average {mine.mean_stranded():.1f} GPUs were stranded on partly used nodes, "
                f"{stock.mean_stranded():.1f} with the stock profile.",
                "let pods that need no NVLink prefer nodes where no whole NVLink set is left to break "
                "(and pack: the fuller the node, the higher the score).")
    waits = [g.wait for g in mine.gangs]
    return (f"{NAME}: {len(mine.gangs)} gangs placed whole on NVLink sets (longest wait {max(waits):g} s); "
            f"{mine.mean_stranded():.1f} stranded GPUs on average against {stock.mean_stranded():.1f}; "
            f"{len(mine.preemptions)} preemption(s) against {len(stock.preemptions)}.")


# --- how an answer is shown ----------------------------------------------------------------------


def _code(status: Optional[Status]) -> Optional[Code]:
    """None for a kept node (None or Success), else the status's code."""
    if status is None or status.code == Code.Success:
        return None
    return status.code


def _code_name(code: Optional[Code]) -> str:
    return "None (kept)" if code is None else f"Code.{code.name}"


def _shown(value: Any) -> str:
    if isinstance(value, Code):
        return f"a bare Code (Code.{value.name})"
    if isinstance(value, Status):
        return f"a Status (Code.{value.code.name}) alone"
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def _not_a_status(point: str, value: Any, where: str = "") -> Verdict:
    if value is None or isinstance(value, Status):
        return None
    if isinstance(value, Code):
        return (f"{point} returned a bare Code (Code.{value.name}){where}.",
                f'wrap it in a Status: new_status(Code.{value.name}, "why"); {STATUS_HINT}.')
    return (f"{point} returned {_shown(value)}{where}.",
            f"{STATUS_HINT}, never a {type(value).__name__}.")


def _raised(method: str, exc: BaseException, hint: str) -> tuple[str, str]:
    if isinstance(exc, NotImplementedError):
        return (f"{method} is not written yet.", hint)
    return (f"{method} failed: {describe_exception(exc)}", hint)
