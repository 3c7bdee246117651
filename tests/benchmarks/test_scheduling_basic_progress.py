"""benchmarks/scheduling_basic.py says how far it got: one line on stderr as each size finishes.

The sizes of a full run take minutes; a line per size, flushed when the size is done, shows
the run is alive and what it measured so far. stdout keeps its form: the table, or with
``--json`` one JSON object a line, each printed as its size finishes.
"""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "scheduling_basic.py"
PROGRESS = re.compile(r"^\[(\d+)/(\d+)\] (\d+) nodes, (\d+) measured pods: [\d.]+ pods/CPU s, "
                      r"median of (\d+) run\(s\); \d+ s elapsed$")


@pytest.fixture()
def bench(monkeypatch):
    """The script as a module, with child runs replaced by instant, fixed ones, and every write logged."""
    spec = importlib.util.spec_from_file_location("scheduling_basic_under_test", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    log: list[tuple[str, str]] = []

    class Stream:
        def __init__(self, name):
            self.name = name

        def write(self, text):
            if text.strip():
                log.append((self.name, text.strip()))
            return len(text)

        def flush(self):
            log.append((self.name, "<flush>"))

    def child(tree, nodes, pods, gc_tuned=True):
        log.append(("child", f"{nodes}x{pods}"))
        return {"nodes": nodes, "pods": pods, "bound": pods, "cpu_s": 0.5, "wall_s": 1.0, "peak_mb": 50.0,
                "gc_tuned": gc_tuned}

    def run(*argv):
        # The streams are swapped inside the test's call: pytest sets its own when the call starts.
        with monkeypatch.context() as m:
            m.setattr(sys, "stdout", Stream("stdout"))
            m.setattr(sys, "stderr", Stream("stderr"))
            return module.main(list(argv))

    monkeypatch.setattr(module, "child", child)
    monkeypatch.setattr(module, "SIZES", [(40, 5), (60, 6)])
    return run, log


def test_a_progress_line_follows_each_size_before_the_next_starts(bench):
    run, log = bench
    assert run("--repeat", "2") == 0
    order = [(where, text) for where, text in log if where == "child" or (where == "stderr" and text != "<flush>")]
    assert [w for w, _ in order] == ["child", "child", "stderr", "child", "child", "stderr"]
    lines = [PROGRESS.match(text) for where, text in order if where == "stderr"]
    assert all(lines), order
    assert [m.groups() for m in lines] == [("1", "2", "40", "5", "2"), ("2", "2", "60", "6", "2")]
    # each progress line is flushed at once
    for i, (where, text) in enumerate(log):
        if where == "stderr" and text != "<flush>":
            assert ("stderr", "<flush>") in log[i + 1:i + 3], log[i:i + 3]
    # the table comes after the last size, on stdout
    table_at = next(i for i, (where, text) in enumerate(log) if where == "stdout" and text.startswith("SchedulingBasic"))
    assert table_at > max(i for i, (where, _) in enumerate(log) if where == "child")


def test_json_rows_come_one_per_size_as_each_finishes(bench):
    run, log = bench
    assert run("--json") == 0
    events = [(where, text) for where, text in log if text != "<flush>"]
    assert [w for w, _ in events] == ["child", "stderr", "stdout", "child", "stderr", "stdout"]
    rows = [json.loads(text) for where, text in events if where == "stdout"]
    assert [(r["nodes"], r["pods"], r["pods_per_cpu_s"]) for r in rows] == [(40, 5, 10.0), (60, 6, 12.0)]


def test_the_real_script_keeps_stdout_machine_readable():
    out = subprocess.run([sys.executable, str(SCRIPT), "--nodes", "40", "--pods", "5", "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["nodes"], r["pods"], r["bound"]) for r in rows] == [(40, 5, 5)]
    progress = [line for line in out.stderr.splitlines() if PROGRESS.match(line)]
    assert len(progress) == 1 and progress[0].startswith("[1/1] 40 nodes, 5 measured pods: "), out.stderr
