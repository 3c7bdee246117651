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
    # strict field validation: a misspelled or repeated field is refused, never dropped
    "misspelled-requests.yaml": 'Pod default/p: strict decoding error: unknown field '
                                '"spec.containers[0].resources.requets"',
    "misspelled-capacity.yaml": 'Node n1: strict decoding error: unknown field "status.capacty"',
    "misspelled-node-selector.yaml": 'Pod default/p: strict decoding error: unknown field "spec.nodeSelectr"',
    "misspelled-toleration-operator.yaml": 'Pod default/p: strict decoding error: unknown field '
                                           '"spec.tolerations[0].operater"',
    "misspelled-unschedulable.yaml": 'Node n1: strict decoding error: unknown field "spec.unschedulabel"',
    "duplicate-key.yaml": 'Pod default/p: strict decoding error: duplicate field '
                          '"spec.containers[0].resources.requests.cpu"',
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


@pytest.mark.parametrize("name,want", sorted(BAD_CLUSTERS.items()))
def test_bad_cluster_simulate_is_one_line_and_exit_2(capsys, name, want):
    path = str(ROOT / "data/clusters/bad" / name)
    code, out, err = run(capsys, "simulate", "--cluster", path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(path + ": ") and want in err


def test_a_kubectl_dump_loads_in_both_commands(capsys):
    dump = str(ROOT / "data/clusters/kubectl-get-o-yaml.yaml")
    code, out, err = run(capsys, "schedule", "--cluster", dump)
    assert code == 0 and err == "" and "Best: worker-1" in out
    code, out, err = run(capsys, "simulate", "--cluster", dump)
    assert code == 0 and err == "" and "bound" in out


def test_the_case_command_decodes_as_the_reference_harness_did(capsys, tmp_path):
    """Without strict field validation: an unknown field is dropped, the case answered."""
    case = tmp_path / "lenient"
    case.mkdir()
    (case / "case.yaml").write_text("mode: score\npod: default/web\n")
    (case / "config.yaml").write_text((ROOT / "data/configs/default.yaml").read_text())
    (case / "cluster.yaml").write_text(Path(GOOD_CLUSTER).read_text().replace(
        "kind: Node\n", "kind: Node\nnotAField: 1\n", 1))
    code, out, _ = run(capsys, "case", str(case))
    answer = json.loads(out)
    assert code == 0 and "error" not in answer and answer["best"] == ["n3"]


@pytest.mark.parametrize("command", ["schedule", "simulate"])
def test_an_empty_file_is_refused_alike(capsys, tmp_path, command):
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing here\n---\n")
    code, out, err = run(capsys, command, "--cluster", str(empty))
    assert (code, out, err) == (2, "", f"{empty}: no objects in the file\n")


@pytest.mark.parametrize("option,value,want", [
    ("--until", "-5", "argument --until: expected a number of seconds, 0 or more, got '-5'"),
    ("--until", "nan", "argument --until: expected a number of seconds, 0 or more, got 'nan'"),
    ("--until", "soon", "argument --until: expected a number of seconds, got 'soon'"),
    ("--bind-latency", "-1", "argument --bind-latency: expected a number of seconds, 0 or more, got '-1'"),
    ("--provision-delay", "inf", "argument --provision-delay: expected a number of seconds, 0 or more, got 'inf'"),
    ("--timeline", "-3", "argument --timeline: expected a whole number, 0 or more, got '-3'"),
])
def test_bad_numbers_exit_2_naming_the_option(capsys, option, value, want):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--cluster", GOOD_CLUSTER, option, value])
    _, err = capsys.readouterr()
    assert exc.value.code == 2 and err.rstrip().endswith(want)


def test_simulation_run_refuses_a_negative_until():
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation

    sim = Simulation(load_cluster(GOOD_CLUSTER), default_config(), seed=0)
    with pytest.raises(ValueError, match=r"until: expected a number of seconds, 0 or more, got -5"):
        sim.run(until=-5)


def test_a_closed_pipe_ends_quietly(tmp_path):
    """``simulate ... | head``: the reader leaves early; no BrokenPipeError traceback."""
    import subprocess
    import sys

    cluster = tmp_path / "many.yaml"
    pods = "".join(f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\n"
                   f"spec: {{containers: [{{name: c, resources: {{requests: {{cpu: 10m}}}}}}]}}\n"
                   for i in range(1500))  # more than a pipe holds (64 KiB)
    cluster.write_text(Path(GOOD_CLUSTER).read_text() + pods)
    proc = subprocess.Popen([sys.executable, "-m", "ksched_edu", "simulate", "--cluster", str(cluster),
                             "--timeline", "100000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # as head does after its lines
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert err == ""


def test_schedule_prints_verdicts_then_scores_in_short_lines(capsys):
    """The Filter table, then one row per Score plugin with a column per node that passed."""
    assert main(["schedule", "--cluster", str(ROOT / "data/clusters/three-nodes.yaml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert lines[1].split() == ["NODE", "FILTER", "REASONS"]
    assert [line.split()[:2] for line in lines[2:5]] == [["n1", "Success"], ["n2", "UnschedulableAndUnresolvable"],
                                                          ["n3", "*"]]
    scores = lines[lines.index("") + 1:]
    assert scores[0].split() == ["SCORE", "(weighted)", "n1", "n3"]
    rows = {line.split()[0]: [int(v) for v in line.split()[1:]] for line in scores[1:-1]}
    assert rows["TOTAL"] == [sum(v[0] for k, v in rows.items() if k != "TOTAL"),
                             sum(v[1] for k, v in rows.items() if k != "TOTAL")]
    assert scores[-1].startswith("Best: n3")
