"""Mirrors least_numa_test.go (scheduler-plugins, commit 37b7888a): TestNUMANodesRequired,
TestNormalizeScore, TestMinDistance; plus the combination order they rely on."""
from __future__ import annotations

import pytest

from ksched_edu.framework.plugins.noderesourcetopology.bitmask import new_bit_mask
from ksched_edu.framework.plugins.noderesourcetopology.gonum_stat import combinations, float32
from ksched_edu.framework.plugins.noderesourcetopology.least_numa import (min_avg_distance_in_combinations,
                                                                          normalize_score, numa_nodes_required)
from ksched_edu.framework.plugins.noderesourcetopology.numaresources import NUMANode
from ksched_edu.framework.plugins.noderesourcetopology.qos import POD_QOS_GUARANTEED

from .objects import CPU, MEMORY, rl

GPU_RESOURCE = "gpu"


def numa(numa_id: int, res: dict, costs: dict | None = None) -> NUMANode:
    return NUMANode(numa_id, rl(res), dict(costs or {}))


def full(gpu: str) -> dict:
    return {GPU_RESOURCE: gpu, CPU: "4", MEMORY: "5Gi"}


def no_memory(gpu: str) -> dict:
    return {GPU_RESOURCE: gpu, CPU: "4"}


COSTS_4 = [{0: 10, 1: 12, 2: 20, 3: 20}, {0: 12, 1: 10, 2: 20, 3: 20},
           {0: 20, 1: 20, 2: 10, 3: 12}, {0: 20, 1: 20, 2: 10, 3: 12}]
COSTS_4_B = [{0: 10, 1: 12, 2: 20, 3: 20}, {0: 12, 1: 10, 2: 20, 3: 20},
             {0: 20, 1: 20, 2: 10, 3: 12}, {0: 20, 1: 20, 2: 12, 3: 10}]
COSTS_8 = {
    0: {0: 10, 1: 20, 2: 40, 3: 30, 4: 20, 5: 30, 6: 50, 7: 40},
    3: {0: 30, 1: 40, 2: 20, 3: 10, 4: 30, 5: 20, 6: 40, 7: 50},
    5: {0: 30, 1: 20, 2: 50, 3: 20, 4: 50, 5: 10, 6: 50, 7: 40},
    7: {0: 40, 1: 50, 2: 30, 3: 50, 4: 20, 5: 40, 6: 30, 7: 10},
    1: {0: 20, 1: 10, 2: 30, 3: 40, 4: 50, 5: 20, 6: 40, 7: 50},
    6: {0: 50, 1: 40, 2: 20, 3: 40, 4: 30, 5: 50, 6: 10, 7: 30},
    2: {0: 40, 1: 30, 2: 10, 3: 20, 4: 40, 5: 50, 6: 20, 7: 30},
    4: {0: 20, 1: 50, 2: 40, 3: 30, 4: 10, 5: 50, 6: 30, 7: 20},
}
ORDER_8 = [0, 3, 5, 7, 1, 6, 2, 4]
COSTS_SPARSE = [{0: 10, 2: 12, 4: 20, 6: 20}, {0: 12, 2: 10, 4: 20, 6: 20},
                {0: 20, 2: 20, 4: 10, 6: 12}, {0: 20, 2: 20, 4: 12, 6: 10}]
POD_GPU_2 = {CPU: "2", MEMORY: "2Gi", GPU_RESOURCE: "2"}
POD_GPU_3 = {CPU: "3", MEMORY: "2Gi", GPU_RESOURCE: "3"}

# (description, NUMA nodes, pod resources, want bits (None: cannot fit), want min distance)
NUMA_NODES_REQUIRED_CASES = [
    ("simple case, fit on 1 NUMA node", [numa(0, {CPU: "8", MEMORY: "10Gi"})], {CPU: "2", MEMORY: "2Gi"}, [0], True),
    ("simple case, fit on 2 NUMA node", [numa(0, {CPU: "8", MEMORY: "10Gi"}), numa(1, {CPU: "8", MEMORY: "10Gi"})],
     {CPU: "12", MEMORY: "2Gi"}, [0, 1], True),
    ("can't fit", [numa(0, {CPU: "8", MEMORY: "10Gi"}), numa(1, {CPU: "8", MEMORY: "10Gi"})],
     {CPU: "22", MEMORY: "2Gi"}, None, False),
    ("4 NUMA node optimal distance",
     [numa(i, full(g), COSTS_4[i]) for i, g in enumerate(["1", "1", "0", "0"])], POD_GPU_2, [0, 1], True),
    ("4 NUMA node non optimal distance",
     [numa(i, full(g), COSTS_4_B[i]) for i, g in enumerate(["1", "0", "1", "0"])], POD_GPU_2, [0, 2], False),
    ("8 NUMA node optimal distance, not sorted ids",
     [numa(i, full("1"), COSTS_8[i]) for i in ORDER_8], POD_GPU_3, [0, 1, 5], True),
    ("8 NUMA node non optimal distance, not sorted ids, odd digit NUMA node without memory",
     [numa(i, (no_memory if i % 2 else full)("1"), COSTS_8[i]) for i in ORDER_8], POD_GPU_3, [2, 4, 6], False),
    ("4 NUMA node optimal distance, non sequential ids",
     [numa(2 * i, full(g), COSTS_SPARSE[i]) for i, g in enumerate(["1", "1", "0", "0"])], POD_GPU_2, [0, 2], True),
    ("4 NUMA node non optimal distance, non sequential ids",
     [numa(2 * i, full(g), COSTS_SPARSE[i]) for i, g in enumerate(["1", "0", "0", "1"])], POD_GPU_2, [0, 6], False),
    ("4 NUMA node non optimal distance, non sequential ids, NUMA node-2 and node-6 without memory",
     [numa(2 * i, (no_memory if i % 2 else full)("1"), COSTS_SPARSE[i]) for i in range(4)], POD_GPU_2, [0, 4],
     False),
]


@pytest.mark.parametrize("numa_nodes,pod_resources,want_bits,want_min_distance",
                         [c[1:] for c in NUMA_NODES_REQUIRED_CASES], ids=[c[0] for c in NUMA_NODES_REQUIRED_CASES])
def test_numa_nodes_required(numa_nodes, pod_resources, want_bits, want_min_distance):
    bm, is_min_distance = numa_nodes_required(POD_QOS_GUARANTEED, numa_nodes, rl(pod_resources))
    if want_bits is None:
        assert bm is None
    else:
        assert bm is not None and bm.is_equal(new_bit_mask(*want_bits))
    assert is_min_distance == want_min_distance


@pytest.mark.parametrize("count,optimal,want", [
    (1, False, 88), (2, False, 76), (8, False, 4), (1, True, 94), (2, True, 82), (8, True, 10),
], ids=["1 numa node, non optimal distance", "2 numa nodes, non optimal distance",
        "8 numa nodes, non optimal distance", "1 numa node, optimal distance", "2 numa nodes, optimal distance",
        "8 numa nodes, optimal distance"])
def test_normalize_score(count, optimal, want):
    assert normalize_score(count, optimal) == want


NUMA_NODES = [NUMANode(i, {}, c) for i, c in enumerate(COSTS_4_B)]
NUMA_NODES_NO_COSTS = [NUMANode(i) for i in range(4)]
PAIRS = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]


@pytest.mark.parametrize("combinations_,numa_nodes,want", [
    ([[0], [1], [2], [3]], NUMA_NODES, 10),
    (PAIRS, NUMA_NODES, 11),
    ([[0, 1, 2], [1, 2, 3], [0, 2, 3]], NUMA_NODES, float32(14.888889)),
    (PAIRS, NUMA_NODES_NO_COSTS, 255),
], ids=["single numa node combination", "two numa node combination", "three numa node combination",
        "two numa node combination, no costs"])
def test_min_distance(combinations_, numa_nodes, want):
    assert min_avg_distance_in_combinations(numa_nodes, combinations_) == want


def test_combinations_lexicographic():
    assert combinations(4, 2) == PAIRS
    assert combinations(3, 3) == [[0, 1, 2]]
    assert combinations(3, 1) == [[0], [1], [2]]
    with pytest.raises(ValueError):
        combinations(2, 3)
