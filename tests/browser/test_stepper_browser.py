"""The CycleStepper in a real browser: JupyterLab, headless Chromium, three clicks on Next.

Opens chapter 04 in JupyterLab, runs all its cells from the Run menu, waits for
the stepper, clicks "Next ▶" three times and checks that the highlighted
extension point and the table both moved on. A screenshot of the stepper is
saved in ``$KSCHED_EDU_SCREENSHOT_DIR`` when set (else in the test's temporary
folder); docs/stepper.png is a copy of one.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from .conftest import Lab
from .source_views import expect_fixture_lines, source_views_on_page

pytestmark = pytest.mark.browser

NOTEBOOK = "04_schedule_one.ipynb"
CLICKS = 3
TEST_BUDGET_S = 80.0  # after JupyterLab is up; the whole test stays well under two minutes
NEXT_LABEL = "Next ▶"
# True once no code cell waits or runs: a queued or running cell's prompt reads [*].
ALL_CELLS_RAN = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
    .every(p => !p.textContent.includes('*'))"""


class Deadline:
    """One time budget shared by every wait of the test."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def ms(self, cap_s: float) -> float:
        """The timeout for the next wait, in milliseconds: at most ``cap_s``, at most what is left."""
        left = self.end - time.monotonic()
        if left <= 0:
            pytest.fail("the browser test ran out of its time budget", pytrace=False)
        return 1000 * min(cap_s, left)


def stepper_state(stepper) -> tuple[str, str]:
    """(highlighted point, table HTML) as the page shows them now."""
    current = stepper.locator(".ksched-current").first
    point = current.get_attribute("data-point") or current.inner_text()
    return point.strip(), stepper.locator(".ksched-table").first.inner_html()


def wait_for_change(stepper, before: tuple[str, str], deadline: Deadline, cap_s: float = 10.0):
    """Poll until the stepper shows something other than ``before``; return what it shows."""
    end = time.monotonic() + deadline.ms(cap_s) / 1000
    while True:
        now = stepper_state(stepper)
        if now != before or time.monotonic() >= end:
            return now
        time.sleep(0.1)


def wait_for_kernel(lab: Lab, deadline: Deadline, notebook: str = NOTEBOOK, cap_s: float = 30.0) -> None:
    """Wait until JupyterLab has started the notebook's kernel and it is idle."""
    end = time.monotonic() + deadline.ms(cap_s) / 1000
    while (state := lab.kernel_state(notebook)) != "idle":
        if time.monotonic() >= end:
            pytest.fail(f"the kernel of {notebook} is not idle (state {state!r})", pytrace=False)
        time.sleep(0.2)


def open_and_run_all(page, lab: Lab, notebook: str, deadline: Deadline) -> None:
    """Open ``notebook`` in JupyterLab and run Run > Run All Cells, as a reader would."""
    assert (lab.root_dir / notebook).exists(), f"notebooks/{notebook} is missing"
    page.goto(lab.url(f"lab/tree/{notebook}"), timeout=deadline.ms(30))
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=deadline.ms(30))
    wait_for_kernel(lab, deadline, notebook)
    page.locator(".lm-MenuBar-itemLabel").get_by_text("Run", exact=True).click(timeout=deadline.ms(10))
    page.locator(".lm-Menu-itemLabel").get_by_text("Run All Cells", exact=True).click(timeout=deadline.ms(10))


def screenshot_dir(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("KSCHED_EDU_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_cycle_stepper_steps_forward_in_jupyterlab(lab_server: Lab, browser_page, tmp_path: Path):
    page = browser_page
    deadline = Deadline(TEST_BUDGET_S)
    try:
        open_and_run_all(page, lab_server, NOTEBOOK, deadline)

        stepper = page.locator(".jp-OutputArea-output").filter(
            has=page.locator(".ksched-current")).first
        stepper.wait_for(timeout=deadline.ms(60))
        next_button = stepper.get_by_role("button", name=NEXT_LABEL, exact=True)
        next_button.wait_for(timeout=deadline.ms(10))
        # A click reaches the kernel only after the cells still queued have run.
        page.wait_for_function(ALL_CELLS_RAN, timeout=deadline.ms(60), polling=200)
        source_views = source_views_on_page(page)

        first = state = stepper_state(stepper)
        seen = [first[0]]
        for _ in range(CLICKS):
            next_button.click(timeout=deadline.ms(10))
            state = wait_for_change(stepper, state, deadline)
            seen.append(state[0])
        stepper.scroll_into_view_if_needed(timeout=deadline.ms(10))
        shot = screenshot_dir(tmp_path) / "stepper.png"
        stepper.screenshot(path=str(shot), timeout=deadline.ms(15))
        # Two more steps reach Score, whose table is the picture the README shows.
        after = state
        for _ in range(2):
            next_button.click(timeout=deadline.ms(10))
            after = wait_for_change(stepper, after, deadline)
        stepper.screenshot(path=str(screenshot_dir(tmp_path) / "stepper-score.png"), timeout=deadline.ms(15))
    except Exception:
        page.screenshot(path=str(tmp_path / "page-at-failure.png"))
        print(f"page at failure: {tmp_path / 'page-at-failure.png'}\nJupyterLab log:\n"
              f"{lab_server.log_tail()}")
        raise

    assert state[0] != first[0], f"the highlighted point did not move after {CLICKS} clicks: {seen}"
    assert state[1] != first[1], f"the table did not change after {CLICKS} clicks (points {seen})"
    assert shot.stat().st_size > 0
    # Every SourceView of the chapter rendered the fake checkout's Go, with v1.30.4's line numbers.
    assert len(source_views) >= 12, f"{len(source_views)} SourceView(s) on the page"
    for link, code, status in source_views:
        expect_fixture_lines(link, code, status)
