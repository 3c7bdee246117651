"""Port of pkg/scheduler/scheduler.go (v1.30).

The Scheduler ties the pieces together: the cache and its snapshot, the
scheduling queue, one Framework per profile, the event handlers that feed
them from the API server, and the loop that calls ``schedule_one``.

Deviations:
- ``run`` is a loop on the virtual clock, not ``wait.UntilWithContext``: when
  activeQ has a pod it runs one scheduling cycle, otherwise it advances the
  clock to the next timer (a binding step, a backoff expiry, a queue flush).
- The binding cycle of each pod is a goroutine upstream, running beside the
  scheduling loop. Here it is *binding work*: ``bind_latency`` seconds after
  the scheduling cycle (at once when 0) it becomes ready, and ready work lands
  during the *next* scheduling cycle, after that cycle's ``Pop`` and before its
  failure handling, as it does upstream with a fast API server (see
  ``take_binding_work``). When no pod is waiting to be popped, ready work runs
  at once. A Permit wait resolved by another pod's cycle or by a timeout wakes
  its binding work the same way. ``finish_binding_cycles`` runs the ready work
  by hand, for step-by-step use.
- The binding cycle of a pod with a claim may wait inside PreBind (VolumeBinding
  polls every second until the PV controller has bound the pod's volumes). It
  runs as a ``_BindingGoroutine``, a thread that takes turns with the scheduler
  (never both at once): each sleep of the poll is a timer on the virtual clock.
- Score ties are broken by ``self.rng``, a ``random.Random(seed)``.
"""
from __future__ import annotations

import random
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Optional

from .anchors import plumbing, ports
from .api.deepcopy import deep_copy
from .api.types import Pod
from .config.types import KubeSchedulerConfiguration
from .eventhandlers import add_all_event_handlers
from .framework.cycle_state import CycleState
from .framework.interface import Code, Status, new_status
from .framework.plugins.registry import new_in_tree_registry
from .framework.runtime import Framework, Registry, WaitingPod
from .framework.types import PodInfo, QueuedPodInfo
from .internal.cache.cache import Cache
from .internal.cache.snapshot import Snapshot
from .internal.queue.scheduling_queue import PriorityQueue, build_queueing_hint_map
from .profile import new_map
from .schedule_one import (PodsToActivate, ScheduleResult, binding_cycle, handle_binding_cycle_error,
                           handle_scheduling_failure, schedule_one)
from .sim.apiserver import APIServer
from .sim.clock import VirtualClock
from .trace import NULL_RECORDER, BindEvent, CycleEvent, PermitEvent, Recorder


@plumbing("Python exception for the error upstream's New returns")
class ConfigurationError(Exception):
    """The scheduler could not be built from its configuration (upstream New's error)."""


@dataclass
class _BindingTask:
    state: CycleState
    fwk: Framework
    result: ScheduleResult
    info: QueuedPodInfo
    pods_to_activate: PodsToActivate
    cycle: int


@ports("pkg/scheduler/scheduler.go", "Scheduler", 64, 109)
class Scheduler:
    """Watches for unscheduled pods, finds nodes they fit on and writes bindings back (scheduler.go)."""

    # The struct's fields, in its order (New sets them):
    cache: Cache
    # Extenders: none are called in the port.
    # NextPod, FailureHandler: function fields upstream (the queue's Pop, handleSchedulingFailure);
    # here the methods next_pod and failure_handler.
    # SchedulePod: a function field upstream (schedulePod); here schedule_one.schedule_pod.
    # StopEverything: a channel upstream; the virtual clock's run loop stops instead.
    scheduling_queue: PriorityQueue
    profiles: dict[str, Framework]  # profile.Map: schedulerName -> framework
    client: APIServer
    node_info_snapshot: Snapshot
    percentage_of_nodes_to_score: Optional[int]
    next_start_node_index: int
    # logger: the port writes to its trace instead.
    recorder: Recorder
    # registeredHandlers: the simulated API server calls its watchers at once; nothing waits to sync.

    # The port's own: the virtual clock, the seeded random numbers, the bind latency, counters.
    clock: VirtualClock
    config: KubeSchedulerConfiguration
    rng: random.Random
    bind_latency: float
    cycle: int
    attempts: dict[str, int]  # scheduling attempts per pod key (upstream's pod_scheduling_attempts metric)
    @ports("pkg/scheduler/scheduler.go", "New", 253, 364)
    def __init__(self, config: KubeSchedulerConfiguration, client: Optional[APIServer] = None, *,
                 clock: Optional[VirtualClock] = None, seed: int = 0, recorder: Recorder = NULL_RECORDER,
                 registry: Optional[Registry] = None, bind_latency: float = 0.0,
                 queueing_hints: bool = False, victim_grace_period: Optional[float] = None) -> None:
        self.clock = clock or (client.clock if client is not None and client.clock is not None else VirtualClock())
        self.client = client or APIServer(self.clock)
        if self.client.clock is None:
            self.client.clock = self.clock
        self.config = config
        self.rng = random.Random(seed)
        self.recorder = recorder
        self.bind_latency = bind_latency
        self.cache = Cache()
        self.node_info_snapshot = Snapshot()
        self.percentage_of_nodes_to_score = config.percentage_of_nodes_to_score
        self.next_start_node_index = 0
        self.cycle = 0
        # Scheduling attempts per pod key (upstream's pod_scheduling_attempts metric).
        self.attempts: dict[str, int] = {}
        self._binding_in_flight = 0
        # Binding work that is ready to run (upstream: binding goroutines past their waits).
        self._binding_work: deque[Callable[[], None]] = deque()
        try:
            self.profiles = new_map(config.profiles, registry or new_in_tree_registry(),
                                    snapshot_lister=self.node_info_snapshot, client=self.client,
                                    object_lister=self.client, recorder=recorder,
                                    parallelism=config.parallelism)
        except Exception as err:
            raise ConfigurationError(f"initializing profiles: {err}") from err
        first = next(iter(self.profiles.values()))
        self.scheduling_queue = PriorityQueue(
            first.queue_sort_func(), clock=self.clock,
            pod_initial_backoff_seconds=config.pod_initial_backoff_seconds,
            pod_max_backoff_seconds=config.pod_max_backoff_seconds,
            pre_enqueue_plugins={name: f.pre_enqueue_plugins for name, f in self.profiles.items()},
            queueing_hint_map=build_queueing_hint_map(self.profiles, queueing_hints),
            queueing_hints_enabled=queueing_hints, recorder=recorder)
        for index, fwk in enumerate(self.profiles.values()):
            fwk.nominator = self.scheduling_queue
            self._seed_plugins(fwk, seed, index, victim_grace_period)
        add_all_event_handlers(self)
        self.scheduling_queue.start(self.clock)

    @staticmethod
    def _seed_plugins(fwk: Framework, seed: int, index: int, victim_grace_period: Optional[float]) -> None:
        """Give plugins that draw random numbers (DefaultPreemption's offset) a generator of this run,
        and tell preemption how long victims take to go (None: each pod's own grace period)."""
        for plugin in fwk.plugins_map.values():
            if hasattr(plugin, "rng"):
                plugin.rng = random.Random(seed * 1_000_003 + index)
            if hasattr(plugin, "victim_grace_period"):
                plugin.victim_grace_period = victim_grace_period

    # --- the pieces schedule_one.py asks for --------------------------------------------

    @ports("pkg/scheduler/scheduler.go", "New", 253, 364)
    def next_pod(self) -> Optional[QueuedPodInfo]:
        return self.scheduling_queue.pop()

    @ports("pkg/scheduler/schedule_one.go", "(*Scheduler).frameworkForPod", 358, 364)
    def framework_for_pod(self, pod: Pod) -> Optional[Framework]:
        return self.profiles.get(pod.spec.scheduler_name)

    @ports("pkg/scheduler/eventhandlers.go", "responsibleForPod", 263, 265)
    def responsible_for_pod(self, pod: Pod) -> bool:
        return pod.spec.scheduler_name in self.profiles

    @ports("pkg/scheduler/scheduler.go", "(*Scheduler).applyDefaultHandlers", 111, 114)
    def failure_handler(self, fwk: Framework, info: QueuedPodInfo, status: Status, nominating_info: Any) -> None:
        handle_scheduling_failure(self, fwk, info, status, nominating_info)

    @staticmethod
    @ports("pkg/scheduler/framework/types.go", "(*QueuedPodInfo).DeepCopy", 220, 229)
    def copy_queued_pod_info(info: QueuedPodInfo) -> QueuedPodInfo:
        """Upstream QueuedPodInfo.DeepCopy: the assumed pod is a copy, the queue's stays as it was."""
        pod = deep_copy(info.pod)
        return QueuedPodInfo(PodInfo.of(pod), info.timestamp, info.attempts, info.initial_attempt_timestamp,
                             set(info.unschedulable_plugins), set(info.pending_plugins), info.gated)

    # --- tracing ----------------------------------------------------------------------

    @plumbing("trace hook: hands an event to the recorder when tracing is on")
    def record(self, event: Any) -> None:
        if self.recorder.enabled:
            self.recorder.record(event)

    @plumbing("trace hook: counts the cycle and records its start")
    def record_cycle_start(self, fwk: Framework, pod: Pod) -> None:
        self.cycle += 1
        self.attempts[pod.key] = self.attempts.get(pod.key, 0) + 1
        fwk.ctx.cycle, fwk.ctx.pod, fwk.ctx.time = self.cycle, pod.key, self.clock.now
        self.record(CycleEvent(self.clock.now, self.cycle, pod.key, fwk.profile_name, "start"))

    @plumbing("trace hook: records how a scheduling cycle ended")
    def record_cycle_end(self, fwk: Framework, pod: Pod, kind: str, node: str = "", message: str = "",
                         evaluated: int = 0, feasible: int = 0) -> None:
        self.record(CycleEvent(self.clock.now, self.cycle, pod.key, fwk.profile_name, kind, node, message,
                               evaluated, feasible))

    # --- the binding cycle on the clock ----------------------------------------------------

    @ports("pkg/scheduler/schedule_one.go", "(*Scheduler).ScheduleOne", 66, 134)
    def start_binding_cycle(self, state: CycleState, fwk: Framework, result: ScheduleResult,
                            info: QueuedPodInfo, pods_to_activate: PodsToActivate) -> None:
        task = _BindingTask(state, fwk, result, info, pods_to_activate, self.cycle)
        self._binding_in_flight += 1
        waiting = fwk.get_waiting_pod(info.pod.uid)
        if waiting is None:
            self._go(self.bind_latency, lambda: self._finish_binding_cycle(task, None), f"bind {info.pod.key}")
            return
        # upstream: WaitOnPermit blocks the binding goroutine; here timers check back.
        self.record(PermitEvent(self.clock.now, task.cycle, info.pod.key, fwk.profile_name,
                                result.suggested_host, "wait", tuple(waiting.get_pending_plugins()),
                                deadline=min(waiting.pending_plugins.values())))
        for plugin, deadline in waiting.pending_plugins.items():
            self.clock.call_at(deadline, lambda p=plugin, w=waiting: self._permit_timeout(task, w, p),
                               label="permit timeout")
        # upstream: Allow or Reject wakes the goroutine blocked in WaitOnPermit.
        waiting.on_resolve = lambda: self._go(0.0, lambda: self._after_permit(task), f"permit {info.pod.key}")
        if waiting.status is not None:  # allowed or rejected before the binding cycle began
            waiting.on_resolve()

    @ports("pkg/scheduler/framework/runtime/waiting_pods_map.go", "newWaitingPod", 83, 108)
    def _permit_timeout(self, task: _BindingTask, waiting: WaitingPod, plugin: str) -> None:
        # upstream: each waitingPod owns its timers (stopped on Allow/Reject); a timer of an
        # earlier attempt must not reject the pod's next wait.
        if task.fwk.get_waiting_pod(task.info.pod.uid) is not waiting:
            return
        if waiting.status is None and plugin in waiting.pending_plugins:
            waited = _go_duration(waiting.pending_plugins[plugin] - waiting.since)
            waiting.timed_out = True
            waiting.reject(plugin, f"rejected due to timeout after waiting {waited} at plugin {plugin}")

    @ports("pkg/scheduler/schedule_one.go", "(*Scheduler).bindingCycle", 265, 322)
    def _after_permit(self, task: _BindingTask) -> None:
        waiting = task.fwk.waiting_pods.pop(task.info.pod.uid, None)
        status = waiting.status if waiting is not None else new_status(Code.Success)
        self._record_permit_end(task, waiting, status)
        # A rejected pod is handled at once: no PreBind or Bind call takes the binding latency.
        if status.is_success() and self.bind_latency > 0:
            self._go(self.bind_latency, lambda: self._finish_binding_cycle(task, status), f"bind {task.info.pod.key}")
        else:  # the same goroutine goes on
            self._finish_binding_cycle(task, status)

    def _record_permit_end(self, task: _BindingTask, waiting: Optional[WaitingPod], status: Status) -> None:
        if status.is_success():
            kind = "allowed"
        else:
            kind = "timeout" if waiting is not None and waiting.timed_out else "rejected"
        self.record(PermitEvent(self.clock.now, task.cycle, task.info.pod.key, task.fwk.profile_name,
                                task.result.suggested_host, kind, (status.plugin,) if status.plugin else (),
                                status.message()))

    @ports("pkg/scheduler/schedule_one.go", "(*Scheduler).ScheduleOne", 66, 134)
    def _finish_binding_cycle(self, task: _BindingTask, permit_status: Optional[Status]) -> None:
        """The rest of the binding cycle: PreBind, Bind, PostBind (or the failure handling)."""
        if not _may_wait_at_pre_bind(task.info.pod):
            self._binding_cycle_to_end(task, permit_status)
            return
        # upstream: the goroutine blocks in VolumeBinding's PreBind, polling every second until
        # the PV controller has bound the pod's volumes; here it is a goroutine that sleeps on
        # the virtual clock (see _BindingGoroutine and _step_goroutine).
        goroutine = _BindingGoroutine(lambda: self._binding_cycle_to_end(task, permit_status), task.info.pod.key)
        self._step_goroutine(task, goroutine, goroutine.start)

    @ports("pkg/scheduler/schedule_one.go", "(*Scheduler).ScheduleOne", 66, 134)
    def _go(self, delay: float, work: Callable[[], None], label: str) -> None:
        """Binding work that becomes ready after ``delay`` seconds (at once when 0)."""
        # upstream: a goroutine; here a step that waits for the scheduling loop (take_binding_work).
        if delay > 0:
            self.clock.call_later(delay, lambda: self._binding_work.append(work), label=label)
        else:
            self._binding_work.append(work)

    @plumbing("binding goroutines as steps on the virtual clock: takes the ready ones")
    def take_binding_work(self) -> list[Callable[[], None]]:
        """The binding work ready now, taken from the scheduler to run during the cycle just popped.

        upstream: ``ScheduleOne`` starts ``bindingCycle`` in a goroutine and the loop pops the
        next pod at once; the bind, and the watch event it causes, land while that next pod's
        scheduling cycle runs. So a pod that fails in that cycle sees the event's move request
        (``moveRequestCycle``) and goes to backoffQ, not to unschedulablePods.
        """
        work = list(self._binding_work)
        self._binding_work.clear()
        return work

    @staticmethod
    @plumbing("binding goroutines as steps on the virtual clock: runs the taken ones")
    def run_binding_work(work: list[Callable[[], None]]) -> bool:
        for step in work:
            step()
        return bool(work)

    @plumbing("step-by-step use: lands every ready binding step at once")
    def finish_binding_cycles(self) -> bool:
        """Run every binding step that is ready now (and what it makes ready); False when none was.

        For step-by-step use: after ``schedule_one()``, the pod's bind has not landed yet
        (upstream it would land during the next cycle); this lands it.
        """
        ran = False
        while self._binding_work:
            ran = self.run_binding_work(self.take_binding_work()) or ran
        return ran

    # --- the loop -------------------------------------------------------------------------

    @ports("pkg/scheduler/schedule_one.go", "(*Scheduler).ScheduleOne", 66, 134)
    def schedule_one(self) -> bool:
        return schedule_one(self)

    @plumbing("virtual-clock loop: whether any scheduling, binding or timer work is left")
    def busy(self) -> bool:
        """Work is left: a pod in activeQ or backoffQ, a binding cycle not finished, or a timer
        that is not a periodic flush (a workload arrival, a deletion, a Permit timeout)."""
        return (self.scheduling_queue.has_active_or_backoff() or self._binding_in_flight > 0
                or bool(self._binding_work) or self.clock.has_foreground())

    @ports("pkg/scheduler/scheduler.go", "(*Scheduler).Run", 435, 455)
    def run(self, until: Optional[float] = None, max_steps: int = 10_000_000,
            progress: Optional[Callable[[], None]] = None) -> None:
        """Schedule until quiescent (or until the clock passes ``until``).

        Each step either fires a timer that is due, or runs one scheduling cycle,
        or advances the clock to the next timer. ``progress`` is called every 200 steps.
        """
        # upstream: first SchedulingQueue.Run, which starts the queue's two periodic flushes;
        # here they are timers on the virtual clock, set once when the scheduler is made
        # (PriorityQueue.start), so that ``run`` may be called again to go on.

        # upstream: a goroutine runs ScheduleOne over and over (wait.UntilWithContext) until the
        # context is done, while the flushes, the binding goroutines and the informers run beside
        # it. Here one loop takes turns on the virtual clock: a timer that is due fires first,
        # then one ScheduleOne; with nothing to schedule the clock jumps to the next timer. The
        # context is done once the clock passes ``until``, or, without ``until``, once no work is left.
        for step in range(max_steps):
            if progress is not None and step % 200 == 0:
                progress()
            if until is not None and self.clock.now > until:
                return  # the context is done
            due = self.clock.next_due()
            if due is not None and due <= self.clock.now:
                self.clock.fire_next()  # a timer due now: a flush, a binding step, a workload event
                continue
            if self.schedule_one():
                continue
            if until is None and not self.busy():
                return  # no work is left: the context is done
            if due is None or (until is not None and due > until):
                if until is not None:
                    self.clock.advance_to(until)
                return  # no timer before ``until``: the context is done
            self.clock.fire_next()  # nothing to schedule: jump to the next timer
        # upstream: once the context is done, SchedulingQueue.Close and Profiles.Close (which closes
        # the plugins that can be closed). Here the queue stays open, so that ``run`` may go on
        # later; no plugin of this port holds anything to close.

    # --- a binding cycle that waits inside PreBind ------------------------------------------

    @ports("pkg/scheduler/schedule_one.go", "(*Scheduler).ScheduleOne", 66, 134)
    def _binding_cycle_to_end(self, task: _BindingTask, permit_status: Optional[Status]) -> None:
        self._binding_in_flight -= 1
        fwk, info = task.fwk, task.info
        fwk.ctx.cycle, fwk.ctx.pod, fwk.ctx.time = task.cycle, info.pod.key, self.clock.now
        status = binding_cycle(self, task.state, fwk, task.result, info, task.pods_to_activate, permit_status)
        if status is not None and status.code != Code.Success:
            handle_binding_cycle_error(self, task.state, fwk, info, task.result, status)
            return
        self.record(BindEvent(self.clock.now, task.cycle, info.pod.key, task.result.suggested_host, "bound"))
        self.scheduling_queue.done(info.pod.uid)

    @plumbing("binding goroutines as steps on the virtual clock: runs one that may sleep until it sleeps or ends")
    def _step_goroutine(self, task: _BindingTask, goroutine: "_BindingGoroutine", step: Callable[[], None]) -> None:
        """Run the goroutine until it ends or sleeps; a sleep comes back as binding work when it is over."""
        fwk = task.fwk
        fwk.ctx.cycle, fwk.ctx.pod, fwk.ctx.time = task.cycle, task.info.pod.key, self.clock.now
        # The volume binder's poll sleeps in whichever goroutine runs (one at a time).
        for plugin in fwk.plugins_map.values():
            binder = getattr(plugin, "binder", None)
            if binder is not None and hasattr(binder, "sleep"):
                binder.sleep = goroutine.sleep_if_current
        step()
        if not goroutine.done:
            # upstream: the poll's next tick; the goroutine goes on while other pods are scheduled.
            # The tick's time is rounded to the nanosecond (Go's clock): a sum of one-second sleeps
            # must not drift in binary floating point (0.001 + 6 x 1.0 is 6.001, not 6.000999...).
            due = round(self.clock.now + goroutine.sleeping_for, 9)
            wake = lambda: self._step_goroutine(task, goroutine, goroutine.resume)  # noqa: E731
            self.clock.call_at(due, lambda: self._binding_work.append(wake), label=f"poll {task.info.pod.key}")

def _go_duration(seconds: float) -> str:
    """Go's time.Duration String for whole and fractional seconds (e.g. 10s, 1.5s, 1m0s)."""
    if seconds < 60:
        return f"{seconds:g}s"
    minutes, secs = divmod(seconds, 60)
    return f"{int(minutes)}m{secs:g}s"


def _may_wait_at_pre_bind(pod: Pod) -> bool:
    """Does the pod use a claim (a persistentVolumeClaim or an ephemeral volume), so that
    VolumeBinding's PreBind may have to wait for the PV controller?"""
    return any(isinstance(vol, dict) and ("persistentVolumeClaim" in vol or "ephemeral" in vol)
               for vol in pod.spec.volumes)


@plumbing("a binding goroutine that can sleep on the virtual clock: a thread that runs in turns")
class _BindingGoroutine:
    """A binding cycle that may wait inside PreBind, run in a thread strictly in turns with the scheduler.

    upstream: each binding cycle is a goroutine, and VolumeBinding's PreBind blocks it in
    ``wait.PollUntilContextTimeout`` (a check every second, up to ``bindTimeoutSeconds``)
    while the scheduling loop goes on. Python has no goroutines: the binding cycle of a
    pod with a claim runs in a thread, and ``start`` / ``resume`` run it until it returns
    or its poll calls ``sleep``, which hands control back. The thread never runs while
    the scheduler does, so a run stays deterministic; the scheduler turns each sleep into
    a timer on the virtual clock (``Scheduler._step_goroutine``). The binding cycle of a
    pod without claims is a plain call, as before.
    """

    def __init__(self, body: Callable[[], None], pod_key: str) -> None:
        self._body = body
        self._to_body = threading.Semaphore(0)
        self._to_caller = threading.Semaphore(0)
        self._thread = threading.Thread(target=self._run, name=f"binding cycle {pod_key}", daemon=True)
        self.done = False
        self.sleeping_for = 0.0
        self._error: Optional[BaseException] = None

    def _run(self) -> None:
        try:
            self._body()
        except BaseException as err:  # raised again in the scheduler's thread
            self._error = err
        finally:
            self.done = True
            self._to_caller.release()

    @plumbing("a binding goroutine that can sleep on the virtual clock: runs it until it sleeps or ends")
    def start(self) -> None:
        self._thread.start()
        self._wait_for_body()

    @plumbing("a binding goroutine that can sleep on the virtual clock: runs it again after a sleep")
    def resume(self) -> None:
        self._to_body.release()
        self._wait_for_body()

    def _wait_for_body(self) -> None:
        self._to_caller.acquire()
        if self._error is not None:
            err, self._error = self._error, None
            raise err

    @plumbing("a binding goroutine that can sleep on the virtual clock: the volume binder's sleep")
    def sleep_if_current(self, seconds: float) -> bool:
        """Wait ``seconds`` of virtual time, when called by the goroutine's own thread; else False at once."""
        if threading.current_thread() is not self._thread:
            return False
        self.sleeping_for = seconds
        self._to_caller.release()
        self._to_body.acquire()
        return True
