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
from typing import TYPE_CHECKING, Any, Optional, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from ..api.types import Pod
    from .cycle_state import CycleState
    from .types import ClusterEventWithHint, NodeInfo, PodInfo, QueuedPodInfo


class Code(enum.IntEnum):
    """What a plugin concluded; the order is upstream's iota order."""

    Success = 0
    Error = 1
    Unschedulable = 2
    UnschedulableAndUnresolvable = 3
    Wait = 4
    Skip = 5
    Pending = 6

    def __str__(self) -> str:
        return self.name


MAX_NODE_SCORE = 100
MIN_NODE_SCORE = 0
MAX_TOTAL_SCORE = 2**63 - 1

# Reserved CycleState key for pods a plugin wants moved to activeQ.
PODS_TO_ACTIVATE_KEY = "kubernetes.io/pods-to-activate"


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
    def new(cls, code: Code, *reasons: str) -> "Status":
        return cls(code, list(reasons))

    @classmethod
    def as_status(cls, err: Exception | str) -> "Status":
        """Wrap an error in a Status with code Error (upstream AsStatus)."""
        return cls(Code.Error, [], str(err))

    def with_error(self, err: object) -> "Status":
        self.err = err
        return self

    def with_plugin(self, plugin: str) -> "Status":
        self.plugin = plugin
        return self

    def get_reasons(self) -> list[str]:
        """Reasons, with the error text first when there is one (upstream Reasons)."""
        if self.err is not None:
            return [str(self.err), *self.reasons]
        return list(self.reasons)

    def message(self) -> str:
        return ", ".join(self.get_reasons())

    def is_success(self) -> bool:
        return self.code == Code.Success

    def is_wait(self) -> bool:
        return self.code == Code.Wait

    def is_skip(self) -> bool:
        return self.code == Code.Skip

    def is_rejected(self) -> bool:
        return self.code in (Code.Unschedulable, Code.UnschedulableAndUnresolvable, Code.Pending)

    def __str__(self) -> str:
        return self.message()


def code_of(status: Optional[Status]) -> Code:
    """The code of a status that may be ``None`` (None is Success)."""
    return Code.Success if status is None else status.code


def is_success(status: Optional[Status]) -> bool:
    return status is None or status.code == Code.Success


def new_status(code: Code, *reasons: str) -> Status:
    """Upstream NewStatus."""
    return Status(code, list(reasons))


@dataclass
class PreFilterResult:
    """The nodes a PreFilter plugin narrowed the cycle to; ``None`` names = all nodes."""

    node_names: Optional[set[str]] = None

    def all_nodes(self) -> bool:
        return self.node_names is None

    def merge(self, other: Optional["PreFilterResult"]) -> Optional["PreFilterResult"]:
        if self.all_nodes() and (other is None or other.all_nodes()):
            return None
        if self.all_nodes():
            return PreFilterResult(set(other.node_names))  # type: ignore[union-attr, arg-type]
        if other is None or other.all_nodes():
            return PreFilterResult(set(self.node_names))  # type: ignore[arg-type]
        return PreFilterResult(self.node_names & other.node_names)  # type: ignore[operator]


def merge_pre_filter_results(a: Optional[PreFilterResult], b: Optional[PreFilterResult]) -> Optional[PreFilterResult]:
    """Upstream ``(*PreFilterResult).Merge`` with a nil receiver allowed."""
    return (a or PreFilterResult()).merge(b)


class NominatingMode(enum.IntEnum):
    ModeNoop = 0
    ModeOverride = 1


@dataclass
class NominatingInfo:
    nominated_node_name: str = ""
    nominating_mode: NominatingMode = NominatingMode.ModeNoop

    def mode(self) -> NominatingMode:
        return self.nominating_mode


@dataclass
class PostFilterResult:
    nominating_info: Optional[NominatingInfo] = None

    @classmethod
    def with_nominated_node(cls, name: str) -> "PostFilterResult":
        return cls(NominatingInfo(name, NominatingMode.ModeOverride))


@dataclass(slots=True)
class NodeScore:
    name: str
    score: int


@dataclass(slots=True)
class PluginScore:
    name: str
    score: int


@dataclass(slots=True)
class NodePluginScores:
    """Every plugin's weighted score on one node, and their total."""

    name: str
    scores: list[PluginScore] = field(default_factory=list)
    total_score: int = 0


# NodeToStatusMap: node name -> the status that rejected the pod there.
NodeToStatusMap = dict[str, Status]


# --- extension points: one Protocol each ------------------------------------------


@runtime_checkable
class Plugin(Protocol):
    def name(self) -> str: ...


@runtime_checkable
class PreEnqueuePlugin(Plugin, Protocol):
    def pre_enqueue(self, pod: "Pod") -> Optional[Status]: ...


@runtime_checkable
class QueueSortPlugin(Plugin, Protocol):
    def less(self, a: "QueuedPodInfo", b: "QueuedPodInfo") -> bool: ...


@runtime_checkable
class EnqueueExtensions(Plugin, Protocol):
    def events_to_register(self) -> list["ClusterEventWithHint"]: ...


class PreFilterExtensions(Protocol):
    def add_pod(self, state: "CycleState", pod_to_schedule: "Pod", pod_info_to_add: "PodInfo",
                node_info: "NodeInfo") -> Optional[Status]: ...

    def remove_pod(self, state: "CycleState", pod_to_schedule: "Pod", pod_info_to_remove: "PodInfo",
                   node_info: "NodeInfo") -> Optional[Status]: ...


@runtime_checkable
class PreFilterPlugin(Plugin, Protocol):
    def pre_filter(self, state: "CycleState", pod: "Pod") -> tuple[Optional[PreFilterResult], Optional[Status]]: ...

    def pre_filter_extensions(self) -> Optional[PreFilterExtensions]: ...


@runtime_checkable
class FilterPlugin(Plugin, Protocol):
    def filter(self, state: "CycleState", pod: "Pod", node_info: "NodeInfo") -> Optional[Status]: ...


@runtime_checkable
class PostFilterPlugin(Plugin, Protocol):
    def post_filter(self, state: "CycleState", pod: "Pod",
                    filtered_node_status_map: NodeToStatusMap) -> tuple[Optional[PostFilterResult], Optional[Status]]: ...


@runtime_checkable
class PreScorePlugin(Plugin, Protocol):
    def pre_score(self, state: "CycleState", pod: "Pod", nodes: list["NodeInfo"]) -> Optional[Status]: ...


class ScoreExtensions(Protocol):
    def normalize_score(self, state: "CycleState", pod: "Pod", scores: list[NodeScore]) -> Optional[Status]: ...


@runtime_checkable
class ScorePlugin(Plugin, Protocol):
    def score(self, state: "CycleState", pod: "Pod", node_name: str) -> tuple[int, Optional[Status]]: ...

    def score_extensions(self) -> Optional[ScoreExtensions]: ...


@runtime_checkable
class ReservePlugin(Plugin, Protocol):
    def reserve(self, state: "CycleState", pod: "Pod", node_name: str) -> Optional[Status]: ...

    def unreserve(self, state: "CycleState", pod: "Pod", node_name: str) -> None: ...


@runtime_checkable
class PermitPlugin(Plugin, Protocol):
    def permit(self, state: "CycleState", pod: "Pod", node_name: str) -> tuple[Optional[Status], float]: ...


@runtime_checkable
class PreBindPlugin(Plugin, Protocol):
    def pre_bind(self, state: "CycleState", pod: "Pod", node_name: str) -> Optional[Status]: ...


@runtime_checkable
class BindPlugin(Plugin, Protocol):
    def bind(self, state: "CycleState", pod: "Pod", node_name: str) -> Optional[Status]: ...


@runtime_checkable
class PostBindPlugin(Plugin, Protocol):
    def post_bind(self, state: "CycleState", pod: "Pod", node_name: str) -> None: ...


# --- what a plugin may reach through its Handle -------------------------------------


class NodeInfoLister(Protocol):
    """Upstream framework/listers.go NodeInfoLister, over the cycle's snapshot."""

    def list(self) -> list["NodeInfo"]: ...

    def have_pods_with_affinity_list(self) -> list["NodeInfo"]: ...

    def have_pods_with_required_anti_affinity_list(self) -> list["NodeInfo"]: ...

    def get(self, node_name: str) -> "NodeInfo": ...


class SharedLister(Protocol):
    def node_infos(self) -> NodeInfoLister: ...


class ObjectLister(Protocol):
    """What upstream plugins read from informers: the API server's other objects.

    ``kind`` is the object's kind (``"Service"``, ``"ReplicaSet"``, ...); an empty
    namespace lists every namespace.
    """

    def list(self, kind: str, namespace: str = "") -> list[Any]: ...

    def get(self, kind: str, namespace: str, name: str) -> Any: ...


class PodNominator(Protocol):
    def nominated_pods_for_node(self, node_name: str) -> list["PodInfo"]: ...


class Handle(Protocol):
    """Upstream framework.Handle: what the runtime lends every plugin."""

    def snapshot_shared_lister(self) -> SharedLister: ...

    def object_lister(self) -> ObjectLister: ...

    def client(self) -> Any:
        """The API server (sim.apiserver.APIServer): bind, delete, status patch."""
        ...

    def nominated_pods_for_node(self, node_name: str) -> list["PodInfo"]: ...

    def run_filter_plugins_with_nominated_pods(self, state: "CycleState", pod: "Pod",
                                               info: "NodeInfo") -> Optional[Status]: ...
