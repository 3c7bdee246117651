"""Workloads on the virtual clock, and the `simulate` command."""
from __future__ import annotations

from pathlib import Path

import pytest

from ksched_edu.api.errors import ManifestError
from ksched_edu.cli import UsageError, main, parse_feature_gates
from ksched_edu.sim.workload import load_workload, parse_seconds

pytestmark = pytest.mark.ch02
ROOT = Path(__file__).resolve().parents[2]
CLUSTER = str(ROOT / "data/clusters/three-nodes.yaml")
ARRIVALS = str(ROOT / "data/workloads/arrivals.yaml")


@pytest.mark.parametrize("text,want", [("0", 0.0), ("30", 30.0), ("30s", 30.0), ("1.5m", 90.0), ("250ms", 0.25),
                                       ("2h", 7200.0)])
def test_parse_seconds(text, want):
    assert parse_seconds(text) == want


@pytest.mark.parametrize("text", ["soon", "-1s", "1d", ""])
def test_parse_seconds_refuses(text):
    with pytest.raises(ValueError, match="invalid duration"):
        parse_seconds(text)


def test_workload_events_are_timed_and_expanded():
    w = load_workload([CLUSTER, ARRIVALS])
    creates = [e for e in w.events if e.action == "create"]
    assert [e.obj.metadata.name for e in creates][:3] == ["frontend-0", "frontend-1", "frontend-2"]
    assert [e.at for e in creates if e.obj.metadata.name.startswith("frontend")] == [float(i) for i in range(1, 11)]
    assert {n.metadata.name for n in w.initial.nodes} == {"n1", "n2", "n3"}
    assert any(e.obj.kind == "Node" and e.at == 20.0 for e in creates)


def test_bad_annotation_names_file_object_and_field(tmp_path):
    bad = tmp_path / "w.yaml"
    bad.write_text(Path(ARRIVALS).read_text().replace('ksched-edu.io/at: "5s"', 'ksched-edu.io/at: "later"'))
    with pytest.raises(ManifestError) as err:
        load_workload([CLUSTER, str(bad)])
    assert str(err.value).startswith(f"{bad}: Pod batch: metadata.annotations[ksched-edu.io/at]: invalid duration")


@pytest.mark.parametrize("text,want", [
    (None, {}),  # every gate keeps its v1.30 default
    ("SchedulerQueueingHints=true", {"SchedulerQueueingHints": True}),
    ("SchedulerQueueingHints=false", {"SchedulerQueueingHints": False}),
    (" SchedulerQueueingHints = 1 ,PodDisruptionConditions=F", {"SchedulerQueueingHints": True,
                                                                "PodDisruptionConditions": False}),
])
def test_feature_gates(text, want):
    assert parse_feature_gates(text) == want


@pytest.mark.parametrize("text,want", [
    ("NoSuchGate=true", "--feature-gates: unrecognized feature gate: NoSuchGate"),
    ("SchedulerQueueingHints=yes", 'invalid value of SchedulerQueueingHints=yes, err: strconv.ParseBool: '
                                   'parsing "yes": invalid syntax'),
    ("SchedulerQueueingHints", "missing bool value for SchedulerQueueingHints"),
    ("PodSchedulingReadiness=false", "cannot set feature gate PodSchedulingReadiness to false, "
                                     "feature is locked to true"),
])
def test_bad_feature_gates(text, want):
    with pytest.raises(UsageError, match=want):
        parse_feature_gates(text)


def test_simulate_prints_timeline_and_summary(capsys):
    assert main(["simulate", "--cluster", CLUSTER, "--workload", ARRIVALS, "--timeline", "100"]) == 0
    out = capsys.readouterr().out
    assert "Pod default/batch: unschedulable: 0/3 nodes are available" in out
    assert "t=  20.000s  Pod default/batch: bound to n4" in out
    assert "pods bound: 12 of 12; pending: 0" in out


@pytest.mark.parametrize("gates", ["SchedulerQueueingHints=false", "SchedulerQueueingHints=true"])
def test_simulate_with_and_without_queueing_hints_binds_everything(capsys, gates):
    assert main(["simulate", "--cluster", CLUSTER, "--workload", ARRIVALS, "--timeline", "0",
                 "--feature-gates", gates]) == 0
    assert "pods bound: 12 of 12" in capsys.readouterr().out


def test_simulate_bad_gate_is_exit_2(capsys):
    assert main(["simulate", "--cluster", CLUSTER, "--feature-gates", "Nope=true"]) == 2
    assert capsys.readouterr().err.strip() == "--feature-gates: unrecognized feature gate: Nope"
