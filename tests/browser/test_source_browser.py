"""SourceView in a real browser: chapter 00's Python beside Go, read from a local fixture checkout.

JupyterLab starts with KSCHED_EDU_K8S_SRC naming a fake kubernetes checkout that
the test writes (``tests/go_fixture.py``: a marker ``func`` line at each anchor's
first line, no upstream source) and KSCHED_EDU_OFFLINE=1, so no view reaches for
the network. The test runs chapter 00 and checks that every SourceView shows the
fixture's lines with the v1.30.4 line numbers, then opens the CycleStepper's
"Python ⇄ Go" panel and checks it shows the runtime function of the current point.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ksched_edu.anchors import anchors, import_engine

from ..go_fixture import fixture_func_line, kubernetes_checkout
from .conftest import running_lab
from .test_stepper_browser import ALL_CELLS_RAN, Deadline, open_and_run_all, screenshot_dir

pytestmark = [pytest.mark.browser, pytest.mark.ch00]

NOTEBOOK = "00_tour.ipynb"
TEST_BUDGET_S = 90.0
TOGGLE_LABEL = "Python ⇄ Go"
LINK = re.compile(r"#L(\d+)-L(\d+)$")
NUMBERED = re.compile(r"^\s*(\d+)(.*)$")  # a line as the page shows it: its number, then its text


def _go_column(view) -> tuple[str, str, str]:
    """(permalink, code text, status text) of one SourceView's Go column."""
    go = view.locator(".ksched-source-go")
    link = go.locator("h4 a").get_attribute("href") or ""
    code = go.locator(".ksched-source-code").inner_text() if go.locator(".ksched-source-code").count() else ""
    return link, code, go.locator(".ksched-source-status").inner_text()


def _expect_fixture_lines(link: str, code: str, status: str) -> None:
    start, end = map(int, LINK.search(link).groups())
    by_link = {a.permalink: a for a in anchors()}
    anchor = by_link[link]
    numbered = [NUMBERED.match(line).groups() for line in code.splitlines() if line.strip()]
    numbers = [int(n) for n, _ in numbered]
    assert numbers == list(range(start, end + 1)), f"the Go column shows lines {numbers[:3]}…{numbers[-1:]}"
    assert numbered[0][1] == fixture_func_line(anchor), numbered[0]
    assert status.startswith("Read from KSCHED_EDU_K8S_SRC"), status


def test_source_views_show_the_fixture_checkout(browser_page, chromium_path, tmp_path: Path):
    import_engine()
    checkout = kubernetes_checkout(tmp_path / "k8s-fixture")
    env = {"KSCHED_EDU_K8S_SRC": str(checkout), "KSCHED_EDU_OFFLINE": "1",
           "KSCHED_EDU_CACHE_DIR": str(tmp_path / "cache")}
    page = browser_page
    with running_lab(tmp_path / "lab", env) as lab:
        deadline = Deadline(TEST_BUDGET_S)
        try:
            open_and_run_all(page, lab, NOTEBOOK, deadline)
            page.wait_for_function(ALL_CELLS_RAN, timeout=deadline.ms(60), polling=200)
            views = page.locator(".jp-OutputArea-output .ksched-source")
            views.first.wait_for(timeout=deadline.ms(30))
            shown = [_go_column(views.nth(i)) for i in range(views.count())]
            views.first.scroll_into_view_if_needed(timeout=deadline.ms(10))
            views.first.screenshot(path=str(screenshot_dir(tmp_path) / "source-view.png"), timeout=deadline.ms(15))

            stepper = page.locator(".jp-OutputArea-output").filter(has=page.locator(".ksched-current")).first
            stepper.get_by_role("button", name=TOGGLE_LABEL).click(timeout=deadline.ms(10))
            panel = stepper.locator(".ksched-stepper-source .ksched-source")
            panel.wait_for(timeout=deadline.ms(15))
            point = stepper.locator(".ksched-current").first.get_attribute("data-point")
            in_stepper = _go_column(panel)
            python_head = panel.locator(".ksched-source-python h4").inner_text()
        except Exception:
            page.screenshot(path=str(tmp_path / "page-at-failure.png"))
            print(f"page at failure: {tmp_path / 'page-at-failure.png'}\nJupyterLab log:\n{lab.log_tail()}")
            raise

    assert shown, "chapter 00 shows no SourceView"
    for link, code, status in shown:
        _expect_fixture_lines(link, code, status)
    assert point == "QueueSort"
    _expect_fixture_lines(*in_stepper)
    assert "(*frameworkImpl).QueueSortFunc" in in_stepper[1]
    assert "Framework.queue_sort_func" in python_head
