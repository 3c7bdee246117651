"""Placements and traces stay byte-identical while the engine gets faster.

``tests/data/identity/*.json`` were written by the engine of commit f14d42f, before
the runtime's per-node loops were tightened: for each workload below, the SHA-256
of every trace event's ``repr`` (in order) and where each pending pod ended up.
Every case runs again here, traced and untraced, with the simulation's garbage
collector tuning on and off, and must give the same answers.

    python -m tests.test_placement_identity --write   # rewrite the golden files
"""
from __future__ import annotations

import argparse
import gc
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "data" / "identity"


@dataclass(frozen=True)
class Case:
    name: str
    files: tuple[str, ...]
    config: Optional[str] = None  # under data/configs; None: the default profile
    pods: Optional[int] = None  # keep only the first N pods the workload creates
    traced_pods: Optional[int] = None  # fewer when traced (the trace of a big cluster is long)


CASES = [
    Case("three-nodes-arrivals", ("data/clusters/three-nodes.yaml", "data/workloads/arrivals.yaml")),
    Case("zones-100-capstone", ("data/clusters/zones-100.yaml", "data/workloads/capstone-pods.yaml")),
    Case("gang-coscheduling", ("data/clusters/gpu-six.yaml", "data/workloads/gang.yaml"), "coscheduling.yaml"),
    Case("gpu-lab-jobs", ("data/clusters/gpu-lab.yaml", "data/workloads/gpu-lab-jobs.yaml")),
    Case("preemption", ("data/clusters/preemption.yaml",)),
    Case("storage-zones-claims", ("data/clusters/storage-zones.yaml", "data/workloads/storage-claims.yaml")),
    Case("nodes-1000-pods", ("data/clusters/nodes-1000.yaml", "data/workloads/pods-10000.yaml"),
         pods=300, traced_pods=12),
]


class DigestRecorder:
    """A recorder that keeps no events: a running SHA-256 of their reprs, and a count."""

    enabled = True

    def __init__(self) -> None:
        self.sha = hashlib.sha256()
        self.count = 0
        self.events: list[Any] = []  # stays empty: nothing in the engine reads it

    def record(self, event: Any) -> None:
        self.sha.update(repr(event).encode())
        self.sha.update(b"\n")
        self.count += 1

    def of(self, kind: type) -> list[Any]:
        return []


def run_case(case: Case, traced: bool, tune_gc: bool = False) -> dict[str, Any]:
    """Run one case; its placements, and the trace digest when traced."""
    from ksched_edu.config.loader import default_config, load_config
    from ksched_edu.framework.plugins.registry import new_registry_with_out_of_tree
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.sim.workload import Workload, load_workload
    from ksched_edu.trace import NULL_RECORDER

    workload = load_workload([ROOT / f for f in case.files])
    keep = case.traced_pods if traced and case.traced_pods else case.pods
    if keep is not None:
        from ksched_edu.api.types import Pod

        pods = [e for e in workload.events if isinstance(e.obj, Pod)][:keep]
        kept = {id(e) for e in pods}
        workload = Workload(workload.initial,
                            [e for e in workload.events if not isinstance(e.obj, Pod) or id(e) in kept])
    config = load_config(ROOT / "data" / "configs" / case.config) if case.config else default_config()
    recorder = DigestRecorder() if traced else NULL_RECORDER
    sim = Simulation.from_workload(workload, config, seed=1, recorder=recorder,  # type: ignore[arg-type]
                                   registry=new_registry_with_out_of_tree())
    sim.run(tune_gc=tune_gc)
    placements = [[p.pod, p.node, p.message, p.nominated_node] for p in sim.placements()]
    out: dict[str, Any] = {"placements": placements, "victims": sim.victims()}
    if traced:
        out["events"] = recorder.count  # type: ignore[attr-defined]
        out["digest"] = recorder.sha.hexdigest()  # type: ignore[attr-defined]
    return out


def golden(case: Case) -> dict[str, Any]:
    return json.loads((GOLDEN / f"{case.name}.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_trace_and_placements_identical(case: Case) -> None:
    want = golden(case)["traced"]
    got = run_case(case, traced=True)
    assert got["placements"] == want["placements"]
    assert got["victims"] == want["victims"]
    assert got["events"] == want["events"]
    assert got["digest"] == want["digest"]


@pytest.mark.parametrize("tune_gc", [False, True], ids=["gc-default", "gc-tuned"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_untraced_placements_identical(case: Case, tune_gc: bool) -> None:
    thresholds = gc.get_threshold()
    frozen = gc.get_freeze_count()
    want = golden(case)["untraced"]
    got = run_case(case, traced=False, tune_gc=tune_gc)
    assert got == want
    # The tuning is undone when the run ends.
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == frozen


@pytest.mark.parametrize("case", [c for c in CASES if c.name in ("nodes-1000-pods", "zones-100-capstone")],
                         ids=["nodes-1000-pods", "zones-100-capstone"])
def test_timing_extension_points_changes_nothing(case: Case) -> None:
    """An ExtensionPointTimer reads the clock; the placements stay those of an untimed run."""
    from ksched_edu.config.loader import default_config
    from ksched_edu.framework.plugins.registry import new_registry_with_out_of_tree
    from ksched_edu.schedule_one import num_feasible_nodes_to_find
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.sim.workload import Workload, load_workload
    from ksched_edu.trace import ExtensionPointTimer

    workload = load_workload([ROOT / f for f in case.files])
    if case.pods is not None:
        from ksched_edu.api.types import Pod

        pods = [e for e in workload.events if isinstance(e.obj, Pod)][:case.pods]
        kept = {id(e) for e in pods}
        workload = Workload(workload.initial,
                            [e for e in workload.events if not isinstance(e.obj, Pod) or id(e) in kept])
    timer = ExtensionPointTimer()
    sim = Simulation.from_workload(workload, default_config(), seed=1, recorder=timer,
                                   registry=new_registry_with_out_of_tree())
    sim.run()
    placements = [[p.pod, p.node, p.message, p.nominated_node] for p in sim.placements()]
    assert placements == golden(case)["untraced"]["placements"]
    assert not timer.events  # timing records no trace events
    points = {t.point for t in timer.times}
    assert {"PreFilter", "Filter", "PreScore", "Score", "schedulePod"} <= points
    assert all(t.seconds >= 0 for t in timer.times)
    if case.name == "nodes-1000-pods":  # every node fits: each pod scores numFeasibleNodesToFind(1000)
        assert {t.nodes for t in timer.times if t.point == "Score"} == {num_feasible_nodes_to_find(None, None, 1000)}


def write() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        data = {"files": list(case.files), "config": case.config,
                "traced": run_case(case, traced=True), "untraced": run_case(case, traced=False)}
        (GOLDEN / f"{case.name}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(case.name, data["traced"]["events"], data["traced"]["digest"][:16], flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite tests/data/identity/*.json")
    if parser.parse_args().write:
        write()
    sys.exit(0)
