"""Mirrors score_test.go (scheduler-plugins, commit 37b7888a): TestNodeResourceScorePlugin,
TestNodeResourceScorePluginLeastNUMA, TestNodeResourcePartialDataScorePlugin; plus the Score's
QoS and policy exits and the per-zone strategies."""
from __future__ import annotations

import pytest

from ksched_edu.api.noderesourcetopology import (BEST_EFFORT_CONTAINER_LEVEL, BEST_EFFORT_POD_LEVEL,
                                                 SINGLE_NUMA_NODE_CONTAINER_LEVEL, SINGLE_NUMA_NODE_POD_LEVEL,
                                                 NodeResourceTopology)
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.plugins.noderesourcetopology.balanced_allocation import balanced_allocation_score_strategy
from ksched_edu.framework.plugins.noderesourcetopology.config import LEAST_NUMA_NODES
from ksched_edu.framework.plugins.noderesourcetopology.least_allocated import least_allocated_score_strategy
from ksched_edu.framework.plugins.noderesourcetopology.most_allocated import most_allocated_score_strategy
from ksched_edu.framework.plugins.noderesourcetopology.numaresources import NUMANode
from ksched_edu.framework.plugins.noderesourcetopology.score import ResourceToWeightMap, score_for_each_numa_node

from .objects import (CPU, GPU, MEMORY, make_nrt, pod_by_resource_list, pod_by_resource_lists, pod_multi,
                      pod_with_req, res_info, rl, topology_match, zone)


def default_numa_nodes(policy: str) -> list[NodeResourceTopology]:
    return [
        make_nrt("Node1", [zone("node-0", res_info(CPU, "4", "4"), res_info(MEMORY, "500Mi", "500Mi")),
                           zone("node-1", res_info(CPU, "4", "4"), res_info(MEMORY, "500Mi", "500Mi"))], [policy]),
        make_nrt("Node2", [zone("node-0", res_info(CPU, "2", "2"), res_info(MEMORY, "50Mi", "50Mi")),
                           zone("node-1", res_info(CPU, "2", "2"), res_info(MEMORY, "50Mi", "50Mi"))], [policy]),
        make_nrt("Node3", [zone("node-0", res_info(CPU, "6", "6"), res_info(MEMORY, "60Mi", "60Mi")),
                           zone("node-1", res_info(CPU, "6", "6"), res_info(MEMORY, "60Mi", "60Mi"))], [policy]),
    ]


def _four_numa_zones(gpus: list[str]) -> list:
    costs = [{"node-0": 10, "node-1": 12, "node-2": 20, "node-3": 20},
             {"node-0": 12, "node-1": 10, "node-2": 20, "node-3": 20},
             {"node-0": 20, "node-1": 20, "node-2": 10, "node-3": 12},
             {"node-0": 20, "node-1": 20, "node-2": 12, "node-3": 10}]
    return [zone(f"node-{i}", res_info(CPU, "2", "2"), res_info(MEMORY, "50Mi", "50Mi"), res_info(GPU, g, g),
                 costs=costs[i]) for i, g in enumerate(gpus)]


def four_numa_nodes() -> list[NodeResourceTopology]:
    return [make_nrt("Node1", _four_numa_zones(["1", "1", "0", "0"]), [BEST_EFFORT_CONTAINER_LEVEL]),
            make_nrt("Node2", _four_numa_zones(["1", "0", "1", "0"]), [BEST_EFFORT_CONTAINER_LEVEL])]


def find_max_score_node(node_to_score: dict[str, int]) -> str:
    """The last node (in node order) with the top score, as upstream's loop picks it."""
    best, elected = 0, ""
    for name, score in node_to_score.items():
        if best <= score:
            best, elected = score, name
    return elected


POD1 = {CPU: "2", MEMORY: str(20 * 1024 * 1024)}


@pytest.mark.parametrize("strategy,want_node,want_score", [
    # Node2: cpu 2/2 = 100%, memory 20M/50M = 40% -> (100 + 40) / 2
    (most_allocated_score_strategy, "Node2", 70),
    # Node3: cpu 2/6 and memory 20M/60M are equal fractions -> no variance
    (balanced_allocation_score_strategy, "Node3", 100),
    # Node1: cpu 2/4 = 50%, memory 20M/500M = 4% -> ((100 - 50) + (100 - 4)) / 2
    (least_allocated_score_strategy, "Node1", 73),
], ids=["MostAllocated strategy", "BalancedAllocation strategy", "LeastAllocated strategy"])
def test_node_resource_score_plugin(strategy, want_node, want_score):
    nrts = default_numa_nodes(SINGLE_NUMA_NODE_CONTAINER_LEVEL)
    tm = topology_match(nrts, strategy=strategy)
    pod = pod_by_resource_list(POD1)
    node_to_score = {}
    for nrt in nrts:
        score, status = tm.score(CycleState(), pod, nrt.metadata.name)
        assert status is None
        node_to_score[nrt.metadata.name] = score
    got = find_max_score_node(node_to_score)
    assert (got, node_to_score[got]) == (want_node, want_score)


# (name, container requests, want scores, nodes)
LEAST_NUMA_CASES = [
    ("container scope, one container case 1", [{CPU: "2", MEMORY: "50Mi"}],
     {"Node1": 94, "Node2": 94, "Node3": 94}, "default-container"),
    ("container scope, one container case 2", [{CPU: "4", MEMORY: "50Mi"}],
     {"Node1": 94, "Node2": 82, "Node3": 94}, "default-container"),
    ("container scope, one container case 3", [{CPU: "6", MEMORY: "50Mi"}],
     {"Node1": 82, "Node2": 0, "Node3": 94}, "default-container"),
    ("container scope, two containers case 1", [{CPU: "2", MEMORY: "50Mi"}, {CPU: "2", MEMORY: "50Mi"}],
     {"Node1": 94, "Node2": 94, "Node3": 94}, "default-container"),
    ("container scope, two containers case 2", [{CPU: "1", MEMORY: "50Mi"}, {CPU: "3", MEMORY: "50Mi"}],
     {"Node1": 94, "Node2": 82, "Node3": 94}, "default-container"),
    ("container scope, two containers case 3", [{CPU: "5", MEMORY: "50Mi"}, {CPU: "3", MEMORY: "50Mi"}],
     {"Node1": 82, "Node2": 0, "Node3": 94}, "default-container"),
    ("container scope, two containers non NUMA resource", [{"non-numa-resource": "1"}, {"non-numa-resource": "2"}],
     {"Node1": 100, "Node2": 100, "Node3": 100}, "default-container"),
    ("pod scope, two containers case 1", [{CPU: "2", MEMORY: "50Mi"}, {CPU: "2", MEMORY: "50Mi"}],
     {"Node1": 94, "Node2": 82, "Node3": 82}, "default-pod"),
    ("pod scope, two containers case 2", [{CPU: "1", MEMORY: "50Mi"}, {CPU: "3", MEMORY: "50Mi"}],
     {"Node1": 94, "Node2": 82, "Node3": 82}, "default-pod"),
    ("pod scope, two containers case 3", [{CPU: "5", MEMORY: "50Mi"}, {CPU: "3", MEMORY: "50Mi"}],
     {"Node1": 82, "Node2": 0, "Node3": 82}, "default-pod"),
    ("pod scope, one containers non NUMA resource", [{"non-numa-resource": "1"}],
     {"Node1": 100, "Node2": 100, "Node3": 100}, "default-pod"),
    ("container scope, one container, 4 NUMA nodes, 1 gpu ", [{CPU: "2", MEMORY: "50Mi", GPU: "1"}],
     {"Node1": 94, "Node2": 94}, "four"),
    ("container scope, one container, 4 NUMA nodes, 2 gpu ", [{CPU: "2", MEMORY: "50Mi", GPU: "2"}],
     {"Node1": 82, "Node2": 76}, "four"),
    ("container scope, 2 containers, 4 NUMA nodes, 2 gpu in one container ",
     [{CPU: "2", MEMORY: "50Mi", GPU: "2"}, {CPU: "2", MEMORY: "50Mi"}],
     {"Node1": 82, "Node2": 76}, "four"),
]
NODE_SETS = {
    "default-container": lambda: default_numa_nodes(BEST_EFFORT_CONTAINER_LEVEL),
    "default-pod": lambda: default_numa_nodes(BEST_EFFORT_POD_LEVEL),
    "four": four_numa_nodes,
}


@pytest.mark.parametrize("requests,want,nodes", [c[1:] for c in LEAST_NUMA_CASES],
                         ids=[c[0] for c in LEAST_NUMA_CASES])
def test_node_resource_score_plugin_least_numa(requests, want, nodes):
    nrts = NODE_SETS[nodes]()
    tm = topology_match(nrts, strategy_type=LEAST_NUMA_NODES)
    pod = pod_by_resource_lists(*requests)
    got = {}
    for nrt in nrts:
        score, status = tm.score(CycleState(), pod, nrt.metadata.name)
        assert status is None
        got[nrt.metadata.name] = score
    assert got == want


def _only(name):
    return lambda nrt: nrt if nrt.metadata.name == name else None


# (name, strategy, which objects exist, want {node: score} of the best node)
PARTIAL_DATA_CASES = [
    ("No data at all, MostAllocated strategy", most_allocated_score_strategy, lambda nrt: None, {}),
    ("No data at all, LeastAllocated strategy", least_allocated_score_strategy, lambda nrt: None, {}),
    ("No data at all, BalancedAllocation strategy", balanced_allocation_score_strategy, lambda nrt: None, {}),
    ("One node with NRT data, MostAllocated strategy", most_allocated_score_strategy, _only("Node1"), {"Node1": 27}),
    ("One node with NRT data, LeastAllocated strategy", least_allocated_score_strategy, _only("Node1"),
     {"Node1": 73}),
    ("One node with NRT data, BalancedAllocation strategy", balanced_allocation_score_strategy, _only("Node1"),
     {"Node1": 89}),
]


@pytest.mark.parametrize("strategy,nrt_filter,want", [c[1:] for c in PARTIAL_DATA_CASES],
                         ids=[c[0] for c in PARTIAL_DATA_CASES])
def test_node_resource_partial_data_score_plugin(strategy, nrt_filter, want):
    nrts = default_numa_nodes(SINGLE_NUMA_NODE_CONTAINER_LEVEL)
    stored = [o for o in (nrt_filter(n) for n in nrts) if o is not None]
    tm = topology_match(stored, strategy=strategy)
    pod = pod_by_resource_list(POD1)
    node_to_score = {}
    for nrt in nrts:
        score, status = tm.score(CycleState(), pod, nrt.metadata.name)
        assert status is None
        node_to_score[nrt.metadata.name] = score
    # a node without NodeResourceTopology data always scores 0
    for nrt in nrts:
        if nrt_filter(nrt) is None:
            assert node_to_score[nrt.metadata.name] == 0
    for node, score in want.items():
        got = find_max_score_node(node_to_score)
        assert (got, node_to_score[got]) == (node, score)


# --- the Score's own exits and scopes --------------------------------------------------------


def test_non_guaranteed_pod_scores_max():
    tm = topology_match(default_numa_nodes(SINGLE_NUMA_NODE_CONTAINER_LEVEL),
                        strategy=least_allocated_score_strategy)
    assert tm.score(CycleState(), pod_with_req({CPU: "1"}), "Node1") == (100, None)


def test_policy_other_than_single_numa_node_scores_zero():
    tm = topology_match(default_numa_nodes(BEST_EFFORT_CONTAINER_LEVEL), strategy=least_allocated_score_strategy)
    assert tm.score(CycleState(), pod_by_resource_list(POD1), "Node1") == (0, None)


def test_pod_scope_scores_effective_request():
    # effective request: cpu max(2+1, init 4) = 4 of 4 -> 0; memory 20Mi of 500Mi -> 96; mean 48
    nrts = default_numa_nodes(SINGLE_NUMA_NODE_POD_LEVEL)
    tm = topology_match(nrts, strategy=least_allocated_score_strategy)
    pod = pod_multi("p", [{CPU: "4", MEMORY: "10Mi"}], [{CPU: "2", MEMORY: "10Mi"}, {CPU: "1", MEMORY: "10Mi"}])
    assert tm.score(CycleState(), pod, "Node1") == (48, None)


def test_container_scope_averages_containers():
    # init cpu 4/4 -> 0, memory 10Mi/500Mi -> 98: 49; app cpu 2/4 -> 50, memory -> 98: 74; mean 61.5 -> 61
    nrts = default_numa_nodes(SINGLE_NUMA_NODE_CONTAINER_LEVEL)
    tm = topology_match(nrts, strategy=least_allocated_score_strategy)
    pod = pod_multi("p", [{CPU: "4", MEMORY: "10Mi"}], [{CPU: "2", MEMORY: "10Mi"}])
    assert tm.score(CycleState(), pod, "Node1") == (61, None)


def test_resource_weights():
    weights = ResourceToWeightMap({CPU: 3, MEMORY: 0})
    assert weights.weight(CPU) == 3
    assert weights.weight(MEMORY) == 1  # below 1: the default
    assert weights.weight("nvidia.com/gpu") == 1
    # cpu 50 * 3 + memory 96 * 1 = 246 / 4
    assert least_allocated_score_strategy(rl({CPU: "2", MEMORY: "20Mi"}), rl({CPU: "4", MEMORY: "500Mi"}),
                                          weights) == 61


def test_score_for_each_numa_node_keeps_lowest_non_zero():
    zones = [NUMANode(0, rl({CPU: "1", MEMORY: "1Gi"})), NUMANode(1, rl({CPU: "8", MEMORY: "8Gi"})),
             NUMANode(2, rl({CPU: "4", MEMORY: "4Gi"}))]
    req = rl({CPU: "2", MEMORY: "2Gi"})
    # zone 0 cannot hold it (0), zone 1 -> 75, zone 2 -> 50
    assert score_for_each_numa_node(req, zones, least_allocated_score_strategy, ResourceToWeightMap()) == 50
    assert score_for_each_numa_node(req, zones[:1], least_allocated_score_strategy, ResourceToWeightMap()) == 0


@pytest.mark.parametrize("requested,allocatable,want", [
    ({CPU: "2", MEMORY: "2Gi"}, {CPU: "4", MEMORY: "4Gi"}, 100),
    ({CPU: "2", MEMORY: "1Gi"}, {CPU: "4", MEMORY: "4Gi"}, 96),  # fractions .5 and .25: variance 1/32
    ({CPU: "5", MEMORY: "1Gi"}, {CPU: "4", MEMORY: "4Gi"}, 0),  # more than the zone has
    ({CPU: "2", "vendor/x": "1"}, {CPU: "4"}, 87),  # a missing resource counts as fully used: .5 and 1
], ids=["equal fractions", "unequal fractions", "over capacity", "missing resource"])
def test_balanced_allocation_score_strategy(requested, allocatable, want):
    assert balanced_allocation_score_strategy(rl(requested), rl(allocatable), ResourceToWeightMap()) == want
