"""Port of the storage API objects kube-scheduler reads (k8s.io/api core/v1 and
storage/v1 types, v1.30): PersistentVolumeClaim, PersistentVolume,
StorageClass, CSINode and CSIDriver, with their v1 defaults
(pkg/apis/core/v1/defaults.go, pkg/apis/storage/v1/defaults.go) and the small
helpers of k8s.io/component-helpers/storage/volume the plugins share.

Deviations:
- A PersistentVolume's volume source (``csi``, ``gcePersistentDisk``,
  ``awsElasticBlockStore``, ``azureDisk``, ``local``, ``hostPath``, ...) is kept
  as the raw mapping of its one source key in ``spec.source`` (as a pod's
  inline volumes are raw mappings), with ``spec.csi`` parsed for the CSI
  source the plugins count.
- ``dataSource``, ``dataSourceRef``, mount options and the other fields the
  scheduler never reads are dropped.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from .defaults import (NAMESPACE_DEFAULT, NAMESPACED_KINDS, object_label, set_defaults_csi_driver,
                       set_defaults_object_meta, set_defaults_storage_class)
from .types import LabelSelector, NamedObject, NamespacedObject, NodeSelector, ObjectMeta, ResourceList

# core/v1 access modes, volume modes, phases and reclaim policies.
READ_WRITE_ONCE = "ReadWriteOnce"
READ_ONLY_MANY = "ReadOnlyMany"
READ_WRITE_MANY = "ReadWriteMany"
READ_WRITE_ONCE_POD = "ReadWriteOncePod"
VOLUME_MODE_FILESYSTEM = "Filesystem"
VOLUME_MODE_BLOCK = "Block"
CLAIM_PENDING = "Pending"
CLAIM_BOUND = "Bound"
CLAIM_LOST = "Lost"
VOLUME_PENDING = "Pending"
VOLUME_AVAILABLE = "Available"
VOLUME_BOUND = "Bound"
VOLUME_RELEASED = "Released"
VOLUME_FAILED = "Failed"
RECLAIM_RETAIN = "Retain"
RECLAIM_DELETE = "Delete"
RECLAIM_RECYCLE = "Recycle"
RESOURCE_STORAGE = "storage"

# storage/v1 binding modes and CSIDriver defaults.
VOLUME_BINDING_IMMEDIATE = "Immediate"
VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER = "WaitForFirstConsumer"
FS_GROUP_POLICY_READ_WRITE_ONCE_WITH_FS_TYPE = "ReadWriteOnceWithFSType"
VOLUME_LIFECYCLE_PERSISTENT = "Persistent"

# core/v1 annotation: the beta way to name a claim's or volume's class.
BETA_STORAGE_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class"

# k8s.io/component-helpers/storage/volume/pv_helpers.go annotations.
ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed"
ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller"
ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node"
NOT_SUPPORTED_PROVISIONER = "kubernetes.io/no-provisioner"

# The volume source keys a PersistentVolume may carry (PersistentVolumeSource).
PV_SOURCE_KEYS = (
    "gcePersistentDisk", "awsElasticBlockStore", "hostPath", "glusterfs", "nfs", "rbd", "iscsi", "cinder",
    "cephfs", "fc", "flocker", "flexVolume", "azureFile", "vsphereVolume", "quobyte", "azureDisk",
    "photonPersistentDisk", "portworxVolume", "scaleIO", "local", "storageos", "csi",
)

# The order the API server creates them in (after the nodes, before everything else).
STORAGE_KINDS = ("StorageClass", "CSIDriver", "CSINode", "PersistentVolume", "PersistentVolumeClaim")
# Every namespaced kind the API server stores: the core ones and PersistentVolumeClaim.
NAMESPACED = NAMESPACED_KINDS | {"PersistentVolumeClaim"}


@plumbing("names an object in error messages")
def label_of(kind: str, namespace: str, name: str) -> str:
    """How errors name an object: "PersistentVolumeClaim default/data", "Node n1"."""
    if kind in NAMESPACED:
        return f"{kind} {namespace or NAMESPACE_DEFAULT}/{name}"
    return object_label(kind, namespace, name)


@ports("vendor/k8s.io/api/core/v1/types.go", "ObjectReference", 6517, 6552, repo=SCHEDULER_PLUGINS)
@dataclass
class ObjectReference:
    kind: str = ""
    namespace: str = ""
    name: str = ""
    uid: str = ""
    api_version: str = ""
    resource_version: str = ""


@ports("vendor/k8s.io/api/core/v1/types.go", "VolumeResourceRequirements", 2608, 2626, repo=SCHEDULER_PLUGINS)
@dataclass
class VolumeResourceRequirements:
    requests: ResourceList = field(default_factory=dict)
    limits: ResourceList = field(default_factory=dict)


@ports("vendor/k8s.io/api/core/v1/types.go", "PersistentVolumeClaimSpec", 487, 564, repo=SCHEDULER_PLUGINS)
@dataclass
class PersistentVolumeClaimSpec:
    access_modes: list[str] = field(default_factory=list)
    selector: Optional[LabelSelector] = None
    resources: VolumeResourceRequirements = field(default_factory=VolumeResourceRequirements)
    volume_name: str = ""
    # None (absent) differs from "" (explicitly no class).
    storage_class_name: Optional[str] = None
    volume_mode: Optional[str] = None


@ports("vendor/k8s.io/api/core/v1/types.go", "PersistentVolumeClaimStatus", 676, 776, repo=SCHEDULER_PLUGINS)
@dataclass
class PersistentVolumeClaimStatus:
    phase: str = ""
    access_modes: list[str] = field(default_factory=list)
    capacity: ResourceList = field(default_factory=dict)


@ports("vendor/k8s.io/api/core/v1/types.go", "PersistentVolumeClaim", 452, 469, repo=SCHEDULER_PLUGINS)
@dataclass
class PersistentVolumeClaim(NamespacedObject):
    metadata: ObjectMeta
    spec: PersistentVolumeClaimSpec = field(default_factory=PersistentVolumeClaimSpec)
    status: PersistentVolumeClaimStatus = field(default_factory=PersistentVolumeClaimStatus)
    kind = "PersistentVolumeClaim"


@ports("vendor/k8s.io/api/core/v1/types.go", "CSIPersistentVolumeSource", 1983, 2046, repo=SCHEDULER_PLUGINS)
@dataclass
class CSIPersistentVolumeSource:
    driver: str = ""
    volume_handle: str = ""
    read_only: bool = False
    fs_type: str = ""
    volume_attributes: dict[str, str] = field(default_factory=dict)


@ports("vendor/k8s.io/api/core/v1/types.go", "VolumeNodeAffinity", 381, 384, repo=SCHEDULER_PLUGINS)
@dataclass
class VolumeNodeAffinity:
    required: Optional[NodeSelector] = None


@ports("vendor/k8s.io/api/core/v1/types.go", "PersistentVolumeSpec", 324, 378, repo=SCHEDULER_PLUGINS)
@dataclass
class PersistentVolumeSpec:
    capacity: ResourceList = field(default_factory=dict)
    # PersistentVolumeSource: {source key: raw mapping}, at most one key (see Deviations).
    source: dict[str, Any] = field(default_factory=dict)
    csi: Optional[CSIPersistentVolumeSource] = None
    access_modes: list[str] = field(default_factory=list)
    claim_ref: Optional[ObjectReference] = None
    persistent_volume_reclaim_policy: str = ""
    storage_class_name: str = ""
    volume_mode: Optional[str] = None
    node_affinity: Optional[VolumeNodeAffinity] = None


@ports("vendor/k8s.io/api/core/v1/types.go", "PersistentVolumeStatus", 414, 432, repo=SCHEDULER_PLUGINS)
@dataclass
class PersistentVolumeStatus:
    phase: str = ""


@ports("vendor/k8s.io/api/core/v1/types.go", "PersistentVolume", 302, 321, repo=SCHEDULER_PLUGINS)
@dataclass
class PersistentVolume(NamedObject):
    metadata: ObjectMeta
    spec: PersistentVolumeSpec = field(default_factory=PersistentVolumeSpec)
    status: PersistentVolumeStatus = field(default_factory=PersistentVolumeStatus)
    kind = "PersistentVolume"


@ports("vendor/k8s.io/api/core/v1/types.go", "TopologySelectorLabelRequirement", 3285, 3292, repo=SCHEDULER_PLUGINS)
@dataclass
class TopologySelectorLabelRequirement:
    key: str
    values: list[str] = field(default_factory=list)


@ports("vendor/k8s.io/api/core/v1/types.go", "TopologySelectorTerm", 3274, 3281, repo=SCHEDULER_PLUGINS)
@dataclass
class TopologySelectorTerm:
    match_label_expressions: list[TopologySelectorLabelRequirement] = field(default_factory=list)


@ports("vendor/k8s.io/api/storage/v1/types.go", "StorageClass", 34, 79, repo=SCHEDULER_PLUGINS)
@dataclass
class StorageClass:
    metadata: ObjectMeta
    provisioner: str = ""
    parameters: dict[str, str] = field(default_factory=dict)
    reclaim_policy: Optional[str] = None
    allow_volume_expansion: Optional[bool] = None
    volume_binding_mode: Optional[str] = None
    allowed_topologies: list[TopologySelectorTerm] = field(default_factory=list)
    kind = "StorageClass"


@ports("vendor/k8s.io/api/storage/v1/types.go", "VolumeNodeResources", 565, 572, repo=SCHEDULER_PLUGINS)
@dataclass
class VolumeNodeResources:
    count: Optional[int] = None


@ports("vendor/k8s.io/api/storage/v1/types.go", "CSINodeDriver", 527, 562, repo=SCHEDULER_PLUGINS)
@dataclass
class CSINodeDriver:
    name: str
    node_id: str = ""
    topology_keys: list[str] = field(default_factory=list)
    allocatable: Optional[VolumeNodeResources] = None


@ports("vendor/k8s.io/api/storage/v1/types.go", "CSINodeSpec", 516, 524, repo=SCHEDULER_PLUGINS)
@dataclass
class CSINodeSpec:
    drivers: list[CSINodeDriver] = field(default_factory=list)


@ports("vendor/k8s.io/api/storage/v1/types.go", "CSINode", 504, 513, repo=SCHEDULER_PLUGINS)
@dataclass
class CSINode:
    metadata: ObjectMeta
    spec: CSINodeSpec = field(default_factory=CSINodeSpec)
    kind = "CSINode"


@ports("vendor/k8s.io/api/storage/v1/types.go", "CSIDriverSpec", 269, 419, repo=SCHEDULER_PLUGINS)
@dataclass
class CSIDriverSpec:
    attach_required: Optional[bool] = None
    pod_info_on_mount: Optional[bool] = None
    volume_lifecycle_modes: list[str] = field(default_factory=list)
    storage_capacity: Optional[bool] = None
    fs_group_policy: Optional[str] = None
    requires_republish: Optional[bool] = None
    se_linux_mount: Optional[bool] = None


@ports("vendor/k8s.io/api/storage/v1/types.go", "CSIDriver", 236, 251, repo=SCHEDULER_PLUGINS)
@dataclass
class CSIDriver:
    metadata: ObjectMeta
    spec: CSIDriverSpec = field(default_factory=CSIDriverSpec)
    kind = "CSIDriver"


# --- defaults (what the API server fills in on create) -----------------------------------


@ports("pkg/apis/core/v1/defaults.go", "SetDefaults_PersistentVolume", 297, 308)
def set_defaults_persistent_volume(pv: PersistentVolume) -> None:
    if not pv.status.phase:
        pv.status.phase = VOLUME_PENDING
    if not pv.spec.persistent_volume_reclaim_policy:
        pv.spec.persistent_volume_reclaim_policy = RECLAIM_RETAIN
    if pv.spec.volume_mode is None:
        pv.spec.volume_mode = VOLUME_MODE_FILESYSTEM


@ports("pkg/apis/core/v1/defaults.go", "SetDefaults_PersistentVolumeClaim", 309, 319)
def set_defaults_persistent_volume_claim(pvc: PersistentVolumeClaim) -> None:
    """SetDefaults_PersistentVolumeClaim and SetDefaults_PersistentVolumeClaimSpec."""
    if not pvc.status.phase:
        pvc.status.phase = CLAIM_PENDING
    if pvc.spec.volume_mode is None:
        pvc.spec.volume_mode = VOLUME_MODE_FILESYSTEM


@plumbing("applies the storage kinds' defaulting functions to a loaded object")
def set_defaults_storage_object(obj: Any) -> None:
    """Default one storage object in place: namespace "default" for a claim, a UID, the kind's defaults."""
    if obj.kind in NAMESPACED and not obj.metadata.namespace:
        obj.metadata.namespace = NAMESPACE_DEFAULT
    set_defaults_object_meta(obj.kind, obj.metadata)
    if isinstance(obj, PersistentVolume):
        set_defaults_persistent_volume(obj)
    elif isinstance(obj, PersistentVolumeClaim):
        set_defaults_persistent_volume_claim(obj)
    elif isinstance(obj, StorageClass):
        set_defaults_storage_class(obj)
    elif isinstance(obj, CSIDriver):
        set_defaults_csi_driver(obj)


# --- k8s.io/component-helpers/storage/volume helpers ---------------------------------------


@ports("vendor/k8s.io/component-helpers/storage/volume/helpers.go", "GetPersistentVolumeClaimClass", 43, 54, repo=SCHEDULER_PLUGINS)
def get_persistent_volume_claim_class(claim: PersistentVolumeClaim) -> str:
    """The claim's class: the beta annotation first, then spec.storageClassName."""
    cls = claim.metadata.annotations.get(BETA_STORAGE_CLASS_ANNOTATION)
    if cls is not None:
        return cls
    if claim.spec.storage_class_name is not None:
        return claim.spec.storage_class_name
    return ""


@ports("vendor/k8s.io/component-helpers/storage/volume/helpers.go", "GetPersistentVolumeClass", 57, 64, repo=SCHEDULER_PLUGINS)
def get_persistent_volume_class(volume: PersistentVolume) -> str:
    cls = volume.metadata.annotations.get(BETA_STORAGE_CLASS_ANNOTATION)
    if cls is not None:
        return cls
    return volume.spec.storage_class_name


@ports("pkg/apis/core/v1/helper/helpers.go", "ContainsAccessMode", 223, 230)
def contains_access_mode(modes: list[str], mode: str) -> bool:
    return mode in modes
