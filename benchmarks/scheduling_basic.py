"""Throughput benchmark in the shape of upstream's scheduler_perf SchedulingBasic.

test/integration/scheduler_perf/config/performance-config.yaml, SchedulingBasic:
N nodes from ``node-default.yaml`` (cpu 4, memory 32Gi, pods 110), 1,000 pods
from ``pod-default.yaml`` (one container asking for 100m CPU and 500Mi) scheduled
first, then M more pods whose scheduling is measured. The default profile, tracing
off, the garbage collector tuned as a simulation run tunes it (``tuned_gc``).

Each run is its own process, so that its peak memory (max RSS) is its own. The
throughput is bound pods per second of CPU time (process time) of the measured
phase, the figure least disturbed by other work on a shared machine; wall time is
shown beside it. ``--repeat N`` runs each size N times: the median, and the spread
(lowest to highest) of the CPU time. As each size finishes, one line of progress goes to
stderr (so that ``--json`` output on stdout stays one JSON object a line).

    python benchmarks/scheduling_basic.py                       # 100, 1,000 and 5,000 nodes
    python benchmarks/scheduling_basic.py --nodes 5000 --pods 10000 --repeat 3
    python benchmarks/scheduling_basic.py --nodes 5000 --pods 10000 --ab f14d42f --repeat 3
    python benchmarks/scheduling_basic.py --profile --nodes 1000  # cProfile of one run, top 25

``--ab REF`` runs the work tree and the tree of git ref REF (``git archive``, into a
temporary directory) one after the other, pair by pair, and prints each pair's ratio
(work tree over REF) and their median: alternating keeps slow phases of a shared
machine from favouring one side.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parent.parent
SIZES = [(100, 1000), (1000, 1000), (5000, 1000), (5000, 10000)]
INIT_PODS = 1000

# The real kube-scheduler v1.30.4, built from source, in this shape (5,000 nodes, 1,000
# init pods, 10,000 measured pods): pods per second with GOMAXPROCS=1 and 2, peak memory.
GO_NODES = 5000
GO_PODS_PER_S_ONE_CORE = 328.0
GO_PODS_PER_S_TWO_CORES = 505.0
GO_PEAK_MIB = 378.0


# --- one run (a child process) ---------------------------------------------------------

def node_default(i: int) -> Any:
    from ksched_edu.api.quantity import parse_quantity
    from ksched_edu.api.types import Node, NodeStatus, ObjectMeta

    capacity = {"cpu": parse_quantity("4"), "memory": parse_quantity("32Gi"), "pods": parse_quantity("110")}
    meta = ObjectMeta(name=f"node-{i:05d}", labels={"kubernetes.io/hostname": f"node-{i:05d}"})
    return Node(meta, status=NodeStatus(capacity=dict(capacity), allocatable=dict(capacity)))


def pod_default(prefix: str, i: int) -> Any:
    from ksched_edu.api.quantity import parse_quantity
    from ksched_edu.api.types import Container, ObjectMeta, Pod, PodSpec, ResourceRequirements

    requests = {"cpu": parse_quantity("100m"), "memory": parse_quantity("500Mi")}
    meta = ObjectMeta(name=f"{prefix}-{i:05d}", namespace="default", uid=f"{prefix}-{i:05d}")
    container = Container("pause", image="registry.k8s.io/pause:3.9",
                          resources=ResourceRequirements(requests=requests, limits={}))
    return Pod(meta, PodSpec(containers=[container], scheduler_name="default-scheduler", priority=0))


def drain(sched: Any) -> int:
    cycles = 0
    while sched.schedule_one():
        cycles += 1
        while sched.clock.next_due() is not None and sched.clock.next_due() <= sched.clock.now:
            sched.clock.fire_next()
    sched.run()
    return cycles


def gc_tuning() -> tuple[Any, bool]:
    """The tree's ``tuned_gc`` context manager, or a no-op for a tree that has none."""
    try:
        from ksched_edu.sim.simulation import tuned_gc
    except ImportError:
        return contextlib.nullcontext, False
    return tuned_gc, True


def run_one(nodes: int, pods: int, gc_tuned: bool = True) -> dict:
    """Load the cluster and the init pods, then time the measured pods (this process)."""
    from ksched_edu.config.loader import default_config
    from ksched_edu.scheduler import Scheduler
    from ksched_edu.sim.apiserver import APIServer
    from ksched_edu.sim.clock import VirtualClock

    clock = VirtualClock()
    api = APIServer(clock)
    sched = Scheduler(default_config(), api, clock=clock, seed=1)
    for i in range(nodes):
        api.create(node_default(i))
    for i in range(INIT_PODS):
        api.create(pod_default("init", i))
    drain(sched)
    for i in range(pods):
        api.create(pod_default("measured", i))
    tuned_gc, has_tuning = gc_tuning()
    with tuned_gc() if gc_tuned and has_tuning else contextlib.nullcontext():
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        drain(sched)
        cpu, wall = time.process_time() - cpu_start, time.perf_counter() - wall_start
    bound = sum(1 for p in api.list("Pod") if p.spec.node_name and p.metadata.name.startswith("measured"))
    return {"nodes": nodes, "pods": pods, "bound": bound, "cpu_s": cpu, "wall_s": wall,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "gc_tuned": gc_tuned and has_tuning}


# --- the parent: fresh processes, repeats, tables ------------------------------------------

def progress(message: str) -> None:
    """One line on stderr, at once: a size that finished, while the others run."""
    print(message, file=sys.stderr, flush=True)


def child(tree: Path, nodes: int, pods: int, gc_tuned: bool = True) -> dict:
    """One run in a fresh Python process importing ``ksched_edu`` from ``tree``."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--tree", str(tree),
           "--nodes", str(nodes), "--pods", str(pods)] + ([] if gc_tuned else ["--no-gc-tuning"])
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=tree)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{out.stderr.strip()}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def summary(runs: list[dict]) -> dict:
    """Median CPU and wall time of repeated runs of one size, the CPU-time spread, peak memory."""
    cpu = [r["cpu_s"] for r in runs]
    bound = runs[0]["bound"]
    median_cpu = statistics.median(cpu)
    median_wall = statistics.median(r["wall_s"] for r in runs)
    return {"nodes": runs[0]["nodes"], "pods": runs[0]["pods"], "bound": bound, "runs": len(runs),
            "cpu_s": median_cpu, "cpu_min": min(cpu), "cpu_max": max(cpu), "wall_s": median_wall,
            "pods_per_cpu_s": bound / median_cpu if median_cpu else 0.0,
            "pods_per_wall_s": bound / median_wall if median_wall else 0.0,
            "peak_mb": max(r["peak_mb"] for r in runs)}


def go_reference(nodes: int) -> Optional[float]:
    """The Go scheduler's one-core throughput, for the cluster size it was measured at."""
    return GO_PODS_PER_S_ONE_CORE if nodes == GO_NODES else None


def table(rows: list[dict], labels: Optional[list[str]] = None) -> str:
    """One line per summary row; ``labels`` (e.g. A, B) head the lines when given."""
    tag = (lambda i: f"{labels[i]:<3}") if labels else (lambda i: "")
    tag_head = f"{'':<3}" if labels else ""
    head = (tag_head + f"{'nodes':>6} {'pods':>6} {'bound':>6} {'runs':>4} {'CPU s':>7} {'spread':>13} {'wall s':>7} "
            f"{'pods/CPU s':>10} {'pods/wall s':>11} {'peak MB':>7} {'Go 1 core':>9} {'ours/Go':>7}")
    lines = [head, "-" * len(head)]
    for i, r in enumerate(rows):
        go = go_reference(r["nodes"])
        spread = f"{r['cpu_min']:.1f}-{r['cpu_max']:.1f}"
        lines.append(tag(i) + f"{r['nodes']:>6} {r['pods']:>6} {r['bound']:>6} {r['runs']:>4} {r['cpu_s']:>7.2f} "
                     f"{spread:>13} {r['wall_s']:>7.2f} {r['pods_per_cpu_s']:>10.1f} {r['pods_per_wall_s']:>11.1f} "
                     f"{r['peak_mb']:>7.0f} {go or '':>9} "
                     f"{(format(r['pods_per_cpu_s'] / go, '.2f') + 'x') if go else '':>7}")
    return "\n".join(lines)


def go_note() -> str:
    return (f"Go: kube-scheduler v1.30.4 at {GO_NODES:,} nodes, 1,000 init + 10,000 measured pods: "
            f"{GO_PODS_PER_S_ONE_CORE:.0f} pods/s on one core (GOMAXPROCS=1), {GO_PODS_PER_S_TWO_CORES:.0f} on two, "
            f"{GO_PEAK_MIB:.0f} MiB peak.")


def export_ref(ref: str, into: Path) -> Path:
    """The tree of git ref ``ref`` in ``into`` (git archive: the work tree is not touched)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(f"git archive {ref}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def ab(ref: str, sizes: list[tuple[int, int]], repeat: int) -> None:
    """Alternate the work tree (A) and ``ref`` (B); per-pair CPU throughput ratios A/B."""
    with tempfile.TemporaryDirectory(prefix="ksched-ab-") as tmp:
        tree = export_ref(ref, Path(tmp))
        print(f"A = work tree {ROOT}, B = {ref} ({tree}); {repeat} pair(s) per size, order A B, B A, ...",
              flush=True)
        for nodes, pods in sizes:
            a_runs, b_runs, ratios = [], [], []
            print(f"\n{nodes} nodes, {pods} measured pods")
            print(f"{'pair':>4} {'A pods/CPU s':>12} {'B pods/CPU s':>12} {'A/B':>6} {'A peak MB':>9} {'B peak MB':>9}",
                  flush=True)
            for i in range(repeat):
                order = [("A", ROOT), ("B", tree)] if i % 2 == 0 else [("B", tree), ("A", ROOT)]
                got = {side: child(where, nodes, pods) for side, where in order}
                a_runs.append(got["A"])
                b_runs.append(got["B"])
                a_rate = got["A"]["bound"] / got["A"]["cpu_s"]
                b_rate = got["B"]["bound"] / got["B"]["cpu_s"]
                ratios.append(a_rate / b_rate if b_rate else float("nan"))  # nan: B bound no pod
                print(f"{i + 1:>4} {a_rate:>12.1f} {b_rate:>12.1f} {ratios[-1]:>6.2f} "
                      f"{got['A']['peak_mb']:>9.0f} {got['B']['peak_mb']:>9.0f}", flush=True)
            print(f"median A/B {statistics.median(ratios):.2f} (pairs {', '.join(f'{r:.2f}' for r in ratios)}); "
                  f"gc tuning A {a_runs[0]['gc_tuned']}, B {b_runs[0]['gc_tuned']}")
            print(table([summary(a_runs), summary(b_runs)], labels=["A", "B"]), flush=True)
    print()
    print(go_note())


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, help="one size (with --pods) instead of the default sizes")
    ap.add_argument("--pods", type=int, default=1000,
                    help="measured pods (default 1000); 1,000 init pods come first, so use 30 nodes or more")
    ap.add_argument("--repeat", type=int, default=1, help="runs (or A/B pairs) per size; median and spread")
    ap.add_argument("--ab", metavar="REF", help="alternate the work tree and git ref REF, pair by pair")
    ap.add_argument("--no-gc-tuning", action="store_true", help="leave the garbage collector as it is")
    ap.add_argument("--json", action="store_true", help="print the summary rows as JSON lines")
    ap.add_argument("--profile", action="store_true", help="cProfile one run in this process")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--tree", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.repeat < 1 or (args.nodes is not None and args.nodes < 1) or args.pods < 1:
        ap.error("--nodes, --pods and --repeat must be at least 1")
    if args.child:
        sys.path.insert(0, str(args.tree))
        print(json.dumps(run_one(args.nodes, args.pods, gc_tuned=not args.no_gc_tuning)))
        return 0
    sizes = [(args.nodes, args.pods)] if args.nodes else SIZES
    if args.profile:
        import cProfile
        import pstats

        sys.path.insert(0, str(ROOT))
        nodes, pods = sizes[0]
        cProfile.runctx("run_one(nodes, pods, not args.no_gc_tuning)", globals(),
                        {"nodes": nodes, "pods": pods, "args": args, "run_one": run_one}, "/tmp/ksched_edu.prof")
        pstats.Stats("/tmp/ksched_edu.prof").sort_stats("cumulative").print_stats(25)
        return 0
    if args.ab:
        ab(args.ab, sizes, args.repeat)
        return 0
    rows = []
    started = time.perf_counter()
    for k, (nodes, pods) in enumerate(sizes, 1):
        runs = [child(ROOT, nodes, pods, gc_tuned=not args.no_gc_tuning) for _ in range(args.repeat)]
        rows.append(summary(runs))
        row = rows[-1]
        progress(f"[{k}/{len(sizes)}] {nodes} nodes, {pods} measured pods: {row['pods_per_cpu_s']:.1f} pods/CPU s, "
                 f"median of {row['runs']} run(s); {time.perf_counter() - started:.0f} s elapsed")
        if args.json:
            print(json.dumps(row), flush=True)
    if not args.json:
        print(f"SchedulingBasic (default profile, tracing off, gc tuning {'off' if args.no_gc_tuning else 'on'}; "
              f"median of {args.repeat} run(s) per size)")
        print(table(rows))
        print()
        print(go_note())
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
