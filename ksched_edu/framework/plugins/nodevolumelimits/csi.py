"""Port of pkg/scheduler/framework/plugins/nodevolumelimits/csi.go (v1.30).

NodeVolumeLimits counts, per CSI driver, the distinct volumes the node's pods
and the incoming pod attach, and rejects the node when a driver's count would
pass the limit the node advertises (CSINode allocatable, or the node's
``attachable-volumes-csi-<driver>`` allocatable). Claims and generic ephemeral
volumes count, and so do inline in-tree volumes whose plugin the node has
migrated to CSI. A pod with none of these is skipped at PreFilter.

A claim counts as the CSI volume of its bound PersistentVolume (an in-tree
one translated when the node has migrated its plugin), or, while unbound, as a
volume of its StorageClass's provisioner under a made-up handle.
"""
from __future__ import annotations

import uuid
from typing import Any, Optional

from ....anchors import ports
from ....api.storage import get_persistent_volume_claim_class
from ....api.types import Pod
from ...cycle_state import CycleState
from ...interface import Code, PreFilterResult, Status, new_status
from ...types import CSI_NODE, PERSISTENT_VOLUME_CLAIM, POD, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo
from ..names import NODE_VOLUME_LIMITS
from ..storage_listers import NotFoundError, StorageListers, claim_name, ephemeral_claim_name, volume_is_for_pod
from .csi_translation import (get_csi_name_from_in_tree_name, get_in_tree_plugin_name_from_spec,
                              is_inline_migratable, is_migratable_intree_plugin_by_name, is_pv_migratable,
                              translate_in_tree_inline_volume_to_csi, translate_in_tree_pv_to_csi)
from .non_csi import ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED
from .utils import get_csi_attach_limit_key, is_csi_migration_on, volume_limits

CSI_NAME = NODE_VOLUME_LIMITS

# Extension points: PreFilter, Filter, EnqueueExtensions. Reason: ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED.

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
        # upstream: csiNodeLister, pvLister, pvcLister and scLister of the informer factory.
        self.listers = StorageListers(handle.object_lister())
        # upstream: rand.String(32), so a made-up handle never equals a real one.
        self.random_volume_id_prefix = uuid.uuid4().hex

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
            csi_node = self.listers.get_csi_node(node.metadata.name)
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
            except (LookupError, ValueError) as err:
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
            is_ephemeral = False
            if pvc_name is None:
                if vol.get("ephemeral") is None:
                    # An inline volume counts here only when migrated to CSI; an
                    # unmigrated one is counted by the in-tree limit plugins.
                    self.check_attachable_inline_volume(vol, csi_node, pod, result)
                    continue
                # A generic ephemeral volume uses a claim with a computed name.
                pvc_name = ephemeral_claim_name(pod.metadata.name, vol)
                is_ephemeral = True

            if pvc_name == "":
                raise ValueError("PersistentVolumeClaim had no name")

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

            driver_name, volume_handle = self.get_csi_driver_info(csi_node, pvc)
            if not driver_name or not volume_handle:
                continue  # no CSI driver or handle: not counted
            result[f"{driver_name}/{volume_handle}"] = get_csi_attach_limit_key(driver_name)

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "(*CSILimits).checkAttachableInlineVolume", 251, 288)
    def check_attachable_inline_volume(self, vol: dict, csi_node: Optional[Any], pod: Pod,
                                       result: dict[str, str]) -> None:
        """Count an inline in-tree volume whose plugin the node has migrated to CSI."""
        if not is_inline_migratable(vol):
            return
        try:
            in_tree_provisioner_name = get_in_tree_plugin_name_from_spec(None, vol)
        except ValueError as err:
            raise ValueError(f"looking up provisioner name for volume {vol.get('name', '')}: {err}") from None
        if not is_csi_migration_on(csi_node, in_tree_provisioner_name):
            return
        try:
            translated = translate_in_tree_inline_volume_to_csi(vol, pod.metadata.namespace)
        except ValueError as err:
            raise ValueError(f"converting volume({vol.get('name', '')}) from inline to csi: {err}") from None
        driver_name = get_csi_name_from_in_tree_name(in_tree_provisioner_name)
        result[f"{driver_name}/{translated.volume_handle}"] = get_csi_attach_limit_key(driver_name)

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "(*CSILimits).getCSIDriverInfo", 293, 343)
    def get_csi_driver_info(self, csi_node: Optional[Any], pvc: Any) -> tuple[str, str]:
        """The CSI driver and volume handle behind a claim ("" when it does not count)."""
        pv_name = pvc.spec.volume_name
        if pv_name == "":
            return self.get_csi_driver_info_from_sc(csi_node, pvc)
        try:
            pv = self.listers.get_pv(pv_name)
        except NotFoundError:
            # The volume may be gone, or the claim pre-bound to one not created yet.
            return self.get_csi_driver_info_from_sc(csi_node, pvc)

        csi_source = pv.spec.csi
        if csi_source is None:
            # Fast path for volumes that cannot migrate.
            if not is_pv_migratable(pv):
                return "", ""
            try:
                plugin_name = get_in_tree_plugin_name_from_spec(pv, None)
            except ValueError:
                return "", ""
            if not is_csi_migration_on(csi_node, plugin_name):
                return "", ""
            try:
                csi_pv = translate_in_tree_pv_to_csi(pv)
            except ValueError:
                return "", ""
            if csi_pv.spec.csi is None:
                return "", ""
            csi_source = csi_pv.spec.csi
        return csi_source.driver, csi_source.volume_handle

    @ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "(*CSILimits).getCSIDriverInfoFromSC", 346, 385)
    def get_csi_driver_info_from_sc(self, csi_node: Optional[Any], pvc: Any) -> tuple[str, str]:
        """The provisioner of an unbound claim's StorageClass, with a made-up volume handle."""
        namespace, pvc_name = pvc.metadata.namespace, pvc.metadata.name
        sc_name = get_persistent_volume_claim_class(pvc)
        # Without a class the claim binds immediately, so it is bound before scheduling.
        if not sc_name:
            return "", ""
        try:
            storage_class = self.listers.get_storage_class(sc_name)
        except NotFoundError:
            return "", ""
        # A random prefix keeps the made-up handle apart from real volume IDs.
        volume_handle = f"{self.random_volume_id_prefix}-{namespace}/{pvc_name}"
        provisioner = storage_class.provisioner
        if is_migratable_intree_plugin_by_name(provisioner):
            if not is_csi_migration_on(csi_node, provisioner):
                return "", ""
            try:
                driver_name = get_csi_name_from_in_tree_name(provisioner)
            except ValueError:
                return "", ""
            return driver_name, volume_handle
        return provisioner, volume_handle


@ports("pkg/scheduler/framework/plugins/nodevolumelimits/csi.go", "NewCSI", 388, 404)
def new_csi(args: Any, handle: Any, fts: Any = None) -> CSILimits:
    """Upstream NewCSI."""
    return CSILimits(handle)
