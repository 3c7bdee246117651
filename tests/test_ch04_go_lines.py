"""Chapter 04: the v1.30.4 lines its prose, its exercises and its hints cite say what they are cited for.

With a v1.30.4 checkout at hand (``KSCHED_EDU_SCHEDULER_PLUGINS_GIT``, a scheduler-plugins git
directory holding 37b7888a, as DEVELOPERS.md describes; or ``KSCHED_EDU_K8S_SRC``, a kubernetes
tree at v1.30.4), each cited range holds the Go it is cited for; without one these tests skip.
Every "since v1.30" link names a full commit and a line range. Chapters 03 and 05 use the helpers.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Optional

import pytest

pytestmark = pytest.mark.ch04

ROOT = Path(__file__).resolve().parents[1]
SCHEDULER_PLUGINS_REF = "37b7888a"
LINK = re.compile(r"https://github\.com/([\w.-]+/[\w.-]+)/blob/([^/]+)/([^)#\s]+)#L(\d+)-L(\d+)")
SCHED = "pkg/scheduler/"


def _checkout() -> Optional[tuple[str, Path]]:
    git = os.environ.get("KSCHED_EDU_SCHEDULER_PLUGINS_GIT")
    if git and Path(git).is_dir():
        return "git", Path(git)
    tree = os.environ.get("KSCHED_EDU_K8S_SRC")
    if tree and Path(tree).is_dir():
        return "tree", Path(tree)
    return None


@lru_cache(maxsize=None)
def go_lines(path: str) -> tuple[str, ...]:
    """The lines of a v1.30.4 file: a kubernetes path, or ``k8s.io/client-go/...``."""
    found = _checkout()
    if found is None:
        pytest.skip("no v1.30.4 checkout: set KSCHED_EDU_SCHEDULER_PLUGINS_GIT or KSCHED_EDU_K8S_SRC")
    kind, where = found
    if kind == "git":
        vendored = "vendor/" + path if path.startswith("k8s.io/") else "vendor/k8s.io/kubernetes/" + path
        shown = subprocess.run(["git", "--git-dir", str(where), "show", f"{SCHEDULER_PLUGINS_REF}:{vendored}"],
                               capture_output=True, text=True)
        assert shown.returncode == 0, shown.stderr
        return tuple(shown.stdout.splitlines())
    file = where / ("staging/src/" + path if path.startswith("k8s.io/") else path)
    return tuple(file.read_text(encoding="utf-8").splitlines())


def assert_cited(path: str, first: int, last: int, *wanted: str) -> None:
    """Lines ``first``..``last`` of the v1.30.4 file hold every string of ``wanted``."""
    lines = go_lines(path)
    text = "\n".join(lines[first - 1:last])
    for want in wanted:
        assert want in text, f"{path} L{first}-{last} lacks {want!r}:\n{text}"


def chapter_text(name: str) -> str:
    cells = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def assert_links_name_commits(name: str) -> list[tuple[str, str, str, int, int]]:
    links = [(repo, commit, path, int(a), int(b)) for repo, commit, path, a, b in LINK.findall(chapter_text(name))]
    for repo, commit, path, first, last in links:
        assert re.fullmatch(r"[0-9a-f]{40}", commit), (repo, commit, path)
        assert 1 <= first <= last, (repo, path, first, last)
    return links


CITED = [  # (path, first, last, what the lines hold)
    # section 1 and section 2: ScheduleOne; the parallel filter and what wraps it
    (SCHED + "schedule_one.go", 66, 134, ("func (sched *Scheduler) ScheduleOne(ctx context.Context) {",)),
    (SCHED + "schedule_one.go", 571, 652, ("func (sched *Scheduler) findNodesThatPassFilters(",
                                           "fwk.Parallelizer().Until(ctx, numAllNodes, checkNode, metrics.Filter)")),
    (SCHED + "framework/parallelize/parallelism.go", 56, 65, ("func (p Parallelizer) Until(",
                                                              "workqueue.ParallelizeUntil(")),
    ("k8s.io/client-go/util/workqueue/parallelizer.go", 46, 97, ("func ParallelizeUntil(",)),
    # section 7: the Filter loop is timed as one extension point
    (SCHED + "schedule_one.go", 627, 634, ("beginCheckNode := time.Now()",
                                           "FrameworkExtensionPointDuration.WithLabelValues(metrics.Filter")),
    # exercise 1 and its hints
    (SCHED + "schedule_one.go", 485, 500, ("if !preRes.AllNodes() {", "processedNodes := len(feasibleNodes)",
                                           "% len(allNodes)")),
    (SCHED + "schedule_one.go", 497, 500, ("sched.nextStartNodeIndex = (sched.nextStartNodeIndex + processedNodes)",)),
    (SCHED + "schedule_one.go", 499, 499, ("len(diagnosis.NodeToStatusMap)",)),
    (SCHED + "schedule_one.go", 500, 500, ("% len(allNodes)",)),
    (SCHED + "schedule_one.go", 578, 582, ("numAllNodes := len(nodes)",
                                           "sched.numFeasibleNodesToFind(fwk.PercentageOfNodesToScore(), "
                                           "int32(numAllNodes))")),
    (SCHED + "schedule_one.go", 579, 579, ("numFeasibleNodesToFind",)),
    (SCHED + "schedule_one.go", 656, 682, ("func (sched *Scheduler) numFeasibleNodesToFind(",)),
    (SCHED + "schedule_one.go", 657, 659, ("if numAllNodes < minFeasibleNodesToFind {", "return numAllNodes")),
    # exercise 3's hints
    (SCHED + "schedule_one.go", 435, 435, ("EvaluatedNodes: len(feasibleNodes) + len(diagnosis.NodeToStatusMap)",)),
    (SCHED + "schedule_one.go", 614, 621, ("length := atomic.AddInt32(&feasibleNodesLen, 1)", "cancel()")),
    (SCHED + "schedule_one.go", 615, 619, ("if length > numNodesToFind {",)),
    (SCHED + "schedule_one.go", 661, 680, ("percentage = *percentageOfNodesToScore", "int32(50) - numAllNodes/125")),
    # exercise 2's hints
    (SCHED + "framework/plugins/tainttoleration/taint_toleration.go", 125, 137,
     ("func countIntolerableTaintsPreferNoSchedule(", "TolerationsTolerateTaint")),
    (SCHED + "framework/plugins/tainttoleration/taint_toleration.go", 132, 134, ("intolerableTaints++",)),
    (SCHED + "framework/plugins/tainttoleration/taint_toleration.go", 140, 154,
     ("func (pl *TaintToleration) Score(",)),
    (SCHED + "framework/plugins/tainttoleration/taint_toleration.go", 157, 159,
     ("helper.DefaultNormalizeScore(framework.MaxNodeScore, true, scores)",)),
    (SCHED + "framework/plugins/helper/normalize_score.go", 27, 55, ("func DefaultNormalizeScore(",)),
    (SCHED + "framework/plugins/helper/normalize_score.go", 48, 50, ("if reverse {", "maxPriority - score")),
]


@pytest.mark.parametrize("path,first,last,wanted", CITED, ids=[f"{p.rsplit('/', 1)[-1]} L{a}-{b}"
                                                              for p, a, b, _ in CITED])
def test_the_cited_lines_hold_what_they_are_cited_for(path: str, first: int, last: int, wanted: tuple) -> None:
    assert_cited(path, first, last, *wanted)


def test_the_chapter_cites_those_lines() -> None:
    text = chapter_text("04_schedule_one.ipynb")
    for cited in ("`schedule_one.go` L66-134", "`schedule_one.go` L571-652", "`framework/parallelize/parallelism.go` L56-65",
                  "`vendor/k8s.io/client-go/util/workqueue/parallelizer.go` L46-97", "`schedule_one.go` L627-634",
                  "`schedule_one.go` L485-500", "(L578-582)", "L656-682"):
        assert cited in text, cited


def test_each_since_note_links_a_file_at_a_commit_with_lines() -> None:
    links = assert_links_name_commits("04_schedule_one.ipynb")
    repos = {repo for repo, *_ in links}
    assert {"kubernetes/enhancements", "kubernetes/website"} <= repos
    assert "> **Since v1.30.** From v1.34" in chapter_text("04_schedule_one.ipynb")
