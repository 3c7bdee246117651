"""The subset search is exact: it agrees with trying every subset, on generated topologies and on the real ones."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_edu.gpu.search import (NO_CONSTRAINT, Choice, Constraint, best_subset, brute_force_best_subset,
                                   describe_subset)
from ksched_edu.gpu.topology import Topology

pytestmark = pytest.mark.ch08

LINKS = ["NV1", "NV2", "NV4", "NV12", "PIX", "PXB", "PHB", "NODE", "SYS"]


@st.composite
def topologies(draw, min_gpus: int = 1, max_gpus: int = 9) -> Topology:
    n = draw(st.integers(min_gpus, max_gpus))
    # A small alphabet of links makes ties (the hard part) frequent.
    alphabet = draw(st.lists(st.sampled_from(LINKS), min_size=1, max_size=4, unique=True))
    matrix = [["X"] * n for _ in range(n)]
    for i in range(n):
        for j in range(i):
            matrix[i][j] = matrix[j][i] = draw(st.sampled_from(alphabet))
    numa = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    switches = draw(st.lists(st.sampled_from(["s0", "s1", "s2"]), min_size=n, max_size=n))
    return Topology.from_matrix("generated", matrix, numa=numa, switches=switches)


constraints = st.builds(Constraint, nvlink=st.booleans(), same_numa=st.booleans(), same_pcie_switch=st.booleans(),
                        min_bandwidth=st.sampled_from([0, 0, 6, 16, 25, 50]))


@settings(max_examples=200, deadline=None)
@given(top=topologies(), data=st.data(), constraint=constraints)
def test_search_agrees_with_brute_force(top: Topology, data, constraint: Constraint) -> None:
    n = len(top.gpus)
    free = data.draw(st.integers(0, (1 << n) - 1), label="free mask")
    count = data.draw(st.integers(0, n + 1), label="count")
    assert best_subset(top, free, count, constraint) == brute_force_best_subset(top, free, count, constraint)


@settings(max_examples=100, deadline=None)
@given(top=topologies(min_gpus=2), data=st.data())
def test_the_answer_is_valid_and_free(top: Topology, data) -> None:
    n = len(top.gpus)
    free = data.draw(st.integers(0, (1 << n) - 1))
    count = data.draw(st.integers(1, n))
    constraint = Constraint(nvlink=data.draw(st.booleans()))
    choice = best_subset(top, free, count, constraint)
    if choice is None:
        return
    assert len(choice.gpus) == count and all(free >> g & 1 for g in choice.gpus)
    assert all(constraint.allows(top, i, j) for i in choice.gpus for j in choice.gpus if i < j)
    assert choice == describe_subset(top, choice.gpus)


@settings(max_examples=10, deadline=None)
@given(top=topologies(min_gpus=16, max_gpus=16), data=st.data())
def test_sixteen_gpus_agree_with_brute_force(top: Topology, data) -> None:
    free = data.draw(st.integers(0, (1 << 16) - 1))
    count = data.draw(st.sampled_from([2, 5, 8]))
    assert best_subset(top, free, count) == brute_force_best_subset(top, free, count)


DGX1_CASES = [
    ("an idle DGX-1 gives a pair its fastest link (NV2)", [], 2, NO_CONSTRAINT, (0, 3)),
    ("an idle DGX-1 gives 4 GPUs one NVLink quad", [], 4, Constraint(nvlink=True), (0, 1, 2, 3)),
    ("with GPU1 and GPU6 busy no 4 free GPUs are all NVLinked", [1, 6], 4, Constraint(nvlink=True), None),
    ("with GPU1 and GPU6 busy 3 GPUs still are", [1, 6], 3, Constraint(nvlink=True), (0, 2, 3)),
    ("5 GPUs on a DGX-1 cannot all be NVLinked", [], 5, Constraint(nvlink=True), None),
    ("a pair at 50 GB/s or more means NV2", [], 2, Constraint(min_bandwidth=50), (0, 3)),
]


@pytest.mark.parametrize("name,busy,count,constraint,want", DGX1_CASES, ids=[c[0] for c in DGX1_CASES])
def test_dgx1(catalog, name: str, busy: list[int], count: int, constraint: Constraint, want) -> None:
    top = catalog.get("dgx-1-v100")
    free = [g for g in range(8) if g not in busy]
    choice = best_subset(top, free, count, constraint)
    assert (choice.gpus if choice else None) == want


SERVER_CASES = [
    ("PCIe server: one socket's four GPUs", "pcie-2socket-8gpu", [], 4, Constraint(same_numa=True), (0, 1, 2, 3)),
    ("PCIe server: 0,1 and 4,5 busy leave no NUMA node with 4", "pcie-2socket-8gpu", [0, 1, 4, 5], 4,
     Constraint(same_numa=True), None),
    ("PCIe server: a switch holds two GPUs", "pcie-2socket-8gpu", [], 3, Constraint(same_pcie_switch=True), None),
    ("PCIe server: fewest NUMA nodes first", "pcie-2socket-8gpu", [0, 1, 4, 5], 2, NO_CONSTRAINT, (2, 3)),
    ("DGX A100: a NUMA node holds two GPUs", "dgx-a100", [], 2, Constraint(same_numa=True), (0, 1)),
    ("H100: 4 GPUs stay on one NUMA node", "hgx-h100", [0, 1], 4, NO_CONSTRAINT, (4, 5, 6, 7)),
    ("workstation: the NVLink bridge pair", "workstation-4gpu", [0], 2, NO_CONSTRAINT, (2, 3)),
    ("workstation: 3 GPUs cannot all be NVLinked", "workstation-4gpu", [], 3, Constraint(nvlink=True), None),
]


@pytest.mark.parametrize("name,topology,busy,count,constraint,want", SERVER_CASES,
                         ids=[c[0] for c in SERVER_CASES])
def test_other_servers(catalog, name: str, topology: str, busy: list[int], count: int, constraint: Constraint,
                       want) -> None:
    top = catalog.get(topology)
    free = [g for g in range(len(top.gpus)) if g not in busy]
    choice = best_subset(top, free, count, constraint)
    assert (choice.gpus if choice else None) == want
    assert choice == brute_force_best_subset(top, free, count, constraint)


def test_choice_key_order() -> None:
    a, b = Choice((0, 1), 25, 25, 1), Choice((0, 4), 25, 25, 2)
    assert a.key > b.key  # same links, fewer NUMA nodes wins
    assert Choice((0, 3), 50, 50, 1).key > a.key


def test_results_are_memoised_per_topology(catalog) -> None:
    top = catalog.get("dgx-a100")
    first = best_subset(top, 0b11110000, 2)
    assert best_subset(top, [4, 5, 6, 7], 2) is first


@pytest.mark.parametrize("constraint,words", [
    (NO_CONSTRAINT, ""),
    (Constraint(nvlink=True), "joined by NVLink"),
    (Constraint(nvlink=True, same_numa=True), "joined by NVLink on one NUMA node"),
    (Constraint(same_pcie_switch=True, min_bandwidth=16),
     "under one PCIe switch with at least 16 GB/s between every pair"),
])
def test_constraint_words(constraint: Constraint, words: str) -> None:
    assert constraint.describe() == words
