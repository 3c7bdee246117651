"""Port of pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go (v1.30).

NodeUnschedulable keeps pods off a cordoned node (``spec.unschedulable``),
unless the pod tolerates the ``node.kubernetes.io/unschedulable:NoSchedule``
taint that stands for the cordon.

Deviations:
- The queueing hint returns only the hint: for an object of the wrong type it
  answers Queue, without upstream's error.
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import ports
from ....api.tolerations import tolerations_tolerate_taint
from ....api.types import TAINT_NO_SCHEDULE, Node, Pod, Taint
from ...cycle_state import CycleState
from ...interface import Code, Status, new_status
from ...types import NODE, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo, QueueingHint
from ..names import NODE_UNSCHEDULABLE

NAME = NODE_UNSCHEDULABLE

# Extension points: Filter, EnqueueExtensions.

# Used for the NodeUnknownCondition predicate error.
ERR_REASON_UNKNOWN_CONDITION = "node(s) had unknown conditions"
ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable"

# core/v1 TaintNodeUnschedulable.
TAINT_NODE_UNSCHEDULABLE = "node.kubernetes.io/unschedulable"


@ports("pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go", "NodeUnschedulable", 33, 34)
class NodeUnschedulable:
    @ports("pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go", "(*NodeUnschedulable).Name", 79, 81)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go", "(*NodeUnschedulable).EventsToRegister", 51, 55)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.Update),
                                     self.is_schedulable_after_node_change)]

    @ports("pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go", "(*NodeUnschedulable).isSchedulableAfterNodeChange", 60, 76)
    def is_schedulable_after_node_change(self, pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
        """A node added or updated helps only if it is not (or no longer) cordoned."""
        # upstream: util.As fails on objects that are not nodes -> Queue, with the error.
        if not isinstance(new_obj, Node) or (old_obj is not None and not isinstance(old_obj, Node)):
            return QueueingHint.Queue
        modified_node = new_obj

        if not modified_node.spec.unschedulable:
            return QueueingHint.Queue  # the node was created or updated: the pod may fit now

        return QueueingHint.QueueSkip  # still cordoned: the change does not help this pod

    @ports("pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go", "(*NodeUnschedulable).Filter", 84, 101)
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        node = node_info.node()
        if not node.spec.unschedulable:
            return None
        # Tolerating the unschedulable taint means tolerating the cordon.
        pod_tolerates_unschedulable = tolerations_tolerate_taint(
            pod.spec.tolerations, Taint(key=TAINT_NODE_UNSCHEDULABLE, effect=TAINT_NO_SCHEDULE))
        if not pod_tolerates_unschedulable:
            return new_status(Code.UnschedulableAndUnresolvable, ERR_REASON_UNSCHEDULABLE)
        return None


@ports("pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go", "New", 104, 106)
def new(args: Any, handle: Any) -> NodeUnschedulable:
    return NodeUnschedulable()
