"""Mirrors TestSingleZone, TestMultiZone and TestWithBinding in
pkg/scheduler/framework/plugins/volumezone/volume_zone_test.go (v1.30), with the
claims and volumes of upstream's fixtures (PVC_1 -> Vol_1 in us-west1-a, ...)."""
from __future__ import annotations

import pytest

from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.volumezone import new
from ksched_edu.framework.plugins.volumezone.volume_zone import ERR_REASON_CONFLICT
from ksched_edu.framework.types import NodeInfo
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle
from tests.framework.plugins.storage_objects import IMMEDIATE, WAIT, pv, pvc, storage_class

BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"
BETA_REGION = "failure-domain.beta.kubernetes.io/region"
ZONE = "topology.kubernetes.io/zone"
REGION = "topology.kubernetes.io/region"

VOLUMES = [
    pv("Vol_1", labels={BETA_ZONE: "us-west1-a"}),
    pv("Vol_2", labels={BETA_REGION: "us-west1", "uselessLabel": "none"}),
    pv("Vol_3", labels={BETA_REGION: "us-west1"}),
    pv("Vol_Stable_1", labels={ZONE: "us-west1-a"}),
    pv("Vol_Stable_2", labels={REGION: "us-west1", "uselessLabel": "none"}),
    pv("Vol_Stable_3", labels={REGION: "us-west1"}),
    pv("Vol_Multi_1", labels={BETA_ZONE: "us-west1-a__us-west1-b"}),
    pv("Vol_Multi_2", labels={BETA_ZONE: "us-west1-a__us-west1-b"}),
]
CLAIMS = [pvc(c, bound_pv=v) for c, v in [
    ("PVC_1", "Vol_1"), ("PVC_2", "Vol_2"), ("PVC_3", "Vol_3"), ("PVC_4", "Vol_not_exist"),
    ("PVC_Stable_1", "Vol_Stable_1"), ("PVC_Stable_2", "Vol_Stable_2"), ("PVC_Stable_3", "Vol_Stable_3"),
    ("PVC_Multi_1", "Vol_Multi_1")]]


def _node(labels):
    info = NodeInfo()
    w = make_node().name("host1")
    for k, v in labels.items():
        w = w.label(k, v)
    info.set_node(w.obj())
    return info


def _pod(*claims):
    w = make_pod().name("pod_1").namespace("default")
    for c in claims:
        w = w.pvc(c)
    return w.obj()


def _run(pod, node_labels, objects):
    pl = new(None, FakeHandle(objects=objects))
    state = CycleState()
    _, status = pl.pre_filter(state, pod)
    if status is not None:
        return status
    return pl.filter(state, pod, _node(node_labels))


def _result(status):
    return None if status is None else (status.code, *status.get_reasons())


CONFLICT = (Code.UnschedulableAndUnresolvable, ERR_REASON_CONFLICT)

SINGLE_ZONE = [
    ("pod without volume", make_pod().name("pod_1").namespace("default").obj(), {BETA_ZONE: "us-west1-a"},
     (Code.Skip,)),
    ("node without labels", _pod("PVC_1"), {}, None),
    ("beta zone label matched", _pod("PVC_1"), {BETA_ZONE: "us-west1-a", "uselessLabel": "none"}, None),
    ("beta region label matched", _pod("PVC_2"), {BETA_REGION: "us-west1", "uselessLabel": "none"}, None),
    ("beta region label doesn't match", _pod("PVC_2"), {BETA_REGION: "no_us-west1", "uselessLabel": "none"},
     CONFLICT),
    ("beta zone label doesn't match", _pod("PVC_1"), {BETA_ZONE: "no_us-west1-a", "uselessLabel": "none"}, CONFLICT),
    ("zone label matched", _pod("PVC_Stable_1"), {ZONE: "us-west1-a", "uselessLabel": "none"}, None),
    ("region label matched", _pod("PVC_Stable_2"), {REGION: "us-west1", "uselessLabel": "none"}, None),
    ("region label doesn't match", _pod("PVC_Stable_2"), {REGION: "no_us-west1", "uselessLabel": "none"},
     CONFLICT),
    ("zone label doesn't match", _pod("PVC_Stable_1"), {ZONE: "no_us-west1-a", "uselessLabel": "none"}, CONFLICT),
    ("pv with zone and region, node with only zone", _pod("PVC_Stable_1", "PVC_Stable_3"), {ZONE: "us-west1-a"},
     CONFLICT),
    ("beta label on the volume, GA label on the node", _pod("PVC_1"), {ZONE: "us-west1-a"}, None),
]

MULTI_ZONE = [
    ("node without labels", _pod("PVC_Multi_1"), {}, None),
    ("one of the zones matched", _pod("PVC_Multi_1"), {BETA_ZONE: "us-west1-b"}, None),
    ("none of the zones matched", _pod("PVC_Multi_1"), {BETA_ZONE: "us-west1-c"}, CONFLICT),
    ("PVC_3 and PVC_1 zone and region matched", _pod("PVC_1", "PVC_3"),
     {BETA_ZONE: "us-west1-a", BETA_REGION: "us-west1"}, None),
    ("PVC_1 zone doesn't match", _pod("PVC_1", "PVC_3"), {BETA_ZONE: "us-west1-b", BETA_REGION: "us-west1"},
     CONFLICT),
]


@pytest.mark.parametrize("name,pod,labels,want", SINGLE_ZONE, ids=[r[0] for r in SINGLE_ZONE])
def test_single_zone(name, pod, labels, want):
    assert _result(_run(pod, labels, [*CLAIMS, *VOLUMES])) == want


@pytest.mark.parametrize("name,pod,labels,want", MULTI_ZONE, ids=[r[0] for r in MULTI_ZONE])
def test_multi_zone(name, pod, labels, want):
    assert _result(_run(pod, labels, [*CLAIMS, *VOLUMES])) == want


WITH_BINDING = [
    ("label zone failure domain matched", _pod("PVC_1"), None),
    ("unbound volume empty storage class", _pod("PVC_EmptySC"),
     (Code.UnschedulableAndUnresolvable, "PersistentVolumeClaim had no pv name and storageClass name")),
    ("unbound volume no storage class", _pod("PVC_NoSC"),
     (Code.UnschedulableAndUnresolvable, 'storageclass.storage.k8s.io "Class_0" not found')),
    ("unbound volume immediate binding mode", _pod("PVC_ImmediateSC"),
     (Code.UnschedulableAndUnresolvable, "PersistentVolume had no name")),
    ("unbound volume wait binding mode", _pod("PVC_WaitSC"), (Code.Skip,)),
    ("bound and unbound volumes", _pod("PVC_1", "PVC_WaitSC"), None),
    ("pv not found", _pod("PVC_4"), (Code.UnschedulableAndUnresolvable,
                                     'persistentvolume "Vol_not_exist" not found')),
]


@pytest.mark.parametrize("name,pod,want", WITH_BINDING, ids=[r[0] for r in WITH_BINDING])
def test_with_binding(name, pod, want):
    objects = [*CLAIMS, *VOLUMES, storage_class("Class_Immediate", IMMEDIATE), storage_class("Class_Wait", WAIT),
               pvc("PVC_EmptySC", ""), pvc("PVC_NoSC", "Class_0"), pvc("PVC_ImmediateSC", "Class_Immediate"),
               pvc("PVC_WaitSC", "Class_Wait")]
    assert _result(_run(pod, {BETA_ZONE: "us-west1-a", "uselessLabel": "none"}, objects)) == want
