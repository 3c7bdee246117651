"""Port of pkg/scheduler/framework/plugins/nodename/node_name.go (v1.30).

NodeName honours ``spec.nodeName`` on a pending pod: when it is set, every
other node is rejected.
"""
from __future__ import annotations

from typing import Any, Optional

from ....api.types import Pod
from ...cycle_state import CycleState
from ...interface import Code, Status, new_status
from ...types import NODE, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo
from ..names import NODE_NAME

NAME = NODE_NAME

# Extension points: Filter, EnqueueExtensions.

ERR_REASON = "node(s) didn't match the requested node name"


class NodeName:
    def name(self) -> str:
        return NAME

    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.Update))]

    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        if not fits(pod, node_info):
            return new_status(Code.UnschedulableAndUnresolvable, ERR_REASON)
        return None


def fits(pod: Pod, node_info: NodeInfo) -> bool:
    """True when the pod names no node, or names this one."""
    return len(pod.spec.node_name) == 0 or pod.spec.node_name == node_info.node().metadata.name


def new(args: Any, handle: Any) -> NodeName:
    return NodeName()
