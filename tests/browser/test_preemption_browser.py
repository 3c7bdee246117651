"""The PreemptionExplorer of chapter 07 in a real browser: an inference pod preempts into a training gang.

Opens chapter 07 in JupyterLab, runs all its cells, finds the explorer of
section 12.3 (default/inference, candidates gpu-2 and gpu-1 of
data/clusters/ch07-gpu-gang.yaml), which stands at gpu-2, the winner its prose
names, and clicks "Next ▶" and "◀ Prev" through the candidates. The page must
show, for each, the candidate marked in the candidates table, its outcome, the
rule that decided (the sum of priorities) and the sum that rule compares: each
victim's priority plus MaxInt32+1.

Each view stands at its own candidate and steps alone: section 8's two views of
default/critical stand at n3 and n4 while the gang's view is clicked, and
stepping the n4 view leaves the n3 view and the gang's view where they are.
"""
from __future__ import annotations

import time

import pytest

from .conftest import Lab
from .test_stepper_browser import ALL_CELLS_RAN, Deadline, open_and_run_all, screenshot_dir

pytestmark = [pytest.mark.browser, pytest.mark.ch07]

NOTEBOOK = "07_preemption.ipynb"
TEST_BUDGET_S = 85.0
PREV_LABEL, NEXT_LABEL = "◀ Prev", "Next ▶"
OFFSET = 2**31  # math.MaxInt32 + 1
SUM_COMPARED = "sum compared (each + MaxInt32+1)"
# node -> (outcome, compared sum, victims), as the trace of section 12.2 holds them.
CANDIDATES = {
    "gpu-2": ("nominated: lowest sum of victim priorities", 2000 + 2 * OFFSET, "default/train-4, default/train-5"),
    "gpu-1": ("dropped by lowest sum of victim priorities", 3000 + 3 * OFFSET,
              "default/train-1, default/train-2, default/train-3"),
}


def shown_node(explorer) -> str:
    return explorer.locator(".ksched-preemption-view").first.get_attribute("data-node") or ""


def at_classes(explorer) -> list[str]:
    """The ksched-at- classes of the widget's root element in this output."""
    root = explorer.locator(".ksched-preemption").first
    return [c for c in (root.get_attribute("class") or "").split() if c.startswith("ksched-at-")]


def wait_for_node(explorer, node: str, deadline: Deadline, cap_s: float = 10.0) -> str:
    """Poll until the explorer shows candidate ``node`` (or the cap runs out); return what it shows."""
    end = time.monotonic() + deadline.ms(cap_s) / 1000
    while (now := shown_node(explorer)) != node and time.monotonic() < end:
        time.sleep(0.05)
    return now


def what_the_page_shows(explorer) -> dict:
    """The shown candidate as the page renders it: outcome, compared sum, current row, decided rule."""
    view = explorer.locator(".ksched-preemption-view").first
    details = view.locator('table[data-section^="Candidate "]').first
    values = dict(zip(details.locator("tr td:first-child").all_inner_texts(),
                      details.locator("tr td:nth-child(2)").all_inner_texts()))
    table = view.locator('table[data-section^="Candidates, in dry-run order"]').first
    header = [t.strip() for t in table.locator("tr th").all_inner_texts()]
    column = header.index(SUM_COMPARED) + 1
    sums = {row.get_attribute("data-node"): row.locator(f"td:nth-child({column})").inner_text().strip()
            for row in table.locator("tr[data-node]").all()}
    return {"outcome": values.get("outcome", "").strip(), "compared": values.get(SUM_COMPARED, "").strip(),
            "victims": values.get("victims (evicted in this order)", "").strip(),
            "current": table.locator("tr.ksched-current-row").first.get_attribute("data-node"),
            "winner": table.locator("tr.ksched-winner").first.get_attribute("data-node"),
            "decided": view.locator("tr.ksched-decided td:nth-child(2)").all_inner_texts(),
            "sums": sums, "position": explorer.locator(".ksched-head").last.inner_text()}


def test_clicking_through_the_candidates_of_the_gang_preemption(lab_server: Lab, browser_page, tmp_path):
    page = browser_page
    deadline = Deadline(TEST_BUDGET_S)
    seen = {}
    try:
        open_and_run_all(page, lab_server, NOTEBOOK, deadline)
        views = page.locator(".jp-OutputArea-output").filter(has=page.locator(".ksched-preemption-view"))
        explorer = views.filter(has_text="default/inference").first
        explorer.wait_for(timeout=deadline.ms(60))
        page.wait_for_function(ALL_CELLS_RAN, timeout=deadline.ms(60), polling=200)
        critical = views.filter(has_text="default/critical")
        n3_view, n4_view = critical.nth(0), critical.nth(1)
        critical_at_start = [shown_node(n3_view), shown_node(n4_view)]
        classes_at_start = at_classes(explorer)
        explorer.scroll_into_view_if_needed(timeout=deadline.ms(10))
        prev_button = explorer.get_by_role("button", name=PREV_LABEL, exact=True)
        next_button = explorer.get_by_role("button", name=NEXT_LABEL, exact=True)

        # After Run All the gang's view stands at gpu-2, the winner its prose names.
        seen["start"] = (wait_for_node(explorer, "gpu-2", deadline), what_the_page_shows(explorer))
        prev_disabled = prev_button.is_disabled(timeout=deadline.ms(5))
        explorer.screenshot(path=str(screenshot_dir(tmp_path) / "preemption-gang.png"), timeout=deadline.ms(15))
        next_button.click(timeout=deadline.ms(10))
        seen["next"] = (wait_for_node(explorer, "gpu-1", deadline), what_the_page_shows(explorer))
        next_disabled = next_button.is_disabled(timeout=deadline.ms(5))
        classes_at_gpu_1 = at_classes(explorer)
        prev_button.click(timeout=deadline.ms(10))
        seen["prev"] = (wait_for_node(explorer, "gpu-2", deadline), what_the_page_shows(explorer))
        critical_after_gang = [shown_node(n3_view), shown_node(n4_view)]

        # Stepping the n4 view moves it to n2 and moves no other view.
        n4_view.scroll_into_view_if_needed(timeout=deadline.ms(10))
        n4_view.get_by_role("button", name=NEXT_LABEL, exact=True).click(timeout=deadline.ms(10))
        n4_stepped = wait_for_node(n4_view, "n2", deadline)
        others_after = [shown_node(n3_view), shown_node(explorer)]
    except Exception:
        page.screenshot(path=str(tmp_path / "page-at-failure.png"))
        print(f"page at failure: {tmp_path / 'page-at-failure.png'}\nJupyterLab log:\n{lab_server.log_tail()}")
        raise

    for step, expected in (("start", "gpu-2"), ("next", "gpu-1"), ("prev", "gpu-2")):
        node, shown = seen[step]
        outcome, compared, victims = CANDIDATES[expected]
        assert node == expected, f"after {step} the explorer shows {node!r}"
        assert shown["current"] == expected and shown["winner"] == "gpu-2", shown
        assert (shown["outcome"], shown["compared"], shown["victims"]) == (outcome, str(compared), victims), shown
        assert shown["decided"] == ["lowest sum of victim priorities"], shown
        assert shown["sums"] == {n: str(c[1]) for n, c in CANDIDATES.items()}, shown
        position = 1 + list(CANDIDATES).index(expected)
        assert f"candidate {position} of 2: {expected}" in shown["position"], shown["position"]
    assert prev_disabled and next_disabled
    assert (classes_at_start, classes_at_gpu_1) == (["ksched-at-gpu-2"], ["ksched-at-gpu-1"])
    assert critical_at_start == critical_after_gang == ["n3", "n4"], (critical_at_start, critical_after_gang)
    assert n4_stepped == "n2" and others_after == ["n3", "gpu-2"], (n4_stepped, others_after)
