"""Throughput benchmark in the shape of upstream's scheduler_perf SchedulingBasic.

test/integration/scheduler_perf/config/performance-config.yaml, SchedulingBasic:
N nodes from ``node-default.yaml`` (cpu 4, memory 32Gi, pods 110), 1,000 pods
from ``pod-default.yaml`` (one container asking for 100m CPU and 500Mi) scheduled
first, then M more pods whose scheduling is timed. The default profile, tracing
off. Each size runs in its own process so that peak memory (max RSS) is its own.

    python benchmarks/scheduling_basic.py            # the table at 100, 1,000 and 5,000 nodes
    python benchmarks/scheduling_basic.py --nodes 500 --pods 1000
    python benchmarks/scheduling_basic.py --profile  # cProfile of one run, top 25 functions
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ksched_edu.api.quantity import parse_quantity  # noqa: E402
from ksched_edu.api.types import (Container, Node, NodeStatus, ObjectMeta, Pod, PodSpec,  # noqa: E402
                                  ResourceRequirements)
from ksched_edu.config.loader import default_config  # noqa: E402
from ksched_edu.scheduler import Scheduler  # noqa: E402
from ksched_edu.sim.apiserver import APIServer  # noqa: E402
from ksched_edu.sim.clock import VirtualClock  # noqa: E402

SIZES = [(100, 1000), (1000, 1000), (5000, 1000), (5000, 10000)]
INIT_PODS = 1000


def node_default(i: int) -> Node:
    capacity = {"cpu": parse_quantity("4"), "memory": parse_quantity("32Gi"), "pods": parse_quantity("110")}
    meta = ObjectMeta(name=f"node-{i:05d}", labels={"kubernetes.io/hostname": f"node-{i:05d}"})
    return Node(meta, status=NodeStatus(capacity=dict(capacity), allocatable=dict(capacity)))


def pod_default(prefix: str, i: int) -> Pod:
    requests = {"cpu": parse_quantity("100m"), "memory": parse_quantity("500Mi")}
    meta = ObjectMeta(name=f"{prefix}-{i:05d}", namespace="default", uid=f"{prefix}-{i:05d}")
    container = Container("pause", image="registry.k8s.io/pause:3.9",
                          resources=ResourceRequirements(requests=requests, limits={}))
    return Pod(meta, PodSpec(containers=[container], scheduler_name="default-scheduler", priority=0))


def drain(sched: Scheduler) -> int:
    cycles = 0
    while sched.schedule_one():
        cycles += 1
        while sched.clock.next_due() is not None and sched.clock.next_due() <= sched.clock.now:
            sched.clock.fire_next()
    sched.run()
    return cycles


def run_one(nodes: int, pods: int) -> dict:
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
    start = time.perf_counter()
    drain(sched)
    elapsed = time.perf_counter() - start
    bound = sum(1 for p in api.list("Pod") if p.spec.node_name and p.metadata.name.startswith("measured"))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"nodes": nodes, "pods": pods, "bound": bound, "seconds": elapsed,
            "pods_per_s": bound / elapsed if elapsed else 0.0, "peak_mb": peak_mb}


def table(rows: list[dict]) -> str:
    head = f"{'nodes':>6} {'pods':>7} {'bound':>7} {'seconds':>8} {'pods/s':>8} {'peak MB':>8}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r['nodes']:>6} {r['pods']:>7} {r['bound']:>7} {r['seconds']:>8.1f} "
                     f"{r['pods_per_s']:>8.1f} {r['peak_mb']:>8.0f}")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--pods", type=int, default=1000)
    ap.add_argument("--json", action="store_true", help="print one JSON row (used by the table runner)")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx("run_one(args.nodes or 1000, args.pods)", globals(), {"args": args, "run_one": run_one},
                        "/tmp/ksched_edu.prof")
        pstats.Stats("/tmp/ksched_edu.prof").sort_stats("cumulative").print_stats(25)
        return 0
    if args.nodes:
        row = run_one(args.nodes, args.pods)
        print(json.dumps(row) if args.json else table([row]))
        return 0
    rows = []
    for nodes, pods in SIZES:
        out = subprocess.run([sys.executable, __file__, "--nodes", str(nodes), "--pods", str(pods), "--json"],
                             capture_output=True, text=True, check=True)
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(table(rows[-1:]).splitlines()[-1], flush=True)
    print()
    print("SchedulingBasic (default profile, tracing off)")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
