"""Read (and write) the text of ``nvidia-smi topo -m``: the link matrix and the CPU/NUMA affinity columns.

Not a port: the course's own reader for the dumps in ``data/topologies/``.
A dump is what an administrator gets by running, on the server::

    $ nvidia-smi topo -m
    $ nvidia-smi --query-gpu=index,name,memory.total --format=csv

The first prints a matrix (a row and a column per GPU and per NIC; ``X`` on
the diagonal) followed by ``CPU Affinity``, ``NUMA Affinity`` and, on recent
drivers, ``GPU NUMA ID`` columns, then a legend. The second, optional,
gives each GPU's model and memory. Lines starting with ``$`` (the commands)
are skipped; lines starting with ``#`` are comments, where a few
``key: value`` lines say what the matrix cannot:

- ``# source: <url>``      the public page the dump was written from;
- ``# nvlink-gbps: 25``    one direction of one NVLink, GB/s (default 25);
- ``# pcie-gbps: 32``      one direction of the GPU's PCIe slot (Gen3 16, Gen4 32, Gen5 64);
- ``# pcie-switch: GPU0,GPU1 GPU2,GPU3``  which GPUs share a PCIe switch. The
  matrix only shows it for GPUs without NVLink between them (``PIX``); when
  the line is absent, GPUs joined by ``PIX`` are taken to share a switch.

Columns that are neither GPUs nor affinities are NICs (``mlx5_0`` on older
drivers, ``NIC0`` with a ``NIC Legend`` naming ``mlx5_0`` on newer ones): each
GPU row's NIC cells become :attr:`Topology.nic_links`, the legend's names
:attr:`Topology.nic_names`. NIC rows (NIC to NIC) are read past.

The first other comment line is the topology's description. When the dump
has no ``NUMA Affinity`` column (older drivers), GPUs with the same CPU
affinity are put on the same NUMA node, numbered in order of appearance.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional, Union

from ..anchors import plumbing
from .links import DEFAULT_NVLINK_GBPS, DEFAULT_PCIE_GBPS, SELF, Link, parse_link
from .topology import GPU, Topology

_PLUMBING = "the project's own reader and writer of nvidia-smi topo -m dumps; no upstream counterpart"

# Column titles with spaces, and the one-word names the reader gives them.
_MULTIWORD = {"CPU Affinity": "CPU_Affinity", "NUMA Affinity": "NUMA_Affinity", "GPU NUMA ID": "GPU_NUMA_ID"}
_AFFINITY = ("CPU_Affinity", "NUMA_Affinity", "GPU_NUMA_ID")
_GPU = re.compile(r"^GPU(\d+)$")
_CSV_HEADER = re.compile(r"^index,\s*name,\s*memory\.total \[MiB\]", re.IGNORECASE)
_KEYS = ("source", "nvlink-gbps", "pcie-gbps", "pcie-switch")
_NIC_LEGEND = re.compile(r"^(\S+):\s*(\S+)$")


@plumbing(_PLUMBING)
class TopologyError(ValueError):
    """A dump that cannot be read; ``str()`` names the file and the line."""

    def __init__(self, message: str, file: str = "<string>", line: int = 0) -> None:
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {message}")
        self.file, self.line = file, line


@plumbing(_PLUMBING)
def parse_topo(text: str, name: str = "topology", file: str = "<string>") -> Topology:
    """A :class:`Topology` from the text of a dump (see the module docstring for the format)."""
    return _Reader(text, name, file).read()


@plumbing(_PLUMBING)
def load_topology(path: Union[str, Path], name: Optional[str] = None) -> Topology:
    """Read a dump file; the topology is named after the file (``dgx-a100.txt`` -> ``dgx-a100``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TopologyError("no such file", str(p)) from None
    return parse_topo(text, name or p.stem, str(p))


class _Reader:
    def __init__(self, text: str, name: str, file: str) -> None:
        self.lines = text.splitlines()
        self.name, self.file = name, file
        self.meta: dict[str, str] = {}
        self.description = ""
        self.columns: list[str] = []
        self.rows: dict[str, tuple[int, list[str]]] = {}
        self.query: dict[int, tuple[str, int]] = {}
        self.nic_legend: dict[str, str] = {}

    def fail(self, message: str, line: int = 0) -> TopologyError:
        return TopologyError(message, self.file, line)

    def read(self) -> Topology:
        mode = "top"
        for number, raw in enumerate(self.lines, start=1):
            line = raw.rstrip()
            stripped = line.strip()
            if stripped.startswith("#"):
                self._comment(stripped[1:].strip())
                continue
            if stripped.startswith("$"):
                mode = "top"
                continue
            if not stripped:
                if mode in ("matrix", "query"):
                    mode = "top"
                continue
            if stripped.startswith("Legend") or stripped.startswith("NIC Legend"):
                mode = "nic-legend" if stripped.startswith("NIC") else "legend"
                continue
            if mode == "nic-legend":
                match = _NIC_LEGEND.match(stripped)
                if match:
                    self.nic_legend[match.group(1)] = match.group(2)
                continue
            if mode == "legend":
                continue
            if _CSV_HEADER.match(stripped):
                mode = "query"
                continue
            if mode == "query":
                self._query_row(stripped, number)
                continue
            if mode == "top" and not self.columns:
                self._header(line, number)
                mode = "matrix"
                continue
            if mode == "matrix":
                self._row(stripped, number)
                continue
            raise self.fail(f"unexpected line {stripped!r}", number)
        if not self.columns:
            raise self.fail("no `nvidia-smi topo -m` matrix found")
        return self._topology()

    def _comment(self, text: str) -> None:
        key, sep, value = text.partition(":")
        if sep and key.strip().lower() in _KEYS:
            self.meta[key.strip().lower()] = value.strip()
        elif text and not self.description:
            self.description = text

    def _header(self, line: str, number: int) -> None:
        for title, word in _MULTIWORD.items():
            line = line.replace(title, word)
        self.columns = line.split()
        if not self.columns or not _GPU.match(self.columns[0]):
            raise self.fail(f"expected the matrix header (GPU0 GPU1 ...), got {line.strip()!r}", number)

    def _row(self, line: str, number: int) -> None:
        cells = line.split()
        head, values = cells[0], cells[1:]
        devices = [c for c in self.columns if c not in _AFFINITY]
        if head not in devices:
            raise self.fail(f"row {head!r} is not a column of the header", number)
        if len(values) < len(devices):
            raise self.fail(f"row {head} has {len(values)} cells, the header has {len(devices)} devices", number)
        self.rows[head] = (number, values)

    def _query_row(self, line: str, number: int) -> None:
        parts = [p.strip() for p in line.split(",")]
        try:
            index, model, memory = int(parts[0]), parts[1], int(parts[2].split()[0])
        except (IndexError, ValueError):
            raise self.fail(f"expected `index, name, memory.total [MiB]`, got {line!r}", number) from None
        self.query[index] = (model, memory)

    def _int_meta(self, key: str, default: int) -> int:
        value = self.meta.get(key)
        if value is None:
            return default
        try:
            return int(value)
        except ValueError:
            raise self.fail(f"{key}: {value!r} is not a whole number of GB/s") from None

    def _topology(self) -> Topology:
        devices = [c for c in self.columns if c not in _AFFINITY]
        gpu_names = [d for d in devices if _GPU.match(d)]
        if [int(_GPU.match(g).group(1)) for g in gpu_names] != list(range(len(gpu_names))):
            raise self.fail(f"GPU columns must be GPU0..GPU{len(gpu_names) - 1}, got {' '.join(gpu_names)}")
        extra = [c for c in self.columns if c in _AFFINITY]
        links: list[list[Link]] = []
        nic_links: list[tuple[Link, ...]] = []
        affinity: list[dict[str, str]] = []
        for g in gpu_names:
            if g not in self.rows:
                raise self.fail(f"no row for {g}")
            number, values = self.rows[g]
            row, to_nics = [], []
            for col, cell in zip(devices, values):
                try:
                    (row if col in gpu_names else to_nics).append(parse_link(cell))
                except ValueError as err:
                    raise self.fail(f"{g}/{col}: {err}", number) from None
            links.append(row)
            nic_links.append(tuple(to_nics))
            affinity.append(dict(zip(extra, values[len(devices):])))
        for i, g in enumerate(gpu_names):
            if links[i][i].kind != SELF:
                raise self.fail(f"{g} must be X with itself", self.rows[g][0])
            for j in range(i):
                if links[i][j] != links[j][i]:
                    raise self.fail(f"{g}/GPU{j} is {links[i][j]} but GPU{j}/{g} is {links[j][i]}", self.rows[g][0])
        nics = [d for d in devices if d not in gpu_names]
        for i, g in enumerate(gpu_names):
            bad = next((nic for nic, link in zip(nics, nic_links[i]) if link.kind == SELF or link.is_nvlink), None)
            if bad is not None:
                raise self.fail(f"{g}/{bad}: a GPU reaches a NIC over PCIe (PIX .. SYS)", self.rows[g][0])
        numa = self._numa(affinity)
        switches = self._switches(links)
        gpus = tuple(GPU(i, *self.query.get(i, ("", 0)), numa_node=numa[i], pcie_switch=switches[i],
                         cpu_affinity=affinity[i].get("CPU_Affinity", ""))
                     for i in range(len(gpu_names)))
        return Topology(self.name, gpus, tuple(tuple(r) for r in links),
                        nvlink_gbps=self._int_meta("nvlink-gbps", DEFAULT_NVLINK_GBPS),
                        pcie_gbps=self._int_meta("pcie-gbps", DEFAULT_PCIE_GBPS),
                        description=self.description, source=self.meta.get("source", ""),
                        nics=tuple(nics), nic_links=tuple(nic_links) if nics else (),
                        nic_names=tuple(self.nic_legend.get(nic, nic) for nic in nics))

    @staticmethod
    def _numa(affinity: list[dict[str, str]]) -> list[int]:
        explicit = [a.get("NUMA_Affinity", "") for a in affinity]
        if all(v.isdigit() for v in explicit):
            return [int(v) for v in explicit]
        seen: dict[str, int] = {}
        return [seen.setdefault(a.get("CPU_Affinity", ""), len(seen)) for a in affinity]

    def _switches(self, links: list[list[Link]]) -> list[str]:
        n = len(links)
        group = list(range(n))  # union-find over "shares a switch"

        def find(i: int) -> int:
            while group[i] != i:
                i = group[i]
            return i

        declared = self.meta.get("pcie-switch")
        if declared:
            for members in declared.split():
                ids = []
                for m in members.split(","):
                    match = _GPU.match(m.strip())
                    if not match or int(match.group(1)) >= n:
                        raise self.fail(f"pcie-switch: {m!r} is not a GPU of this matrix")
                    ids.append(int(match.group(1)))
                for other in ids[1:]:
                    group[find(other)] = find(ids[0])
        else:
            for i in range(n):
                for j in range(i):
                    if links[i][j].kind == "PIX":
                        group[find(i)] = find(j)
        roots = {find(i) for i in range(n)}
        number = {root: k for k, root in enumerate(sorted(roots))}
        return [f"switch{number[find(i)]}" for i in range(n)]


@plumbing(_PLUMBING)
def format_topo(top: Topology) -> str:
    """The dump of ``top`` in the format :func:`parse_topo` reads (tab-separated, as nvidia-smi writes it)."""
    n = len(top.gpus)
    lines = []
    if top.description:
        lines.append(f"# {top.description}")
    if top.source:
        lines.append(f"# source: {top.source}")
    lines += [f"# nvlink-gbps: {top.nvlink_gbps}", f"# pcie-gbps: {top.pcie_gbps}"]
    groups: dict[str, list[str]] = {}
    for g in top.gpus:
        groups.setdefault(g.pcie_switch, []).append(g.name)
    lines.append("# pcie-switch: " + " ".join(",".join(m) for m in groups.values()))
    lines.append("$ nvidia-smi topo -m")
    nics = list(top.nics) if top.nic_links else []
    lines.append("\t" + "\t".join([g.name for g in top.gpus] + nics + ["CPU Affinity", "NUMA Affinity"]))
    for i, g in enumerate(top.gpus):
        cells = [" X " if j == i else top.links[i][j].label for j in range(n)]
        cells += [link.label for link in top.nic_links[i]] if nics else []
        lines.append("\t".join([g.name] + cells + [g.cpu_affinity or "N/A", str(g.numa_node)]))
    if nics and top.nic_names != top.nics:
        lines += ["", "NIC Legend:", ""] + [f"  {nic}: {name}" for nic, name in zip(top.nics, top.nic_names)]
    if any(g.model for g in top.gpus):
        lines += ["", "$ nvidia-smi --query-gpu=index,name,memory.total --format=csv",
                  "index, name, memory.total [MiB]"]
        lines += [f"{g.index}, {g.model}, {g.memory_mib} MiB" for g in top.gpus]
    return "\n".join(lines) + "\n"
