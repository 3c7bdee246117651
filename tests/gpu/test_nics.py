"""GPU-NIC affinity: the NIC columns of `nvidia-smi topo -m`, read and questioned."""
from __future__ import annotations

import pytest

from ksched_edu.gpu import nics
from ksched_edu.gpu.nvidia_smi import TopologyError, format_topo, parse_topo

from .test_nvidia_smi import NEWER

pytestmark = pytest.mark.ch08

# GPU0 is near NIC0 and NIC1, GPU1 near NIC0 only: a greedy pick (GPU0 -> NIC0) strands GPU1.
CROSSED = """\
\tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity
GPU0\t X \tPIX\tPIX\tPXB\t0-7
GPU1\tPIX\t X \tPIX\tSYS\t0-7
"""


def test_dgx_a100_with_nics(catalog) -> None:
    top = catalog.get("dgx-a100-nics")
    assert top.nics == tuple(f"NIC{k}" for k in range(10))
    assert top.nic_names == tuple(f"mlx5_{k}" for k in range(10))
    assert [nics.near_nics(top, g) for g in range(8)] == [(0, 1), (0, 1), (2, 3), (2, 3), (4, 5), (4, 5),
                                                          (6, 7), (6, 7)]
    assert {row["device"]: row["near GPUs"] for row in nics.nic_table(top)}["mlx5_8"] == "-"
    assert [g.numa_node for g in top.gpus] == [3, 3, 1, 1, 7, 7, 5, 5]
    assert top.link_counts() == {"NV12": 28}


@pytest.mark.parametrize("name,count,share,per_gpu", [
    ("dgx-a100-nics", 2, 4, 28),  # each PCIe switch pair shares its two NICs; any pair has two NICs
    ("dgx-a100-nics", 4, 0, 70),
    ("dgx-a100-nics", 8, 0, 1),
    ("dgx-1-v100", 2, 4, 24),  # four NICs for eight GPUs: a pair under one switch has one NIC
    ("dgx-1-v100", 4, 0, 16),
    ("dgx-1-v100", 8, 0, 0),
])
def test_sets_near_nics(catalog, name: str, count: int, share: int, per_gpu: int) -> None:
    counts = nics.sets_near_nics(catalog.get(name), count)
    assert (counts["share one near NIC"], counts["a near NIC per GPU"]) == (share, per_gpu)


def test_the_best_nvlink_quad_of_a_dgx1_has_two_nics(catalog) -> None:
    top = catalog.get("dgx-1-v100")
    assert nics.nic_per_gpu(top, [0, 1, 2, 3]) is None
    assert nics.nic_per_gpu(top, [0, 2, 4, 6]) == {0: 0, 2: 1, 4: 2, 6: 3}
    assert nics.shared_nic(top, [0, 1]) == 0 and nics.shared_nic(top, [0, 2]) is None


def test_matching_reassigns_a_nic_when_a_greedy_pick_would_strand_a_gpu() -> None:
    top = parse_topo(CROSSED)
    assert nics.nic_per_gpu(top, [0, 1]) == {0: 1, 1: 0}


def test_only_pix_is_stricter(catalog) -> None:
    top = catalog.get("dgx-a100-nics")
    assert nics.sets_near_nics(top, 1, ("PIX",))["a near NIC per GPU"] == 0


def test_a_topology_without_nics_has_none_near() -> None:
    top = parse_topo("\tGPU0\tGPU1\nGPU0\t X \tNV1\nGPU1\tNV1\t X \n")
    assert top.nic_links == () and nics.near_nics(top, 0) == () and nics.nic_per_gpu(top, [0]) is None


def test_newer_driver_names_nics_from_the_legend() -> None:
    top = parse_topo(NEWER)
    assert top.nic_names == ("mlx5_0", "mlx5_1")
    assert [[link.label for link in row] for row in top.nic_links] == [["PIX", "SYS"], ["PIX", "SYS"],
                                                                       ["PXB", "SYS"], ["SYS", "PIX"]]


@pytest.mark.parametrize("name", ["dgx-a100-nics", "dgx-1-v100"])
def test_round_trip_keeps_the_nic_columns(catalog, name: str) -> None:
    top = catalog.get(name)
    again = parse_topo(format_topo(top), name)
    assert (again.nics, again.nic_names, again.nic_links) == (top.nics, top.nic_names, top.nic_links)


def test_a_gpu_cannot_reach_a_nic_over_nvlink() -> None:
    with pytest.raises(TopologyError, match=r"t.txt:2: GPU0/NIC0: a GPU reaches a NIC over PCIe"):
        parse_topo("\tGPU0\tNIC0\nGPU0\t X \tNV1\n", file="t.txt")
