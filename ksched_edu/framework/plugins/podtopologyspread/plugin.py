"""Port of pkg/scheduler/framework/plugins/podtopologyspread/plugin.go (v1.30).

The PodTopologySpread plugin object: its construction from
``PodTopologySpreadArgs`` (``defaultingType: System`` gives the system default
constraints, ``List`` the configured ``defaultConstraints``), the constraints a
pod is judged by, and the cluster events that may make a rejected pod fit.

Deviations:
- ``new`` takes an optional ``fts`` object (upstream feature.Features);
  missing gates take their v1.30 defaults (both spread gates on).
- Upstream's four informer listers are the handle's one ``object_lister()``.
- Queueing hints return only the hint (Queue where upstream returns an error).
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import ports
from ....api.types import Node, Pod, TopologySpreadConstraint
from ....config.field import to_aggregate
from ....config.validation_pluginargs import validate_pod_topology_spread_args
from ...types import NODE, POD, ActionType, ClusterEvent, ClusterEventWithHint, QueueingHint
from ..names import POD_TOPOLOGY_SPREAD
from .common import (DO_NOT_SCHEDULE, LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE, SCHEDULE_ANYWAY, CommonMixin,
                     TopologySpreadConstraintInternal, node_labels_match_spread_constraints,
                     pod_labels_match_spread_constraints)
from .filtering import ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_NODE_LABEL_NOT_MATCH, FilteringMixin
from .scoring import ScoringMixin

NAME = POD_TOPOLOGY_SPREAD

__all__ = ["NAME", "ERR_REASON_CONSTRAINTS_NOT_MATCH", "ERR_REASON_NODE_LABEL_NOT_MATCH",
           "SYSTEM_DEFAULT_CONSTRAINTS", "PodTopologySpread", "new"]

# Extension points: PreFilter (+AddPod/RemovePod), Filter, PreScore, Score (+NormalizeScore),
# EnqueueExtensions.

# config.SystemDefaulting / config.ListDefaulting.
SYSTEM_DEFAULTING = "System"
LIST_DEFAULTING = "List"

SYSTEM_DEFAULT_CONSTRAINTS: list[TopologySpreadConstraint] = [
    TopologySpreadConstraint(topology_key=LABEL_HOSTNAME, when_unsatisfiable=SCHEDULE_ANYWAY, max_skew=3),
    TopologySpreadConstraint(topology_key=LABEL_TOPOLOGY_ZONE, when_unsatisfiable=SCHEDULE_ANYWAY, max_skew=5),
]


@ports("pkg/scheduler/framework/plugins/podtopologyspread/plugin.go", "PodTopologySpread", 61, 72)
class PodTopologySpread(CommonMixin, FilteringMixin, ScoringMixin):
    def __init__(self, shared_lister: Any, default_constraints: list[TopologySpreadConstraint],
                 enable_node_inclusion_policy_in_pod_topology_spread: bool = True,
                 enable_match_label_keys_in_pod_topology_spread: bool = True) -> None:
        self.system_defaulted = False
        self.shared_lister = shared_lister
        self.default_constraints = default_constraints
        # upstream: the Services, RC, RS and SS listers, set only when there are default constraints.
        self.object_lister: Any = None
        self.enable_node_inclusion_policy_in_pod_topology_spread = enable_node_inclusion_policy_in_pod_topology_spread
        self.enable_match_label_keys_in_pod_topology_spread = enable_match_label_keys_in_pod_topology_spread

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/plugin.go", "(*PodTopologySpread).Name", 84, 86)
    def name(self) -> str:
        return NAME

    # --- EnqueueExtensions -----------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/plugin.go", "(*PodTopologySpread).EventsToRegister", 137, 160)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            # Adding, updating (labels) or deleting a pod may change the counts.
            ClusterEventWithHint(ClusterEvent(POD, ActionType.All), self.is_schedulable_after_pod_change),
            # A node added, deleted or relabelled may change the domains. UpdateNodeTaint is
            # there too: a node added while tainted not-ready only shows up as a taint update.
            ClusterEventWithHint(
                ClusterEvent(NODE, ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel
                             | ActionType.UpdateNodeTaint),
                self.is_schedulable_after_node_change),
        ]

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/plugin.go", "(*PodTopologySpread).isSchedulableAfterPodChange", 166, 227)
    def is_schedulable_after_pod_change(self, pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
        original_pod: Optional[Pod] = old_obj
        modified_pod: Optional[Pod] = new_obj
        if ((modified_pod is not None and not involved_in_topology_spreading(modified_pod, pod))
                or (original_pod is not None and not involved_in_topology_spreading(original_pod, pod))):
            # An unscheduled pod, or one in another namespace.
            return QueueingHint.QueueSkip

        try:
            constraints = self.get_constraints(pod)
        except ValueError:
            return QueueingHint.Queue

        if modified_pod is not None and original_pod is not None:
            # An update: only a label change that flips some selector's verdict matters.
            if modified_pod.metadata.labels == original_pod.metadata.labels:
                return QueueingHint.QueueSkip
            for c in constraints:
                if c.selector.matches(original_pod.metadata.labels) != c.selector.matches(modified_pod.metadata.labels):
                    return QueueingHint.Queue
            return QueueingHint.QueueSkip

        if modified_pod is not None:
            # An add: it matters when the new pod is selected.
            if pod_labels_match_spread_constraints(constraints, modified_pod.metadata.labels):
                return QueueingHint.Queue
            return QueueingHint.QueueSkip

        # A delete: it matters when the deleted pod was selected.
        if original_pod is not None and pod_labels_match_spread_constraints(constraints,
                                                                            original_pod.metadata.labels):
            return QueueingHint.Queue
        return QueueingHint.QueueSkip

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/plugin.go", "(*PodTopologySpread).getConstraints", 231, 252)
    def get_constraints(self, pod: Pod) -> list[TopologySpreadConstraintInternal]:
        """The pod's hard constraints, or the default ones when it declares none."""
        if pod.spec.topology_spread_constraints:
            # The API server strips the field when its gate is off: no gate check here.
            return self.filter_topology_spread_constraints(
                pod.spec.topology_spread_constraints, pod.metadata.labels, DO_NOT_SCHEDULE)
        return self.build_default_constraints(pod, DO_NOT_SCHEDULE) or []

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/plugin.go", "(*PodTopologySpread).isSchedulableAfterNodeChange", 254, 288)
    def is_schedulable_after_node_change(self, pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
        original_node: Optional[Node] = old_obj
        modified_node: Optional[Node] = new_obj
        try:
            constraints = self.get_constraints(pod)
        except ValueError:
            return QueueingHint.Queue

        # Add / Update: it matters when the node carries every topology key.
        if modified_node is not None:
            if not node_labels_match_spread_constraints(modified_node.metadata.labels, constraints):
                return QueueingHint.QueueSkip
            return QueueingHint.Queue

        # Delete: likewise.
        if original_node is None or not node_labels_match_spread_constraints(original_node.metadata.labels,
                                                                             constraints):
            return QueueingHint.QueueSkip
        return QueueingHint.Queue


@ports("pkg/scheduler/framework/plugins/podtopologyspread/plugin.go", "involvedInTopologySpreading", 162, 164)
def involved_in_topology_spreading(incoming_pod: Pod, pod_with_spreading: Pod) -> bool:
    """A pod counts for spreading once it is bound, and only in the same namespace."""
    return incoming_pod.spec.node_name != "" and incoming_pod.metadata.namespace == pod_with_spreading.metadata.namespace


@ports("pkg/scheduler/framework/plugins/podtopologyspread/plugin.go", "New", 89, 118)
def new(args: Any, handle: Any, fts: Any = None) -> PodTopologySpread:
    """Upstream New: validate the args and pick the default constraints."""
    shared_lister = handle.snapshot_shared_lister() if handle is not None else None
    if shared_lister is None:
        raise ValueError("SnapshotSharedlister is nil")
    # upstream: the runtime always passes defaulted args; None stands for the v1 defaults.
    defaulting_type = SYSTEM_DEFAULTING
    default_constraints: list[TopologySpreadConstraint] = []
    if args is not None:
        errs = validate_pod_topology_spread_args(None, args)
        if errs:
            raise ValueError(str(to_aggregate(errs)))
        defaulting_type = getattr(args, "defaulting_type", SYSTEM_DEFAULTING) or SYSTEM_DEFAULTING
        default_constraints = list(getattr(args, "default_constraints", None) or [])
    pl = PodTopologySpread(
        shared_lister,
        default_constraints,
        enable_node_inclusion_policy_in_pod_topology_spread=getattr(
            fts, "enable_node_inclusion_policy_in_pod_topology_spread", True),
        enable_match_label_keys_in_pod_topology_spread=getattr(
            fts, "enable_match_label_keys_in_pod_topology_spread", True),
    )
    if defaulting_type == SYSTEM_DEFAULTING:
        pl.default_constraints = SYSTEM_DEFAULT_CONSTRAINTS
        pl.system_defaulted = True
    if pl.default_constraints:
        object_lister = handle.object_lister() if hasattr(handle, "object_lister") else None
        if object_lister is None:
            raise ValueError("SharedInformerFactory is nil")
        pl.object_lister = object_lister
    return pl
