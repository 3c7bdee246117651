"""Chapter 00 (tour): the checks its teaching cells leave out.

- Section 7 shows ``schedule_one`` in a SourceView beside the Go it ports; the view must read
  the anchor the port declares, ``(*Scheduler).ScheduleOne`` in schedule_one.go.
- Section 7's table sets what the walkthroughs of older releases say beside what v1.30.4 does.
  Each row's v1.30.4 column is checked here: every line it cites is the line :data:`WALKTHROUGHS`
  names; where the port anchors the Go, the anchor agrees; every Go name the column shows is a
  name the port anchors or, when a v1.30.4 checkout is at hand, one found in the file it cites;
  and with a checkout, every cited line holds what the row says it holds. A checkout is
  ``KSCHED_EDU_SCHEDULER_PLUGINS_GIT`` (a scheduler-plugins git directory holding 37b7888a,
  which vendors v1.30.4) or ``KSCHED_EDU_K8S_SRC`` (a kubernetes working tree at v1.30.4); without
  one, those parts are skipped.
- The rows that say where a call happens are also checked on the port: Permit runs in its
  scheduling cycle, the event handlers are added by its constructor.
"""
from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple, Optional

import pytest

from ksched_edu.anchors import SCHEDULER_PLUGINS_REF, anchors, import_engine, upstream
from ksched_edu.schedule_one import schedule_one

pytestmark = pytest.mark.ch00

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "notebooks" / "00_tour.ipynb"
TABLE_HEADER = "| what the walkthroughs say | what v1.30.4 does | where in this course |"

QUEUE = "pkg/scheduler/internal/queue/scheduling_queue.go"
SCHEDULE_ONE = "pkg/scheduler/schedule_one.go"
SCHEDULER = "pkg/scheduler/scheduler.go"
SERVER = "cmd/kube-scheduler/app/server.go"
PARALLELISM = "pkg/scheduler/framework/parallelize/parallelism.go"
CLIENT_GO_PARALLELIZER = "k8s.io/client-go/util/workqueue/parallelizer.go"


class Cite(NamedTuple):
    """A line the table cites: the Go name it shows, the file, the line, what that line holds, the Go
    function (as the port's anchors name it) whose lines hold it, and whether the table gives the line."""

    name: str
    path: str
    line: int
    holds: str
    within: str = ""
    shown: bool = True


# Each row of the table: (what the walkthroughs say, the chapter that teaches it, the lines its
# v1.30.4 column cites).
BROADCASTS = {600: "(*PriorityQueue).Add", 618: "(*PriorityQueue).Activate",
              822: "(*PriorityQueue).AddUnschedulableIfNotPresent", 857: "(*PriorityQueue).flushBackoffQCompleted",
              1025: "(*PriorityQueue).Update", 1041: "(*PriorityQueue).Update",
              1228: "(*PriorityQueue).movePodsToActiveOrBackoffQueue", 1290: "(*PriorityQueue).Close"}
WALKTHROUGHS = [
    ("unschedulableQ", "02_scheduling_queue.ipynb", [
        Cite("unschedulablePods", QUEUE, 198, "unschedulablePods *UnschedulablePods", within="PriorityQueue"),
        Cite("UnschedulablePods", QUEUE, 1378, "type UnschedulablePods struct", within="UnschedulablePods")]),
    ("scheduleOne", "01_architecture.ipynb", [
        Cite("ScheduleOne", SCHEDULE_ONE, 66, "func (sched *Scheduler) ScheduleOne(", within="(*Scheduler).ScheduleOne")]),
    ("profileForPod", "01_architecture.ipynb", [
        Cite("frameworkForPod", SCHEDULE_ONE, 358, "func (sched *Scheduler) frameworkForPod(",
             within="(*Scheduler).frameworkForPod")]),
    ("RunFilterPlugins", "04_schedule_one.ipynb", [
        Cite("findNodesThatPassFilters", SCHEDULE_ONE, 571, "func (sched *Scheduler) findNodesThatPassFilters(",
             within="(*Scheduler).findNodesThatPassFilters"),
        Cite("checkNode", SCHEDULE_ONE, 605, "checkNode := func(i int) {",
             within="(*Scheduler).findNodesThatPassFilters", shown=False),
        Cite("RunFilterPluginsWithNominatedPods", SCHEDULE_ONE, 609, "fwk.RunFilterPluginsWithNominatedPods(",
             within="(*Scheduler).findNodesThatPassFilters", shown=False),
        Cite("fwk.Parallelizer().Until", SCHEDULE_ONE, 638, "fwk.Parallelizer().Until(ctx, numAllNodes, checkNode,",
             within="(*Scheduler).findNodesThatPassFilters"),
        Cite("Until", PARALLELISM, 56, "func (p Parallelizer) Until("),
        Cite("workqueue.ParallelizeUntil", PARALLELISM, 64, "workqueue.ParallelizeUntil(", shown=False),
        Cite("workqueue.ParallelizeUntil", CLIENT_GO_PARALLELIZER, 46, "func ParallelizeUntil(")]),
    ("addAllEventHandlers", "01_architecture.ipynb", [
        Cite("addAllEventHandlers", SCHEDULER, 359, "addAllEventHandlers(sched,", within="New"),
        Cite("Run", SERVER, 150, "func Run(")]),
    ("Permit", "05_binding_cycle.ipynb", [
        Cite("RunPermitPlugins", SCHEDULE_ONE, 231, "fwk.RunPermitPlugins(", within="(*Scheduler).schedulingCycle"),
        Cite("WaitOnPermit", SCHEDULE_ONE, 278, "fwk.WaitOnPermit(", within="(*Scheduler).bindingCycle")]),
    ("Pop", "02_scheduling_queue.ipynb", [
        Cite("p.cond", QUEUE, 165, "cond sync.Cond", within="PriorityQueue"),
        Cite("p.cond.Wait()", QUEUE, 895, "p.cond.Wait()", within="(*PriorityQueue).Pop"),
        *[Cite("p.cond.Broadcast()", QUEUE, line, "p.cond.Broadcast()", within=go)
          for line, go in BROADCASTS.items()]]),
]
# The ends of the ranges a row gives (the start is the cited line).
RANGE_ENDS = {
    ("unschedulableQ", 1385), ("scheduleOne", 134), ("profileForPod", 364), ("RunFilterPlugins", 652),
    ("RunFilterPlugins", 65), ("RunFilterPlugins", 97), ("addAllEventHandlers", 261),
}
# Names the table shows that are not identifiers of the cited files.
NOT_GO = {"sync.Cond"}


# --- the Go, when a v1.30.4 checkout is at hand ---------------------------------------------------


def _checkout() -> Optional[tuple[str, Path]]:
    git = os.environ.get("KSCHED_EDU_SCHEDULER_PLUGINS_GIT")
    if git and Path(git).is_dir():
        return "git", Path(git)
    tree = os.environ.get("KSCHED_EDU_K8S_SRC")
    if tree and Path(tree).is_dir():
        return "tree", Path(tree)
    return None


@lru_cache(maxsize=None)
def go_lines(path: str) -> Optional[tuple[str, ...]]:
    """The lines of a v1.30.4 file (a kubernetes path, or ``k8s.io/client-go/...``), or None without a checkout."""
    found = _checkout()
    if found is None:
        return None
    kind, where = found
    if kind == "git":
        vendored = "vendor/" + path if path.startswith("k8s.io/") else "vendor/k8s.io/kubernetes/" + path
        shown = subprocess.run(["git", "--git-dir", str(where), "show", f"{SCHEDULER_PLUGINS_REF}:{vendored}"],
                               capture_output=True, text=True)
        assert shown.returncode == 0, f"{where} has no {vendored} at {SCHEDULER_PLUGINS_REF}: {shown.stderr}"
        return tuple(shown.stdout.splitlines())
    file = where / ("staging/src/" + path if path.startswith("k8s.io/") else path)
    assert file.is_file(), f"KSCHED_EDU_K8S_SRC={where} has no {file.relative_to(where)}"
    return tuple(file.read_text(encoding="utf-8").splitlines())


def needs_checkout() -> None:
    if _checkout() is None:
        pytest.skip("no v1.30.4 checkout: set KSCHED_EDU_SCHEDULER_PLUGINS_GIT (a scheduler-plugins git "
                    "directory holding 37b7888a) or KSCHED_EDU_K8S_SRC (a kubernetes tree at v1.30.4)")


# --- the table, read from the chapter --------------------------------------------------------------


def table_rows() -> dict[str, list[str]]:
    """The table's rows by the first Go name of their first column: [walkthroughs, v1.30.4, course]."""
    cells = json.loads(CHAPTER.read_text(encoding="utf-8"))["cells"]
    text = next("".join(c["source"]) for c in cells
                if c["cell_type"] == "markdown" and TABLE_HEADER in "".join(c["source"]))
    rows = {}
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith(TABLE_HEADER):
            said, does, where = (cell.strip() for cell in line.strip().strip("|").split("|"))
            rows[re.search(r"`([^`]+)`|(\w+)", said).group(0).strip("`")] = [said, does, where]
    return rows


def cited_lines(text: str) -> set[int]:
    """Every line number the text cites: L12, L12-34 (both ends), "L12, L34"."""
    found = set()
    for start, end in re.findall(r"\bL(\d+)(?:-(?:L)?(\d+))?", text):
        found.add(int(start))
        if end:
            found.add(int(end))
    return found


def go_names(text: str) -> set[str]:
    """The Go names the text shows in backticks (paths and file names left out)."""
    names = set()
    for quoted in re.findall(r"`([^`]+)`", text):
        if "/" in quoted or quoted.endswith(".go"):
            continue
        names.add(quoted)
    return names


def anchored_names() -> set[str]:
    """Every Go identifier the port's anchors name, with and without its receiver."""
    import_engine()
    names = set()
    for anchor in anchors():
        names.add(anchor.go)
        names.add(anchor.go.rsplit(".", 1)[-1])
    return names


def test_the_table_has_a_row_for_each_walkthrough_name_and_links_its_chapter() -> None:
    rows = table_rows()
    assert list(rows) == [said for said, _, _ in WALKTHROUGHS]
    for said, chapter, _ in WALKTHROUGHS:
        assert f"({chapter})" in rows[said][2], f"the row {said} should link {chapter}"
        assert (ROOT / "notebooks" / chapter).is_file()


@pytest.mark.parametrize("said, chapter, cites", WALKTHROUGHS, ids=[row[0] for row in WALKTHROUGHS])
def test_each_row_cites_the_lines_of_its_go_and_nothing_else(said: str, chapter: str, cites: list[Cite]) -> None:
    does = table_rows()[said][1]
    want = {c.line for c in cites if c.shown} | {line for row, line in RANGE_ENDS if row == said}
    assert cited_lines(does) == want
    for cite in cites:
        assert f"`{cite.name}`" in does, cite


def test_every_go_name_of_the_table_is_anchored_or_found_in_the_file_it_cites() -> None:
    rows = table_rows()
    anchored = anchored_names()
    cited = {(said, c.name): c.path for said, _, cites in WALKTHROUGHS for c in cites}
    unanchored = []
    for said, (_, does, _) in rows.items():
        for name in go_names(does) - NOT_GO:
            bare = re.sub(r"\(\)$", "", name)
            if bare in anchored or bare.rsplit(".", 1)[-1] in anchored:
                continue
            unanchored.append((said, name))
    # What the port does not anchor must be a name the table cites a line of, checked below.
    assert {(said, name) for said, name in unanchored} <= set(cited), unanchored
    needs_checkout()
    for said, name in unanchored:
        text = "\n".join(go_lines(cited[said, name]))
        assert re.sub(r"\(\)$", "", re.sub(r"^(p|fwk|workqueue)\.", "", name)) in text, (said, name)


@pytest.mark.parametrize("said, chapter, cites", WALKTHROUGHS, ids=[row[0] for row in WALKTHROUGHS])
def test_the_anchors_agree_with_the_cited_lines(said: str, chapter: str, cites: list[Cite]) -> None:
    """A cited line lies within the lines of the Go function the port anchors for it; a func or
    type line is that anchor's first line."""
    import_engine()
    ranges = {(a.path, a.go): (a.start, a.end) for a in anchors()}
    for cite in cites:
        if not cite.within:
            continue
        start, end = ranges[cite.path, cite.within]
        assert start <= cite.line <= end, cite
        if cite.holds.startswith(("func ", "type ")):
            assert cite.line == start, cite


@pytest.mark.parametrize("said, chapter, cites", WALKTHROUGHS, ids=[row[0] for row in WALKTHROUGHS])
def test_each_cited_line_holds_what_the_row_says(said: str, chapter: str, cites: list[Cite]) -> None:
    needs_checkout()
    for cite in cites:
        line = go_lines(cite.path)[cite.line - 1]
        assert cite.holds in line, f"{cite.path} L{cite.line}: {line!r}"


def test_server_go_run_does_not_add_the_event_handlers() -> None:
    needs_checkout()
    run = go_lines(SERVER)[149:261]
    assert run[0].startswith("func Run(") and run[-1] == "}"
    assert not any("addAllEventHandlers" in line for line in go_lines(SERVER))


def test_the_port_runs_permit_in_the_scheduling_cycle_and_adds_the_handlers_in_its_constructor() -> None:
    from ksched_edu import schedule_one as cycle
    from ksched_edu.scheduler import Scheduler

    assert "run_permit_plugins(" in inspect.getsource(cycle.scheduling_cycle)
    assert "run_permit_plugins(" not in inspect.getsource(cycle.binding_cycle)
    assert "add_all_event_handlers(self)" in inspect.getsource(Scheduler.__init__)
    assert "add_all_event_handlers" not in inspect.getsource(Scheduler.run)


def test_the_source_view_of_schedule_one_stands_beside_schedule_one_go(offline_go: None) -> None:
    pytest.importorskip("ipywidgets")
    from ksched_edu.widgets import SourceView

    view = SourceView(schedule_one)
    assert view.anchor == upstream(schedule_one)
    assert (view.anchor.path, view.anchor.go) == ("pkg/scheduler/schedule_one.go", "(*Scheduler).ScheduleOne")


# The other v1.30.4 lines the chapter cites: (cell id, the text that cites them, file, line, what it holds).
PROSE = [
    ("c14", "framework.go L1082-1188", "pkg/scheduler/framework/runtime/framework.go", 1082,
     "func (f *frameworkImpl) RunScorePlugins("),
    ("c14", "framework.go L1082-1188", "pkg/scheduler/framework/runtime/framework.go", 1188, "}"),
    ("c16", "taint_toleration.go L140-159", "pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", 140,
     "func (pl *TaintToleration) Score("),
    ("c16", "taint_toleration.go L140-159", "pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", 158,
     "return helper.DefaultNormalizeScore(framework.MaxNodeScore, true, scores)"),
    ("c26", "least_allocated.go L30-61", "pkg/scheduler/framework/plugins/noderesources/least_allocated.go", 30,
     "func leastResourceScorer("),
    ("c26", "balanced_allocation.go L138-173", "pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go",
     138, "func balancedResourceScorer("),
]


def _cell_text(cell_id: str) -> str:
    cells = json.loads(CHAPTER.read_text(encoding="utf-8"))["cells"]
    return next("".join(c["source"]) for c in cells if c.get("id") == cell_id)


@pytest.mark.parametrize("cell_id, cited, path, line, holds", PROSE, ids=[f"{row[0]}:{row[3]}" for row in PROSE])
def test_the_prose_cites_lines_that_hold_what_it_says(cell_id: str, cited: str, path: str, line: int,
                                                      holds: str) -> None:
    assert cited in _cell_text(cell_id)
    needs_checkout()
    assert holds in go_lines(path)[line - 1]
