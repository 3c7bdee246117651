"""``python -m ksched_edu fragmentation``: one experiment from CSV files to an allocation curve."""
import csv

import pytest

from ksched_edu.cli import main
from ksched_edu.gpu.sharing.openb import generate_trace, write_node_csv, write_pod_csv

pytestmark = pytest.mark.ch10


@pytest.fixture
def trace(tmp_path):
    nodes, pods = generate_trace(11, 40)
    write_node_csv(nodes, tmp_path / "nodes.csv")
    write_pod_csv(pods, tmp_path / "pods.csv")
    return tmp_path


def test_writes_the_allocation_curve(trace, capsys):
    out = trace / "curve.csv"
    rc = main(["fragmentation", "--nodes", str(trace / "nodes.csv"), "--pods", str(trace / "pods.csv"),
               "--policy", "FGD", "--seed", "42", "--out", str(out)])
    captured = capsys.readouterr()
    assert rc == 0
    assert "FGD (seed 42):" in captured.out and "100%" in captured.err  # summary, then the progress bar
    rows = list(csv.DictReader(open(out)))
    assert len(rows) == 1
    row = rows[0]
    assert (row["workload"], row["sc_policy"], row["tune"], row["seed"]) == ("pods", "06-FGD", "1.3", "42")
    points = {int(k): float(v) for k, v in row.items() if k.isdigit() and v}
    assert len(points) > 100 and 0 < points[130] <= 100
    assert points[50] < points[130]


def test_a_bad_cell_is_one_line_and_exit_2(trace, capsys):
    (trace / "nodes.csv").write_text("sn,cpu_milli,memory_mib,gpu,model\nn0,96000,lots,8,G2\n")
    rc = main(["fragmentation", "--nodes", str(trace / "nodes.csv"), "--pods", str(trace / "pods.csv"),
               "--policy", "BestFit", "--out", str(trace / "x.csv")])
    err = capsys.readouterr().err
    assert rc == 2
    assert err == f"{trace / 'nodes.csv'}: row 2, column memory_mib: 'lots' is not a number\n"


def test_unknown_policy_is_a_usage_error(trace, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["fragmentation", "--nodes", "n.csv", "--pods", "p.csv", "--policy", "Tetris", "--out", "x.csv"])
    assert exc.value.code == 2
    assert "invalid choice: 'Tetris'" in capsys.readouterr().err
