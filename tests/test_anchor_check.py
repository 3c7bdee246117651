"""upstream --check: every anchor's first line is checked against a func/type line of the Go it names.

The Go is a fake checkout the test writes (tests/go_fixture.py); the real v1.30.4
files are checked the same way by a developer with a checkout (DEVELOPERS.md).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ksched_edu.anchor_check import (check_anchors, declaration_end, declared_near, ends_a_declaration, go_name,
                                    source_reader)
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


GO = [
    "// Run starts the scheduler.",                        # 1
    "func (s *Scheduler) Run(ctx context.Context,",        # 2
    "\tlogger klog.Logger) {",                             # 3
    "\tif ctx == nil {",                                   # 4
    "\t\treturn",                                          # 5
    "\t}",                                                 # 6
    "}",                                                   # 7
    "",                                                    # 8
    "type Name string",                                    # 9
    "",                                                    # 10
    "func (s *Scheduler) Stop() {",                        # 11
    "}",                                                   # 12
]


@pytest.mark.parametrize("start,end,want,ok", [
    (2, 7, 7, True),     # the closing brace of a signature over two lines
    (2, 6, 7, False),    # the inner block's brace: inside the function
    (2, 12, 7, True),    # a range covering a later declaration, to its brace
    (2, 10, 7, False),   # past the end, but not on a closing line
    (9, 9, 9, True),     # a declaration on one line
    (11, 12, 12, True),
    (1, 7, 7, True),     # the first line may be the comment above the func
], ids=["multi-line signature", "short: inner brace", "covers two", "past, not a brace", "one line",
        "empty body", "doc comment start"])
def test_a_range_ends_where_a_declaration_ends(start: int, end: int, want: int, ok: bool) -> None:
    assert declaration_end(GO, start) == want
    assert ends_a_declaration(GO, end, want) is ok


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


def test_an_end_inside_the_function_is_a_miss(tmp_path: Path) -> None:
    """The Go's closing brace two lines after the anchor's end: the anchor stops inside it."""
    import_engine()
    moved = [a for a in anchors() if a.repo == K8S and a.path == "pkg/scheduler/schedule_one.go"]
    longer = [type(a)(a.repo, a.path, a.go, a.start, a.end + 2, a.python) if a.go == "(*Scheduler).schedulePod"
              else a for a in moved]
    root = write_checkout(tmp_path / "k8s", longer)
    report = check_anchors(source_reader(K8S, root))
    schedule_pod = next(a for a in moved if a.go == "(*Scheduler).schedulePod")
    engine_misses = [m for m in report.misses if m.startswith("ksched_edu.")]  # tests may anchor too
    assert engine_misses == [f"ksched_edu.schedule_one.schedule_pod: pkg/scheduler/schedule_one.go"
                             f"#L{schedule_pod.start}-L{schedule_pod.end} should end where the declaration does, "
                             f"at line {schedule_pod.end + 2}"]


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
