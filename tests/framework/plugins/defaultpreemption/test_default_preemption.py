"""Tests of defaultpreemption/default_preemption.py, mirroring default_preemption_test.go (v1.30).

Each table keeps upstream's case names. The clusters are built with real
plugins (NodeResourcesFit, InterPodAffinity, PodTopologySpread) on a real
Framework, so the dry run, the reprieve order and the messages are exercised
end to end. Where upstream seeds Go's random source to fix the dry run's
offset, the offsets are given directly.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import pytest

from ksched_edu.api.types import PREEMPT_LOWER_PRIORITY, PREEMPT_NEVER, Pod, PodCondition
from ksched_edu.config.types_pluginargs import DefaultPreemptionArgs
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, PostFilterResult, Status, new_status
from ksched_edu.framework.plugins.defaultpreemption import default_preemption
from ksched_edu.framework.plugins.defaultpreemption.default_preemption import (
    DefaultPreemption, filter_pods_with_pdb_violation, pod_terminating_by_preemption)
from ksched_edu.framework.preemption import Evaluator
from ksched_edu.framework.types import PodInfo
from ksched_edu.sim.apiserver import APIServer
from ksched_edu.sim.clock import VirtualClock
from ksched_edu.trace import PreemptionEvent, Recorder
from tests.builders import POD_ANTI_AFFINITY_WITH_REQUIRED_REQ, make_label_selector, make_node, make_pod

from .util import (EPOCH_TIME, EPOCH_TIME1, EPOCH_TIME2, EPOCH_TIME3, EPOCH_TIME4, EPOCH_TIME5, EPOCH_TIME6,
                   HIGH_PRIORITY, INTER_POD_AFFINITY, LABEL_KEY_IS_VIOLATING_PDB, LABEL_VALUE_NON_VIOLATING_PDB,
                   LABEL_VALUE_VIOLATING_PDB, LARGE_RES, LOW_PRIORITY, MAX_INT32, MEDIUM_RES, MID_PRIORITY,
                   NEG_PRIORITY, NODE_RESOURCES_FIT, POD_TOPOLOGY_SPREAD, SMALL_RES, TEST_PLUGIN, VERY_HIGH_PRIORITY,
                   VERY_LARGE_RES, FakeFilterPlugin, FakeNominator, FalseFilterPlugin, FixedOffsets,
                   MatchFilterPlugin, PluginSpec, TrueFilterPlugin, build, make_nodes, make_pdb, plugin_spec)

pytestmark = pytest.mark.ch07

ONE_POD_RES = {"pods": "1"}
NODE_RES = {"cpu": "200m", "memory": "400"}


def pod(name: str, node: str = "", prio: Optional[int] = None, req: Optional[dict] = None,
        start: Optional[float] = None, ns: str = "", labels: Optional[dict] = None) -> Pod:
    w = make_pod().name(name).uid(name).namespace(ns)
    if node:
        w.node(node)
    if prio is not None:
        w.priority(prio)
    if req:
        w.req(req)
    if start is not None:
        w.start_time(start)
    for k, v in (labels or {}).items():
        w.label(k, v)
    return w.obj()


def dpod(name: str, node: str = "", prio: Optional[int] = None, req: Optional[dict] = None,
         labels: Optional[dict] = None) -> Pod:
    """A pod in namespace default (TestPostFilter and TestPreempt use it)."""
    return pod(name, node, prio, req, ns="default", labels=labels)


def node(name: str, res: dict, **labels: str):
    w = make_node().name(name).capacity(res)
    for k, v in labels.items():
        w.label(k, v)
    return w.obj()


U = Code.Unschedulable
UU = Code.UnschedulableAndUnresolvable


# --- TestPostFilter --------------------------------------------------------------------


@dataclass
class PostFilterCase:
    name: str
    pod: Pod
    pods: list[Pod]
    nodes: list
    filtered: dict[str, Code]
    want_result: Optional[PostFilterResult]
    want_code: Code
    want_message: str = ""
    pdbs: list = field(default_factory=list)


POST_FILTER_CASES = [
    PostFilterCase(
        "pod with higher priority can be made schedulable",
        dpod("p", prio=HIGH_PRIORITY), [dpod("p1", "node1")], [node("node1", ONE_POD_RES)], {"node1": U},
        PostFilterResult.with_nominated_node("node1"), Code.Success),
    PostFilterCase(
        "pod with tied priority is still unschedulable",
        dpod("p"), [dpod("p1", "node1")], [node("node1", ONE_POD_RES)], {"node1": U},
        PostFilterResult.with_nominated_node(""), U,
        "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."),
    PostFilterCase(
        "preemption should respect filteredNodesStatuses",
        dpod("p", prio=HIGH_PRIORITY), [dpod("p1", "node1")], [node("node1", ONE_POD_RES)], {"node1": UU},
        PostFilterResult.with_nominated_node(""), U,
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
    PostFilterCase(
        "preemption should respect absent NodeToStatusMap entry meaning UnschedulableAndUnresolvable",
        dpod("p", prio=HIGH_PRIORITY), [dpod("p1", "node1")], [node("node1", ONE_POD_RES)], {},
        PostFilterResult.with_nominated_node(""), U,
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
    PostFilterCase(
        "pod can be made schedulable on one node",
        dpod("p", prio=MID_PRIORITY),
        [dpod("p1", "node1", HIGH_PRIORITY), dpod("p2", "node2", LOW_PRIORITY)],
        [node("node1", ONE_POD_RES), node("node2", ONE_POD_RES)], {"node1": U, "node2": U},
        PostFilterResult.with_nominated_node("node2"), Code.Success),
    # Upstream added this case with the v1.32 fix that re-sorts the victims by priority. In
    # v1.30 the PDB-violating victims come first, so node1's "highest" victim is p2 (priority 0)
    # and node1 wins where v1.32 picks node2.
    PostFilterCase(
        "pod can be made schedulable on minHighestPriority node",
        dpod("p", prio=VERY_HIGH_PRIORITY),
        [dpod("p1", "node1", HIGH_PRIORITY, labels={LABEL_KEY_IS_VIOLATING_PDB: LABEL_VALUE_NON_VIOLATING_PDB}),
         dpod("p2", "node1", LOW_PRIORITY, labels={LABEL_KEY_IS_VIOLATING_PDB: LABEL_VALUE_VIOLATING_PDB}),
         dpod("p3", "node2", MID_PRIORITY, labels={LABEL_KEY_IS_VIOLATING_PDB: LABEL_VALUE_VIOLATING_PDB})],
        [node("node1", ONE_POD_RES), node("node2", ONE_POD_RES)], {"node1": U, "node2": U},
        PostFilterResult.with_nominated_node("node1"), Code.Success,
        pdbs=[make_pdb("violating-pdb", "default", {LABEL_KEY_IS_VIOLATING_PDB: LABEL_VALUE_VIOLATING_PDB}),
              make_pdb("non-violating-pdb", "default",
                       {LABEL_KEY_IS_VIOLATING_PDB: LABEL_VALUE_NON_VIOLATING_PDB}, MAX_INT32)]),
    PostFilterCase(
        "no candidate nodes found, no enough resource after removing low priority pods",
        dpod("p", prio=HIGH_PRIORITY, req=LARGE_RES), [dpod("p1", "node1"), dpod("p2", "node2")],
        [node("node1", NODE_RES), node("node2", NODE_RES)], {"node1": U, "node2": U},
        PostFilterResult.with_nominated_node(""), U, "preemption: 0/2 nodes are available: 2 Insufficient cpu."),
    PostFilterCase(
        "no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource",
        dpod("p", prio=HIGH_PRIORITY, req=LARGE_RES),
        [dpod("p1", "node1", HIGH_PRIORITY), dpod("p2", "node2"), dpod("p3", "node3", HIGH_PRIORITY)],
        [node("node1", ONE_POD_RES), node("node2", NODE_RES), node("node3", ONE_POD_RES)],
        {"node1": U, "node2": U, "node3": U},
        PostFilterResult.with_nominated_node(""), U,
        "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod."),
    PostFilterCase(
        "no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes don't "
        "have enough CPU resource",
        dpod("p", prio=HIGH_PRIORITY, req=LARGE_RES), [dpod("p1", "node1"), dpod("p2", "node2")],
        [node(f"node{i}", NODE_RES) for i in range(1, 5)], {"node1": U, "node2": U, "node4": UU},
        PostFilterResult.with_nominated_node(""), U,
        "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling."),
    PostFilterCase(
        "only one node but failed with TestPlugin",
        dpod("p", prio=HIGH_PRIORITY, req=LARGE_RES), [dpod("p1", "node1")],
        [node("node1", LARGE_RES, error="true")], {"node1": U},
        None, Code.Error,
        "preemption: running RemovePod on PreFilter plugin \"test-plugin\": failed to remove pod: p"),
    PostFilterCase(
        "one failed with TestPlugin and the other pass",
        dpod("p", prio=HIGH_PRIORITY, req=LARGE_RES),
        [dpod("p1", "node1"), dpod("p2", "node2", req=MEDIUM_RES)],
        [node("node1", LARGE_RES, error="true"), node("node2", LARGE_RES)], {"node1": U, "node2": U},
        PostFilterResult.with_nominated_node("node2"), Code.Success),
]


@pytest.mark.parametrize("tt", POST_FILTER_CASES, ids=lambda tt: tt.name)
def test_post_filter(tt: PostFilterCase) -> None:
    env = build(tt.pods, tt.nodes, [NODE_RESOURCES_FIT, TEST_PLUGIN], pending=[tt.pod], pdbs=tt.pdbs)
    state = env.state_for(tt.pod)
    filtered = {name: new_status(code) for name, code in tt.filtered.items()}
    result, status = env.plugin.post_filter(state, tt.pod, filtered)
    assert status is not None and status.code == tt.want_code
    assert status.message() == tt.want_message
    assert result == tt.want_result


# --- TestDryRunPreemption (subset) ---------------------------------------------------------


@dataclass
class DryRunCase:
    name: str
    node_names: list[str]
    test_pods: list[Pod]
    init_pods: list[Pod]
    plugins: list[PluginSpec]
    expected: list[dict[str, tuple[list[str], int]]]  # per cycle: node -> (sorted victim names, PDB violations)
    expected_num_filter_called: list[int]
    pdbs: list = field(default_factory=list)
    fake_filter_rc: Code = Code.Success
    args: Optional[DefaultPreemptionArgs] = None
    offsets: tuple[int, ...] = (0,)


def _p(name, node, prio, req=None, start=None, labels=None):
    return pod(name, node, prio, req, start, labels=labels)


FOO_PDB = {"app": "foo"}

DRY_RUN_CASES = [
    DryRunCase("a pod that does not fit on any node", ["node1", "node2"],
               [_p("p", "", HIGH_PRIORITY)], [_p("p1", "node1", MID_PRIORITY), _p("p2", "node2", MID_PRIORITY)],
               [plugin_spec(FalseFilterPlugin())], [{}], [2]),
    DryRunCase("a pod that fits with no preemption", ["node1", "node2"],
               [_p("p", "", HIGH_PRIORITY)], [_p("p1", "node1", MID_PRIORITY), _p("p2", "node2", MID_PRIORITY)],
               [plugin_spec(TrueFilterPlugin())], [{}], [2], fake_filter_rc=Code.Unschedulable),
    DryRunCase("a pod that fits on one node with no preemption", ["node1", "node2"],
               [_p("node1", "", HIGH_PRIORITY)],
               [_p("p1", "node1", MID_PRIORITY), _p("p2", "node2", MID_PRIORITY)],
               [plugin_spec(MatchFilterPlugin())], [{}], [2], fake_filter_rc=Code.Unschedulable),
    DryRunCase("a pod that fits on both nodes when lower priority pods are preempted", ["node1", "node2"],
               [_p("p", "", HIGH_PRIORITY, LARGE_RES)],
               [_p("p1", "node1", MID_PRIORITY, LARGE_RES), _p("p2", "node2", MID_PRIORITY, LARGE_RES)],
               [NODE_RESOURCES_FIT], [{"node1": (["p1"], 0), "node2": (["p2"], 0)}], [4]),
    DryRunCase("a pod that would fit on the nodes, but other pods running are higher priority, no preemption "
               "would happen", ["node1", "node2"],
               [_p("p", "", LOW_PRIORITY, LARGE_RES)],
               [_p("p1", "node1", MID_PRIORITY, LARGE_RES), _p("p2", "node2", MID_PRIORITY, LARGE_RES)],
               [NODE_RESOURCES_FIT], [{}], [0]),
    DryRunCase("medium priority pod is preempted, but lower priority one stays as it is small", ["node1", "node2"],
               [_p("p", "", HIGH_PRIORITY, LARGE_RES)],
               [_p("p1.1", "node1", LOW_PRIORITY, SMALL_RES), _p("p1.2", "node1", MID_PRIORITY, LARGE_RES),
                _p("p2", "node2", MID_PRIORITY, LARGE_RES)],
               [NODE_RESOURCES_FIT], [{"node1": (["p1.2"], 0), "node2": (["p2"], 0)}], [5]),
    DryRunCase("mixed priority pods are preempted", ["node1", "node2"],
               [_p("p", "", HIGH_PRIORITY, LARGE_RES)],
               [_p("p1.1", "node1", MID_PRIORITY, SMALL_RES), _p("p1.2", "node1", LOW_PRIORITY, SMALL_RES),
                _p("p1.3", "node1", MID_PRIORITY, MEDIUM_RES), _p("p1.4", "node1", HIGH_PRIORITY, SMALL_RES),
                _p("p2", "node2", HIGH_PRIORITY, LARGE_RES)],
               [NODE_RESOURCES_FIT], [{"node1": (["p1.2", "p1.3"], 0)}], [4]),
    DryRunCase("mixed priority pods are preempted, pick later StartTime one when priorities are equal",
               ["node1", "node2"], [_p("p", "", HIGH_PRIORITY, LARGE_RES)],
               [_p("p1.1", "node1", LOW_PRIORITY, SMALL_RES, EPOCH_TIME5),
                _p("p1.2", "node1", LOW_PRIORITY, SMALL_RES, EPOCH_TIME4),
                _p("p1.3", "node1", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME3),
                _p("p1.4", "node1", HIGH_PRIORITY, SMALL_RES, EPOCH_TIME2),
                _p("p2", "node2", HIGH_PRIORITY, LARGE_RES, EPOCH_TIME1)],
               [NODE_RESOURCES_FIT], [{"node1": (["p1.1", "p1.3"], 0)}], [4]),
    DryRunCase("pod with anti-affinity is preempted", ["node1", "node2"],
               [make_pod().name("p").uid("p").label("foo", "").priority(HIGH_PRIORITY).req(SMALL_RES).obj()],
               [make_pod().name("p1.1").uid("p1.1").node("node1").label("foo", "").priority(LOW_PRIORITY)
                .req(SMALL_RES).pod_anti_affinity_exists("foo", "hostname", POD_ANTI_AFFINITY_WITH_REQUIRED_REQ)
                .obj(),
                _p("p1.2", "node1", MID_PRIORITY, SMALL_RES), _p("p1.3", "node1", HIGH_PRIORITY, SMALL_RES),
                _p("p2", "node2", HIGH_PRIORITY, SMALL_RES)],
               [NODE_RESOURCES_FIT, INTER_POD_AFFINITY], [{"node1": (["p1.1"], 0)}], [3]),
    DryRunCase("preemption to resolve pod topology spread filter failure",
               ["node-a/zone1", "node-b/zone1", "node-x/zone2"],
               [make_pod().name("p").uid("p").label("foo", "").priority(HIGH_PRIORITY)
                .spread_constraint(1, "zone", "DoNotSchedule", make_label_selector().exists("foo").obj())
                .spread_constraint(1, "hostname", "DoNotSchedule", make_label_selector().exists("foo").obj())
                .obj()],
               [_p("pod-a1", "node-a", MID_PRIORITY, labels={"foo": ""}),
                _p("pod-a2", "node-a", LOW_PRIORITY, labels={"foo": ""}),
                _p("pod-b1", "node-b", LOW_PRIORITY, labels={"foo": ""}),
                _p("pod-x1", "node-x", HIGH_PRIORITY, labels={"foo": ""}),
                _p("pod-x2", "node-x", HIGH_PRIORITY, labels={"foo": ""})],
               [POD_TOPOLOGY_SPREAD], [{"node-a": (["pod-a2"], 0), "node-b": (["pod-b1"], 0)}], [5]),
    DryRunCase("get Unschedulable in the preemption phase when the filter plugins filtering the nodes",
               ["node1", "node2"], [_p("p", "", HIGH_PRIORITY, LARGE_RES)],
               [_p("p1", "node1", MID_PRIORITY, LARGE_RES), _p("p2", "node2", MID_PRIORITY, LARGE_RES)],
               [NODE_RESOURCES_FIT], [{}], [2], fake_filter_rc=Code.Unschedulable),
    DryRunCase("preemption with violation of same pdb", ["node1"], [_p("p", "", HIGH_PRIORITY, VERY_LARGE_RES)],
               [_p("p1.1", "node1", MID_PRIORITY, MEDIUM_RES, labels=FOO_PDB),
                _p("p1.2", "node1", MID_PRIORITY, MEDIUM_RES, labels=FOO_PDB)],
               [NODE_RESOURCES_FIT], [{"node1": (["p1.1", "p1.2"], 1)}], [3],
               pdbs=[make_pdb(match_labels=FOO_PDB, disruptions_allowed=1)]),
    DryRunCase("preemption with violation of the pdb with pod whose eviction was processed, the victim doesn't "
               "belong to DisruptedPods", ["node1"], [_p("p", "", HIGH_PRIORITY, VERY_LARGE_RES)],
               [_p("p1.1", "node1", MID_PRIORITY, MEDIUM_RES, labels=FOO_PDB),
                _p("p1.2", "node1", MID_PRIORITY, MEDIUM_RES, labels=FOO_PDB)],
               [NODE_RESOURCES_FIT], [{"node1": (["p1.1", "p1.2"], 1)}], [3],
               pdbs=[make_pdb(match_labels=FOO_PDB, disruptions_allowed=1, disrupted_pods={"p2": 0.0})]),
    DryRunCase("preemption with violation of the pdb with pod whose eviction was processed, the victim belongs "
               "to DisruptedPods", ["node1"], [_p("p", "", HIGH_PRIORITY, VERY_LARGE_RES)],
               [_p("p1.1", "node1", MID_PRIORITY, MEDIUM_RES, labels=FOO_PDB),
                _p("p1.2", "node1", MID_PRIORITY, MEDIUM_RES, labels=FOO_PDB)],
               [NODE_RESOURCES_FIT], [{"node1": (["p1.1", "p1.2"], 0)}], [3],
               pdbs=[make_pdb(match_labels=FOO_PDB, disruptions_allowed=1, disrupted_pods={"p1.2": 0.0})]),
    DryRunCase("preemption with violation of the pdb with pod whose eviction was processed, the victim which "
               "belongs to DisruptedPods is treated as 'nonViolating'", ["node1"],
               [_p("p", "", HIGH_PRIORITY, VERY_LARGE_RES)],
               [_p("p1.1", "node1", MID_PRIORITY, MEDIUM_RES, labels=FOO_PDB),
                _p("p1.2", "node1", MID_PRIORITY, MEDIUM_RES, labels=FOO_PDB),
                _p("p1.3", "node1", MID_PRIORITY, MEDIUM_RES, labels=FOO_PDB)],
               [NODE_RESOURCES_FIT], [{"node1": (["p1.1", "p1.2", "p1.3"], 1)}], [4],
               pdbs=[make_pdb(match_labels=FOO_PDB, disruptions_allowed=1, disrupted_pods={"p1.3": 0.0})]),
    DryRunCase("all nodes are possible candidates, but DefaultPreemptionArgs limits to 2",
               [f"node{i}" for i in range(1, 6)], [_p("p", "", HIGH_PRIORITY, LARGE_RES)],
               [_p(f"p{i}", f"node{i}", MID_PRIORITY, LARGE_RES) for i in range(1, 6)],
               [NODE_RESOURCES_FIT], [{"node1": (["p1"], 0), "node5": (["p5"], 0)}], [4],
               args=DefaultPreemptionArgs(40, 1), offsets=(4,)),
    DryRunCase("some nodes are not possible candidates, DefaultPreemptionArgs limits to 2",
               [f"node{i}" for i in range(1, 6)], [_p("p", "", HIGH_PRIORITY, LARGE_RES)],
               [_p("p1", "node1", MID_PRIORITY, LARGE_RES), _p("p2", "node2", VERY_HIGH_PRIORITY, LARGE_RES),
                _p("p3", "node3", MID_PRIORITY, LARGE_RES), _p("p4", "node4", MID_PRIORITY, LARGE_RES),
                _p("p5", "node5", VERY_HIGH_PRIORITY, LARGE_RES)],
               [NODE_RESOURCES_FIT], [{"node1": (["p1"], 0), "node3": (["p3"], 0)}], [4],
               args=DefaultPreemptionArgs(40, 1), offsets=(4,)),
    DryRunCase("preemption offset across multiple scheduling cycles and wrap around",
               [f"node{i}" for i in range(1, 6)],
               [_p(f"tp{i}", "", HIGH_PRIORITY, LARGE_RES) for i in range(1, 4)],
               [_p(f"p{i}", f"node{i}", MID_PRIORITY, LARGE_RES) for i in range(1, 6)],
               [NODE_RESOURCES_FIT],
               [{"node1": (["p1"], 0), "node5": (["p5"], 0)}, {"node2": (["p2"], 0), "node3": (["p3"], 0)},
                {"node4": (["p4"], 0), "node5": (["p5"], 0)}], [4, 4, 4],
               args=DefaultPreemptionArgs(40, 1), offsets=(4, 1, 3)),
    DryRunCase("preemption looks past numCandidates until a non-PDB violating node is found",
               [f"node{i}" for i in range(1, 6)], [_p("p", "", HIGH_PRIORITY, LARGE_RES)],
               [_p("p1", "node1", MID_PRIORITY, LARGE_RES, labels=FOO_PDB),
                _p("p2", "node2", MID_PRIORITY, LARGE_RES, labels=FOO_PDB),
                _p("p3", "node3", MID_PRIORITY, LARGE_RES), _p("p4", "node4", MID_PRIORITY, LARGE_RES),
                _p("p5", "node5", MID_PRIORITY, LARGE_RES, labels=FOO_PDB)],
               [NODE_RESOURCES_FIT], [{"node1": (["p1"], 1), "node3": (["p3"], 0), "node5": (["p5"], 1)}], [8],
               pdbs=[make_pdb(match_labels=FOO_PDB, disruptions_allowed=0)],
               args=DefaultPreemptionArgs(40, 2), offsets=(4,)),
]


@pytest.mark.parametrize("tt", DRY_RUN_CASES, ids=lambda tt: tt.name)
def test_dry_run_preemption(tt: DryRunCase) -> None:
    nodes = make_nodes(tt.node_names)
    fake = FakeFilterPlugin({n.name: tt.fake_filter_rc for n in nodes})
    env = build(tt.init_pods, nodes, [plugin_spec(fake), *tt.plugins], args=tt.args)
    env.plugin.rng = FixedOffsets(*tt.offsets)
    node_infos = sorted(env.snapshot.list(), key=lambda n: n.name)
    prev = 0
    for cycle, p in enumerate(tt.test_pods):
        state = env.state_for(p)
        offset, num_candidates = env.plugin.get_offset_and_num_candidates(len(node_infos))
        ev = Evaluator("DefaultPreemption", env.fwk, state, env.plugin)
        got, _, _ = ev.dry_run_preemption(p, node_infos, tt.pdbs, offset, num_candidates)
        candidates = {c.name: (sorted(v.name for v in c.victims.pods), c.victims.num_pdb_violations) for c in got}
        assert fake.num_filter_called - prev == tt.expected_num_filter_called[cycle], f"cycle {cycle}"
        prev = fake.num_filter_called
        assert candidates == tt.expected[cycle], f"cycle {cycle}"


def test_dry_run_preemption_puts_non_violating_candidates_first() -> None:
    """The returned list holds the non-violating candidates, then the violating ones."""
    tt = DRY_RUN_CASES[-1]
    env = build(tt.init_pods, make_nodes(tt.node_names), tt.plugins, args=tt.args)
    p = tt.test_pods[0]
    ev = Evaluator("DefaultPreemption", env.fwk, env.state_for(p), env.plugin)
    got, _, _ = ev.dry_run_preemption(p, env.snapshot.list(), tt.pdbs, 4, 2)
    assert [(c.name, c.victims.num_pdb_violations) for c in got] == [("node3", 0), ("node5", 1), ("node1", 1)]


# --- TestSelectBestCandidate -------------------------------------------------------------


@dataclass
class SelectCase:
    name: str
    node_names: list[str]
    pod: Pod
    pods: list[Pod]
    expected: list[str]


SELECT_CASES = [
    SelectCase("a pod that fits on both nodes when lower priority pods are preempted", ["node1", "node2"],
               _p("p", "", HIGH_PRIORITY, LARGE_RES),
               [_p("p1", "node1", MID_PRIORITY, LARGE_RES, EPOCH_TIME),
                _p("p2", "node2", MID_PRIORITY, LARGE_RES, EPOCH_TIME)], ["node1", "node2"]),
    SelectCase("node with min highest priority pod is picked", ["node1", "node2", "node3"],
               _p("p", "", HIGH_PRIORITY, VERY_LARGE_RES),
               [_p("p1.1", "node1", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p1.2", "node1", MID_PRIORITY, LARGE_RES, EPOCH_TIME),
                _p("p2.1", "node2", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p2.2", "node2", LOW_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p3.1", "node3", LOW_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p3.2", "node3", LOW_PRIORITY, MEDIUM_RES, EPOCH_TIME)], ["node3"]),
    SelectCase("when highest priorities are the same, minimum sum of priorities is picked",
               ["node1", "node2", "node3"], _p("p", "", HIGH_PRIORITY, VERY_LARGE_RES),
               [_p("p1.1", "node1", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p1.2", "node1", MID_PRIORITY, LARGE_RES, EPOCH_TIME),
                _p("p2.1", "node2", MID_PRIORITY, LARGE_RES, EPOCH_TIME),
                _p("p2.2", "node2", LOW_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p3.1", "node3", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p3.2", "node3", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME)], ["node2"]),
    SelectCase("when highest priority and sum are the same, minimum number of pods is picked",
               ["node1", "node2", "node3"], _p("p", "", HIGH_PRIORITY, VERY_LARGE_RES),
               [_p("p1.1", "node1", MID_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p1.2", "node1", NEG_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p1.3", "node1", MID_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p1.4", "node1", NEG_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p2.1", "node2", MID_PRIORITY, LARGE_RES, EPOCH_TIME),
                _p("p2.2", "node2", NEG_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p3.1", "node3", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p3.2", "node3", NEG_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p3.3", "node3", LOW_PRIORITY, SMALL_RES, EPOCH_TIME)], ["node2"]),
    SelectCase("sum of adjusted priorities is considered", ["node1", "node2", "node3"],
               _p("p", "", HIGH_PRIORITY, VERY_LARGE_RES),
               [_p("p1.1", "node1", MID_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p1.2", "node1", NEG_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p1.3", "node1", NEG_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p2.1", "node2", MID_PRIORITY, LARGE_RES, EPOCH_TIME),
                _p("p2.2", "node2", NEG_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p3.1", "node3", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p3.2", "node3", NEG_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p3.3", "node3", LOW_PRIORITY, SMALL_RES, EPOCH_TIME)], ["node2"]),
    SelectCase("non-overlapping lowest high priority, sum priorities, and number of pods",
               ["node1", "node2", "node3", "node4"], _p("p", "", VERY_HIGH_PRIORITY, VERY_LARGE_RES),
               [_p("p1.1", "node1", MID_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p1.2", "node1", LOW_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p1.3", "node1", LOW_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p2.1", "node2", HIGH_PRIORITY, LARGE_RES, EPOCH_TIME),
                _p("p3.1", "node3", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p3.2", "node3", LOW_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p3.3", "node3", LOW_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p3.4", "node3", LOW_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p4.1", "node4", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME),
                _p("p4.2", "node4", MID_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p4.3", "node4", MID_PRIORITY, SMALL_RES, EPOCH_TIME),
                _p("p4.4", "node4", NEG_PRIORITY, SMALL_RES, EPOCH_TIME)], ["node1"]),
    SelectCase("same priority, same number of victims, different start time for each node's pod",
               ["node1", "node2", "node3"], _p("p", "", HIGH_PRIORITY, VERY_LARGE_RES),
               [_p("p1.1", "node1", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME2),
                _p("p1.2", "node1", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME2),
                _p("p2.1", "node2", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME3),
                _p("p2.2", "node2", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME3),
                _p("p3.1", "node3", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME1),
                _p("p3.2", "node3", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME1)], ["node2"]),
    SelectCase("same priority, same number of victims, different start time for all pods",
               ["node1", "node2", "node3"], _p("p", "", HIGH_PRIORITY, VERY_LARGE_RES),
               [_p("p1.1", "node1", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME4),
                _p("p1.2", "node1", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME2),
                _p("p2.1", "node2", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME5),
                _p("p2.2", "node2", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME1),
                _p("p3.1", "node3", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME3),
                _p("p3.2", "node3", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME6)], ["node3"]),
    SelectCase("different priority, same number of victims, different start time for all pods",
               ["node1", "node2", "node3"], _p("p", "", HIGH_PRIORITY, VERY_LARGE_RES),
               [_p("p1.1", "node1", LOW_PRIORITY, MEDIUM_RES, EPOCH_TIME4),
                _p("p1.2", "node1", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME2),
                _p("p2.1", "node2", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME6),
                _p("p2.2", "node2", LOW_PRIORITY, MEDIUM_RES, EPOCH_TIME1),
                _p("p3.1", "node3", LOW_PRIORITY, MEDIUM_RES, EPOCH_TIME3),
                _p("p3.2", "node3", MID_PRIORITY, MEDIUM_RES, EPOCH_TIME5)], ["node2"]),
]


@pytest.mark.parametrize("offset", [0, 1, 2])
@pytest.mark.parametrize("tt", SELECT_CASES, ids=lambda tt: tt.name)
def test_select_best_candidate(tt: SelectCase, offset: int) -> None:
    env = build(tt.pods, make_nodes(tt.node_names))
    env.plugin.rng = FixedOffsets(offset)
    state = env.state_for(tt.pod)
    node_infos = env.snapshot.list()
    off, num_candidates = env.plugin.get_offset_and_num_candidates(len(node_infos))
    ev = Evaluator("DefaultPreemption", env.fwk, state, env.plugin)
    candidates, _, _ = ev.dry_run_preemption(tt.pod, node_infos, [], off, num_candidates)
    s = ev.select_candidate(candidates)
    assert s is not None and s.name in tt.expected


# --- TestPodEligibleToPreemptOthers ---------------------------------------------------------


@dataclass
class EligibleCase:
    name: str
    pod: Pod
    pods: list[Pod]
    nodes: list[str]
    nominated_node_status: Optional[Status]
    expected: bool
    pod_disruption_conditions: bool = True


def _terminating(p: Pod, by_preemption: bool) -> Pod:
    p.metadata.deletion_timestamp = 0.0
    if by_preemption:
        p.status.conditions.append(PodCondition("DisruptionTarget", "True", "PreemptionByScheduler"))
    return p


def _nominated(name: str) -> Pod:
    return make_pod().name(name).uid("p").priority(HIGH_PRIORITY).nominated_node_name("node1").obj()


ELIGIBLE_CASES = [
    EligibleCase("Pod with nominated node", _nominated("p_with_nominated_node"),
                 [_terminating(_p("p1", "node1", LOW_PRIORITY), False)], ["node1"],
                 new_status(UU, "node(s) had untolerated taint {foo: bar}"), True),
    EligibleCase("Pod without nominated node",
                 make_pod().name("p_without_nominated_node").uid("p").priority(HIGH_PRIORITY).obj(), [], [], None,
                 True),
    EligibleCase("Pod with 'PreemptNever' preemption policy",
                 make_pod().name("p_with_preempt_never_policy").uid("p").priority(HIGH_PRIORITY)
                 .preemption_policy(PREEMPT_NEVER).obj(), [], [], None, False),
    EligibleCase("victim Pods terminating, feature PodDisruptionConditions is enabled",
                 _nominated("p_with_nominated_node"), [_terminating(_p("p1", "node1", LOW_PRIORITY), True)],
                 ["node1"], None, False),
    EligibleCase("non-victim Pods terminating, feature PodDisruptionConditions is enabled",
                 _nominated("p_with_nominated_node"), [_terminating(_p("p1", "node1", LOW_PRIORITY), False)],
                 ["node1"], None, True),
    EligibleCase("victim Pods terminating, feature PodDisruptionConditions is disabled",
                 _nominated("p_with_nominated_node"), [_terminating(_p("p1", "node1", LOW_PRIORITY), True)],
                 ["node1"], None, False, pod_disruption_conditions=False),
    EligibleCase("non-victim Pods terminating, feature PodDisruptionConditions is disabled",
                 _nominated("p_with_nominated_node"), [_terminating(_p("p1", "node1", LOW_PRIORITY), False)],
                 ["node1"], None, False, pod_disruption_conditions=False),
]


@pytest.mark.parametrize("tt", ELIGIBLE_CASES, ids=lambda tt: tt.name)
def test_pod_eligible_to_preempt_others(tt: EligibleCase) -> None:
    env = build(tt.pods, [make_node().name(n).obj() for n in tt.nodes], [])
    pl = DefaultPreemption(env.fwk, default_preemption._Args(), tt.pod_disruption_conditions)
    got, msg = pl.pod_eligible_to_preempt_others(tt.pod, tt.nominated_node_status)
    assert got == tt.expected
    if not got:
        assert msg in (default_preemption.ERR_REASON_PREEMPT_NEVER, default_preemption.ERR_REASON_TERMINATING_POD)


def test_pod_terminating_by_preemption_needs_deletion_timestamp() -> None:
    p = _p("p1", "node1", LOW_PRIORITY)
    assert not pod_terminating_by_preemption(p, True)
    assert not pod_terminating_by_preemption(p, False)


# --- TestPreempt (subset) -------------------------------------------------------------------


@dataclass
class PreemptCase:
    name: str
    pod: Pod
    pods: list[Pod]
    node_names: list[str]
    plugins: list[PluginSpec]
    want: Optional[PostFilterResult]
    expected_pods: list[str]


def _dp(name, node, prio, req=None, labels=None):
    return dpod(name, node, prio, req, labels)


PREEMPT_CASES = [
    PreemptCase("basic preemption logic",
                make_pod().name("p").uid("p").namespace("default").priority(HIGH_PRIORITY).req(VERY_LARGE_RES)
                .preemption_policy(PREEMPT_LOWER_PRIORITY).obj(),
                [_dp("p1.1", "node1", LOW_PRIORITY, SMALL_RES), _dp("p1.2", "node1", LOW_PRIORITY, SMALL_RES),
                 _dp("p2.1", "node2", HIGH_PRIORITY, LARGE_RES), _dp("p3.1", "node3", MID_PRIORITY, MEDIUM_RES)],
                ["node1", "node2", "node3"], [NODE_RESOURCES_FIT],
                PostFilterResult.with_nominated_node("node1"), ["p1.1", "p1.2"]),
    PreemptCase("preemption for topology spread constraints",
                make_pod().name("p").uid("p").namespace("default").label("foo", "").priority(HIGH_PRIORITY)
                .spread_constraint(1, "zone", "DoNotSchedule", make_label_selector().exists("foo").obj())
                .spread_constraint(1, "hostname", "DoNotSchedule", make_label_selector().exists("foo").obj())
                .obj(),
                [_dp("p-a1", "node-a", HIGH_PRIORITY, labels={"foo": ""}),
                 _dp("p-a2", "node-a", HIGH_PRIORITY, labels={"foo": ""}),
                 _dp("p-b1", "node-b", LOW_PRIORITY, labels={"foo": ""}),
                 _dp("p-x1", "node-x", HIGH_PRIORITY, labels={"foo": ""}),
                 _dp("p-x2", "node-x", HIGH_PRIORITY, labels={"foo": ""})],
                ["node-a/zone1", "node-b/zone1", "node-x/zone2"], [POD_TOPOLOGY_SPREAD],
                PostFilterResult.with_nominated_node("node-b"), ["p-b1"]),
    PreemptCase("no preempting in pod",
                make_pod().name("p").uid("p").namespace("default").priority(HIGH_PRIORITY).req(VERY_LARGE_RES)
                .preemption_policy(PREEMPT_NEVER).obj(),
                [_dp("p1.1", "node1", LOW_PRIORITY, SMALL_RES), _dp("p1.2", "node1", LOW_PRIORITY, SMALL_RES),
                 _dp("p2.1", "node2", HIGH_PRIORITY, LARGE_RES), _dp("p3.1", "node3", MID_PRIORITY, MEDIUM_RES)],
                ["node1", "node2", "node3"], [NODE_RESOURCES_FIT], None, []),
    PreemptCase("PreemptionPolicy is nil",
                make_pod().name("p").uid("p").namespace("default").priority(HIGH_PRIORITY).req(VERY_LARGE_RES)
                .obj(),
                [_dp("p1.1", "node1", LOW_PRIORITY, SMALL_RES), _dp("p1.2", "node1", LOW_PRIORITY, SMALL_RES),
                 _dp("p2.1", "node2", HIGH_PRIORITY, LARGE_RES), _dp("p3.1", "node3", MID_PRIORITY, MEDIUM_RES)],
                ["node1", "node2", "node3"], [NODE_RESOURCES_FIT],
                PostFilterResult.with_nominated_node("node1"), ["p1.1", "p1.2"]),
]


@pytest.mark.parametrize("tt", PREEMPT_CASES, ids=lambda tt: tt.name)
def test_preempt(tt: PreemptCase) -> None:
    env = build(tt.pods, make_nodes(tt.node_names), tt.plugins, pending=[tt.pod])
    state = env.state_for(tt.pod)
    node_to_status = {n.name: new_status(U) for n in env.snapshot.list()}
    ev = Evaluator("DefaultPreemption", env.fwk, state, env.plugin)
    res, status = ev.preempt(tt.pod, node_to_status)
    assert status is None or status.is_success() or status.is_rejected()
    assert res == tt.want
    deleted = sorted(key.split("/")[-1] for key in env.client.deleted)
    assert deleted == sorted(tt.expected_pods)
    # Every victim got the DisruptionTarget condition before it was deleted.
    patched = sorted(w.key.split("/")[-1] for w in env.client.writes
                     if w.verb == "status" and "preempting to accommodate" in w.detail)
    assert patched == deleted
    for w in env.client.writes:
        if w.verb == "status" and "preempting to accommodate" in w.detail:
            assert w.detail == f"{tt.pod.spec.scheduler_name}: preempting to accommodate a higher priority pod"


def test_preempt_again_while_victims_terminate() -> None:
    """With a grace period the victims stay terminating; the preemptor, now nominated, waits for them."""
    tt = PREEMPT_CASES[0]
    clock = VirtualClock()
    env = build(tt.pods, make_nodes(tt.node_names), tt.plugins, pending=[tt.pod], client=APIServer(clock))
    env.plugin.victim_grace_period = None  # each victim's terminationGracePeriodSeconds (default 30s)
    state = env.state_for(tt.pod)
    node_to_status = {n.name: new_status(U) for n in env.snapshot.list()}
    res, status = env.plugin.post_filter(state, tt.pod, node_to_status)
    assert res == PostFilterResult.with_nominated_node("node1") and status.is_success()
    assert env.client.deleted == []
    terminating = [p for p in env.client.list("Pod") if p.metadata.deletion_timestamp is not None]
    assert sorted(p.name for p in terminating) == ["p1.1", "p1.2"]
    assert all(any(c.type == "DisruptionTarget" for c in p.status.conditions) for p in terminating)

    # The next cycle sees the terminating victims on the nominated node.
    env.client.update_pod_status("default", "p", None, nominated_node_name="node1")
    again = build([p for p in env.client.list("Pod") if p.spec.node_name], make_nodes(tt.node_names), tt.plugins,
                  pending=[env.client.get_pod("default", "p")])
    latest = again.client.get_pod("default", "p")
    res, status = again.plugin.post_filter(again.state_for(latest), latest, node_to_status)
    assert res is None
    assert status.code == U
    assert status.message() == "preemption: not eligible due to a terminating pod on the nominated node."
    assert again.client.deleted == []

    clock.advance_to(30.0)
    assert sorted(k.split("/")[-1] for k in env.client.deleted) == ["p1.1", "p1.2"]


def test_preempt_clears_lower_priority_nominations() -> None:
    """prepareCandidate clears nominatedNodeName of lower-priority pods nominated to the chosen node."""
    tt = PREEMPT_CASES[0]
    low = make_pod().name("low").uid("low").namespace("default").priority(LOW_PRIORITY) \
        .nominated_node_name("node1").obj()
    higher = make_pod().name("higher").uid("higher").namespace("default").priority(VERY_HIGH_PRIORITY) \
        .nominated_node_name("node1").obj()
    nominator = FakeNominator({"node1": [PodInfo.of(low), PodInfo.of(higher)]})
    env = build(tt.pods, make_nodes(tt.node_names), tt.plugins, pending=[tt.pod, low, higher], nominator=nominator)
    node_to_status = {n.name: new_status(U) for n in env.snapshot.list()}
    res, status = env.plugin.post_filter(env.state_for(tt.pod), tt.pod, node_to_status)
    assert res == PostFilterResult.with_nominated_node("node1")
    assert env.client.get_pod("default", "low").status.nominated_node_name == ""
    assert env.client.get_pod("default", "higher").status.nominated_node_name == "node1"


def test_preempt_rejects_waiting_victim() -> None:
    """A victim held at Permit is rejected with "preempted" instead of deleted."""
    from ksched_edu.framework.runtime import WaitingPod

    tt = PREEMPT_CASES[0]
    env = build(tt.pods, make_nodes(tt.node_names), tt.plugins, pending=[tt.pod])
    victim = next(p for p in tt.pods if p.name == "p1.1")
    env.fwk.waiting_pods[victim.uid] = WaitingPod(victim, {"Coscheduling": 60.0})
    node_to_status = {n.name: new_status(U) for n in env.snapshot.list()}
    res, status = env.plugin.post_filter(env.state_for(tt.pod), tt.pod, node_to_status)
    assert res == PostFilterResult.with_nominated_node("node1")
    waiting = env.fwk.waiting_pods[victim.uid]
    assert waiting.status is not None and waiting.status.code == U
    assert waiting.status.get_reasons() == ["preempted"] and waiting.status.plugin == "DefaultPreemption"
    assert [k.split("/")[-1] for k in env.client.deleted] == ["p1.2"]


def test_preempt_records_the_decision() -> None:
    tt = SELECT_CASES[1]  # node with min highest priority pod is picked
    recorder = Recorder()
    p = make_pod().name("p").uid("p").namespace("default").priority(HIGH_PRIORITY).req(VERY_LARGE_RES).obj()
    env = build(tt.pods, make_nodes(tt.node_names), pending=[p], recorder=recorder)
    node_to_status = {n.name: new_status(U) for n in env.snapshot.list()}
    env.plugin.post_filter(env.state_for(p), p, node_to_status)
    [event] = recorder.of(PreemptionEvent)
    assert event.nominated_node == "node3"
    assert event.decided_by == "lowest highest-priority victim"
    assert sorted(event.victims) == ["/p3.1", "/p3.2"]
    assert {c.node: c.highest_priority for c in event.candidates} == {
        "node1": MID_PRIORITY, "node2": MID_PRIORITY, "node3": LOW_PRIORITY}
    assert [r["chosen"] for r in event.rows()].count(True) == 1
    assert "nominate node3" in str(event)


# --- TestCalculateNumCandidates ----------------------------------------------------------


@pytest.mark.parametrize("num_nodes,percentage,absolute,expected", [
    pytest.param(100, 10, 100, 100, id="default args with 100 nodes"),
    pytest.param(1000, 10, 100, 100, id="10 percent of 1000 nodes equals the absolute minimum"),
    pytest.param(5000, 10, 100, 500, id="percentage above the absolute minimum"),
    pytest.param(10, 10, 100, 10, id="never more candidates than nodes"),
    pytest.param(100, 50, 10, 50, id="percentage wins"),
    pytest.param(100, 50, 60, 60, id="absolute wins"),
    pytest.param(100, 0, 30, 30, id="zero percentage"),
    pytest.param(100, 40, 0, 40, id="zero absolute"),
    pytest.param(3, 33, 0, 0, id="rounds the percentage down"),
])
def test_calculate_num_candidates(num_nodes: int, percentage: int, absolute: int, expected: int) -> None:
    pl = default_preemption.new(DefaultPreemptionArgs(percentage, absolute), None)
    assert pl.calculate_num_candidates(num_nodes) == expected


def test_get_offset_and_num_candidates_is_deterministic() -> None:
    a = default_preemption.new(None, None)
    b = default_preemption.new(None, None)
    got_a = [a.get_offset_and_num_candidates(7) for _ in range(5)]
    assert got_a == [b.get_offset_and_num_candidates(7) for _ in range(5)]
    assert all(0 <= off < 7 and n == 7 for off, n in got_a)


@pytest.mark.parametrize("args,message", [
    pytest.param(DefaultPreemptionArgs(0, 0),
                 "[minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as "
                 "minCandidateNodesAbsolute, minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the "
                 "same time as minCandidateNodesPercentage]", id="both zero"),
    pytest.param(DefaultPreemptionArgs(101, 100),
                 "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]",
                 id="percentage above 100"),
    pytest.param(DefaultPreemptionArgs(10, -1),
                 "minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)", id="negative absolute"),
])
def test_new_validates_args(args: DefaultPreemptionArgs, message: str) -> None:
    with pytest.raises(ValueError) as err:
        default_preemption.new(args, None)
    assert str(err.value) == message


# --- filterPodsWithPDBViolation ---------------------------------------------------------------


def test_filter_pods_with_pdb_violation_keeps_order_and_spends_budgets() -> None:
    pods = [PodInfo.of(_p(n, "node1", MID_PRIORITY, labels=FOO_PDB)) for n in ("a", "b", "c")]
    pods.append(PodInfo.of(_p("d", "node1", MID_PRIORITY)))  # no labels: never violating
    pdbs = [make_pdb(match_labels=FOO_PDB, disruptions_allowed=1),
            make_pdb(match_labels={}, disruptions_allowed=0),  # empty selector selects nothing
            make_pdb(namespace="other", match_labels=FOO_PDB)]  # other namespace
    violating, non_violating = filter_pods_with_pdb_violation(pods, pdbs)
    assert [p.pod.name for p in violating] == ["b", "c"]
    assert [p.pod.name for p in non_violating] == ["a", "d"]


def test_registers_no_cluster_events() -> None:
    """A PostFilter-only plugin gets no EnqueueExtensions (upstream shouldHaveEnqueueExtensions)."""
    env = build([], [make_node().name("n1").obj()])
    assert [pl.name() for pl in env.fwk.post_filter_plugins] == ["DefaultPreemption"]
    assert "DefaultPreemption" not in [e.name() for e in env.fwk.enqueue_extensions]
    assert not hasattr(env.plugin, "events_to_register")


def test_not_eligible_is_recorded() -> None:
    recorder = Recorder()
    p = make_pod().name("p").uid("p").namespace("default").priority(HIGH_PRIORITY) \
        .preemption_policy(PREEMPT_NEVER).obj()
    env = build([], [make_node().name("n1").obj()], pending=[p], recorder=recorder)
    res, status = env.plugin.post_filter(CycleState(), p, {"n1": new_status(U)})
    assert res is None and status.message() == "preemption: not eligible due to preemptionPolicy=Never."
    [event] = recorder.of(PreemptionEvent)
    assert event.message == "not eligible due to preemptionPolicy=Never." and event.nominated_node == ""
