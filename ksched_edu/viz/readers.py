"""Reading the trace for the views: one scheduling cycle, the queue's history, the nodes' usage.

The widgets (``ksched_edu.widgets``) and the figures (``ksched_edu.viz``) are
drawn from what these functions read; this module imports neither ipywidgets
nor matplotlib. Cycles and queue moves are read off the recorded events
(``ksched_edu.trace``), in the order they were recorded; node usage is read off
the scheduler's cache the way upstream's cache dumper reads it
(pkg/scheduler/internal/cache/debugger/dumper.go). Nothing here re-runs a
scheduling decision: a verdict, a score or a move that is not in the trace is
not shown.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from ..api.types import ObjectMeta, Pod
from ..framework.types import NodeInfo, PodInfo, QueuedPodInfo
from ..internal.queue.scheduling_queue import PriorityQueue
from ..trace import (BindEvent, CycleEvent, CycleStateEvent, PermitEvent, PluginEvent, PreemptionEvent, QueueEvent,
                     Recorder)

# The extension points a pod meets in one scheduling and binding cycle, in order
# (pkg/scheduler/framework/interface.go). PreEnqueue runs before a pod is queued
# and Unreserve only on failure, so they are shown inside other steps.
CYCLE_POINTS = ("QueueSort", "PreFilter", "Filter", "PostFilter", "PreScore", "Score", "NormalizeScore",
                "Reserve", "Permit", "PreBind", "Bind", "PostBind")
BINDING_POINTS = ("PreBind", "Bind", "PostBind")


def recorder_of(source: Any) -> Recorder:
    """The Recorder itself, or the one a Simulation (or Scheduler) records into."""
    if isinstance(source, Recorder):
        return source
    rec = getattr(source, "recorder", None)
    if isinstance(rec, Recorder):
        return rec
    raise TypeError(f"expected a Recorder or a Simulation with one, got {type(source).__name__}")


# --- one scheduling cycle -------------------------------------------------------------------


@dataclass(frozen=True)
class CycleSummary:
    """How one cycle began and ended (its two CycleEvents)."""

    cycle: int
    pod: str
    profile: str
    time: float
    outcome: str = "running"  # "scheduled" | "unschedulable" | "error" | "running"
    node: str = ""
    message: str = ""
    evaluated_nodes: int = 0
    feasible_nodes: int = 0

    @property
    def label(self) -> str:
        if self.outcome == "scheduled":
            return f"#{self.cycle} {self.pod} → {self.node}"
        return f"#{self.cycle} {self.pod}: {self.outcome}"


@dataclass
class CycleRecord:
    """Everything the trace holds about one cycle, grouped by extension point."""

    summary: CycleSummary
    events: dict[str, list[PluginEvent]] = field(default_factory=dict)  # point -> calls, in order
    dry_run: list[PluginEvent] = field(default_factory=list)  # preemption's Filter calls on node copies
    states: dict[str, CycleStateEvent] = field(default_factory=dict)  # "PreFilter"/"PreScore" -> CycleState
    binds: list[BindEvent] = field(default_factory=list)  # assume, bound, forget
    permits: list[PermitEvent] = field(default_factory=list)  # a wait at Permit and how it ended
    preemption: Optional[PreemptionEvent] = None
    pop: Optional[QueueEvent] = None
    # activeQ just before the pop: (pod, since) in the order the pods entered it.
    active_at_pop: tuple[tuple[str, float], ...] = ()

    @property
    def cycle(self) -> int:
        return self.summary.cycle

    @property
    def winner(self) -> str:
        """The node selectHost chose (also when Reserve or Permit then rejected the pod there)."""
        if self.summary.outcome == "scheduled":
            return self.summary.node
        assume = self.bind_event("assume")
        return assume.node if assume is not None else ""

    def calls(self, point: str) -> list[PluginEvent]:
        return self.events.get(point, [])

    def bind_event(self, kind: str) -> Optional[BindEvent]:
        return next((b for b in self.binds if b.kind == kind), None)


def index_cycles(recorder: Any) -> dict[int, CycleRecord]:
    """Every cycle of the trace, read in one pass, keyed by cycle number."""
    rec = recorder_of(recorder)
    cycles: dict[int, CycleRecord] = {}
    replay = _QueueState()
    last_pop: dict[str, tuple[QueueEvent, tuple[tuple[str, float], ...]]] = {}
    for e in rec.events:
        if isinstance(e, QueueEvent):
            if e.action == "pop":
                last_pop[e.pod] = (e, replay.members("activeQ"))
            replay.apply_queue_event(e)
        elif isinstance(e, CycleEvent):
            if e.kind == "start":
                pop, active = last_pop.pop(e.pod, (None, ()))
                cycles[e.cycle] = CycleRecord(CycleSummary(e.cycle, e.pod, e.profile, e.time), pop=pop,
                                              active_at_pop=active)
            elif e.cycle in cycles:
                r = cycles[e.cycle]
                r.summary = CycleSummary(e.cycle, r.summary.pod, r.summary.profile, r.summary.time, e.kind,
                                         e.node, e.message, e.evaluated_nodes, e.feasible_nodes)
        elif isinstance(e, PluginEvent):
            if e.cycle in cycles and e.dry_run:
                cycles[e.cycle].dry_run.append(e)
            elif e.cycle in cycles and e.point != "PreEnqueue":
                cycles[e.cycle].events.setdefault(e.point, []).append(e)
        elif isinstance(e, CycleStateEvent):
            if e.cycle in cycles:
                cycles[e.cycle].states[e.point] = e
        elif isinstance(e, BindEvent):
            if e.cycle in cycles:
                cycles[e.cycle].binds.append(e)
        elif isinstance(e, PermitEvent):
            if e.cycle in cycles:
                cycles[e.cycle].permits.append(e)
        elif isinstance(e, PreemptionEvent):
            if e.cycle in cycles:
                cycles[e.cycle].preemption = e
    return cycles


def read_cycle(recorder: Any, cycle: Optional[int] = None) -> CycleRecord:
    """One cycle (the first when ``cycle`` is None); ValueError when the trace has no such cycle."""
    cycles = index_cycles(recorder)
    return pick_cycle(cycles, cycle)


def pick_cycle(cycles: dict[int, CycleRecord], cycle: Optional[int]) -> CycleRecord:
    if not cycles:
        raise ValueError("the trace holds no scheduling cycle: build the Simulation with recorder=Recorder() "
                         "and run it first")
    if cycle is None:
        return cycles[min(cycles)]
    if cycle not in cycles:
        raise ValueError(f"cycle {cycle} is not in the trace (it holds cycles {min(cycles)}..{max(cycles)})")
    return cycles[cycle]


def first_cycle_with(cycles: dict[int, CycleRecord], point: str) -> Optional[int]:
    return next((n for n in sorted(cycles) if cycles[n].calls(point)), None)


@dataclass(frozen=True)
class FilterRow:
    """One node's Filter verdicts: each plugin's call on it (preemption's dry-run calls are not among them)."""

    node: str
    calls: dict[str, PluginEvent]

    @property
    def rejection(self) -> Optional[PluginEvent]:
        return next((e for e in self.calls.values() if e.code != "Success"), None)

    @property
    def feasible(self) -> bool:
        return self.rejection is None

    @property
    def code(self) -> str:
        r = self.rejection
        return r.code if r is not None else "Success"


def filter_rows(record: CycleRecord) -> tuple[list[str], list[FilterRow]]:
    """The Filter plugins in the order they ran, and one row per node in the order nodes were filtered.

    A node's plugins run until the first rejection, so a plugin missing from a
    row never ran on that node.
    """
    plugins: list[str] = []
    rows: dict[str, dict[str, PluginEvent]] = {}
    for e in record.calls("Filter"):
        if e.plugin not in plugins:
            plugins.append(e.plugin)
        rows.setdefault(e.node, {})[e.plugin] = e
    return plugins, [FilterRow(node, calls) for node, calls in rows.items()]


@dataclass(frozen=True)
class ScoreRow:
    """One node's scores: as the plugins gave them, after NormalizeScore, and times each weight."""

    node: str
    raw: dict[str, int]
    normalized: dict[str, int]
    weighted: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.weighted.values())


def score_rows(record: CycleRecord) -> tuple[list[str], list[ScoreRow]]:
    """The Score plugins in run order and one row per scored node, in the order nodes were scored."""
    plugins: list[str] = []
    rows: dict[str, ScoreRow] = {}
    for e in record.calls("Score"):
        if e.plugin not in plugins:
            plugins.append(e.plugin)
        row = rows.setdefault(e.node, ScoreRow(e.node, {}, {}, {}))
        row.raw[e.plugin] = e.raw_score or 0
        row.normalized[e.plugin] = e.normalized_score or 0
        row.weighted[e.plugin] = e.weighted_score or 0
    return plugins, list(rows.values())


def score_weights(plugins: Sequence[str], rows: Sequence[ScoreRow]) -> dict[str, Optional[int]]:
    """Each plugin's weight as the recorded scores show it (weighted / normalized); None if every score was 0."""
    weights: dict[str, Optional[int]] = {}
    for p in plugins:
        row = next((r for r in rows if r.normalized.get(p)), None)
        weights[p] = row.weighted[p] // row.normalized[p] if row is not None else None
    return weights


# --- the queue, replayed ----------------------------------------------------------------

# Where a pod can be, as the views name the parts of the queue (scheduling_queue.go).
QUEUES = ("activeQ", "backoffQ", "unschedulable", "inFlight", "bound")
_QUEUE_OF = {"Active": "activeQ", "Backoff": "backoffQ", "Unschedulable": "unschedulable", "InFlight": "inFlight"}
# The finer state a timeline draws: in flight splits into scheduling, waiting at
# Permit (assumed on its node, held by a Permit plugin) and binding.
PHASES = ("activeQ", "backoffQ", "unschedulable", "scheduling", "waiting", "binding", "bound")


@dataclass(frozen=True)
class QueueMove:
    """One recorded event that moved a pod (or changed what it is doing)."""

    index: int  # position among the moves
    time: float
    pod: str
    source: Optional[str]  # None: the pod was in no queue before
    target: Optional[str]  # None: the pod left the queue (deleted)
    action: str  # the QueueEvent action, or "scheduled"/"unschedulable"/"error"/"bound"/"forget"/"preempted"
    event: str = ""  # the cluster event that caused it (NodeAdd, BackoffComplete, ...)
    phase: str = ""  # the pod's phase afterwards (see PHASES); "" when it left
    note: str = ""

    def __str__(self) -> str:
        src, dst = self.source or "new", self.target or "gone"
        if self.source == self.target:
            text = f"{self.pod}: {self.note or self.action} (in {dst})"
        else:
            text = f"{self.pod}: {src} -> {dst}"
            if self.event:
                text += f" on {self.event}"
            elif self.note or self.action:
                text += f" ({self.note or self.action})"
        return text


class _QueueState:
    """pod -> (queue, phase, since); dict order is the order pods arrived where they are."""

    def __init__(self, where: Optional[dict[str, tuple[str, str, float]]] = None) -> None:
        self.where: dict[str, tuple[str, str, float]] = dict(where or {})

    def copy(self) -> "_QueueState":
        return _QueueState(self.where)

    def get(self, pod: str) -> Optional[str]:
        w = self.where.get(pod)
        return w[0] if w is not None else None

    def put(self, pod: str, queue: Optional[str], phase: str, time: float) -> None:
        old = self.where.pop(pod, None)
        if queue is None:
            return
        if old is not None and old[0] == queue:
            self.where[pod] = (queue, phase, old[2])  # same place: keep when it arrived
        else:
            self.where[pod] = (queue, phase, time)

    def apply(self, m: QueueMove) -> None:
        self.put(m.pod, m.target, m.phase, m.time)

    def apply_queue_event(self, e: QueueEvent) -> None:
        queue = _QUEUE_OF.get(e.queue)
        self.put(e.pod, queue, "scheduling" if queue == "inFlight" else (queue or ""), e.time)

    def members(self, queue: str) -> tuple[tuple[str, float], ...]:
        return tuple((pod, w[2]) for pod, w in self.where.items() if w[0] == queue)

    def queues(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {q: [] for q in QUEUES}
        for pod, w in self.where.items():
            out[w[0]].append(pod)
        return out


def queue_moves(recorder: Any) -> list[QueueMove]:
    """Every move of the trace: QueueEvents, the end of each cycle, bindings and preemption victims."""
    rec = recorder_of(recorder)
    state = _QueueState()
    moves: list[QueueMove] = []

    def move(time: float, pod: str, target: Optional[str], action: str, event: str = "", phase: str = "",
             note: str = "") -> None:
        m = QueueMove(len(moves), time, pod, state.get(pod), target, action, event, phase, note)
        moves.append(m)
        state.apply(m)

    for e in rec.events:
        if isinstance(e, QueueEvent):
            target = _QUEUE_OF.get(e.queue)
            phase = "scheduling" if target == "inFlight" else (target or "")
            note = "popped for a scheduling cycle" if e.action == "pop" else e.action
            move(e.time, e.pod, target, e.action, e.event, phase, note)
        elif isinstance(e, CycleEvent) and e.kind != "start":
            if state.get(e.pod) != "inFlight":
                continue
            if e.kind == "scheduled":
                move(e.time, e.pod, "inFlight", e.kind, phase="binding",
                     note=f"cycle #{e.cycle} chose {e.node}; assumed there, binding")
            else:
                move(e.time, e.pod, "inFlight", e.kind, phase="scheduling", note=f"cycle #{e.cycle}: {e.kind}")
        elif isinstance(e, PermitEvent):
            if state.get(e.pod) != "inFlight":
                continue
            if e.kind == "wait":
                move(e.time, e.pod, "inFlight", "permit wait", phase="waiting",
                     note=f"assumed on {e.node}, waiting at Permit for {', '.join(e.plugins)} "
                          f"(until t={e.deadline:g}s)")
            elif e.kind == "allowed":
                move(e.time, e.pod, "inFlight", "permit allowed", phase="binding",
                     note=f"allowed at Permit; binding to {e.node}")
            else:
                move(e.time, e.pod, "inFlight", f"permit {e.kind}", phase="scheduling",
                     note=f"{'timed out' if e.kind == 'timeout' else 'rejected'} at Permit: {e.message}")
        elif isinstance(e, BindEvent) and e.kind in ("bound", "forget"):
            if e.kind == "bound":
                move(e.time, e.pod, "bound", "bound", phase="bound", note=f"bound to {e.node}")
            elif state.get(e.pod) == "inFlight":
                move(e.time, e.pod, "inFlight", "forget", phase="scheduling",
                     note=f"binding to {e.node} failed; the cache forgets it")
        elif isinstance(e, PreemptionEvent):
            for victim in e.victims:
                if state.get(victim) is not None:
                    move(e.time, victim, None, "preempted", note=f"preempted by {e.pod}")
    return moves


class QueueReplay:
    """The queue at any point of its history: the state after the first ``n`` moves.

    Keeps a copy of the state every ``every`` moves, so jumping anywhere costs
    at most ``every`` steps of replay.
    """

    def __init__(self, moves: Sequence[QueueMove], every: int = 64) -> None:
        self.moves = list(moves)
        self.every = every
        self._checkpoints: list[_QueueState] = [_QueueState()]
        state = _QueueState()
        for i, m in enumerate(self.moves, start=1):
            state.apply(m)
            if i % every == 0:
                self._checkpoints.append(state.copy())

    def __len__(self) -> int:
        return len(self.moves)

    def _state_after(self, n: int) -> _QueueState:
        n = max(0, min(n, len(self.moves)))
        state = self._checkpoints[n // self.every].copy()
        for m in self.moves[(n // self.every) * self.every:n]:
            state.apply(m)
        return state

    def queues_after(self, n: int) -> dict[str, list[str]]:
        """Queue name -> pods (in the order they arrived there) after ``n`` moves."""
        return self._state_after(n).queues()

    def phases_after(self, n: int) -> dict[str, tuple[str, str, float]]:
        """pod -> (queue, phase, since) after ``n`` moves."""
        return dict(self._state_after(n).where)

    def count_at(self, time: float) -> int:
        """How many moves happened at or before ``time``."""
        return sum(1 for m in self.moves if m.time <= time)

    def times(self) -> list[float]:
        """The distinct times at which something moved, in order."""
        out: list[float] = []
        for m in self.moves:
            if not out or m.time != out[-1]:
                out.append(m.time)
        return out


@dataclass(frozen=True)
class Phase:
    """A stretch of virtual time one pod spent in one phase; ``end`` None means until the trace ends."""

    pod: str
    phase: str
    start: float
    end: Optional[float]


def pod_phases(recorder: Any) -> list[Phase]:
    """Each pod's phases on the virtual clock (queued, scheduling, binding, bound), from the queue moves."""
    open_: dict[str, tuple[str, float]] = {}
    phases: list[Phase] = []
    for m in queue_moves(recorder):
        cur = open_.get(m.pod)
        if cur is not None and cur[0] == m.phase:
            continue
        if cur is not None:
            phases.append(Phase(m.pod, cur[0], cur[1], m.time))
            del open_[m.pod]
        if m.target is not None and m.phase:
            open_[m.pod] = (m.phase, m.time)
    phases += [Phase(pod, phase, start, None) for pod, (phase, start) in open_.items()]
    return sorted(phases, key=lambda p: (p.start, p.pod))


# --- waits at Permit ------------------------------------------------------------------


@dataclass(frozen=True)
class PermitWait:
    """One pod's wait at Permit: where it was assumed, for which plugins, and how the wait ended.

    ``outcome`` is "allowed", "rejected", "timeout", or "waiting" when the trace
    ends before the wait does (then ``end`` is None).
    """

    pod: str
    cycle: int
    node: str
    plugins: tuple[str, ...]
    start: float
    deadline: float
    end: Optional[float] = None
    outcome: str = "waiting"
    message: str = ""


def permit_waits(recorder: Any) -> list[PermitWait]:
    """Every wait at Permit in the trace, in the order the waits began (upstream waitingPodsMap's life)."""
    waits: dict[int, PermitWait] = {}
    for e in recorder_of(recorder).of(PermitEvent):
        if e.kind == "wait":
            waits[e.cycle] = PermitWait(e.pod, e.cycle, e.node, e.plugins, e.time, e.deadline or e.time)
        elif e.cycle in waits:
            w = waits[e.cycle]
            waits[e.cycle] = PermitWait(w.pod, w.cycle, w.node, w.plugins, w.start, w.deadline, e.time, e.kind,
                                        e.message)
    return list(waits.values())


# --- backoff, from the queue itself ------------------------------------------------------


def backoff_durations(initial: float = 1.0, max: float = 10.0, attempts: int = 8) -> list[float]:
    """The backoff after attempt 1..``attempts``, as the scheduling queue computes it.

    Asks a real PriorityQueue (``calculate_backoff_duration``); nothing is re-derived here.
    """
    queue = PriorityQueue(lambda a, b: False, pod_initial_backoff_seconds=initial, pod_max_backoff_seconds=max)
    pod = Pod(ObjectMeta(name="backoff", namespace="default", uid="backoff"))
    return [queue.calculate_backoff_duration(QueuedPodInfo(PodInfo(pod), attempts=k))
            for k in range(1, attempts + 1)]


# --- nodes: requested vs allocatable, from the cache --------------------------------------

CPU, MEMORY, PODS = "cpu", "memory", "pods"


@dataclass(frozen=True)
class NodeUsage:
    """One node's requested and allocatable resources (cpu in millicores, memory in bytes)."""

    node: str
    requested: dict[str, int]
    allocatable: dict[str, int]
    pods: tuple[str, ...] = ()
    assumed: tuple[str, ...] = ()  # pods booked by the scheduler, not yet confirmed bound

    def fraction(self, resource: str) -> float:
        alloc = self.allocatable.get(resource, 0)
        req = self.requested.get(resource, 0)
        if alloc <= 0:
            return 0.0 if req <= 0 else 1.0
        return req / alloc


def _usage_of(info: NodeInfo, assumed_uids: set[str]) -> NodeUsage:
    req, alloc = info.requested, info.allocatable
    requested = {CPU: req.milli_cpu, MEMORY: req.memory, PODS: len(info.pods)}
    allocatable = {CPU: alloc.milli_cpu, MEMORY: alloc.memory, PODS: alloc.allowed_pod_number}
    for name in sorted(set(alloc.scalar_resources) | set(req.scalar_resources)):
        requested[name] = req.scalar_resources.get(name, 0)
        allocatable[name] = alloc.scalar_resources.get(name, 0)
    pods = tuple(pi.pod.key for pi in info.pods)
    assumed = tuple(pi.pod.key for pi in info.pods if pi.pod.uid in assumed_uids)
    return NodeUsage(info.name, requested, allocatable, pods, assumed)


def dump_cache(cache: Any) -> tuple[list[NodeInfo], set[str]]:
    """Copies of the cache's NodeInfos and the assumed pods' uids (upstream cacheImpl.Dump)."""
    infos = [info.snapshot() for info in cache.nodes.values() if info.node() is not None]
    return infos, set(cache.assumed_pods)


def node_usage(source: Any) -> list[NodeUsage]:
    """Every node's usage, sorted by name.

    ``source`` is a Simulation or Scheduler (read through its cache, as the
    cache dumper does), a Cache, a Snapshot, or NodeInfos.
    """
    infos, assumed = _node_infos(source)
    return sorted((_usage_of(i, assumed) for i in infos if i.node() is not None), key=lambda u: u.node)


def _node_infos(source: Any) -> tuple[list[NodeInfo], set[str]]:
    if hasattr(source, "scheduler"):
        source = source.scheduler
    if hasattr(source, "cache"):
        source = source.cache
    if hasattr(source, "assumed_pods") and hasattr(source, "nodes"):
        return dump_cache(source)
    if hasattr(source, "node_info_list"):
        return list(source.node_info_list), set()
    if isinstance(source, Iterable):
        infos = list(source)
        if all(isinstance(i, NodeInfo) for i in infos):
            return infos, set()
    raise TypeError(f"cannot read nodes from {type(source).__name__}: "
                    "give a Simulation, a Scheduler, a Cache, a Snapshot or NodeInfos")


def resources_in(usage: Sequence[NodeUsage]) -> list[str]:
    """cpu, memory, pods, then every extended resource (GPUs, ...) some node offers or uses."""
    extra = sorted({r for u in usage for r in u.allocatable if r not in (CPU, MEMORY, PODS)
                    and (u.allocatable[r] or u.requested.get(r))})
    return [CPU, MEMORY, PODS] + extra


def format_amount(resource: str, amount: int) -> str:
    """cpu in cores ("500m", "2"), memory in binary units ("512Mi", "4Gi"), anything else as a count."""
    if resource == CPU:
        return str(amount // 1000) if amount % 1000 == 0 else f"{amount}m"
    if resource in (MEMORY, "ephemeral-storage") or resource.startswith("hugepages-"):
        for unit, suffix in ((1 << 40, "Ti"), (1 << 30, "Gi"), (1 << 20, "Mi"), (1 << 10, "Ki")):
            if amount >= unit:
                return f"{round(amount / unit, 2):g}{suffix}"
        return str(amount)
    return str(amount)
