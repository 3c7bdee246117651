"""Reading `nvidia-smi topo -m` dumps: every dump in data/topologies, the formats drivers print, the errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from ksched_edu.gpu.links import parse_link
from ksched_edu.gpu.nvidia_smi import TopologyError, format_topo, load_topology, parse_topo

from .conftest import DUMPS

pytestmark = pytest.mark.ch08

# A newer driver: NICs named NIC0.. with a NIC legend, a GPU NUMA ID column, spaces instead of tabs.
NEWER = """\
        GPU0    GPU1    GPU2    GPU3    NIC0    NIC1    CPU Affinity    NUMA Affinity   GPU NUMA ID
GPU0     X      PIX     PXB     SYS     PIX     SYS     0-15,32-47      0               N/A
GPU1    PIX      X      PXB     SYS     PIX     SYS     0-15,32-47      0               N/A
GPU2    PXB     PXB      X      SYS     PXB     SYS     0-15,32-47      0               N/A
GPU3    SYS     SYS     SYS      X      SYS     PIX     16-31,48-63     1               N/A
NIC0    PIX     PIX     PXB     SYS      X      SYS
NIC1    SYS     SYS     SYS     PIX     SYS      X

Legend:

  X    = Self
  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
  PIX  = Connection traversing at most a single PCIe bridge
  NV#  = Connection traversing a bonded set of # NVLinks

NIC Legend:

  NIC0: mlx5_0
  NIC1: mlx5_1
"""


@pytest.mark.parametrize("path", DUMPS, ids=lambda p: p.stem)
def test_every_dump_parses(path: Path) -> None:
    top = load_topology(path)
    n = len(top.gpus)
    assert top.name == path.stem and n in (4, 8, 16)
    assert top.source.startswith("https://"), "each dump names the public page it was written from"
    assert all(g.model and g.memory_mib > 0 for g in top.gpus)
    assert all(top.links[i][j] == top.links[j][i] for i, j in top.pairs())
    g = top.to_networkx()
    assert g.number_of_nodes() == n and g.number_of_edges() == n * (n - 1) // 2
    assert all(d["bandwidth"] > 0 for _, _, d in g.edges(data=True))


@pytest.mark.parametrize("path", DUMPS, ids=lambda p: p.stem)
def test_every_dump_draws(path: Path) -> None:
    pytest.importorskip("matplotlib")
    from ksched_edu.widgets.topology import draw_topology, render_png

    top = load_topology(path)
    fig = draw_topology(top, {0: "default/a", len(top.gpus) - 1: "default/b"})
    assert render_png(fig).startswith(b"\x89PNG")


@pytest.mark.parametrize("name,numa,switches,links", [
    ("dgx-1-v100", [0, 0, 0, 0, 1, 1, 1, 1], 4, {"NV2": 8, "NV1": 8, "SYS": 12}),
    ("dgx-a100", [3, 3, 1, 1, 7, 7, 5, 5], 4, {"NV12": 28}),
    ("hgx-h100", [0, 0, 0, 0, 1, 1, 1, 1], 8, {"NV18": 28}),
    ("hgx-h200", [0, 0, 0, 0, 1, 1, 1, 1], 8, {"NV18": 28}),
    ("pcie-2socket-8gpu", [0, 0, 0, 0, 1, 1, 1, 1], 4, {"PIX": 4, "NODE": 8, "SYS": 16}),
    ("workstation-4gpu", [0, 0, 0, 0], 4, {"NV4": 2, "PHB": 4}),
    ("dgx-2", [0] * 8 + [1] * 8, 8, {"NV6": 120}),
])
def test_known_topologies(catalog, name: str, numa: list[int], switches: int, links: dict[str, int]) -> None:
    top = catalog.get(name)
    assert [g.numa_node for g in top.gpus] == numa
    assert len({g.pcie_switch for g in top.gpus}) == switches
    assert top.link_counts() == links


def test_dgx1_is_a_hybrid_cube_mesh(catalog) -> None:
    top = catalog.get("dgx-1-v100")
    nvlinks = top.nvlink_graph()
    # Six NVLinks per V100, each GPU NVLinked to four others: its quad and its twin on the other board.
    assert all(sum(top.links[i][j].nvlinks for j in range(8)) == 6 for i in range(8))
    assert all(nvlinks.degree(i) == 4 for i in range(8))
    assert all(top.links[i][i + 4].is_nvlink for i in range(4))
    assert top.nics == ("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3")


def test_newer_driver_format() -> None:
    top = parse_topo(NEWER, "newer")
    assert [g.numa_node for g in top.gpus] == [0, 0, 0, 1]
    assert [g.cpu_affinity for g in top.gpus][2:] == ["0-15,32-47", "16-31,48-63"]
    assert top.nics == ("NIC0", "NIC1")
    assert top.link(0, 2).label == "PXB" and top.bandwidth(0, 2) == 12
    # No pcie-switch line: GPUs joined by PIX share a switch.
    assert [g.pcie_switch for g in top.gpus] == ["switch0", "switch0", "switch1", "switch2"]
    assert all(g.model == "" and g.memory_mib == 0 for g in top.gpus)


def test_without_numa_column_cpu_affinity_decides() -> None:
    text = ("\tGPU0\tGPU1\tGPU2\tCPU Affinity\n"
            "GPU0\t X \tSYS\tNODE\t8-15\nGPU1\tSYS\t X \tSYS\t0-7\nGPU2\tNODE\tSYS\t X \t8-15\n")
    assert [g.numa_node for g in parse_topo(text).gpus] == [0, 1, 0]


@pytest.mark.parametrize("path", DUMPS, ids=lambda p: p.stem)
def test_format_round_trip(path: Path) -> None:
    top = load_topology(path)
    again = parse_topo(format_topo(top), top.name)
    assert again.links == top.links
    assert again.gpus == top.gpus
    assert (again.nvlink_gbps, again.pcie_gbps, again.source) == (top.nvlink_gbps, top.pcie_gbps, top.source)


@pytest.mark.parametrize("name,text,message", [
    ("no matrix", "# just a comment\n", "no `nvidia-smi topo -m` matrix found"),
    ("asymmetric", "\tGPU0\tGPU1\nGPU0\t X \tNV1\nGPU1\tNV2\t X \n", "GPU1/GPU0 is NV2 but GPU0/GPU1 is NV1"),
    ("missing row", "\tGPU0\tGPU1\nGPU0\t X \tNV1\n", "no row for GPU1"),
    ("bad link", "\tGPU0\tGPU1\nGPU0\t X \tQPI\nGPU1\tQPI\t X \n", "GPU0/GPU1: unknown link 'QPI'"),
    ("short row", "\tGPU0\tGPU1\nGPU0\t X \nGPU1\tNV1\t X \n", "row GPU0 has 1 cells, the header has 2 devices"),
    ("not X on diagonal", "\tGPU0\tGPU1\nGPU0\tNV1\tNV1\nGPU1\tNV1\t X \n", "GPU0 must be X with itself"),
    ("unknown row", "\tGPU0\nGPU0\t X \nGPU9\t X \n", "row 'GPU9' is not a column of the header"),
    ("bad header", "\tCPU Affinity\n", "expected the matrix header"),
    ("bad gbps", "# pcie-gbps: fast\n\tGPU0\nGPU0\t X \n", "pcie-gbps: 'fast' is not a whole number of GB/s"),
    ("bad switch", "# pcie-switch: GPU0,GPU7\n\tGPU0\nGPU0\t X \n", "pcie-switch: 'GPU7' is not a GPU of this matrix"),
    ("bad query row", "\tGPU0\nGPU0\t X \n\nindex, name, memory.total [MiB]\nzero, A100, 40 MiB\n",
     "expected `index, name, memory.total [MiB]`"),
])
def test_errors_name_the_file_and_line(name: str, text: str, message: str) -> None:
    with pytest.raises(TopologyError) as err:
        parse_topo(text, file="t.txt")
    assert str(err.value).startswith("t.txt") and message in str(err.value)


def test_missing_file() -> None:
    with pytest.raises(TopologyError, match="no such file"):
        load_topology("/nonexistent/x.txt")


def test_topology_checks_its_matrix() -> None:
    from ksched_edu.gpu.topology import Topology

    with pytest.raises(ValueError, match="one way"):
        Topology.from_matrix("t", [["X", "NV1"], ["PIX", "X"]])
    assert parse_link("NV2") == Topology.from_matrix("t", [["X", "NV2"], ["NV2", "X"]]).link(0, 1)
