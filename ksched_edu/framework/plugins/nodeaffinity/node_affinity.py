"""Port of pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (v1.30).

NodeAffinity keeps a pod off nodes that miss its ``nodeSelector`` or its required
node affinity (and off nodes outside the profile's ``addedAffinity``), and scores
nodes by the summed weights of the preferred terms they match. Its PreFilter also
narrows the cycle to the nodes named by ``metadata.name`` matchFields.

Deviations:
- Queueing hints return only the hint; where upstream also returns an error, the
  hint is Queue, as upstream's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ....anchors import plumbing, ports
from ....api.nodeaffinity import (NODE_SELECTOR_OP_IN, OBJECT_NAME_FIELD, NodeSelector, PreferredSchedulingTerms,
                                  RequiredNodeAffinity, get_required_node_affinity, new_node_selector,
                                  new_preferred_scheduling_terms)
from ....api.types import Node, Pod
from ....config.field import to_aggregate
from ....config.validation_pluginargs import validate_node_affinity_args
from ...cycle_state import CycleState, StateNotFoundError
from ...interface import MAX_NODE_SCORE, Code, NodeScore, PreFilterResult, Status, new_status
from ...types import NODE, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo, QueueingHint
from ..helper.normalize_score import default_normalize_score
from ..names import NODE_AFFINITY

NAME = NODE_AFFINITY

# CycleState keys.
PRE_SCORE_STATE_KEY = "PreScore" + NAME
PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector"
ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity"
ERR_REASON_CONFLICT = "pod affinity terms conflict"

# Extension points: PreFilter, Filter, PreScore, Score (+NormalizeScore), EnqueueExtensions.


@plumbing("exception standing in for the wrapped error upstream returns when the cycle state cannot be read")
class StateError(Exception):
    """Reading the cycle state failed (upstream returns a wrapped error)."""


@ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "preFilterState", 75, 77)
@dataclass
class PreFilterState:
    required_node_selector_and_affinity: RequiredNodeAffinity

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*preFilterState).Clone", 80, 82)
    def clone(self) -> "PreFilterState":
        # Not affected by pod additions or deletions: shared, as upstream.
        return self


@ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "preScoreState", 206, 208)
@dataclass
class PreScoreState:
    preferred_node_affinity: Optional[PreferredSchedulingTerms]

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*preScoreState).Clone", 212, 214)
    def clone(self) -> "PreScoreState":
        return self


@ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "NodeAffinity", 38, 42)
class NodeAffinity:
    def __init__(self, handle: Any, added_node_selector: Optional[NodeSelector] = None,
                 added_pref_sched_terms: Optional[PreferredSchedulingTerms] = None) -> None:
        self.handle = handle
        self.added_node_selector = added_node_selector
        self.added_pref_sched_terms = added_pref_sched_terms

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*NodeAffinity).Name", 71, 73)
    def name(self) -> str:
        return NAME

    # --- EnqueueExtensions -----------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*NodeAffinity).EventsToRegister", 86, 90)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.Update),
                                     self.is_schedulable_after_node_change)]

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*NodeAffinity).isSchedulableAfterNodeChange", 94, 120)
    def is_schedulable_after_node_change(self, pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
        # upstream: util.As fails on objects that are not nodes -> Queue, with the error.
        if not isinstance(new_obj, Node) or (old_obj is not None and not isinstance(old_obj, Node)):
            return QueueingHint.Queue
        modified_node = new_obj
        if self.added_node_selector is not None and not self.added_node_selector.match(modified_node):
            return QueueingHint.QueueSkip
        matched, err = get_required_node_affinity(pod).match(modified_node)
        if err is not None:
            return QueueingHint.Queue
        if matched:
            return QueueingHint.Queue
        return QueueingHint.QueueSkip

    # --- PreFilter ---------------------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*NodeAffinity).PreFilter", 123, 173)
    def pre_filter(self, cycle_state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        affinity = pod.spec.affinity
        no_node_affinity = (affinity is None or affinity.node_affinity is None
                            or affinity.node_affinity.required is None)
        # upstream: `pod.Spec.NodeSelector == nil`; an empty map never reaches the
        # scheduler (omitempty), so empty is nil here.
        if no_node_affinity and self.added_node_selector is None and not pod.spec.node_selector:
            return None, new_status(Code.Skip)

        cycle_state.write(PRE_FILTER_STATE_KEY, PreFilterState(get_required_node_affinity(pod)))

        if no_node_affinity or not affinity.node_affinity.required.node_selector_terms:  # type: ignore[union-attr]
            return None, None

        # Is there affinity to specific nodes by name? The terms are ORed, the
        # requirements inside one term ANDed.
        terms = affinity.node_affinity.required.node_selector_terms  # type: ignore[union-attr]
        node_names: Optional[set[str]] = None
        for t in terms:
            term_node_names: Optional[set[str]] = None
            for r in t.match_fields:
                if r.key == OBJECT_NAME_FIELD and r.operator == NODE_SELECTOR_OP_IN:
                    s = set(r.values)
                    term_node_names = s if term_node_names is None else term_node_names & s
            if term_node_names is None:
                # A term without a node-name requirement admits every node.
                return None, None
            node_names = term_node_names if node_names is None else node_names | term_node_names
        # Every term named nodes, and no node satisfies any of them.
        if node_names is not None and not node_names:
            return None, new_status(Code.UnschedulableAndUnresolvable, ERR_REASON_CONFLICT)
        if node_names:
            return PreFilterResult(node_names), None
        return None, None

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*NodeAffinity).PreFilterExtensions", 176, 178)
    def pre_filter_extensions(self) -> None:
        # The state does not depend on which pods are on which node.
        return None

    # --- Filter ------------------------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*NodeAffinity).Filter", 182, 203)
    def filter(self, cycle_state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        node = node_info.node()
        if self.added_node_selector is not None and not self.added_node_selector.match(node):
            return new_status(Code.UnschedulableAndUnresolvable, ERR_REASON_ENFORCED)
        try:
            s = get_pre_filter_state(cycle_state)
        except StateError:
            # PreFilter is disabled: compute the same thing here.
            s = PreFilterState(get_required_node_affinity(pod))
        # Parse errors are ignored for backwards compatibility.
        matched, _ = s.required_node_selector_and_affinity.match(node)  # type: ignore[arg-type]
        if not matched:
            return new_status(Code.UnschedulableAndUnresolvable, ERR_REASON_POD)
        return None

    # --- PreScore / Score ----------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*NodeAffinity).PreScore", 217, 234)
    def pre_score(self, cycle_state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Optional[Status]:
        if not nodes:
            return None
        try:
            preferred = get_pod_preferred_node_affinity(pod)
        except ValueError as err:
            return Status.as_status(err)
        if preferred is None and self.added_pref_sched_terms is None:
            # Nothing to score for this pod.
            return new_status(Code.Skip)
        cycle_state.write(PRE_SCORE_STATE_KEY, PreScoreState(preferred))
        return None

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*NodeAffinity).Score", 239, 269)
    def score(self, cycle_state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        try:
            node_info = self.handle.snapshot_shared_lister().node_infos().get(node_name)
        except KeyError as err:
            return 0, Status.as_status(f"getting node {_go_quote(node_name)} from Snapshot: {err}")
        node = node_info.node()

        count = 0
        if self.added_pref_sched_terms is not None:
            count += self.added_pref_sched_terms.score(node)

        try:
            s = get_pre_score_state(cycle_state)
        except StateError:
            # PreScore is disabled: compute the preferred terms here.
            try:
                s = PreScoreState(get_pod_preferred_node_affinity(pod))
            except ValueError as err:
                return 0, Status.as_status(err)

        if s.preferred_node_affinity is not None:
            count += s.preferred_node_affinity.score(node)
        return count, None

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*NodeAffinity).ScoreExtensions", 277, 279)
    def score_extensions(self) -> "NodeAffinity":
        return self

    @ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "(*NodeAffinity).NormalizeScore", 272, 274)
    def normalize_score(self, cycle_state: CycleState, pod: Pod, scores: list[NodeScore]) -> Optional[Status]:
        return default_normalize_score(MAX_NODE_SCORE, False, scores)


def _go_quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


@ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "getPodPreferredNodeAffinity", 316, 322)
def get_pod_preferred_node_affinity(pod: Pod) -> Optional[PreferredSchedulingTerms]:
    """The pod's parsed preferred terms, or None when it has none; raises on parse errors."""
    affinity = pod.spec.affinity
    # upstream: a nil slice; an empty list never reaches the scheduler (omitempty).
    if affinity is not None and affinity.node_affinity is not None and affinity.node_affinity.preferred:
        return new_preferred_scheduling_terms(affinity.node_affinity.preferred)
    return None


@ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "getPreScoreState", 324, 335)
def get_pre_score_state(cycle_state: CycleState) -> PreScoreState:
    try:
        c = cycle_state.read(PRE_SCORE_STATE_KEY)
    except StateNotFoundError as err:
        raise StateError(f'reading "{PRE_SCORE_STATE_KEY}" from cycleState: {err}') from None
    if not isinstance(c, PreScoreState):
        raise StateError(f"invalid PreScore state, got type {type(c).__name__}")
    return c


@ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "getPreFilterState", 337, 348)
def get_pre_filter_state(cycle_state: CycleState) -> PreFilterState:
    try:
        c = cycle_state.read(PRE_FILTER_STATE_KEY)
    except StateNotFoundError as err:
        raise StateError(f'reading "{PRE_FILTER_STATE_KEY}" from cycleState: {err}') from None
    if not isinstance(c, PreFilterState):
        raise StateError(f"invalid PreFilter state, got type {type(c).__name__}")
    return c


@ports("pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", "New", 282, 306)
def new(args: Any, handle: Any) -> NodeAffinity:
    """Upstream New: parse ``args.added_affinity`` once, for every pod of the profile."""
    pl = NodeAffinity(handle)
    if args is None:
        return pl
    errs = validate_node_affinity_args(None, args)
    if errs:
        raise ValueError(str(to_aggregate(errs)))
    added = getattr(args, "added_affinity", None)
    if added is not None:
        if added.required is not None:
            try:
                pl.added_node_selector = new_node_selector(added.required)
            except ValueError as err:
                raise ValueError(
                    f"parsing addedAffinity.requiredDuringSchedulingIgnoredDuringExecution: {err}") from None
        if added.preferred:
            try:
                pl.added_pref_sched_terms = new_preferred_scheduling_terms(added.preferred)
            except ValueError as err:
                raise ValueError(
                    f"parsing addedAffinity.preferredDuringSchedulingIgnoredDuringExecution: {err}") from None
    return pl
