"""Answering a conformance case (ksched_edu.case): case.yaml's keys, its feature gates set
as kube-scheduler's --feature-gates sets them, and the nomination a failed second
preemption leaves (schedule_one.go handleSchedulingFailure -> updatePod)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ksched_edu.api.loader import load_cluster
from ksched_edu.case import answer_case
from ksched_edu.config.loader import load_config
from ksched_edu.framework.plugins.registry import new_registry_with_out_of_tree
from ksched_edu.resources import data_path
from ksched_edu.sim.simulation import Simulation

CASES = data_path("conformance/cases")
NOMINATION = CASES / "run-preempt-nomination-outlives-failed-retry"
HINTS_ON = CASES / "run-qhints-on-fit-skips-assigned-pod-add"


def _case_with(tmp_path: Path, source: Path, case_yaml: str) -> Path:
    folder = tmp_path / source.name
    shutil.copytree(source, folder)
    (folder / "expected.json").unlink()
    (folder / "case.yaml").write_text(case_yaml)
    return folder


def _message_of_big(answer: dict) -> str:
    return next(p["message"] for p in answer["placements"] if p["pod"] == "default/big")


@pytest.mark.parametrize("gates,want", [
    ("", "0/1 nodes are available: 1 Insufficient cpu, 1 Too many pods."),
    ("featureGates: {SchedulerQueueingHints: false}\n", "0/1 nodes are available: 1 Insufficient cpu, 1 Too many pods."),
    ("featureGates: {SchedulerQueueingHints: true}\n", "0/1 nodes are available: 1 Insufficient cpu."),
    ("featureGates: {AllBeta: true}\n", "0/1 nodes are available: 1 Insufficient cpu."),
], ids=["defaults", "hints off", "hints on", "AllBeta turns the beta gate on"])
def test_the_case_s_gates_are_set_before_the_scheduler_is_built(tmp_path, gates, want):
    answer = answer_case(str(_case_with(tmp_path, HINTS_ON, "mode: run\n" + gates)))
    assert _message_of_big(answer).startswith(want + " preemption:")


@pytest.mark.parametrize("case_yaml,want", [
    ("mode: run\nfeatureGates: {Nope: true}\n", "featureGates: unrecognized feature gate: Nope"),
    ("mode: run\nfeatureGates: {PodSchedulingReadiness: false}\n",
     "featureGates: cannot set feature gate PodSchedulingReadiness to false, feature is locked to true"),
    ("mode: run\nfeatureGates: {SchedulerQueueingHints: 'on'}\n",
     "featureGates: SchedulerQueueingHints: expected true or false, got 'on'"),
    ("mode: run\nfeatureGates: [SchedulerQueueingHints]\n",
     "featureGates: expected a map of gate names to true or false"),
    ("mode: run\nfeaturegates: {SchedulerQueueingHints: true}\n",
     "featuregates: unknown key (known: featureGates, mode, pod)"),
], ids=["unknown gate", "locked gate", "not a bool", "not a map", "misspelled key"])
def test_a_case_file_kube_scheduler_would_refuse_is_an_error_line(tmp_path, case_yaml, want):
    folder = _case_with(tmp_path, HINTS_ON, case_yaml)
    assert answer_case(str(folder)) == {"case": str(folder), "error": f"{folder / 'case.yaml'}: {want}"}


@pytest.mark.parametrize("resource_versions,nominated", [
    (False, "n1"),  # the fake clientset: the scheduler's copy never sees its own patch
    (True, None),  # a real API server: the patch comes back, the retry clears the nomination
], ids=["fake clientset (the case command)", "real kube-apiserver"])
def test_a_nomination_outlives_a_failed_second_preemption(resource_versions, nominated):
    """p preempts holder and is nominated on n1; q takes the freed ReadWriteOncePod claim;
    p's retry finds no victim and its nominating info clears the nomination. updatePod
    compares with the scheduler's copy of p: without resourceVersions that copy never
    saw nominatedNodeName=n1, so nothing is patched and p stays nominated."""
    sim = Simulation(load_cluster(NOMINATION / "cluster.yaml", validate=False, strict=False),
                     load_config(NOMINATION / "config.yaml"), seed=0,
                     registry=new_registry_with_out_of_tree(), victim_grace_period=0.0,
                     resource_versions=resource_versions, storage_controller=None).run()
    placements = {p.pod: p for p in sim.placements()}
    assert sim.victims() == ["default/holder"]
    assert placements["default/q"].node == "n1"
    assert placements["default/p"].node is None
    assert placements["default/p"].message.endswith("1 No preemption victims found for incoming pod.")
    assert placements["default/p"].nominated_node == nominated
    assert sim.api.get_pod("default", "p").status.nominated_node_name == (nominated or "")
