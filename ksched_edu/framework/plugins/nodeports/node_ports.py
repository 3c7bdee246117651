"""Port of pkg/scheduler/framework/plugins/nodeports/node_ports.go (v1.30).

NodePorts rejects a node where a host port the pod asks for (same protocol,
overlapping host IP) is already taken. A pod without host ports Skips the
plugin at PreFilter, so its Filter never runs.

Deviations:
- The queueing hint returns only the hint (no error for an object of the wrong type).
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import ports
from ....api.types import ContainerPort, Pod
from ...cycle_state import CycleState
from ...interface import Code, PreFilterResult, Status, new_status
from ...types import NODE, POD, ActionType, ClusterEvent, ClusterEventWithHint, HostPortInfo, NodeInfo, QueueingHint
from ..names import NODE_PORTS

NAME = NODE_PORTS

# Extension points: PreFilter, Filter, EnqueueExtensions.

PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON = "node(s) didn't have free ports for the requested pod ports"


@ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "preFilterState", 50, 50)
class PreFilterState(list):
    """The pod's container ports that ask for a host port."""

    @ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "(preFilterState).Clone", 53, 56)
    def clone(self) -> "PreFilterState":
        # upstream: adding or removing other pods does not change it, so no copy.
        return self


@ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "getContainerPorts", 65, 80)
def get_container_ports(*pods: Pod) -> list[ContainerPort]:
    """Every container port with a host port (> 0) in ``pods``; conflicts are not resolved."""
    ports: list[ContainerPort] = []
    for pod in pods:
        for container in pod.spec.containers:
            for port in container.ports:
                if port.host_port <= 0:
                    continue
                ports.append(port)
    return ports


@ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "NodePorts", 32, 32)
class NodePorts:
    @ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "(*NodePorts).Name", 59, 61)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "(*NodePorts).PreFilter", 83, 91)
    def pre_filter(self, state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        s = get_container_ports(pod)
        if not s:
            return None, new_status(Code.Skip)
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(s))
        return None, None

    @ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "(*NodePorts).PreFilterExtensions", 94, 96)
    def pre_filter_extensions(self) -> None:
        return None

    @ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "(*NodePorts).EventsToRegister", 114, 126)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            # Container ports are immutable, so pod updates are not registered.
            ClusterEventWithHint(ClusterEvent(POD, ActionType.Delete), self.is_schedulable_after_pod_deleted),
            # upstream: NodeUpdated is kept because NodeCreated may be missed (preCheck); no hint = Queue.
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.Update)),
        ]

    @ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "(*NodePorts).isSchedulableAfterPodDeleted", 130, 168)
    def is_schedulable_after_pod_deleted(self, pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
        """Queue only if the deleted pod was bound and held a host port ``pod`` wants."""
        deleted_pod = old_obj
        if not deleted_pod.spec.node_name:
            return QueueingHint.QueueSkip

        used_ports = HostPortInfo()
        for container in deleted_pod.spec.containers:
            for port in container.ports:
                if port.host_port > 0:
                    used_ports.add(port.host_ip, port.protocol, port.host_port)
        if len(used_ports) == 0:
            return QueueingHint.QueueSkip

        # A node holding only the deleted pod's ports: if the pod fits there, the two share no port.
        node_info = NodeInfo()
        node_info.used_ports = used_ports
        if fits(pod, node_info):
            return QueueingHint.QueueSkip
        return QueueingHint.Queue

    @ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "(*NodePorts).Filter", 171, 183)
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        want_ports, err = get_pre_filter_state(state)
        if err is not None:
            return Status.as_status(err)
        if not fits_ports(want_ports, node_info):
            return new_status(Code.Unschedulable, ERR_REASON)
        return None


@ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "getPreFilterState", 98, 110)
def get_pre_filter_state(state: CycleState) -> tuple[Optional[PreFilterState], Optional[str]]:
    try:
        c = state.read(PRE_FILTER_STATE_KEY)
    except KeyError as err:
        # PreFilter did not run.
        return None, f'reading "{PRE_FILTER_STATE_KEY}" from cycleState: {err}'
    if not isinstance(c, PreFilterState):
        return None, f"{c!r}  convert to nodeports.preFilterState error"
    return c, None


@ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "Fits", 186, 188)
def fits(pod: Pod, node_info: NodeInfo) -> bool:
    """Whether none of the pod's host ports conflicts with those used on the node."""
    return fits_ports(get_container_ports(pod), node_info)


@ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "fitsPorts", 190, 199)
def fits_ports(want_ports: list[ContainerPort], node_info: NodeInfo) -> bool:
    existing_ports = node_info.used_ports
    for cp in want_ports:
        if existing_ports.check_conflict(cp.host_ip, cp.protocol, cp.host_port):
            return False
    return True


@ports("pkg/scheduler/framework/plugins/nodeports/node_ports.go", "New", 202, 204)
def new(args: Any, handle: Any) -> NodePorts:
    return NodePorts()
