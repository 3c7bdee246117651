"""The QueueExplorer of chapter 05 in a real browser: a pod fails while the previous pod binds.

Opens chapter 05 in JupyterLab, runs all its cells, finds the QueueExplorer of
section 6 (it stands just after default/b's first failure: default/a, whose
bind landed during b's cycle, is bound, and b waits in backoffQ, not in
unschedulable), then clicks "Step ▶" until b has been retried from backoffQ
and parked in unschedulable, with default/c bound on the way.
"""
from __future__ import annotations

import pytest

from .conftest import Lab
from .source_views import expect_fixture_lines, source_views_on_page
from .test_gang_browser import first_queue_explorer, lane_pods, wait_for_move
from .test_stepper_browser import Deadline, screenshot_dir

pytestmark = [pytest.mark.browser, pytest.mark.ch05]

NOTEBOOK = "05_binding_cycle.ipynb"
TEST_BUDGET_S = 90.0
STEP_LABEL = "Step ▶"
MAX_STEPS = 20


def test_a_pod_failing_while_the_previous_bind_lands_is_retried_from_backoff(lab_server: Lab, browser_page,
                                                                              tmp_path):
    page = browser_page
    deadline = Deadline(TEST_BUDGET_S)
    try:
        explorer = first_queue_explorer(page, lab_server, NOTEBOOK, deadline)
        source_views = source_views_on_page(page)

        backoff_at_start = lane_pods(explorer, "backoffQ")
        bound_at_start = lane_pods(explorer, "bound")
        unschedulable_at_start = lane_pods(explorer, "unschedulable")
        explorer.screenshot(path=str(screenshot_dir(tmp_path) / "overlap-backoff.png"), timeout=deadline.ms(15))
        step = explorer.get_by_role("button", name=STEP_LABEL, exact=True)
        head = explorer.locator(".ksched-head").inner_text()
        seen_c_bound_while_b_backs_off = False
        for _ in range(MAX_STEPS):
            step.click(timeout=deadline.ms(10))
            head = wait_for_move(explorer, head)
            bound, backoff = lane_pods(explorer, "bound"), lane_pods(explorer, "backoffQ")
            seen_c_bound_while_b_backs_off |= "default/c" in bound and "default/b" in backoff
            if "default/b" in lane_pods(explorer, "unschedulable"):
                break
        unschedulable = lane_pods(explorer, "unschedulable")
    except Exception:
        page.screenshot(path=str(tmp_path / "page-at-failure.png"))
        print(f"page at failure: {tmp_path / 'page-at-failure.png'}\nJupyterLab log:\n{lab_server.log_tail()}")
        raise

    assert backoff_at_start == ["default/b"], backoff_at_start
    assert bound_at_start == ["default/a"] and unschedulable_at_start == [], (bound_at_start, unschedulable_at_start)
    assert seen_c_bound_while_b_backs_off, "default/c never showed bound while default/b waited in backoffQ"
    assert unschedulable == ["default/b"], f"after {MAX_STEPS} steps the unschedulable lane holds {unschedulable}"
    # Every SourceView of the chapter rendered the fake checkout's Go, with v1.30.4's line numbers.
    assert len(source_views) >= 2, f"{len(source_views)} SourceView(s) on the page"
    for link, code, status in source_views:
        expect_fixture_lines(link, code, status)
