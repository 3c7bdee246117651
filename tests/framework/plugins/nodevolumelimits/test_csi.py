"""Mirrors pkg/scheduler/framework/plugins/nodevolumelimits/csi_test.go (v1.30),
the rows that need no PersistentVolumeClaim, StorageClass or CSINode object (the
others are in test_csi_claims.py):
the PreFilter Skip, inline in-tree volumes on a node without a CSINode (not
migrated, so not counted), missing claims and the attach-limit keys.
"""
from __future__ import annotations

import pytest

from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.nodevolumelimits import CSI_NAME, new_csi
from ksched_edu.framework.plugins.nodevolumelimits.csi import is_inline_migratable
from ksched_edu.framework.plugins.nodevolumelimits.utils import (CSI_ATTACH_LIMIT_PREFIX, get_csi_attach_limit_key,
                                                                 is_csi_migration_on)
from ksched_edu.framework.types import CSI_NODE, PERSISTENT_VOLUME_CLAIM, POD, ActionType, ClusterEvent, NodeInfo
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle

EBS = {"name": "v", "awsElasticBlockStore": {"volumeID": "a"}}
GCE = {"name": "g", "gcePersistentDisk": {"pdName": "a"}}


def _node_info(*pods, limits=None):
    ni = NodeInfo(*pods)
    ni.set_node(make_node().name("node-1").capacity(limits or {}).obj())
    return ni


@pytest.mark.parametrize("volumes,want_skip", [
    ([], True),
    ([{"name": "h", "hostPath": {"path": "/tmp"}}], True),
    ([{"name": "e", "emptyDir": {}}, {"name": "c", "configMap": {"name": "cm"}}], True),
    ([EBS], False),
    ([GCE], False),
    ([{"name": "r", "rbd": {"monitors": ["m"], "image": "i"}}], False),
    ([{"name": "f", "azureFile": {"shareName": "s", "secretName": "x"}}], False),
    ([{"name": "p", "persistentVolumeClaim": {"claimName": "c"}}], False),
    ([{"name": "x", "ephemeral": {}}], False),
], ids=["no volumes", "hostPath", "emptyDir and configMap", "inline EBS", "inline GCE PD", "inline RBD",
        "inline Azure File", "claim", "ephemeral"])
def test_pre_filter(volumes, want_skip):
    w = make_pod().name("p")
    for v in volumes:
        w.volume(v)
    _, got = new_csi(None, FakeHandle()).pre_filter(CycleState(), w.obj())
    if want_skip:
        assert got is not None and got.code == Code.Skip
    else:
        assert got is None


def test_inline_volumes_count_only_when_migrated():
    # No CSINode: the in-tree plugin is not migrated, so the volume is left to the
    # in-tree limit plugins, even on a node whose CSI limit is 0.
    key = get_csi_attach_limit_key("ebs.csi.aws.com")
    pod = make_pod().name("p").volume(EBS).obj()
    existing = make_pod().name("q").volume({"name": "w", "awsElasticBlockStore": {"volumeID": "b"}}).obj()
    assert new_csi(None, FakeHandle()).filter(CycleState(), pod, _node_info(existing, limits={key: "0"})) is None


def test_filter_of_a_pod_without_volumes_is_success():
    assert new_csi(None, FakeHandle()).filter(CycleState(), make_pod().obj(), _node_info()) is None


@pytest.mark.parametrize("pod,want", [
    (make_pod().name("p").namespace("default").pvc("csi-ebs.csi.aws.com-0").obj(),
     (Code.UnschedulableAndUnresolvable,
      'looking up PVC default/csi-ebs.csi.aws.com-0: persistentvolumeclaim "csi-ebs.csi.aws.com-0" not found')),
    (make_pod().name("abc").namespace("test").volume({"name": "xyz", "ephemeral": {}}).obj(),
     (Code.UnschedulableAndUnresolvable, 'looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found')),
    (make_pod().name("p").volume({"name": "v", "persistentVolumeClaim": {"claimName": ""}}).obj(),
     (Code.Error, "PersistentVolumeClaim had no name")),
], ids=["missing claim", "ephemeral volume missing", "claim without a name"])
def test_missing_claims(pod, want):
    got = new_csi(None, FakeHandle()).filter(CycleState(), pod, _node_info())
    assert (got.code, got.get_reasons()) == (want[0], [want[1]])


def test_existing_pods_missing_claims_are_not_counted():
    existing = make_pod().name("q").pvc("gone").obj()
    pod = make_pod().name("p").volume(GCE).obj()
    assert new_csi(None, FakeHandle()).filter(CycleState(), pod, _node_info(existing)) is None


def test_get_csi_attach_limit_key():
    assert get_csi_attach_limit_key("ebs.csi.aws.com") == "attachable-volumes-csi-ebs.csi.aws.com"
    long_name = "a-very-long-csi-driver-name.example.storage.vendor.io"
    key = get_csi_attach_limit_key(long_name)
    # 23 characters of the name, then 16 hex digits of its sha1.
    assert key.startswith(CSI_ATTACH_LIMIT_PREFIX + long_name[:23])
    assert len(key) == len(CSI_ATTACH_LIMIT_PREFIX) + 23 + 16


def test_no_csi_node_means_no_migration():
    assert not is_csi_migration_on(None, "kubernetes.io/aws-ebs")
    assert is_inline_migratable(EBS) and not is_inline_migratable({"name": "e", "emptyDir": {}})


def test_name_and_events():
    p = new_csi(None, FakeHandle())
    assert p.name() == CSI_NAME == "NodeVolumeLimits"
    assert p.pre_filter_extensions() is None
    assert [e.event for e in p.events_to_register()] == [
        ClusterEvent(CSI_NODE, ActionType.Add),
        ClusterEvent(POD, ActionType.Delete),
        ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.Add),
    ]
