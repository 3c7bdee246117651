"""The link classes of nvidia-smi topo -m and the bandwidth model."""
from __future__ import annotations

import pytest

from ksched_edu.gpu.links import Link, parse_link

pytestmark = pytest.mark.ch08


@pytest.mark.parametrize("text,label,nvlinks,gbps", [
    ("NV1", "NV1", 1, 25),
    ("NV12", "NV12", 12, 300),
    ("NV18", "NV18", 18, 450),
    ("PIX", "PIX", 0, 16),
    ("PXB", "PXB", 0, 12),
    ("PHB", "PHB", 0, 8),
    ("NODE", "NODE", 0, 6),
    ("SYS", "SYS", 0, 4),
    (" X ", "X", 0, 0),
    ("SOC", "SYS", 0, 4),  # what older drivers called SYS
], ids=lambda v: str(v).strip())
def test_parse_link(text: str, label: str, nvlinks: int, gbps: int) -> None:
    link = parse_link(text)
    assert (link.label, link.nvlinks, link.bandwidth()) == (label, nvlinks, gbps)


@pytest.mark.parametrize("text", ["NV0", "NVX", "PCI", ""])
def test_parse_link_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="unknown link"):
        parse_link(text)


def test_ranks_and_bandwidths_agree_on_the_order() -> None:
    ordered = [parse_link(t) for t in ("NV18", "NV12", "NV2", "NV1", "PIX", "PXB", "PHB", "NODE", "SYS")]
    assert [link.rank for link in ordered] == sorted(link.rank for link in ordered)
    assert [link.bandwidth() for link in ordered] == sorted((link.bandwidth() for link in ordered), reverse=True)


def test_bandwidth_follows_the_topology_parameters() -> None:
    assert Link("NV", 4).bandwidth(nvlink_gbps=14) == 56
    assert Link("PIX").bandwidth(pcie_gbps=64) == 64
    assert Link("SYS").bandwidth(pcie_gbps=32) == 8
