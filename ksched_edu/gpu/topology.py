"""A node's GPUs and the link between every pair: the picture ``nvidia-smi topo -m`` prints.

Not a port: the course's own model of a GPU server. A :class:`Topology` holds
the devices (index, model, memory, NUMA node, PCIe switch) and the full link
matrix, and gives every pair a bandwidth (see :mod:`ksched_edu.gpu.links`).
``to_networkx()`` turns it into a graph for drawing and for graph questions;
networkx is imported there and only there, so the scheduler never loads it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from ..anchors import plumbing
from .links import DEFAULT_NVLINK_GBPS, DEFAULT_PCIE_GBPS, SELF, Link

_PLUMBING = ("the project's own GPU model: a server's GPUs and the link between every pair, as nvidia-smi topo -m "
             "prints them; no upstream counterpart")


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class GPU:
    index: int
    model: str = ""
    memory_mib: int = 0
    numa_node: int = -1  # -1: the dump did not say
    pcie_switch: str = ""  # GPUs under one PCIe switch share this name
    cpu_affinity: str = ""

    @property
    def name(self) -> str:
        return f"GPU{self.index}"


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class Topology:
    """The GPUs of one server and the link between every pair (``links[i][j]``)."""

    name: str
    gpus: tuple[GPU, ...]
    links: tuple[tuple[Link, ...], ...]
    nvlink_gbps: int = DEFAULT_NVLINK_GBPS
    pcie_gbps: int = DEFAULT_PCIE_GBPS
    description: str = ""
    source: str = ""
    nics: tuple[str, ...] = ()  # the NIC columns of the matrix, as titled (mlx5_0, or NIC0 on newer drivers)
    # nic_links[i][k]: how GPU i reaches NIC k (PIX, PXB, ... SYS); () when the dump has no NIC columns.
    nic_links: tuple[tuple[Link, ...], ...] = ()
    nic_names: tuple[str, ...] = ()  # each NIC's device name (the NIC Legend's mlx5_0 for NIC0), else its title
    # Derived once: the bandwidth matrix, and the subset search's memo (see search.py).
    bandwidths: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    search_cache: dict = field(init=False, repr=False, compare=False, hash=False, default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.gpus)
        if [g.index for g in self.gpus] != list(range(n)):
            raise ValueError(f"topology {self.name}: GPUs must be numbered 0..{n - 1}")
        if len(self.links) != n or any(len(row) != n for row in self.links):
            raise ValueError(f"topology {self.name}: the link matrix must be {n}x{n}")
        for i in range(n):
            if self.links[i][i].kind != SELF:
                raise ValueError(f"topology {self.name}: GPU{i} must be X with itself")
            for j in range(i):
                if self.links[i][j] != self.links[j][i]:
                    raise ValueError(f"topology {self.name}: GPU{i}-GPU{j} is {self.links[i][j]} one way "
                                     f"and {self.links[j][i]} the other")
        if self.nic_links and (len(self.nic_links) != n or any(len(row) != len(self.nics) for row in self.nic_links)):
            raise ValueError(f"topology {self.name}: the GPU-NIC matrix must be {n}x{len(self.nics)}")
        if not self.nic_names:
            object.__setattr__(self, "nic_names", self.nics)
        elif len(self.nic_names) != len(self.nics):
            raise ValueError(f"topology {self.name}: {len(self.nic_names)} NIC names for {len(self.nics)} NICs")
        bw = tuple(tuple(link.bandwidth(self.nvlink_gbps, self.pcie_gbps) for link in row) for row in self.links)
        object.__setattr__(self, "bandwidths", bw)

    @classmethod
    @plumbing(_PLUMBING)
    def from_matrix(cls, name: str, matrix: Sequence[Sequence[str]], numa: Sequence[int] = (),
                    switches: Sequence[str] = (), model: str = "", memory_mib: int = 0, **options: Any) -> "Topology":
        """A topology from a matrix of link labels (``[["X", "NV1"], ["NV1", "X"]]``)."""
        from .links import parse_link

        n = len(matrix)
        gpus = tuple(GPU(i, model, memory_mib, numa[i] if numa else 0, switches[i] if switches else "")
                     for i in range(n))
        links = tuple(tuple(parse_link(cell) for cell in row) for row in matrix)
        return cls(name, gpus, links, **options)

    def __repr__(self) -> str:
        return f"Topology({self.name!r}, {len(self.gpus)} GPUs)"

    # --- reading ----------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.gpus)

    @plumbing(_PLUMBING)
    def link(self, i: int, j: int) -> Link:
        return self.links[i][j]

    @plumbing(_PLUMBING)
    def bandwidth(self, i: int, j: int) -> int:
        """GB/s one way between GPU i and GPU j (see links.py for the model)."""
        return self.bandwidths[i][j]

    @plumbing(_PLUMBING)
    def pairs(self) -> Iterator[tuple[int, int]]:
        n = len(self.gpus)
        return ((i, j) for i in range(n) for j in range(i + 1, n))

    @plumbing(_PLUMBING)
    def numa_nodes(self) -> list[int]:
        return sorted({g.numa_node for g in self.gpus})

    @plumbing(_PLUMBING)
    def link_counts(self) -> dict[str, int]:
        """How many GPU pairs have each link class, e.g. ``{"NV1": 8, "NV2": 8, "SYS": 12}``."""
        counts: dict[str, int] = {}
        for i, j in self.pairs():
            label = self.links[i][j].label
            counts[label] = counts.get(label, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (self._rank_of(kv[0]), kv[0])))

    def _rank_of(self, label: str) -> int:
        from .links import parse_link

        return parse_link(label).rank

    @plumbing(_PLUMBING)
    def summary(self) -> str:
        """One line: name, GPU count and model, NUMA nodes, link classes."""
        models = sorted({g.model for g in self.gpus if g.model})
        links = ", ".join(f"{k}×{v}" for k, v in self.link_counts().items())
        return (f"{self.name}: {len(self.gpus)} × {'/'.join(models) or 'GPU'}, "
                f"{len(self.numa_nodes())} NUMA node(s); pairs: {links}")

    # --- the graph ----------------------------------------------------------------------

    @plumbing(_PLUMBING)
    def to_networkx(self) -> Any:
        """An undirected ``networkx.Graph``: a node per GPU (its attributes), an edge per pair
        with ``link`` (the label), ``nvlinks`` and ``bandwidth`` (GB/s)."""
        import networkx as nx  # lazily: the scheduler never needs it

        g = nx.Graph(name=self.name)
        for gpu in self.gpus:
            g.add_node(gpu.index, label=gpu.name, model=gpu.model, memory_mib=gpu.memory_mib,
                       numa_node=gpu.numa_node, pcie_switch=gpu.pcie_switch)
        for i, j in self.pairs():
            link = self.links[i][j]
            g.add_edge(i, j, link=link.label, nvlinks=link.nvlinks, bandwidth=self.bandwidths[i][j])
        return g

    @plumbing(_PLUMBING)
    def nvlink_graph(self) -> Any:
        """Only the NVLink edges: the fabric a job that asks for NVLink lives in."""
        g = self.to_networkx()
        g.remove_edges_from([(i, j) for i, j, d in g.edges(data=True) if not d["nvlinks"]])
        return g
