"""Mirrors TestVolumeBinding in pkg/scheduler/framework/plugins/volumebinding/volume_binding_test.go
(v1.30): PreFilter, then Filter on each node, for pods with bound, unbound, missing and lost
claims (the VolumeCapacityPriority score columns are left out: the gate is off in v1.30).
The Reserve / Unreserve / PreBind rows exercise the binder through the same plugin."""
from __future__ import annotations

import pytest

from ksched_edu.api.storage import ANN_SELECTED_NODE
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.volumebinding import new
from ksched_edu.framework.plugins.volumebinding.binder import (ERR_REASON_BIND_CONFLICT, ERR_REASON_NODE_CONFLICT,
                                                               ERR_REASON_PV_NOT_EXIST)
from ksched_edu.framework.plugins.volumebinding.volume_binding import STATE_KEY
from ksched_edu.framework.types import NodeInfo
from ksched_edu.sim.apiserver import APIServer
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle
from tests.framework.plugins.storage_objects import IMMEDIATE, WAIT, pv, pvc, storage_class

HOST = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
WAIT_SC = storage_class("wait-sc", WAIT)
WAIT_HDD_SC = storage_class("wait-hdd-sc", WAIT)
IMMEDIATE_SC = storage_class("immediate-sc", IMMEDIATE)
CLASSES = [WAIT_SC, WAIT_HDD_SC, IMMEDIATE_SC]


def _node(name: str, labels: dict[str, str] | None = None):
    w = make_node().name(name).label(HOST, name)
    for k, v in (labels or {}).items():
        w = w.label(k, v)
    return w.obj()


def _ni(node) -> NodeInfo:
    info = NodeInfo()
    info.set_node(node)
    return info


def _pod(*claims: str):
    w = make_pod().name("pod-a").namespace("default")
    for c in claims:
        w = w.pvc(c)
    return w.obj()


UNRESOLVABLE = Code.UnschedulableAndUnresolvable

# name, pod, nodes, pvcs, pvs, want PreFilter (code, reasons) or None, want PreFilter node names,
# want Filter per node ((code, reasons) or None)
ROWS = [
    ("pod has not pvcs", make_pod().name("pod-a").obj(), [_node("node-a")], [], [],
     (Code.Skip, ()), None, [None]),
    ("all bound", _pod("pvc-a"), [_node("node-a")],
     [pvc("pvc-a", "wait-sc", bound_pv="pv-a")], [pv("pv-a", "wait-sc", phase="Bound", claim="pvc-a")],
     None, None, [None]),
    ("all bound with local volumes", _pod("pvc-a", "pvc-b"), [_node("node-a")],
     [pvc("pvc-a", "wait-sc", bound_pv="pv-a"), pvc("pvc-b", "wait-sc", bound_pv="pv-b")],
     [pv("pv-a", "wait-sc", phase="Bound", claim="pvc-a", affinity={HOST: ["node-a"]}),
      pv("pv-b", "wait-sc", phase="Bound", claim="pvc-b", affinity={HOST: ["node-a"]})],
     None, {"node-a"}, [None]),
    ("PVC does not exist", _pod("pvc-a"), [_node("node-a")], [], [],
     (UNRESOLVABLE, ('persistentvolumeclaim "pvc-a" not found',)), None, None),
    ("Part of PVCs do not exist", _pod("pvc-a", "pvc-b"), [_node("node-a")],
     [pvc("pvc-a", "wait-sc", bound_pv="pv-a")], [],
     (UNRESOLVABLE, ('persistentvolumeclaim "pvc-b" not found',)), None, None),
    ("immediate claims not bound", _pod("pvc-a"), [_node("node-a")], [pvc("pvc-a", "immediate-sc")], [],
     (UNRESOLVABLE, ("pod has unbound immediate PersistentVolumeClaims",)), None, None),
    ("unbound claims no matches", _pod("pvc-a"), [_node("node-a")], [pvc("pvc-a", "wait-sc")], [],
     None, None, [(UNRESOLVABLE, (ERR_REASON_BIND_CONFLICT,))]),
    ("bound and unbound unsatisfied", _pod("pvc-a", "pvc-b"), [_node("node-a", {"foo": "barbar"})],
     [pvc("pvc-a", "wait-sc", bound_pv="pv-a"), pvc("pvc-b", "wait-sc")],
     [pv("pv-a", "wait-sc", affinity={"foo": ["bar"]})],
     None, None, [(UNRESOLVABLE, (ERR_REASON_NODE_CONFLICT, ERR_REASON_BIND_CONFLICT))]),
    ("pv not found", _pod("pvc-a"), [_node("node-a")], [pvc("pvc-a", "wait-sc", bound_pv="pv-a")], [],
     None, None, [(UNRESOLVABLE, (ERR_REASON_PV_NOT_EXIST,))]),
    ("pv not found claim lost", _pod("pvc-a"), [_node("node-a")],
     [pvc("pvc-a", "wait-sc", bound_pv="pv-a", phase="Lost")], [],
     (UNRESOLVABLE, ('persistentvolumeclaim "pvc-a" bound to non-existent persistentvolume "pv-a"',)), None, None),
    ("local volumes with close capacity are preferred", _pod("pvc-a"),
     [_node("node-a"), _node("node-b"), _node("node-c")], [pvc("pvc-a", "wait-sc", storage="50Gi")],
     [pv("pv-a-0", "wait-sc", capacity="200Gi", affinity={HOST: ["node-a"]}),
      pv("pv-a-1", "wait-sc", capacity="200Gi", affinity={HOST: ["node-a"]}),
      pv("pv-b-0", "wait-sc", capacity="100Gi", affinity={HOST: ["node-b"]}),
      pv("pv-b-1", "wait-sc", capacity="100Gi", affinity={HOST: ["node-b"]})],
     None, None, [None, None, (UNRESOLVABLE, (ERR_REASON_BIND_CONFLICT,))]),
    ("local volumes with close capacity are preferred (multiple pvcs)", _pod("pvc-0", "pvc-1"),
     [_node("node-a"), _node("node-b"), _node("node-c")],
     [pvc("pvc-0", "wait-sc", storage="50Gi"), pvc("pvc-1", "wait-hdd-sc", storage="100Gi")],
     [pv("pv-a-0", "wait-sc", capacity="200Gi", affinity={HOST: ["node-a"]}),
      pv("pv-a-2", "wait-hdd-sc", capacity="200Gi", affinity={HOST: ["node-a"]}),
      pv("pv-b-0", "wait-sc", capacity="100Gi", affinity={HOST: ["node-b"]}),
      pv("pv-b-2", "wait-hdd-sc", capacity="100Gi", affinity={HOST: ["node-b"]})],
     None, None, [None, None, (UNRESOLVABLE, (ERR_REASON_BIND_CONFLICT,))]),
    ("zonal volumes with close capacity are preferred", _pod("pvc-a"),
     [_node("zone-a-node-a", {ZONE: "zone-a"}),
      _node("zone-b-node-a", {ZONE: "zone-b"}),
      _node("zone-c-node-a", {ZONE: "zone-c"})],
     [pvc("pvc-a", "wait-sc", storage="50Gi")],
     [pv("pv-a-0", "wait-sc", capacity="200Gi", affinity={"topology.kubernetes.io/zone": ["zone-a"]}),
      pv("pv-b-0", "wait-sc", capacity="100Gi", affinity={"topology.kubernetes.io/zone": ["zone-b"]})],
     None, None, [None, None, (UNRESOLVABLE, (ERR_REASON_BIND_CONFLICT,))]),
]


def _plugin(pvcs, pvs, nodes=(), client=None):
    handle = FakeHandle(nodes=nodes, objects=[*CLASSES, *pvcs, *pvs])
    if client is not None:
        handle.fake_client = client
    return new(None, handle)


@pytest.mark.parametrize("name,pod,nodes,pvcs,pvs,want_pre,want_nodes,want_filter", ROWS,
                         ids=[r[0] for r in ROWS])
def test_volume_binding(name, pod, nodes, pvcs, pvs, want_pre, want_nodes, want_filter):
    pl = _plugin(pvcs, pvs, nodes)
    state = CycleState()
    result, status = pl.pre_filter(state, pod)
    if want_pre is None:
        assert status is None
    else:
        assert (status.code, tuple(status.get_reasons())) == want_pre
        return
    assert (result.node_names if result is not None else None) == want_nodes
    for node, want in zip(nodes, want_filter):
        got = pl.filter(state, pod, _ni(node))
        assert (None if got is None else (got.code, tuple(got.get_reasons()))) == want, node.metadata.name


def test_filter_without_pre_filter_state_is_an_error():
    pl = _plugin([], [])
    got = pl.filter(CycleState(), _pod("pvc-a"), _ni(_node("node-a")))
    assert got.code == Code.Error


def test_reserve_fails_on_an_empty_resource_version():
    """The fake clientset never sets resourceVersion: the assume cache cannot parse it."""
    claim, volume = pvc("pvc-a", "wait-sc"), pv("pv-a", "wait-sc", affinity={HOST: ["node-a"]})
    node = _node("node-a")
    pl = _plugin([claim], [volume], [node])
    state, pod = CycleState(), _pod("pvc-a")
    pl.pre_filter(state, pod)
    assert pl.filter(state, pod, _ni(node)) is None
    got = pl.reserve(state, pod, "node-a")
    assert got.code == Code.Error
    assert got.message() == ('error parsing ResourceVersion "" for v1.PersistentVolume "pv-a": '
                             'strconv.ParseInt: parsing "": invalid syntax')


def test_reserve_assumes_and_unreserve_restores():
    claim = pvc("pvc-a", "wait-sc", rv="1")
    volume = pv("pv-a", "wait-sc", affinity={HOST: ["node-a"]}, rv="2")
    node = _node("node-a")
    pl = _plugin([claim], [volume], [node])
    state, pod = CycleState(), _pod("pvc-a")
    pl.pre_filter(state, pod)
    pl.filter(state, pod, _ni(node))
    assert pl.reserve(state, pod, "node-a") is None
    assert state.read(STATE_KEY).all_bound is False
    assumed = pl.binder.pv_cache.get_pv("pv-a")
    assert assumed.spec.claim_ref.name == "pvc-a"
    assert assumed.metadata.annotations["pv.kubernetes.io/bound-by-controller"] == "yes"
    pl.unreserve(state, pod, "node-a")
    assert pl.binder.pv_cache.get_pv("pv-a").spec.claim_ref is None


def test_reserve_assumes_the_selected_node_of_a_claim_to_provision():
    cls = storage_class("fast", WAIT, provisioner="csi.example.com")
    claim = pvc("pvc-a", "fast", rv="1")
    node = _node("node-a")
    handle = FakeHandle(nodes=[node], objects=[cls, claim])
    pl = new(None, handle)
    state, pod = CycleState(), _pod("pvc-a")
    pl.pre_filter(state, pod)
    assert pl.filter(state, pod, _ni(node)) is None
    assert pl.reserve(state, pod, "node-a") is None
    assert pl.binder.pvc_cache.get_pvc("default/pvc-a").metadata.annotations[ANN_SELECTED_NODE] == "node-a"
    assert ANN_SELECTED_NODE not in claim.metadata.annotations  # the informer's object is untouched


def test_pre_bind_writes_the_binding_and_times_out_without_a_pv_controller():
    api = APIServer()
    node = _node("node-a")
    api.create(node)
    for obj in (WAIT_SC, pvc("pvc-a", "wait-sc"), pv("pv-a", "wait-sc", affinity={HOST: ["node-a"]})):
        api.create(obj)
    pod = _pod("pvc-a")
    api.create(pod)
    handle = FakeHandle(nodes=[node])
    handle.objects = api
    handle.fake_client = api
    pl = new(None, handle)
    state = CycleState()
    pl.pre_filter(state, pod)
    pl.filter(state, pod, _ni(node))
    assert pl.reserve(state, pod, "node-a") is None
    bound_pod = api.get_pod("default", "pod-a")
    bound_pod.spec.node_name = "node-a"
    got = pl.pre_bind(state, bound_pod, "node-a")
    assert got.code == Code.Error
    assert got.message() == "binding volumes: context deadline exceeded"
    assert api.get("PersistentVolume", "", "pv-a").spec.claim_ref.name == "pvc-a"


def test_pre_bind_of_bound_volumes_does_nothing():
    claim = pvc("pvc-a", "wait-sc", bound_pv="pv-a")
    volume = pv("pv-a", "wait-sc", phase="Bound", claim="pvc-a")
    node = _node("node-a")
    pl = _plugin([claim], [volume], [node])
    state, pod = CycleState(), _pod("pvc-a")
    pl.pre_filter(state, pod)
    pl.filter(state, pod, _ni(node))
    assert pl.reserve(state, pod, "node-a") is None
    assert state.read(STATE_KEY).all_bound is True
    assert pl.pre_bind(state, pod, "node-a") is None
