"""Port of k8s.io/csi-translation-lib (v0.30.4): translate.go and the in-tree
plugins' translators (plugins/aws_ebs.go, gce_pd.go, azure_disk.go,
openstack_cinder.go, ...), the parts the scheduler uses: which in-tree volume
kinds can migrate to CSI, the CSI driver each migrates to, and the CSI volume
handle of a translated inline volume or PersistentVolume.

A translation returns a :class:`CSIPersistentVolumeSource` (driver and volume
handle), which is all the volume limit plugins count.

Deviations:
- A translation produces the CSI source's driver and volume handle (and, for
  a PersistentVolume, the node affinity rewritten to the driver's topology
  key); the source's other attributes (fsType, partition, ...) are not read.
- Azure File, vSphere, Portworx and RBD are recognised (CanSupport, plugin
  and driver names) but their volume handles are not ported: translating one
  raises ValueError. The scheduler translates only plugins that
  ``isCSIMigrationOn`` reports migrated, which in v1.30 excludes Azure File and
  vSphere (not listed) and Portworx and RBD (their gates are off).
"""
from __future__ import annotations

import copy
import re
from typing import Any, Optional

from ....anchors import SCHEDULER_PLUGINS, ports
from ....api.storage import CSIPersistentVolumeSource
from .utils import (AWS_EBS_IN_TREE_PLUGIN_NAME, AZURE_DISK_IN_TREE_PLUGIN_NAME, AZURE_FILE_IN_TREE_PLUGIN_NAME,
                    CINDER_IN_TREE_PLUGIN_NAME, GCE_PD_IN_TREE_PLUGIN_NAME, PORTWORX_VOLUME_PLUGIN_NAME,
                    RBD_VOLUME_PLUGIN_NAME, VSPHERE_IN_TREE_PLUGIN_NAME)

AWS_EBS_DRIVER_NAME = "ebs.csi.aws.com"
GCE_PD_DRIVER_NAME = "pd.csi.storage.gke.io"
AZURE_DISK_DRIVER_NAME = "disk.csi.azure.com"
AZURE_FILE_DRIVER_NAME = "file.csi.azure.com"
CINDER_DRIVER_NAME = "cinder.csi.openstack.org"
VSPHERE_DRIVER_NAME = "csi.vsphere.vmware.com"
PORTWORX_DRIVER_NAME = "pxd.portworx.com"
RBD_DRIVER_NAME = "rbd.csi.ceph.com"

# CSI driver name -> (in-tree plugin name, the volume source key in spec.volumes / PV spec).
IN_TREE_PLUGINS: dict[str, tuple[str, str]] = {
    GCE_PD_DRIVER_NAME: (GCE_PD_IN_TREE_PLUGIN_NAME, "gcePersistentDisk"),
    AWS_EBS_DRIVER_NAME: (AWS_EBS_IN_TREE_PLUGIN_NAME, "awsElasticBlockStore"),
    CINDER_DRIVER_NAME: (CINDER_IN_TREE_PLUGIN_NAME, "cinder"),
    AZURE_DISK_DRIVER_NAME: (AZURE_DISK_IN_TREE_PLUGIN_NAME, "azureDisk"),
    AZURE_FILE_DRIVER_NAME: (AZURE_FILE_IN_TREE_PLUGIN_NAME, "azureFile"),
    VSPHERE_DRIVER_NAME: (VSPHERE_IN_TREE_PLUGIN_NAME, "vsphereVolume"),
    PORTWORX_DRIVER_NAME: (PORTWORX_VOLUME_PLUGIN_NAME, "portworxVolume"),
    RBD_DRIVER_NAME: (RBD_VOLUME_PLUGIN_NAME, "rbd"),
}

UNSPECIFIED_VALUE = "UNSPECIFIED"
LABEL_MULTI_ZONE_DELIMITER = "__"
LABEL_FAILURE_DOMAIN_BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"
LABEL_TOPOLOGY_ZONE = "topology.kubernetes.io/zone"
LABEL_FAILURE_DOMAIN_BETA_REGION = "failure-domain.beta.kubernetes.io/region"
LABEL_TOPOLOGY_REGION = "topology.kubernetes.io/region"
# The zonal topology keys of the CSI drivers whose PV translation rewrites node affinity.
CSI_TOPOLOGY_KEYS = {
    AWS_EBS_DRIVER_NAME: "topology." + AWS_EBS_DRIVER_NAME + "/zone",
    GCE_PD_DRIVER_NAME: "topology.gke.io/zone",
    CINDER_DRIVER_NAME: "topology.cinder.csi.openstack.org/zone",
}
_AWS_VOLUME_REG_MATCH = re.compile(r"^vol-[^/]*$")
# core/v1 default of AzureDiskVolumeSource.kind (SetDefaults_AzureDiskVolumeSource).
AZURE_SHARED_BLOB_DISK = "Shared"
AZURE_MANAGED = "Managed"


def _source_of(spec_sources: dict[str, Any], key: str) -> Optional[dict]:
    src = spec_sources.get(key)
    return None if src is None else (src or {})


@ports("vendor/k8s.io/csi-translation-lib/translate.go", "(CSITranslator).IsInlineMigratable", 197, 204, repo=SCHEDULER_PLUGINS)
def is_inline_migratable(vol: dict) -> bool:
    """Can any in-tree plugin translate this inline volume (CanSupportInline)?"""
    return any(vol.get(key) is not None for _, key in IN_TREE_PLUGINS.values())


@ports("vendor/k8s.io/csi-translation-lib/translate.go", "(CSITranslator).IsPVMigratable", 187, 194, repo=SCHEDULER_PLUGINS)
def is_pv_migratable(pv: Any) -> bool:
    return any(pv.spec.source.get(key) is not None for _, key in IN_TREE_PLUGINS.values())


@ports("vendor/k8s.io/csi-translation-lib/translate.go", "(CSITranslator).IsMigratableIntreePluginByName", 127, 134, repo=SCHEDULER_PLUGINS)
def is_migratable_intree_plugin_by_name(in_tree_plugin_name: str) -> bool:
    return any(name == in_tree_plugin_name for name, _ in IN_TREE_PLUGINS.values())


@ports("vendor/k8s.io/csi-translation-lib/translate.go", "(CSITranslator).GetInTreePluginNameFromSpec", 146, 164, repo=SCHEDULER_PLUGINS)
def get_in_tree_plugin_name_from_spec(pv: Any = None, vol: Optional[dict] = None) -> str:
    """The in-tree plugin of a PersistentVolume, or else of an inline volume; ValueError when none."""
    if pv is not None:
        for name, key in IN_TREE_PLUGINS.values():
            if pv.spec.source.get(key) is not None:
                return name
        raise ValueError(f"could not find in-tree plugin name from persistent volume {pv.metadata.name}")
    if vol is not None:
        for name, key in IN_TREE_PLUGINS.values():
            if vol.get(key) is not None:
                return name
        raise ValueError(f"could not find in-tree plugin name from volume {vol.get('name', '')}")
    raise ValueError("both persistent volume and volume are nil")


@ports("vendor/k8s.io/csi-translation-lib/translate.go", "(CSITranslator).GetCSINameFromInTreeName", 168, 175, repo=SCHEDULER_PLUGINS)
def get_csi_name_from_in_tree_name(plugin_name: str) -> str:
    for driver, (name, _) in IN_TREE_PLUGINS.items():
        if name == plugin_name:
            return driver
    raise ValueError(f"could not find CSI Driver name for plugin {plugin_name}")


@ports("vendor/k8s.io/csi-translation-lib/plugins/aws_ebs.go", "KubernetesVolumeIDToEBSVolumeID", 244, 277, repo=SCHEDULER_PLUGINS)
def kubernetes_volume_id_to_ebs_volume_id(kubernetes_id: str) -> str:
    """``aws://<zone>/<vol-id>`` or a bare ``vol-...`` to the EBS volume ID."""
    if not kubernetes_id.startswith("aws://"):
        return kubernetes_id  # a bare volume ID
    # upstream: url.Parse; the path after the host, without its slashes.
    rest = kubernetes_id[len("aws://"):]
    aws_id = rest[rest.index("/"):].strip("/") if "/" in rest else ""
    if not _AWS_VOLUME_REG_MATCH.match(aws_id):
        raise ValueError(f"Invalid format for AWS volume ({kubernetes_id})")
    return aws_id


@ports("vendor/k8s.io/csi-translation-lib/plugins/gce_pd.go", "gceGetRegionFromZones", 382, 399, repo=SCHEDULER_PLUGINS)
def gce_get_region_from_zones(zones: list[str]) -> str:
    if not zones:
        raise ValueError("no zones specified")
    regions = set()
    for zone in zones:
        parts = zone.split("-")
        if len(parts) != 3:
            raise ValueError(f"zone in unexpected format, expected: {{locale}}-{{region}}-{{zone}}, got: {zone}")
        regions.add("-".join(parts[:2]))
    if len(regions) != 1:
        raise ValueError(f"multiple or no regions gotten from zones, got: {sorted(regions)}")
    return next(iter(regions))


def _azure_disk_handle(src: dict) -> str:
    kind = src.get("kind") or AZURE_SHARED_BLOB_DISK  # the v1 default an API server fills in
    if kind.lower() != AZURE_MANAGED.lower():
        raise ValueError(f"kind({kind}) is not supported in csi migration")
    return src.get("diskURI", "")


def _not_ported(driver: str) -> ValueError:
    return ValueError(f"translating {driver} volumes to CSI is not ported")


@ports("vendor/k8s.io/csi-translation-lib/translate.go", "(CSITranslator).TranslateInTreeInlineVolumeToCSI", 67, 90, repo=SCHEDULER_PLUGINS)
def translate_in_tree_inline_volume_to_csi(vol: dict, pod_namespace: str) -> CSIPersistentVolumeSource:
    """The CSI source of an inline in-tree volume (each plugin's TranslateInTreeInlineVolumeToCSI)."""
    for driver, (_, key) in IN_TREE_PLUGINS.items():
        src = _source_of(vol, key)
        if src is None:
            continue
        if driver == AWS_EBS_DRIVER_NAME:
            try:
                handle = kubernetes_volume_id_to_ebs_volume_id(src.get("volumeID", ""))
            except ValueError as err:
                raise ValueError(f"failed to translate Kubernetes ID to EBS Volume ID {err}") from None
        elif driver == GCE_PD_DRIVER_NAME:
            handle = f"projects/{UNSPECIFIED_VALUE}/zones/{UNSPECIFIED_VALUE}/disks/{src.get('pdName', '')}"
        elif driver == AZURE_DISK_DRIVER_NAME:
            handle = _azure_disk_handle(src)
        elif driver == CINDER_DRIVER_NAME:
            handle = src.get("volumeID", "")
        else:
            raise _not_ported(driver)
        return CSIPersistentVolumeSource(driver=driver, volume_handle=handle)
    raise ValueError(f"could not find in-tree plugin translation logic for {vol.get('name', '')!r}")


@ports("vendor/k8s.io/csi-translation-lib/translate.go", "(CSITranslator).TranslateInTreePVToCSI", 96, 107, repo=SCHEDULER_PLUGINS)
def translate_in_tree_pv_to_csi(pv: Any) -> Any:
    """A copy of an in-tree PersistentVolume with its CSI source (each plugin's TranslateInTreePVToCSI)."""
    for driver, (_, key) in IN_TREE_PLUGINS.items():
        src = _source_of(pv.spec.source, key)
        if src is None:
            continue
        if driver == AWS_EBS_DRIVER_NAME:
            try:
                handle = kubernetes_volume_id_to_ebs_volume_id(src.get("volumeID", ""))
            except ValueError as err:
                raise ValueError(f"failed to translate Kubernetes ID to EBS Volume ID {err}") from None
        elif driver == GCE_PD_DRIVER_NAME:
            labels = pv.metadata.labels
            zones_label = labels.get(LABEL_FAILURE_DOMAIN_BETA_ZONE, "") or labels.get(LABEL_TOPOLOGY_ZONE, "")
            zones = zones_label.split(LABEL_MULTI_ZONE_DELIMITER)
            pd_name = src.get("pdName", "")
            if len(zones) == 1 and zones[0]:
                handle = f"projects/{UNSPECIFIED_VALUE}/zones/{zones[0]}/disks/{pd_name}"
            elif len(zones) > 1:
                try:
                    region = gce_get_region_from_zones(zones)
                except ValueError as err:
                    raise ValueError(f"failed to get region from zones: {err}") from None
                handle = f"projects/{UNSPECIFIED_VALUE}/regions/{region}/disks/{pd_name}"
            else:
                handle = f"projects/{UNSPECIFIED_VALUE}/zones/{UNSPECIFIED_VALUE}/disks/{pd_name}"
        elif driver == AZURE_DISK_DRIVER_NAME:
            handle = _azure_disk_handle(src)
        elif driver == CINDER_DRIVER_NAME:
            handle = src.get("volumeID", "")
        else:
            raise _not_ported(driver)
        translated = copy.deepcopy(pv)
        if driver in CSI_TOPOLOGY_KEYS:
            translate_topology_from_in_tree_to_csi(translated, CSI_TOPOLOGY_KEYS[driver])
        translated.spec.source = {"csi": {"driver": driver, "volumeHandle": handle}}
        translated.spec.csi = CSIPersistentVolumeSource(driver=driver, volume_handle=handle)
        return translated
    raise ValueError(f"could not find in-tree plugin translation logic for {pv.metadata.name!r}")


# --- plugins/in_tree_volume.go: topology ------------------------------------------------------


def _terms(pv: Any) -> list[Any]:
    na = pv.spec.node_affinity
    if na is None or na.required is None:
        return []
    return na.required.node_selector_terms


@ports("vendor/k8s.io/csi-translation-lib/plugins/in_tree_volume.go", "TopologyKeyExist", 243, 257, repo=SCHEDULER_PLUGINS)
def topology_key_exist(key: str, pv: Any) -> bool:
    return any(r.key == key for term in _terms(pv) for r in term.match_expressions)


@ports("vendor/k8s.io/csi-translation-lib/plugins/in_tree_volume.go", "getTopologyLabel", 224, 240, repo=SCHEDULER_PLUGINS)
def get_topology_label(pv: Any) -> tuple[str, str]:
    """The zone and region labels the volume uses: GA or beta, node affinity first, then labels."""
    if topology_key_exist(LABEL_TOPOLOGY_ZONE, pv):
        return LABEL_TOPOLOGY_ZONE, LABEL_TOPOLOGY_REGION
    if topology_key_exist(LABEL_FAILURE_DOMAIN_BETA_ZONE, pv):
        return LABEL_FAILURE_DOMAIN_BETA_ZONE, LABEL_FAILURE_DOMAIN_BETA_REGION
    if LABEL_TOPOLOGY_ZONE in pv.metadata.labels:
        return LABEL_TOPOLOGY_ZONE, LABEL_TOPOLOGY_REGION
    if LABEL_FAILURE_DOMAIN_BETA_ZONE in pv.metadata.labels:
        return LABEL_FAILURE_DOMAIN_BETA_ZONE, LABEL_FAILURE_DOMAIN_BETA_REGION
    return LABEL_TOPOLOGY_ZONE, LABEL_TOPOLOGY_REGION


@ports("vendor/k8s.io/csi-translation-lib/plugins/in_tree_volume.go", "getTopologyValues", 107, 131, repo=SCHEDULER_PLUGINS)
def get_topology_values(pv: Any, key: str) -> list[str]:
    return sorted({v for term in _terms(pv) for r in term.match_expressions if r.key == key for v in r.values})


@ports("vendor/k8s.io/csi-translation-lib/plugins/in_tree_volume.go", "replaceTopology", 86, 101, repo=SCHEDULER_PLUGINS)
def replace_topology(pv: Any, old_key: str, new_key: str) -> None:
    for term in _terms(pv):
        for r in term.match_expressions:
            if r.key == old_key:
                r.key = new_key


@ports("vendor/k8s.io/csi-translation-lib/plugins/in_tree_volume.go", "addTopology", 134, 177, repo=SCHEDULER_PLUGINS)
def add_topology(pv: Any, topology_key: str, zones: list[str]) -> None:
    """Require one of ``zones`` under ``topology_key`` in every term (a first term when there is none)."""
    from ....api.storage import VolumeNodeAffinity
    from ....api.types import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm
    filtered = sorted({z.strip() for z in zones if z.strip()})
    if not filtered:
        return  # upstream: an error the caller ignores
    if pv.spec.node_affinity is None:
        pv.spec.node_affinity = VolumeNodeAffinity()
    if pv.spec.node_affinity.required is None:
        pv.spec.node_affinity.required = NodeSelector()
    if not pv.spec.node_affinity.required.node_selector_terms:
        pv.spec.node_affinity.required.node_selector_terms = [NodeSelectorTerm()]
    for term in pv.spec.node_affinity.required.node_selector_terms:
        term.match_expressions.append(NodeSelectorRequirement(topology_key, "In", list(filtered)))


@ports("vendor/k8s.io/csi-translation-lib/plugins/in_tree_volume.go", "translateTopologyFromInTreeToCSI", 184, 213, repo=SCHEDULER_PLUGINS)
def translate_topology_from_in_tree_to_csi(pv: Any, csi_topology_key: str) -> None:
    """Rewrite the volume's zone affinity to the CSI driver's topology key (from its labels when
    the affinity has none), and a beta region key to the GA one."""
    zone_label, region_label = get_topology_label(pv)
    zones = get_topology_values(pv, zone_label)
    if zones:
        replace_topology(pv, zone_label, csi_topology_key)
    elif zone_label in pv.metadata.labels:
        add_topology(pv, csi_topology_key, pv.metadata.labels[zone_label].split(LABEL_MULTI_ZONE_DELIMITER))
    if region_label == LABEL_FAILURE_DOMAIN_BETA_REGION and get_topology_values(pv, region_label):
        replace_topology(pv, region_label, LABEL_TOPOLOGY_REGION)
