"""Port of data/pod_csv_to_yaml.py and the node list of data/ (kubernetes-scheduler-simulator): the openb trace.

The openb trace (Alibaba, 2023) behind the FGD paper comes as two CSV files:
a node list (``sn, cpu_milli, memory_mib, gpu, model``) and a pod list
(``name, cpu_milli, memory_mib, num_gpu, gpu_milli, gpu_spec, qos, pod_phase,
creation_time, deletion_time, scheduled_time``). :func:`read_node_csv` and
:func:`read_pod_csv` check every cell and name the file, row and column of a
bad one; :func:`node_from_row` and :func:`pod_from_row` build the Node and Pod
the simulator builds from them. :func:`generate_trace` makes a trace of the
same shape from a seed, so that chapters and tests run without the files.

Deviations:
- Nodes get their objects straight from the CSV (the simulator ships a YAML
  of the GPU nodes made from it): capacity and allocatable ``cpu``,
  ``memory``, ``pods: 1001`` and, on GPU nodes, ``gpu-count``/``gpu-milli``
  and the model label.
- Pods live in namespace ``openb``; timestamps and QoS are read and kept
  on the rows, but the experiment does not use them (the paper's runs
  shuffle the pods).
"""
from __future__ import annotations

import csv
import math
import os
import random
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence, Union

from ...anchors import FGD_SIMULATOR, plumbing, ports
from ...api.quantity import parse_quantity
from ...api.types import Container, Node, NodeStatus, ObjectMeta, Pod, PodSpec, ResourceRequirements
from .gpushare_utils import COUNT_NAME, MILLI, MODEL_NAME, RESOURCE_NAME, gpu_annotations

_PLUMBING = "reads, writes or generates the openb trace's CSV files; the simulator ships YAML made from them"

NAMESPACE = "openb"
SCHEDULER_NAME = "default-scheduler"
NODE_MAX_PODS = 1001  # as the simulator's node YAML says

NODE_COLUMNS = ("sn", "cpu_milli", "memory_mib", "gpu", "model")
NODE_REQUIRED = ("sn", "cpu_milli", "memory_mib", "gpu")
POD_COLUMNS = ("name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "gpu_spec", "qos", "pod_phase",
               "creation_time", "deletion_time", "scheduled_time")
POD_REQUIRED = ("name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli")

PathLike = Union[str, os.PathLike]


@plumbing(_PLUMBING)
class OpenbError(ValueError):
    """A CSV cell (or header) that cannot be read; ``str()`` names the file, row and column."""

    def __init__(self, file: str, row: Optional[int], column: Optional[str], problem: str) -> None:
        where = file + (f": row {row}" if row else "") + (f", column {column}" if column else "")
        super().__init__(f"{where}: {problem}")
        self.file, self.row, self.column, self.problem = file, row, column, problem


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class NodeRow:
    sn: str
    cpu_milli: int
    memory_mib: int
    gpu: int
    model: str = ""


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class PodRow:
    name: str
    cpu_milli: int
    memory_mib: int
    num_gpu: int
    gpu_milli: int
    gpu_spec: str = ""
    qos: str = ""
    pod_phase: str = ""
    creation_time: Optional[int] = None
    deletion_time: Optional[int] = None
    scheduled_time: Optional[int] = None


# --- reading -------------------------------------------------------------------------------


def _rows(path: PathLike, required: Sequence[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """(row number, cells by column) for each data row; row 1 is the header."""
    name = os.fspath(path)
    try:
        f = open(name, newline="", encoding="utf-8")
    except FileNotFoundError:
        raise OpenbError(name, None, None, "no such file") from None
    with f:
        reader = csv.reader(f)
        try:
            header = next(reader)
        except StopIteration:
            raise OpenbError(name, 1, None, "empty file, expected a header row") from None
        except (csv.Error, UnicodeDecodeError) as err:
            raise OpenbError(name, 1, None, f"not a CSV header: {err}") from None
        header = [h.strip() for h in header]
        for col in required:
            if col not in header:
                raise OpenbError(name, 1, col, f"missing from the header ({', '.join(header)})")
        try:
            for cells in reader:
                row = reader.line_num
                if not cells or all(not c.strip() for c in cells):
                    continue
                if len(cells) != len(header):
                    raise OpenbError(name, row, None, f"{len(cells)} cells, the header has {len(header)}")
                yield row, dict(zip(header, cells))
        except (csv.Error, UnicodeDecodeError) as err:
            raise OpenbError(name, reader.line_num, None, f"not valid CSV: {err}") from None


def _int(file: str, row: int, column: str, text: str, *, optional: bool = False) -> Optional[int]:
    """A whole number (``12000`` or ``12000.0``); None for an empty optional cell."""
    text = text.strip()
    if text == "" or text.lower() == "nan":
        if optional:
            return None
        raise OpenbError(file, row, column, "empty, expected a whole number")
    try:
        value = float(text)
    except ValueError:
        raise OpenbError(file, row, column, f"{text!r} is not a number") from None
    if not math.isfinite(value) or value != int(value):
        raise OpenbError(file, row, column, f"{text!r} is not a whole number")
    return int(value)


def _count(file: str, row: int, column: str, text: str) -> int:
    value = _int(file, row, column, text)
    assert value is not None
    if value < 0:
        raise OpenbError(file, row, column, f"{value} is negative")
    return value


def _text(text: Optional[str]) -> str:
    text = (text or "").strip()
    return "" if text.lower() == "nan" else text


@plumbing(_PLUMBING)
def read_node_csv(path: PathLike) -> list[NodeRow]:
    """The node list; OpenbError names the file, row and column of the first bad cell."""
    file = os.fspath(path)
    out: list[NodeRow] = []
    seen: dict[str, int] = {}
    for row, cells in _rows(path, NODE_REQUIRED):
        sn = _text(cells["sn"])
        if not sn:
            raise OpenbError(file, row, "sn", "empty node name")
        if sn in seen:
            raise OpenbError(file, row, "sn", f"{sn} is also the name of row {seen[sn]}")
        seen[sn] = row
        out.append(NodeRow(sn, _count(file, row, "cpu_milli", cells["cpu_milli"]),
                           _count(file, row, "memory_mib", cells["memory_mib"]),
                           _count(file, row, "gpu", cells["gpu"]), _text(cells.get("model"))))
    return out


@plumbing(_PLUMBING)
def read_pod_csv(path: PathLike) -> list[PodRow]:
    """The pod list; OpenbError names the file, row and column of the first bad cell."""
    file = os.fspath(path)
    out: list[PodRow] = []
    seen: dict[str, int] = {}
    for row, cells in _rows(path, POD_REQUIRED):
        name = _text(cells["name"])
        if not name:
            raise OpenbError(file, row, "name", "empty pod name")
        if name in seen:
            raise OpenbError(file, row, "name", f"{name} is also the name of row {seen[name]}")
        seen[name] = row
        times = {c: _int(file, row, c, cells[c], optional=True) if c in cells else None
                 for c in ("creation_time", "deletion_time", "scheduled_time")}
        out.append(PodRow(name, _count(file, row, "cpu_milli", cells["cpu_milli"]),
                          _count(file, row, "memory_mib", cells["memory_mib"]),
                          _count(file, row, "num_gpu", cells["num_gpu"]),
                          _int(file, row, "gpu_milli", cells["gpu_milli"]) or 0,
                          _text(cells.get("gpu_spec")), _text(cells.get("qos")), _text(cells.get("pod_phase")),
                          **times))
    return out


# --- objects -------------------------------------------------------------------------------


@plumbing(_PLUMBING)
def node_from_row(row: NodeRow) -> Node:
    """The Node of a node-list row."""
    resources = {"cpu": parse_quantity(f"{row.cpu_milli}m"), "memory": parse_quantity(f"{row.memory_mib}Mi"),
                 "pods": parse_quantity(str(NODE_MAX_PODS))}
    labels = {"kubernetes.io/hostname": row.sn, "kubernetes.io/os": "linux"}
    if row.gpu > 0:
        resources[COUNT_NAME] = parse_quantity(str(row.gpu))
        resources[RESOURCE_NAME] = parse_quantity(str(row.gpu * MILLI))
        if row.model:
            labels[MODEL_NAME] = row.model
    meta = ObjectMeta(name=row.sn, labels=labels)
    return Node(meta, status=NodeStatus(capacity=dict(resources), allocatable=dict(resources)))


@ports("data/pod_csv_to_yaml.py", "output_pod", 79, 132, repo=FGD_SIMULATOR)
def pod_from_row(row: PodRow, name: Optional[str] = None) -> Pod:
    """The Pod of a pod-list row (``name`` overrides the row's, for copies of a row)."""
    name = name or row.name
    requests = {"cpu": parse_quantity(f"{row.cpu_milli}m"), "memory": parse_quantity(f"{row.memory_mib}Mi")}
    container = Container("main", image="tensorflow:latest",
                          resources=ResourceRequirements(requests=dict(requests), limits=dict(requests)))
    meta = ObjectMeta(name=name, namespace=NAMESPACE, uid=f"{NAMESPACE}/{name}",
                      annotations=gpu_annotations(row.num_gpu, row.gpu_milli, row.gpu_spec))
    return Pod(meta, PodSpec(containers=[container], scheduler_name=SCHEDULER_NAME, priority=0))


@plumbing(_PLUMBING)
def load_nodes(path: PathLike) -> list[Node]:
    return [node_from_row(r) for r in read_node_csv(path)]


@plumbing(_PLUMBING)
def load_pods(path: PathLike) -> list[Pod]:
    return [pod_from_row(r) for r in read_pod_csv(path)]


# --- writing -------------------------------------------------------------------------------


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


@plumbing(_PLUMBING)
def write_node_csv(rows: Sequence[NodeRow], path: PathLike) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(NODE_COLUMNS)
        for r in rows:
            w.writerow([_cell(getattr(r, c.name)) for c in fields(NodeRow)])


@plumbing(_PLUMBING)
def write_pod_csv(rows: Sequence[PodRow], path: PathLike) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(POD_COLUMNS)
        for r in rows:
            w.writerow([_cell(getattr(r, c.name)) for c in fields(PodRow)])


# --- a generated trace of the same shape --------------------------------------------------------

# (weight, GPUs, model, milli CPU, MiB): GPU nodes in about the proportions of openb's.
GPU_NODE_SHAPES: list[tuple[float, int, str, int, int]] = [
    (45.0, 8, "G2", 96000, 393216), (32.0, 2, "T4", 104000, 524288), (9.0, 2, "P100", 16000, 122880),
    (3.0, 8, "G3", 128000, 786432), (2.5, 4, "V100M16", 32000, 131072), (2.0, 2, "P100", 64000, 262144),
    (2.0, 8, "V100M32", 96000, 786432), (1.5, 1, "V100M16", 8000, 32768), (1.5, 4, "T4", 96000, 393216),
    (1.0, 4, "V100M32", 48000, 376832), (0.5, 8, "V100M16", 64000, 262144),
]
CPU_NODE_SHAPES: list[tuple[float, int, str, int, int]] = [
    (50.0, 0, "", 32000, 262144), (25.0, 0, "", 96000, 524288), (25.0, 0, "", 64000, 524288),
]
# (weight, GPUs, milli GPU each, milli CPU, MiB): about 38% GPU-sharing pods, 48% one whole GPU,
# 13% CPU only, 1% several GPUs, as in openb's default pod list.
POD_SHAPES: list[tuple[float, int, int, int, int]] = [
    (13.0, 1, 810, 3200, 5600), (5.0, 1, 470, 12000, 47000), (4.5, 1, 470, 8000, 30000),
    (3.0, 1, 650, 12000, 47000), (1.5, 1, 320, 4000, 23000), (1.0, 1, 230, 4000, 30000),
    (1.0, 1, 320, 4000, 15000), (1.0, 1, 590, 3200, 5600), (1.0, 1, 550, 4200, 10600),
    (0.7, 1, 160, 4000, 15000), (0.6, 1, 460, 6000, 6000), (0.6, 1, 370, 4200, 10600),
    (10.5, 1, 1000, 11300, 49000), (6.5, 1, 1000, 11400, 48000), (5.8, 1, 1000, 3200, 5600),
    (3.1, 1, 1000, 18700, 64500), (2.4, 1, 1000, 9800, 41500), (2.0, 1, 1000, 12000, 24500),
    (2.0, 1, 1000, 15700, 58000), (2.0, 1, 1000, 12000, 47000), (1.3, 1, 1000, 16000, 32000),
    (1.3, 1, 1000, 8000, 16000), (1.3, 1, 1000, 4000, 24500), (1.2, 1, 1000, 12000, 16000),
    (1.1, 1, 1000, 14200, 58000), (1.0, 1, 1000, 24200, 93000),
    (4.5, 0, 0, 12500, 57000), (3.5, 0, 0, 32000, 49000), (2.0, 0, 0, 8000, 30000),
    (1.5, 0, 0, 15400, 51200), (1.2, 0, 0, 16500, 51200),
    (0.25, 2, 1000, 16200, 66500), (0.2, 4, 1000, 32200, 132000), (0.3, 8, 1000, 88000, 327680),
    (0.25, 8, 1000, 64200, 263000),
]
QOS_CLASSES = ("LS", "BE", "Burstable")


@plumbing(_PLUMBING)
def generate_trace(seed: int, num_nodes: int = 100, *, load: float = 0.98, cpu_nodes: float = 0.0
                   ) -> tuple[list[NodeRow], list[PodRow]]:
    """A node list and a pod list shaped like openb's, from ``seed``.

    ``num_nodes`` GPU nodes (plus ``cpu_nodes`` times as many CPU-only nodes), and pods
    drawn until their GPU requests reach ``load`` times the cluster's GPUs (openb's
    default pod list asks for 98% of its cluster).
    """
    rng = random.Random(seed)
    shapes = rng.choices(GPU_NODE_SHAPES, weights=[s[0] for s in GPU_NODE_SHAPES], k=num_nodes)
    shapes += rng.choices(CPU_NODE_SHAPES, weights=[s[0] for s in CPU_NODE_SHAPES],
                          k=int(round(num_nodes * cpu_nodes)))
    nodes = [NodeRow(f"openb-node-{i:04d}", cpu, mem, gpu, model) for i, (_, gpu, model, cpu, mem) in
             enumerate(shapes)]
    capacity = sum(n.gpu for n in nodes) * MILLI
    pods: list[PodRow] = []
    asked = 0
    clock = 0
    weights = [s[0] for s in POD_SHAPES]
    while asked < load * capacity:
        _, gpus, milli, cpu, mem = rng.choices(POD_SHAPES, weights=weights)[0]
        clock += rng.randrange(1, 600)
        pods.append(PodRow(f"openb-pod-{len(pods):04d}", cpu, mem, gpus, milli, "", rng.choice(QOS_CLASSES),
                           "Running", clock, clock + rng.randrange(600, 86400), clock))
        asked += gpus * milli
    return nodes, pods


@plumbing(_PLUMBING)
def write_generated_trace(seed: int, out_dir: PathLike, num_nodes: int = 100) -> tuple[Path, Path]:
    """Write :func:`generate_trace` as ``nodes.csv`` and ``pods.csv`` in ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    nodes, pods = generate_trace(seed, num_nodes)
    write_node_csv(nodes, out / "nodes.csv")
    write_pod_csv(pods, out / "pods.csv")
    return out / "nodes.csv", out / "pods.csv"


if __name__ == "__main__":  # python -m ksched_edu.gpu.sharing.openb OUT_DIR [SEED] [NODES]
    import sys

    args = sys.argv[1:]
    if not args:
        print("usage: python -m ksched_edu.gpu.sharing.openb OUT_DIR [SEED] [NODES]", file=sys.stderr)
        sys.exit(2)
    paths = write_generated_trace(int(args[1]) if len(args) > 1 else 42, args[0],
                                  int(args[2]) if len(args) > 2 else 100)
    print(*paths)
