"""Port of pkg/scheduler/framework/preemption/preemption.go (v1.30).

The generic preemption flow that a PostFilter plugin (DefaultPreemption) drives
through :class:`Evaluator`: check that the pod may preempt, dry-run preemption
on the nodes where it might help, pick the best candidate node, evict its
victims and nominate the node. The plugin supplies the policy (which victims
on a node, how many candidates) through the :class:`Interface` methods.

Deviations:
- No goroutines: the dry run checks nodes one after another from the random
  offset and stops as soon as enough candidates were found (upstream cancels its
  parallel workers at that point); victims are evicted one after another.
- A final tie in pickOneNodeForPreemption goes to the first candidate in dry-run
  order; upstream ranges over a Go map, so its pick among tied nodes is random.
- No scheduler extenders: ``call_extenders`` returns the candidates unchanged.
- No event recorder or metrics: a ``PreemptionEvent`` goes to the trace instead.
- A pod without ``status.startTime`` counts as started after every pod that has
  one (upstream uses the wall clock's "now").
- Victims are deleted with the Evaluator's ``victim_grace_period`` (0 by default:
  at once, as the conformance harness does); ``None`` uses each victim's
  ``terminationGracePeriodSeconds`` (30 when unset), as a real API server would.
- The DisruptionTarget condition is patched onto the victim's own status
  (v1.30 derives the patch from the preemptor's status, an oversight fixed in
  v1.31; the victim is deleted right after either way).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Protocol

from ..anchors import SCHEDULER_PLUGINS, ports
from ..api.types import Pod, PodCondition
from ..goint import MAX_INT32, MIN_INT64
from ..trace import PreemptionCandidate, PreemptionCriterion, PreemptionEvent
from .cycle_state import CycleState
from .interface import Code, NodeToStatusMap, PostFilterResult, Status, code_of, is_success, new_status
from .types import Diagnosis, FitError, NodeInfo

# Kubernetes' default terminationGracePeriodSeconds.
DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30.0

# v1.DisruptionTarget and v1.PodReasonPreemptionByScheduler.
DISRUPTION_TARGET = "DisruptionTarget"
POD_REASON_PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler"

# PodDisruptionConditions is beta and on by default in v1.30.
POD_DISRUPTION_CONDITIONS_DEFAULT = True

# The rules of pickOneNodeForPreemption, in the order they are tried (as the trace names them).
CRITERION_MIN_PDB_VIOLATIONS = "fewest PDB violations"
CRITERION_MIN_HIGHEST_PRIORITY = "lowest highest-priority victim"
CRITERION_MIN_SUM_PRIORITIES = "lowest sum of victim priorities"
CRITERION_MIN_NUM_PODS = "fewest victims"
CRITERION_LATEST_START_TIME = "latest start of highest-priority victims"
CRITERION_FIRST = "first candidate"
CRITERION_ONLY_CANDIDATE = "only candidate"
DEFAULT_CRITERIA = (CRITERION_MIN_PDB_VIOLATIONS, CRITERION_MIN_HIGHEST_PRIORITY, CRITERION_MIN_SUM_PRIORITIES,
                    CRITERION_MIN_NUM_PODS, CRITERION_LATEST_START_TIME)

ScoreFunc = Callable[[str], float]


# --- helpers of pkg/scheduler/util and component-helpers -------------------------


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/helpers.go", "PodPriority", 27, 35, repo=SCHEDULER_PLUGINS)
def pod_priority(pod: Pod) -> int:
    """Upstream corev1helpers.PodPriority: spec.priority, 0 when unset."""
    return pod.spec.priority if pod.spec.priority is not None else 0


@ports("pkg/scheduler/util/utils.go", "GetPodStartTime", 50, 56)
def get_pod_start_time(pod: Pod) -> float:
    """Upstream util.GetPodStartTime: status.startTime, or "now" (later than any start) when unset."""
    return pod.status.start_time if pod.status.start_time is not None else math.inf


@ports("pkg/scheduler/util/utils.go", "MoreImportantPod", 88, 95)
def more_important_pod(pod1: Pod, pod2: Pod) -> bool:
    """Upstream util.MoreImportantPod: higher priority first, then the earlier start."""
    p1, p2 = pod_priority(pod1), pod_priority(pod2)
    if p1 != p2:
        return p1 > p2
    return get_pod_start_time(pod1) < get_pod_start_time(pod2)


@ports("pkg/scheduler/util/utils.go", "MoreImportantPod", 88, 95)
def more_important_key(pod: Pod) -> tuple[int, float]:
    """A sort key that orders pods as :func:`more_important_pod` does."""
    return -pod_priority(pod), get_pod_start_time(pod)


@ports("vendor/k8s.io/apimachinery/pkg/util/errors/errors.go", "(aggregate).Error", 69, 95, repo=SCHEDULER_PLUGINS)
def aggregate_errors(messages: list[str]) -> Optional[str]:
    """Upstream utilerrors.NewAggregate(errs).Error(): one message alone, several as "[a, b]"."""
    if not messages:
        return None
    if len(messages) == 1:
        return messages[0]
    seen: list[str] = []
    for m in messages:
        if m not in seen:
            seen.append(m)
    return seen[0] if len(seen) == 1 else "[" + ", ".join(seen) + "]"


# --- candidates -------------------------------------------------------------------


@ports("vendor/k8s.io/kube-scheduler/extender/v1/types.go", "Victims", 51, 54, repo=SCHEDULER_PLUGINS)
@dataclass
class Victims:
    """Upstream extenderv1.Victims: the pods to evict on a node and how many PDBs that violates."""

    pods: list[Pod] = field(default_factory=list)
    num_pdb_violations: int = 0


@ports("pkg/scheduler/framework/preemption/preemption.go", "candidate", 54, 57)
@dataclass
class Candidate:
    """A node where the preemptor fits once ``victims`` are gone (upstream candidate)."""

    victims: Victims
    name: str


@ports("pkg/scheduler/framework/preemption/preemption.go", "candidateList", 69, 72)
class _CandidateList:
    """Upstream candidateList: a fixed number of slots; a candidate beyond them is dropped."""

    @ports("pkg/scheduler/framework/preemption/preemption.go", "newCandidateList", 74, 76)
    def __init__(self, size: int) -> None:
        self.size_limit = size
        self.items: list[Candidate] = []

    @ports("pkg/scheduler/framework/preemption/preemption.go", "(*candidateList).add", 79, 83)
    def add(self, c: Candidate) -> None:
        if len(self.items) < self.size_limit:
            self.items.append(c)

    @ports("pkg/scheduler/framework/preemption/preemption.go", "(*candidateList).size", 89, 95)
    def size(self) -> int:
        return len(self.items)

    @ports("pkg/scheduler/framework/preemption/preemption.go", "(*candidateList).get", 99, 101)
    def get(self) -> list[Candidate]:
        return list(self.items)


@ports("pkg/scheduler/framework/preemption/preemption.go", "Interface", 105, 123)
class Interface(Protocol):
    """What a preemption plugin decides (upstream preemption.Interface)."""

    @ports("pkg/scheduler/framework/preemption/preemption.go", "Interface", 105, 123)
    def get_offset_and_num_candidates(self, num_nodes: int) -> tuple[int, int]: ...

    @ports("pkg/scheduler/framework/preemption/preemption.go", "Interface", 105, 123)
    def candidates_to_victims_map(self, candidates: list[Candidate]) -> dict[str, Victims]: ...

    @ports("pkg/scheduler/framework/preemption/preemption.go", "Interface", 105, 123)
    def pod_eligible_to_preempt_others(self, pod: Pod,
                                       nominated_node_status: Optional[Status]) -> tuple[bool, str]: ...

    @ports("pkg/scheduler/framework/preemption/preemption.go", "Interface", 105, 123)
    def select_victims_on_node(self, state: CycleState, pod: Pod, node_info: NodeInfo,
                               pdbs: list[Any]) -> tuple[list[Pod], int, Optional[Status]]: ...

    @ports("pkg/scheduler/framework/preemption/preemption.go", "Interface", 105, 123)
    def ordered_score_funcs(self, nodes_to_victims: dict[str, Victims]) -> Optional[list[ScoreFunc]]: ...


# --- the Evaluator ------------------------------------------------------------------


@ports("pkg/scheduler/framework/preemption/preemption.go", "Evaluator", 125, 132)
@dataclass
class Evaluator:
    """One preemption attempt for one pod (upstream Evaluator).

    ``handler`` is the framework Handle, ``state`` the cycle's CycleState (cloned
    for each node's dry run) and ``interface`` the plugin's policy.
    """

    plugin_name: str
    handler: Any
    state: CycleState
    interface: Interface
    victim_grace_period: Optional[float] = 0.0
    pod_disruption_conditions: bool = POD_DISRUPTION_CONDITIONS_DEFAULT
    # What the last select_candidate decided by, and each rule it applied (for the trace).
    decided_by: str = ""
    criteria: list[PreemptionCriterion] = field(default_factory=list)
    # Where the last dry run started, how many candidates it looked for, the nodes it checked (for the trace).
    offset: int = 0
    num_candidates: int = 0
    dry_run_order: list[str] = field(default_factory=list)

    @ports("pkg/scheduler/framework/preemption/preemption.go", "(*Evaluator).Preempt", 150, 208)
    def preempt(self, pod: Pod, m: NodeToStatusMap) -> tuple[Optional[PostFilterResult], Optional[Status]]:
        """Upstream Preempt: the whole flow; the returned status becomes the PostFilter status.

        - (None, Error): a rare error that a later cycle may not meet again.
        - (None, Unschedulable): e.g. the pod may not preempt now; its nominated node is kept.
        - (result, Unschedulable): preemption cannot help; ``result`` clears the nominated node.
        - (result, Success): victims are evicted and ``result`` nominates their node.
        """
        # 0) Read the latest version of the pod (upstream: the pod lister).
        latest, err = self._latest_pod(pod)
        if latest is None:
            return None, Status.as_status(err)
        pod = latest

        # 1) Ensure the preemptor is eligible to preempt other pods.
        ok, msg = self.interface.pod_eligible_to_preempt_others(pod, m.get(pod.status.nominated_node_name))
        if not ok:
            self._record(pod, [], {}, None, msg)
            return None, new_status(Code.Unschedulable, msg)

        # 2) Find all preemption candidates.
        candidates, node_to_status_map, error = self.find_candidates(pod, m)
        if error is not None and not candidates:
            self._record(pod, [], node_to_status_map or {}, None, error)
            return None, Status.as_status(error)

        # A FitError (over the nodes the dry run looked at) only when no candidate fits the pod.
        if not candidates:
            fit_error = FitError(pod, len(node_to_status_map), Diagnosis(node_to_status_map=node_to_status_map))
            self._record(pod, [], node_to_status_map, None, str(fit_error))
            return PostFilterResult.with_nominated_node(""), new_status(Code.Unschedulable, str(fit_error))

        # 3) Let extenders filter the candidates.
        candidates, status = self.call_extenders(pod, candidates)
        if not is_success(status):
            return None, status

        # 4) Find the best candidate.
        best = self.select_candidate(candidates)
        if best is None or not best.name:
            self._record(pod, candidates, node_to_status_map, None, "no candidate node for preemption")
            return None, new_status(Code.Unschedulable, "no candidate node for preemption")
        self._record(pod, candidates, node_to_status_map, best, "")

        # 5) Evict the victims and clear lower-priority nominations before nominating the node.
        status = self.prepare_candidate(best, pod, self.plugin_name)
        if not is_success(status):
            return None, status
        return PostFilterResult.with_nominated_node(best.name), new_status(Code.Success)

    @ports("pkg/scheduler/framework/preemption/preemption.go", "(*Evaluator).Preempt", 150, 208)
    def _latest_pod(self, pod: Pod) -> tuple[Optional[Pod], str]:
        client = self.handler.client()
        get_pod = getattr(client, "get_pod", None)
        if get_pod is None:
            return pod, ""
        latest = get_pod(pod.metadata.namespace, pod.metadata.name)
        if latest is None:
            return None, f"pod \"{pod.metadata.name}\" not found"
        return latest, ""

    @ports("pkg/scheduler/framework/preemption/preemption.go", "(*Evaluator).findCandidates", 212, 250)
    def find_candidates(self, pod: Pod, m: NodeToStatusMap) -> tuple[list[Candidate], NodeToStatusMap, Optional[str]]:
        """Upstream findCandidates: dry-run preemption on the nodes where it might help."""
        all_nodes = self.handler.snapshot_shared_lister().node_infos().list()
        if not all_nodes:
            return [], {}, "no nodes available"
        potential_nodes, unschedulable_node_status = nodes_where_preemption_might_help(all_nodes, m)
        if not potential_nodes:
            # Preemption helps nowhere: clear the pod's nominated node, if it has one.
            clear_nominated_node_name(self.handler.client(), [pod])
            return [], unschedulable_node_status, None

        pdbs = get_pod_disruption_budgets(self.handler)
        offset, num_candidates = self.interface.get_offset_and_num_candidates(len(potential_nodes))
        self.offset, self.num_candidates = offset, num_candidates
        candidates, node_statuses, error = self.dry_run_preemption(pod, potential_nodes, pdbs, offset,
                                                                   num_candidates)
        node_statuses.update(unschedulable_node_status)
        return candidates, node_statuses, error

    @ports("pkg/scheduler/framework/preemption/preemption.go", "(*Evaluator).callExtenders", 256, 312)
    def call_extenders(self, pod: Pod, candidates: list[Candidate]) -> tuple[list[Candidate], Optional[Status]]:
        """Upstream callExtenders: let the scheduler extenders that support preemption narrow the candidates."""
        # upstream: takes the handle's extenders and node lister, and with no extender returns the
        # candidates as they are. Extenders are HTTP webhooks: this port checks them in the
        # configuration but calls none, so the list is always empty and that return is the only
        # one taken. The rest is not ported: the candidates become a node -> victims map, each
        # interested extender that supports preemption replaces the map with its answer (an error,
        # or a node left without victims, fails the call unless the extender is ignorable), and
        # the candidates are rebuilt from the map that is left.
        return candidates, None

    @ports("pkg/scheduler/framework/preemption/preemption.go", "(*Evaluator).SelectCandidate", 316, 343)
    def select_candidate(self, candidates: list[Candidate]) -> Optional[Candidate]:
        """Upstream SelectCandidate: the one candidate, or the best by pickOneNodeForPreemption."""
        self.criteria = []
        if not candidates:
            self.decided_by = ""
            return None
        if len(candidates) == 1:
            self.decided_by = CRITERION_ONLY_CANDIDATE
            return candidates[0]
        victims_map = self.interface.candidates_to_victims_map(candidates)
        score_funcs = self.interface.ordered_score_funcs(victims_map)
        node, self.decided_by = pick_one_node_with_criterion(victims_map, score_funcs, self.criteria)
        victims = victims_map.get(node)
        if victims is not None:
            return Candidate(victims, node)
        # upstream: logged as "should not reach here"; the first candidate keeps the flow going.
        return candidates[0]

    @ports("pkg/scheduler/framework/preemption/preemption.go", "(*Evaluator).prepareCandidate", 349, 411)
    def prepare_candidate(self, c: Candidate, pod: Pod, plugin_name: str) -> Optional[Status]:
        """Upstream prepareCandidate: evict the victims, then clear lower-priority nominations."""
        fh = self.handler
        cs = fh.client()
        # upstream: Parallelizer().Until over the victims; the first error cancels the rest.
        for victim in c.victims.pods:
            get_waiting_pod = getattr(fh, "get_waiting_pod", None)
            waiting_pod = get_waiting_pod(victim.uid) if get_waiting_pod is not None else None
            if waiting_pod is not None:
                # A victim held at Permit is rejected instead of deleted.
                waiting_pod.reject(plugin_name, "preempted")
                continue
            try:
                if self.pod_disruption_conditions:
                    condition = PodCondition(DISRUPTION_TARGET, "True", POD_REASON_PREEMPTION_BY_SCHEDULER,
                                             f"{pod.spec.scheduler_name}: preempting to accommodate a higher "
                                             "priority pod")
                    cs.update_pod_status(victim.metadata.namespace, victim.metadata.name, condition)
                cs.delete_pod(victim, grace_period=self._grace_period(victim))
            except Exception as err:  # upstream: errCh.SendErrorWithCancel
                return Status.as_status(_error_text(err))

        # Lower-priority pods nominated to this node may no longer fit: clear their nomination,
        # which moves them back to activeQ to find another place.
        nominated_pods = get_lower_priority_nominated_pods(fh, pod, c.name)
        clear_nominated_node_name(cs, nominated_pods)
        return None

    @ports("pkg/scheduler/framework/preemption/preemption.go", "(*Evaluator).prepareCandidate", 349, 411)
    def _grace_period(self, victim: Pod) -> float:
        if self.victim_grace_period is not None:
            return self.victim_grace_period
        seconds = victim.spec.termination_grace_period_seconds
        return float(seconds) if seconds is not None else DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS

    def _select_victims_traced_as_dry_run(self, state: CycleState, pod: Pod, node_info: NodeInfo,
                                          pdbs: list[Any]) -> tuple[list[Pod], int, Optional[Status]]:
        # upstream: no such wrapper; the trace marks the Filter calls made on node copies.
        ctx = getattr(self.handler, "ctx", None)
        if ctx is not None:
            ctx.dry_run = True
        try:
            return self.interface.select_victims_on_node(state, pod, node_info, pdbs)
        finally:
            if ctx is not None:
                ctx.dry_run = False

    @ports("pkg/scheduler/framework/preemption/preemption.go", "(*Evaluator).DryRunPreemption", 571, 617)
    def dry_run_preemption(self, pod: Pod, potential_nodes: list[NodeInfo], pdbs: list[Any], offset: int,
                           num_candidates: int) -> tuple[list[Candidate], NodeToStatusMap, Optional[str]]:
        """Upstream DryRunPreemption: candidates (non-PDB-violating first) and the statuses of the rest.

        Nodes are visited from ``offset`` round the list; the search stops once at least one
        non-violating candidate was found and ``num_candidates`` candidates in all.
        """
        non_violating = _CandidateList(num_candidates)
        violating = _CandidateList(num_candidates)
        node_statuses: NodeToStatusMap = {}
        errs: list[str] = []
        n = len(potential_nodes)
        self.dry_run_order = []
        # upstream: Parallelizer().Until(checkNode) with a cancel; here node by node, in order.
        for i in range(n):
            node_info_copy = potential_nodes[(offset + i) % n].snapshot()
            state_copy = self.state.clone()
            pods, num_pdb_violations, status = self._select_victims_traced_as_dry_run(
                state_copy, pod, node_info_copy, pdbs)
            name = node_info_copy.name
            self.dry_run_order.append(name)
            if is_success(status) and pods:
                c = Candidate(Victims(list(pods), num_pdb_violations), name)
                (non_violating if num_pdb_violations == 0 else violating).add(c)
                nvc_size, vc_size = non_violating.size(), violating.size()
                if nvc_size > 0 and nvc_size + vc_size >= num_candidates:
                    break
                continue
            if is_success(status) and not pods:
                status = Status.as_status(f"expected at least one victim pod on node \"{name}\"")
            if code_of(status) == Code.Error:
                errs.append(status.message())
            node_statuses[name] = status
        return non_violating.get() + violating.get(), node_statuses, aggregate_errors(errs)

    # --- trace --------------------------------------------------------------------

    def _record(self, pod: Pod, candidates: list[Candidate], node_statuses: NodeToStatusMap,
                best: Optional[Candidate], message: str) -> None:
        recorder = getattr(self.handler, "recorder", None)
        if recorder is None or not recorder.enabled:
            return
        ctx = getattr(self.handler, "ctx", None)
        rows = tuple(_candidate_row(c) for c in candidates)
        statuses = tuple((node, s.message() if s is not None else "") for node, s in node_statuses.items())
        recorder.record(PreemptionEvent(
            time=getattr(ctx, "time", 0.0), cycle=getattr(ctx, "cycle", 0), pod=pod.key,
            profile=getattr(self.handler, "profile_name", ""), candidates=rows,
            nominated_node=best.name if best is not None else "",
            decided_by=self.decided_by if best is not None else "",
            victims=tuple(p.key for p in best.victims.pods) if best is not None else (),
            node_statuses=statuses, message=message,
            criteria=tuple(self.criteria) if best is not None else (),
            offset=self.offset, num_candidates=self.num_candidates, dry_run=tuple(self.dry_run_order)))


def _candidate_row(c: Candidate) -> PreemptionCandidate:
    pods = c.victims.pods
    earliest = get_earliest_pod_start_time(c.victims) if pods else None
    return PreemptionCandidate(
        node=c.name, victims=tuple(p.key for p in pods), num_pdb_violations=c.victims.num_pdb_violations,
        highest_priority=max((pod_priority(p) for p in pods), default=0),
        sum_priorities=sum(pod_priority(p) for p in pods),
        earliest_start_time=earliest if earliest is not None and earliest != math.inf else None)


def _error_text(err: BaseException) -> str:
    if isinstance(err, KeyError) and err.args and type(err) is KeyError:
        return str(err.args[0])
    return str(err)


# --- the free functions of preemption.go -----------------------------------------------


@ports("pkg/scheduler/framework/preemption/preemption.go", "nodesWherePreemptionMightHelp", 415, 432)
def nodes_where_preemption_might_help(nodes: list[NodeInfo],
                                      m: NodeToStatusMap) -> tuple[list[NodeInfo], NodeToStatusMap]:
    """Upstream nodesWherePreemptionMightHelp: only nodes that failed with Unschedulable.

    A node absent from ``m``, or UnschedulableAndUnresolvable there, gets the status
    "Preemption is not helpful for scheduling" (it shows in the FitError message).
    """
    potential: list[NodeInfo] = []
    node_statuses: NodeToStatusMap = {}
    for node in nodes:
        name = node.name
        status = m.get(name)
        if status is not None and status.code == Code.Unschedulable:
            potential.append(node)
        elif status is None or status.code == Code.UnschedulableAndUnresolvable:
            node_statuses[name] = new_status(Code.UnschedulableAndUnresolvable,
                                              "Preemption is not helpful for scheduling")
    return potential, node_statuses


@ports("pkg/scheduler/framework/preemption/preemption.go", "getPodDisruptionBudgets", 434, 439)
def get_pod_disruption_budgets(handler: Any) -> list[Any]:
    """Upstream getPodDisruptionBudgets: every PDB the informer knows."""
    lister = handler.object_lister()
    if lister is None:
        return []
    return list(lister.list("PodDisruptionBudget"))


@ports("pkg/scheduler/util/utils.go", "GetEarliestPodStartTime", 60, 82)
def get_earliest_pod_start_time(victims: Victims) -> Optional[float]:
    """Upstream util.GetEarliestPodStartTime: the earliest start among the highest-priority victims."""
    if not victims.pods:
        return None
    earliest = get_pod_start_time(victims.pods[0])
    max_priority = pod_priority(victims.pods[0])
    for p in victims.pods:
        prio = pod_priority(p)
        if prio == max_priority:
            earliest = min(earliest, get_pod_start_time(p))
        elif prio > max_priority:
            max_priority = prio
            earliest = get_pod_start_time(p)
    return earliest


@ports("pkg/scheduler/framework/preemption/preemption.go", "pickOneNodeForPreemption", 454, 540)
def default_score_funcs(nodes_to_victims: dict[str, Victims]) -> list[ScoreFunc]:
    """The five rules of pickOneNodeForPreemption as score functions (higher is better)."""

    def min_num_pdb_violating(node: str) -> float:
        return -nodes_to_victims[node].num_pdb_violations

    def min_highest_priority(node: str) -> float:
        # Victims are ordered by decreasing priority, so the first is the highest.
        return -pod_priority(nodes_to_victims[node].pods[0])

    def min_sum_priorities(node: str) -> float:
        # upstream: int64. Each term lies in [0, 2^32] (priorities are int32), so the sum
        # cannot wrap for any realistic number of victims.
        # MaxInt32+1 is added to every priority so that all are >= 0: a node with a few
        # negative-priority victims does not win over one with fewer of the same priority.
        return -sum(pod_priority(p) + MAX_INT32 + 1 for p in nodes_to_victims[node].pods)

    def min_num_pods(node: str) -> float:
        return -len(nodes_to_victims[node].pods)

    def latest_start_time(node: str) -> float:
        earliest = get_earliest_pod_start_time(nodes_to_victims[node])
        if earliest is None:  # upstream: logged as "should not reach here"
            return MIN_INT64
        return earliest

    return [min_num_pdb_violating, min_highest_priority, min_sum_priorities, min_num_pods, latest_start_time]


@ports("pkg/scheduler/framework/preemption/preemption.go", "pickOneNodeForPreemption", 454, 540)
def pick_one_node_with_criterion(nodes_to_victims: dict[str, Victims], score_funcs: Optional[list[ScoreFunc]],
                                 steps: Optional[list[PreemptionCriterion]] = None) -> tuple[str, str]:
    """pickOneNodeForPreemption, also naming the rule that left a single node.

    Default rules, in order: fewest PDB violations; lowest highest-priority victim;
    lowest sum of priorities; fewest victims; latest start time of the
    highest-priority victims; then the first node left. ``steps``, when given,
    receives each rule applied: the nodes it scored and the nodes it kept.
    """
    if not nodes_to_victims:
        return "", ""
    all_candidates = list(nodes_to_victims)
    if score_funcs:
        names = [f"score function {i + 1}" for i in range(len(score_funcs))]
    else:
        score_funcs = default_score_funcs(nodes_to_victims)
        names = list(DEFAULT_CRITERIA)
    for f, criterion in zip(score_funcs, names):
        selected: list[str] = []
        scores: list[tuple[str, float]] = []
        max_score = -math.inf
        for node in all_candidates:
            score = f(node)
            scores.append((node, score))
            if score > max_score:
                max_score = score
                selected = []
            if score == max_score:
                selected.append(node)
        if steps is not None:
            steps.append(PreemptionCriterion(criterion, tuple(scores), tuple(selected)))
        if len(selected) == 1:
            return selected[0], criterion
        all_candidates = selected
    return all_candidates[0], CRITERION_FIRST


@ports("pkg/scheduler/framework/preemption/preemption.go", "pickOneNodeForPreemption", 454, 540)
def pick_one_node_for_preemption(nodes_to_victims: dict[str, Victims],
                                 score_funcs: Optional[list[ScoreFunc]] = None) -> str:
    """Upstream pickOneNodeForPreemption: the node whose eviction costs least."""
    return pick_one_node_with_criterion(nodes_to_victims, score_funcs)[0]


@ports("pkg/scheduler/framework/preemption/preemption.go", "getLowerPriorityNominatedPods", 549, 564)
def get_lower_priority_nominated_pods(pn: Any, pod: Pod, node_name: str) -> list[Pod]:
    """Upstream getLowerPriorityNominatedPods: pods nominated to ``node_name`` with lower priority."""
    pod_infos = pn.nominated_pods_for_node(node_name)
    if not pod_infos:
        return []
    prio = pod_priority(pod)
    return [pi.pod for pi in pod_infos if pod_priority(pi.pod) < prio]


@ports("pkg/scheduler/util/utils.go", "ClearNominatedNodeName", 143, 156)
def clear_nominated_node_name(cs: Any, pods: list[Pod]) -> None:
    """Upstream util.ClearNominatedNodeName: patch status.nominatedNodeName to "" (errors are ignored)."""
    for p in pods:
        if not p.status.nominated_node_name:
            continue
        try:
            # Only nominatedNodeName is patched: no condition changes.
            cs.update_pod_status(p.metadata.namespace, p.metadata.name, None, nominated_node_name="")
        except Exception:  # upstream: "Cannot clear 'NominatedNodeName' field" is logged, not returned
            pass
