"""The TopologyStepper of chapter 08 in a real browser: why a GPU set won, and the ends of the walk.

Opens chapter 08 in JupyterLab and runs all its cells. The lab's stepper stands at step 2
after Run All, the step its prose reads (``resnet-1``, four GPUs; its root element carries
``ksched-at-2``): the reasons table shows the H200 chosen and the DGX-1's best quad held back
by an NV1 pair. Clicking "◀ Back" down to step 0 disables Back and empties the reasons;
clicking "Step ▶" up to the last step disables Step. The class follows every move.
"""
from __future__ import annotations

import re
import time

import pytest

from .conftest import Lab
from .test_stepper_browser import ALL_CELLS_RAN, Deadline, open_and_run_all, screenshot_dir

pytestmark = [pytest.mark.browser, pytest.mark.ch08]

NOTEBOOK = "08_gpu_topology.ipynb"
TEST_BUDGET_S = 90.0
BACK, STEP = "◀ Back", "Step ▶"
CAPTION = re.compile(r"step (\d+)/(\d+)")
START = 2  # the step the chapter's prose reads, where the stepper stands after Run All


def _step_shown(stepper) -> int:
    caption = stepper.locator(".ksched-head").first.inner_text()
    found = CAPTION.search(caption)
    return int(found.group(1)) if found else 0


def _steps_in_all(stepper) -> int:
    found = CAPTION.search(stepper.locator(".ksched-head").first.inner_text())
    assert found, "the stepper's caption names no step n/N"
    return int(found.group(2))


def _at_classes(stepper) -> list[str]:
    return [c for c in (stepper.get_attribute("class") or "").split() if c.startswith("ksched-at-")]


def _walk_to(stepper, target: int, deadline: Deadline) -> None:
    """Click "◀ Back" or "Step ▶", one step at a time, until the caption says step ``target``."""
    for _ in range(30):
        shown = _step_shown(stepper)
        if shown == target:
            return
        button = stepper.get_by_role("button", name=BACK if shown > target else STEP, exact=True)
        button.click(timeout=deadline.ms(10))
        end = time.monotonic() + deadline.ms(10) / 1000
        while _step_shown(stepper) == shown and time.monotonic() < end:
            time.sleep(0.1)
    pytest.fail(f"the stepper did not reach step {target}", pytrace=False)


def test_the_topology_stepper_says_why_and_stops_at_its_ends(lab_server: Lab, browser_page, tmp_path):
    page = browser_page
    deadline = Deadline(TEST_BUDGET_S)
    try:
        open_and_run_all(page, lab_server, NOTEBOOK, deadline)
        stepper = page.locator(".jp-OutputArea-output .ksched-topology-stepper").first
        stepper.wait_for(timeout=deadline.ms(60))
        page.wait_for_function(ALL_CELLS_RAN, timeout=deadline.ms(60), polling=200)
        first = _step_shown(stepper)
        first_classes = _at_classes(stepper)
        last = _steps_in_all(stepper)
        reasons = stepper.locator(".ksched-topology-reasons table tr")
        rows = [reasons.nth(i).inner_text() for i in range(reasons.count())]
        stepper.scroll_into_view_if_needed(timeout=deadline.ms(10))
        stepper.screenshot(path=str(screenshot_dir(tmp_path) / "topology-reasons.png"), timeout=deadline.ms(15))
        _walk_to(stepper, 0, deadline)
        back_at_start = stepper.get_by_role("button", name=BACK, exact=True).is_disabled()
        reasons_at_start = stepper.locator(".ksched-topology-reasons").inner_text().strip()
        classes_at_start = _at_classes(stepper)
        _walk_to(stepper, last, deadline)
        step_at_end = stepper.get_by_role("button", name=STEP, exact=True).is_disabled()
        classes_at_end = _at_classes(stepper)
    except Exception:
        page.screenshot(path=str(tmp_path / "page-at-failure.png"))
        print(f"page at failure: {tmp_path / 'page-at-failure.png'}\nJupyterLab log:\n{lab_server.log_tail()}")
        raise

    assert (first, first_classes) == (START, [f"ksched-at-{START}"]), (
        f"after Run All the stepper stands at step {first}, classes {first_classes}")
    chosen = [r for r in rows if "(chosen)" in r]
    assert len(chosen) == 1 and chosen[0].startswith("h200-a"), rows
    dgx = next(r for r in rows if r.startswith("dgx1-a"))
    assert "NV1" in dgx and "25" in dgx, dgx
    assert back_at_start and reasons_at_start == "" and classes_at_start == ["ksched-at-0"]
    assert last > START and step_at_end and classes_at_end == [f"ksched-at-{last}"], (last, classes_at_end)
