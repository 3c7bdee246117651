"""Chapter 07: the upstream lines its "since v1.30" note cites are named exactly.

Every GitHub link of the chapter's Markdown that names lines names a full commit and a range
``#La-Lb`` with a <= b, and the note cites the feature-gate table, the asynchronous path and the
PreEnqueue check it describes (their text is kubernetes/kubernetes' at those commits: read with
the search tools, no checkout of them is part of the project).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_ch06_since_v130 import chapter_links

pytestmark = pytest.mark.ch07

CHAPTER = Path(__file__).resolve().parents[1] / "notebooks" / "07_preemption.ipynb"


def test_each_link_names_a_commit_and_a_line_range():
    links = chapter_links(CHAPTER)
    assert links
    for repo, commit, path, first, last in links:
        assert re.fullmatch(r"[0-9a-f]{40}", commit), (repo, commit, path)
        assert 1 <= first <= last, (repo, path, first, last)


def test_the_note_cites_the_gate_the_goroutine_and_the_pre_enqueue_check():
    cited = {(path.rsplit("/", 1)[1], first, last) for _, _, path, first, last in chapter_links(CHAPTER)}
    assert ("kube_features.go", 1670, 1673) in cited  # SchedulerAsyncPreemption: alpha 1.32, beta on 1.33
    assert ("executor.go", 133, 254) in cited  # prepareCandidateAsync
    assert ("default_preemption.go", 134, 142) in cited  # PreEnqueue: waiting for the preemption ...
