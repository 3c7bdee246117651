"""The trace: what the scheduler did, one typed event per extension-point call.

Upstream records metrics and klog lines at these call sites
(pkg/scheduler/metrics, framework/runtime/instrumented_plugins.go); here the
same call sites emit frozen records that notebooks, widgets and the CLI read.
They never re-run scheduling: everything a view shows is in these events.

Tracing costs nothing when off: the default :data:`NULL_RECORDER` has
``enabled = False`` and the runtime checks that flag before building an event.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Optional

from .anchors import plumbing

# Extension points, in the order a pod meets them.
POINTS = ("PreEnqueue", "QueueSort", "PreFilter", "Filter", "PostFilter", "PreScore", "Score",
          "NormalizeScore", "Reserve", "Permit", "PreBind", "Bind", "PostBind", "Unreserve")


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class PluginEvent:
    """One plugin called at one extension point (for one node where the point is per node)."""

    time: float
    cycle: int
    pod: str
    profile: str
    point: str
    plugin: str
    node: str = ""
    code: str = "Success"
    reasons: tuple[str, ...] = ()
    raw_score: Optional[int] = None
    normalized_score: Optional[int] = None
    weighted_score: Optional[int] = None
    # A call of preemption's dry run (SelectVictimsOnNode) on a copy of the node with
    # victims removed: not the node's Filter verdict in this cycle.
    dry_run: bool = False

    def __str__(self) -> str:
        where = f" on {self.node}" if self.node else ""
        if self.dry_run:
            where += " (preemption dry run)"
        what = self.code
        if self.reasons:
            what += f" ({', '.join(self.reasons)})"
        if self.weighted_score is not None:
            what += f" score raw={self.raw_score} norm={self.normalized_score} weighted={self.weighted_score}"
        return f"[t={self.time:g}s #{self.cycle}] {self.point:<14} {self.plugin}{where}: {what}"


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class CycleEvent:
    """A scheduling cycle began or ended; ``outcome`` says how it ended."""

    time: float
    cycle: int
    pod: str
    profile: str
    kind: str  # "start" | "scheduled" | "unschedulable" | "error"
    node: str = ""
    message: str = ""
    evaluated_nodes: int = 0
    feasible_nodes: int = 0

    def __str__(self) -> str:
        tail = f" -> {self.node}" if self.node else (f": {self.message}" if self.message else "")
        return f"[t={self.time:g}s #{self.cycle}] cycle {self.kind} {self.pod}{tail}"


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class CycleStateEvent:
    """What the CycleState held after an extension point (key -> a one-line summary)."""

    time: float
    cycle: int
    pod: str
    profile: str
    point: str
    entries: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        keys = ", ".join(k for k, _ in self.entries) or "(empty)"
        return f"[t={self.time:g}s #{self.cycle}] CycleState after {self.point}: {keys}"


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class QueueEvent:
    """A pod moved in the scheduling queue (recorded by the queue)."""

    time: float
    pod: str
    action: str  # "add", "pop", "backoff", "unschedulable", "activate", "gated", "delete", ...
    queue: str = ""
    event: str = ""
    # When the pod went to backoffQ: the virtual time its backoff ends (getBackoffTime).
    backoff_until: Optional[float] = None

    def __str__(self) -> str:
        by = f" on {self.event}" if self.event else ""
        return f"[t={self.time:g}s] queue {self.action} {self.pod} -> {self.queue}{by}"


# Why a cluster event left a waiting pod where it was (QueueSkipEvent.reason).
SKIP_PRE_CHECK = "preCheck"
SKIP_QUEUEING_HINT = "QueueSkip"


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class QueueSkipEvent:
    """A cluster event was offered to the queue but did not move a pod waiting in unschedulablePods.

    ``reason`` is ``preCheck`` when the event handler's pre-check (upstream
    preCheckForNode, for node events) filtered the pod out before the queue
    looked at it, or ``QueueSkip`` when no plugin that rejected the pod
    (``plugins``) answered Queue for the event: with queueing hints off, none
    of them registered it; with hints on, their hint functions said QueueSkip.
    """

    time: float
    pod: str
    event: str
    reason: str
    plugins: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.reason == SKIP_PRE_CHECK:
            why = "the pre-check filtered it out"
        else:
            why = f"no rejecting plugin ({', '.join(self.plugins)}) answered Queue"
        return f"[t={self.time:g}s] queue skip {self.pod} on {self.event}: {why}"


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class BindEvent:
    time: float
    cycle: int
    pod: str
    node: str
    kind: str  # "assume", "bound", "forget"
    message: str = ""

    def __str__(self) -> str:
        return f"[t={self.time:g}s #{self.cycle}] {self.kind} {self.pod} on {self.node}"


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class PermitEvent:
    """A pod held at Permit (upstream waiting_pods_map.go): it began to wait, or its wait ended.

    ``kind`` is "wait" (a Permit plugin returned Wait; ``plugins`` lists those it
    waits for and ``deadline`` when the first of them times out), "allowed" (every
    plugin allowed it), "rejected" (a plugin rejected it, e.g. Coscheduling's
    Unreserve or PostFilter releasing a gang) or "timeout" (a plugin's wait ran out).
    """

    time: float
    cycle: int
    pod: str
    profile: str
    node: str
    kind: str  # "wait" | "allowed" | "rejected" | "timeout"
    plugins: tuple[str, ...] = ()
    message: str = ""
    deadline: Optional[float] = None

    def __str__(self) -> str:
        head = f"[t={self.time:g}s #{self.cycle}] permit {self.kind} {self.pod} on {self.node}"
        if self.kind == "wait":
            return head + f" for {', '.join(self.plugins)} (until t={self.deadline:g}s)"
        return head + (f": {self.message}" if self.message else "")


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class StorageEvent:
    """What the simulated PV controller and provisioner did (``ksched_edu/sim/storage_controller.py``).

    ``action`` is what the controllers saw the scheduler do at PreBind: "selected-node" (a
    claim annotated with the node chosen for its pod: a volume is to be provisioned there)
    or "pre-bound" (a volume's claimRef set to a claim); or what they did: "provision" (a
    volume created for a claim, on ``node``'s topology for a WaitForFirstConsumer claim),
    "bind" (a claim and a volume bound to each other) or "provision-failed" (no volume could
    be created; ``message`` says why).
    """

    time: float
    action: str  # "selected-node" | "pre-bound" | "provision" | "bind" | "provision-failed"
    claim: str  # namespace/name
    volume: str = ""
    node: str = ""
    message: str = ""

    def __str__(self) -> str:
        text = f"[t={self.time:g}s] storage {self.action} {self.claim}"
        if self.volume:
            text += f" -> {self.volume}"
        if self.node:
            text += f" (node {self.node})"
        return text + (f": {self.message}" if self.message else "")


TraceEvent = Any


@plumbing("trace recorder for the notebooks")
class Recorder:
    """Keeps every event in order; ``to_frame()`` gives a pandas DataFrame."""

    enabled = True
    # Whether the scheduler should time its extension points for this recorder
    # (see ExtensionPointTimer); reading the wall clock is left out otherwise.
    times_extension_points = False

    def __init__(self) -> None:
        self.events: list[TraceEvent] = []

    @plumbing("trace recorder for the notebooks")
    def record(self, event: TraceEvent) -> None:
        self.events.append(event)

    @plumbing("trace recorder for the notebooks")
    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    @plumbing("trace recorder for the notebooks")
    def plugin_events(self, cycle: Optional[int] = None, point: Optional[str] = None) -> list[PluginEvent]:
        return [e for e in self.events if isinstance(e, PluginEvent)
                and (cycle is None or e.cycle == cycle) and (point is None or e.point == point)]

    @plumbing("trace recorder for the notebooks")
    def to_rows(self) -> list[dict[str, Any]]:
        rows = []
        for e in self.events:
            row = {"event": type(e).__name__, **asdict(e)}
            for key in ("reasons", "plugins"):
                if key in row:
                    row[key] = "; ".join(row[key])
            rows.append(row)
        return rows

    @plumbing("trace recorder for the notebooks")
    def to_frame(self) -> Any:
        try:
            import pandas as pd  # the engine never imports pandas; only this view does
        except ImportError:
            raise ModuleNotFoundError('to_frame() needs pandas, which the course extra brings: '
                                      'pip install "ksched_edu[course]" (or pip install pandas)',
                                      name="pandas") from None

        return pd.DataFrame(self.to_rows())

    def __len__(self) -> int:
        return len(self.events)


@plumbing("trace recorder for the notebooks")
class NullRecorder(Recorder):
    """Records nothing; the default, so that big simulations pay nothing for tracing."""

    enabled = False

    @plumbing("trace recorder for the notebooks")
    def record(self, event: TraceEvent) -> None:
        return None


NULL_RECORDER = NullRecorder()


@plumbing("wall-time measurement of extension points, for the notebooks")
@dataclass(frozen=True)
class ExtensionPointTime:
    """How long one extension point took for one pod (wall time), and over how many nodes."""

    profile: str
    # "PreFilter", "Filter", "PreScore", "Score", or "schedulePod": all of them and the rest
    # (snapshot, selectHost), observed when a node was chosen among several feasible ones.
    point: str
    seconds: float
    nodes: int = 0  # Filter: nodes filtered; PreScore, Score and schedulePod: nodes scored


@plumbing("wall-time measurement of extension points, for the notebooks")
class ExtensionPointTimer(NullRecorder):
    """Records no trace events: the wall time of each extension point, call by call.

    Upstream's kube-scheduler exports it as the histogram
    ``scheduler_framework_extension_point_duration_seconds`` (pkg/scheduler/metrics),
    observed by each ``Run*Plugins`` method, and the whole filter-and-score step as
    ``scheduler_scheduling_algorithm_duration_seconds``. The times are not deterministic,
    and only this recorder makes the scheduler read the clock.
    """

    times_extension_points = True

    def __init__(self) -> None:
        super().__init__()
        self.times: list[ExtensionPointTime] = []

    @plumbing("wall-time measurement of extension points, for the notebooks")
    def observe(self, profile: str, point: str, seconds: float, nodes: int = 0) -> None:
        self.times.append(ExtensionPointTime(profile, point, seconds, nodes))

    @plumbing("wall-time measurement of extension points, for the notebooks")
    def to_rows(self) -> list[dict[str, Any]]:
        return [asdict(t) for t in self.times]


@plumbing("trace recorder for the notebooks")
@dataclass
class CycleContext:
    """Where the runtime is: which cycle, which pod, on which profile, at what time."""

    cycle: int = 0
    pod: str = ""
    profile: str = ""
    time: float = 0.0
    dry_run: bool = False  # preemption is trying victims on copies of nodes
    extra: dict[str, Any] = field(default_factory=dict)


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class PreemptionCandidate:
    """One node where preemption would make room: its victims and how they weigh."""

    node: str
    victims: tuple[str, ...]  # pod keys, in the order they would be evicted
    num_pdb_violations: int = 0
    highest_priority: int = 0  # the most important victim's priority
    sum_priorities: int = 0  # plain sum of the victims' priorities
    earliest_start_time: Optional[float] = None  # of the highest-priority victims


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class PreemptionCriterion:
    """One rule of pickOneNodeForPreemption as it was applied: each node it compared, with the
    score it gave (higher is better), and the nodes left with the best score."""

    name: str
    scores: tuple[tuple[str, float], ...]  # (node, score), in candidate order
    kept: tuple[str, ...]


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class PreemptionEvent:
    """What DefaultPreemption weighed for one pod and which rule picked the node.

    ``candidates`` lists every node the dry run found, ``node_statuses`` every
    node it ruled out with the reason; ``decided_by`` names the first rule of
    pickOneNodeForPreemption that left a single node (``""`` when none was picked)
    and ``criteria`` each rule that was applied, in order. ``dry_run`` lists the
    nodes the dry run checked, in the order it checked them (from ``offset`` in
    the list of nodes where preemption might help), until it had ``num_candidates``.
    """

    time: float
    cycle: int
    pod: str
    profile: str
    candidates: tuple[PreemptionCandidate, ...] = ()
    nominated_node: str = ""
    decided_by: str = ""
    victims: tuple[str, ...] = ()
    node_statuses: tuple[tuple[str, str], ...] = ()  # (node, reason) for nodes that are no candidate
    message: str = ""
    criteria: tuple[PreemptionCriterion, ...] = ()
    offset: int = 0
    num_candidates: int = 0
    dry_run: tuple[str, ...] = ()

    @plumbing("trace recorder for the notebooks")
    def rows(self) -> list[dict[str, Any]]:
        """One row per candidate node, for a table."""
        return [{"node": c.node, "victims": ", ".join(c.victims), "pdb violations": c.num_pdb_violations,
                 "highest priority": c.highest_priority, "sum of priorities": c.sum_priorities,
                 "earliest start": c.earliest_start_time, "chosen": c.node == self.nominated_node}
                for c in self.candidates]

    def __str__(self) -> str:
        if self.nominated_node:
            what = (f"nominate {self.nominated_node} ({self.decided_by}), evict {', '.join(self.victims)}"
                    f" [{len(self.candidates)} candidate(s)]")
        else:
            what = self.message or "no candidate"
        return f"[t={self.time:g}s #{self.cycle}] preemption {self.pod}: {what}"


@plumbing("trace recorder for the notebooks")
@dataclass(frozen=True)
class GPUAllocationEvent:
    """GPUTopology's ledger changed: GPUs held (``reserve``, or ``hold`` for a pod that
    arrived with GPU ids) or given back (``unreserve``, or ``release`` when the pod left)."""

    time: float
    cycle: int
    pod: str
    node: str
    kind: str  # "reserve" | "unreserve" | "hold" | "release"
    gpus: tuple[int, ...] = ()
    # "reserve" only, why these GPUs: every feasible node PreScore weighed, as
    # (node, its best GPU set, that set's slowest link in GB/s, GPUTopology's score or None
    # when a single feasible node was not scored), sorted by node name.
    candidates: tuple[tuple[str, tuple[int, ...], int, Optional[int]], ...] = ()

    def __str__(self) -> str:
        ids = ",".join(str(g) for g in self.gpus)
        return f"[t={self.time:g}s #{self.cycle}] gpu {self.kind} {self.pod} on {self.node}: GPUs {ids}"
