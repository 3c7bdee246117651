"""Port of pkg/scheduler/schedule_one.go (v1.30).

One pod's trip through the scheduler: ``schedule_one`` pops it, the
scheduling cycle picks a node (``schedule_pod``: filter, score, select) and
assumes the pod there, Reserve and Permit run, and the binding cycle
(WaitOnPermit, PreBind, Bind, PostBind) follows. When no node fits, PostFilter
(preemption) runs and ``handle_scheduling_failure`` parks the pod and writes
the ``0/N nodes are available: ...`` message on its PodScheduled condition.

The functions take the :class:`~ksched_edu.scheduler.Scheduler` as ``sched``,
the way upstream's are methods on ``*Scheduler``.

Deviations:
- Nodes are filtered one after another from the rotating start index, as
  upstream does with ``parallelism: 1``; the search stops when one more
  feasible node than needed was found, exactly as upstream's cancel does.
- The binding cycle is not a goroutine: the scheduler keeps it as binding
  work that lands during the next scheduling cycle (see ``scheduler.py``).
- Ties in ``select_host`` are broken by the scheduler's seeded ``random.Random``.
- The wall clock is read only for a recorder that asks for extension-point times
  (``ExtensionPointTimer``, in place of upstream's metrics, ``@metrics.observed``); it
  never steers a decision.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable, Optional

from . import metrics
from .anchors import plumbing, ports
from .api.deepcopy import deep_copy
from .api.podutil import update_pod_condition
from .api.types import Pod, PodCondition
from .framework.cycle_state import CycleState
from .framework.interface import (PODS_TO_ACTIVATE_KEY, Code, NodePluginScores, NominatingInfo, NominatingMode, Status,
                                  is_success, new_status)
from .framework.runtime import Framework
from .framework.types import Diagnosis, FitError, NodeInfo, QueuedPodInfo
from .internal.queue.events import ASSIGNED_POD_DELETE
from .trace import BindEvent
from .util import patch_pod_status

if TYPE_CHECKING:  # pragma: no cover
    from .scheduler import Scheduler

MIN_FEASIBLE_NODES_TO_FIND = 100
MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5
NUMBER_OF_HIGHEST_SCORED_NODES_TO_REPORT = 3
# validation.NoteLengthLimit: the longest event note.
NOTE_LENGTH_LIMIT = 1024

ERR_NO_NODES_AVAILABLE = "no nodes available to schedule pods"

CLEAR_NOMINATED_NODE = NominatingInfo("", NominatingMode.ModeOverride)


@plumbing("Python exception standing for upstream's ErrNoNodesAvailable error value")
class NoNodesAvailableError(Exception):
    def __str__(self) -> str:
        return ERR_NO_NODES_AVAILABLE


@plumbing("Python exception carrying an Error-coded status out of the scheduling cycle")
class SchedulingError(Exception):
    """An unexpected (Error-coded) failure of a scheduling cycle."""


@ports("pkg/scheduler/scheduler.go", "ScheduleResult", 137, 148)
@dataclass
class ScheduleResult:
    suggested_host: str = ""
    evaluated_nodes: int = 0
    feasible_nodes: int = 0
    nominating_info: Optional[NominatingInfo] = None


@ports("pkg/scheduler/framework/interface.go", "PodsToActivate", 160, 164)
@dataclass
class PodsToActivate:
    """Pods a plugin asked to move to activeQ (upstream framework.PodsToActivate)."""

    map: dict[str, Pod] = field(default_factory=dict)

    @ports("pkg/scheduler/framework/interface.go", "(*PodsToActivate).Clone", 167, 169)
    def clone(self) -> "PodsToActivate":
        return self  # upstream: Clone returns the same state


# --- scheduleOne ------------------------------------------------------------------


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).ScheduleOne", 66, 134)
def schedule_one(sched: "Scheduler") -> bool:
    """Pop one pod and run its scheduling cycle; start its binding cycle.

    The binding work of earlier pods that is ready lands during this cycle, after the
    scheduling cycle and before its failure handling (see ``Scheduler.take_binding_work``).
    False when there was no pod to pop and no binding work to run.
    """
    pod_info = sched.next_pod()
    # upstream: binding goroutines started before this Pop run while this cycle runs.
    landing = sched.take_binding_work()
    if pod_info is None:
        # upstream: Pop blocks; the binding goroutines go on (and may move pods to activeQ).
        return sched.run_binding_work(landing)
    pod = pod_info.pod
    fwk = sched.framework_for_pod(pod)
    if fwk is None or skip_pod_schedule(sched, fwk, pod):
        # upstream returns here without SchedulingQueue.Done: with queueing hints on, the
        # pod stays in flight (and so do the events recorded after it) until it is popped again.
        sched.run_binding_work(landing)
        return True

    state = CycleState()
    pods_to_activate = PodsToActivate()
    state.write(PODS_TO_ACTIVATE_KEY, pods_to_activate)
    result, assumed_info, status = scheduling_cycle(sched, state, fwk, pod_info, pods_to_activate)
    sched.run_binding_work(landing)
    if not is_success(status):
        sched.failure_handler(fwk, assumed_info, status, result.nominating_info)
        return True
    # upstream: `go func() { bindingCycle(...) }()`; here a step on the virtual clock.
    sched.start_binding_cycle(state, fwk, result, assumed_info, pods_to_activate)
    return True


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).schedulingCycle", 139, 262)
def scheduling_cycle(sched: "Scheduler", state: CycleState, fwk: Framework, pod_info: QueuedPodInfo,
                     pods_to_activate: PodsToActivate) -> tuple[ScheduleResult, QueuedPodInfo, Optional[Status]]:
    pod = pod_info.pod
    try:
        result = schedule_pod(sched, fwk, state, pod)
    except NoNodesAvailableError as err:
        status = new_status(Code.UnschedulableAndUnresolvable).with_error(err)
        sched.record_cycle_end(fwk, pod, "unschedulable", message=str(err))
        return ScheduleResult(nominating_info=CLEAR_NOMINATED_NODE), pod_info, status
    except FitError as fit_error:
        if not fwk.has_post_filter_plugins():
            sched.record_cycle_end(fwk, pod, "unschedulable", message=str(fit_error))
            return ScheduleResult(), pod_info, _status_with_fit_error(Code.Unschedulable, fit_error)
        post_result, post_status = fwk.run_post_filter_plugins(state, pod, fit_error.diagnosis.node_to_status_map)
        fit_error.diagnosis.post_filter_msg = post_status.message() if post_status is not None else ""
        nominating_info = post_result.nominating_info if post_result is not None else None
        sched.record_cycle_end(fwk, pod, "unschedulable", message=str(fit_error))
        return ScheduleResult(nominating_info=nominating_info), pod_info, \
            _status_with_fit_error(Code.Unschedulable, fit_error)
    except SchedulingError as err:
        sched.record_cycle_end(fwk, pod, "error", message=str(err))
        return ScheduleResult(nominating_info=CLEAR_NOMINATED_NODE), pod_info, Status.as_status(err)

    assumed_info = sched.copy_queued_pod_info(pod_info)
    assumed = assumed_info.pod
    try:
        assume(sched, assumed, result.suggested_host)
    except Exception as err:  # upstream: any cache error becomes an Error status
        return ScheduleResult(nominating_info=CLEAR_NOMINATED_NODE), assumed_info, Status.as_status(err)

    sts = fwk.run_reserve_plugins_reserve(state, assumed, result.suggested_host)
    if not is_success(sts):
        _undo_assume(sched, fwk, state, assumed, result.suggested_host)
        status = _rejection_on_host(pod, result.suggested_host, sts)
        sched.record_cycle_end(fwk, pod, "unschedulable" if sts.is_rejected() else "error",
                               node=result.suggested_host, message=status.message())
        return ScheduleResult(nominating_info=CLEAR_NOMINATED_NODE), assumed_info, status

    permit = fwk.run_permit_plugins(state, assumed, result.suggested_host, now=sched.clock.now)
    if not is_success(permit) and not permit.is_wait():
        _undo_assume(sched, fwk, state, assumed, result.suggested_host)
        status = _rejection_on_host(pod, result.suggested_host, permit)
        sched.record_cycle_end(fwk, pod, "unschedulable" if permit.is_rejected() else "error",
                               node=result.suggested_host, message=status.message())
        return ScheduleResult(nominating_info=CLEAR_NOMINATED_NODE), assumed_info, status

    if pods_to_activate.map:
        sched.scheduling_queue.activate(pods_to_activate.map)
        pods_to_activate.map = {}
    sched.record_cycle_end(fwk, pod, "scheduled", node=result.suggested_host, evaluated=result.evaluated_nodes,
                           feasible=result.feasible_nodes)
    return result, assumed_info, None


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).schedulingCycle", 139, 262)
def _undo_assume(sched: "Scheduler", fwk: Framework, state: CycleState, assumed: Pod, host: str) -> None:
    fwk.run_reserve_plugins_unreserve(state, assumed, host)
    sched.cache.forget_pod(assumed)
    sched.record(BindEvent(sched.clock.now, sched.cycle, assumed.key, host, "forget"))


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).schedulingCycle", 139, 262)
def _rejection_on_host(pod: Pod, host: str, sts: Status) -> Status:
    """A Reserve or Permit rejection, worded as a FitError over the one chosen node."""
    if not sts.is_rejected():
        return sts
    fit_error = FitError(pod, 1, Diagnosis(node_to_status_map={host: sts}))
    fit_error.diagnosis.add_plugin_status(sts)
    return _status_with_fit_error(sts.code, fit_error)


def _status_with_fit_error(code: Code, fit_error: FitError) -> Status:
    return new_status(code).with_error(fit_error)


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).bindingCycle", 265, 322)
def binding_cycle(sched: "Scheduler", state: CycleState, fwk: Framework, result: ScheduleResult,
                  assumed_info: QueuedPodInfo, pods_to_activate: PodsToActivate,
                  permit_status: Optional[Status] = None) -> Optional[Status]:
    """WaitOnPermit (already resolved by the caller on the clock), PreBind, Bind, PostBind."""
    assumed = assumed_info.pod
    host = result.suggested_host
    if not is_success(permit_status):
        if permit_status.is_rejected():
            diagnosis = Diagnosis(node_to_status_map={host: permit_status},
                                  unschedulable_plugins={permit_status.plugin})
            return _status_with_fit_error(permit_status.code, FitError(assumed, 1, diagnosis))
        return Status.as_status(f"waiting on permit for pod: {permit_status.message()}").with_plugin(
            permit_status.plugin)
    status = fwk.run_pre_bind_plugins(state, assumed, host)
    if not is_success(status):
        return status
    status = bind(sched, fwk, assumed, host, state)
    if not is_success(status):
        return status
    fwk.run_post_bind_plugins(state, assumed, host)
    if pods_to_activate.map:
        sched.scheduling_queue.activate(pods_to_activate.map)
    return None


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).handleBindingCycleError", 324, 356)
def handle_binding_cycle_error(sched: "Scheduler", state: CycleState, fwk: Framework, pod_info: QueuedPodInfo,
                               result: ScheduleResult, status: Status) -> None:
    assumed = pod_info.pod
    fwk.run_reserve_plugins_unreserve(state, assumed, result.suggested_host)
    try:
        sched.cache.forget_pod(assumed)
    except Exception:  # upstream: logs "scheduler cache ForgetPod failed"
        pass
    else:
        sched.record(BindEvent(sched.clock.now, fwk.ctx.cycle, assumed.key, result.suggested_host, "forget"))
        # The room the pod held is free again: other pods may now fit.
        if not status.is_rejected():
            sched.scheduling_queue.move_all_to_active_or_backoff_queue(ASSIGNED_POD_DELETE, assumed, None, None)
        else:
            # upstream: a deferred call, after the failure handler, that skips the pod itself.
            sched.failure_handler(fwk, pod_info, status, CLEAR_NOMINATED_NODE)
            sched.scheduling_queue.move_all_to_active_or_backoff_queue(
                ASSIGNED_POD_DELETE, assumed, None, lambda p: p.uid != assumed.uid)
            return
    sched.failure_handler(fwk, pod_info, status, CLEAR_NOMINATED_NODE)


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).skipPodSchedule", 367, 385)
def skip_pod_schedule(sched: "Scheduler", fwk: Framework, pod: Pod) -> bool:
    """A pod being deleted, or already assumed, is not scheduled again."""
    if pod.metadata.deletion_timestamp is not None:
        return True
    return sched.cache.is_assumed_pod(pod)


# --- schedulePod ------------------------------------------------------------------


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).schedulePod", 390, 438)
@metrics.observed("schedulePod", fwk_arg=1)  # upstream: SchedulingAlgorithmLatency, observed by schedulingCycle
def schedule_pod(sched: "Scheduler", fwk: Framework, state: CycleState, pod: Pod) -> ScheduleResult:
    """Filter, score and pick a node for ``pod`` against a fresh snapshot.

    Raises FitError when no node fits, NoNodesAvailableError on an empty cluster.
    """
    sched.cache.update_snapshot(sched.node_info_snapshot)
    sched.record_cycle_start(fwk, pod)
    if sched.node_info_snapshot.num_nodes() == 0:
        raise NoNodesAvailableError()
    feasible_nodes, diagnosis = find_nodes_that_fit_pod(sched, fwk, state, pod)
    if not feasible_nodes:
        raise FitError(pod, sched.node_info_snapshot.num_nodes(), diagnosis)
    # When only one node after predicate, just use it.
    if len(feasible_nodes) == 1:
        return ScheduleResult(feasible_nodes[0].name, 1 + len(diagnosis.node_to_status_map), 1)
    priority_list = prioritize_nodes(fwk, state, pod, feasible_nodes)
    host = select_host(priority_list, NUMBER_OF_HIGHEST_SCORED_NODES_TO_REPORT, sched.rng)
    return ScheduleResult(host, len(feasible_nodes) + len(diagnosis.node_to_status_map), len(feasible_nodes))


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).findNodesThatFitPod", 442, 525)
def find_nodes_that_fit_pod(sched: "Scheduler", fwk: Framework, state: CycleState,
                            pod: Pod) -> tuple[list[NodeInfo], Diagnosis]:
    diagnosis = Diagnosis()
    all_nodes = sched.node_info_snapshot.node_infos().list()
    # Run "prefilter" plugins.
    pre_res, s = fwk.run_pre_filter_plugins(state, pod)
    if not is_success(s):
        if not s.is_rejected():
            raise SchedulingError(s.message())
        # All nodes get the same status, so that preemption can handle them.
        for n in all_nodes:
            diagnosis.node_to_status_map[n.name] = s
        diagnosis.pre_filter_msg = s.message()
        diagnosis.add_plugin_status(s)
        return [], diagnosis

    # A nominatedNodeName may have been set by preemption in an earlier cycle: that node is
    # likely the only one that fits, so it is tried first.
    if pod.status.nominated_node_name:
        feasible_nodes, _ = evaluate_nominated_node(sched, pod, fwk, state, diagnosis)  # upstream: err logged
        if feasible_nodes:
            return feasible_nodes, diagnosis

    nodes = all_nodes
    if pre_res is not None and not pre_res.all_nodes():
        # upstream: ranges over a Go set (random order); we keep the snapshot's order.
        nodes = [n for n in all_nodes if n.name in pre_res.node_names]
    feasible_nodes, err = find_nodes_that_pass_filters(sched, fwk, state, pod, diagnosis, nodes)
    # Always update nextStartNodeIndex, whether or not an error occurred, so that every
    # node gets its chance to be searched.
    processed_nodes = len(feasible_nodes) + len(diagnosis.node_to_status_map)
    sched.next_start_node_index = (sched.next_start_node_index + processed_nodes) % len(all_nodes)
    if err is not None:
        raise err
    return feasible_nodes, diagnosis


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).evaluateNominatedNode", 527, 545)
def evaluate_nominated_node(sched: "Scheduler", pod: Pod, fwk: Framework, state: CycleState,
                            diagnosis: Diagnosis) -> tuple[list[NodeInfo], Optional[Exception]]:
    try:
        node_info = sched.node_info_snapshot.get(pod.status.nominated_node_name)
    except KeyError as err:
        return [], err
    feasible_nodes, err = find_nodes_that_pass_filters(sched, fwk, state, pod, diagnosis, [node_info])
    if err is not None:
        return [], err
    return feasible_nodes, None


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).hasScoring", 548, 558)
def has_scoring(fwk: Framework) -> bool:
    return fwk.has_score_plugins()


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).findNodesThatPassFilters", 571, 652)
def find_nodes_that_pass_filters(sched: "Scheduler", fwk: Framework, state: CycleState, pod: Pod,
                                 diagnosis: Diagnosis,
                                 nodes: list[NodeInfo]) -> tuple[list[NodeInfo], Optional[SchedulingError]]:
    num_all_nodes = len(nodes)
    num_nodes_to_find = num_feasible_nodes_to_find(sched.percentage_of_nodes_to_score,
                                                   fwk.percentage_of_nodes_to_score, num_all_nodes)
    if not has_scoring(fwk):  # upstream: and no extender filters (extenders are not called)
        num_nodes_to_find = 1
    feasible_nodes: list[NodeInfo] = []
    if not fwk.has_filter_plugins():
        for i in range(num_nodes_to_find):
            feasible_nodes.append(nodes[(sched.next_start_node_index + i) % num_all_nodes])
        return feasible_nodes, None

    # upstream times the whole loop, every node at once, as the Filter extension point's
    # duration (framework_extension_point_duration_seconds, a deferred Observe: L627-634).
    observation = metrics.Observation(fwk, "Filter")
    # upstream: fwk.Parallelizer().Until(checkNode), client-go's workqueue.ParallelizeUntil on
    # `parallelism` goroutines, cancelled when one node more than needed passed or a plugin
    # failed; with parallelism 1 that is this loop, node by node.
    for i in range(num_all_nodes):
        # Start where the previous cycle stopped: every node gets the same chance.
        node_info = nodes[(sched.next_start_node_index + i) % num_all_nodes]
        status = fwk.run_filter_plugins_with_nominated_pods(state, pod, node_info)
        if status is not None and status.code == Code.Error:
            observation.observe(nodes=i + 1)
            return feasible_nodes, SchedulingError(status.message())
        if status is None or status.code == Code.Success:
            if len(feasible_nodes) + 1 > num_nodes_to_find:
                break
            feasible_nodes.append(node_info)
        else:
            diagnosis.node_to_status_map[node_info.name] = status
            diagnosis.add_plugin_status(status)
    observation.observe(nodes=i + 1)  # the nodes examined
    return feasible_nodes, None


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).numFeasibleNodesToFind", 656, 682)
def num_feasible_nodes_to_find(global_percentage: Optional[int], profile_percentage: Optional[int],
                               num_all_nodes: int) -> int:
    """How many feasible nodes are enough (upstream numFeasibleNodesToFind).

    Small clusters (< 100 nodes) are searched whole. Otherwise a percentage of
    the nodes, at least 100: the profile's, else the global setting, else the
    adaptive default 50% - nodes/125, but never under 5%.
    """
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND:
        return num_all_nodes
    percentage = profile_percentage if profile_percentage is not None else (global_percentage or 0)
    if percentage == 0:
        percentage = 50 - num_all_nodes // 125
        if percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND:
            percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND
    num_nodes = num_all_nodes * percentage // 100
    if num_nodes < MIN_FEASIBLE_NODES_TO_FIND:
        return MIN_FEASIBLE_NODES_TO_FIND
    return num_nodes


@ports("pkg/scheduler/schedule_one.go", "prioritizeNodes", 743, 853)
def prioritize_nodes(fwk: Framework, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> list[NodePluginScores]:
    # If no score plugins are configured, every node scores 1.
    if not fwk.has_score_plugins():
        return [NodePluginScores(n.name, total_score=1) for n in nodes]
    # Run PreScore plugins.
    s = fwk.run_pre_score_plugins(state, pod, nodes)
    if not is_success(s):
        raise SchedulingError(s.message())
    # Run the Score plugins.
    nodes_scores, s = fwk.run_score_plugins(state, pod, nodes)
    if not is_success(s):
        raise SchedulingError(s.message())
    # upstream: extenders' Prioritize would add their scores here (extenders are not called).
    return nodes_scores


_total_score = attrgetter("total_score")


@ports("pkg/scheduler/schedule_one.go", "selectHost", 861, 908)
def select_host(node_score_list: list[NodePluginScores], count: int, rng) -> str:
    """Pick the top-scoring node; among ties, each is equally likely (reservoir sampling)."""
    if not node_score_list:
        raise SchedulingError("empty priorityList")
    # upstream: a max-heap popped while the score stays the highest; here the nodes with the
    # highest score, in list order (the order a stable sort by score would pop them in).
    best = max(map(_total_score, node_score_list))
    ties = [ns for ns in node_score_list if ns.total_score == best]
    selected = ties[0]
    count_of_max = 1
    intn = rand_intn(rng)
    for ns in ties[1:]:
        count_of_max += 1
        if intn(count_of_max) == 0:
            selected = ns
    return selected.name


@plumbing("Go's rand.Intn on Python's random.Random")
def rand_intn(rng: Any) -> Callable[[int], int]:
    """``rng``'s draw of a number in [0, n), as a function of n.

    For a ``random.Random`` whose randrange is the standard one, the draw ``randrange(n)``
    makes (rejection sampling on ``getrandbits``) without randrange's argument checks:
    select_host draws once per tied node, hundreds of times per cycle. Any other generator
    (a test's, a notebook's) is asked for ``randrange(n)``.
    """
    if not isinstance(rng, random.Random) or type(rng).randrange is not random.Random.randrange:
        return rng.randrange
    getrandbits = rng.getrandbits

    def intn(n: int) -> int:
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r
    return intn


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).assume", 934, 951)
def assume(sched: "Scheduler", assumed: Pod, host: str) -> None:
    """Book the pod on ``host`` in the cache before binding (optimistic binding)."""
    assumed.spec.node_name = host
    sched.cache.assume_pod(assumed)
    sched.record(BindEvent(sched.clock.now, sched.cycle, assumed.key, host, "assume"))
    sched.scheduling_queue.delete_nominated_pod_if_exists(assumed)


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).bind", 956, 967)
def bind(sched: "Scheduler", fwk: Framework, assumed: Pod, target_node: str, state: CycleState) -> Optional[Status]:
    status = fwk.run_bind_plugins(state, assumed, target_node)
    # upstream: deferred finishBinding, whatever the outcome.
    sched.cache.finish_binding(assumed, sched.clock.now)
    return status


# --- failures -----------------------------------------------------------------------


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).handleSchedulingFailure", 1011, 1097)
def handle_scheduling_failure(sched: "Scheduler", fwk: Framework, pod_info: QueuedPodInfo, status: Status,
                              nominating_info: Optional[NominatingInfo]) -> None:
    """Park the pod (unschedulable or backoff) and write why on its PodScheduled condition."""
    reason = "Unschedulable" if status.is_rejected() else "SchedulerError"
    pod = pod_info.pod
    fit_error = status.err if isinstance(status.err, FitError) else None
    if fit_error is not None:
        pod_info.unschedulable_plugins = set(fit_error.diagnosis.unschedulable_plugins)
        pod_info.pending_plugins = set(fit_error.diagnosis.pending_plugins)
    err_msg = status.message()
    cached = sched.client.get_pod(pod.metadata.namespace, pod.metadata.name)
    if cached is None:
        sched.scheduling_queue.done(pod.uid)  # upstream: the pod was deleted meanwhile
    elif cached.spec.node_name:
        sched.scheduling_queue.done(pod.uid)  # bound by someone else meanwhile
    else:
        pod_info.pod_info.update(sched.client.copy_pod(cached))
        sched.scheduling_queue.add_unschedulable_if_not_present(pod_info, sched.scheduling_queue.scheduling_cycle)
    sched.scheduling_queue.add_nominated_pod(pod_info.pod_info, nominating_info)
    condition = PodCondition("PodScheduled", "False", reason, err_msg)
    try:
        update_pod(sched.client, pod, condition, nominating_info)
    except Exception:  # upstream: "Error updating pod" is logged (e.g. the pod was deleted meanwhile)
        pass


@ports("pkg/scheduler/schedule_one.go", "truncateMessage", 1100, 1107)
def truncate_message(message: str) -> str:
    if len(message) <= NOTE_LENGTH_LIMIT:
        return message
    suffix = " ..."
    return message[:NOTE_LENGTH_LIMIT - len(suffix)] + suffix


@ports("pkg/scheduler/schedule_one.go", "updatePod", 1109, 1123)
def update_pod(client: Any, pod: Pod, condition: PodCondition,
               nominating_info: Optional[NominatingInfo]) -> None:
    """Patch the pod's status: the PodScheduled condition and, on override, nominatedNodeName.

    Both are compared with ``pod``, the scheduler's own copy (the one the failed cycle
    started from), not with what the API server holds."""
    pod_status_copy = deep_copy(pod.status)
    # nominatedNodeName is updated only if we are trying to set it, and the value is
    # different from the existing one.
    override = nominating_info is not None and nominating_info.mode() == NominatingMode.ModeOverride
    nnn_needs_update = override and pod.status.nominated_node_name != nominating_info.nominated_node_name
    if not update_pod_condition(pod_status_copy, condition) and not nnn_needs_update:
        return
    if nnn_needs_update:
        pod_status_copy.nominated_node_name = nominating_info.nominated_node_name
    patch_pod_status(client, pod, pod_status_copy)
