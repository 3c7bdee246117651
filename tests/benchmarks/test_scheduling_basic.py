"""The command line of benchmarks/scheduling_basic.py, on clusters small enough to run in seconds."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "scheduling_basic.py"


# 1,000 init pods of 100m CPU fill 25 nodes of 4 CPU: 40 nodes leave room for the measured pods.


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_one_size_repeated_prints_median_spread_and_the_go_reference():
    out = run("--nodes", "40", "--pods", "12", "--repeat", "2")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("SchedulingBasic (default profile, tracing off, gc tuning on; median of 2 run(s)")
    assert lines[1].split() == ["nodes", "pods", "bound", "runs", "CPU", "s", "spread", "wall", "s", "pods/CPU", "s",
                                "pods/wall", "s", "peak", "MB", "Go", "1", "core", "ours/Go"]
    assert lines[3].split()[:4] == ["40", "12", "12", "2"]
    assert "328 pods/s on one core (GOMAXPROCS=1), 505 on two, 378 MiB peak" in out.stdout


def test_json_rows_hold_cpu_and_wall_time_and_peak_memory():
    out = run("--nodes", "40", "--pods", "5", "--json", "--no-gc-tuning")
    assert out.returncode == 0, out.stderr
    row = json.loads(out.stdout.strip().splitlines()[-1])
    assert (row["nodes"], row["pods"], row["bound"], row["runs"]) == (40, 5, 5, 1)
    assert row["cpu_min"] <= row["cpu_s"] <= row["cpu_max"]
    assert row["pods_per_cpu_s"] > 0 and row["pods_per_wall_s"] > 0 and row["peak_mb"] > 10


def test_ab_alternates_the_work_tree_and_a_ref_pair_by_pair():
    out = run("--nodes", "40", "--pods", "5", "--repeat", "2", "--ab", "HEAD")
    assert out.returncode == 0, out.stderr
    assert "A = work tree" in out.stdout and "B = HEAD" in out.stdout
    pairs = [line.split() for line in out.stdout.splitlines() if line.strip()[:1].isdigit() and len(line.split()) == 6]
    assert [p[0] for p in pairs] == ["1", "2"]
    assert all(float(p[3]) > 0 for p in pairs)
    assert "median A/B" in out.stdout


@pytest.mark.parametrize("args,want", [
    (["--nodes", "20", "--repeat", "0"], "--nodes, --pods and --repeat must be at least 1"),
    (["--nodes", "20", "--pods", "5", "--ab", "no-such-ref-xyz"], "git archive no-such-ref-xyz:"),
], ids=["repeat zero", "unknown ref"])
def test_bad_input_gets_one_clear_line(args, want):
    out = run(*args)
    assert out.returncode != 0
    assert want in out.stderr
    assert "Traceback" not in out.stderr
