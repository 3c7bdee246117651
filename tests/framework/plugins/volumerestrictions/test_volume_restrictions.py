"""Mirrors pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions_test.go (v1.30):
TestGCEDiskConflicts, TestAWSDiskConflicts, TestRBDDiskConflicts,
TestISCSIDiskConflicts and TestAccessModeConflicts.

Each conflict case runs PreFilter and then, unless PreFilter skipped the pod (the
runtime then does not call Filter), Filter. The access-mode cases run against
the scheduler's snapshot of running pods and the claims the informer holds.
"""
from __future__ import annotations

import pytest

from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, Status
from ksched_edu.framework.plugins.volumerestrictions import NAME, new
from ksched_edu.framework.plugins.volumerestrictions.volume_restrictions import (
    ERR_REASON_DISK_CONFLICT, PRE_FILTER_STATE_KEY, PreFilterState)
from ksched_edu.framework.types import NODE, PERSISTENT_VOLUME_CLAIM, POD, ActionType, ClusterEvent, NodeInfo, PodInfo
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle


def _pod(*volumes: dict):
    w = make_pod().name("p")
    for v in volumes:
        w.volume(v)
    return w.obj()


def _node_info(*pods):
    ni = NodeInfo(*pods)
    ni.set_node(make_node().name("node1").obj())
    return ni


GCE_FOO = {"name": "v", "gcePersistentDisk": {"pdName": "foo"}}
GCE_BAR = {"name": "v", "gcePersistentDisk": {"pdName": "bar"}}
GCE_FOO_RO = {"name": "v", "gcePersistentDisk": {"pdName": "foo", "readOnly": True}}
AWS_FOO = {"name": "v", "awsElasticBlockStore": {"volumeID": "foo"}}
AWS_BAR = {"name": "v", "awsElasticBlockStore": {"volumeID": "bar"}}
RBD_AB = {"name": "v", "rbd": {"monitors": ["a", "b"], "pool": "foo", "image": "bar", "fsType": "ext4"}}
RBD_CD = {"name": "v", "rbd": {"monitors": ["c", "d"], "pool": "foo", "image": "bar", "fsType": "ext4"}}
RBD_B_DEFAULT_POOL = {"name": "v", "rbd": {"monitors": ["b"], "image": "bar"}}
RBD_A_POOL_RBD = {"name": "v", "rbd": {"monitors": ["a"], "pool": "rbd", "image": "bar"}}
ISCSI_2016 = {"name": "v", "iscsi": {"targetPortal": "127.0.0.1:3260", "iqn": "iqn.2016-12.server:storage.target01",
                                     "fsType": "ext4", "lun": 0}}
ISCSI_2017 = {"name": "v", "iscsi": {"targetPortal": "127.0.0.1:3260", "iqn": "iqn.2017-12.server:storage.target01",
                                     "fsType": "ext4", "lun": 0}}
ISCSI_2016_RO = {"name": "v", "iscsi": {"iqn": "iqn.2016-12.server:storage.target01", "readOnly": True}}

CONFLICT = (Code.Unschedulable, ERR_REASON_DISK_CONFLICT)


def _conflict_cases(kind: str, same: dict, different: dict):
    """The four rows every upstream Test<Kind>DiskConflicts table has."""
    return [
        (f"{kind}: nothing", _pod(), [], Code.Skip),
        (f"{kind}: one state", _pod(), [_pod(same)], Code.Skip),
        (f"{kind}: same state", _pod(same), [_pod(same)], CONFLICT),
        (f"{kind}: different state", _pod(different), [_pod(same)], None),
    ]


_CASES = (_conflict_cases("GCE", GCE_FOO, GCE_BAR) + _conflict_cases("AWS", AWS_FOO, AWS_BAR)
          + _conflict_cases("RBD", RBD_AB, RBD_CD) + _conflict_cases("ISCSI", ISCSI_2016, ISCSI_2017) + [
    ("GCE: read-only on both sides", _pod(GCE_FOO_RO), [_pod(GCE_FOO_RO)], None),
    ("GCE: read-only on one side only", _pod(GCE_FOO_RO), [_pod(GCE_FOO)], CONFLICT),
    ("ISCSI: read-only on both sides", _pod(ISCSI_2016_RO), [_pod(ISCSI_2016_RO)], None),
    ("RBD: an empty pool is the default pool rbd", _pod(RBD_B_DEFAULT_POOL),
     [_pod({"name": "v", "rbd": {"monitors": ["b", "x"], "pool": "rbd", "image": "bar"}})], CONFLICT),
    ("RBD: no shared monitor", _pod(RBD_A_POOL_RBD), [_pod(RBD_B_DEFAULT_POOL)], None),
    ("AWS: a conflict with any pod on the node", _pod(AWS_FOO), [_pod(GCE_FOO), _pod(AWS_BAR, AWS_FOO)], CONFLICT),
])


@pytest.mark.parametrize("name,pod,existing,want", _CASES, ids=[c[0] for c in _CASES])
def test_disk_conflicts(name, pod, existing, want):
    p = new(None, FakeHandle())
    state = CycleState()
    _, pre_status = p.pre_filter(state, pod)
    if want == Code.Skip:
        assert pre_status is not None and pre_status.code == Code.Skip
        return
    assert pre_status is None
    got = p.filter(state, pod, _node_info(*existing))
    if want is None:
        assert got is None
    else:
        assert (got.code, got.get_reasons()) == (want[0], [want[1]])


def test_filter_rejects_a_conflict_before_reading_the_state():
    # Upstream checks volume conflicts first: no PreFilter state is needed to reject.
    got = new(None, FakeHandle()).filter(CycleState(), _pod(GCE_FOO), _node_info(_pod(GCE_FOO)))
    assert (got.code, got.get_reasons()) == (Code.Unschedulable, [ERR_REASON_DISK_CONFLICT])


def test_filter_without_pre_filter_is_an_error():
    got = new(None, FakeHandle()).filter(CycleState(), _pod(GCE_BAR), _node_info(_pod(GCE_FOO)))
    assert got == Status.as_status(f'cannot read "{PRE_FILTER_STATE_KEY}" from cycleState')


# TestAccessModeConflicts, the rows that need no PersistentVolumeClaim object (the others follow).
_ACCESS_MODE = [
    ("nothing", make_pod().obj(), (Code.Skip,)),
    ("failed to get PVC",
     make_pod().namespace("default").name("pod-with-rwop").node("node-1").pvc("claim-with-rwop").obj(),
     (Code.UnschedulableAndUnresolvable, 'persistentvolumeclaim "claim-with-rwop" not found')),
]


@pytest.mark.parametrize("name,pod,want", _ACCESS_MODE, ids=[c[0] for c in _ACCESS_MODE])
def test_access_mode_conflicts(name, pod, want):
    _, got = new(None, FakeHandle()).pre_filter(CycleState(), pod)
    assert (got.code, *got.get_reasons()) == want


def test_a_claim_with_an_inline_disk_still_fails_on_the_claim():
    pod = make_pod().name("p").volume(GCE_FOO).pvc("data").obj()
    _, got = new(None, FakeHandle()).pre_filter(CycleState(), pod)
    assert (got.code, got.get_reasons()) == (Code.UnschedulableAndUnresolvable,
                                            ['persistentvolumeclaim "data" not found'])


def test_add_remove_pod_keep_the_read_write_once_pod_count():
    # The state a pod with a ReadWriteOncePod claim carries, written here by hand.
    p = new(None, FakeHandle())
    state = CycleState()
    s = PreFilterState({"rwop"}, 0)
    state.write(PRE_FILTER_STATE_KEY, s)
    other = PodInfo.of(make_pod().name("q").pvc("rwop").pvc("rwx").obj())
    node_info = _node_info()
    assert p.add_pod(state, make_pod().obj(), other, node_info) is None
    assert s.conflicting_pvc_ref_count == 1
    got = p.filter(state, make_pod().obj(), node_info)
    assert (got.code, got.get_reasons()) == (
        Code.Unschedulable,
        ["node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode"])
    assert p.remove_pod(state, make_pod().obj(), other, node_info) is None
    assert s.conflicting_pvc_ref_count == 0
    assert p.filter(state, make_pod().obj(), node_info) is None


def test_extensions_and_events():
    p = new(None, FakeHandle())
    assert p.name() == NAME == "VolumeRestrictions"
    assert p.pre_filter_extensions() is p
    assert [e.event for e in p.events_to_register()] == [
        ClusterEvent(POD, ActionType.Delete),
        ClusterEvent(NODE, ActionType.Add),
        ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.Add | ActionType.Update),
    ]


# TestAccessModeConflicts, the rows with claims: a ReadWriteOncePod claim already used by a
# scheduled pod makes every node fail; other access modes never conflict.
def _rwop_rows():
    from tests.framework.plugins.storage_objects import pvc
    rwop = pvc("claim-with-rwop", "", bound_pv="pv-1", modes=("ReadWriteOncePod",))
    rwop2 = pvc("claim-with-rwop-2", "", bound_pv="pv-2", modes=("ReadWriteOncePod",))
    rwo = pvc("claim-with-rwo", "", bound_pv="pv-3")
    in_use = make_pod().namespace("default").name("pod-using").node("node-1").pvc("claim-with-rwop").obj()
    in_use_2 = make_pod().namespace("default").name("pod-using-2").node("node-1").pvc("claim-with-rwop-2").obj()
    new_pod = make_pod().namespace("default").name("pod-with-rwop").pvc("claim-with-rwop").obj()
    two = make_pod().namespace("default").name("two").pvc("claim-with-rwop").pvc("claim-with-rwop-2").obj()
    rwo_pod = make_pod().namespace("default").name("pod-rwo").pvc("claim-with-rwo").obj()
    conflict = (Code.Unschedulable,
                "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode")
    claims = [rwop, rwop2, rwo]
    return [
        # No scheduled user: nothing to check, PreFilter skips the plugin.
        ("no access mode conflict", new_pod, [], claims, (Code.Skip,)),
        ("access mode conflict, unschedulable", new_pod, [in_use], claims, conflict),
        ("two conflicts", two, [in_use, in_use_2], claims, conflict),
        ("another claim's user does not conflict", new_pod, [in_use_2], claims, (Code.Skip,)),
        ("ReadWriteOnce claims do not count", rwo_pod, [in_use], claims, (Code.Skip,)),
    ]


@pytest.mark.parametrize("name,pod,existing,claims,want", _rwop_rows(), ids=[r[0] for r in _rwop_rows()])
def test_access_mode_conflicts_with_claims(name, pod, existing, claims, want):
    node = make_node().name("node-1").obj()
    p = new(None, FakeHandle(pods=existing, nodes=[node], objects=claims))
    state = CycleState()
    _, got = p.pre_filter(state, pod)
    if got is not None:
        assert (got.code, *got.get_reasons()) == want
        return
    node_info = NodeInfo(*existing)
    node_info.set_node(node)
    got = p.filter(state, pod, node_info)
    assert (None if got is None else (got.code, *got.get_reasons())) == want
