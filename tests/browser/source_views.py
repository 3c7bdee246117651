"""Reading SourceViews off a JupyterLab page: each Go column must show the fake checkout's lines.

The lab of the browser tests reads Go from fake checkouts (tests/go_fixture.py): a marker
``func`` line at each anchor's first line. A SourceView that shows those lines with the
anchor's line numbers rendered the Go it was meant to.
"""
from __future__ import annotations

import re

from ksched_edu.anchors import anchors, import_engine

from ..go_fixture import fixture_func_line

LINK = re.compile(r"#L(\d+)-L(\d+)$")
NUMBERED = re.compile(r"^\s*(\d+)(.*)$")  # a line as the page shows it: its number, then its text


def go_column(view) -> tuple[str, str, str]:
    """(permalink, code text, status text) of one SourceView's Go column."""
    go = view.locator(".ksched-source-go")
    link = go.locator("h4 a").get_attribute("href") or ""
    code = go.locator(".ksched-source-code").inner_text() if go.locator(".ksched-source-code").count() else ""
    return link, code, go.locator(".ksched-source-status").inner_text()


def expect_fixture_lines(link: str, code: str, status: str) -> None:
    """The column shows the anchor's lines of the fake checkout, numbered as in the v1.30.4 file."""
    import_engine()
    start, end = map(int, LINK.search(link).groups())
    anchor = {a.permalink: a for a in anchors()}[link]
    numbered = [NUMBERED.match(line).groups() for line in code.splitlines() if line.strip()]
    numbers = [int(n) for n, _ in numbered]
    assert numbers == list(range(start, end + 1)), f"{anchor.go}: the Go column shows lines {numbers[:3]}…"
    assert numbered[0][1] == fixture_func_line(anchor), numbered[0]
    assert status.startswith("Read from KSCHED_EDU_"), status


def source_views_on_page(page) -> list[tuple[str, str, str]]:
    """The Go column of every SourceView in the notebook's outputs."""
    views = page.locator(".jp-OutputArea-output .ksched-source")
    return [go_column(views.nth(i)) for i in range(views.count())]
