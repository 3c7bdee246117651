"""Chapter 06: the upstream sources its prose quotes beyond v1.30.4's Go.

- Every GitHub link of the chapter's Markdown that names lines names a full commit and
  a line ``#La`` or a range ``#La-Lb`` with a <= b.
- With ``KSCHED_EDU_SCHEDULER_PLUGINS_GIT`` naming a scheduler-plugins git directory (see
  DEVELOPERS.md), each scheduler-plugins link's file has those lines at that commit, and they
  say what the chapter says of them: the README of section 5.2 (``queueSort``, ``permit`` and
  ``unreserve`` required; ``preFilter`` optional below 5 members; ``postFilter`` not
  mentioned), and the "since v1.30" note on v0.34.7 (Kubernetes v1.34.7; still no Node event;
  a failed group sorts by its failure time; the reject percentage is an argument).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.ch06

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "notebooks" / "06_profiles.ipynb"
LINK = re.compile(r"https://github\.com/([\w.-]+/[\w.-]+)/blob/([^/]+)/([^)#\s]+)#L(\d+)(?:-L(\d+))?")
GIT = os.environ.get("KSCHED_EDU_SCHEDULER_PLUGINS_GIT")


def chapter_links(chapter: Path = CHAPTER) -> list[tuple[str, str, str, int, int]]:
    cells = json.loads(chapter.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return [(repo, commit, path, int(a), int(b or a)) for repo, commit, path, a, b in LINK.findall(text)]


def test_each_link_names_a_commit_and_a_line_range():
    links = chapter_links()
    assert links, "the chapter cites no upstream lines"
    for repo, commit, path, first, last in links:
        assert re.fullmatch(r"[0-9a-f]{40}", commit), (repo, commit, path)
        assert 1 <= first <= last, (repo, path, first, last)


def _lines(commit: str, path: str) -> list[str]:
    shown = subprocess.run(["git", f"--git-dir={GIT}", "show", f"{commit}:{path}"],
                           capture_output=True, text=True, check=True)
    return shown.stdout.splitlines()


@pytest.mark.skipif(not GIT, reason="KSCHED_EDU_SCHEDULER_PLUGINS_GIT names no scheduler-plugins git directory")
def test_the_scheduler_plugins_lines_say_what_the_chapter_says():
    quoted = {}
    for repo, commit, path, first, last in chapter_links():
        if repo != "kubernetes-sigs/scheduler-plugins":
            continue
        lines = _lines(commit, path)
        assert last <= len(lines), (commit, path, last)
        quoted[(commit[:8], path, first)] = "\n".join(lines[first - 1:last])
    readme = quoted[("37b7888a", "pkg/coscheduling/README.md", 48)]
    assert "queueSort, permit and unreserve must be enabled" in readme
    assert "preFilter is enhanced feature" in readme and "less than 5" in readme
    assert "postfilter" not in "\n".join(_lines("37b7888a", "pkg/coscheduling/README.md")).lower()
    events = quoted[("8283b145", "pkg/coscheduling/coscheduling.go", 115)]
    assert "EventsToRegister" in events and "fwk.Pod, ActionType: fwk.Add" in events and "Node" not in events
    assert "k8s.io/kubernetes v1.34.7" in quoted[("8283b145", "go.mod", 30)]
    assert "lastFailedSchedulePG" in quoted[("8283b145", "pkg/coscheduling/core/core.go", 368)]
    assert "pgRejectThreshold" in quoted[("8283b145", "pkg/coscheduling/coscheduling.go", 181)]
