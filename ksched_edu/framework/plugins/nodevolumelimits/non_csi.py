"""Port of pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go (v1.30).

The in-tree volume limits EBSLimits, GCEPDLimits, AzureDiskLimits and
CinderLimits (deprecated in favour of NodeVolumeLimits): each counts the
distinct volumes of its kind that the node's pods and the incoming pod use and
rejects the node when the count would pass the limit (the node's
``attachable-volumes-*`` allocatable, else ``KUBE_MAX_PD_VOLS``, else a default
per cloud). A pod with no volume of the kind and no claim is skipped at PreFilter.

A claim counts as the volume of its bound PersistentVolume when that volume
is of the plugin's kind, or, when the claim is unbound or its volume missing,
under a made-up ID when its StorageClass's provisioner is the plugin's.

Deviations:
- A node carrying both instance-type labels is read in label order, where
  upstream walks a Go map.
"""
from __future__ import annotations

import os
import re
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ....anchors import ports
from ....api.types import Node, Pod
from ...cycle_state import CycleState
from ...interface import Code, PreFilterResult, Status, new_status
from ...types import NODE, PERSISTENT_VOLUME_CLAIM, POD, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo
from ..names import AZURE_DISK_LIMITS, CINDER_LIMITS, EBS_LIMITS, GCEPD_LIMITS
from ..storage_listers import NotFoundError, StorageListers, claim_name, ephemeral_claim_name, volume_is_for_pod
from .utils import (AWS_EBS_IN_TREE_PLUGIN_NAME, AZURE_DISK_IN_TREE_PLUGIN_NAME, AZURE_VOLUME_LIMIT_KEY,
                    CINDER_IN_TREE_PLUGIN_NAME, CINDER_VOLUME_LIMIT_KEY, DEFAULT_MAX_CINDER_VOLUMES,
                    DEFAULT_MAX_EBS_NITRO_VOLUME_LIMIT, DEFAULT_MAX_EBS_VOLUMES, EBS_NITRO_LIMIT_REGEX,
                    EBS_VOLUME_LIMIT_KEY, GCE_PD_IN_TREE_PLUGIN_NAME, GCE_VOLUME_LIMIT_KEY, is_csi_migration_on,
                    volume_limits)

AZURE_DISK_NAME = AZURE_DISK_LIMITS
CINDER_NAME = CINDER_LIMITS
EBS_NAME = EBS_LIMITS
GCEPD_NAME = GCEPD_LIMITS

ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED = "node(s) exceed max volume count"

# Extension points: PreFilter, Filter, EnqueueExtensions.

# GCE instances can have up to 16 PD volumes attached.
DEFAULT_MAX_GCE_PD_VOLUMES = 16
# Larger Azure VMs can have more disks attached; the default is 16.
DEFAULT_MAX_AZURE_DISK_VOLUMES = 16

EBS_VOLUME_FILTER_TYPE = "EBS"
GCE_PD_VOLUME_FILTER_TYPE = "GCE"
AZURE_DISK_VOLUME_FILTER_TYPE = "AzureDisk"
CINDER_VOLUME_FILTER_TYPE = "Cinder"

# The environment variable that overrides every default limit.
KUBE_MAX_PD_VOLS = "KUBE_MAX_PD_VOLS"

LABEL_INSTANCE_TYPE = "beta.kubernetes.io/instance-type"
LABEL_INSTANCE_TYPE_STABLE = "node.kubernetes.io/instance-type"


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "VolumeFilter", 422, 430)
@dataclass(frozen=True)
class VolumeFilter:
    """Which volumes one plugin counts (upstream VolumeFilter): inline ones, those
    of a PersistentVolume, and claims of a StorageClass with the plugin's provisioner."""

    # The volume's source key in ``spec.volumes`` and the field holding its ID.
    source: str
    id_field: str
    in_tree_plugin_name: str

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "VolumeFilter", 422, 430)
    def filter_volume(self, vol: dict) -> tuple[str, bool]:
        src = vol.get(self.source)
        if src is not None:
            return (src or {}).get(self.id_field, ""), True
        return "", False

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "VolumeFilter", 422, 430)
    def filter_persistent_volume(self, pv: Any) -> tuple[str, bool]:
        # A PV's source mapping has the same keys and ID fields as an inline volume's.
        return self.filter_volume(pv.spec.source)

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "VolumeFilter", 422, 430)
    def match_provisioner(self, sc: Any) -> bool:
        return sc.provisioner == self.in_tree_plugin_name

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "VolumeFilter", 422, 430)
    def is_migrated(self, csi_node: Optional[Any]) -> bool:
        return is_csi_migration_on(csi_node, self.in_tree_plugin_name)


EBS_VOLUME_FILTER = VolumeFilter("awsElasticBlockStore", "volumeID", AWS_EBS_IN_TREE_PLUGIN_NAME)
GCE_PD_VOLUME_FILTER = VolumeFilter("gcePersistentDisk", "pdName", GCE_PD_IN_TREE_PLUGIN_NAME)
AZURE_DISK_VOLUME_FILTER = VolumeFilter("azureDisk", "diskName", AZURE_DISK_IN_TREE_PLUGIN_NAME)
# Deprecated together with the in-tree OpenStack cloud provider.
CINDER_VOLUME_FILTER = VolumeFilter("cinder", "volumeID", CINDER_IN_TREE_PLUGIN_NAME)

# filter type -> (plugin name, volume filter, limit key)
_FILTERS = {
    EBS_VOLUME_FILTER_TYPE: (EBS_NAME, EBS_VOLUME_FILTER, EBS_VOLUME_LIMIT_KEY),
    GCE_PD_VOLUME_FILTER_TYPE: (GCEPD_NAME, GCE_PD_VOLUME_FILTER, GCE_VOLUME_LIMIT_KEY),
    AZURE_DISK_VOLUME_FILTER_TYPE: (AZURE_DISK_NAME, AZURE_DISK_VOLUME_FILTER, AZURE_VOLUME_LIMIT_KEY),
    CINDER_VOLUME_FILTER_TYPE: (CINDER_NAME, CINDER_VOLUME_FILTER, CINDER_VOLUME_LIMIT_KEY),
}


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "nonCSILimits", 107, 121)
class NonCSILimits:
    """One in-tree volume limit plugin (upstream nonCSILimits)."""

    def __init__(self, name: str, volume_filter: VolumeFilter, volume_limit_key: str,
                 max_volume_func: Callable[[Node], int], handle: Any = None) -> None:
        self._name = name
        # upstream: csiNodeLister, pvLister, pvcLister and scLister of the informer factory.
        self.listers = StorageListers(handle.object_lister() if handle is not None else None)
        # upstream: rand.String(32), so a made-up ID never equals a real volume ID.
        self.random_volume_id_prefix = uuid.uuid4().hex
        self.filter_ = volume_filter
        self.volume_limit_key = volume_limit_key
        self.max_volume_func = max_volume_func

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "(*nonCSILimits).Name", 203, 205)
    def name(self) -> str:
        return self._name

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "(*nonCSILimits).EventsToRegister", 209, 215)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add)),
            ClusterEventWithHint(ClusterEvent(POD, ActionType.Delete)),
            ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.Add)),
        ]

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "(*nonCSILimits).PreFilter", 220, 231)
    def pre_filter(self, cycle_state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        """Skip the pod unless it has a volume of this kind, a claim or an ephemeral volume."""
        for vol in pod.spec.volumes:
            _, ok = self.filter_.filter_volume(vol)
            if ok or vol.get("persistentVolumeClaim") is not None or vol.get("ephemeral") is not None:
                return None, None
        return None, new_status(Code.Skip)

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "(*nonCSILimits).PreFilterExtensions", 234, 236)
    def pre_filter_extensions(self) -> None:
        return None

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "(*nonCSILimits).Filter", 239, 304)
    def filter(self, cycle_state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        # A pod without volumes always fits: fast path.
        if not pod.spec.volumes:
            return None

        new_volumes: set[str] = set()
        try:
            self.filter_volumes(pod, True, new_volumes)
        except NotFoundError as err:
            # The claim is missing: the pod cannot schedule until it is created.
            return new_status(Code.UnschedulableAndUnresolvable, str(err))
        except ValueError as err:
            return Status.as_status(err)

        if not new_volumes:
            return None

        node = node_info.node()
        try:
            csi_node = self.listers.get_csi_node(node.metadata.name)
        except NotFoundError:
            # Only needed to tell whether the plugin is migrated: go on without it.
            csi_node = None

        # A plugin migrated to its CSI driver is counted by NodeVolumeLimits instead.
        if self.filter_.is_migrated(csi_node):
            return None

        # Count the distinct volumes already on the node.
        existing_volumes: set[str] = set()
        for existing_pod in node_info.pods:
            try:
                self.filter_volumes(existing_pod.pod, False, existing_volumes)
            except (LookupError, ValueError) as err:
                return Status.as_status(err)
        num_existing_volumes = len(existing_volumes)

        # Volumes already mounted on the node do not count twice.
        new_volumes -= existing_volumes
        num_new_volumes = len(new_volumes)

        max_attach_limit = self.max_volume_func(node)
        limits = volume_limits(node_info)
        if self.volume_limit_key in limits:
            max_attach_limit = limits[self.volume_limit_key]

        if num_existing_volumes + num_new_volumes > max_attach_limit:
            return new_status(Code.Unschedulable, ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED)
        return None

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "(*nonCSILimits).filterVolumes", 306, 390)
    def filter_volumes(self, pod: Pod, new_pod: bool, filtered_volumes: set[str]) -> None:
        """Add the IDs of ``pod``'s volumes of this kind to ``filtered_volumes``.

        Raises NotFoundError when a claim of the new pod is missing, ValueError
        for a claim volume without a name.
        """
        for vol in pod.spec.volumes:
            vol_id, ok = self.filter_.filter_volume(vol)
            if ok:
                filtered_volumes.add(vol_id)
                continue

            pvc_name = claim_name(vol)
            is_ephemeral = False
            if pvc_name is None:
                if vol.get("ephemeral") is None:
                    continue
                # A generic ephemeral volume uses a claim with a computed name.
                pvc_name = ephemeral_claim_name(pod.metadata.name, vol)
                is_ephemeral = True
            if pvc_name == "":
                raise ValueError("PersistentVolumeClaim had no name")

            # Until the real volume ID is known, namespace/claim (with a random
            # prefix, so it never equals a real ID) stands in for it.
            pv_id = f"{self.random_volume_id_prefix}-{pod.metadata.namespace}/{pvc_name}"

            try:
                pvc = self.listers.get_pvc(pod.metadata.namespace, pvc_name)
            except NotFoundError as err:
                if new_pod:
                    # The new pod cannot run without its claim: bail out.
                    raise err.wrap(f"looking up PVC {pod.metadata.namespace}/{pvc_name}: ") from None
                # An existing pod's missing claim is not counted.
                continue

            if is_ephemeral:
                # The claim of an ephemeral volume must be owned by the pod.
                msg = volume_is_for_pod(pod, pvc)
                if msg is not None:
                    raise ValueError(msg)

            pv_name = pvc.spec.volume_name
            if pv_name == "":
                # An unbound claim may still use the volume it was bound to: count
                # it when it belongs to this plugin.
                if self.match_provisioner(pvc):
                    filtered_volumes.add(pv_id)
                continue

            try:
                pv = self.listers.get_pv(pv_name)
            except NotFoundError:
                # A missing volume of a claim of this plugin still counts.
                if self.match_provisioner(pvc):
                    filtered_volumes.add(pv_id)
                continue

            vol_id, ok = self.filter_.filter_persistent_volume(pv)
            if ok:
                filtered_volumes.add(vol_id)

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "(*nonCSILimits).matchProvisioner", 393, 404)
    def match_provisioner(self, pvc: Any) -> bool:
        """Does the claim's StorageClass (spec.storageClassName only) provision this plugin's volumes?"""
        if pvc.spec.storage_class_name is None:
            return False
        try:
            storage_class = self.listers.get_storage_class(pvc.spec.storage_class_name)
        except NotFoundError:
            return False
        return self.filter_.match_provisioner(storage_class)


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "getMaxVolLimitFromEnv", 407, 419)
def get_max_vol_limit_from_env() -> int:
    """``KUBE_MAX_PD_VOLS`` when it is a positive integer, else -1."""
    raw = os.environ.get(KUBE_MAX_PD_VOLS, "")
    if raw:
        try:
            parsed = int(raw)
        except ValueError:
            return -1  # upstream: logged, the default is used
        if parsed > 0:
            return parsed
    return -1


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "getMaxEBSVolume", 562, 567)
def get_max_ebs_volume(node_instance_type: str) -> int:
    if re.search(EBS_NITRO_LIMIT_REGEX, node_instance_type):
        return DEFAULT_MAX_EBS_NITRO_VOLUME_LIMIT
    return DEFAULT_MAX_EBS_VOLUMES


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "getMaxVolumeFunc", 533, 560)
def get_max_volume_func(filter_name: str) -> Callable[[Node], int]:
    def max_volumes(node: Node) -> int:
        max_volumes_from_env = get_max_vol_limit_from_env()
        if max_volumes_from_env > 0:
            return max_volumes_from_env

        node_instance_type = ""
        for k, v in node.metadata.labels.items():
            if k in (LABEL_INSTANCE_TYPE, LABEL_INSTANCE_TYPE_STABLE):
                node_instance_type = v
                break
        if filter_name == EBS_VOLUME_FILTER_TYPE:
            return get_max_ebs_volume(node_instance_type)
        if filter_name == GCE_PD_VOLUME_FILTER_TYPE:
            return DEFAULT_MAX_GCE_PD_VOLUMES
        if filter_name == AZURE_DISK_VOLUME_FILTER_TYPE:
            return DEFAULT_MAX_AZURE_DISK_VOLUMES
        if filter_name == CINDER_VOLUME_FILTER_TYPE:
            return DEFAULT_MAX_CINDER_VOLUMES
        return -1

    return max_volumes


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "newNonCSILimits", 152, 200)
def new_non_csi_limits(filter_name: str, handle: Any = None) -> NonCSILimits:
    """Upstream newNonCSILimits."""
    name, volume_filter, volume_limit_key = _FILTERS[filter_name]
    return NonCSILimits(name, volume_filter, volume_limit_key, get_max_volume_func(filter_name), handle)


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "NewAzureDisk", 74, 77)
def new_azure_disk(args: Any, handle: Any, fts: Any = None) -> NonCSILimits:
    return new_non_csi_limits(AZURE_DISK_VOLUME_FILTER_TYPE, handle)


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "NewCinder", 83, 86)
def new_cinder(args: Any, handle: Any, fts: Any = None) -> NonCSILimits:
    return new_non_csi_limits(CINDER_VOLUME_FILTER_TYPE, handle)


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "NewEBS", 92, 95)
def new_ebs(args: Any, handle: Any, fts: Any = None) -> NonCSILimits:
    return new_non_csi_limits(EBS_VOLUME_FILTER_TYPE, handle)


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/non_csi.go", "NewGCEPD", 101, 104)
def new_gcepd(args: Any, handle: Any, fts: Any = None) -> NonCSILimits:
    return new_non_csi_limits(GCE_PD_VOLUME_FILTER_TYPE, handle)
