"""How two GPUs are wired, in the words of ``nvidia-smi topo -m``.

Not a port: kube-scheduler knows nothing of GPU links (it only counts
``nvidia.com/gpu``). This module names the link classes the NVIDIA driver
reports between two devices and gives each a bandwidth, so that a plugin can
compare "four GPUs on NVLink" with "four GPUs across two CPU sockets".

The classes, best to worst (the meanings are those of the legend that
``nvidia-smi topo -m`` prints under its matrix):

- ``NV#``  a bonded set of ``#`` NVLinks between the two GPUs;
- ``PIX``  the path crosses at most one PCIe bridge (both GPUs under one switch);
- ``PXB``  several PCIe bridges, but not the CPU's host bridge;
- ``PHB``  the path goes through a PCIe host bridge (the CPU's root complex);
- ``NODE`` PCIe plus the links between host bridges inside one NUMA node;
- ``SYS``  PCIe plus the link between NUMA nodes (QPI/UPI, Infinity Fabric).

Bandwidths are a teaching model, one direction, in whole GB/s: an NVLink of
the V100/A100/H100 generations carries 25 GB/s each way (``NV12`` = 300
GB/s), and a PCIe path gets a share of the slot's bandwidth that shrinks with
every hop (``PCIE_SHARE``). The numbers are nominal, not measurements; what
the scheduler relies on is their order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ..anchors import plumbing

_PLUMBING = ("the project's own GPU model: the link classes of nvidia-smi topo -m and a nominal bandwidth for "
             "each; no upstream counterpart")

# The PCIe classes, best to worst.
PCIE_LINKS = ("PIX", "PXB", "PHB", "NODE", "SYS")
NVLINK = "NV"
SELF = "X"
# Names older drivers printed for the same classes.
ALIASES = {"SOC": "SYS", "CPU": "PHB", "PSB": "PXB"}

# One direction of one NVLink (NVLink 2, 3 and 4 alike), in GB/s.
DEFAULT_NVLINK_GBPS = 25
# One direction of a PCIe Gen3 x16 slot, in GB/s (Gen4: 32, Gen5: 64).
DEFAULT_PCIE_GBPS = 16
# The share of the slot's bandwidth a path of each class gets: every hop costs.
PCIE_SHARE = {"PIX": Fraction(1), "PXB": Fraction(3, 4), "PHB": Fraction(1, 2), "NODE": Fraction(3, 8),
              "SYS": Fraction(1, 4)}

LEGEND = {
    SELF: "the GPU itself",
    "SYS": "PCIe and the link between NUMA nodes (QPI/UPI)",
    "NODE": "PCIe and the links between PCIe host bridges inside a NUMA node",
    "PHB": "PCIe and a PCIe host bridge (the CPU)",
    "PXB": "several PCIe bridges, without the host bridge",
    "PIX": "at most one PCIe bridge",
    "NV#": "a bonded set of # NVLinks",
}

_NV = re.compile(r"^NV(\d+)$")


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class Link:
    """One cell of the matrix: ``Link("NV", 2)`` is ``NV2``, ``Link("PIX")`` is ``PIX``."""

    kind: str
    nvlinks: int = 0

    @property
    def label(self) -> str:
        return f"NV{self.nvlinks}" if self.kind == NVLINK else self.kind

    @property
    def is_nvlink(self) -> bool:
        return self.kind == NVLINK

    @property
    def rank(self) -> int:
        """0 for the best class; NVLinks rank by their count, then PIX, PXB, ... SYS."""
        if self.kind == NVLINK:
            return -self.nvlinks
        if self.kind == SELF:
            return -10_000
        return PCIE_LINKS.index(self.kind)

    @plumbing(_PLUMBING)
    def bandwidth(self, nvlink_gbps: int = DEFAULT_NVLINK_GBPS, pcie_gbps: int = DEFAULT_PCIE_GBPS) -> int:
        """GB/s one way, in the teaching model (0 for the GPU itself)."""
        if self.kind == NVLINK:
            return self.nvlinks * nvlink_gbps
        if self.kind == SELF:
            return 0
        return int(pcie_gbps * PCIE_SHARE[self.kind])

    def __str__(self) -> str:
        return self.label


@plumbing(_PLUMBING)
def parse_link(text: str) -> Link:
    """``"NV12"`` -> ``Link("NV", 12)``; ``"PIX"`` -> ``Link("PIX")``; raises ValueError otherwise."""
    t = ALIASES.get(text.strip(), text.strip())
    m = _NV.match(t)
    if m:
        n = int(m.group(1))
        if n < 1:
            raise ValueError(f"unknown link {text!r}: an NVLink bond has at least one link")
        return Link(NVLINK, n)
    if t in PCIE_LINKS or t == SELF:
        return Link(t)
    raise ValueError(f"unknown link {text!r} (want X, NV#, PIX, PXB, PHB, NODE or SYS)")
