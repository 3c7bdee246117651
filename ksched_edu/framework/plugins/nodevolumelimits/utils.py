"""Port of pkg/scheduler/framework/plugins/nodevolumelimits/utils.go (v1.30), with
the constants it shares from pkg/volume/util/attach_limit.go and
k8s.io/csi-translation-lib/plugins.

Whether an in-tree volume plugin has been migrated to its CSI driver on a node
(told by the node's CSINode annotation), and the volume limits a node
advertises as ``attachable-volumes-*`` allocatable resources.

Without a CSINode for the node, no plugin counts as migrated.
"""
from __future__ import annotations

import hashlib
from typing import Any, Optional

from ....anchors import ports
from ...types import NodeInfo

# pkg/volume/util/attach_limit.go
EBS_VOLUME_LIMIT_KEY = "attachable-volumes-aws-ebs"
EBS_NITRO_LIMIT_REGEX = "^[cmr]5.*|t3|z1d"
DEFAULT_MAX_EBS_VOLUMES = 39
DEFAULT_MAX_EBS_NITRO_VOLUME_LIMIT = 25
AZURE_VOLUME_LIMIT_KEY = "attachable-volumes-azure-disk"
GCE_VOLUME_LIMIT_KEY = "attachable-volumes-gce-pd"
CINDER_VOLUME_LIMIT_KEY = "attachable-volumes-cinder"
DEFAULT_MAX_CINDER_VOLUMES = 256
CSI_ATTACH_LIMIT_PREFIX = "attachable-volumes-csi-"
RESOURCE_NAME_LENGTH_LIMIT = 63

# core/v1: the prefix of attachable volume resources, and the CSINode annotation
# listing the in-tree plugins migrated on the node.
RESOURCE_ATTACHABLE_VOLUMES_PREFIX = "attachable-volumes-"
MIGRATED_PLUGINS_ANNOTATION_KEY = "storage.alpha.kubernetes.io/migrated-plugins"

# k8s.io/csi-translation-lib/plugins: in-tree plugin names.
AWS_EBS_IN_TREE_PLUGIN_NAME = "kubernetes.io/aws-ebs"
GCE_PD_IN_TREE_PLUGIN_NAME = "kubernetes.io/gce-pd"
AZURE_DISK_IN_TREE_PLUGIN_NAME = "kubernetes.io/azure-disk"
AZURE_FILE_IN_TREE_PLUGIN_NAME = "kubernetes.io/azure-file"
CINDER_IN_TREE_PLUGIN_NAME = "kubernetes.io/cinder"
VSPHERE_IN_TREE_PLUGIN_NAME = "kubernetes.io/vsphere-volume"
PORTWORX_VOLUME_PLUGIN_NAME = "kubernetes.io/portworx-volume"
RBD_VOLUME_PLUGIN_NAME = "kubernetes.io/rbd"

# v1.30 default feature gates read here.
CSI_MIGRATION_PORTWORX = False
CSI_MIGRATION_RBD = False


@ports("pkg/volume/util/attach_limit.go", "GetCSIAttachLimitKey", 58, 70)
def get_csi_attach_limit_key(driver_name: str) -> str:
    """Upstream volumeutil.GetCSIAttachLimitKey: the limit key of a CSI driver,
    shortened with a sha1 suffix when it would exceed a resource name's length."""
    if len(CSI_ATTACH_LIMIT_PREFIX) + len(driver_name) >= RESOURCE_NAME_LENGTH_LIMIT:
        hashed = hashlib.sha1(driver_name.encode()).hexdigest()[:16]
        return CSI_ATTACH_LIMIT_PREFIX + driver_name[:23] + hashed
    return CSI_ATTACH_LIMIT_PREFIX + driver_name


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/utils.go", "isCSIMigrationOn", 34, 79)
def is_csi_migration_on(csi_node: Optional[Any], plugin_name: str) -> bool:
    """Has the in-tree ``plugin_name`` been migrated to CSI on this node?"""
    if csi_node is None or not plugin_name:
        return False

    # In-tree to CSI migration must be on, and the plugin-specific gate too.
    if plugin_name in (AWS_EBS_IN_TREE_PLUGIN_NAME, GCE_PD_IN_TREE_PLUGIN_NAME, AZURE_DISK_IN_TREE_PLUGIN_NAME,
                       CINDER_IN_TREE_PLUGIN_NAME):
        return True
    if plugin_name == PORTWORX_VOLUME_PLUGIN_NAME:
        if not CSI_MIGRATION_PORTWORX:
            return False
    elif plugin_name == RBD_VOLUME_PLUGIN_NAME:
        if not CSI_MIGRATION_RBD:
            return False
    else:
        return False

    # The CSINode annotation lists the plugins migrated on the node.
    annotations = csi_node.metadata.annotations
    if not annotations:
        return False
    mpa = annotations.get(MIGRATED_PLUGINS_ANNOTATION_KEY, "")
    mpa_set = set(mpa.split(",")) if mpa else set()
    return plugin_name in mpa_set


@ports("pkg/apis/core/v1/helper/helpers.go", "IsAttachableVolumeResourceName", 133, 135)
def is_attachable_volume_resource_name(name: str) -> bool:
    """Upstream v1helper.IsAttachableVolumeResourceName."""
    return name.startswith(RESOURCE_ATTACHABLE_VOLUMES_PREFIX)


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/utils.go", "volumeLimits", 82, 90)
def volume_limits(n: NodeInfo) -> dict[str, int]:
    """The volume limits the node advertises in its allocatable resources."""
    return {k: v for k, v in n.allocatable.scalar_resources.items() if is_attachable_volume_resource_name(k)}
