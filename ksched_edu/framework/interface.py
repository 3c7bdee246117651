"""Port of pkg/scheduler/framework/interface.go (v1.30).

The contracts of the Scheduling Framework: the status ``Code`` and ``Status`` a
plugin returns, one small ``Protocol`` per extension point, and the ``Handle``
through which a plugin reaches the cluster snapshot and the API server.

Deviations:
- Go's ``nil`` Status is Python's ``None``; both mean Success. Use
  :func:`code_of` / :func:`is_success` when a status may be ``None``.
- No ``context.Context`` argument: there is no cancellation in a simulation.
- Permit timeouts are seconds on the virtual clock (a float), not a Duration.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Optional, Protocol, runtime_checkable

from ..anchors import plumbing, ports

if TYPE_CHECKING:  # pragma: no cover
    from ..api.types import Pod
    from .cycle_state import CycleState
    from .types import ClusterEventWithHint, NodeInfo, PodInfo, QueuedPodInfo


@ports("pkg/scheduler/framework/interface.go", "Code", 74, 74)
class Code(enum.IntEnum):
    """What a plugin concluded; the order is upstream's iota order."""

    Success = 0
    Error = 1
    Unschedulable = 2
    UnschedulableAndUnresolvable = 3
    Wait = 4
    Skip = 5
    Pending = 6

    @ports("pkg/scheduler/framework/interface.go", "(Code).String", 137, 139)
    def __str__(self) -> str:
        return self.name


MAX_NODE_SCORE = 100
MIN_NODE_SCORE = 0
MAX_TOTAL_SCORE = 2**63 - 1

# Reserved CycleState key for pods a plugin wants moved to activeQ.
PODS_TO_ACTIVATE_KEY = "kubernetes.io/pods-to-activate"


@ports("pkg/scheduler/framework/interface.go", "Status", 181, 188)
@dataclass
class Status:
    """The result of running a plugin: a code, reasons, an optional error and
    the plugin that produced it (set by the runtime, not by the plugin)."""

    code: Code = Code.Success
    reasons: list[str] = field(default_factory=list)
    # An error (text or exception, e.g. a FitError) that explains the status.
    err: Optional[object] = None
    plugin: str = ""

    @classmethod
    @ports("pkg/scheduler/framework/interface.go", "NewStatus", 297, 303)
    def new(cls, code: Code, *reasons: str) -> "Status":
        return cls(code, list(reasons))

    @classmethod
    @ports("pkg/scheduler/framework/interface.go", "AsStatus", 306, 314)
    def as_status(cls, err: Exception | str) -> "Status":
        """Wrap an error in a Status with code Error (upstream AsStatus)."""
        return cls(Code.Error, [], str(err))

    @ports("pkg/scheduler/framework/interface.go", "(*Status).WithError", 190, 193)
    def with_error(self, err: object) -> "Status":
        self.err = err
        return self

    @ports("pkg/scheduler/framework/interface.go", "(*Status).WithPlugin", 218, 221)
    def with_plugin(self, plugin: str) -> "Status":
        self.plugin = plugin
        return self

    @ports("pkg/scheduler/framework/interface.go", "(*Status).Reasons", 229, 234)
    def get_reasons(self) -> list[str]:
        """Reasons, with the error text first when there is one (upstream Reasons)."""
        if self.err is not None:
            return [str(self.err), *self.reasons]
        return list(self.reasons)

    @ports("pkg/scheduler/framework/interface.go", "(*Status).Message", 204, 209)
    def message(self) -> str:
        return ", ".join(self.get_reasons())

    @ports("pkg/scheduler/framework/interface.go", "(*Status).IsSuccess", 242, 244)
    def is_success(self) -> bool:
        return self.code == Code.Success

    @ports("pkg/scheduler/framework/interface.go", "(*Status).IsWait", 247, 249)
    def is_wait(self) -> bool:
        return self.code == Code.Wait

    @ports("pkg/scheduler/framework/interface.go", "(*Status).IsSkip", 252, 254)
    def is_skip(self) -> bool:
        return self.code == Code.Skip

    @ports("pkg/scheduler/framework/interface.go", "(*Status).IsRejected", 257, 260)
    def is_rejected(self) -> bool:
        return self.code in (Code.Unschedulable, Code.UnschedulableAndUnresolvable, Code.Pending)

    @ports("pkg/scheduler/framework/interface.go", "(*Status).String", 292, 294)
    def __str__(self) -> str:
        return self.message()


@ports("pkg/scheduler/framework/interface.go", "(*Status).Code", 196, 201)
def code_of(status: Optional[Status]) -> Code:
    """The code of a status that may be ``None`` (None is Success)."""
    return Code.Success if status is None else status.code


@ports("pkg/scheduler/framework/interface.go", "(*Status).IsSuccess", 242, 244)
def is_success(status: Optional[Status]) -> bool:
    return status is None or status.code == Code.Success


@ports("pkg/scheduler/framework/interface.go", "NewStatus", 297, 303)
def new_status(code: Code, *reasons: str) -> Status:
    """Upstream NewStatus."""
    return Status(code, list(reasons))


@ports("pkg/scheduler/framework/interface.go", "PreFilterResult", 717, 721)
@dataclass
class PreFilterResult:
    """The nodes a PreFilter plugin narrowed the cycle to; ``None`` names = all nodes."""

    node_names: Optional[set[str]] = None

    @ports("pkg/scheduler/framework/interface.go", "(*PreFilterResult).AllNodes", 723, 725)
    def all_nodes(self) -> bool:
        return self.node_names is None

    @ports("pkg/scheduler/framework/interface.go", "(*PreFilterResult).Merge", 727, 744)
    def merge(self, other: Optional["PreFilterResult"]) -> Optional["PreFilterResult"]:
        if self.all_nodes() and (other is None or other.all_nodes()):
            return None
        if self.all_nodes():
            return PreFilterResult(set(other.node_names))  # type: ignore[union-attr, arg-type]
        if other is None or other.all_nodes():
            return PreFilterResult(set(self.node_names))  # type: ignore[arg-type]
        return PreFilterResult(self.node_names & other.node_names)  # type: ignore[operator]


@ports("pkg/scheduler/framework/interface.go", "(*PreFilterResult).Merge", 727, 744)
def merge_pre_filter_results(a: Optional[PreFilterResult], b: Optional[PreFilterResult]) -> Optional[PreFilterResult]:
    """Upstream ``(*PreFilterResult).Merge`` with a nil receiver allowed."""
    return (a or PreFilterResult()).merge(b)


@ports("pkg/scheduler/framework/interface.go", "NominatingMode", 746, 746)
class NominatingMode(enum.IntEnum):
    ModeNoop = 0
    ModeOverride = 1


@ports("pkg/scheduler/framework/interface.go", "NominatingInfo", 753, 756)
@dataclass
class NominatingInfo:
    nominated_node_name: str = ""
    nominating_mode: NominatingMode = NominatingMode.ModeNoop

    @ports("pkg/scheduler/framework/interface.go", "(*NominatingInfo).Mode", 772, 777)
    def mode(self) -> NominatingMode:
        return self.nominating_mode


@ports("pkg/scheduler/framework/interface.go", "PostFilterResult", 759, 761)
@dataclass
class PostFilterResult:
    nominating_info: Optional[NominatingInfo] = None

    @classmethod
    @ports("pkg/scheduler/framework/interface.go", "NewPostFilterResultWithNominatedNode", 763, 770)
    def with_nominated_node(cls, name: str) -> "PostFilterResult":
        return cls(NominatingInfo(name, NominatingMode.ModeOverride))

    @ports("pkg/scheduler/framework/interface.go", "(*NominatingInfo).Mode", 772, 777)
    def mode(self) -> NominatingMode:
        """upstream: PostFilterResult embeds *NominatingInfo, whose Mode is ModeNoop when it is nil."""
        return self.nominating_info.mode() if self.nominating_info is not None else NominatingMode.ModeNoop


@ports("pkg/scheduler/framework/interface.go", "NodeScore", 47, 50)
@dataclass(slots=True)
class NodeScore:
    name: str
    score: int


@ports("pkg/scheduler/framework/interface.go", "PluginScore", 67, 71)
@dataclass(slots=True)
class PluginScore:
    name: str
    score: int


@plumbing("NodePluginScores.Scores kept as two lists: a PluginScore is made only when read")
class PluginScores(Sequence[PluginScore]):
    """A node's ``Scores``: a PluginScore per Score plugin, in plugin order.

    upstream: a slice of PluginScore values, written in place. Here the names and the
    weighted scores are kept in two lists and a PluginScore record is made when one is
    read: a cycle scores hundreds of nodes, and nothing reads most of their scores.
    """

    __slots__ = ("names", "values")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.values: list[int] = []

    @plumbing("appends PluginScore{Name: name, Score: score}")
    def append_score(self, name: str, score: int) -> None:
        self.names.append(name)
        self.values.append(score)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [PluginScore(n, v) for n, v in zip(self.names[index], self.values[index])]
        return PluginScore(self.names[index], self.values[index])

    def __iter__(self) -> Iterator[PluginScore]:
        return map(PluginScore, self.names, self.values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (PluginScores, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return repr(list(self))


@ports("pkg/scheduler/framework/interface.go", "NodePluginScores", 57, 64)
@dataclass(slots=True)
class NodePluginScores:
    """Every plugin's weighted score on one node, and their total."""

    name: str
    scores: list[PluginScore] = field(default_factory=list)
    total_score: int = 0


# NodeToStatusMap: node name -> the status that rejected the pod there.
NodeToStatusMap = dict[str, Status]


# --- extension points: one Protocol each ------------------------------------------


@ports("pkg/scheduler/framework/interface.go", "Plugin", 331, 333)
@runtime_checkable
class Plugin(Protocol):
    @ports("pkg/scheduler/framework/interface.go", "Plugin", 331, 333)
    def name(self) -> str: ...


@ports("pkg/scheduler/framework/interface.go", "PreEnqueuePlugin", 340, 344)
@runtime_checkable
class PreEnqueuePlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "PreEnqueuePlugin", 340, 344)
    def pre_enqueue(self, pod: "Pod") -> Optional[Status]: ...


@ports("pkg/scheduler/framework/interface.go", "QueueSortPlugin", 352, 356)
@runtime_checkable
class QueueSortPlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "QueueSortPlugin", 352, 356)
    def less(self, a: "QueuedPodInfo", b: "QueuedPodInfo") -> bool: ...


@ports("pkg/scheduler/framework/interface.go", "EnqueueExtensions", 370, 382)
@runtime_checkable
class EnqueueExtensions(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "EnqueueExtensions", 370, 382)
    def events_to_register(self) -> list["ClusterEventWithHint"]: ...


@ports("pkg/scheduler/framework/interface.go", "PreFilterExtensions", 387, 394)
class PreFilterExtensions(Protocol):
    @ports("pkg/scheduler/framework/interface.go", "PreFilterExtensions", 387, 394)
    def add_pod(self, state: "CycleState", pod_to_schedule: "Pod", pod_info_to_add: "PodInfo",
                node_info: "NodeInfo") -> Optional[Status]: ...

    @ports("pkg/scheduler/framework/interface.go", "PreFilterExtensions", 387, 394)
    def remove_pod(self, state: "CycleState", pod_to_schedule: "Pod", pod_info_to_remove: "PodInfo",
                   node_info: "NodeInfo") -> Optional[Status]: ...


@ports("pkg/scheduler/framework/interface.go", "PreFilterPlugin", 398, 417)
@runtime_checkable
class PreFilterPlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "PreFilterPlugin", 398, 417)
    def pre_filter(self, state: "CycleState", pod: "Pod") -> tuple[Optional[PreFilterResult], Optional[Status]]: ...

    @ports("pkg/scheduler/framework/interface.go", "PreFilterPlugin", 398, 417)
    def pre_filter_extensions(self) -> Optional[PreFilterExtensions]: ...


@ports("pkg/scheduler/framework/interface.go", "FilterPlugin", 426, 440)
@runtime_checkable
class FilterPlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "FilterPlugin", 426, 440)
    def filter(self, state: "CycleState", pod: "Pod", node_info: "NodeInfo") -> Optional[Status]: ...


@ports("pkg/scheduler/framework/interface.go", "PostFilterPlugin", 444, 468)
@runtime_checkable
class PostFilterPlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "PostFilterPlugin", 444, 468)
    def post_filter(self, state: "CycleState", pod: "Pod",
                    filtered_node_status_map: NodeToStatusMap) -> tuple[Optional[PostFilterResult], Optional[Status]]: ...


@ports("pkg/scheduler/framework/interface.go", "PreScorePlugin", 474, 482)
@runtime_checkable
class PreScorePlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "PreScorePlugin", 474, 482)
    def pre_score(self, state: "CycleState", pod: "Pod", nodes: list["NodeInfo"]) -> Optional[Status]: ...


@ports("pkg/scheduler/framework/interface.go", "ScoreExtensions", 485, 490)
class ScoreExtensions(Protocol):
    @ports("pkg/scheduler/framework/interface.go", "ScoreExtensions", 485, 490)
    def normalize_score(self, state: "CycleState", pod: "Pod", scores: list[NodeScore]) -> Optional[Status]: ...


@ports("pkg/scheduler/framework/interface.go", "ScorePlugin", 494, 503)
@runtime_checkable
class ScorePlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "ScorePlugin", 494, 503)
    def score(self, state: "CycleState", pod: "Pod", node_name: str) -> tuple[int, Optional[Status]]: ...

    @ports("pkg/scheduler/framework/interface.go", "ScorePlugin", 494, 503)
    def score_extensions(self) -> Optional[ScoreExtensions]: ...


@ports("pkg/scheduler/framework/interface.go", "ReservePlugin", 511, 523)
@runtime_checkable
class ReservePlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "ReservePlugin", 511, 523)
    def reserve(self, state: "CycleState", pod: "Pod", node_name: str) -> Optional[Status]: ...

    @ports("pkg/scheduler/framework/interface.go", "ReservePlugin", 511, 523)
    def unreserve(self, state: "CycleState", pod: "Pod", node_name: str) -> None: ...


@ports("pkg/scheduler/framework/interface.go", "PermitPlugin", 547, 556)
@runtime_checkable
class PermitPlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "PermitPlugin", 547, 556)
    def permit(self, state: "CycleState", pod: "Pod", node_name: str) -> tuple[Optional[Status], float]: ...


@ports("pkg/scheduler/framework/interface.go", "PreBindPlugin", 527, 532)
@runtime_checkable
class PreBindPlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "PreBindPlugin", 527, 532)
    def pre_bind(self, state: "CycleState", pod: "Pod", node_name: str) -> Optional[Status]: ...


@ports("pkg/scheduler/framework/interface.go", "BindPlugin", 560, 569)
@runtime_checkable
class BindPlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "BindPlugin", 560, 569)
    def bind(self, state: "CycleState", pod: "Pod", node_name: str) -> Optional[Status]: ...


@ports("pkg/scheduler/framework/interface.go", "PostBindPlugin", 536, 543)
@runtime_checkable
class PostBindPlugin(Plugin, Protocol):
    @ports("pkg/scheduler/framework/interface.go", "PostBindPlugin", 536, 543)
    def post_bind(self, state: "CycleState", pod: "Pod", node_name: str) -> None: ...


# --- what a plugin may reach through its Handle -------------------------------------


@ports("pkg/scheduler/framework/listers.go", "NodeInfoLister", 20, 29)
class NodeInfoLister(Protocol):
    """Upstream framework/listers.go NodeInfoLister, over the cycle's snapshot."""

    @ports("pkg/scheduler/framework/listers.go", "NodeInfoLister", 20, 29)
    def list(self) -> list["NodeInfo"]: ...

    @ports("pkg/scheduler/framework/listers.go", "NodeInfoLister", 20, 29)
    def have_pods_with_affinity_list(self) -> list["NodeInfo"]: ...

    @ports("pkg/scheduler/framework/listers.go", "NodeInfoLister", 20, 29)
    def have_pods_with_required_anti_affinity_list(self) -> list["NodeInfo"]: ...

    @ports("pkg/scheduler/framework/listers.go", "NodeInfoLister", 20, 29)
    def get(self, node_name: str) -> "NodeInfo": ...


@ports("pkg/scheduler/framework/listers.go", "SharedLister", 39, 42)
class SharedLister(Protocol):
    @ports("pkg/scheduler/framework/listers.go", "SharedLister", 39, 42)
    def node_infos(self) -> NodeInfoLister: ...


@plumbing("the informer listers plugins read, as one Protocol")
class ObjectLister(Protocol):
    """What upstream plugins read from informers: the API server's other objects.

    ``kind`` is the object's kind (``"Service"``, ``"ReplicaSet"``, ...); an empty
    namespace lists every namespace.
    """

    @plumbing("stands in for an informer lister's List")
    def list(self, kind: str, namespace: str = "") -> list[Any]: ...

    @plumbing("stands in for an informer lister's Get")
    def get(self, kind: str, namespace: str, name: str) -> Any: ...


@ports("pkg/scheduler/framework/interface.go", "PodNominator", 780, 790)
class PodNominator(Protocol):
    @ports("pkg/scheduler/framework/interface.go", "PodNominator", 780, 790)
    def nominated_pods_for_node(self, node_name: str) -> list["PodInfo"]: ...


@ports("pkg/scheduler/framework/interface.go", "Handle", 665, 714)
class Handle(Protocol):
    """Upstream framework.Handle: what the runtime lends every plugin."""

    @ports("pkg/scheduler/framework/interface.go", "Handle", 665, 714)
    def snapshot_shared_lister(self) -> SharedLister: ...

    @ports("pkg/scheduler/framework/interface.go", "Handle", 665, 714)
    def object_lister(self) -> ObjectLister: ...

    @ports("pkg/scheduler/framework/interface.go", "Handle", 665, 714)
    def client(self) -> Any:
        """The API server (sim.apiserver.APIServer): bind, delete, status patch."""
        ...

    @ports("pkg/scheduler/framework/interface.go", "PodNominator", 780, 790)
    def nominated_pods_for_node(self, node_name: str) -> list["PodInfo"]: ...

    @ports("pkg/scheduler/framework/interface.go", "PluginsRunner", 795, 820)
    def run_filter_plugins_with_nominated_pods(self, state: "CycleState", pod: "Pod",
                                               info: "NodeInfo") -> Optional[Status]: ...
