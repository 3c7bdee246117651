"""Mirrors pkg/scheduler/framework/plugins/nodevolumelimits/non_csi_test.go (v1.30):
the inline-volume rows of TestEBSLimits and TestAzureDiskLimits, the
missing-claim rows, TestGetMaxVols, and the PreFilter Skip of every in-tree
limit plugin.

The rows that count volumes behind PersistentVolumeClaims are in test_csi_claims.py.
"""
from __future__ import annotations

import pytest

from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.nodevolumelimits import (AZURE_DISK_NAME, CINDER_NAME, EBS_NAME, GCEPD_NAME,
                                                           new_azure_disk, new_cinder, new_ebs, new_gcepd)
from ksched_edu.framework.plugins.nodevolumelimits.non_csi import (
    AZURE_DISK_VOLUME_FILTER_TYPE, EBS_VOLUME_FILTER_TYPE, ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED, KUBE_MAX_PD_VOLS,
    get_max_vol_limit_from_env, get_max_volume_func)
from ksched_edu.framework.plugins.nodevolumelimits.utils import (AZURE_VOLUME_LIMIT_KEY, EBS_VOLUME_LIMIT_KEY,
                                                                 volume_limits)
from ksched_edu.framework.types import NODE, PERSISTENT_VOLUME_CLAIM, POD, ActionType, ClusterEvent, NodeInfo
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle

FACTORIES = {EBS_NAME: new_ebs, GCEPD_NAME: new_gcepd, AZURE_DISK_NAME: new_azure_disk, CINDER_NAME: new_cinder}


def _pod(name: str, source: str, *ids: str, extra: tuple = ()):
    w = make_pod().name(name)
    for v in extra:
        w.volume(v)
    id_field = {"awsElasticBlockStore": "volumeID", "azureDisk": "diskName"}[source]
    for i, vol_id in enumerate(ids):
        w.volume({"name": f"v{i}", source: {id_field: vol_id}})
    return w.obj()


HOST_PATH = {"name": "h", "hostPath": {"path": "/tmp"}}


def _pods(source: str):
    """oneVolPod, twoVolPod, splitVolsPod, nonApplicablePod, emptyPod of upstream."""
    return {
        "one": _pod("one", source, "ovp"),
        "two": _pod("two", source, "tvp1", "tvp2"),
        "split": _pod("split", source, "svp", extra=(HOST_PATH,)),
        "non-applicable": make_pod().name("non-applicable").volume(HOST_PATH).obj(),
        "empty": make_pod().name("empty").obj(),
    }


def _node_info(existing, limit_key: str, max_vols: int):
    """Upstream getNodeWithPodAndVolumeLimits: the limit in the node's allocatable."""
    ni = NodeInfo(*existing)
    ni.set_node(make_node().name("node").capacity({limit_key: str(max_vols)}).obj())
    return ni


EXCEEDED = (Code.Unschedulable, ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED)

# (name, new pod, existing pods, max volumes, want)
_EBS = [
    ("fits when node capacity >= new pod's EBS volumes", "one", ["two", "one"], 4, None),
    ("doesn't fit when node capacity < new pod's EBS volumes", "two", ["one"], 2, EXCEEDED),
    ("new pod's count ignores non-EBS volumes", "split", ["two"], 3, None),
    ("existing pods' counts ignore non-EBS volumes", "two", ["split", "non-applicable", "empty"], 3, None),
    ("the same EBS volumes are not counted multiple times", "split", ["one", "one"], 2, None),
    ("already-mounted EBS volumes are always ok to allow", "two", ["one", "two"], 3, None),
]
_AZURE = [
    ("fits when node capacity >= new pod's AzureDisk volumes", "one", ["two", "one"], 4, None),
    ("fit when node capacity < new pod's AzureDisk volumes", "two", ["one"], 2, EXCEEDED),
    ("new pod's count ignores non-AzureDisk volumes", "split", ["two"], 3, None),
    ("existing pods' counts ignore non-AzureDisk volumes", "two", ["split", "non-applicable", "empty"], 3, None),
]


def _run(factory, source, limit_key, new_pod, existing, max_vols):
    pods = _pods(source)
    p = factory(None, FakeHandle())
    pod = pods[new_pod]
    _, pre_status = p.pre_filter(CycleState(), pod)
    assert pre_status is None
    return p.filter(CycleState(), pod, _node_info([pods[e] for e in existing], limit_key, max_vols))


def _check(got, want):
    if want is None:
        assert got is None
    else:
        assert (got.code, got.get_reasons()) == (want[0], [want[1]])


@pytest.mark.parametrize("name,new_pod,existing,max_vols,want", _EBS, ids=[c[0] for c in _EBS])
def test_ebs_limits(name, new_pod, existing, max_vols, want):
    _check(_run(new_ebs, "awsElasticBlockStore", EBS_VOLUME_LIMIT_KEY, new_pod, existing, max_vols), want)


@pytest.mark.parametrize("name,new_pod,existing,max_vols,want", _AZURE, ids=[c[0] for c in _AZURE])
def test_azure_disk_limits(name, new_pod, existing, max_vols, want):
    _check(_run(new_azure_disk, "azureDisk", AZURE_VOLUME_LIMIT_KEY, new_pod, existing, max_vols), want)


_MISSING_CLAIMS = [
    ("new pod's missing claim is unresolvable", make_pod().name("p").namespace("test").pvc("deletedPVC").obj(),
     (Code.UnschedulableAndUnresolvable,
      'looking up PVC test/deletedPVC: persistentvolumeclaim "deletedPVC" not found')),
    ("ephemeral volume missing",
     make_pod().name("abc").namespace("test").uid("12345").volume({"name": "xyz", "ephemeral": {}}).obj(),
     (Code.UnschedulableAndUnresolvable, 'looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found')),
    ("claim without a name", make_pod().name("p").volume({"name": "v", "persistentVolumeClaim": {}}).obj(),
     (Code.Error, "PersistentVolumeClaim had no name")),
]


@pytest.mark.parametrize("name,pod,want", _MISSING_CLAIMS, ids=[c[0] for c in _MISSING_CLAIMS])
def test_missing_claims(name, pod, want):
    p = new_gcepd(None, FakeHandle())
    _, pre_status = p.pre_filter(CycleState(), pod)
    assert pre_status is None
    got = p.filter(CycleState(), pod, _node_info([], "attachable-volumes-gce-pd", 16))
    assert (got.code, got.get_reasons()) == (want[0], [want[1]])


def test_existing_pods_missing_claims_are_not_counted():
    pods = _pods("awsElasticBlockStore")
    existing = [pods["one"], make_pod().name("deleted").pvc("deletedPVC").pvc("anotherDeletedPVC").obj()]
    # upstream "two missing PVCs are not counted towards the PV limit twice", with an inline new volume.
    got = new_ebs(None, FakeHandle()).filter(CycleState(), pods["split"],
                                             _node_info(existing, EBS_VOLUME_LIMIT_KEY, 2))
    assert got is None


@pytest.mark.parametrize("plugin", list(FACTORIES))
@pytest.mark.parametrize("pod", [
    make_pod().name("no-volumes").obj(),
    make_pod().name("host-path").volume(HOST_PATH).obj(),
    make_pod().name("config-map").volume({"name": "c", "configMap": {"name": "cm"}}).obj(),
], ids=["no volumes", "hostPath", "configMap"])
def test_pre_filter_skips_pods_without_relevant_volumes(plugin, pod):
    _, got = FACTORIES[plugin](None, FakeHandle()).pre_filter(CycleState(), pod)
    assert got is not None and got.code == Code.Skip


@pytest.mark.parametrize("plugin,volume", [
    (EBS_NAME, {"name": "v", "awsElasticBlockStore": {"volumeID": "a"}}),
    (GCEPD_NAME, {"name": "v", "gcePersistentDisk": {"pdName": "a"}}),
    (AZURE_DISK_NAME, {"name": "v", "azureDisk": {"diskName": "a"}}),
    (CINDER_NAME, {"name": "v", "cinder": {"volumeID": "a"}}),
    (EBS_NAME, {"name": "v", "persistentVolumeClaim": {"claimName": "c"}}),
    (GCEPD_NAME, {"name": "v", "ephemeral": {}}),
])
def test_pre_filter_runs_for_own_volumes_and_claims(plugin, volume):
    _, got = FACTORIES[plugin](None, FakeHandle()).pre_filter(CycleState(), make_pod().name("p").volume(volume).obj())
    assert got is None


def test_pre_filter_skips_other_kinds_of_disk():
    pod = make_pod().name("p").volume({"name": "v", "gcePersistentDisk": {"pdName": "a"}}).obj()
    _, got = new_ebs(None, FakeHandle()).pre_filter(CycleState(), pod)
    assert got.code == Code.Skip


# TestGetMaxVols
@pytest.mark.parametrize("raw,want", [("", -1), ("-2", -1), ("40", 40), ("abc", -1)],
                         ids=["unset", "negative", "set", "not a number"])
def test_get_max_vols(monkeypatch, raw, want):
    monkeypatch.setenv(KUBE_MAX_PD_VOLS, raw)
    assert get_max_vol_limit_from_env() == want


@pytest.mark.parametrize("filter_type,labels,env,want", [
    (EBS_VOLUME_FILTER_TYPE, {}, "", 39),
    (EBS_VOLUME_FILTER_TYPE, {"node.kubernetes.io/instance-type": "m5.large"}, "", 25),
    (EBS_VOLUME_FILTER_TYPE, {"beta.kubernetes.io/instance-type": "t3.medium"}, "", 25),
    (EBS_VOLUME_FILTER_TYPE, {"node.kubernetes.io/instance-type": "m4.large"}, "", 39),
    (AZURE_DISK_VOLUME_FILTER_TYPE, {}, "", 16),
    (EBS_VOLUME_FILTER_TYPE, {"node.kubernetes.io/instance-type": "m5.large"}, "7", 7),
], ids=["ebs default", "ebs nitro", "ebs t3 beta label", "ebs non-nitro", "azure default", "env overrides"])
def test_max_volume_func(monkeypatch, filter_type, labels, env, want):
    monkeypatch.setenv(KUBE_MAX_PD_VOLS, env)
    assert get_max_volume_func(filter_type)(make_node().name("n").labels(labels).obj()) == want


def test_volume_limits_reads_attachable_volumes_only():
    ni = NodeInfo()
    ni.set_node(make_node().name("n").capacity({EBS_VOLUME_LIMIT_KEY: "3", "nvidia.com/gpu": "2"}).obj())
    assert volume_limits(ni) == {EBS_VOLUME_LIMIT_KEY: 3}


@pytest.mark.parametrize("plugin", list(FACTORIES))
def test_names_and_events(plugin):
    p = FACTORIES[plugin](None, FakeHandle())
    assert p.name() == plugin
    assert p.pre_filter_extensions() is None
    assert [e.event for e in p.events_to_register()] == [
        ClusterEvent(NODE, ActionType.Add),
        ClusterEvent(POD, ActionType.Delete),
        ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.Add),
    ]
