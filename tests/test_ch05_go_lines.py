"""Chapter 05: the v1.30.4 lines its prose cites hold what they are cited for (with a checkout; see
tests/test_ch04_go_lines.py), and its "since v1.30" links name a commit and a line range."""
from __future__ import annotations

import pytest

from tests.test_ch04_go_lines import SCHED, assert_cited, assert_links_name_commits, chapter_text

pytestmark = pytest.mark.ch05

CITED = [
    # section 1: Permit in the scheduling cycle, only WaitOnPermit in the binding goroutine
    (SCHED + "schedule_one.go", 231, 231, ("runPermitStatus := fwk.RunPermitPlugins(",)),
    (SCHED + "schedule_one.go", 278, 278, ("fwk.WaitOnPermit(ctx, assumedPod)",)),
    (SCHED + "schedule_one.go", 118, 133, ("go func() {", "sched.bindingCycle(")),
    # section 6: a real bind is an API call
    (SCHED + "framework/plugins/defaultbinder/default_binder.go", 58, 58, (".Pods(binding.Namespace).Bind(",)),
    # the table's PreBind row, read again in section 4
    (SCHED + "framework/runtime/framework.go", 1230, 1239, ("running PreBind plugin %q",)),
]


@pytest.mark.parametrize("path,first,last,wanted", CITED, ids=[f"{p.rsplit('/', 1)[-1]} L{a}-{b}"
                                                              for p, a, b, _ in CITED])
def test_the_cited_lines_hold_what_they_are_cited_for(path: str, first: int, last: int, wanted: tuple) -> None:
    assert_cited(path, first, last, *wanted)


def test_the_chapter_cites_those_lines() -> None:
    text = chapter_text("05_binding_cycle.ipynb")
    for cited in ("`schedule_one.go` L231", "goroutine (L278)", "(`schedule_one.go` L118-133)",
                  "`default_binder.go` L58"):
        assert cited in text, cited


def test_each_since_note_links_a_file_at_a_commit_with_lines() -> None:
    links = assert_links_name_commits("05_binding_cycle.ipynb")
    assert {repo for repo, *_ in links} == {"kubernetes/kubernetes", "kubernetes/enhancements", "kubernetes/website"}
    assert chapter_text("05_binding_cycle.ipynb").count("> **Since v1.30.**") == 1
