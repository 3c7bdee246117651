"""SourceView in a real browser: chapter 00's Python beside Go, read from a local fixture checkout.

JupyterLab starts with KSCHED_EDU_K8S_SRC naming a fake kubernetes checkout that
the test writes (``tests/go_fixture.py``: a marker ``func`` line at each anchor's
first line, no upstream source) and KSCHED_EDU_OFFLINE=1, so no view reaches for
the network. The test runs chapter 00 and checks that every SourceView shows the
fixture's lines with the v1.30.4 line numbers, then opens the CycleStepper's
"Python ⇄ Go" panel and checks it shows the runtime function of the current point.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from ..go_fixture import checkout_env
from .conftest import running_lab
from .source_views import expect_fixture_lines, go_column, source_views_on_page
from .test_stepper_browser import ALL_CELLS_RAN, Deadline, open_and_run_all, screenshot_dir

pytestmark = [pytest.mark.browser, pytest.mark.ch00]

NOTEBOOK = "00_tour.ipynb"
TEST_BUDGET_S = 90.0
TOGGLE_LABEL = "Python ⇄ Go"


def test_source_views_show_the_fixture_checkout(browser_page, chromium_path, tmp_path: Path):
    page = browser_page
    with running_lab(tmp_path / "lab", checkout_env(tmp_path / "go")) as lab:
        deadline = Deadline(TEST_BUDGET_S)
        try:
            open_and_run_all(page, lab, NOTEBOOK, deadline)
            page.wait_for_function(ALL_CELLS_RAN, timeout=deadline.ms(60), polling=200)
            views = page.locator(".jp-OutputArea-output .ksched-source")
            views.first.wait_for(timeout=deadline.ms(30))
            shown = source_views_on_page(page)
            views.first.scroll_into_view_if_needed(timeout=deadline.ms(10))
            views.first.screenshot(path=str(screenshot_dir(tmp_path) / "source-view.png"), timeout=deadline.ms(15))

            stepper = page.locator(".jp-OutputArea-output").filter(has=page.locator(".ksched-current")).first
            stepper.get_by_role("button", name=TOGGLE_LABEL).click(timeout=deadline.ms(10))
            panel = stepper.locator(".ksched-stepper-source .ksched-source")
            panel.wait_for(timeout=deadline.ms(15))
            point = stepper.locator(".ksched-current").first.get_attribute("data-point")
            in_stepper = go_column(panel)
            python_head = panel.locator(".ksched-source-python h4").inner_text()
        except Exception:
            page.screenshot(path=str(tmp_path / "page-at-failure.png"))
            print(f"page at failure: {tmp_path / 'page-at-failure.png'}\nJupyterLab log:\n{lab.log_tail()}")
            raise

    assert shown, "chapter 00 shows no SourceView"
    for link, code, status in shown:
        expect_fixture_lines(link, code, status)
    assert point == "Score"  # chapter 00's stepper opens at the step its figure draws
    expect_fixture_lines(*in_stepper)
    assert "(*frameworkImpl).RunScorePlugins" in in_stepper[1]
    assert "Framework.run_score_plugins" in python_head
