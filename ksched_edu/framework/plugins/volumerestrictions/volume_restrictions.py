"""Port of pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go (v1.30).

VolumeRestrictions keeps a pod off a node where one of its inline disks is
already mounted in a way that conflicts: the same GCE PD unless every mount is
read-only, the same AWS EBS volume at all, the same Ceph RBD image or ISCSI IQN
unless every mount is read-only. It also refuses a second user of a
PersistentVolumeClaim with the ReadWriteOncePod access mode. A pod with none of
these volumes is skipped at PreFilter.

Deviations:
- Inline volumes are the raw ``spec.volumes`` mappings; an RBD volume without a
  ``pool`` counts as pool ``rbd`` (the v1 default the API server would fill in).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ....anchors import ports
from ....api.types import Pod
from ...cycle_state import CycleState, StateNotFoundError
from ...interface import Code, PreFilterResult, Status, new_status
from ...types import NODE, PERSISTENT_VOLUME_CLAIM, POD, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo, \
    PodInfo
from ..names import VOLUME_RESTRICTIONS
from ....api.storage import contains_access_mode
from ..storage_listers import NotFoundError, StorageListers, claim_name

NAME = VOLUME_RESTRICTIONS

# Key in CycleState to the data PreFilter computed for Filter.
PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON_DISK_CONFLICT = "node(s) had no available disk"
ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT = (
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode")

# Extension points: PreFilter (+AddPod/RemovePod), Filter, EnqueueExtensions.

READ_WRITE_ONCE_POD = "ReadWriteOncePod"
DEFAULT_RBD_POOL = "rbd"


@ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "preFilterState", 59, 64)
@dataclass
class PreFilterState:
    """The pod's ReadWriteOncePod claims and how many scheduled pods use them."""

    read_write_once_pod_pvcs: set[str] = field(default_factory=set)
    conflicting_pvc_ref_count: int = 0

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*preFilterState).updateWithPod", 66, 68)
    def update_with_pod(self, pod_info: PodInfo, multiplier: int) -> None:
        self.conflicting_pvc_ref_count += multiplier * self.conflicting_pvc_ref_count_for_pod(pod_info)

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*preFilterState).conflictingPVCRefCountForPod", 70, 81)
    def conflicting_pvc_ref_count_for_pod(self, pod_info: PodInfo) -> int:
        conflicts = 0
        for volume in pod_info.pod.spec.volumes:
            name = claim_name(volume)
            if name is not None and name in self.read_write_once_pod_pvcs:
                conflicts += 1
        return conflicts

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*preFilterState).Clone", 84, 92)
    def clone(self) -> "PreFilterState":
        # The claim names never change: the set is shared, as upstream.
        return PreFilterState(self.read_write_once_pod_pvcs, self.conflicting_pvc_ref_count)


@ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "isVolumeConflict", 99, 139)
def is_volume_conflict(volume: dict, pod: Pod) -> bool:
    """Does ``volume`` (of the incoming pod) conflict with a volume of ``pod``?"""
    for existing_volume in pod.spec.volumes:
        # The same GCE disk mounted by several pods conflicts unless every mount is read-only.
        disk, existing_disk = volume.get("gcePersistentDisk"), existing_volume.get("gcePersistentDisk")
        if disk is not None and existing_disk is not None:
            if disk.get("pdName", "") == existing_disk.get("pdName", "") and not (
                    disk.get("readOnly", False) and existing_disk.get("readOnly", False)):
                return True

        ebs, existing_ebs = volume.get("awsElasticBlockStore"), existing_volume.get("awsElasticBlockStore")
        if ebs is not None and existing_ebs is not None:
            if ebs.get("volumeID", "") == existing_ebs.get("volumeID", ""):
                return True

        iscsi, existing_iscsi = volume.get("iscsi"), existing_volume.get("iscsi")
        if iscsi is not None and existing_iscsi is not None:
            # Two ISCSI volumes are the same when they share the IQN; only one
            # read-write mount is allowed.
            if iscsi.get("iqn", "") == existing_iscsi.get("iqn", "") and not (
                    iscsi.get("readOnly", False) and existing_iscsi.get("readOnly", False)):
                return True

        rbd, existing_rbd = volume.get("rbd"), existing_volume.get("rbd")
        if rbd is not None and existing_rbd is not None:
            # Two RBD images are the same when they share a Ceph monitor, the pool
            # and the image name; only one read-write mount is allowed.
            if (have_overlap(rbd.get("monitors") or [], existing_rbd.get("monitors") or [])
                    and (rbd.get("pool") or DEFAULT_RBD_POOL) == (existing_rbd.get("pool") or DEFAULT_RBD_POOL)
                    and rbd.get("image", "") == existing_rbd.get("image", "")
                    and not (rbd.get("readOnly", False) and existing_rbd.get("readOnly", False))):
                return True
    return False


@ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "haveOverlap", 142, 154)
def have_overlap(a1: list[str], a2: list[str]) -> bool:
    """True when the two lists share at least one element."""
    return bool(set(a1) & set(a2))


@ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "needsRestrictionsCheck", 157, 159)
def needs_restrictions_check(v: dict) -> bool:
    """Is ``v`` one of the inline disk kinds this plugin checks?"""
    return any(v.get(k) is not None for k in ("gcePersistentDisk", "awsElasticBlockStore", "rbd", "iscsi"))


@ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "satisfyVolumeConflicts", 264, 277)
def satisfy_volume_conflicts(pod: Pod, node_info: NodeInfo) -> bool:
    """Would placing ``pod`` on the node conflict with a volume already mounted there?"""
    for v in pod.spec.volumes:
        if not needs_restrictions_check(v):
            continue
        for ev in node_info.pods:
            if is_volume_conflict(v, ev.pod):
                return False
    return True


@ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "satisfyReadWriteOncePod", 280, 288)
def satisfy_read_write_once_pod(state: Optional[PreFilterState]) -> Optional[Status]:
    """Would scheduling the pod break a ReadWriteOncePod claim?"""
    if state is None:
        return None
    if state.conflicting_pvc_ref_count > 0:
        return new_status(Code.Unschedulable, ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT)
    return None


@ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "getPreFilterState", 211, 223)
def get_pre_filter_state(cycle_state: CycleState) -> tuple[Optional[PreFilterState], Optional[str]]:
    try:
        c = cycle_state.read(PRE_FILTER_STATE_KEY)
    except StateNotFoundError:
        # PreFilter did not run.
        return None, f'cannot read "{PRE_FILTER_STATE_KEY}" from cycleState'
    if not isinstance(c, PreFilterState):
        return None, f"{c!r} convert to volumerestrictions.state error"
    return c, None


@ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "VolumeRestrictions", 35, 38)
class VolumeRestrictions:
    def __init__(self, handle: Any) -> None:
        self.shared_lister = handle.snapshot_shared_lister()
        self.pvc_lister = StorageListers(handle.object_lister())

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*VolumeRestrictions).Name", 95, 97)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*VolumeRestrictions).PreFilter", 162, 189)
    def pre_filter(self, cycle_state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        needs_check = any(needs_restrictions_check(v) for v in pod.spec.volumes)

        try:
            pvcs = self.read_write_once_pod_pvcs_for_pod(pod)
        except NotFoundError as err:
            return None, new_status(Code.UnschedulableAndUnresolvable, str(err))

        s = self.cal_pre_filter_state(pod, pvcs)

        if not needs_check and s.conflicting_pvc_ref_count == 0:
            return None, new_status(Code.Skip)
        cycle_state.write(PRE_FILTER_STATE_KEY, s)
        return None, None

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*VolumeRestrictions).PreFilterExtensions", 291, 293)
    def pre_filter_extensions(self) -> "VolumeRestrictions":
        return self

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*VolumeRestrictions).AddPod", 192, 199)
    def add_pod(self, cycle_state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfo,
                node_info: NodeInfo) -> Optional[Status]:
        state, err = get_pre_filter_state(cycle_state)
        if err is not None:
            return Status.as_status(err)
        state.update_with_pod(pod_info_to_add, 1)
        return None

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*VolumeRestrictions).RemovePod", 202, 209)
    def remove_pod(self, cycle_state: CycleState, pod_to_schedule: Pod, pod_info_to_remove: PodInfo,
                   node_info: NodeInfo) -> Optional[Status]:
        state, err = get_pre_filter_state(cycle_state)
        if err is not None:
            return Status.as_status(err)
        state.update_with_pod(pod_info_to_remove, -1)
        return None

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*VolumeRestrictions).calPreFilterState", 227, 240)
    def cal_pre_filter_state(self, pod: Pod, pvcs: set[str]) -> PreFilterState:
        """Which of the pod's ReadWriteOncePod claims scheduled pods already use."""
        conflicting_pvc_ref_count = 0
        for pvc in pvcs:
            key = f"{pod.metadata.namespace}/{pvc}"
            if self.shared_lister.storage_infos().is_pvc_used_by_pods(key):
                # At most one pod can use a ReadWriteOncePod claim.
                conflicting_pvc_ref_count += 1
        return PreFilterState(pvcs, conflicting_pvc_ref_count)

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*VolumeRestrictions).readWriteOncePodPVCsForPod", 242, 260)
    def read_write_once_pod_pvcs_for_pod(self, pod: Pod) -> set[str]:
        """The names of the pod's claims with the ReadWriteOncePod access mode.

        Raises NotFoundError for a claim that does not exist.
        """
        pvcs: set[str] = set()
        for volume in pod.spec.volumes:
            name = claim_name(volume)
            if name is None:
                continue
            pvc = self.pvc_lister.get_pvc(pod.metadata.namespace, name)
            if not contains_access_mode(pvc.spec.access_modes, READ_WRITE_ONCE_POD):
                continue
            pvcs.add(pvc.metadata.name)
        return pvcs

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*VolumeRestrictions).Filter", 306, 315)
    def filter(self, cycle_state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        if not satisfy_volume_conflicts(pod, node_info):
            return new_status(Code.Unschedulable, ERR_REASON_DISK_CONFLICT)
        state, err = get_pre_filter_state(cycle_state)
        if err is not None:
            return Status.as_status(err)
        return satisfy_read_write_once_pod(state)

    @ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "(*VolumeRestrictions).EventsToRegister", 319, 331)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            # A deleted pod releases its volumes (spec.volumes is immutable, so
            # pod updates do not matter).
            ClusterEventWithHint(ClusterEvent(POD, ActionType.Delete)),
            # A new node may have no conflicting pod.
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add)),
            # The claim may not exist yet; its access modes are needed.
            ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.Add | ActionType.Update)),
        ]


@ports("pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go", "New", 334, 343)
def new(args: Any, handle: Any, fts: Any = None) -> VolumeRestrictions:
    """Upstream New."""
    return VolumeRestrictions(handle)
