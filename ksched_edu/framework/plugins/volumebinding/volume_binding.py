"""Port of pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (v1.30).

VolumeBinding makes sure a pod's PersistentVolumeClaims can be bound to
volumes reachable from the chosen node, and binds them before the pod itself
(Reserve, PreBind). A pod that references no claim is skipped at PreFilter,
but the plugin still writes its (empty) state so that Reserve and PreBind find
every volume bound. Its Score only exists with the alpha VolumeCapacityPriority
gate, off in v1.30: PreScore then always answers Skip.

Deviations:
- PersistentVolumeClaims are not modelled (see ``storage_listers``): a pod with
  a claim volume is rejected at PreFilter with
  ``persistentvolumeclaim "<name>" not found`` (UnschedulableAndUnresolvable),
  and a generic ephemeral volume with ``waiting for ephemeral volume controller
  to create the persistentvolumeclaim "<pod>-<volume>"``, as upstream does
  before the claim exists.
- The volume binder (binder.go: GetPodVolumeClaims, FindPodVolumes,
  AssumePodVolumes, BindPodVolumes, the PV/StorageClass/CSINode/CSIStorageCapacity
  checks) is not ported; a pod never reaches it, since every claim lookup
  misses. The places that would call it return an Error status saying so.
- No VolumeCapacityPriority scorer (the gate is off in v1.30).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ....anchors import ports
from ....api.types import Pod
from ....config.defaults import set_defaults_volume_binding_args
from ....config.field import to_aggregate
from ....config.types_pluginargs import VolumeBindingArgs
from ....config.validation_pluginargs import validate_volume_binding_args
from ...cycle_state import CycleState, StateNotFoundError
from ...interface import Code, PreFilterResult, Status, new_status
from ...types import (CSI_DRIVER, CSI_NODE, CSI_STORAGE_CAPACITY, NODE, PERSISTENT_VOLUME, PERSISTENT_VOLUME_CLAIM,
                      STORAGE_CLASS, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo)
from ..names import VOLUME_BINDING
from ..storage_listers import NotFoundError, claim_name, ephemeral_claim_name, get_pvc

NAME = VOLUME_BINDING

# Key in CycleState (upstream stateKey = Name).
STATE_KEY = NAME

# Reasons the binder gives (binder.go ConflictReason), listed for reference.
ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind"
ERR_REASON_NODE_CONFLICT = "node(s) had volume node affinity conflict"
ERR_REASON_NOT_ENOUGH_SPACE = "node(s) did not have enough free storage"
ERR_REASON_PV_NOT_EXIST = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
ERR_UNBOUND_IMMEDIATE_CLAIMS = "pod has unbound immediate PersistentVolumeClaims"

# Extension points: PreFilter, Filter, PreScore, Score, Reserve/Unreserve, PreBind, EnqueueExtensions.

BINDER_NOT_PORTED = "the volume binder (binder.go) is not ported: PersistentVolumeClaims are not modelled"


@ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "stateData", 49, 60)
@dataclass
class StateData:
    """Written at PreFilter, read until PreBind (upstream stateData)."""

    all_bound: bool = False
    # Per node, the volumes Filter found for the pod (binder PodVolumes).
    pod_volumes_by_node: dict[str, Any] = field(default_factory=dict)
    pod_volume_claims: Any = None
    # Whether the pod has static bindings; without them Score is skipped.
    has_static_bindings: bool = False

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*stateData).Clone", 62, 64)
    def clone(self) -> "StateData":
        return self


@ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "getStateData", 221, 231)
def get_state_data(cs: CycleState) -> tuple[Optional[StateData], Optional[str]]:
    try:
        state = cs.read(STATE_KEY)
    except StateNotFoundError as err:
        return None, str(err)
    if not isinstance(state, StateData):
        return None, "unable to convert state into stateData"
    return state, None


@ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "VolumeBinding", 69, 74)
class VolumeBinding:
    def __init__(self, args: Any, handle: Any) -> None:
        self.args = args
        self.handle = handle
        # Only with VolumeCapacityPriority (off in v1.30).
        self.scorer = None

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).Name", 88, 90)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).EventsToRegister", 94, 124)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        add_or_update = ActionType.Add | ActionType.Update
        return [
            # A missing or mis-configured StorageClass (allowedTopologies, volumeBindingMode).
            ClusterEventWithHint(ClusterEvent(STORAGE_CLASS, add_or_update)),
            # Claims are bound to volumes: any change to either may help.
            ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME_CLAIM, add_or_update)),
            ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME, add_or_update)),
            # Node labels against a StorageClass's allowed topologies or a volume's node
            # affinity. UpdateNodeTaint is there because a node added while not ready
            # only shows up to the queue through its taint update.
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.UpdateNodeLabel
                                              | ActionType.UpdateNodeTaint)),
            # In-tree volumes are translated to CSI through the CSINode.
            ClusterEventWithHint(ClusterEvent(CSI_NODE, add_or_update)),
            # Storage capacity tracking.
            ClusterEventWithHint(ClusterEvent(CSI_DRIVER, add_or_update)),
            ClusterEventWithHint(ClusterEvent(CSI_STORAGE_CAPACITY, add_or_update)),
        ]

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).podHasPVCs", 129, 171)
    def pod_has_pvcs(self, pod: Pod) -> tuple[bool, Optional[str]]:
        """Whether the pod references any claim, and the error that makes one unusable."""
        has_pvc = False
        for vol in pod.spec.volumes:
            is_ephemeral = False
            pvc_name = claim_name(vol)
            if pvc_name is None:
                if vol.get("ephemeral") is None:
                    continue  # not a claim volume
                pvc_name = ephemeral_claim_name(pod.metadata.name, vol)
                is_ephemeral = True
            has_pvc = True
            try:
                # Never returns: claims are not modelled (the checks of a found
                # claim, ClaimLost, deletion and ephemeral ownership, are not ported).
                get_pvc(pod.metadata.namespace, pvc_name)
            except NotFoundError as err:
                # A generic ephemeral volume's claim is normally missing right
                # after the pod was created: say so.
                if is_ephemeral:
                    return has_pvc, ("waiting for ephemeral volume controller to create the "
                                     f'persistentvolumeclaim "{pvc_name}"')
                return has_pvc, str(err)
        return has_pvc, None

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).PreFilter", 176, 214)
    def pre_filter(self, state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        """Skip a pod without claims; reject one whose claims cannot be used."""
        has_pvc, err = self.pod_has_pvcs(pod)
        if err is not None:
            return None, new_status(Code.UnschedulableAndUnresolvable, err)
        if not has_pvc:
            state.write(STATE_KEY, StateData())
            return None, new_status(Code.Skip)
        # upstream: Binder.GetPodVolumeClaims, the unbound-immediate-claims check
        # and Binder.GetEligibleNodes. Unreachable while claims are not modelled.
        return None, Status.as_status(BINDER_NOT_PORTED)

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).PreFilterExtensions", 217, 219)
    def pre_filter_extensions(self) -> None:
        return None

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).Filter", 248, 277)
    def filter(self, cs: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        _, err = get_state_data(cs)
        if err is not None:
            return Status.as_status(err)
        # upstream: Binder.FindPodVolumes; only reached after a PreFilter that found claims.
        return Status.as_status(BINDER_NOT_PORTED)

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).PreScore", 280, 292)
    def pre_score(self, cs: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Optional[Status]:
        """Skip unless the VolumeCapacityPriority scorer exists and a static binding was found."""
        if self.scorer is None:
            return new_status(Code.Skip)
        state, err = get_state_data(cs)
        if err is not None:
            return Status.as_status(err)
        if state.has_static_bindings:
            return None
        return new_status(Code.Skip)

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).Score", 295, 322)
    def score(self, cs: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        if self.scorer is None:
            return 0, None
        return 0, Status.as_status("VolumeCapacityPriority scoring is not ported (the gate is off in v1.30)")

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).ScoreExtensions", 325, 327)
    def score_extensions(self) -> None:
        return None

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).Reserve", 330, 348)
    def reserve(self, cs: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        state, err = get_state_data(cs)
        if err is not None:
            return Status.as_status(err)
        if node_name in state.pod_volumes_by_node:
            # upstream: Binder.AssumePodVolumes.
            return Status.as_status(BINDER_NOT_PORTED)
        # Absent when the pod references no claim.
        state.all_bound = True
        return None

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).PreBind", 355, 378)
    def pre_bind(self, cs: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        """Bind the pod's volumes (nothing to do when all are bound)."""
        s, err = get_state_data(cs)
        if err is not None:
            return Status.as_status(err)
        if s.all_bound:
            return None
        if node_name not in s.pod_volumes_by_node:
            return Status.as_status(f'no pod volumes found for node "{node_name}"')
        # upstream: Binder.BindPodVolumes.
        return Status.as_status(BINDER_NOT_PORTED)

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).Unreserve", 382, 393)
    def unreserve(self, cs: CycleState, pod: Pod, node_name: str) -> None:
        """Forget assumed volumes; does nothing when there is no state for the pod."""
        s, err = get_state_data(cs)
        if err is not None:
            return
        if node_name not in s.pod_volumes_by_node:
            return
        # upstream: Binder.RevertAssumedPodVolumes; nothing was assumed here.
        return


@ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "New", 396, 436)
def new(args: Any, handle: Any) -> VolumeBinding:
    """Upstream New."""
    if args is None:
        args = VolumeBindingArgs()
        set_defaults_volume_binding_args(args)
    errs = validate_volume_binding_args(None, args)
    if errs:
        raise ValueError(str(to_aggregate(errs)))
    return VolumeBinding(args, handle)
