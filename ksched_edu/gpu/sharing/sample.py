"""A small openb-shaped trace that ships with the project, generated from a seed.

Chapter 09 and its tests read ``data/gpu-sample/``: a GPU node list and a pod
list with the columns of the openb trace (Alibaba, 2023; the public repository
alibaba/clusterdata, folder ``cluster-trace-gpu-v2023``), so that they run
without the trace. The sample is synthetic: no row comes from the trace. Its
nodes and pods are drawn from the frequency tables below, which are summary
statistics of the trace (how many GPU nodes of each shape, how many pods of
each request shape), computed once with :func:`trace_statistics` and
committed as constants, so that the generator runs without the trace.

    python -m ksched_edu.gpu.sharing.sample --out data/gpu-sample --seed 7
    python -m ksched_edu.gpu.sharing.sample --stats ../shared/data/openb   # the tables, from the trace
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Optional, Sequence

from ...anchors import plumbing
from ...resources import data_path, data_root
from .openb import NodeRow, PathLike, PodRow, read_node_csv, read_pod_csv, write_node_csv, write_pod_csv

_PLUMBING = "generates the small openb-shaped sample the project ships; the trace itself is not shipped"

SAMPLE_DIR = data_path("gpu-sample")
SEED = 7
NUM_NODES = 100
NODE_FILE = "openb_node_list_gpu_node.csv"
POD_FILE = "openb_pod_list_default.csv"
# The sample's own files: the same columns under names of their own (it is not the trace).
SAMPLE_NODE_FILE = "sample_node_list.csv"
SAMPLE_POD_FILE = "sample_pod_list.csv"
# The environment variable naming a folder that holds the real trace's NODE_FILE and POD_FILE.
TRACE_ENV = "KSCHED_EDU_OPENB"

# --- statistics of the trace (openb_node_list_gpu_node.csv, openb_pod_list_default.csv) ---------------
# (how many nodes, GPUs, model, milli CPU, MiB): the 1,213 GPU nodes of the trace, by shape.
NODE_SHAPES: tuple[tuple[int, int, str, int, int], ...] = (
    (549, 8, "G2", 96000, 393216),
    (387, 2, "T4", 104000, 524288),
    (107, 2, "P100", 16000, 122880),
    (39, 8, "G3", 128000, 786432),
    (28, 4, "V100M16", 32000, 131072),
    (22, 2, "P100", 64000, 262144),
    (21, 8, "V100M32", 96000, 786432),
    (19, 1, "V100M16", 8000, 32768),
    (17, 4, "T4", 96000, 393216),
    (9, 4, "V100M32", 48000, 376832),
    (7, 8, "V100M16", 64000, 262144),
    (3, 1, "P100", 8000, 61440),
    (2, 2, "P100", 8000, 61440),
    (2, 1, "A10", 128000, 1048576),
    (1, 8, "V100M16", 82000, 344064),
)
# (how many pods, GPUs, milli GPU each, milli CPU, MiB): the 8,152 pods of the trace, by request shape.
POD_SHAPES: tuple[tuple[int, int, int, int, int], ...] = (
    (1047, 1, 810, 3152, 5600), (857, 1, 1000, 11300, 49152), (534, 1, 1000, 11400, 48128),
    (470, 1, 1000, 3152, 5600), (388, 1, 470, 11908, 47104), (364, 0, 0, 12500, 57344), (360, 1, 470, 8000, 30517),
    (284, 0, 0, 32000, 49152), (255, 1, 1000, 18708, 64512), (237, 1, 650, 11908, 47104), (195, 1, 1000, 9810, 41560),
    (163, 0, 0, 8000, 30517), (158, 1, 1000, 12000, 24576), (158, 1, 1000, 15700, 58368),
    (153, 1, 1000, 11908, 47104), (120, 0, 0, 15400, 51200), (111, 1, 320, 4000, 22888), (108, 1, 1000, 16000, 32768),
    (104, 1, 1000, 4000, 24576), (104, 1, 1000, 8000, 16384), (99, 1, 1000, 12000, 16384), (95, 0, 0, 16500, 51200),
    (93, 1, 1000, 14200, 58368), (84, 1, 230, 4000, 30517), (84, 1, 1000, 24200, 93184), (78, 1, 320, 4000, 15258),
    (75, 1, 590, 3152, 5600), (72, 1, 320, 8000, 30517), (72, 1, 550, 4152, 10600), (65, 1, 1000, 11400, 77824),
    (55, 1, 1000, 8000, 32768), (53, 1, 160, 4000, 15258), (51, 1, 460, 6000, 6144), (51, 1, 1000, 11900, 77824),
    (45, 1, 370, 4152, 10600), (44, 1, 1000, 12000, 15360), (43, 1, 320, 4000, 30517), (41, 1, 1000, 8200, 33792),
    (40, 1, 1000, 4000, 31250), (36, 1, 1000, 15200, 80896), (33, 1, 1000, 16000, 65536), (31, 1, 810, 4152, 10600),
    (29, 1, 460, 6000, 12288), (27, 1, 1000, 16400, 125952), (26, 1, 230, 4000, 22888), (24, 1, 220, 4000, 15258),
    (22, 1, 320, 1000, 2048), (20, 1, 160, 6000, 22888), (19, 1, 220, 8000, 30517), (18, 1, 230, 8000, 30517),
    (18, 1, 460, 6000, 18432), (18, 1, 480, 4000, 22888), (18, 8, 1000, 64200, 263168), (18, 8, 1000, 88000, 327680),
    (16, 1, 1000, 11300, 37888), (15, 1, 1000, 1000, 6144), (12, 1, 230, 4000, 15258), (12, 1, 650, 8000, 30517),
    (11, 0, 0, 8000, 15625), (11, 0, 0, 11400, 57344), (11, 1, 220, 4000, 22888), (11, 1, 1000, 7000, 30000),
    (9, 1, 110, 4000, 22888), (9, 1, 460, 6000, 8192), (9, 1, 1000, 15400, 90112), (9, 4, 1000, 32200, 132096),
    (8, 0, 0, 16000, 31250), (8, 1, 110, 4000, 15258), (8, 1, 220, 4000, 30517), (8, 1, 1000, 4000, 16384),
    (8, 1, 1000, 12000, 32768), (8, 1, 1000, 12000, 47104), (8, 1, 1000, 14900, 73728), (7, 1, 330, 4000, 22888),
    (7, 1, 460, 6000, 16384), (7, 2, 1000, 16200, 66560), (6, 1, 350, 4000, 22888), (6, 1, 460, 6000, 23552),
    (6, 1, 460, 12000, 18432), (6, 1, 1000, 6000, 32768), (6, 1, 1000, 9400, 52224), (5, 0, 0, 8000, 31250),
    (5, 1, 1000, 2000, 16384), (5, 1, 1000, 4000, 32768), (4, 0, 0, 12000, 24576), (4, 1, 50, 6000, 22888),
    (4, 1, 110, 6000, 22888), (4, 1, 270, 4152, 10600), (4, 1, 1000, 11900, 43008), (4, 1, 1000, 12000, 49152),
    (3, 0, 0, 32000, 62500), (3, 1, 50, 4000, 15258), (3, 1, 1000, 2000, 8192), (3, 1, 1000, 16000, 31250),
    (3, 1, 1000, 16000, 49152), (3, 2, 1000, 6000, 65536), (3, 2, 1000, 30200, 160768), (3, 4, 1000, 32000, 131072),
    (3, 4, 1000, 60200, 320512), (3, 8, 1000, 64000, 262144), (3, 8, 1000, 120000, 737280), (2, 0, 0, 8000, 8192),
    (2, 0, 0, 8000, 16384), (2, 0, 0, 12500, 65536), (2, 0, 0, 16000, 32768), (2, 0, 0, 20000, 65536),
    (2, 0, 0, 32000, 32768), (2, 1, 110, 8000, 30517), (2, 1, 320, 6000, 30517), (2, 1, 370, 2000, 8192),
    (2, 1, 440, 8000, 30517), (2, 1, 460, 8000, 16000), (2, 1, 470, 4000, 15258), (2, 1, 650, 1000, 2048),
    (2, 1, 650, 4000, 15258), (2, 1, 1000, 8000, 65536), (2, 1, 1000, 12000, 16000), (2, 1, 1000, 12000, 23552),
    (2, 1, 1000, 16000, 16384), (2, 1, 1000, 16400, 84992), (2, 2, 1000, 17400, 43008), (2, 8, 1000, 120200, 640000),
    (1, 0, 0, 8000, 61035), (1, 0, 0, 8000, 62500), (1, 0, 0, 10000, 48828), (1, 0, 0, 16000, 15625),
    (1, 0, 0, 16000, 16384), (1, 0, 0, 16000, 62500), (1, 0, 0, 16000, 65536), (1, 0, 0, 32000, 65536),
    (1, 1, 110, 4000, 30517), (1, 1, 140, 1000, 2048), (1, 1, 160, 4000, 22888), (1, 1, 290, 1000, 2048),
    (1, 1, 480, 8000, 30517), (1, 1, 1000, 4000, 4096), (1, 1, 1000, 4000, 8192), (1, 1, 1000, 5000, 10240),
    (1, 1, 1000, 6000, 8192), (1, 1, 1000, 6000, 16384), (1, 1, 1000, 8000, 8192), (1, 1, 1000, 8000, 15625),
    (1, 1, 1000, 8000, 24576), (1, 1, 1000, 8710, 41560), (1, 1, 1000, 11300, 23552), (1, 1, 1000, 11800, 78848),
    (1, 1, 1000, 12000, 12288), (1, 1, 1000, 14000, 0), (1, 1, 1000, 15900, 90112), (1, 1, 1000, 16000, 24576),
    (1, 2, 1000, 14000, 60000),
)
QOS_COUNTS: tuple[tuple[str, int], ...] = (("LS", 4647), ("BE", 3398), ("Burstable", 100), ("Guaranteed", 7))
PHASE_COUNTS: tuple[tuple[str, int], ...] = (("Running", 5193), ("Failed", 1870), ("Pending", 897), ("Succeeded", 192))
# The pods ask for this share of the GPU nodes' GPUs (8,152 pods, 6,212 GPUs).
GPU_LOAD = 0.9798
# Arrival gaps (s): exponential with the trace's mean gap; lifetimes (s): log-normal with the trace's median
# (540 s) and quartiles (167 s, 1,972 s); a scheduled pod starts after an exponential wait of the trace's mean.
ARRIVAL_GAP_MEAN = 1583.0
LIFETIME_MEDIAN = 540.0
LIFETIME_SIGMA = 1.83
START_WAIT_MEAN = 61.0


@plumbing(_PLUMBING)
def node_counts(num_nodes: int) -> list[tuple[int, str, int, int, int]]:
    """(GPUs, model, milli CPU, MiB, how many) per node shape: the trace's mix scaled to ``num_nodes``.

    Largest remainders, so that the counts add up to ``num_nodes`` and follow the trace's proportions.
    """
    total = sum(s[0] for s in NODE_SHAPES)
    exact = [s[0] * num_nodes / total for s in NODE_SHAPES]
    counts = [math.floor(x) for x in exact]
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in order[:num_nodes - sum(counts)]:
        counts[i] += 1
    return [(gpu, model, cpu, mem, c) for (_, gpu, model, cpu, mem), c in zip(NODE_SHAPES, counts) if c]


@plumbing(_PLUMBING)
def generate_sample(seed: int = SEED, num_nodes: int = NUM_NODES) -> tuple[list[NodeRow], list[PodRow]]:
    """A GPU node list and a pod list shaped like the trace's, from ``seed``.

    The nodes follow the trace's mix of node shapes (:func:`node_counts`) in a shuffled order; pods are
    drawn from the trace's request shapes, weighted by their counts, until they ask for ``GPU_LOAD`` of
    the nodes' GPUs, as the trace's pods do.
    """
    rng = random.Random(seed)
    shapes = [(gpu, model, cpu, mem) for gpu, model, cpu, mem, c in node_counts(num_nodes) for _ in range(c)]
    rng.shuffle(shapes)
    nodes = [NodeRow(f"sample-node-{i:04d}", cpu, mem, gpu, model) for i, (gpu, model, cpu, mem) in enumerate(shapes)]
    capacity = sum(n.gpu for n in nodes) * 1000
    pod_weights = [s[0] for s in POD_SHAPES]
    qos, qos_weights = zip(*QOS_COUNTS)
    phases, phase_weights = zip(*PHASE_COUNTS)
    pods: list[PodRow] = []
    asked = 0
    clock = 0.0
    while asked < GPU_LOAD * capacity:
        _, gpus, milli, cpu, mem = rng.choices(POD_SHAPES, weights=pod_weights)[0]
        clock += rng.expovariate(1 / ARRIVAL_GAP_MEAN)
        created = int(clock)
        phase = rng.choices(phases, weights=phase_weights)[0]
        started = None if phase == "Pending" else created + int(rng.expovariate(1 / START_WAIT_MEAN))
        deleted = (started or created) + int(rng.lognormvariate(math.log(LIFETIME_MEDIAN), LIFETIME_SIGMA))
        pods.append(PodRow(f"sample-pod-{len(pods):04d}", cpu, mem, gpus, milli, "",
                           rng.choices(qos, weights=qos_weights)[0], phase, created, deleted, started))
        asked += gpus * milli
    return nodes, pods


def _kinds(pods: Sequence[PodRow]) -> Counter:
    return Counter("no GPU" if p.num_gpu == 0 else "a share of one GPU" if p.gpu_milli < 1000 and p.num_gpu == 1
                   else "one whole GPU" if p.num_gpu == 1 else "several GPUs" for p in pods)


def _readme(seed: int, nodes: Sequence[NodeRow], pods: Sequence[PodRow]) -> str:
    kinds = _kinds(pods)
    trace_kinds: Counter = Counter()
    for c, gpus, milli, _, _ in POD_SHAPES:
        trace_kinds["no GPU" if gpus == 0 else "a share of one GPU" if gpus == 1 and milli < 1000
                    else "one whole GPU" if gpus == 1 else "several GPUs"] += c
    models = Counter(n.model for n in nodes)
    lines = [
        "# gpu-sample: a synthetic trace shaped like openb",
        "",
        "Synthetic, not the trace: no row here comes from the openb trace (Alibaba, 2023;",
        "alibaba/clusterdata, folder cluster-trace-gpu-v2023). Generated by",
        "",
        "```bash",
        f"python -m ksched_edu.gpu.sharing.sample --out data/gpu-sample --seed {seed} --nodes {len(nodes)}",
        "```",
        "",
        "from the frequency tables in `ksched_edu/gpu/sharing/sample.py`: summary",
        "statistics of the trace's `openb_node_list_gpu_node.csv` (1,213 GPU nodes by",
        "shape: GPUs, model, CPU, memory) and `openb_pod_list_default.csv` (8,152 pods",
        "by request shape: num_gpu, gpu_milli, cpu_milli, memory_mib; QoS and phase",
        "counts). The nodes follow the trace's node-shape mix scaled to",
        f"{len(nodes)} nodes (largest remainders), in an order shuffled with `random.Random({seed})`;",
        "the pods are drawn from the trace's request shapes, weighted by their",
        "counts, until they ask for 98% of the nodes' GPUs, as the trace's pods do.",
        "Arrival, deletion and scheduled times are drawn too (the experiment ignores",
        "them). `tests/gpu_sharing/test_sample.py` checks that these files are the",
        "generator's output for its seed.",
        "",
        f"- `{SAMPLE_NODE_FILE}`: {len(nodes)} GPU nodes, {sum(n.gpu for n in nodes)} GPUs; models: "
        + ", ".join(f"{m} {c}" for m, c in sorted(models.items(), key=lambda kv: (-kv[1], kv[0]))) + ".",
        f"- `{SAMPLE_POD_FILE}`: {len(pods)} pods asking for {sum(p.num_gpu * p.gpu_milli for p in pods) / 1000:.1f} GPUs.",
        "",
        "| pods | sample | trace |",
        "| --- | ---: | ---: |",
    ]
    total = sum(trace_kinds.values())
    for kind in ("a share of one GPU", "one whole GPU", "several GPUs", "no GPU"):
        lines.append(f"| {kind} | {100 * kinds[kind] / len(pods):.1f}% | {100 * trace_kinds[kind] / total:.1f}% |")
    return "\n".join(lines) + "\n"


@plumbing(_PLUMBING)
def write_sample(out_dir: PathLike, seed: int = SEED, num_nodes: int = NUM_NODES) -> list[Path]:
    """Write :func:`generate_sample` as two CSV files in the trace's columns and a README.md in ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    nodes, pods = generate_sample(seed, num_nodes)
    write_node_csv(nodes, out / SAMPLE_NODE_FILE)
    write_pod_csv(pods, out / SAMPLE_POD_FILE)
    (out / "README.md").write_text(_readme(seed, nodes, pods), encoding="utf-8")
    return [out / SAMPLE_NODE_FILE, out / SAMPLE_POD_FILE, out / "README.md"]


@plumbing(_PLUMBING)
def read_sample(folder: Optional[PathLike] = None) -> tuple[list[NodeRow], list[PodRow]]:
    """The node and pod rows of the committed sample (or of a folder with the same two files)."""
    folder = Path(folder) if folder is not None else SAMPLE_DIR
    return read_node_csv(folder / SAMPLE_NODE_FILE), read_pod_csv(folder / SAMPLE_POD_FILE)


@plumbing(_PLUMBING)
def trace_dir(environ: Optional[dict] = None) -> Optional[Path]:
    """The folder of the real trace named by ``$KSCHED_EDU_OPENB``, or None when it is unset or lacks the files."""
    value = (os.environ if environ is None else environ).get(TRACE_ENV, "")
    if not value:
        return None
    folder = Path(value)
    if not folder.is_absolute() and not folder.exists():
        folder = data_root().parent / folder  # relative to the project root, in a checkout
    return folder if (folder / NODE_FILE).is_file() and (folder / POD_FILE).is_file() else None


@plumbing(_PLUMBING)
def trace_statistics(folder: PathLike) -> dict:
    """The tables above, computed from the trace's two files in ``folder``."""
    nodes = read_node_csv(Path(folder) / NODE_FILE)
    pods = read_pod_csv(Path(folder) / POD_FILE)
    node_shapes = Counter((n.gpu, n.model, n.cpu_milli, n.memory_mib) for n in nodes)
    pod_shapes = Counter((p.num_gpu, p.gpu_milli, p.cpu_milli, p.memory_mib) for p in pods)
    return {
        "NODE_SHAPES": tuple(sorted(((c, *k) for k, c in node_shapes.items()),
                                    key=lambda s: (-s[0], -s[1], s[2], s[3]))),
        "POD_SHAPES": tuple(sorted(((c, *k) for k, c in pod_shapes.items()), key=lambda s: (-s[0], *s[1:]))),
        "QOS_COUNTS": tuple(Counter(p.qos for p in pods).most_common()),
        "PHASE_COUNTS": tuple(Counter(p.pod_phase for p in pods).most_common()),
        "GPU_LOAD": round(sum(p.num_gpu * p.gpu_milli for p in pods) / (1000 * sum(n.gpu for n in nodes)), 4),
    }


@plumbing(_PLUMBING)
def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ksched_edu.gpu.sharing.sample",
                                 description="Write the openb-shaped sample, or print the trace's statistics.")
    ap.add_argument("--out", default=str(SAMPLE_DIR), help="folder to write (default: data/gpu-sample)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--nodes", type=int, default=NUM_NODES, help="GPU nodes in the sample")
    ap.add_argument("--stats", metavar="TRACE_DIR", help="print the statistics of the trace in TRACE_DIR instead")
    args = ap.parse_args(argv)
    if args.stats:
        for name, value in trace_statistics(args.stats).items():
            print(f"{name} = {value!r}")
        return 0
    if args.nodes < 1:
        print("--nodes must be at least 1", file=sys.stderr)
        return 2
    for path in write_sample(args.out, args.seed, args.nodes):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
