"""Port of pkg/scheduler/framework/plugins/nodevolumelimits/csi.go (v1.30).

NodeVolumeLimits counts, per CSI driver, the distinct volumes the node's pods
and the incoming pod attach, and rejects the node when a driver's count would
pass the limit the node advertises (CSINode allocatable, or the node's
``attachable-volumes-csi-<driver>`` allocatable). Claims and generic ephemeral
volumes count, and so do inline in-tree volumes whose plugin the node has
migrated to CSI. A pod with none of these is skipped at PreFilter.

Deviations:
- PersistentVolumeClaims, PersistentVolumes, StorageClasses and CSINodes are not
  modelled (see ``storage_listers``): for the incoming pod a claim volume gives
  ``looking up PVC <ns>/<name>: persistentvolumeclaim "<name>" not found``
  (UnschedulableAndUnresolvable); an existing pod's claim is not counted, as
  upstream does for a claim it cannot find. Resolving a found claim to its CSI
  driver and volume handle, and translating in-tree volumes to CSI
  (csi-translation-lib's Translate*), are not ported; without a CSINode no
  inline volume counts as migrated, as upstream.
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import SCHEDULER_PLUGINS, ports
from ....api.types import Pod
from ...cycle_state import CycleState
from ...interface import Code, PreFilterResult, Status, new_status
from ...types import CSI_NODE, PERSISTENT_VOLUME_CLAIM, POD, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo
from ..names import NODE_VOLUME_LIMITS
from ..storage_listers import NotFoundError, claim_name, ephemeral_claim_name, get_csi_node, get_pvc
from .non_csi import ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED
from .utils import (AWS_EBS_IN_TREE_PLUGIN_NAME, AZURE_DISK_IN_TREE_PLUGIN_NAME, AZURE_FILE_IN_TREE_PLUGIN_NAME,
                    CINDER_IN_TREE_PLUGIN_NAME, GCE_PD_IN_TREE_PLUGIN_NAME, PORTWORX_VOLUME_PLUGIN_NAME,
                    RBD_VOLUME_PLUGIN_NAME, VSPHERE_IN_TREE_PLUGIN_NAME, get_csi_attach_limit_key,
                    is_csi_migration_on, volume_limits)

CSI_NAME = NODE_VOLUME_LIMITS

# Extension points: PreFilter, Filter, EnqueueExtensions. Reason: ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED.

# k8s.io/csi-translation-lib: the inline volume sources an in-tree plugin can
# translate to CSI (CanSupportInline), by ``spec.volumes`` key.
IN_TREE_INLINE_PLUGINS = {
    "gcePersistentDisk": GCE_PD_IN_TREE_PLUGIN_NAME,
    "awsElasticBlockStore": AWS_EBS_IN_TREE_PLUGIN_NAME,
    "cinder": CINDER_IN_TREE_PLUGIN_NAME,
    "azureDisk": AZURE_DISK_IN_TREE_PLUGIN_NAME,
    "azureFile": AZURE_FILE_IN_TREE_PLUGIN_NAME,
    "vsphereVolume": VSPHERE_IN_TREE_PLUGIN_NAME,
    "portworxVolume": PORTWORX_VOLUME_PLUGIN_NAME,
    "rbd": RBD_VOLUME_PLUGIN_NAME,
}


@ports("vendor/k8s.io/csi-translation-lib/translate.go", "(CSITranslator).IsInlineMigratable", 197, 204, repo=SCHEDULER_PLUGINS)
def is_inline_migratable(vol: dict) -> bool:
    """csi-translation-lib IsInlineMigratable."""
    return any(vol.get(source) is not None for source in IN_TREE_INLINE_PLUGINS)


@ports("vendor/k8s.io/csi-translation-lib/translate.go", "(CSITranslator).GetInTreePluginNameFromSpec", 146, 164, repo=SCHEDULER_PLUGINS)
def get_in_tree_plugin_name_from_inline(vol: dict) -> str:
    """csi-translation-lib GetInTreePluginNameFromSpec for an inline volume."""
    for source, plugin_name in IN_TREE_INLINE_PLUGINS.items():
        if vol.get(source) is not None:
            return plugin_name
    raise ValueError(f"could not find in-tree plugin name from volume {vol.get('name', '')}")


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "getVolumeLimits", 406, 420)
def get_volume_limits(node_info: NodeInfo, csi_node: Optional[Any]) -> dict[str, int]:
    """The node's attachable-volume limits; a CSINode's driver counts override them."""
    node_volume_limits = volume_limits(node_info)
    if csi_node is not None:
        for d in csi_node.spec.drivers:
            count = d.allocatable.count if d.allocatable is not None else None
            if count is not None:
                node_volume_limits[get_csi_attach_limit_key(d.name)] = count
    return node_volume_limits


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "CSILimits", 53, 62)
class CSILimits:
    def __init__(self, handle: Any) -> None:
        self.handle = handle

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "(*CSILimits).Name", 72, 74)
    def name(self) -> str:
        return CSI_NAME

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "(*CSILimits).EventsToRegister", 78, 86)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        # No queueing hints on purpose: any new CSINode may help.
        return [
            ClusterEventWithHint(ClusterEvent(CSI_NODE, ActionType.Add)),
            ClusterEventWithHint(ClusterEvent(POD, ActionType.Delete)),
            ClusterEventWithHint(ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.Add)),
        ]

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "(*CSILimits).PreFilter", 91, 101)
    def pre_filter(self, cycle_state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        """Skip the pod unless it has a claim, an ephemeral volume or a migratable inline volume."""
        for vol in pod.spec.volumes:
            if (vol.get("persistentVolumeClaim") is not None or vol.get("ephemeral") is not None
                    or is_inline_migratable(vol)):
                return None, None
        return None, new_status(Code.Skip)

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "(*CSILimits).PreFilterExtensions", 104, 106)
    def pre_filter_extensions(self) -> None:
        return None

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "(*CSILimits).Filter", 109, 179)
    def filter(self, cycle_state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        # A pod without volumes always fits.
        if not pod.spec.volumes:
            return None

        node = node_info.node()
        try:
            csi_node = get_csi_node(node.metadata.name)
        except NotFoundError:
            # Without a CSINode the limits may still come from the Node object.
            csi_node = None

        new_volumes: dict[str, str] = {}
        try:
            self.filter_attachable_volumes(pod, csi_node, True, new_volumes)
        except NotFoundError as err:
            # The claim is missing: the pod cannot schedule until it is created.
            return new_status(Code.UnschedulableAndUnresolvable, str(err))
        except ValueError as err:
            return Status.as_status(err)

        # No new CSI volume: always fits.
        if not new_volumes:
            return None

        # No volume limits on the node: always fits.
        node_volume_limits = get_volume_limits(node_info, csi_node)
        if not node_volume_limits:
            return None

        attached_volumes: dict[str, str] = {}
        for existing_pod in node_info.pods:
            try:
                self.filter_attachable_volumes(existing_pod.pod, csi_node, False, attached_volumes)
            except (NotFoundError, ValueError) as err:
                return Status.as_status(err)

        attached_volume_count: dict[str, int] = {}
        for volume_unique_name, volume_limit_key in attached_volumes.items():
            # A volume used by several pods counts once.
            new_volumes.pop(volume_unique_name, None)
            attached_volume_count[volume_limit_key] = attached_volume_count.get(volume_limit_key, 0) + 1

        new_volume_count: dict[str, int] = {}
        for volume_limit_key in new_volumes.values():
            new_volume_count[volume_limit_key] = new_volume_count.get(volume_limit_key, 0) + 1

        for volume_limit_key, count in new_volume_count.items():
            max_volume_limit = node_volume_limits.get(volume_limit_key)
            if max_volume_limit is not None:
                current_volume_count = attached_volume_count.get(volume_limit_key, 0)
                if current_volume_count + count > max_volume_limit:
                    return new_status(Code.Unschedulable, ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED)
        return None

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "(*CSILimits).filterAttachableVolumes", 181, 247)
    def filter_attachable_volumes(self, pod: Pod, csi_node: Optional[Any], new_pod: bool,
                                  result: dict[str, str]) -> None:
        """Add ``driver/handle -> limit key`` for each CSI volume of ``pod``.

        Raises NotFoundError when a claim of the new pod is missing, ValueError
        for a claim volume without a name.
        """
        for vol in pod.spec.volumes:
            pvc_name = claim_name(vol)
            if pvc_name is None:
                if vol.get("ephemeral") is None:
                    # An inline volume counts here only when migrated to CSI; an
                    # unmigrated one is counted by the in-tree limit plugins.
                    self.check_attachable_inline_volume(vol, csi_node, pod, result)
                    continue
                # A generic ephemeral volume uses a claim with a computed name.
                pvc_name = ephemeral_claim_name(pod.metadata.name, vol)

            if pvc_name == "":
                raise ValueError("PersistentVolumeClaim had no name")

            try:
                # Never returns: claims are not modelled (resolving a found claim
                # to its CSI driver and volume handle is not ported).
                get_pvc(pod.metadata.namespace, pvc_name)
            except NotFoundError as err:
                if new_pod:
                    # The new pod cannot run without its claim: bail out.
                    raise err.wrap(f"looking up PVC {pod.metadata.namespace}/{pvc_name}: ") from None
                # An existing pod's missing claim is not counted.
                continue

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "(*CSILimits).checkAttachableInlineVolume", 251, 288)
    def check_attachable_inline_volume(self, vol: dict, csi_node: Optional[Any], pod: Pod,
                                       result: dict[str, str]) -> None:
        """Count an inline in-tree volume whose plugin the node has migrated to CSI."""
        if not is_inline_migratable(vol):
            return
        in_tree_provisioner_name = get_in_tree_plugin_name_from_inline(vol)
        if not is_csi_migration_on(csi_node, in_tree_provisioner_name):
            return
        # upstream: TranslateInTreeInlineVolumeToCSI and GetCSINameFromInTreeName;
        # only reached with a CSINode, which is not modelled.
        raise NotImplementedError("translating in-tree volumes to CSI is not ported: CSINodes are not modelled")


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "NewCSI", 388, 404)
def new_csi(args: Any, handle: Any) -> CSILimits:
    """Upstream NewCSI."""
    return CSILimits(handle)
