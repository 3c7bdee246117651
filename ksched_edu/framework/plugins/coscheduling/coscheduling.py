"""Port of pkg/coscheduling/coscheduling.go of kubernetes-sigs/scheduler-plugins (commit 37b7888a).

Coscheduling schedules a gang: the pods labelled ``scheduling.x-k8s.io/pod-group: NAME``
are held at Permit, each on the node it was assumed on, until ``minMember``
of them hold a node; then all are allowed at once. A member that cannot be
placed makes PostFilter reject the members already waiting, so the group
gives its nodes back instead of sitting on half of what it needs. The queue
sorts a gang's pods together (by the group's creation time), so they are
tried one after another.

Deviations:
- Time is the simulation's virtual clock, read from the API server client the
  framework hands out (``handle.client().clock``); without one it stands at 0.
  Permit timeouts are seconds (float), not Durations.
- ``less`` compares a group's creationTimestamp with the queue's virtual
  timestamps; the simulation puts the dates of the cluster file's PodGroups on
  its clock, before 0 (``sim.simulation.date_before_start``), as in a real
  cluster where such a group is older than every pod the scheduler queues.
- No event handler for PodGroup objects: the PodGroup add/update event the
  plugin registers is never raised by this project's informers, so it only
  documents what upstream listens to.
"""
from __future__ import annotations

import struct
from typing import Any, Callable, Optional

from ....anchors import SCHEDULER_PLUGINS, ports
from ....api.tolerations import pod_priority
from ....api.types import Pod
from ...cycle_state import CycleState
from ...interface import Code, NodeToStatusMap, PostFilterResult, PreFilterResult, Status, new_status
from ...types import POD, ActionType, ClusterEvent, ClusterEventWithHint, QueuedPodInfo
from . import core
from .args import CoschedulingArgs, decode_coscheduling_args
from .util import get_pod_group_full_name, get_pod_group_label, get_wait_time_duration

NAME = "Coscheduling"

# Reason strings (upstream's exact text).
ERR_NO_POD_GROUP = "can not find pod group"
ERR_POD_GROUP_NOT_FOUND = "PodGroup not found"
REJECTED_IN_POST_FILTER = "optimistic rejection in PostFilter"
REJECTED_IN_UNRESERVE = "rejection in Unreserve"
ERR_PARSE_ARGUMENTS = "parse arguments failed"
# The PodGroup kind as an informer event resource (upstream "podgroups.v1alpha1.<group>").
POD_GROUP_GVK = "podgroups.v1alpha1.scheduling.x-k8s.io"

# Extension points: QueueSort, PreFilter, PostFilter, Permit, Reserve; EnqueueExtensions.


@ports("pkg/coscheduling/coscheduling.go", "Coscheduling", 42, 47, repo=SCHEDULER_PLUGINS)
class Coscheduling:
    def __init__(self, handle: Any, pg_mgr: core.PodGroupManager, schedule_timeout: float,
                 pg_backoff: Optional[float] = None) -> None:
        self.framework_handler = handle
        self.pg_mgr = pg_mgr
        self.schedule_timeout = schedule_timeout  # seconds
        self.pg_backoff = pg_backoff  # seconds, None when off

    @ports("pkg/coscheduling/coscheduling.go", "(*Coscheduling).Name", 117, 119, repo=SCHEDULER_PLUGINS)
    def name(self) -> str:
        return NAME

    @ports("pkg/coscheduling/coscheduling.go", "(*Coscheduling).EventsToRegister", 105, 114, repo=SCHEDULER_PLUGINS)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            ClusterEventWithHint(ClusterEvent(POD, ActionType.Add)),
            ClusterEventWithHint(ClusterEvent(POD_GROUP_GVK, ActionType.Add | ActionType.Update)),
        ]

    # --- QueueSort ------------------------------------------------------------------

    @ports("pkg/coscheduling/coscheduling.go", "(*Coscheduling).Less", 125, 137, repo=SCHEDULER_PLUGINS)
    def less(self, pod_info1: QueuedPodInfo, pod_info2: QueuedPodInfo) -> bool:
        """Higher priority first; then the older group (or the pod that reached the queue
        first, when it is in no group); then by ``namespace/name`` of the pods."""
        prio1, prio2 = pod_priority(pod_info1.pod), pod_priority(pod_info2.pod)
        if prio1 != prio2:
            return prio1 > prio2
        creation_time1 = self.pg_mgr.get_creation_timestamp(pod_info1.pod, _attempt_time(pod_info1))
        creation_time2 = self.pg_mgr.get_creation_timestamp(pod_info2.pod, _attempt_time(pod_info2))
        if creation_time1 == creation_time2:
            return core.get_namespaced_name(pod_info1.pod) < core.get_namespaced_name(pod_info2.pod)
        return creation_time1 < creation_time2

    # --- PreFilter ------------------------------------------------------------------

    @ports("pkg/coscheduling/coscheduling.go", "(*Coscheduling).PreFilter", 142, 150, repo=SCHEDULER_PLUGINS)
    def pre_filter(self, state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        """Refuse a pod whose group failed recently, lacks members or cannot fit the cluster."""
        err = self.pg_mgr.pre_filter(pod)
        if err is not None:
            # UnschedulableAndUnresolvable: preemption would not help a group that cannot start.
            return None, new_status(Code.UnschedulableAndUnresolvable, err)
        return None, None  # upstream: NewStatus(Success, "")

    @ports("pkg/coscheduling/coscheduling.go", "(*Coscheduling).PreFilterExtensions", 201, 203, repo=SCHEDULER_PLUGINS)
    def pre_filter_extensions(self) -> None:
        return None

    # --- PostFilter -----------------------------------------------------------------

    @ports("pkg/coscheduling/coscheduling.go", "(*Coscheduling).PostFilter", 153, 198, repo=SCHEDULER_PLUGINS)
    def post_filter(self, state: CycleState, pod: Pod,
                    filtered_node_status_map: NodeToStatusMap) -> tuple[Optional[PostFilterResult], Status]:
        """A member cannot be placed: reject the group's waiting members (unless the group is nearly complete)."""
        pg_name, pg = self.pg_mgr.get_pod_group(pod)
        if pg is None:
            return PostFilterResult(), new_status(Code.Unschedulable, ERR_NO_POD_GROUP)

        # Enough members hold a node already: no reason to reject the others.
        assigned = self.pg_mgr.calculate_assigned_pods(pg.metadata.name, pod.metadata.namespace)
        if assigned >= pg.spec.min_member:
            return PostFilterResult(), new_status(Code.Unschedulable)

        # Within 10% of the quorum, later members may still complete it.
        not_assigned_percentage = _float32((pg.spec.min_member - assigned) / pg.spec.min_member)
        if not_assigned_percentage <= _float32(0.1):
            return PostFilterResult(), new_status(Code.Unschedulable)

        # When one member fails, its siblings very likely fail too: release them now.
        def reject(waiting_pod: Any) -> None:
            wp = waiting_pod.pod
            if wp.metadata.namespace == pod.metadata.namespace and get_pod_group_label(wp) == pg.metadata.name:
                waiting_pod.reject(self.name(), REJECTED_IN_POST_FILTER)

        self.framework_handler.iterate_over_waiting_pods(reject)

        if self.pg_backoff is not None:
            pods = self.pg_mgr.list_group_pods(pod.metadata.namespace, get_pod_group_label(pod))
            if len(pods) >= pg.spec.min_member:
                self.pg_mgr.backoff_pod_group(pg_name, self.pg_backoff)

        self.pg_mgr.delete_permitted_pod_group(pg_name)
        return PostFilterResult(), new_status(
            Code.Unschedulable,
            f"PodGroup {pg_name} gets rejected due to Pod {pod.metadata.name} is unschedulable even after PostFilter")

    # --- Permit ---------------------------------------------------------------------

    @ports("pkg/coscheduling/coscheduling.go", "(*Coscheduling).Permit", 206, 238, repo=SCHEDULER_PLUGINS)
    def permit(self, state: CycleState, pod: Pod, node_name: str) -> tuple[Optional[Status], float]:
        """Wait until the group's quorum holds nodes; the member that completes it allows the rest."""
        wait_time = self.schedule_timeout
        s = self.pg_mgr.permit(state, pod)
        if s == core.POD_GROUP_NOT_SPECIFIED:
            return None, 0.0  # upstream: NewStatus(Success, "")
        if s == core.POD_GROUP_NOT_FOUND:
            return new_status(Code.Unschedulable, ERR_POD_GROUP_NOT_FOUND), 0.0
        if s == core.WAIT:
            _, pg = self.pg_mgr.get_pod_group(pod)
            wait = get_wait_time_duration(pg, self.schedule_timeout)
            if wait != 0:
                wait_time = wait
            # The first member to wait also asks to move its siblings to activeQ.
            self.pg_mgr.activate_siblings(pod, state)
            return new_status(Code.Wait), wait_time
        # core.SUCCESS: this pod completes the quorum.
        pg_full_name = get_pod_group_full_name(pod)

        def allow(waiting_pod: Any) -> None:
            if get_pod_group_full_name(waiting_pod.pod) == pg_full_name:
                waiting_pod.allow(self.name())

        self.framework_handler.iterate_over_waiting_pods(allow)
        return new_status(Code.Success), 0.0

    # --- Reserve --------------------------------------------------------------------

    @ports("pkg/coscheduling/coscheduling.go", "(*Coscheduling).Reserve", 241, 243, repo=SCHEDULER_PLUGINS)
    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        return None

    @ports("pkg/coscheduling/coscheduling.go", "(*Coscheduling).Unreserve", 246, 258, repo=SCHEDULER_PLUGINS)
    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        """A member's reservation is undone (a timeout, a rejection): reject its waiting siblings."""
        pg_name, pg = self.pg_mgr.get_pod_group(pod)
        if pg is None:
            return

        def reject(waiting_pod: Any) -> None:
            wp = waiting_pod.pod
            if wp.metadata.namespace == pod.metadata.namespace and get_pod_group_label(wp) == pg.metadata.name:
                waiting_pod.reject(self.name(), REJECTED_IN_UNRESERVE)

        self.framework_handler.iterate_over_waiting_pods(reject)
        self.pg_mgr.delete_permitted_pod_group(pg_name)


def _attempt_time(info: QueuedPodInfo) -> float:
    # upstream: *InitialAttemptTimestamp, set when the pod first entered activeQ (never nil there).
    ts = info.initial_attempt_timestamp
    return ts if ts is not None else info.timestamp


def _float32(x: float) -> float:
    """Round to float32, as upstream computes the not-assigned share."""
    return struct.unpack("f", struct.pack("f", x))[0]


def _virtual_now(handle: Any) -> Callable[[], float]:
    """The clock the caches read: the API server client's virtual clock, else 0."""
    client = handle.client() if hasattr(handle, "client") else None
    clock = getattr(client, "clock", None)
    if clock is None:
        return lambda: 0.0
    return lambda: clock.now


@ports("pkg/coscheduling/coscheduling.go", "New", 63, 103, repo=SCHEDULER_PLUGINS)
def new(args: Any, handle: Any) -> Coscheduling:
    """Upstream New: build the manager over the handle's listers; refuse a negative backoff."""
    cargs: CoschedulingArgs = decode_coscheduling_args(args)
    schedule_timeout = float(cargs.permit_waiting_time_seconds)
    lister = handle.object_lister()
    pg_mgr = core.PodGroupManager(lister, handle.snapshot_shared_lister(), schedule_timeout, lister,
                                  now=_virtual_now(handle))
    plugin = Coscheduling(handle, pg_mgr, schedule_timeout)
    if cargs.pod_group_backoff_seconds < 0:
        raise ValueError(ERR_PARSE_ARGUMENTS)
    if cargs.pod_group_backoff_seconds > 0:
        plugin.pg_backoff = float(cargs.pod_group_backoff_seconds)
    return plugin
