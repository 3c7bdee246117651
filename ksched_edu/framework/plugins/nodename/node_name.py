"""Port of pkg/scheduler/framework/plugins/nodename/node_name.go (v1.30).

NodeName honours ``spec.nodeName`` on a pending pod: when it is set, every
other node is rejected.
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import ports
from ....api.types import Pod
from ...cycle_state import CycleState
from ...interface import Code, Status, new_status
from ...types import NODE, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo
from ..names import NODE_NAME

NAME = NODE_NAME

# Extension points: Filter, EnqueueExtensions.

ERR_REASON = "node(s) didn't match the requested node name"


@ports("pkg/scheduler/framework/plugins/nodename/node_name.go", "NodeName", 29, 29)
class NodeName:
    @ports("pkg/scheduler/framework/plugins/nodename/node_name.go", "(*NodeName).Name", 51, 53)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/nodename/node_name.go", "(*NodeName).EventsToRegister", 44, 48)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.Update))]

    @ports("pkg/scheduler/framework/plugins/nodename/node_name.go", "(*NodeName).Filter", 56, 62)
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        if not fits(pod, node_info):
            return new_status(Code.UnschedulableAndUnresolvable, ERR_REASON)
        return None


@ports("pkg/scheduler/framework/plugins/nodename/node_name.go", "Fits", 65, 67)
def fits(pod: Pod, node_info: NodeInfo) -> bool:
    """True when the pod names no node, or names this one."""
    return len(pod.spec.node_name) == 0 or pod.spec.node_name == node_info.node().metadata.name


@ports("pkg/scheduler/framework/plugins/nodename/node_name.go", "New", 70, 72)
def new(args: Any, handle: Any) -> NodeName:
    return NodeName()
