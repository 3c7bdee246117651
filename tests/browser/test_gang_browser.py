"""The QueueExplorer of chapter 06 in a real browser: a gang waits at Permit, then binds together.

Opens chapter 06 in JupyterLab, runs all its cells, finds the QueueExplorer
(section 5.4: seven members of default/train in flight, each waiting at
Permit), and clicks "Step ▶" until every member is in the bound lane. On the
way the page must show members allowed at Permit and binding.
"""
from __future__ import annotations

import time

import pytest

from .conftest import Lab
from .source_views import expect_fixture_lines, source_views_on_page
from .test_stepper_browser import ALL_CELLS_RAN, Deadline, open_and_run_all, screenshot_dir

pytestmark = [pytest.mark.browser, pytest.mark.ch06]

NOTEBOOK = "06_profiles.ipynb"
TEST_BUDGET_S = 90.0
STEP_LABEL = "Step ▶"
MEMBERS = [f"default/train-{i}" for i in range(8)]
MAX_STEPS = 60


def lane_pods(explorer, lane: str) -> list[str]:
    """The pod labels the page shows in one lane (e.g. "default/train-0 · waiting")."""
    return [t.strip() for t in explorer.locator(f'[data-queue="{lane}"] .ksched-pod').all_inner_texts()]


def wait_for_move(explorer, before: str, cap_s: float = 10.0) -> str:
    """Poll until the header (time and move number) changes; return it."""
    end = time.monotonic() + cap_s
    while (now := explorer.locator(".ksched-head").inner_text()) == before and time.monotonic() < end:
        time.sleep(0.05)
    return now


def first_queue_explorer(page, lab_server: Lab, notebook: str, deadline: Deadline):
    """Open ``notebook``, run all its cells, and return the output holding its first QueueExplorer."""
    open_and_run_all(page, lab_server, notebook, deadline)
    explorer = page.locator(".jp-OutputArea-output").filter(has=page.locator(".ksched-queue-explorer")).first
    explorer.wait_for(timeout=deadline.ms(60))
    page.wait_for_function(ALL_CELLS_RAN, timeout=deadline.ms(60), polling=200)
    explorer.scroll_into_view_if_needed(timeout=deadline.ms(10))
    return explorer


def test_a_gang_waits_at_permit_then_binds_together(lab_server: Lab, browser_page, tmp_path):
    page = browser_page
    deadline = Deadline(TEST_BUDGET_S)
    try:
        explorer = first_queue_explorer(page, lab_server, NOTEBOOK, deadline)
        source_views = source_views_on_page(page)

        waiting = lane_pods(explorer, "inFlight")
        explorer.screenshot(path=str(screenshot_dir(tmp_path) / "gang-waiting.png"), timeout=deadline.ms(15))
        step = explorer.get_by_role("button", name=STEP_LABEL, exact=True)
        seen_binding = False
        head = explorer.locator(".ksched-head").inner_text()
        for _ in range(MAX_STEPS):
            step.click(timeout=deadline.ms(10))
            head = wait_for_move(explorer, head)
            seen_binding |= any(p.endswith("· binding") for p in lane_pods(explorer, "inFlight"))
            if set(MEMBERS) <= set(lane_pods(explorer, "bound")):
                break
        bound = lane_pods(explorer, "bound")
    except Exception:
        page.screenshot(path=str(tmp_path / "page-at-failure.png"))
        print(f"page at failure: {tmp_path / 'page-at-failure.png'}\nJupyterLab log:\n{lab_server.log_tail()}")
        raise

    assert sorted(waiting) == [f"{m} · waiting" for m in MEMBERS[:7]], waiting
    assert seen_binding, "no member was shown allowed at Permit and binding"
    assert set(MEMBERS) <= set(bound), f"after {MAX_STEPS} steps the bound lane holds {bound}"
    # Every SourceView of the chapter rendered the fake checkout's Go, with v1.30.4's line numbers.
    assert len(source_views) >= 2, f"{len(source_views)} SourceView(s) on the page"
    for link, code, status in source_views:
        expect_fixture_lines(link, code, status)
