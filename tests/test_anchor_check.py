"""upstream --check: every anchor's first line is checked against a func/type line of the Go it names.

The Go is a fake checkout the test writes (tests/go_fixture.py); the real v1.30.4
files are checked the same way by a developer with a checkout (DEVELOPERS.md).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ksched_edu.anchor_check import check_anchors, declared_near, go_name, source_reader
from ksched_edu.anchors import K8S, anchors, import_engine
from ksched_edu.cli import main

from tests.go_fixture import kubernetes_checkout, write_checkout


@pytest.mark.parametrize("go,name", [("(*Scheduler).schedulePod", "schedulePod"), ("selectHost", "selectHost"),
                                     ("(*frameworkImpl).RunScorePlugins", "RunScorePlugins"), ("Status", "Status")])
def test_go_name(go: str, name: str) -> None:
    assert go_name(go) == name


@pytest.mark.parametrize("start,found", [(5, {"Run"}), (2, {"Run"}), (8, {"Run", "Config"}), (12, {"Config"}),
                                         (14, set())], ids=["on it", "3 before", "3 after / type", "type", "too far"])
def test_declared_near_looks_three_lines_either_side(start: int, found: set) -> None:
    lines = ["// c"] * 4 + ["func (s *Scheduler) Run(ctx context.Context) {"] + ["// c"] * 4 + [
        "type Config struct {"] + ["// c"] * 10
    assert declared_near(lines, start) == found


def test_a_faithful_checkout_gives_no_miss(tmp_path: Path) -> None:
    import_engine()
    report = check_anchors(source_reader(K8S, kubernetes_checkout(tmp_path / "k8s")))
    assert report.misses == []
    assert report.checked == len([a for a in anchors() if a.repo == K8S]) > 300
    assert all(not path.startswith(K8S) for path in report.unchecked)


def test_lines_moved_by_four_are_misses(tmp_path: Path) -> None:
    import_engine()
    moved = [a for a in anchors() if a.repo == K8S and a.path == "pkg/scheduler/schedule_one.go"]
    shifted = [type(a)(a.repo, a.path, a.go, a.start + 4, a.end + 4, a.python) for a in moved]
    root = write_checkout(tmp_path / "k8s", shifted)
    report = check_anchors(source_reader(K8S, root))
    assert report.checked == len(moved) and len(report.misses) == len(moved)
    assert "ksched_edu.schedule_one.schedule_pod: pkg/scheduler/schedule_one.go#L390 is not within 3 lines " \
           "of a func or type schedulePod" in report.misses


def test_a_git_directory_is_read_at_the_anchor_ref(tmp_path: Path) -> None:
    import_engine()
    work = kubernetes_checkout(tmp_path / "work")
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "fixture"], check=True)
    subprocess.run(git + ["tag", "v1.30.4"], check=True)
    report = check_anchors(source_reader(K8S, work / ".git"))
    assert report.misses == [] and report.checked > 300


def test_the_command_line_prints_the_misses_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    import_engine()
    anchor = next(a for a in anchors() if a.go == "(*Scheduler).schedulePod")
    root = write_checkout(tmp_path / "k8s", [type(anchor)(anchor.repo, anchor.path, anchor.go, anchor.start + 9,
                                                          anchor.end + 9, anchor.python)])
    assert main(["upstream", "--check", "--k8s-src", str(root)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith("ksched_edu.schedule_one.schedule_pod: ") for line in out)
    assert out[-1].startswith("anchors: ") and " misses, " in out[-1]


@pytest.mark.parametrize("args,message", [
    ([], "give --k8s-src, --scheduler-plugins-src, --git-dir or --source"),
    (["--source", "kubernetes=/tmp"], "expected OWNER/REPO=DIR"),
    (["--k8s-src", "/no/such/dir"], "/no/such/dir: no such directory"),
])
def test_bad_arguments_get_one_line_and_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["upstream", "--check", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
