"""Mirrors pkg/scheduler/framework/plugins/volumezone/volume_zone_test.go (v1.30).

The PreFilter rows here check the Skip and the missing-claim answers (the rows
with claims and volumes are in test_volume_zone_claims.py), and the Filter rows of
TestSingleZone / TestMultiZone start from the topologies PreFilter would have
recorded for each upstream volume (Vol_1, Vol_Stable_3, ...).
"""
from __future__ import annotations

import pytest

from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.volumezone import NAME, new
from ksched_edu.framework.plugins.volumezone.volume_zone import (
    ERR_REASON_CONFLICT, LABEL_FAILURE_DOMAIN_BETA_REGION as BETA_REGION, LABEL_FAILURE_DOMAIN_BETA_ZONE as BETA_ZONE,
    LABEL_TOPOLOGY_REGION as REGION, LABEL_TOPOLOGY_ZONE as ZONE, PRE_FILTER_STATE_KEY, PVTopology, StateData)
from ksched_edu.framework.types import (NODE, PERSISTENT_VOLUME, PERSISTENT_VOLUME_CLAIM, STORAGE_CLASS, ActionType,
                                        ClusterEvent, NodeInfo)
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle


def _pod_with_volume(pvc: str):
    """Upstream createPodWithVolume."""
    return make_pod().name("pod_1").namespace("default").pvc(pvc).obj()


_PRE_FILTER = [
    ("pod without volume", make_pod().name("pod_1").namespace("default").obj(), (Code.Skip,)),
    ("pod with a non-claim volume", make_pod().name("pod_1").volume({"name": "v", "emptyDir": {}}).obj(),
     (Code.Skip,)),
    ("claim not found", _pod_with_volume("PVC_1"),
     (Code.UnschedulableAndUnresolvable, 'persistentvolumeclaim "PVC_1" not found')),
    ("claim without a name", make_pod().name("pod_1").volume({"name": "v", "persistentVolumeClaim": {}}).obj(),
     (Code.UnschedulableAndUnresolvable, "PersistentVolumeClaim had no name")),
]


@pytest.mark.parametrize("name,pod,want", _PRE_FILTER, ids=[c[0] for c in _PRE_FILTER])
def test_pre_filter(name, pod, want):
    _, got = new(None, FakeHandle()).pre_filter(CycleState(), pod)
    assert (got.code, *got.get_reasons()) == want


def test_filter_without_state_falls_back_to_the_claims():
    node_info = NodeInfo()
    node_info.set_node(make_node().name("host1").label(ZONE, "us-west1-a").obj())
    got = new(None, FakeHandle()).filter(CycleState(), _pod_with_volume("PVC_1"), node_info)
    assert (got.code, got.get_reasons()) == (Code.UnschedulableAndUnresolvable,
                                            ['persistentvolumeclaim "PVC_1" not found'])


# The topologies upstream's PreFilter reads from each test volume's labels.
VOLUMES = {
    "Vol_1": [PVTopology("Vol_1", BETA_ZONE, {"us-west1-a"})],
    "Vol_2": [PVTopology("Vol_2", BETA_REGION, {"us-west1"})],
    "Vol_3_multi": [PVTopology("Vol_3", BETA_ZONE, {"us-west1-c", "us-west1-a"})],
    "Vol_Stable_1": [PVTopology("Vol_Stable_1", ZONE, {"us-west1-a"})],
    "Vol_Stable_2": [PVTopology("Vol_Stable_2", REGION, {"us-west1"})],
    "Vol_Stable_2_multi": [PVTopology("Vol_Stable_2", ZONE, {"us-west1-c", "us-west1-a"})],
    "Vol_Stable_3": [PVTopology("Vol_Stable_3", ZONE, {"us-west1-a"}),
                     PVTopology("Vol_Stable_3", REGION, {"us-west1-a"})],
}
CONFLICT = (Code.UnschedulableAndUnresolvable, ERR_REASON_CONFLICT)

_FILTER = [
    # TestSingleZone
    ("node without labels", "Vol_1", {}, None),
    ("beta zone label matched", "Vol_1", {BETA_ZONE: "us-west1-a", "uselessLabel": "none"}, None),
    ("beta region label matched", "Vol_2", {BETA_REGION: "us-west1", "uselessLabel": "none"}, None),
    ("beta region label doesn't match", "Vol_2", {BETA_REGION: "no_us-west1", "uselessLabel": "none"}, CONFLICT),
    ("beta zone label doesn't match", "Vol_1", {BETA_ZONE: "no_us-west1-a", "uselessLabel": "none"}, CONFLICT),
    ("zone label matched", "Vol_Stable_1", {ZONE: "us-west1-a", "uselessLabel": "none"}, None),
    ("region label matched", "Vol_Stable_2", {REGION: "us-west1", "uselessLabel": "none"}, None),
    ("region label doesn't match", "Vol_Stable_2", {REGION: "no_us-west1", "uselessLabel": "none"}, CONFLICT),
    ("zone label doesn't match", "Vol_Stable_1", {ZONE: "no_us-west1-a", "uselessLabel": "none"}, CONFLICT),
    ("pv with zone and region, node with only zone", "Vol_Stable_3", {ZONE: "us-west1-a"}, CONFLICT),
    ("pv with zone,node with beta zone", "Vol_Stable_1", {BETA_ZONE: "us-west1-a"}, CONFLICT),
    ("pv with beta label,node with ga label, matched", "Vol_1", {ZONE: "us-west1-a"}, None),
    ("pv with beta label,node with ga label, don't match", "Vol_1", {ZONE: "us-west1-b"}, CONFLICT),
    # TestMultiZone
    ("multi: node without labels", "Vol_3_multi", {}, None),
    ("multi: beta zone label matched", "Vol_3_multi", {BETA_ZONE: "us-west1-a", "uselessLabel": "none"}, None),
    ("multi: beta zone label doesn't match", "Vol_1", {BETA_ZONE: "us-west1-b", "uselessLabel": "none"}, CONFLICT),
    ("multi: zone label matched", "Vol_Stable_2_multi", {ZONE: "us-west1-a", "uselessLabel": "none"}, None),
    ("multi: zone label doesn't match", "Vol_Stable_1", {ZONE: "us-west1-b", "uselessLabel": "none"}, CONFLICT),
]


@pytest.mark.parametrize("name,volume,node_labels,want", _FILTER, ids=[c[0] for c in _FILTER])
def test_filter(name, volume, node_labels, want):
    state = CycleState()
    state.write(PRE_FILTER_STATE_KEY, StateData(VOLUMES[volume]))
    node_info = NodeInfo()
    node_info.set_node(make_node().name("host1").labels(node_labels).obj())
    got = new(None, FakeHandle()).filter(state, _pod_with_volume("PVC"), node_info)
    if want is None:
        assert got is None
    else:
        assert (got.code, got.get_reasons()) == (want[0], [want[1]])


def test_filter_of_a_pod_without_volumes_is_success():
    node_info = NodeInfo()
    node_info.set_node(make_node().name("host1").label(ZONE, "a").obj())
    assert new(None, FakeHandle()).filter(CycleState(), make_pod().obj(), node_info) is None


def test_extensions_and_events():
    p = new(None, FakeHandle())
    assert p.name() == NAME == "VolumeZone"
    assert p.pre_filter_extensions() is None
    assert [e.event for e in p.events_to_register()] == [
        ClusterEvent(STORAGE_CLASS, ActionType.Add),
        ClusterEvent(NODE, ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint),
        ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.Add),
        ClusterEvent(PERSISTENT_VOLUME, ActionType.Add | ActionType.Update),
    ]
