"""The command line: bad input is one line and exit status 2; good input works.

Every file under data/clusters/bad and data/configs/bad is a user's mistake
the CLI must explain in one line naming the file, the object and the field.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from ksched_edu.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOOD_CLUSTER = str(ROOT / "data/clusters/three-nodes.yaml")

BAD_CLUSTERS = {
    "bad-quantity.yaml": "Pod default/p: spec.containers[0].resources.requests.cpu: quantities must match",
    "malformed.yaml": "document 2: yaml: line 10: mapping values are not allowed here",
    "no-name.yaml": "Node in document 1: metadata.name: Required value",
    "negative-request.yaml": 'Pod "p" is invalid: spec.containers[0].resources.requests[memory]: Invalid value: "-1Gi"',
    "duplicate.yaml": "Pod default/p: metadata.name: Duplicate value",
    "bad-taint-effect.yaml": 'Node "n1" is invalid: metadata.taints[0].effect: Unsupported value',
    "unknown-priority-class.yaml": "Pod default/p: spec.priorityClassName: no PriorityClass with name gold",
    "containers-not-list.yaml": "Pod default/p: spec.containers: expected a list",
    "missing-kind.yaml": "document 1: kind: Required value",
}

BAD_CONFIGS = {
    "unknown-plugin.yaml": 'initializing profiles: creating profile for scheduler name default-scheduler: '
                           'ScorePlugin "NoSuchPlugin" does not exist',
    "duplicate-scheduler-name.yaml": "profiles[1].schedulerName: Duplicate value",
    "unknown-field.yaml": 'strict decoding error: unknown field "nodeScoringPercent"',
    "bad-args.yaml": 'initializing plugin "NodeResourcesFit": scoringStrategy.type: Unsupported value: "Cheapest"',
    "malformed.yaml": "yaml: line 6",
    "wrong-kind.yaml": 'no kind "ConfigMap" is registered for version "v1"',
}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name,want", sorted(BAD_CLUSTERS.items()))
def test_bad_cluster_is_one_line_and_exit_2(capsys, name, want):
    path = f"data/clusters/bad/{name}"
    code, out, err = run(capsys, "schedule", "--cluster", str(ROOT / path))
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(str(ROOT / path) + ": ") and want in err


def test_every_bad_cluster_file_is_refused(capsys):
    for path in sorted((ROOT / "data/clusters/bad").glob("*.yaml")):
        code, _, err = run(capsys, "schedule", "--cluster", str(path))
        assert code == 2 and err.count("\n") == 1, path.name


@pytest.mark.parametrize("name,want", sorted(BAD_CONFIGS.items()))
def test_bad_config_is_one_line_and_exit_2(capsys, name, want):
    path = str(ROOT / "data/configs/bad" / name)
    code, out, err = run(capsys, "schedule", "--cluster", GOOD_CLUSTER, "--config", path)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(path + ": ") and want in err


def test_missing_file_and_unknown_pod(capsys):
    code, _, err = run(capsys, "schedule", "--cluster", "no/such/file.yaml")
    assert code == 2 and "no/such/file.yaml" in err and err.count("\n") == 1
    code, _, err = run(capsys, "schedule", "--cluster", GOOD_CLUSTER, "--pod", "default/nope")
    assert code == 2 and "Pod default/nope: not a pending pod" in err


def test_bad_arguments_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["schedule"])
    assert exc.value.code == 2


def test_good_inputs_still_load(capsys):
    for config in ("default.yaml", "two-profiles.yaml"):
        code, out, err = run(capsys, "schedule", "--cluster", GOOD_CLUSTER,
                             "--config", str(ROOT / "data/configs" / config))
        assert code == 0 and err == ""
        assert "Best: n3" in out and "node(s) had untolerated taint {dedicated: batch}" in out


def test_schedule_writes_the_trace(capsys, tmp_path):
    trace = tmp_path / "trace.csv"
    code, out, _ = run(capsys, "schedule", "--cluster", GOOD_CLUSTER, "--trace", str(trace))
    assert code == 0
    header = trace.read_text().splitlines()[0].split(",")
    assert {"event", "point", "plugin", "node", "code", "weighted_score"} <= set(header)


def test_case_reports_config_errors_and_unreadable_folders(capsys, tmp_path):
    bad = tmp_path / "refused"
    bad.mkdir()
    (bad / "case.yaml").write_text("mode: score\npod: default/web\n")
    (bad / "cluster.yaml").write_text(Path(GOOD_CLUSTER).read_text())
    (bad / "config.yaml").write_text((ROOT / "data/configs/walkthrough-two-profiles.yaml").read_text())
    code, out, _ = run(capsys, "case", str(bad), str(tmp_path / "missing"))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 2
    assert lines[0]["case"] == str(bad)
    assert lines[0]["configError"].endswith("queueSort must be the same for all profiles")
    assert "error" in lines[1]


# Objects kube-apiserver's validation refuses: one line with the API server's own message.
INVALID_CLUSTERS = {
    "bad-pod-name.yaml": 'Pod "Bad_Name!" is invalid: metadata.name: Invalid value: "Bad_Name!": '
                         "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters",
    "bad-host-port.yaml": 'Pod "web" is invalid: [spec.containers[0].ports[0].hostPort: Invalid value: 70000: '
                          "must be between 1 and 65535, inclusive, ",
    "bad-priority-class.yaml": 'PriorityClass.scheduling.k8s.io "system-urgent" is invalid: metadata.name: '
                               "Forbidden: priority class names with 'system-' prefix are reserved",
    "bad-pdb.yaml": 'PodDisruptionBudget.policy "guard" is invalid: spec.minAvailable: Invalid value: -1: '
                    "must be greater than or equal to 0",
}


@pytest.mark.parametrize("name,want", sorted(INVALID_CLUSTERS.items()))
def test_invalid_cluster_schedule_is_one_line_and_exit_2(capsys, name, want):
    path = str(ROOT / "data/clusters/bad" / name)
    code, out, err = run(capsys, "schedule", "--cluster", path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"{path}: {want}")


@pytest.mark.parametrize("name,want", sorted(INVALID_CLUSTERS.items()))
def test_invalid_cluster_simulate_is_one_line_and_exit_2(capsys, name, want):
    path = str(ROOT / "data/clusters/bad" / name)
    code, out, err = run(capsys, "simulate", "--cluster", path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"{path}: {want}")


def test_invalid_workload_simulate_names_the_workload_file(capsys, tmp_path):
    workload = tmp_path / "workload.yaml"
    workload.write_text("apiVersion: v1\nkind: Pod\nmetadata:\n  name: job\n"
                        "  annotations: {ksched-edu.io/at: '5'}\nspec:\n  containers:\n  - name: c\n"
                        "    resources: {requests: {nvidia.com/gpu: 1}}\n")
    code, out, err = run(capsys, "simulate", "--cluster", GOOD_CLUSTER, "--workload", str(workload))
    assert code == 2 and out == ""
    assert err == (f'{workload}: Pod "job" is invalid: spec.containers[0].resources.limits: Required value: '
                   "Limit must be set for non overcommitable resources\n")
