"""Mirrors TestCSILimits in pkg/scheduler/framework/plugins/nodevolumelimits/csi_test.go (v1.30):
claims resolved to their CSI volumes, the CSINode's allocatable counts, volumes shared between
pods counted once, unbound claims counted through their StorageClass's provisioner, and in-tree
volumes counted once their plugin is migrated; plus the claim rows of the in-tree limits
(TestEBSLimits / TestAzureDiskLimits in non_csi_test.go)."""
from __future__ import annotations

import pytest

from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.nodevolumelimits import new_azure_disk, new_csi, new_ebs
from ksched_edu.framework.plugins.nodevolumelimits.csi_translation import (
    get_csi_name_from_in_tree_name, kubernetes_volume_id_to_ebs_volume_id, translate_in_tree_inline_volume_to_csi,
    translate_in_tree_pv_to_csi)
from ksched_edu.framework.plugins.nodevolumelimits.non_csi import ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED
from ksched_edu.framework.types import NodeInfo
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle
from tests.framework.plugins.storage_objects import WAIT, csi_node, pv, pvc, storage_class

EBS_CSI = "ebs.csi.aws.com"
GCE_CSI = "pd.csi.storage.gke.io"
EXCEEDED = (Code.Unschedulable, ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED)


def _pod(name, *claims, inline=()):
    w = make_pod().name(name).namespace("default")
    for c in claims:
        w = w.pvc(c)
    for i, v in enumerate(inline):
        w = w.volume({"name": f"inline-{i}", **v})
    return w.obj()


def _claims(driver, prefix, n, start=0):
    """Bound claims csi-<prefix>-<i> on volumes of ``driver`` with handles <prefix>-<i>."""
    out = []
    for i in range(start, start + n):
        out += [pvc(f"{prefix}-{i}", "", bound_pv=f"pv-{prefix}-{i}"),
                pv(f"pv-{prefix}-{i}", "", phase="Bound", claim=f"{prefix}-{i}", csi=(driver, f"{prefix}-{i}"))]
    return out


def _filter(plugin_new, pod, existing, objects, csi=None, node_labels=None):
    w = make_node().name("node-for-max-pd-test")
    for k, v in (node_labels or {}).items():
        w = w.label(k, v)
    node = w.obj()
    info = NodeInfo(*existing)
    info.set_node(node)
    if csi is not None:
        objects = [*objects, csi]
    pl = plugin_new(None, FakeHandle(objects=objects))
    _, status = pl.pre_filter(CycleState(), pod)
    if status is not None:
        return status.code, *status.get_reasons()
    got = pl.filter(CycleState(), pod, info)
    return None if got is None else (got.code, *got.get_reasons())


CSI_NAME_NODE = "node-for-max-pd-test"
OBJECTS = [*_claims(EBS_CSI, "ebs", 4), *_claims(GCE_CSI, "gce", 2),
           storage_class("csi-sc", WAIT, provisioner=EBS_CSI), pvc("unbound-0", "csi-sc"),
           pvc("unbound-1", "csi-sc"), storage_class("intree-ebs-sc", WAIT, provisioner="kubernetes.io/aws-ebs"),
           pvc("unbound-intree", "intree-ebs-sc")]

CSI_ROWS = [
    ("fits when node volume limit >= new pods CSI volume", _pod("p", "ebs-0"), [_pod("e", "ebs-1")], 2, None),
    ("doesn't when node volume limit <= pods CSI volume", _pod("p", "ebs-0"),
     [_pod("e", "ebs-1", "ebs-2")], 2, EXCEEDED),
    ("should when driver does not support volume limits", _pod("p", "ebs-0"),
     [_pod("e", "ebs-1", "ebs-2")], None, None),
    ("count pending PVCs towards volume limit <= pods CSI volume", _pod("p", "unbound-0"),
     [_pod("e", "ebs-1", "ebs-2")], 2, EXCEEDED),
    ("two pods using the same unbound claim count once", _pod("p", "unbound-0"),
     [_pod("e", "unbound-0", "ebs-1")], 2, None),
    ("a volume shared with a running pod counts once", _pod("p", "ebs-1"), [_pod("e", "ebs-1", "ebs-2")], 2,
     None),
    ("volumes of another driver do not count", _pod("p", "ebs-0"), [_pod("e", "gce-0", "gce-1")], 1, None),
    ("missing claim of the new pod", _pod("p", "missing"), [], 2,
     (Code.UnschedulableAndUnresolvable, 'looking up PVC default/missing: persistentvolumeclaim "missing" not found')),
    ("missing claim of an existing pod is not counted", _pod("p", "ebs-0"), [_pod("e", "missing", "ebs-1")], 2,
     None),
    ("unbound in-tree claim not counted without migration", _pod("p", "unbound-intree"),
     [_pod("e", "ebs-1", "ebs-2")], 2, EXCEEDED),
]


@pytest.mark.parametrize("name,pod,existing,limit,want", CSI_ROWS, ids=[r[0] for r in CSI_ROWS])
def test_csi_limits(name, pod, existing, limit, want):
    node = csi_node(CSI_NAME_NODE, {EBS_CSI: limit, GCE_CSI: None})
    assert _filter(new_csi, pod, existing, OBJECTS, node) == want


def test_inline_in_tree_volumes_count_once_migrated():
    ebs = {"awsElasticBlockStore": {"volumeID": "vol-1"}}
    ebs2 = {"awsElasticBlockStore": {"volumeID": "aws://us-east-1a/vol-2"}}
    node = csi_node(CSI_NAME_NODE, {EBS_CSI: 1})
    # Without a CSINode, the EBS plugin is not migrated: NodeVolumeLimits does not count it.
    assert _filter(new_csi, _pod("p", inline=[ebs]), [_pod("e", inline=[ebs2])], []) is None
    # With one, EBS is migrated (no annotation needed in v1.30) and counts against the CSI limit.
    assert _filter(new_csi, _pod("p", inline=[ebs]), [_pod("e", inline=[ebs2])], [], node) == EXCEEDED
    # The same volume twice counts once.
    assert _filter(new_csi, _pod("p", inline=[ebs]), [_pod("e", inline=[ebs])], [], node) is None


def test_translation_of_in_tree_volumes():
    assert kubernetes_volume_id_to_ebs_volume_id("aws://us-east-1a/vol-0123") == "vol-0123"
    assert kubernetes_volume_id_to_ebs_volume_id("vol-0123") == "vol-0123"
    with pytest.raises(ValueError):
        kubernetes_volume_id_to_ebs_volume_id("aws://us-east-1a/bad")
    gce = translate_in_tree_inline_volume_to_csi({"name": "v", "gcePersistentDisk": {"pdName": "d"}}, "default")
    assert (gce.driver, gce.volume_handle) == (GCE_CSI, "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/d")
    zonal = pv("g", labels={"topology.kubernetes.io/zone": "us-central1-a"},
               source={"gcePersistentDisk": {"pdName": "d"}})
    assert translate_in_tree_pv_to_csi(zonal).spec.csi.volume_handle == "projects/UNSPECIFIED/zones/us-central1-a/disks/d"
    regional = pv("g", labels={"topology.kubernetes.io/zone": "us-central1-a__us-central1-b"},
                  source={"gcePersistentDisk": {"pdName": "d"}})
    assert translate_in_tree_pv_to_csi(regional).spec.csi.volume_handle == \
        "projects/UNSPECIFIED/regions/us-central1/disks/d"
    with pytest.raises(ValueError, match=r"kind\(Shared\) is not supported in csi migration"):
        translate_in_tree_inline_volume_to_csi({"name": "v", "azureDisk": {"diskName": "d", "diskURI": "u"}}, "")
    assert get_csi_name_from_in_tree_name("kubernetes.io/azure-disk") == "disk.csi.azure.com"


def test_migrated_in_tree_pv_counts_as_its_csi_volume():
    objects = [pvc("c0", "", bound_pv="pv0"), pv("pv0", phase="Bound", claim="c0",
                                                  source={"awsElasticBlockStore": {"volumeID": "vol-0"}}),
               pvc("c1", "", bound_pv="pv1"), pv("pv1", phase="Bound", claim="c1", csi=(EBS_CSI, "vol-1"))]
    node = csi_node(CSI_NAME_NODE, {EBS_CSI: 1})
    assert _filter(new_csi, _pod("p", "c0"), [_pod("e", "c1")], objects, node) == EXCEEDED
    assert _filter(new_csi, _pod("p", "c0"), [], objects, node) is None


# TestEBSLimits / TestAzureDiskLimits rows with claims.
IN_TREE_OBJECTS = [
    pvc("ebs-claim-0", "", bound_pv="ebs-pv-0"),
    pv("ebs-pv-0", phase="Bound", claim="ebs-claim-0", source={"awsElasticBlockStore": {"volumeID": "ebsVol0"}}),
    pvc("ebs-claim-1", "", bound_pv="ebs-pv-1"),
    pv("ebs-pv-1", phase="Bound", claim="ebs-claim-1", source={"awsElasticBlockStore": {"volumeID": "ebsVol1"}}),
    pvc("unbound-ebs", "ebs-sc"), storage_class("ebs-sc", WAIT, provisioner="kubernetes.io/aws-ebs"),
    pvc("claim-missing-pv", "ebs-sc", bound_pv="gone"),
    pvc("other-claim", "", bound_pv="other-pv"),
    pv("other-pv", phase="Bound", claim="other-claim", source={"gcePersistentDisk": {"pdName": "x"}}),
]

EBS_ROWS = [
    ("doesn't fit: claims count", _pod("p", "ebs-claim-0"), [_pod("e", "ebs-claim-1")], "1", EXCEEDED),
    ("fits: same volume through a claim and inline", _pod("p", "ebs-claim-0"),
     [_pod("e", inline=[{"awsElasticBlockStore": {"volumeID": "ebsVol0"}}])], "1", None),
    ("unbound claim of the plugin's provisioner counts", _pod("p", "unbound-ebs"), [_pod("e", "ebs-claim-1")], "1",
     EXCEEDED),
    ("claim whose volume is missing counts for its provisioner", _pod("p", "claim-missing-pv"),
     [_pod("e", "ebs-claim-1")], "1", EXCEEDED),
    ("claim of another kind of volume does not count", _pod("p", "other-claim"), [_pod("e", "ebs-claim-1")], "1",
     None),
]


@pytest.mark.parametrize("name,pod,existing,max_vols,want", EBS_ROWS, ids=[r[0] for r in EBS_ROWS])
def test_ebs_limits_with_claims(monkeypatch, name, pod, existing, max_vols, want):
    monkeypatch.setenv("KUBE_MAX_PD_VOLS", max_vols)
    assert _filter(new_ebs, pod, existing, IN_TREE_OBJECTS) == want


def test_in_tree_limit_steps_aside_once_migrated(monkeypatch):
    monkeypatch.setenv("KUBE_MAX_PD_VOLS", "1")
    node = csi_node(CSI_NAME_NODE, {EBS_CSI: 5})
    assert _filter(new_ebs, _pod("p", "ebs-claim-0"), [_pod("e", "ebs-claim-1")], IN_TREE_OBJECTS, node) is None
    azure = {"azureDisk": {"diskName": "d0", "diskURI": "u0"}}
    azure1 = {"azureDisk": {"diskName": "d1", "diskURI": "u1"}}
    assert _filter(new_azure_disk, _pod("p", inline=[azure]), [_pod("e", inline=[azure1])], []) == EXCEEDED
