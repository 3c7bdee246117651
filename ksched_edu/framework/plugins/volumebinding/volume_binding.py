"""Port of pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (v1.30).

VolumeBinding makes sure a pod's PersistentVolumeClaims can be bound to
volumes reachable from the chosen node, and binds them before the pod itself
(Reserve, PreBind). A pod that references no claim is skipped at PreFilter,
but the plugin still writes its (empty) state so that Reserve and PreBind find
every volume bound. Its Score only exists with the alpha VolumeCapacityPriority
gate, off in v1.30: PreScore then always answers Skip.

Deviations:
- The binder's errors are Python exceptions (BinderError, and the assume
  cache's ValueError/LookupError); each becomes the Error status upstream's
  ``framework.AsStatus(err)`` gives.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ....anchors import ports
from ....api.storage import CLAIM_LOST
from ....api.types import Pod
from ....config.defaults import set_defaults_volume_binding_args
from ....config.field import to_aggregate
from ....config.types_pluginargs import VolumeBindingArgs
from ....config.validation_pluginargs import validate_volume_binding_args_with_options
from ...cycle_state import CycleState, StateNotFoundError
from ....config.types import MAX_CUSTOM_PRIORITY_SCORE
from ...interface import MAX_NODE_SCORE, Code, PreFilterResult, Status, new_status
from ..helper.shape_score import FunctionShapePoint
from .scorer import StorageResource, VolumeCapacityScorer, build_scorer_function
from ...types import (CSI_DRIVER, CSI_NODE, CSI_STORAGE_CAPACITY, NODE, PERSISTENT_VOLUME, PERSISTENT_VOLUME_CLAIM,
                      STORAGE_CLASS, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo)
from ..names import VOLUME_BINDING
from ..storage_listers import NotFoundError, StorageListers, claim_name, ephemeral_claim_name, volume_is_for_pod
from .binder import (ERR_REASON_BIND_CONFLICT, ERR_REASON_NODE_CONFLICT, ERR_REASON_NOT_ENOUGH_SPACE,  # noqa: F401
                     ERR_REASON_PV_NOT_EXIST, BinderError, PodVolumeClaims, PodVolumes, VolumeBinder)

NAME = VOLUME_BINDING

# Key in CycleState (upstream stateKey = Name).
STATE_KEY = NAME

# The binder's reasons (binder.go ConflictReason) are imported above.
ERR_UNBOUND_IMMEDIATE_CLAIMS = "pod has unbound immediate PersistentVolumeClaims"

# Extension points: PreFilter, Filter, PreScore, Score, Reserve/Unreserve, PreBind, EnqueueExtensions.

BINDER_ERRORS = (BinderError, ValueError, LookupError)


@ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "stateData", 49, 60)
@dataclass
class StateData:
    """Written at PreFilter, read until PreBind (upstream stateData)."""

    all_bound: bool = False
    # Per node, the volumes Filter found for the pod (binder PodVolumes).
    pod_volumes_by_node: dict[str, PodVolumes] = field(default_factory=dict)
    pod_volume_claims: Optional[PodVolumeClaims] = None
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
        lister = handle.object_lister() if handle is not None else None
        client = handle.client() if handle is not None else None
        timeout = getattr(args, "bind_timeout_seconds", None)
        self.binder = VolumeBinder(client, lister, 600 if timeout is None else timeout)
        self.pvc_lister = StorageListers(lister)
        self.scorer: Optional[VolumeCapacityScorer] = None  # New sets it when the gate is on

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
                pvc = self.pvc_lister.get_pvc(pod.metadata.namespace, pvc_name)
            except NotFoundError as err:
                # A generic ephemeral volume's claim is normally missing right
                # after the pod was created: say so.
                if is_ephemeral:
                    return has_pvc, ("waiting for ephemeral volume controller to create the "
                                     f'persistentvolumeclaim "{pvc_name}"')
                return has_pvc, str(err)
            if pvc.status.phase == CLAIM_LOST:
                return has_pvc, (f'persistentvolumeclaim "{pvc.metadata.name}" bound to non-existent '
                                 f'persistentvolume "{pvc.spec.volume_name}"')
            if pvc.metadata.deletion_timestamp is not None:
                return has_pvc, f'persistentvolumeclaim "{pvc.metadata.name}" is being deleted'
            if is_ephemeral:
                msg = volume_is_for_pod(pod, pvc)
                if msg is not None:
                    return has_pvc, msg
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
        try:
            pod_volume_claims = self.binder.get_pod_volume_claims(pod)
        except BINDER_ERRORS as err:
            return None, Status.as_status(str(err))
        if pod_volume_claims.unbound_claims_immediate:
            # Immediate claims should be bound already; the pod moves on once the
            # PV controller binds them.
            status = new_status(Code.UnschedulableAndUnresolvable)
            status.reasons.append(ERR_UNBOUND_IMMEDIATE_CLAIMS)
            return None, status
        # Bound claims may narrow the nodes worth considering.
        result = None
        eligible_nodes = self.binder.get_eligible_nodes(pod_volume_claims.bound_claims)
        if eligible_nodes is not None:
            result = PreFilterResult(eligible_nodes)
        state.write(STATE_KEY, StateData(
            pod_volumes_by_node={},
            pod_volume_claims=PodVolumeClaims(
                bound_claims=pod_volume_claims.bound_claims,
                unbound_claims_delay_binding=pod_volume_claims.unbound_claims_delay_binding,
                unbound_volumes_delay_binding=pod_volume_claims.unbound_volumes_delay_binding)))
        return result, None

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).PreFilterExtensions", 217, 219)
    def pre_filter_extensions(self) -> None:
        return None

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).Filter", 248, 277)
    def filter(self, cs: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        node = node_info.node()
        state, err = get_state_data(cs)
        if err is not None:
            return Status.as_status(err)
        try:
            pod_volumes, reasons = self.binder.find_pod_volumes(pod, state.pod_volume_claims, node)
        except BINDER_ERRORS as e:
            return Status.as_status(str(e))
        if reasons:
            status = new_status(Code.UnschedulableAndUnresolvable)
            for reason in reasons:
                status.reasons.append(reason)
            return status
        # upstream: under the state's lock (Filter runs in parallel).
        state.pod_volumes_by_node[node.metadata.name] = pod_volumes
        state.has_static_bindings = state.has_static_bindings or bool(pod_volumes.static_bindings)
        return None

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
        state, err = get_state_data(cs)
        if err is not None:
            return 0, Status.as_status(err)
        pod_volumes = state.pod_volumes_by_node.get(node_name)
        if pod_volumes is None:
            return 0, None
        class_resources: dict[str, StorageResource] = {}  # by storage class
        for binding in pod_volumes.static_bindings or []:
            resource = binding.storage_resource()
            total = class_resources.setdefault(binding.storage_class_name(), StorageResource())
            total.requested += resource.requested
            total.capacity += resource.capacity
        return self.scorer(class_resources), None

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).ScoreExtensions", 325, 327)
    def score_extensions(self) -> None:
        return None

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).Reserve", 330, 348)
    def reserve(self, cs: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        state, err = get_state_data(cs)
        if err is not None:
            return Status.as_status(err)
        pod_volumes = state.pod_volumes_by_node.get(node_name)
        if pod_volumes is not None:
            try:
                all_bound = self.binder.assume_pod_volumes(pod, node_name, pod_volumes)
            except BINDER_ERRORS as e:
                return Status.as_status(str(e))
            state.all_bound = all_bound
        else:
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
        pod_volumes = s.pod_volumes_by_node.get(node_name)
        if pod_volumes is None:
            return Status.as_status(f'no pod volumes found for node "{node_name}"')
        try:
            self.binder.bind_pod_volumes(pod, pod_volumes)
        except BINDER_ERRORS as e:
            return Status.as_status(str(e))
        return None

    @ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "(*VolumeBinding).Unreserve", 382, 393)
    def unreserve(self, cs: CycleState, pod: Pod, node_name: str) -> None:
        """Forget assumed volumes; does nothing when there is no state for the pod."""
        s, err = get_state_data(cs)
        if err is not None:
            return
        pod_volumes = s.pod_volumes_by_node.get(node_name)
        if pod_volumes is None:
            return
        self.binder.revert_assumed_pod_volumes(pod_volumes)


@ports("pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", "New", 396, 436)
def new(args: Any, handle: Any, fts: Any = None) -> VolumeBinding:
    """Upstream New: validate the args (a shape only with VolumeCapacityPriority) and, with
    that gate on, build the score function from the args' shape."""
    enable_capacity_priority = bool(getattr(fts, "enable_volume_capacity_priority", False))
    if args is None:
        args = VolumeBindingArgs()
        set_defaults_volume_binding_args(args)
    errs = validate_volume_binding_args_with_options(
        None, args, allow_volume_capacity_priority=enable_capacity_priority)
    if errs:
        raise ValueError(str(to_aggregate(errs)))
    pl = VolumeBinding(args, handle)
    if enable_capacity_priority:  # build the score function (scores scaled 0..10 -> 0..100)
        scale = MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE
        pl.scorer = build_scorer_function([FunctionShapePoint(p.utilization, p.score * scale)
                                           for p in args.shape or []])
    return pl
