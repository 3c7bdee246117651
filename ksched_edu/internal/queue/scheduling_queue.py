"""Port of pkg/scheduler/internal/queue/scheduling_queue.go (v1.30).

The scheduling queue holds every pod waiting to be scheduled, in three parts:
activeQ (a heap in the profile's QueueSort order, where ``pop`` takes the next
pod), podBackoffQ (pods serving a backoff of 1 s doubling up to 10 s, ordered
by when it ends) and unschedulablePods (pods that failed and wait for a cluster
event that may help them). Cluster events move pods out of unschedulablePods
only when a plugin that rejected them registered the event; with queueing
hints (the SchedulerQueueingHints gate, off by default in v1.30) the plugin's
hint function also gets a say.

Deviations:
- No goroutines and no wall clock: ``start(clock)`` sets repeating timers on
  the virtual clock for the two flushes ``Run`` starts, and ``pop`` returns
  None instead of blocking when activeQ is empty.
- The SchedulerQueueingHints gate is the ``queueing_hints_enabled`` flag; give
  the same flag to :func:`build_queueing_hint_map`, which (like upstream's
  ``buildQueueingHintMap``) puts the default hint in place of each plugin's
  when the gate is off.
- Functions that return a Go error for the caller to log return a
  :class:`QueueError` (or None) instead of raising.
- Pods that the less function ties (same priority, same virtual instant) pop
  in the order the queue took their timestamps, as upstream's nanosecond
  timestamps would order them.
- The pod and namespace listers are optional callables; without a pod lister
  the nominator does not check that a pod still exists.
- Every move is reported to a trace recorder when one is enabled, at the call
  sites where upstream logs "Pod moved to an internal scheduling queue" (a move
  to backoffQ with the time its backoff ends); so is a cluster event that left
  a waiting pod where it was: no rejecting plugin answered Queue (upstream
  logs "Event is not making pod schedulable") or the pre-check filtered the
  pod out (upstream does not log that).
"""
from __future__ import annotations

import dataclasses
import enum
import itertools
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Optional, Union

from ...anchors import SCHEDULER_PLUGINS, plumbing, ports
from ...api.types import Pod
from ...framework.interface import Status, code_of, is_success
from ...framework.plugins.names import SCHEDULING_GATES
from ...framework.types import (NODE, ActionType, ClusterEvent, PodInfo, QueuedPodInfo, QueueingHint,
                                QueueingHintFn)
from ...sim.clock import Timer, VirtualClock
from ...trace import (NULL_RECORDER, SKIP_PRE_CHECK, SKIP_QUEUEING_HINT, PluginEvent, QueueEvent, QueueSkipEvent,
                      Recorder)
from .events import (ASSIGNED_POD_ADD, ASSIGNED_POD_UPDATE, BACKOFF_COMPLETE, FORCE_ACTIVATE, POD_ADD, POD_UPDATE,
                     SCHEDULE_ATTEMPT_FAILURE, UNSCHEDULABLE_TIMEOUT)
from .heap import Heap
from .nominator import Nominator, PodLister

# The longest a pod stays in unschedulablePods before a flush moves it anyway.
DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION = 5 * 60.0
DEFAULT_POD_INITIAL_BACKOFF_DURATION = 1.0
DEFAULT_POD_MAX_BACKOFF_DURATION = 10.0
# How often Run flushes backoffQ and unschedulablePods.
BACKOFF_Q_FLUSH_PERIOD = 1.0
UNSCHEDULABLE_PODS_FLUSH_PERIOD = 30.0

# Queue names, as upstream logs them.
ACTIVE_Q = "Active"
BACKOFF_Q = "Backoff"
UNSCHEDULABLE_PODS = "Unschedulable"
# Where a popped pod is until Done or AddUnschedulableIfNotPresent (trace only).
IN_FLIGHT = "InFlight"

PRE_ENQUEUE = "PreEnqueue"

PENDING_PODS_SUMMARY = "activeQ:{}; backoffQ:{}; unschedulablePods:{}"

# Decides, per waiting pod, whether an event may move it (upstream PreEnqueueCheck).
PreEnqueueCheck = Callable[[Pod], bool]
# Namespace name -> its labels, for affinity terms with a namespaceSelector.
NamespaceLabels = Callable[[str], Optional[dict[str, str]]]


@plumbing("Python exception for the errors upstream's queue methods return")
class QueueError(Exception):
    """What upstream returns as an error for the caller to log."""


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "queueingStrategy", 403, 403)
class QueueingStrategy(enum.IntEnum):
    """How to requeue a pod from unschedulablePods (upstream queueingStrategy)."""

    QueueSkip = 0  # stay in unschedulablePods
    QueueAfterBackoff = 1  # backoffQ, or activeQ if the backoff is over
    QueueImmediately = 2  # activeQ, skipping the backoff


QUEUE_SKIP = QueueingStrategy.QueueSkip
QUEUE_AFTER_BACKOFF = QueueingStrategy.QueueAfterBackoff
QUEUE_IMMEDIATELY = QueueingStrategy.QueueImmediately


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "QueueingHintFunction", 229, 232)
class QueueingHintFunction(NamedTuple):
    """A plugin's hint function for one event (a ``(plugin_name, hint_fn)`` pair)."""

    plugin_name: str
    queueing_hint_fn: QueueingHintFn


QueueingHintMap = dict[ClusterEvent, list[QueueingHintFunction]]
QueueingHintMapPerProfile = dict[str, QueueingHintMap]


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "clusterEvent", 235, 241)
@dataclasses.dataclass
class ClusterEventRecord:
    """An event seen while pods were in flight, with its objects (upstream clusterEvent)."""

    event: ClusterEvent
    old_obj: Any = None
    new_obj: Any = None


# --- keys ------------------------------------------------------------------------------


@ports("vendor/k8s.io/client-go/tools/cache/store.go", "MetaNamespaceKeyFunc", 108, 117, repo=SCHEDULER_PLUGINS)
def meta_namespace_key(pod: Pod) -> str:
    """Upstream cache.MetaNamespaceKeyFunc: ``namespace/name``, or ``name`` without a namespace."""
    ns = pod.metadata.namespace
    return f"{ns}/{pod.metadata.name}" if ns else pod.metadata.name


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "podInfoKeyFunc", 1564, 1566)
def pod_info_key_func(pinfo: QueuedPodInfo) -> str:
    return meta_namespace_key(pinfo.pod)


@ports("pkg/scheduler/util/utils.go", "GetPodFullName", 42, 46)
def get_pod_full_name(pod: Pod) -> str:
    """Upstream util.GetPodFullName: ``name_namespace``."""
    return f"{pod.metadata.name}_{pod.metadata.namespace}"


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "newQueuedPodInfoForLookup", 338, 345)
def new_queued_pod_info_for_lookup(pod: Pod, *plugins: str) -> QueuedPodInfo:
    """A QueuedPodInfo only good for looking a pod up: its affinity terms are not parsed."""
    return QueuedPodInfo(PodInfo(pod), unschedulable_plugins=set(plugins))


# --- building the hint map (upstream scheduler.go) ------------------------------------------


@ports("pkg/scheduler/scheduler.go", "buildQueueingHintMap", 372, 432)
def default_queueing_hint_fn(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Upstream defaultQueueingHintFn: every registered event is worth a retry."""
    return QueueingHint.Queue


@ports("pkg/scheduler/scheduler.go", "buildQueueingHintMap", 372, 432)
def build_queueing_hint_map_for_extensions(extensions: Iterable[Any],
                                           queueing_hints_enabled: bool = False) -> QueueingHintMap:
    """Upstream buildQueueingHintMap: event -> the plugins that registered it, with their hints.

    With the SchedulerQueueingHints gate off, every hint is the default one (Queue).
    """
    hint_map: QueueingHintMap = {}
    for e in extensions:
        events = e.events_to_register()
        # A plugin that registers no events (SchedulingGates) only wakes up through pod updates.
        if not events:
            continue
        register_node_added = False
        register_node_taint_updated = False
        for event in events:
            fn = event.queueing_hint_fn
            if fn is None or not queueing_hints_enabled:
                fn = default_queueing_hint_fn
            if event.event.resource == NODE:
                if event.event.action_type & ActionType.Add:
                    register_node_added = True
                if event.event.action_type & ActionType.UpdateNodeTaint:
                    register_node_taint_updated = True
            hint_map.setdefault(event.event, []).append(QueueingHintFunction(e.name(), fn))
        if register_node_added and not register_node_taint_updated:
            # upstream's stopgap for kubernetes#109437: the NodeAdd pre-check may hide a node that
            # later loses a taint, so a plugin interested in NodeAdd also hears UpdateNodeTaint.
            taint_event = ClusterEvent(NODE, ActionType.UpdateNodeTaint)
            hint_map.setdefault(taint_event, []).append(QueueingHintFunction(e.name(), default_queueing_hint_fn))
    return hint_map


@ports("pkg/scheduler/scheduler.go", "New", 253, 364)
def build_queueing_hint_map(frameworks: Union[Mapping[str, Any], Iterable[Any]],
                            queueing_hints_enabled: bool = False) -> QueueingHintMapPerProfile:
    """One hint map per profile, from each framework's ``enqueue_extensions`` (upstream scheduler.New)."""
    items = frameworks.items() if isinstance(frameworks, Mapping) else ((f.profile_name, f) for f in frameworks)
    return {name: build_queueing_hint_map_for_extensions(fwk.enqueue_extensions, queueing_hints_enabled)
            for name, fwk in items}


# --- the in-flight list -------------------------------------------------------------------


class _Element:
    __slots__ = ("value", "prev", "next")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.prev: Optional[_Element] = None
        self.next: Optional[_Element] = None


@plumbing("Go's container/list (standard library) for the in-flight pods and events")
class EventList:
    """A doubly linked list of in-flight pods and the events after them (Go's container/list)."""

    def __init__(self) -> None:
        self._root = _Element(None)
        self._root.prev = self._root.next = self._root
        self._len = 0

    @plumbing("Go's container/list (*List).PushBack")
    def push_back(self, value: Any) -> _Element:
        e = _Element(value)
        last = self._root.prev
        assert last is not None
        e.prev, e.next = last, self._root
        last.next = e
        self._root.prev = e
        self._len += 1
        return e

    @plumbing("Go's container/list (*List).Remove")
    def remove(self, e: _Element) -> None:
        assert e.prev is not None and e.next is not None
        e.prev.next = e.next
        e.next.prev = e.prev
        e.prev = e.next = None
        self._len -= 1

    @plumbing("Go's container/list (*List).Front")
    def front(self) -> Optional[_Element]:
        return self._root.next if self._len else None

    @plumbing("Go's container/list (*Element).Next")
    def next_of(self, e: _Element) -> Optional[_Element]:
        return e.next if e.next is not self._root else None

    @plumbing("Python convenience: the list's values, front to back")
    def values(self) -> list[Any]:
        out, e = [], self.front()
        while e is not None:
            out.append(e.value)
            e = self.next_of(e)
        return out

    def __len__(self) -> int:
        return self._len


# --- unschedulablePods ----------------------------------------------------------------------


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "UnschedulablePods", 1378, 1385)
class UnschedulablePods:
    """Pods tried and found unschedulable, or gated, keyed by ``name_namespace``.

    The two counters are upstream's pending-pods gauges: they move only when a
    pod enters or leaves, on the gated flag given at that moment.
    """

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "newUnschedulablePods", 1436, 1443)
    def __init__(self) -> None:
        self.pod_info_map: dict[str, QueuedPodInfo] = {}
        self.key_func = get_pod_full_name
        self.unschedulable_gauge = 0
        self.gated_gauge = 0

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*UnschedulablePods).addOrUpdate", 1388, 1398)
    def add_or_update(self, pinfo: QueuedPodInfo) -> None:
        pod_id = self.key_func(pinfo.pod)
        if pod_id not in self.pod_info_map:
            if pinfo.gated:
                self.gated_gauge += 1
            else:
                self.unschedulable_gauge += 1
        self.pod_info_map[pod_id] = pinfo

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*UnschedulablePods).delete", 1402, 1412)
    def delete(self, pod: Pod, gated: bool) -> None:
        """Remove ``pod``; ``gated`` says which gauge to decrease."""
        pod_id = self.key_func(pod)
        if pod_id in self.pod_info_map:
            if gated:
                self.gated_gauge -= 1
            else:
                self.unschedulable_gauge -= 1
            del self.pod_info_map[pod_id]

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*UnschedulablePods).get", 1416, 1422)
    def get(self, pod: Pod) -> Optional[QueuedPodInfo]:
        return self.pod_info_map.get(self.key_func(pod))

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*UnschedulablePods).clear", 1425, 1433)
    def clear(self) -> None:
        self.pod_info_map = {}
        self.unschedulable_gauge = 0
        self.gated_gauge = 0

    def __len__(self) -> int:
        return len(self.pod_info_map)


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "isPodUpdated", 967, 980)
def is_pod_updated(old_pod: Optional[Pod], new_pod: Pod) -> bool:
    """Whether an update may make the pod schedulable: anything but status and resourceVersion changed."""
    if old_pod is None:
        return True  # upstream never passes a nil old pod here

    def strip(pod: Pod) -> tuple[Any, Any]:
        return dataclasses.replace(pod.metadata, resource_version=""), pod.spec

    return strip(old_pod) != strip(new_pod)


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "isPodResourcesResizedDown", 1073, 1082)
def is_pod_resources_resized_down(pod: Pod) -> bool:
    """Upstream isPodResourcesResizedDown: needs InPlacePodVerticalScaling, off (alpha) in v1.30."""
    return False


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "updatePod", 1370, 1374)
def update_pod(old_pod_info: QueuedPodInfo, new_pod: Pod) -> QueuedPodInfo:
    old_pod_info.pod_info.update(new_pod)
    return old_pod_info


# --- the queue --------------------------------------------------------------------------


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "PriorityQueue", 152, 226)
class PriorityQueue(Nominator):
    """activeQ, podBackoffQ and unschedulablePods, with the nominator (upstream PriorityQueue)."""

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "NewPriorityQueue", 348, 390)
    def __init__(self, less_fn: Callable[[QueuedPodInfo, QueuedPodInfo], bool], *,
                 clock: Optional[VirtualClock] = None,
                 pod_initial_backoff_seconds: float = DEFAULT_POD_INITIAL_BACKOFF_DURATION,
                 pod_max_backoff_seconds: float = DEFAULT_POD_MAX_BACKOFF_DURATION,
                 pod_max_in_unschedulable_pods_seconds: float = DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION,
                 pre_enqueue_plugins: Optional[dict[str, list[Any]]] = None,
                 queueing_hint_map: Optional[QueueingHintMapPerProfile] = None,
                 queueing_hints_enabled: bool = False,
                 pod_lister: Optional[PodLister] = None,
                 namespace_labels: Optional[NamespaceLabels] = None,
                 recorder: Recorder = NULL_RECORDER) -> None:
        super().__init__(pod_lister)
        self.clock = clock if clock is not None else VirtualClock()
        self.pod_initial_backoff_duration = pod_initial_backoff_seconds
        self.pod_max_backoff_duration = pod_max_backoff_seconds
        self.pod_max_in_unschedulable_pods_duration = pod_max_in_unschedulable_pods_seconds
        # uid -> the pod's entry in in_flight_events, from Pop until Done (hints only).
        self.in_flight_pods: dict[str, _Element] = {}
        # In-flight pods and the cluster events that arrived after each was popped.
        self.in_flight_events = EventList()
        # Where ties in the less function are broken: the order timestamps were taken
        # (kept until the pod is deleted or its timestamp is set again).
        self._stamps: dict[str, int] = {}
        self._stamp_seq = itertools.count(1)
        tie = self._stamp_of
        self.active_q: Heap[QueuedPodInfo] = Heap(pod_info_key_func, less_fn, tie)
        self.pod_backoff_q: Heap[QueuedPodInfo] = Heap(pod_info_key_func, self.pods_compare_backoff_completed, tie)
        self.unschedulable_pods = UnschedulablePods()
        # Incremented by every Pop (upstream SchedulingCycle() reads it).
        self.scheduling_cycle = 0
        # The scheduling cycle at the last move request: a pod that fails in or before that
        # cycle goes to backoffQ, since the event may have helped it (hints off only).
        self.move_request_cycle = -1
        self.pre_enqueue_plugin_map: dict[str, list[Any]] = pre_enqueue_plugins or {}
        self.queueing_hint_map: QueueingHintMapPerProfile = queueing_hint_map or {}
        self.closed = False
        self.namespace_labels = namespace_labels
        self.is_scheduling_queue_hint_enabled = queueing_hints_enabled
        self.recorder = recorder
        self._timers: dict[str, Timer] = {}

    # --- Run: the two flushes, as timers ---------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).Run", 393, 400)
    def start(self, clock: Optional[VirtualClock] = None) -> None:
        """Start flushing backoffQ every second and unschedulablePods every 30 s (upstream Run)."""
        if clock is not None:
            self.clock = clock  # the virtual clock the flushes run on (upstream: p.clock, from NewPriorityQueue)
        # upstream: two goroutines running wait.Until(f, period, p.stop); f runs at once, then each period.
        self._every(BACKOFF_Q_FLUSH_PERIOD, self.flush_backoff_q_completed, "flushBackoffQCompleted")
        self._every(UNSCHEDULABLE_PODS_FLUSH_PERIOD, self.flush_unschedulable_pods_leftover,
                    "flushUnschedulablePodsLeftover")

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).Run", 393, 400)
    def _every(self, period: float, fn: Callable[[], None], label: str) -> None:
        def tick() -> None:
            if self.closed:
                return
            fn()
            self._timers[label] = self.clock.call_later(period, tick, label, background=True)

        # A periodic flush is a background timer: it does not keep a simulation running.
        self._timers[label] = self.clock.call_later(0.0, tick, label, background=True)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).Close", 1285, 1291)
    def close(self) -> None:
        """Stop the flushes; ``pop`` on an empty queue keeps returning None."""
        self.closed = True
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    # --- tracing and tie-breaking ---------------------------------------------------------

    def _record(self, pod: Pod, action: str, queue: str, event: str = "",
                pinfo: Optional[QueuedPodInfo] = None) -> None:
        """One QueueEvent: ``action`` is add, gated, pop, requeue, flush, move, activate, update or delete;
        ``queue`` is where the pod went; ``event`` is upstream's label for why. A pod sent to
        backoffQ (``pinfo`` given) carries the time its backoff ends."""
        if self.recorder.enabled:
            until = self.get_backoff_time(pinfo) if pinfo is not None and queue == BACKOFF_Q else None
            self.recorder.record(QueueEvent(self.clock.now, pod.key, action, queue, event, until))

    def _record_skip(self, pinfo: QueuedPodInfo, event: ClusterEvent, reason: str) -> None:
        """A QueueSkipEvent: ``event`` left ``pinfo`` in unschedulablePods."""
        if self.recorder.enabled:
            plugins = tuple(sorted(pinfo.unschedulable_plugins | pinfo.pending_plugins))
            self.recorder.record(QueueSkipEvent(self.clock.now, pinfo.pod.key, event.label, reason, plugins))

    def _set_timestamp_now(self, pinfo: QueuedPodInfo) -> None:
        """``pinfo.timestamp = now``, remembering the order timestamps were taken in (for ties)."""
        pinfo.timestamp = self.clock.now
        self._stamps[pod_info_key_func(pinfo)] = next(self._stamp_seq)

    def _stamp_of(self, pinfo: QueuedPodInfo) -> int:
        return self._stamps.get(pod_info_key_func(pinfo), 0)

    # --- requeueing decisions ---------------------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).isEventOfInterest", 415, 432)
    def is_event_of_interest(self, event: ClusterEvent) -> bool:
        """Whether any plugin of any profile registered an event matching ``event``."""
        if event.is_wildcard():
            return True
        for hint_map in self.queueing_hint_map.values():
            for event_to_match in hint_map:
                if event_to_match.match(event):
                    return True
        return False

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).isPodWorthRequeuing", 442, 513)
    def is_pod_worth_requeuing(self, p_info: QueuedPodInfo, event: ClusterEvent, old_obj: Any,
                               new_obj: Any) -> QueueingStrategy:
        """Ask the hint functions of the plugins that rejected the pod whether ``event`` may help.

        Queue from a Pending plugin means queueImmediately; from an Unschedulable
        plugin, queueAfterBackoff; Skip from all means stay where it is.
        """
        rejector_plugins = p_info.unschedulable_plugins | p_info.pending_plugins
        if len(rejector_plugins) == 0:
            return QUEUE_AFTER_BACKOFF  # no plugin rejected it: worth a retry

        if event.is_wildcard():
            # A wildcard event is someone forcing every pod to move.
            return QUEUE_AFTER_BACKOFF

        hint_map = self.queueing_hint_map.get(p_info.pod.spec.scheduler_name)
        if hint_map is None:
            return QUEUE_AFTER_BACKOFF  # upstream logs: no QueueingHintMap for this profile

        pod = p_info.pod
        queue_strategy = QUEUE_SKIP
        # upstream: ranges over a Go map (random order); the answer does not depend on the order.
        for event_to_match, hint_fns in hint_map.items():
            if not event_to_match.match(event):
                continue

            for hint_fn in hint_fns:
                if hint_fn.plugin_name not in rejector_plugins:
                    continue  # not the hint of a plugin that rejected the pod

                try:
                    hint = hint_fn.queueing_hint_fn(pod, old_obj, new_obj)
                except Exception:
                    # upstream: the hint function returns an error; it counts as Queue, so that
                    # the pod is not stuck in unschedulablePods.
                    hint = QueueingHint.Queue
                if hint == QueueingHint.QueueSkip:
                    continue

                if hint_fn.plugin_name in p_info.pending_plugins:
                    return QUEUE_IMMEDIATELY  # Queue from a Pending plugin: the strongest answer

                # Queue from an Unschedulable plugin means queueAfterBackoff.
                if len(p_info.pending_plugins) == 0:
                    return QUEUE_AFTER_BACKOFF  # no Pending plugin could answer queueImmediately

                queue_strategy = QUEUE_AFTER_BACKOFF  # a Pending plugin may still answer Queue
        return queue_strategy

    # --- PreEnqueue and activeQ ---------------------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).runPreEnqueuePlugins", 520, 545)
    def run_pre_enqueue_plugins(self, pinfo: QueuedPodInfo) -> bool:
        """Run the pod's profile's PreEnqueue plugins; False (and the plugin noted) at the first failure."""
        pod = pinfo.pod
        for pl in self.pre_enqueue_plugin_map.get(pod.spec.scheduler_name, ()):
            s = pl.pre_enqueue(pod)
            self._record_pre_enqueue(pod, pl.name(), s)
            if is_success(s):
                continue
            pinfo.unschedulable_plugins.add(pl.name())
            return False
        return True

    def _record_pre_enqueue(self, pod: Pod, plugin: str, s: Optional[Status]) -> None:
        if self.recorder.enabled:
            self.recorder.record(PluginEvent(
                time=self.clock.now, cycle=self.scheduling_cycle, pod=pod.key, profile=pod.spec.scheduler_name,
                point=PRE_ENQUEUE, plugin=plugin, code=str(code_of(s)),
                reasons=tuple(s.get_reasons()) if s is not None else ()))

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).addToActiveQ", 560, 576)
    def add_to_active_q(self, p_info: QueuedPodInfo, event: str = "") -> bool:
        """Put the pod in activeQ, or in unschedulablePods as gated if a PreEnqueue plugin refuses it.

        ``event`` only labels the trace.
        """
        p_info.gated = not self.run_pre_enqueue_plugins(p_info)
        if p_info.gated:
            # A pod that does not pass the PreEnqueue plugins waits in unschedulablePods.
            self.unschedulable_pods.add_or_update(p_info)
            self._record(p_info.pod, "gated", UNSCHEDULABLE_PODS, event)
            return False
        if p_info.initial_attempt_timestamp is None:
            p_info.initial_attempt_timestamp = self.clock.now
        # upstream: activeQ.Add also returns an error (logged, and returned with False), which
        # it gives only for an object its key function cannot read; this heap's add cannot fail.
        self.active_q.add(p_info)
        return True

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).Add", 580, 603)
    def add(self, pod: Pod) -> None:
        """A new pending pod (upstream Add): activeQ, unless a PreEnqueue plugin gates it."""
        pinfo = self.new_queued_pod_info(pod)
        gated = pinfo.gated
        if not self.add_to_active_q(pinfo, POD_ADD):
            return
        if self.unschedulable_pods.get(pod) is not None:
            # upstream logs "Error: pod is already in the unschedulable queue"
            self.unschedulable_pods.delete(pod, gated)
        # upstream logs an error when the pod was in backoffQ.
        self.pod_backoff_q.delete(pinfo)
        self._record(pod, "add", ACTIVE_Q, POD_ADD)
        self.add_nominated_pod(pinfo.pod_info, None)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).Activate", 606, 620)
    def activate(self, pods: Mapping[str, Pod]) -> None:
        """Move the given pods to activeQ if they wait in unschedulablePods or backoffQ."""
        for pod in pods.values():
            self._activate(pod)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).activate", 622, 655)
    def _activate(self, pod: Pod) -> bool:
        lookup = new_queued_pod_info_for_lookup(pod)
        if self.active_q.has(lookup):
            return False  # already active
        pinfo = self.unschedulable_pods.get(pod)
        if pinfo is None:
            pinfo = self.pod_backoff_q.get(lookup)
            if pinfo is None:
                return False  # upstream logs "To-activate pod does not exist in unschedulablePods or backoffQ"
        gated = pinfo.gated
        if not self.add_to_active_q(pinfo, FORCE_ACTIVATE):
            return False
        self.unschedulable_pods.delete(pinfo.pod, gated)
        self.pod_backoff_q.delete(pinfo)
        self._record(pod, "activate", ACTIVE_Q, FORCE_ACTIVATE)
        self.add_nominated_pod(pinfo.pod_info, None)
        return True

    # --- backoff ---------------------------------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).isPodBackingoff", 659, 665)
    def is_pod_backingoff(self, pinfo: QueuedPodInfo) -> bool:
        """Whether the pod's backoff has not ended yet (a gated pod never backs off)."""
        if pinfo.gated:
            return False
        return self.get_backoff_time(pinfo) > self.clock.now

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).getBackoffTime", 1350, 1354)
    def get_backoff_time(self, pinfo: QueuedPodInfo) -> float:
        return pinfo.timestamp + self.calculate_backoff_duration(pinfo)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).calculateBackoffDuration", 1358, 1368)
    def calculate_backoff_duration(self, pinfo: QueuedPodInfo) -> float:
        """The initial backoff, doubled for each attempt after the first, capped at the maximum."""
        duration = self.pod_initial_backoff_duration
        for _ in range(1, pinfo.attempts):
            if duration > self.pod_max_backoff_duration - duration:
                return self.pod_max_backoff_duration
            duration += duration
        return duration

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).podsCompareBackoffCompleted", 1327, 1333)
    def pods_compare_backoff_completed(self, p_info1: QueuedPodInfo, p_info2: QueuedPodInfo) -> bool:
        return self.get_backoff_time(p_info1) < self.get_backoff_time(p_info2)

    # --- back from a scheduling attempt -------------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).determineSchedulingHintForInFlightPod", 676, 732)
    def determine_scheduling_hint_for_in_flight_pod(self, pinfo: QueuedPodInfo) -> QueueingStrategy:
        """Replay the events seen since the pod was popped: may any of them have helped it?"""
        in_flight_pod = self.in_flight_pods.get(pinfo.pod.uid)
        if in_flight_pod is None:
            # Can happen while a pod is updated; then it has no rejector plugins.
            if pinfo.unschedulable_plugins:
                return QUEUE_AFTER_BACKOFF  # upstream logs: likely a bug
            if len(self.in_flight_events) > len(self.in_flight_pods):
                return QUEUE_AFTER_BACKOFF
            return QUEUE_SKIP

        if not (pinfo.unschedulable_plugins | pinfo.pending_plugins):
            # No plugin rejected it (an API error, say): retry, or it may wait for the next flush.
            return QUEUE_AFTER_BACKOFF

        strategy = QUEUE_SKIP
        e = self.in_flight_events.next_of(in_flight_pod)
        while e is not None:
            record = e.value
            e = self.in_flight_events.next_of(e)
            if not isinstance(record, ClusterEventRecord):
                continue  # another in-flight pod
            hint = self.is_pod_worth_requeuing(pinfo, record.event, record.old_obj, record.new_obj)
            if hint == QUEUE_SKIP:
                continue
            if hint == QUEUE_IMMEDIATELY:
                return QUEUE_IMMEDIATELY
            strategy = QUEUE_AFTER_BACKOFF
            if not pinfo.pending_plugins:
                return QUEUE_AFTER_BACKOFF
        return strategy

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).addUnschedulableWithoutQueueingHint", 740, 774)
    def add_unschedulable_without_queueing_hint(self, pinfo: QueuedPodInfo,
                                                pod_scheduling_cycle: int) -> Optional[QueueError]:
        """The v1.30 default path: backoffQ if a move request came meanwhile, else unschedulablePods."""
        pod = pinfo.pod
        self._set_timestamp_now(pinfo)  # the pod is re-added: refresh its timestamp
        # With hints off, Pending plugins count as unschedulable ones.
        rejector_plugins = pinfo.unschedulable_plugins | pinfo.pending_plugins
        if self.move_request_cycle >= pod_scheduling_cycle or not rejector_plugins:
            # An event arrived after this pod's cycle began and may have helped it, or nothing
            # rejected it (an API error): retry after the backoff.
            self.pod_backoff_q.add(pinfo)
            self._record(pod, "requeue", BACKOFF_Q, SCHEDULE_ATTEMPT_FAILURE, pinfo)
        else:
            self.unschedulable_pods.add_or_update(pinfo)
            self._record(pod, "requeue", UNSCHEDULABLE_PODS, SCHEDULE_ATTEMPT_FAILURE)
        self.add_nominated_pod(pinfo.pod_info, None)
        return None

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).AddUnschedulableIfNotPresent", 780, 827)
    def add_unschedulable_if_not_present(self, p_info: QueuedPodInfo,
                                         pod_scheduling_cycle: int) -> Optional[QueueError]:
        """Put a pod that failed its attempt back: unschedulablePods, backoffQ or activeQ."""
        # upstream: the queue's lock is held throughout.
        # In any case this pod goes back to the queue, and Done must be called for it
        # (upstream: a deferred p.done; here the finally clause).
        try:
            pod = p_info.pod
            if self.unschedulable_pods.get(pod) is not None:
                return QueueError(f"Pod {pod.key} is already present in unschedulable queue")

            if self.active_q.has(p_info):
                return QueueError(f"Pod {pod.key} is already present in the active queue")
            if self.pod_backoff_q.has(p_info):
                return QueueError(f"Pod {pod.key} is already present in the backoff queue")

            if not self.is_scheduling_queue_hint_enabled:
                # The old behaviour, which does not depend on queueing hints.
                return self.add_unschedulable_without_queueing_hint(p_info, pod_scheduling_cycle)

            # Refresh the timestamp since the pod is re-added.
            self._set_timestamp_now(p_info)

            # upstream: the UnschedulableReason metric of each rejector plugin goes up here.

            # May any event that came while the pod was scheduled change its scheduling result?
            scheduling_hint = self.determine_scheduling_hint_for_in_flight_pod(p_info)

            queue = self.requeue_pod_via_queueing_hint(p_info, scheduling_hint, SCHEDULE_ATTEMPT_FAILURE)
            self._record(pod, "requeue", queue, SCHEDULE_ATTEMPT_FAILURE, p_info)
            # upstream: a pod that reached activeQ wakes a Pop blocked on an empty activeQ
            # (p.cond.Broadcast); pop never blocks here.

            self.add_nominated_pod(p_info.pod_info, None)
            return None
        finally:
            self._done(p_info.pod.uid)

    # --- the flushes ---------------------------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).flushBackoffQCompleted", 830, 859)
    def flush_backoff_q_completed(self) -> None:
        """Move every pod whose backoff has ended from backoffQ to activeQ."""
        # upstream: the queue's lock is held throughout.
        while True:
            p_info = self.pod_backoff_q.peek()
            if p_info is None:
                break
            pod = p_info.pod
            if self.is_pod_backingoff(p_info):
                break
            # upstream: an error from Pop is logged and ends the loop; this heap's pop cannot fail
            # on the pod just peeked.
            self.pod_backoff_q.pop()
            if self.add_to_active_q(p_info, BACKOFF_COMPLETE):
                self._record(pod, "flush", ACTIVE_Q, BACKOFF_COMPLETE)
        # upstream: when a pod reached activeQ, p.cond.Broadcast wakes a Pop blocked on an
        # empty activeQ; pop never blocks here.

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).flushUnschedulablePodsLeftover", 863, 879)
    def flush_unschedulable_pods_leftover(self) -> None:
        """Move pods that waited in unschedulablePods longer than the maximum to backoffQ or activeQ."""
        # upstream: the queue's lock is held throughout.
        pods_to_move: list[QueuedPodInfo] = []
        current_time = self.clock.now
        # upstream: ranges over a Go map (random order); here the order pods entered unschedulablePods.
        for p_info in self.unschedulable_pods.pod_info_map.values():
            last_schedule_time = p_info.timestamp
            if current_time - last_schedule_time > self.pod_max_in_unschedulable_pods_duration:
                pods_to_move.append(p_info)

        if len(pods_to_move) > 0:
            self.move_pods_to_active_or_backoff_queue(pods_to_move, UNSCHEDULABLE_TIMEOUT, None, None)

    # --- Pop and Done --------------------------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).Pop", 884, 917)
    def pop(self) -> Optional[QueuedPodInfo]:
        """The head of activeQ, or None when activeQ is empty.

        Counts the attempt, advances the scheduling cycle and clears the plugins
        that rejected the pod last time.
        """
        # upstream: the queue's lock is held throughout, and while activeQ is empty Pop waits
        # (p.cond.Wait) until a pod is added, or returns nil once the queue is closed. On the
        # virtual clock nothing can arrive while it waits: it returns None at once.
        if len(self.active_q) == 0:
            return None
        p_info = self.active_q.pop()
        p_info.attempts += 1
        self.scheduling_cycle += 1
        # In flight, no concurrent events yet.
        if self.is_scheduling_queue_hint_enabled:
            self.in_flight_pods[p_info.pod.uid] = self.in_flight_events.push_back(p_info.pod)

        # Reset the plugins that rejected the pod, for the next attempt.
        # upstream: the UnschedulableReason metric of each of them goes down first.
        p_info.unschedulable_plugins.clear()
        p_info.pending_plugins.clear()

        self._record(p_info.pod, "pop", IN_FLIGHT)
        return p_info

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).Done", 921, 926)
    def done(self, uid: str) -> None:
        """The pod's attempt is over (scheduled, or handed back): stop tracking events for it."""
        self._done(uid)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).done", 928, 961)
    def _done(self, uid: str) -> None:
        if not self.is_scheduling_queue_hint_enabled:
            return  # no in-flight bookkeeping without hints
        element = self.in_flight_pods.pop(uid, None)
        if element is None:
            return  # already done
        self.in_flight_events.remove(element)
        # Events before the first in-flight pod left can interest no one any more.
        while True:
            e = self.in_flight_events.front()
            if e is None or not isinstance(e.value, ClusterEventRecord):
                break
            self.in_flight_events.remove(e)

    # --- pod updates and deletes -------------------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).Update", 986, 1043)
    def update(self, old_pod: Optional[Pod], new_pod: Pod) -> None:
        """A pending pod changed: update it in place, or move it if the change may make it schedulable."""
        if old_pod is not None:
            lookup = new_queued_pod_info_for_lookup(old_pod)
            for heap in (self.active_q, self.pod_backoff_q):
                existing = heap.get(lookup)
                if existing is not None:
                    pinfo = update_pod(existing, new_pod)
                    self.update_nominated_pod(old_pod, pinfo.pod_info)
                    heap.update(pinfo)
                    return

        us_pod_info = self.unschedulable_pods.get(new_pod)
        if us_pod_info is not None:
            pinfo = update_pod(us_pod_info, new_pod)
            self.update_nominated_pod(old_pod, pinfo.pod_info)
            if is_pod_updated(old_pod, new_pod):
                gated = us_pod_info.gated
                if self.is_pod_backingoff(us_pod_info):
                    self.pod_backoff_q.add(pinfo)
                    self.unschedulable_pods.delete(us_pod_info.pod, gated)
                    self._record(new_pod, "update", BACKOFF_Q, POD_UPDATE, pinfo)
                else:
                    if not self.add_to_active_q(pinfo, POD_UPDATE):
                        return
                    self.unschedulable_pods.delete(us_pod_info.pod, gated)
                    # upstream logs this move with the BackoffComplete label.
                    self._record(new_pod, "update", ACTIVE_Q, BACKOFF_COMPLETE)
            else:
                # The change cannot help: keep it where it is.
                self.unschedulable_pods.add_or_update(pinfo)
            return

        # In no queue at all: add it to activeQ.
        pinfo = self.new_queued_pod_info(new_pod)
        if not self.add_to_active_q(pinfo, POD_UPDATE):
            return
        self.add_nominated_pod(pinfo.pod_info, None)
        self._record(new_pod, "update", ACTIVE_Q, POD_UPDATE)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).Delete", 1047, 1060)
    def delete(self, pod: Pod) -> None:
        """Remove the pod from whichever part holds it, and from the nominator."""
        self.delete_nominated_pod_if_exists(pod)
        lookup = new_queued_pod_info_for_lookup(pod)
        found = self.active_q.delete(lookup)
        if not found:
            found = self.pod_backoff_q.delete(lookup)
            us_pod_info = self.unschedulable_pods.get(pod)
            if us_pod_info is not None:
                self.unschedulable_pods.delete(pod, us_pod_info.gated)
                found = True
        self._stamps.pop(pod_info_key_func(lookup), None)
        if found:
            self._record(pod, "delete", "")

    # --- cluster events -------------------------------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).AssignedPodAdded", 1064, 1068)
    def assigned_pod_added(self, pod: Pod) -> None:
        """A bound pod appeared: pods whose required affinity it matches may now fit."""
        self.move_pods_to_active_or_backoff_queue(
            self.get_unschedulable_pods_with_matching_affinity_term(pod), ASSIGNED_POD_ADD, None, pod)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).AssignedPodUpdated", 1086, 1094)
    def assigned_pod_updated(self, old_pod: Pod, new_pod: Pod) -> None:
        """A bound pod changed (its labels, say): pods whose required affinity it now matches may fit."""
        if is_pod_resources_resized_down(new_pod):
            self.move_all_to_active_or_backoff_queue(ASSIGNED_POD_UPDATE, old_pod, new_pod, None)
        else:
            self.move_pods_to_active_or_backoff_queue(
                self.get_unschedulable_pods_with_matching_affinity_term(new_pod), ASSIGNED_POD_UPDATE,
                old_pod, new_pod)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).moveAllToActiveOrBackoffQueue", 1101, 1115)
    def move_all_to_active_or_backoff_queue(self, event: ClusterEvent, old_obj: Any, new_obj: Any,
                                            pre_check: Optional[PreEnqueueCheck]) -> None:
        """Offer ``event`` to every pod in unschedulablePods that passes ``pre_check``."""
        if not self.is_event_of_interest(event):
            return  # no plugin cares: do not even walk the pods
        unschedulable = []
        for pinfo in self.unschedulable_pods.pod_info_map.values():
            if pre_check is None or pre_check(pinfo.pod):
                unschedulable.append(pinfo)
            else:
                self._record_skip(pinfo, event, SKIP_PRE_CHECK)
        self.move_pods_to_active_or_backoff_queue(unschedulable, event, old_obj, new_obj)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).requeuePodViaQueueingHint", 1131, 1168)
    def requeue_pod_via_queueing_hint(self, pinfo: QueuedPodInfo, strategy: QueueingStrategy, event: str) -> str:
        """Put the pod where ``strategy`` says; return the queue's name."""
        if strategy == QUEUE_SKIP:
            self.unschedulable_pods.add_or_update(pinfo)
            return UNSCHEDULABLE_PODS
        if strategy == QUEUE_AFTER_BACKOFF and self.is_pod_backingoff(pinfo):
            self.pod_backoff_q.add(pinfo)
            return BACKOFF_Q
        # queueImmediately, or queueAfterBackoff with the backoff over.
        if self.add_to_active_q(pinfo, event):
            return ACTIVE_Q
        if pinfo.gated:
            return UNSCHEDULABLE_PODS  # add_to_active_q put it back in unschedulablePods
        self.unschedulable_pods.add_or_update(pinfo)
        return UNSCHEDULABLE_PODS

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).movePodsToActiveOrBackoffQueue", 1171, 1230)
    def move_pods_to_active_or_backoff_queue(self, pod_info_list: list[QueuedPodInfo], event: ClusterEvent,
                                             old_obj: Any, new_obj: Any) -> None:
        if not self.is_event_of_interest(event):
            return  # no plugin is interested in this event

        for p_info in pod_info_list:
            # A pod gated by SchedulingGates only wakes up through its own update; skip it early
            # (upstream's fix for kubernetes#124384). Other PreEnqueue plugins may react to events.
            if p_info.gated and SCHEDULING_GATES in p_info.unschedulable_plugins:
                continue

            scheduling_hint = self.is_pod_worth_requeuing(p_info, event, old_obj, new_obj)
            if scheduling_hint == QUEUE_SKIP:
                # The event does not make the pod schedulable.
                self._record_skip(p_info, event, SKIP_QUEUEING_HINT)
                continue

            self.unschedulable_pods.delete(p_info.pod, p_info.gated)
            queue = self.requeue_pod_via_queueing_hint(p_info, scheduling_hint, event.label)
            self._record(p_info.pod, "move", queue, event.label, p_info)

        self.move_request_cycle = self.scheduling_cycle

        if self.is_scheduling_queue_hint_enabled and len(self.in_flight_pods) != 0:
            # Pods in flight may come back through AddUnschedulableIfNotPresent: keep the event for them.
            self.in_flight_events.push_back(ClusterEventRecord(event, old_obj, new_obj))

        # upstream: when a pod reached activeQ, p.cond.Broadcast wakes a Pop blocked on an
        # empty activeQ; pop never blocks here.

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).getUnschedulablePodsWithMatchingAffinityTerm", 1235, 1249)
    def get_unschedulable_pods_with_matching_affinity_term(self, pod: Pod) -> list[QueuedPodInfo]:
        """The waiting pods with a required pod-affinity term that ``pod`` satisfies."""
        ns_labels = self.namespace_labels(pod.namespace) if self.namespace_labels is not None else None
        pods_to_move = []
        for pinfo in self.unschedulable_pods.pod_info_map.values():
            for term in pinfo.pod_info.required_affinity_terms:
                if term.matches(pod, ns_labels):
                    pods_to_move.append(pinfo)
                    break
        return pods_to_move

    # --- listings ----------------------------------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).PodsInActiveQ", 1253, 1261)
    def pods_in_active_q(self) -> list[Pod]:
        return [pinfo.pod for pinfo in self.active_q.list()]

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).PendingPods", 1268, 1282)
    def pending_pods(self) -> tuple[list[Pod], str]:
        """Every pending pod and a summary of how many each part holds (upstream PendingPods)."""
        result = [pinfo.pod for pinfo in self.active_q.list()]
        result += [pinfo.pod for pinfo in self.pod_backoff_q.list()]
        result += [pinfo.pod for pinfo in self.unschedulable_pods.pod_info_map.values()]
        summary = PENDING_PODS_SUMMARY.format(len(self.active_q), len(self.pod_backoff_q),
                                              len(self.unschedulable_pods))
        return result, summary

    @plumbing("for views: every pending pod with the name of the part that holds it")
    def pending_pod_infos(self) -> list[tuple[str, QueuedPodInfo]]:
        """(queue name, pod) for every pending pod: activeQ in pop order, backoffQ by backoff end."""
        out = [(ACTIVE_Q, p) for p in self.active_q.sorted()]
        out += [(BACKOFF_Q, p) for p in self.pod_backoff_q.sorted()]
        out += [(UNSCHEDULABLE_PODS, p) for p in self.unschedulable_pods.pod_info_map.values()]
        return out

    @plumbing("for views and tests: which part of the queue holds a pod")
    def queue_of(self, pod: Pod) -> Optional[str]:
        """Which part holds ``pod``, or None."""
        lookup = new_queued_pod_info_for_lookup(pod)
        if self.active_q.has(lookup):
            return ACTIVE_Q
        if self.pod_backoff_q.has(lookup):
            return BACKOFF_Q
        if self.unschedulable_pods.get(pod) is not None:
            return UNSCHEDULABLE_PODS
        return None

    @plumbing("upstream's scheduler_pending_pods metric, read by views")
    def pending_pods_gauges(self) -> dict[str, int]:
        """Upstream's scheduler_pending_pods gauge, by queue."""
        return {"active": len(self.active_q), "backoff": len(self.pod_backoff_q),
                "unschedulable": self.unschedulable_pods.unschedulable_gauge,
                "gated": self.unschedulable_pods.gated_gauge}

    @plumbing("virtual-clock loop: whether a pod waits in activeQ or backoffQ")
    def has_active_or_backoff(self) -> bool:
        """Whether a pod waits in activeQ or backoffQ (work left without any new event)."""
        return len(self.active_q) > 0 or len(self.pod_backoff_q) > 0

    # --- QueuedPodInfo ---------------------------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).newQueuedPodInfo", 1336, 1347)
    def new_queued_pod_info(self, pod: Pod, *plugins: str) -> QueuedPodInfo:
        pinfo = QueuedPodInfo(PodInfo.of(pod), unschedulable_plugins=set(plugins))
        self._set_timestamp_now(pinfo)
        return pinfo


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "NewSchedulingQueue", 131, 136)
def new_priority_queue(less_fn: Callable[[QueuedPodInfo, QueuedPodInfo], bool], **options: Any) -> PriorityQueue:
    """Upstream NewSchedulingQueue / NewPriorityQueue."""
    return PriorityQueue(less_fn, **options)

