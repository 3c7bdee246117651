"""Port of pkg/scheduler/framework/plugins/volumezone/volume_zone.go (v1.30).

VolumeZone keeps a pod on nodes in the zone (and region) of the
PersistentVolumes its claims are bound to: PreFilter collects the bound
volumes' topology labels, Filter rejects a node whose zone or region label is
not among them. A pod without claim volumes is skipped at PreFilter; a node
without any topology label always passes.
A claim not yet bound whose StorageClass binds WaitForFirstConsumer is
skipped (VolumeBinding places its volume); a missing claim, volume or class
is UnschedulableAndUnresolvable.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ....anchors import SCHEDULER_PLUGINS, ports
from ....api.storage import VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER, get_persistent_volume_claim_class
from ....api.types import Pod
from ...cycle_state import CycleState, StateNotFoundError
from ...interface import Code, PreFilterResult, Status, is_success, new_status
from ...types import (NODE, PERSISTENT_VOLUME, PERSISTENT_VOLUME_CLAIM, STORAGE_CLASS, ActionType, ClusterEvent,
                      ClusterEventWithHint, NodeInfo)
from ..names import VOLUME_ZONE
from ..storage_listers import NotFoundError, StorageListers, claim_name

NAME = VOLUME_ZONE

PRE_FILTER_STATE_KEY = "PreFilter" + NAME

ERR_REASON_CONFLICT = "node(s) had no available volume zone"

# Extension points: PreFilter, Filter, EnqueueExtensions.

LABEL_FAILURE_DOMAIN_BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"
LABEL_FAILURE_DOMAIN_BETA_REGION = "failure-domain.beta.kubernetes.io/region"
LABEL_TOPOLOGY_ZONE = "topology.kubernetes.io/zone"
LABEL_TOPOLOGY_REGION = "topology.kubernetes.io/region"

# k8s.io/cloud-provider/volume: the delimiter of a multi-zone label value.
LABEL_MULTI_ZONE_DELIMITER = "__"

TOPOLOGY_LABELS = [
    LABEL_FAILURE_DOMAIN_BETA_ZONE,
    LABEL_FAILURE_DOMAIN_BETA_REGION,
    LABEL_TOPOLOGY_ZONE,
    LABEL_TOPOLOGY_REGION,
]


@ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "pvTopology", 60, 64)
@dataclass
class PVTopology:
    """One topology label of a bound PersistentVolume (upstream pvTopology)."""

    pv_name: str
    key: str
    values: set[str]


@ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "stateData", 69, 73)
@dataclass
class StateData:
    pod_pv_topologies: list[PVTopology] = field(default_factory=list)

    @ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "(*stateData).Clone", 75, 77)
    def clone(self) -> "StateData":
        return self


@ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "translateToGALabel", 86, 94)
def translate_to_ga_label(label: str) -> str:
    if label == LABEL_FAILURE_DOMAIN_BETA_REGION:
        return LABEL_TOPOLOGY_REGION
    if label == LABEL_FAILURE_DOMAIN_BETA_ZONE:
        return LABEL_TOPOLOGY_ZONE
    return label


@ports("vendor/k8s.io/cloud-provider/volume/helpers/zones.go", "LabelZonesToSet", 33, 35, repo=SCHEDULER_PLUGINS)
def label_zones_to_set(label_zones_value: str) -> set[str]:
    """The zones of a volume's label value (``a__b``); raises ValueError on an empty entry."""
    zones: set[str] = set()
    for zone in label_zones_value.split(LABEL_MULTI_ZONE_DELIMITER):
        trimmed = zone.strip()
        if not trimmed:
            raise ValueError(f'"{LABEL_MULTI_ZONE_DELIMITER}" separated list ("{label_zones_value}") '
                             "must not contain an empty string")
        zones.add(trimmed)
    return zones


@ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "getErrorAsStatus", 265, 273)
def get_error_as_status(err: Exception) -> Status:
    """A missing object is UnschedulableAndUnresolvable; any other error is an Error."""
    if isinstance(err, NotFoundError):
        return new_status(Code.UnschedulableAndUnresolvable, str(err))
    return Status.as_status(err)


@ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "getStateData", 253, 263)
def get_state_data(cs: CycleState) -> tuple[Optional[StateData], Optional[str]]:
    try:
        state = cs.read(PRE_FILTER_STATE_KEY)
    except StateNotFoundError as err:
        return None, str(err)
    if not isinstance(state, StateData):
        return None, "unable to convert state into stateData"
    return state, None


@ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "VolumeZone", 39, 43)
class VolumeZone:
    def __init__(self, handle: Any) -> None:
        self.handle = handle
        # upstream: pvLister, pvcLister and scLister of the informer factory.
        self.listers = StorageListers(handle.object_lister())

    @ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "(*VolumeZone).Name", 97, 99)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "(*VolumeZone).PreFilter", 107, 117)
    def pre_filter(self, cs: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        """Find the topologies of the volumes bound to the pod's claims."""
        pod_pv_topologies, status = self.get_pv_by_pod(pod)
        if not is_success(status):
            return None, status
        if not pod_pv_topologies:
            return None, new_status(Code.Skip)
        cs.write(PRE_FILTER_STATE_KEY, StateData(pod_pv_topologies))
        return None, None

    @ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "(*VolumeZone).getPVbyPod", 119, 180)
    def get_pv_by_pod(self, pod: Pod) -> tuple[list[PVTopology], Optional[Status]]:
        pod_pv_topologies: list[PVTopology] = []
        for volume in pod.spec.volumes:
            pvc_name = claim_name(volume)
            if pvc_name is None:
                continue
            if pvc_name == "":
                return [], new_status(Code.UnschedulableAndUnresolvable, "PersistentVolumeClaim had no name")
            try:
                pvc = self.listers.get_pvc(pod.metadata.namespace, pvc_name)
            except NotFoundError as err:
                return [], get_error_as_status(err)

            pv_name = pvc.spec.volume_name
            if pv_name == "":
                sc_name = get_persistent_volume_claim_class(pvc)
                if not sc_name:
                    return [], new_status(Code.UnschedulableAndUnresolvable,
                                          "PersistentVolumeClaim had no pv name and storageClass name")
                try:
                    cls = self.listers.get_storage_class(sc_name)
                except NotFoundError as err:
                    return [], get_error_as_status(err)
                if cls.volume_binding_mode is None:
                    return [], new_status(Code.UnschedulableAndUnresolvable,
                                          f'VolumeBindingMode not set for StorageClass "{sc_name}"')
                if cls.volume_binding_mode == VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER:
                    # Unbound volumes are skipped.
                    continue
                return [], new_status(Code.UnschedulableAndUnresolvable, "PersistentVolume had no name")

            try:
                pv = self.listers.get_pv(pv_name)
            except NotFoundError as err:
                return [], get_error_as_status(err)

            for key in TOPOLOGY_LABELS:
                value = pv.metadata.labels.get(key)
                if value is None:
                    continue
                try:
                    volume_v_set = label_zones_to_set(value)
                except ValueError:
                    continue  # upstream: logged, the label is ignored
                pod_pv_topologies.append(PVTopology(pv.metadata.name, key, volume_v_set))
        return pod_pv_topologies, None

    @ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "(*VolumeZone).PreFilterExtensions", 183, 185)
    def pre_filter_extensions(self) -> None:
        return None

    @ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "(*VolumeZone).Filter", 203, 251)
    def filter(self, cs: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        """Every volume topology label must match the node's (a node without
        topology labels passes: a single-zone cluster)."""
        # A pod without volumes always fits: fast path.
        if not pod.spec.volumes:
            return None
        state, err = get_state_data(cs)
        if err is not None:
            # Fall back to computing the volumes here.
            pod_pv_topologies, status = self.get_pv_by_pod(pod)
            if not is_success(status):
                return status
        else:
            pod_pv_topologies = state.pod_pv_topologies

        labels = node_info.node().metadata.labels
        has_any_node_constraint = any(label in labels for label in TOPOLOGY_LABELS)
        if not has_any_node_constraint:
            # The node has no zone constraints: fine to schedule.
            return None

        for pv_topology in pod_pv_topologies:
            v = labels.get(pv_topology.key)
            if v is None:
                # A beta label on the volume may match the node's GA label.
                v = labels.get(translate_to_ga_label(pv_topology.key))
            if v is None or v not in pv_topology.values:
                return new_status(Code.UnschedulableAndUnresolvable, ERR_REASON_CONFLICT)
        return None

    @ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "(*VolumeZone).EventsToRegister", 277, 299)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            # A new StorageClass with WaitForFirstConsumer binding (its binding mode
            # is immutable, so updates do not matter).
            ClusterEventWithHint(ClusterEvent(STORAGE_CLASS, ActionType.Add)),
            # A new node, or new zone labels. UpdateNodeTaint is there because a node
            # added while not ready only shows up to the queue through its taint update.
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.UpdateNodeLabel
                                              | ActionType.UpdateNodeTaint)),
            # A new claim (claim updates only touch spec.resources).
            ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.Add)),
            # A new volume, or new zone labels on a volume.
            ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME, ActionType.Add | ActionType.Update)),
        ]


@ports("pkg/scheduler/framework/plugins/volumezone/volume_zone.go", "New", 302, 312)
def new(args: Any, handle: Any) -> VolumeZone:
    """Upstream New."""
    return VolumeZone(handle)
