"""GPU sharing: the six policies of the FGD paper, on a generated trace or on the real openb trace.

Each experiment is one run of ``python -m ksched_edu fragmentation`` (its own process,
so that its wall time and peak memory are its own), writing its allocation curve
to ``OUT_DIR/<workload>/<policy>-<seed>.csv``. The table is then read back from
those files.

    python benchmarks/fragmentation.py                 # generated trace, six policies, one seed
    python benchmarks/fragmentation.py --openb         # ../shared/data/openb: six policies x seeds 42 43 44,
                                                       # compared with ../shared/data/fgd-reference
    python benchmarks/fragmentation.py --openb --table-only   # the table from earlier runs' files
    python benchmarks/fragmentation.py --openb --policies FGD --seeds 42   # one experiment, timed

On the openb trace the run passes when, for every policy, the mean over the seeds
of the GPU allocation at 130% arrived workload is within 1.0 percentage point of
the reference simulator's mean (over its ten seeds), and FGD beats BestFit.
"""
from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ksched_edu.gpu.sharing.experiment import POLICIES, POLICY_DIRS  # noqa: E402
from ksched_edu.gpu.sharing.openb import write_generated_trace  # noqa: E402

OPENB = ROOT.parent / "shared" / "data" / "openb"
REFERENCE = ROOT.parent / "shared" / "data" / "fgd-reference" / "analysis_allo_discrete.csv"
TOLERANCE = 1.0  # percentage points
POINT = "130"  # arrived workload, % of the cluster's GPUs


def run_one(nodes: Path, pods: Path, policy: str, seed: int, out: Path) -> dict:
    """One experiment in a child process; its wall time and peak memory (max RSS)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "ksched_edu", "fragmentation", "--nodes", str(nodes), "--pods", str(pods),
           "--policy", policy, "--seed", str(seed), "--out", str(out)]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    output = proc.stdout.read() if proc.stdout else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{output}")
    return {"policy": policy, "seed": seed, "seconds": wall, "peak_mb": usage.ru_maxrss / 1024}


def read_point(path: Path, point: str = POINT) -> Optional[float]:
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            return float(row[point]) if row.get(point) else None
    return None


def reference_means(workload: str, point: str = POINT) -> dict[str, float]:
    """The reference simulator's mean allocation at ``point`` per policy (over all its seeds)."""
    values: dict[str, list[float]] = {}
    with open(REFERENCE, newline="") as f:
        for row in csv.DictReader(f):
            if row["workload"] == workload and row.get(point):
                values.setdefault(row["sc_policy"], []).append(float(row[point]))
    return {k: sum(v) / len(v) for k, v in values.items()}


def table(run_dir: Path, workload: str, policies: list[str], seeds: list[int], compare: bool) -> bool:
    """Print ours (mean over seeds) against the reference; True when every check passes."""
    ref = reference_means(workload) if compare and REFERENCE.exists() else {}
    ours: dict[str, float] = {}
    head = f"{'policy':<14} {'seeds':>8} {'ours @130%':>11}"
    if ref:
        head += f" {'reference':>10} {'diff':>7}"
    print(head)
    print("-" * len(head))
    ok = True
    for policy in policies:
        files = [run_dir / f"{policy}-{s}.csv" for s in seeds]
        points = [read_point(f) for f in files if f.exists()]
        points = [p for p in points if p is not None]
        if not points:
            print(f"{policy:<14} {'(no runs)':>8}")
            ok = False
            continue
        mean = sum(points) / len(points)
        ours[policy] = mean
        line = f"{policy:<14} {len(points):>8} {mean:>11.2f}"
        if ref:
            r = ref[POLICY_DIRS[policy]]
            diff = mean - r
            ok &= abs(diff) <= TOLERANCE
            line += f" {r:>10.2f} {diff:>+7.2f}{'' if abs(diff) <= TOLERANCE else '  (off by more than 1.0)'}"
        print(line)
    if ref and "FGD" in ours and "BestFit" in ours:
        beats = ours["FGD"] > ours["BestFit"]
        ok &= beats
        print(f"FGD {'beats' if beats else 'does NOT beat'} BestFit: {ours['FGD']:.2f} vs {ours['BestFit']:.2f}")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--openb", action="store_true", help="run on ../shared/data/openb (default: a generated trace)")
    ap.add_argument("--nodes", default="gpu", choices=["gpu", "all"],
                    help="openb node list: the 1,213 GPU nodes the reference ran on, or all 1,523 nodes")
    ap.add_argument("--policies", nargs="+", default=list(POLICIES), choices=list(POLICIES))
    ap.add_argument("--seeds", nargs="+", type=int)
    ap.add_argument("--jobs", type=int, default=1, help="experiments run at once")
    ap.add_argument("--out-dir", default="/tmp/ksched_edu-fragmentation", help="where the curves are written")
    ap.add_argument("--table-only", action="store_true", help="only print the table from existing files")
    args = ap.parse_args()

    out_dir = Path(args.out_dir)
    if args.openb:
        if not OPENB.exists():
            print(f"skipped: no openb trace at {OPENB}")
            return 0
        nodes = OPENB / f"openb_node_list_{'gpu' if args.nodes == 'gpu' else 'all'}_node.csv"
        pods = OPENB / "openb_pod_list_default.csv"
        workload = "openb_pod_list_default"
        label = workload + ("" if args.nodes == "gpu" else "-all_nodes")
        seeds = args.seeds or [42, 43, 44]
    else:
        nodes, pods = write_generated_trace(7, out_dir / "generated", num_nodes=300)
        workload = label = "generated"
        seeds = args.seeds or [42]

    if not args.table_only:
        from concurrent.futures import ThreadPoolExecutor, as_completed

        runs = [(p, s) for p in args.policies for s in seeds]
        # Up to --jobs children at once; each is timed by run_one in its own worker thread.
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(run_one, nodes, pods, p, s, out_dir / label / f"{p}-{s}.csv") for p, s in runs]
            for fut in as_completed(futures):  # each experiment as it finishes
                t = fut.result()
                print(f"  {t['policy']:<14} seed {t['seed']}: {t['seconds']:6.1f} s, peak {t['peak_mb']:.0f} MB",
                      flush=True)
        print()
    print(f"GPU allocation at {POINT}% arrived workload (nodes {nodes.name}, pods {pods.name})")
    ok = table(out_dir / label, workload, args.policies, seeds, compare=args.openb)
    if args.openb and args.nodes == "all":
        print("(the reference ran on the 1,213 GPU nodes: with all nodes the check is informative only)")
    elif args.openb:
        print("PASS" if ok else "FAIL")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
