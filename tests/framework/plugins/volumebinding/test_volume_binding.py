"""Mirrors pkg/scheduler/framework/plugins/volumebinding/volume_binding_test.go (v1.30),
the rows that need no PersistentVolumeClaim object (the others are in
test_volume_binding_table.py) ("pod has not pvcs",
"pvc not found", a generic ephemeral volume whose claim is not created yet), and
the whole cycle a claim-free pod goes through: PreFilter Skip, PreScore Skip,
Reserve, PreBind, Unreserve.
"""
from __future__ import annotations

import pytest

from ksched_edu.config.types_pluginargs import UtilizationShapePoint, VolumeBindingArgs
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, Status
from ksched_edu.framework.plugins.volumebinding import NAME, new
from ksched_edu.framework.plugins.volumebinding.volume_binding import STATE_KEY, StateData
from ksched_edu.framework.types import (CSI_DRIVER, CSI_NODE, CSI_STORAGE_CAPACITY, NODE, PERSISTENT_VOLUME,
                                        PERSISTENT_VOLUME_CLAIM, STORAGE_CLASS, ActionType, ClusterEvent, NodeInfo)
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle

_PRE_FILTER = [
    ("pod has not pvcs", make_pod().name("pod-a").namespace("default").obj(), (Code.Skip,)),
    ("pod with only inline volumes", make_pod().name("pod-a").volume({"name": "v", "emptyDir": {}})
     .volume({"name": "w", "gcePersistentDisk": {"pdName": "d"}}).obj(), (Code.Skip,)),
    ("pvc not found", make_pod().name("pod-a").namespace("default").pvc("pvc-a").obj(),
     (Code.UnschedulableAndUnresolvable, 'persistentvolumeclaim "pvc-a" not found')),
    ("generic ephemeral volume not created yet",
     make_pod().name("pod-a").namespace("default").volume({"name": "scratch", "ephemeral": {}}).obj(),
     (Code.UnschedulableAndUnresolvable,
      'waiting for ephemeral volume controller to create the persistentvolumeclaim "pod-a-scratch"')),
]


@pytest.mark.parametrize("name,pod,want", _PRE_FILTER, ids=[c[0] for c in _PRE_FILTER])
def test_pre_filter(name, pod, want):
    state = CycleState()
    _, got = new(None, FakeHandle()).pre_filter(state, pod)
    assert (got.code, *got.get_reasons()) == want
    if want[0] == Code.Skip:
        # The state is written even on Skip: Reserve and PreBind read it.
        assert state.read(STATE_KEY) == StateData()


def test_a_pod_without_claims_goes_through_the_cycle():
    p = new(None, FakeHandle())
    pod = make_pod().name("pod-a").obj()
    node_info = NodeInfo()
    node_info.set_node(make_node().name("node-a").obj())
    state = CycleState()
    _, status = p.pre_filter(state, pod)
    assert status.code == Code.Skip
    # The VolumeCapacityPriority gate is off: no scorer, PreScore skips Score.
    assert p.pre_score(state, pod, [node_info]).code == Code.Skip
    assert p.score(state, pod, "node-a") == (0, None)
    assert p.score_extensions() is None
    assert p.reserve(state, pod, "node-a") is None
    assert state.read(STATE_KEY).all_bound is True
    assert p.pre_bind(state, pod, "node-a") is None
    assert p.unreserve(state, pod, "node-a") is None


def test_steps_without_state():
    p = new(None, FakeHandle())
    pod = make_pod().name("pod-a").obj()
    assert p.reserve(CycleState(), pod, "node-a") == Status.as_status("not found")
    assert p.pre_bind(CycleState(), pod, "node-a") == Status.as_status("not found")
    assert p.unreserve(CycleState(), pod, "node-a") is None


def test_pre_bind_without_volumes_for_the_node():
    state = CycleState()
    state.write(STATE_KEY, StateData(all_bound=False))
    got = new(None, FakeHandle()).pre_bind(state, make_pod().obj(), "node-a")
    assert got == Status.as_status('no pod volumes found for node "node-a"')


@pytest.mark.parametrize("args,want", [
    (VolumeBindingArgs(bind_timeout_seconds=-1),
     "bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value"),
    (VolumeBindingArgs(bind_timeout_seconds=600, shape=[UtilizationShapePoint(0, 0), UtilizationShapePoint(100, 10)]),
     "shape: Invalid value: []config.UtilizationShapePoint{config.UtilizationShapePoint{Utilization:0, Score:0}, "
     "config.UtilizationShapePoint{Utilization:100, Score:10}}: unexpected field `shape`, remove it or turn on the "
     "feature gate VolumeCapacityPriority"),
], ids=["negative bind timeout", "shape without the feature gate"])
def test_new_validates_args(args, want):
    with pytest.raises(ValueError) as err:
        new(args, FakeHandle())
    assert str(err.value) == want


def test_extensions_and_events():
    p = new(VolumeBindingArgs(bind_timeout_seconds=600), FakeHandle())
    assert p.name() == NAME == "VolumeBinding"
    assert p.pre_filter_extensions() is None
    add_or_update = ActionType.Add | ActionType.Update
    assert [e.event for e in p.events_to_register()] == [
        ClusterEvent(STORAGE_CLASS, add_or_update),
        ClusterEvent(PERSISTENT_VOLUME_CLAIM, add_or_update),
        ClusterEvent(PERSISTENT_VOLUME, add_or_update),
        ClusterEvent(NODE, ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint),
        ClusterEvent(CSI_NODE, add_or_update),
        ClusterEvent(CSI_DRIVER, add_or_update),
        ClusterEvent(CSI_STORAGE_CAPACITY, add_or_update),
    ]
