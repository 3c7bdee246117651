"""Checks for chapter 11 (the capstone: a gang- and GPU-topology-aware plugin set).

``check_gang_gpu`` takes the learner's factory of ``GangGPU`` and asks the plugin,
one extension point at a time, about the pods of ``data/clusters/capstone-probe.yaml``
(QueueSort: priority first, a consistent order, a gang's members together; PreFilter on a
gang that lacks members; Filter on nodes that can never, not now, or can hold a 4-GPU
NVLink set; Score's range; Permit's wait), with the status codes each answer must carry.
Then it runs the chapter's workload with the plugin's profile and reads from the trace
what the chapter's headline says: every gang placed whole, on NVLink sets, with less
waiting in all than the stock profile and fewer GPUs stranded on partly used servers.
The stock profile's numbers come from running it here, on the same workload.

All of the learner's code in one check shares one wall-clock budget (``seconds``, by
default ``core.TIME_LIMIT_SECONDS``): each call gets what is left of it, so an endless
method, wherever it is, ends the check once.
"""
from __future__ import annotations

import functools
import itertools
import time
from typing import Any, Callable, Optional

from ksched_edu.exercises import core
from ksched_edu.exercises.core import (CheckTimeout, call_answer, cycle_errors, describe_exception, failed,
                                       is_unanswered, passed, project_path)
from ksched_edu.framework.interface import MAX_NODE_SCORE, Code, Status
from ksched_edu.i18n import N_, _

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

# Where the contracts the check holds a plugin to are written (kubernetes v1.30.4, pkg/scheduler/).
CODES_GO = "framework/interface.go L87-107"
PREEMPTION_GO = "framework/preemption/preemption.go L415-432 (nodesWherePreemptionMightHelp)"
LESS_GO = "scheduler-plugins pkg/coscheduling/coscheduling.go L125-137"

# The probe cluster's pods and nodes (see data/clusters/capstone-probe.yaml).
MEMBER, SIBLING, LONELY, SOLO = "full-0", "full-1", "lonely-0", "solo"
# Filter of MEMBER (4 GPUs, NVLink): node -> the code it must get (None: kept). The hints name the Go as
# {codes} and {preemption}: CODES_GO and PREEMPTION_GO.
FILTER_EXPECTED: dict[str, Optional[Code]] = {
    "pcie-a": Code.UnschedulableAndUnresolvable,  # no NVLink at all
    "ws-a": Code.UnschedulableAndUnresolvable,  # NVLink pairs only
    "a100-a": Code.Unschedulable,  # an A100 with 2 of 8 GPUs free
    "a100-b": None,  # an idle A100
}
FILTER_HINTS = {
    ("pcie-a", None): N_("pcie-a has no NVLink: keep a node only when best_subset finds a free set with the "
                         "pod's constraint."),
    ("pcie-a", Code.Unschedulable): N_("pcie-a has no NVLink set of 4 even when idle; no wait and no preemption "
                                       "can change that, so reject it with Code.UnschedulableAndUnresolvable "
                                       "({codes}; preemption tries only Unschedulable nodes, {preemption})."),
    ("ws-a", None): N_("ws-a has NVLink pairs only: keep a node only when best_subset finds a free set with the "
                       "pod's constraint."),
    ("ws-a", Code.Unschedulable): N_("ws-a has no NVLink set of 4 even when idle: "
                                     "Code.UnschedulableAndUnresolvable ({codes})."),
    ("a100-a", None): N_("6 of a100-a's GPUs are in use: count them with gpus_in_use(node_info, top, self.ledger) "
                         "and search only its free_mask."),
    ("a100-a", Code.UnschedulableAndUnresolvable): N_("a100-a would hold the set once its GPUs are free (or "
                                                      "preemption frees them): that is Code.Unschedulable; keep "
                                                      "UnschedulableAndUnresolvable for nodes that never can "
                                                      "({codes}; {preemption})."),
    ("a100-b", Code.Unschedulable): N_("a100-b is idle and its 8 GPUs sit on NVSwitch: return None for it."),
    ("a100-b", Code.UnschedulableAndUnresolvable): N_("a100-b is idle and its 8 GPUs sit on NVSwitch: return None."),
}
STATUS_HINT = N_('return None to keep the node or a Status to reject it (new_status(Code.Unschedulable, "why"))')

Verdict = Optional[tuple[str, str]]  # None, or (what went wrong, the hint)

# The answer that last passed the check (what the learner copy's later cells wait for).
_passed_answer: Any = None


def check_gang_gpu(factory: Any, seconds: Any = None) -> bool:
    """Does ``factory(args, handle)`` build a GangGPU that answers each extension point as it must,
    and places the chapter's gangs whole, on NVLink sets, waiting less in all and stranding fewer GPUs
    than the stock profile?

    All of the learner's code shares ``seconds`` of wall time (default: the module's limit); the
    workload runs within ``VIRTUAL_LIMIT`` seconds of virtual time.
    """
    global _passed_answer
    clock = _Budget(core.TIME_LIMIT_SECONDS if seconds is None else seconds)
    for step in (_check_factory, _check_points, _check_run):
        verdict = step(factory, clock)
        if isinstance(verdict, str):
            _passed_answer = factory
            return passed(verdict)
        if verdict is not None:
            return failed(*verdict)
    return failed(_("the check found nothing to say."), hint=_("run the cells above this one first."))


def solution_checked(answer: Any) -> bool:
    """True when ``answer`` is the factory that last passed :func:`check_gang_gpu` in this kernel."""
    return answer is not None and answer is _passed_answer


class BudgetSpent(CheckTimeout):
    """The learner's code used up the wall time one check gives it (all its calls together)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(_("still running after {seconds:g} s, the time all of your code gets in this check").format(
            seconds=seconds))
        self.seconds = seconds


class _Budget:
    """One wall-clock budget for all of the learner's code in a check: each call gets what is left."""

    def __init__(self, seconds: float) -> None:
        self.seconds = float(seconds)
        self.end = time.monotonic() + self.seconds

    def call(self, fn: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
        """(True, result) or (False, the exception), as :func:`core.call_answer`, within what is left."""
        left = self.end - time.monotonic()
        if left <= 0:
            return False, BudgetSpent(self.seconds)
        ok, value = call_answer(fn, *args, seconds=left)
        if not ok and isinstance(value, CheckTimeout):
            value = BudgetSpent(self.seconds).with_traceback(value.__traceback__)
        return ok, value


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BudgetSpent):
        return _("your code is {error} (a loop that never ends?)").format(error=exc)
    return describe_exception(exc)


# --- the factory and the profile ---------------------------------------------------------------


def _check_factory(factory: Any, clock: _Budget) -> Verdict:
    if is_unanswered(factory) or not callable(factory):
        return (_("no plugin factory yet."), _("define `def new_gang_gpu(args, handle): return "
                                               "GangGPU(GPUTopologyArgs(), handle)`."))
    ok, plugin = clock.call(factory, None, None)
    if not ok:
        if isinstance(plugin, NotImplementedError):
            return (_("the factory is not written yet."), _("return a GangGPU object from new_gang_gpu(args, handle)."))
        return (_("the factory failed: {error}").format(error=_describe(plugin)),
                _("the factory takes (args, handle): return GangGPU(GPUTopologyArgs(), handle)."))
    if plugin is None:
        return (_("the factory returned None."),
                _("end new_gang_gpu with `return GangGPU(GPUTopologyArgs(), handle)`."))
    ok, name = clock.call(getattr(plugin, "name", lambda: None))
    if not ok or name != NAME:
        shown = _describe(name) if not ok else repr(name)
        return (_("the plugin's name() is {name}.").format(name=shown),
                _("name() must return {name!r}.").format(name=NAME))
    missing = [m for m in ("less", "pre_filter", "filter", "score", "permit", "reserve", "pre_bind")
               if not callable(getattr(plugin, m, None))]
    if missing:
        return (_("GangGPU has no {method} method.").format(method=missing[0]),
                _("GangGPU extends GPUTopology (Reserve, PreBind) and adds def {method}(...) "
                  "for its {point} extension point.").format(method=missing[0], point=_POINT[missing[0]]))
    return None


_POINT = {"less": "QueueSort", "pre_filter": "PreFilter", "filter": "Filter", "score": "Score",
          "permit": "Permit", "reserve": "Reserve", "pre_bind": "PreBind"}
_METHOD_HINT = {
    "less": N_("return True when the first pod should leave the queue first."),
    "pre_filter": N_('look the PodGroup up with handle.object_lister().get("PodGroup", namespace, name) and count '
                     "its pods."),
    "filter": N_("read the request PreFilter wrote (state.read(PRE_FILTER_STATE_KEY)) and the node's topology "
                 "(self.catalog.for_node(node))."),
    "score": N_("read the node with self.handle.snapshot_shared_lister().node_infos().get(node_name)."),
    "permit": N_("count the gang's members that hold a node in "
                 "self.handle.snapshot_shared_lister().node_infos().list()."),
    "reserve": N_("leave reserve to GPUTopology (do not override it)."),
    "pre_bind": N_("leave pre_bind to GPUTopology (do not override it)."),
}


def _learner_method(exc: BaseException) -> Optional[str]:
    """The extension-point method of the learner's own code the exception came out of, if any."""
    from pathlib import Path

    library = str(Path(__file__).resolve().parents[1])
    found = None
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name in _POINT and not code.co_filename.startswith(library):
            found = code.co_name
        tb = tb.tb_next
    return found


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


def _check_points(factory: Any, clock: _Budget) -> Verdict:
    ok, sim = clock.call(_simulation, CONFIG, factory, [CLUSTER, PROBE])
    if not ok:
        method = _learner_method(sim)
        if method is not None:  # the queue sorts the probe's pods as they arrive: less runs here first
            return _raised(f"{method} ({_POINT[method]})", sim, _(_METHOD_HINT[method]))
        return (_("the profile could not be built with GangGPU: {error}").format(error=_describe(sim)),
                _("GangGPU extends GPUTopology and new_gang_gpu returns GangGPU(GPUTopologyArgs(), handle)."))
    sched = sim.scheduler
    fwk = sched.profiles[PROFILE]
    plugin = fwk.plugins_map[NAME]
    sched.cache.update_snapshot(sched.node_info_snapshot)
    pods = {p.metadata.name: p for p in sim.api.list("Pod")}
    nodes = {i.name: i for i in sched.node_info_snapshot.node_info_list}
    for probe in (_probe_queue_sort, _probe_pre_filter, _probe_filter, _probe_score, _probe_permit):
        verdict = probe(plugin, pods, nodes, clock)
        if verdict is not None:
            return verdict
    return None


def _queued(pod: Any, timestamp: float) -> Any:
    from ksched_edu.framework.types import PodInfo, QueuedPodInfo

    return QueuedPodInfo(PodInfo.of(pod), timestamp=timestamp, initial_attempt_timestamp=timestamp)


# A pod in no gang with a training member's priority: the pod that tells a consistent order from one
# that compares gang members by their group and other pods by arrival.
PLAIN = "plain"


def _plain_pod(pods: dict) -> Any:
    from ksched_edu.api.deepcopy import deep_copy

    plain = deep_copy(pods[SOLO])
    plain.metadata.name, plain.metadata.uid = PLAIN, "plain-uid"
    plain.spec.priority_class_name, plain.spec.priority = pods[MEMBER].spec.priority_class_name, \
        pods[MEMBER].spec.priority
    return plain


def _probe_queue_sort(plugin: Any, pods: dict, nodes: dict, clock: _Budget) -> Verdict:
    member, lonely, sibling, solo = (_queued(pods[n], t) for n, t in
                                     ((MEMBER, 0.0), (LONELY, 1.0), (SIBLING, 2.0), (SOLO, 3.0)))
    ok, first = clock.call(plugin.less, solo, member)
    if not ok:
        return _raised("less (QueueSort)", first, _(_METHOD_HINT["less"]))
    if not isinstance(first, bool):
        return (_("less returned {value}.").format(value=_shown(first)),
                _("QueueSort's less(a, b) returns a bool: True when a goes first."))
    ok, second = clock.call(plugin.less, member, solo)
    if not ok:
        return _raised("less (QueueSort)", second, _(_METHOD_HINT["less"]))
    if not first or second:
        return (_("the inference pod (priority 100000) does not leave the queue before a training member (1000)."),
                _("compare pod_priority(a.pod) and pod_priority(b.pod) first: the higher goes first."))
    verdict = _probe_consistent_order(plugin, pods, clock)
    if verdict is not None:
        return verdict
    ok, order = clock.call(lambda: sorted([member, lonely, sibling], key=functools.cmp_to_key(
        lambda a, b: -1 if plugin.less(a, b) else (1 if plugin.less(b, a) else 0))))
    if not ok:
        return _raised("less (QueueSort)", order, _("compare by priority, then a time per pod, then the pod's name."))
    names = [q.pod.metadata.name for q in order]
    if abs(names.index(MEMBER) - names.index(SIBLING)) != 1:
        return (_("the queue orders {pods}: gang probe-full is split by {pod}.").format(pods=", ".join(names),
                                                                                        pod=LONELY),
                _("at equal priority, give every member of a gang the same time, its PodGroup's "
                  'metadata.creation_timestamp (handle.object_lister().get("PodGroup", namespace, name)), so that '
                  "a gang's members leave the queue one after another; {go} does so.").format(go=LESS_GO))
    return None


def _probe_consistent_order(plugin: Any, pods: dict, clock: _Budget) -> Verdict:
    """less over every pair of five queued pods must be a strict weak order: never a before a, never
    a before b and b before a, and both "before" and "neither before the other" transitive."""
    infos = [_queued(pods[LONELY], 1.0), _queued(_plain_pod(pods), 2.0), _queued(pods[MEMBER], 3.0),
             _queued(pods[SIBLING], 4.0), _queued(pods[SOLO], 0.0)]
    ok, before = clock.call(lambda: {(a, b): plugin.less(infos[a], infos[b])
                                     for a in range(len(infos)) for b in range(len(infos))})
    if not ok:
        return _raised("less (QueueSort)", before, _(_METHOD_HINT["less"]))
    odd = next((v for v in before.values() if not isinstance(v, bool)), None)
    if odd is not None:
        return (_("less returned {value}.").format(value=_shown(odd)),
                _("QueueSort's less(a, b) returns a bool: True when a goes first."))
    name = [i.pod.metadata.name for i in infos]
    hint = _("the queue is a heap: it needs one consistent order, or which pod leaves first depends on which pods "
             "it happens to compare. Give every pod one key and compare keys: priority, then one time per pod "
             "(its PodGroup's creation time, or when it first entered the queue when it is in no gang), then its "
             "namespace/name; read {go}. A rule that applies only when both pods are in gangs breaks it.").format(
                 go=LESS_GO)
    every = range(len(infos))
    for a in every:
        if before[a, a]:
            return (_("less({a}, {a}) is True: a pod cannot go before itself.").format(a=name[a]), hint)
    for a, b in itertools.combinations(every, 2):
        if before[a, b] and before[b, a]:
            return (_("less puts {a} before {b} and {b} before {a}.").format(a=name[a], b=name[b]), hint)
    for a, b, c in itertools.permutations(every, 3):
        if before[a, b] and before[b, c] and not before[a, c]:
            return (_("less is not a consistent order: it puts {a} before {b} and {b} before {c}, but not {a} "
                      "before {c}.").format(a=name[a], b=name[b], c=name[c]), hint)
        tie = lambda x, y: not before[x, y] and not before[y, x]
        if tie(a, b) and tie(b, c) and not tie(a, c):
            return (_("less is not a consistent order: it finds {a} and {b} equal, {b} and {c} equal, but not {a} "
                      "and {c}.").format(a=name[a], b=name[b], c=name[c]), hint)
    return None


def _probe_pre_filter(plugin: Any, pods: dict, nodes: dict, clock: _Budget) -> Verdict:
    from ksched_edu.framework.cycle_state import CycleState

    for name, must_reject in ((LONELY, True), (MEMBER, False), (SOLO, False)):
        ok, answer = clock.call(plugin.pre_filter, CycleState(), pods[name])
        if not ok:
            return _raised("pre_filter", answer, _(_METHOD_HINT["pre_filter"]))
        if not (isinstance(answer, tuple) and len(answer) == 2):
            return (_("pre_filter returned {value}.").format(value=_shown(answer)),
                    _("PreFilter returns a pair: (None, None) to go on, (None, Status) to reject "
                      "(return super().pre_filter(state, pod) at the end)."))
        status = answer[1]
        bad = _not_a_status("pre_filter", status)
        if bad is not None:
            return bad
        code = _code(status)
        if must_reject and code != Code.UnschedulableAndUnresolvable:
            if code == Code.Unschedulable:
                return (_("pre_filter rejected {pod} (1 of its gang's 3 members exists) as Unschedulable.").format(
                            pod=LONELY),
                        _("a gang that lacks members cannot be helped by any node or by preemption: return "
                          "Code.UnschedulableAndUnresolvable, so that preemption does not try ({codes}).").format(
                              codes=CODES_GO))
            said = _("no rejection") if code is None else _code_name(code)
            return (_("pre_filter let {pod} through ({said}), though only 1 of its gang's 3 members exists.").format(
                        pod=LONELY, said=said),
                    _("count the pods with the pod's scheduling.x-k8s.io/pod-group label and compare with the "
                      "PodGroup's spec.min_member; too few: new_status(Code.UnschedulableAndUnresolvable, why)."))
        if not must_reject and code is not None and code not in (Code.Success,):
            return (_("pre_filter answered {pod} with {code}.").format(pod=name, code=_code_name(code)),
                    _("a pod whose gang is complete (or that has no gang) goes on: return "
                      "super().pre_filter(state, pod), which reads its GPU request for Filter."))
    return None


def _probe_filter(plugin: Any, pods: dict, nodes: dict, clock: _Budget) -> Verdict:
    from ksched_edu.framework.cycle_state import CycleState

    state = CycleState()
    clock.call(plugin.pre_filter, state, pods[MEMBER])  # Filter's own call reports a failure
    for node, want in FILTER_EXPECTED.items():
        ok, status = clock.call(plugin.filter, state, pods[MEMBER], nodes[node])
        if not ok:
            return _raised("filter", status, _(_METHOD_HINT["filter"]))
        bad = _not_a_status("Filter", status, node)
        if bad is not None:
            return bad
        code = _code(status)
        if code == want:
            if code is not None and not status.reasons:
                return (_("Filter rejected {node} without a reason.").format(node=node),
                        _('give the Status a reason: new_status(code, "why"); the pod\'s message lists it.'))
            continue
        if code not in (None, Code.Unschedulable, Code.UnschedulableAndUnresolvable):
            return (_("Filter answered {node} with {code}.").format(node=node, code=_code_name(code)),
                    _("Filter keeps a node (None) or rejects it with Code.Unschedulable (not now) or "
                      "Code.UnschedulableAndUnresolvable (never); Code.Error means the plugin itself failed."))
        return (_("Filter answered {node} for a 4-GPU NVLink member with {code}, not {want}.").format(
                    node=node, code=_code_name(code), want=_code_name(want)),
                _(FILTER_HINTS[(node, code)]).format(codes=CODES_GO, preemption=PREEMPTION_GO))
    solo_state = CycleState()
    clock.call(plugin.pre_filter, solo_state, pods[SOLO])
    ok, status = clock.call(plugin.filter, solo_state, pods[SOLO], nodes["pcie-a"])
    if not ok:
        return _raised("filter", status, _("a pod without a constraint needs free GPUs only."))
    bad = _not_a_status("Filter", status, "pcie-a")
    if bad is not None:
        return bad
    if _code(status) is not None:
        return (_("Filter rejected pcie-a for {pod}, which asks for 1 GPU and no NVLink.").format(pod=SOLO),
                _("search with the pod's own constraint (req.constraint), not always NVLink."))
    return None


def _probe_score(plugin: Any, pods: dict, nodes: dict, clock: _Budget) -> Verdict:
    from ksched_edu.framework.cycle_state import CycleState

    for name, feasible in ((MEMBER, ("a100-b", "h100-a", "h100-b", "v100-a")), (SOLO, tuple(sorted(nodes)))):
        state = CycleState()
        clock.call(plugin.pre_filter, state, pods[name])
        for node in feasible:
            ok, answer = clock.call(plugin.score, state, pods[name], node)
            if not ok:
                return _raised("score", answer, _(_METHOD_HINT["score"]))
            if not (isinstance(answer, tuple) and len(answer) == 2):
                return (_("score returned {value} for {pod} on {node}.").format(value=_shown(answer), pod=name,
                                                                                node=node),
                        _("Score returns a pair: (the score, None)."))
            value, status = answer
            bad = _not_a_status("Score", status, node)
            if bad is not None:
                return bad
            if _code(status) is not None:
                return (_("Score answered {pod} on {node} with {code}.").format(pod=name, node=node,
                                                                                code=_code_name(_code(status))),
                        _("Score ranks the nodes Filter kept: return (score, None)."))
            if isinstance(value, bool) or not isinstance(value, int):
                return (_("score gave {pod} on {node} {value}.").format(pod=name, node=node, value=_shown(value)),
                        _("a score is a whole number from 0 to MAX_NODE_SCORE ({max}): use // not /.").format(
                            max=MAX_NODE_SCORE))
            if not 0 <= value <= MAX_NODE_SCORE:
                return (_("score gave {pod} {value} on {node}.").format(pod=name, value=value, node=node),
                        _("keep every score within [0, MAX_NODE_SCORE] ({max}): the runtime turns "
                          "any other value into an Error (framework/runtime/framework.go L1169-1173).").format(
                              max=MAX_NODE_SCORE))
    return None


def _probe_permit(plugin: Any, pods: dict, nodes: dict, clock: _Budget) -> Verdict:
    from ksched_edu.framework.cycle_state import CycleState

    for name, must_wait in ((MEMBER, True), (SOLO, False)):
        ok, answer = clock.call(plugin.permit, CycleState(), pods[name], "a100-b")
        if not ok:
            return _raised("permit", answer, _(_METHOD_HINT["permit"]))
        if not (isinstance(answer, tuple) and len(answer) == 2):
            return (_("permit returned {value} for {pod}.").format(value=_shown(answer), pod=name),
                    _("Permit returns a pair: (Status or None, timeout in seconds)."))
        status, timeout = answer
        bad = _not_a_status("Permit", status)
        if bad is not None:
            return bad
        code = _code(status)
        if must_wait:
            if code != Code.Wait:
                return (_("permit answered {pod} with {code} while no other member of its gang holds a node.").format(
                            pod=MEMBER, code=_code_name(code)),
                        _("a member whose gang is not complete waits: return new_status(Code.Wait), PERMIT_TIMEOUT; "
                          "the member that completes it allows the others."))
            if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0:
                return (_("permit asked {pod} to wait with timeout {value}.").format(pod=MEMBER, value=_shown(timeout)),
                        _("give the wait a timeout in seconds (e.g. 60.0): when it runs out, the member is rejected "
                          "(framework/runtime/waiting_pods_map.go L98-104), unreserved, and its GPUs are free again."))
        elif code is not None and code != Code.Success:
            return (_("permit answered {pod} (no gang) with {code}.").format(pod=SOLO, code=_code_name(code)),
                    _("only gang members wait: a pod without the pod-group label gets (None, 0.0)."))
    return None


# --- the whole workload ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def stock_run() -> Any:
    """The stock profile (Coscheduling and the default plugins) on the chapter's workload, measured as
    the chapter measures it: the bar the learner's plugin set must clear."""
    from ksched_edu.viz.capstone import measure

    return measure("stock", _simulation(STOCK_CONFIG, None, [CLUSTER, WORKLOAD]), SAMPLE_EVERY)


def total_wait(run: Any) -> float:
    """Seconds the gangs of ``run`` waited in all, arrival to full placement (the chapter's headline)."""
    return sum(g.wait for g in run.gangs if g.wait is not None)


def _check_run(factory: Any, clock: _Budget) -> Any:
    from ksched_edu.trace import Recorder
    from ksched_edu.viz.capstone import measure, members_without_nvlink_set

    rec = Recorder()
    ok, sim = clock.call(_simulation, CONFIG, factory, [CLUSTER, WORKLOAD], rec)
    if not ok:
        return (_("the profile could not be built: {error}").format(error=_describe(sim)),
                _("new_gang_gpu returns GangGPU(GPUTopologyArgs(), handle)."))
    # One run, sampled as it goes, within what is left of the budget and VIRTUAL_LIMIT of virtual time.
    ok, mine = clock.call(measure, NAME, sim, SAMPLE_EVERY, VIRTUAL_LIMIT)
    if not ok:
        method = _learner_method(mine)
        if method is not None:
            return _raised(f"{method} ({_POINT[method]})", mine, _(_METHOD_HINT[method]))
        return (_("the scheduler stopped: {error}").format(error=_describe(mine)),
                _("each method returns what its extension point expects, and no loop of yours runs for long."))
    errors = cycle_errors(rec)
    if errors:
        return (_("the scheduler could not run GangGPU: {error}").format(error=errors[0]),
                _("Filter returns None or a Status, Score (score, None), Permit (Status or None, timeout); "
                  "Code.Error means the plugin itself failed."))
    if sim.scheduler.busy():
        return (_("the scheduler stopped: pods were still being retried after {limit:g} s of virtual time.").format(
                    limit=VIRTUAL_LIMIT),
                _("a gang member waits at Permit with a timeout, and the member that completes its gang allows "
                  "the others."))
    unplaced = [g.group for g in mine.gangs if g.placed is None]
    if unplaced:
        return (_("gang {gang} was never placed whole.").format(gang=unplaced[0]),
                _("in permit, the member that completes its gang allows the waiting ones: "
                  "self.handle.iterate_over_waiting_pods(lambda wp: wp.allow(self.name()) if ... same gang)."))
    loose = members_without_nvlink_set(sim)
    if loose:
        return (_("{pod} ran on {node}, a server without an NVLink set of 4.").format(pod=loose[0][0],
                                                                                      node=loose[0][1]),
                _("Filter must keep only nodes where best_subset finds the pod's constraint among the free GPUs."))
    stock = stock_run()
    if not total_wait(mine) < total_wait(stock):
        return (_("your gangs waited {mine:g} s in all, {stock:g} s under the stock profile.").format(
                    mine=total_wait(mine), stock=total_wait(stock)),
                _("a gang waits when every NVLink set of 4 is broken by pods that need no NVLink: count where the "
                  "inference pods went under your profile (the first bind of each, as section 6.1 counts them) and "
                  "read again what Score does for a pod that needs no NVLink (section 3)."))
    if not mine.mean_stranded() < stock.mean_stranded():
        return (_("on average {mine:.1f} GPUs were stranded on partly used nodes, {stock:.1f} with the stock "
                  "profile.").format(mine=mine.mean_stranded(), stock=stock.mean_stranded()),
                _("let pods that need no NVLink prefer nodes where no whole NVLink set is left to break "
                  "(and pack: the fuller the node, the higher the score)."))
    return _("{plugin}: {gangs} gangs placed whole on NVLink sets, waiting {mine_wait:g} s in all against "
             "{stock_wait:g} s; {mine_stranded:.1f} stranded GPUs on average against {stock_stranded:.1f}; "
             "{mine_preemptions} preemption(s) against {stock_preemptions}.").format(
                 plugin=NAME, gangs=len(mine.gangs), mine_wait=total_wait(mine), stock_wait=total_wait(stock),
                 mine_stranded=mine.mean_stranded(), stock_stranded=stock.mean_stranded(),
                 mine_preemptions=len(mine.preemptions), stock_preemptions=len(stock.preemptions))


# --- how an answer is shown ----------------------------------------------------------------------


def _code(status: Optional[Status]) -> Optional[Code]:
    """None for a kept node (None or Success), else the status's code."""
    if status is None or status.code == Code.Success:
        return None
    return status.code


def _code_name(code: Optional[Code]) -> str:
    return _("None (kept)") if code is None else f"Code.{code.name}"


def _shown(value: Any) -> str:
    if isinstance(value, Code):
        return _("a bare Code (Code.{code})").format(code=value.name)
    if isinstance(value, Status):
        return _("a Status (Code.{code}) alone").format(code=value.code.name)
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def _not_a_status(point: str, value: Any, node: str = "") -> Verdict:
    """None for a Status (or None); else what ``point`` returned (on ``node``, when given) and the hint."""
    if value is None or isinstance(value, Status):
        return None
    if isinstance(value, Code):
        said = (_("{point} returned a bare Code (Code.{code}) on {node}.") if node else
                _("{point} returned a bare Code (Code.{code}).")).format(point=point, code=value.name, node=node)
        return (said, _('wrap it in a Status: new_status(Code.{code}, "why"); {status_hint}.').format(
            code=value.name, status_hint=_(STATUS_HINT)))
    said = (_("{point} returned {value} on {node}.") if node else _("{point} returned {value}.")).format(
        point=point, value=_shown(value), node=node)
    return (said, _("{status_hint}, never a {type}.").format(status_hint=_(STATUS_HINT), type=type(value).__name__))


def _raised(method: str, exc: BaseException, hint: str) -> tuple[str, str]:
    """What went wrong when ``method`` raised ``exc``, and ``hint`` (already in the learner's language)."""
    if isinstance(exc, NotImplementedError):
        return (_("{method} is not written yet.").format(method=method), hint)
    if isinstance(exc, BudgetSpent):
        return (_("{method} never ends: it was still running when your code had used the {seconds:g} s "
                  "it gets in this check.").format(method=method, seconds=exc.seconds),
                _("{method} must return at once (all of your methods share those seconds): look for a loop that "
                  "never ends; {hint}").format(method=method, hint=hint))
    return (_("{method} failed: {error}").format(method=method, error=describe_exception(exc)), hint)
