"""GPUTopology: PreFilter reads the pod, Filter says why, Score ranks, Reserve/Unreserve/PreBind book the GPUs."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_edu.api.defaults import apply_defaults
from ksched_edu.api.loader import load_cluster
from ksched_edu.api.types import Cluster, Pod
from ksched_edu.config.loader import default_config
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.registry import new_in_tree_registry
from ksched_edu.framework.runtime import merge_registries
from ksched_edu.framework.types import NODE, POD, ActionType
from ksched_edu.gpu import plugins
from ksched_edu.gpu.catalog import TOPOLOGY_LABEL
from ksched_edu.gpu.ledger import GPUS_ANNOTATION
from ksched_edu.gpu.plugins.gpu_topology import (CONSTRAINT_ANNOTATION, MIN_BANDWIDTH_ANNOTATION, NAME,
                                                 PRE_FILTER_STATE_KEY, PRE_SCORE_STATE_KEY, GPUTopology,
                                                 GPUTopologyArgs, args_from)
from ksched_edu.scheduler import ConfigurationError
from ksched_edu.sim.simulation import Simulation
from ksched_edu.trace import GPUAllocationEvent, Recorder
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle

pytestmark = pytest.mark.ch08

ROOT = Path(__file__).resolve().parents[2]
GAP = ROOT / "data" / "clusters" / "gpu-gap.yaml"
PACKING = ROOT / "data" / "clusters" / "gpu-packing.yaml"
GPU = "nvidia.com/gpu"


def gpu_node(name: str, topology: Optional[str], gpus: str = "8"):
    n = make_node().name(name).capacity({"cpu": "64", "memory": "256Gi", GPU: gpus})
    if topology:
        n = n.label(TOPOLOGY_LABEL, topology)
    return n.obj()


def gpu_pod(name: str, gpus: int = 0, constraint: str = "", min_bw: str = "", node: str = "",
            ids: str = "") -> Pod:
    p = make_pod().name(name).namespace("default").uid(name)
    if gpus:
        p = p.req({"cpu": "1", GPU: str(gpus)})
    if constraint:
        p = p.annotation(CONSTRAINT_ANNOTATION, constraint)
    if min_bw:
        p = p.annotation(MIN_BANDWIDTH_ANNOTATION, min_bw)
    if ids:
        p = p.annotation(GPUS_ANNOTATION, ids)
    if node:
        p = p.node(node)
    return p.obj()


def new_plugin(handle, **args) -> GPUTopology:
    return GPUTopology(GPUTopologyArgs(**args), handle)


# --- PreFilter ----------------------------------------------------------------------------

PRE_FILTER = [
    ("a pod without GPUs is skipped", gpu_pod("p"), Code.Skip, "", None),
    ("GPUs without annotations", gpu_pod("p", 2), Code.Success, "", "GPURequest(2 GPUs no constraint)"),
    ("nvlink and same NUMA node", gpu_pod("p", 4, "nvlink, same-numa"), Code.Success, "",
     "GPURequest(4 GPUs joined by NVLink on one NUMA node)"),
    ("a minimum bandwidth", gpu_pod("p", 2, min_bw="50 GB/s"), Code.Success, "",
     "GPURequest(2 GPUs with at least 50 GB/s between every pair)"),
    ("annotations without GPUs", gpu_pod("p", constraint="nvlink"), Code.UnschedulableAndUnresolvable,
     "pod has GPU annotations but requests no nvidia.com/gpu", None),
    ("an unknown constraint", gpu_pod("p", 2, "nvswitch"), Code.UnschedulableAndUnresolvable,
     'invalid annotation gpu.ksched-edu.io/constraint: unknown constraint "nvswitch" '
     "(want nvlink, same-numa, same-pcie-switch)", None),
    ("a bandwidth that is not a number", gpu_pod("p", 2, min_bw="fast"), Code.UnschedulableAndUnresolvable,
     'invalid annotation gpu.ksched-edu.io/min-bandwidth: "fast" is not a whole number of GB/s', None),
]


@pytest.mark.parametrize("name,pod,code,reason,state", PRE_FILTER, ids=[c[0] for c in PRE_FILTER])
def test_pre_filter(name: str, pod: Pod, code: Code, reason: str, state: Optional[str]) -> None:
    plugin = new_plugin(FakeHandle())
    cycle = CycleState()
    result, status = plugin.pre_filter(cycle, pod)
    assert result is None
    assert (status.code if status else Code.Success) == code
    assert (status.reasons if status else []) == ([reason] if reason else [])
    if state:
        assert repr(cycle.read(PRE_FILTER_STATE_KEY)) == state


# --- Filter ---------------------------------------------------------------------------------

FILTER = [
    ("a node without a topology label", gpu_node("n", None), [], gpu_pod("p", 2),
     Code.UnschedulableAndUnresolvable, "node(s) had no GPU topology"),
    ("a label naming no dump", gpu_node("n", "dgx-9"), [], gpu_pod("p", 2),
     Code.UnschedulableAndUnresolvable, "node(s) had an unknown GPU topology"),
    ("an idle DGX-1 has an NVLink quad", gpu_node("n", "dgx-1-v100"), [], gpu_pod("p", 4, "nvlink"),
     Code.Success, ""),
    ("GPU1 and GPU6 busy break both quads", gpu_node("n", "dgx-1-v100"),
     [gpu_pod("a", 1, node="n", ids="1"), gpu_pod("b", 1, node="n", ids="6")], gpu_pod("p", 4, "nvlink"),
     Code.Unschedulable, "GPU topology mismatch: no 4 free GPUs joined by NVLink"),
    ("a PCIe server has no NVLink at all", gpu_node("n", "pcie-2socket-8gpu"), [], gpu_pod("p", 4, "nvlink"),
     Code.UnschedulableAndUnresolvable, "GPU topology mismatch: no 4 GPUs joined by NVLink on this node"),
    ("free GPUs split across the sockets", gpu_node("n", "pcie-2socket-8gpu"),
     [gpu_pod("a", 2, node="n", ids="0,1"), gpu_pod("b", 2, node="n", ids="4,5")], gpu_pod("p", 4, "same-numa"),
     Code.Unschedulable, "GPU topology mismatch: no 4 free GPUs on one NUMA node"),
    ("the same node without a constraint", gpu_node("n", "pcie-2socket-8gpu"),
     [gpu_pod("a", 2, node="n", ids="0,1"), gpu_pod("b", 2, node="n", ids="4,5")], gpu_pod("p", 4),
     Code.Success, ""),
    ("an NV2 pair is 50 GB/s", gpu_node("n", "dgx-1-v100"), [], gpu_pod("p", 2, min_bw="50"), Code.Success, ""),
    ("no pair of a workstation reaches 100 GB/s", gpu_node("n", "workstation-4gpu", "4"), [],
     gpu_pod("p", 2, min_bw="100"), Code.UnschedulableAndUnresolvable,
     "GPU topology mismatch: no 2 GPUs with at least 100 GB/s between every pair on this node"),
    ("more GPUs than the node has", gpu_node("n", "hgx-h100"), [], gpu_pod("p", 9),
     Code.UnschedulableAndUnresolvable, "GPU topology mismatch: no 9 GPUs on this node"),
    ("a pod with GPUs but no ids counts as holding some", gpu_node("n", "hgx-h100"),
     [gpu_pod("a", 6, node="n")], gpu_pod("p", 4), Code.Unschedulable, "GPU topology mismatch: no 4 free GPUs"),
]


@pytest.mark.parametrize("name,node,pods,pod,code,reason", FILTER, ids=[c[0] for c in FILTER])
def test_filter(name: str, node, pods: list[Pod], pod: Pod, code: Code, reason: str) -> None:
    handle = FakeHandle(pods=pods, nodes=[node])
    plugin = new_plugin(handle)
    state = CycleState()
    _, status = plugin.pre_filter(state, pod)
    assert status is None
    status = plugin.filter(state, pod, handle.snapshot.node_infos().get(node.metadata.name))
    assert (status.code if status else Code.Success) == code
    assert (status.reasons if status else []) == ([reason] if reason else [])


def test_filter_without_pre_filter_is_an_error() -> None:
    handle = FakeHandle(nodes=[gpu_node("n", "hgx-h100")])
    status = new_plugin(handle).filter(CycleState(), gpu_pod("p", 2), handle.snapshot.node_infos().get("n"))
    assert status.code == Code.Error and "PreFilterGPUTopology" in status.message()


# --- Score ------------------------------------------------------------------------------------

SCORE_NODES = [gpu_node("a100", "dgx-a100"), gpu_node("dgx1", "dgx-1-v100"), gpu_node("pcie", "pcie-2socket-8gpu")]
SCORE_PODS = [gpu_pod("a", 2, node="pcie", ids="0,1"), gpu_pod("b", 2, node="pcie", ids="4,5")]


@pytest.mark.parametrize("strategy,weight,want", [
    # a100: its NV12 pair sets the best slowest link (300 GB/s); dgx1: NV2, 50 GB/s; pcie: PIX, 16 GB/s.
    # Binpack: 50 x slowest/300 + 50 x (GPUs busy after / 8).
    ("Binpack", 50, {"a100": 62, "dgx1": 20, "pcie": 40}),
    # Spread: 50 x slowest/300 + 50 x (GPUs free after / 8).
    ("Spread", 50, {"a100": 87, "dgx1": 45, "pcie": 15}),
    ("Binpack", 100, {"a100": 100, "dgx1": 16, "pcie": 5}),
    ("Binpack", 0, {"a100": 25, "dgx1": 25, "pcie": 75}),
])
def test_score(strategy: str, weight: int, want: dict[str, int]) -> None:
    handle = FakeHandle(pods=SCORE_PODS, nodes=SCORE_NODES)
    plugin = new_plugin(handle, scoring_strategy=strategy, bandwidth_weight=weight)
    pod = gpu_pod("p", 2)
    state = CycleState()
    plugin.pre_filter(state, pod)
    assert plugin.pre_score(state, pod, handle.snapshot.node_infos().list()) is None
    got = {}
    for name in want:
        got[name], status = plugin.score(state, pod, name)
        assert status is None
    assert got == want
    chosen = {n: c.choice.gpus for n, c in state.read(PRE_SCORE_STATE_KEY).items()}
    assert chosen == {"a100": (0, 1), "dgx1": (0, 3), "pcie": (2, 3)}


def test_pre_score_skips_pods_without_gpus() -> None:
    plugin = new_plugin(FakeHandle())
    assert plugin.pre_score(CycleState(), gpu_pod("p"), []).code == Code.Skip


# --- Reserve, Unreserve ---------------------------------------------------------------------------


def test_reserve_and_unreserve_keep_the_ledger() -> None:
    handle = FakeHandle(pods=[gpu_pod("a", 2, node="n", ids="0,3")], nodes=[gpu_node("n", "dgx-1-v100")])
    plugin = new_plugin(handle)
    pod, state = gpu_pod("p", 2), CycleState()
    plugin.pre_filter(state, pod)
    assert plugin.reserve(state, pod, "n") is None
    # Without PreScore (one feasible node) Reserve searches itself: the best NV2 pair left is 1,2.
    assert plugin.ledger.gpus_of("p") == (1, 2)
    other, other_state = gpu_pod("q", 2), CycleState()
    plugin.pre_filter(other_state, other)
    assert plugin.reserve(other_state, other, "n") is None
    assert plugin.ledger.gpus_of("q") == (4, 7)
    plugin.unreserve(state, pod, "n")
    assert plugin.ledger.gpus_of("p") is None and plugin.ledger.held_on("n") == {4: "default/q", 7: "default/q"}


def test_reserve_refuses_when_nothing_is_left() -> None:
    handle = FakeHandle(nodes=[gpu_node("n", "workstation-4gpu", "4")])
    plugin = new_plugin(handle)
    plugin.ledger.hold("n", "x", "default/x", [0, 1, 2])
    pod, state = gpu_pod("p", 2), CycleState()
    plugin.pre_filter(state, pod)
    status = plugin.reserve(state, pod, "n")
    assert status.code == Code.Unschedulable and status.reasons == ["GPU topology mismatch: no 2 free GPUs"]


def test_events_to_register() -> None:
    events = [(e.event.resource, e.event.action_type) for e in new_plugin(FakeHandle()).events_to_register()]
    assert events == [(POD, ActionType.Delete), (NODE, ActionType.Add | ActionType.UpdateNodeLabel)]


# --- in a scheduler ----------------------------------------------------------------------------------


def run(cluster, config=None, **options) -> tuple[Simulation, Recorder]:
    rec = Recorder()
    sim = Simulation(cluster, config or plugins.scheduler_config(), seed=1, recorder=rec,
                     registry=plugins.full_registry(), **options)
    sim.run()
    return sim, rec


def test_the_gap_stock_scheduler_counts_only() -> None:
    rec = Recorder()
    sim = Simulation(load_cluster(GAP), default_config(), seed=1, recorder=rec)
    sim.run()
    assert [(p.pod, p.node) for p in sim.placements()] == [("default/train-4gpu", "pcie-a")]


def test_the_gap_closed_by_gpu_topology() -> None:
    sim, rec = run(load_cluster(GAP))
    assert [(p.pod, p.node) for p in sim.placements()] == [("default/train-4gpu", "dgx1-a")]
    reasons = {e.node: (e.code, e.reasons) for e in rec.plugin_events(point="Filter") if e.plugin == NAME}
    assert reasons == {
        "pcie-a": ("UnschedulableAndUnresolvable", ("GPU topology mismatch: no 4 GPUs joined by NVLink on this node",)),
        "dgx1-a": ("Success", ()),
        "dgx1-b": ("Unschedulable", ("GPU topology mismatch: no 4 free GPUs joined by NVLink",)),
    }
    bound = sim.api.get_pod("default", "train-4gpu")
    assert bound.metadata.annotations[GPUS_ANNOTATION] == "0,1,2,3"
    kinds = [(e.kind, e.pod, e.gpus) for e in rec.of(GPUAllocationEvent)]
    assert kinds[-1] == ("reserve", "default/train-4gpu", (0, 1, 2, 3))
    assert ("hold", "default/train-x", (4, 5, 6, 7)) in kinds


@pytest.mark.parametrize("strategy,placements", [
    ("Binpack", {"job-1": "h100-2", "job-2": "h100-2", "job-3": "h100-2", "job-4": "h100-2", "job-5": "h100-3",
                 "job-6": "h100-3", "job-7": "h100-1"}),
    ("Spread", {"job-1": "h100-2", "job-2": "h100-3", "job-3": "h100-1", "job-4": "h100-3", "job-5": "h100-2",
                "job-6": "h100-3", "job-7": None}),
])
def test_binpacking_keeps_a_node_whole(strategy: str, placements: dict) -> None:
    sim, _ = run(load_cluster(PACKING), plugins.scheduler_config(strategy))
    assert {p.pod.split("/")[1]: p.node for p in sim.placements()} == placements


def test_a_deleted_pod_gives_its_gpus_back() -> None:
    sim, rec = run(load_cluster(GAP))
    sim.api.delete("Pod", "default", "train-x")
    last = rec.of(GPUAllocationEvent)[-1]
    assert (last.kind, last.pod, last.gpus) == ("release", "default/train-x", (4, 5, 6, 7))
    plugin = sim.scheduler.profiles["default-scheduler"].plugins_map[NAME]
    assert plugin.ledger.held_on("dgx1-a") == {g: "default/train-4gpu" for g in range(4)}


def test_preemption_sees_the_victims_gpus_free() -> None:
    node = gpu_node("n", "dgx-1-v100")
    low = [make_pod().name(n).namespace("default").uid(n).priority(0).req({"cpu": "1", GPU: "4"})
           .annotation(GPUS_ANNOTATION, ids).node("n").obj() for n, ids in (("low-a", "0,1,2,3"), ("low-b", "4,5,6,7"))]
    high = (make_pod().name("high").namespace("default").uid("high").priority(100).req({"cpu": "1", GPU: "4"})
            .annotation(CONSTRAINT_ANNOTATION, "nvlink").obj())
    cluster = apply_defaults(Cluster(nodes=[node], pods=[*low, high]))
    sim, rec = run(cluster)
    placed = {p.pod: p.node for p in sim.placements()}
    assert placed == {"default/high": "n"}
    # The dry run removed a victim from a copy of the NodeInfo, and Filter saw its GPUs free there.
    assert sim.victims() == ["default/low-b"]
    assert sim.api.get_pod("default", "high").metadata.annotations[GPUS_ANNOTATION] == "4,5,6,7"
    kinds = [(e.kind, e.pod) for e in rec.of(GPUAllocationEvent)]
    assert kinds.index(("release", "default/low-b")) < kinds.index(("reserve", "default/high"))


jobs = st.lists(st.tuples(st.integers(1, 8), st.sampled_from(["", "nvlink", "same-numa"]), st.booleans()),
                min_size=1, max_size=10)


@settings(max_examples=12, deadline=None)
@given(jobs=jobs)
def test_no_gpu_is_given_twice_in_a_simulation(jobs) -> None:
    from ksched_edu.sim.workload import Workload, WorkloadEvent

    nodes = [gpu_node("dgx", "dgx-1-v100"), gpu_node("pcie", "pcie-2socket-8gpu"),
             gpu_node("ws", "workstation-4gpu", "4")]
    initial = apply_defaults(Cluster(nodes=nodes))
    events = []
    for i, (count, constraint, leaves) in enumerate(jobs):
        pod = apply_defaults(Cluster(pods=[gpu_pod(f"j{i}", count, constraint)])).pods[0]
        events.append(WorkloadEvent(at=1.0 + i, action="create", obj=pod))
        if leaves:
            events.append(WorkloadEvent(at=1.5 + i, action="delete", obj=pod))
    sim = Simulation.from_workload(Workload(initial, events), plugins.scheduler_config(), seed=1,
                                   registry=plugins.full_registry())
    sim.run()
    plugin = sim.scheduler.profiles["default-scheduler"].plugins_map[NAME]
    plugin.ledger.check()
    live = [p for p in sim.api.list("Pod") if p.spec.node_name]
    by_node: dict[str, list[int]] = {}
    for p in live:
        ids = [int(g) for g in p.metadata.annotations[GPUS_ANNOTATION].split(",")]
        assert len(ids) == int(p.spec.containers[0].resources.requests[GPU].value())
        by_node.setdefault(p.spec.node_name, []).extend(ids)
        assert plugin.ledger.gpus_of(p.uid) == tuple(sorted(ids))
    assert all(len(ids) == len(set(ids)) for ids in by_node.values())
    assert sum(len(h.gpus) for h in plugin.ledger.by_pod.values()) == sum(len(v) for v in by_node.values())


# --- configuration --------------------------------------------------------------------------------


def test_registry_merges_into_the_in_tree_one() -> None:
    registry = merge_registries(new_in_tree_registry(), plugins.registry())
    assert NAME in registry and "NodeResourcesFit" in registry
    fwk = Simulation(apply_defaults(Cluster()), plugins.scheduler_config(), registry=registry).scheduler.profiles[
        "default-scheduler"]
    points = fwk.list_plugins()
    for point in ("pre_filter", "filter", "pre_score", "reserve", "pre_bind"):
        assert NAME in [n for n, _ in points[point]], point
    assert (NAME, plugins.DEFAULT_WEIGHT) in points["score"]


@pytest.mark.parametrize("raw,message", [
    ({"scoringStrategy": "MostAllocated"},
     'scoringStrategy: Unsupported value: "MostAllocated": supported values: "Binpack", "Spread"'),
    ({"bandwidthWeight": 120}, "bandwidthWeight: Invalid value: 120: must be between 0 and 100"),
    ({"strategy": "Binpack"}, 'unknown field "strategy" (want scoringStrategy, bandwidthWeight, topologyDir)'),
])
def test_bad_args(raw: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        args_from(raw)


def test_bad_args_fail_the_profile() -> None:
    text = plugins.config_text().replace("scoringStrategy: Binpack", "scoringStrategy: Pack")
    from ksched_edu.config.loader import load_config_data

    with pytest.raises(ConfigurationError, match='initializing plugin "GPUTopology": scoringStrategy'):
        Simulation(apply_defaults(Cluster()), load_config_data(text), registry=plugins.full_registry())


def test_engine_does_not_import_networkx() -> None:
    code = ("import sys, ksched_edu, ksched_edu.scheduler, ksched_edu.gpu, ksched_edu.gpu.plugins.gpu_topology; "
            "from ksched_edu.gpu.catalog import TopologyCatalog; TopologyCatalog().get('dgx-1-v100'); "
            "print(sorted(m for m in ('networkx', 'matplotlib', 'pandas', 'ipywidgets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"
