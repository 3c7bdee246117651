"""The static site (``bash .ci/lite-build`` writes ``_site/``) in a real browser, offline.

Serves ``_site/`` on 127.0.0.1, opens chapter 00 in JupyterLite with Debian's Chromium,
and aborts every request to any other host. The Pyodide kernel starts from the site's own
files; the chapter's engine cells run and the CycleStepper steps to Score. The only requests
that leave the site are numpy's, pandas' and matplotlib's files (and their compiled
dependencies') on Pyodide's CDN, which the kernel asks for when ksched_edu loads and which
a learner's browser fetches from the internet for the figures.

Without ``_site/`` (or Chromium, or Playwright) the test is skipped with one line; with
``CI=true`` that is a failure.
"""
from __future__ import annotations

import functools
import http.server
import json
import re
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, _unavailable, free_port
from tests.browser.test_stepper_browser import NEXT_LABEL, Deadline, stepper_state

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "_site"
NOTEBOOK = "notebooks/00_tour.ipynb"
CDN = re.compile(r"^https://cdn\.jsdelivr\.net/pyodide/v[\w.]+/full/")
TEST_BUDGET_S = 240.0
# Chapter 00's cells that run without matplotlib (by index in the notebook): the imports, the
# cluster, the simulation, the trace, the Filter and Score reports, and the CycleStepper.
ENGINE_CELLS = (1, 3, 5, 7, 9, 11, 13, 15, 17)
STEPPER_CELL = 21
EXPECTED_OUTPUTS = {
    3: "default/cache    on n1",
    5: "Placement(pod='default/web', node='n3', message=None, nominated_node=None)",
    13: "n2 UnschedulableAndUnresolvable {'TaintToleration': ['node(s) had untolerated taint {dedicated: batch}']}",
    17: "{'n1': 461, 'n3': 474} best: ['n3']",
}
# Raw Score values at the Score step (chapter 00's Score table: TaintToleration, NodeResourcesFit,
# NodeResourcesBalancedAllocation, ImageLocality), and the chosen node.
SCORE_ROWS = {"n1": ["0", "65", "96", "0", ""], "n3": ["0", "81", "93", "0", "★"]}
PROMPT_DONE = re.compile(r"\[\d+\]")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
                      ".json": "application/json", ".whl": "application/octet-stream"}

    def log_message(self, *args) -> None:  # a quiet test log
        pass


@pytest.fixture()
def site_url():
    if not (SITE / "index.html").exists():
        _unavailable(f"{SITE.relative_to(ROOT)}/ is missing (bash .ci/lite-build writes it)")
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing (bash .ci/setup installs Debian's chromium as root)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("the playwright package is not installed (bash .ci/setup installs it)")
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(_Quiet, directory=str(SITE)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.shutdown()
        server.server_close()


def expected_cdn_files() -> set[str]:
    """The CDN files of the lock's packages that ksched_edu's dependencies pull in (numpy, pandas, ...)."""
    packages = json.loads((SITE / "static/pyodide/pyodide-lock.json").read_text())["packages"]
    seen, todo = set(), ["ksched-edu"]
    while todo:
        name = todo.pop()
        if name not in seen and name in packages:
            seen.add(name)
            todo += packages[name]["depends"]
    return {packages[n]["file_name"] for n in seen if CDN.match(packages[n]["file_name"])}


def code_cell(page, index: int):
    return page.locator(".jp-Notebook .jp-Cell").nth(index)


def run_cell(page, index: int, deadline: Deadline, cap_s: float) -> str:
    """Select the cell, Shift+Enter, wait for its prompt to get a number; return its output text."""
    cell = code_cell(page, index)
    cell.scroll_into_view_if_needed(timeout=deadline.ms(10))
    cell.locator(".jp-InputPrompt").first.click(timeout=deadline.ms(10))
    page.keyboard.press("Shift+Enter")
    prompt = cell.locator(".jp-InputPrompt").first
    end = time.monotonic() + deadline.ms(cap_s) / 1000
    while not PROMPT_DONE.search(prompt.inner_text()):
        if time.monotonic() >= end:
            pytest.fail(f"cell {index} did not finish within {cap_s:.0f} s", pytrace=False)
        time.sleep(0.1)
    errors = cell.locator('[data-mime-type="application/vnd.jupyter.error"]')
    if errors.count():
        pytest.fail(f"cell {index} raised:\n{errors.first.inner_text()[:2000]}", pytrace=False)
    outputs = cell.locator(".jp-OutputArea")
    return outputs.first.inner_text() if outputs.count() else ""


def wait_for_kernel_idle(page, deadline: Deadline, cap_s: float) -> None:
    page.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').first.wait_for(timeout=deadline.ms(cap_s))


def step_once(stepper, button, before: tuple[str, str], deadline: Deadline) -> tuple[str, str]:
    """Click Next; wait until both the highlighted point and the table moved on and hold still."""
    button.click(timeout=deadline.ms(10))
    end = time.monotonic() + deadline.ms(15) / 1000
    last = None
    while time.monotonic() < end:
        now = stepper_state(stepper)
        if now[0] != before[0] and now[1] != before[1] and now == last:
            return now
        last = now
        time.sleep(0.2)
    pytest.fail(f"the stepper did not move on from {before[0]}", pytrace=False)


def score_table(stepper) -> dict[str, list[str]]:
    """The rows of the stepper's table: node -> the cells after its name."""
    rows = {}
    for row in stepper.locator(".ksched-table tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        if cells:
            rows[cells[0]] = cells[1:]
    return rows


def test_chapter_00_runs_in_the_static_site_offline(site_url: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture):
    from playwright.sync_api import sync_playwright

    blocked: list[str] = []
    host = urlparse(site_url).netloc

    def only_the_site(route) -> None:
        url = route.request.url
        if urlparse(url).netloc == host or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    deadline = Deadline(TEST_BUDGET_S)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), timeout=30_000, args=[
            *CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
        try:
            context = browser.new_context(viewport={"width": 1600, "height": 1000})
            context.route("**/*", only_the_site)
            page = context.new_page()
            page.set_default_timeout(20_000)
            try:
                start = time.monotonic()
                page.goto(f"{site_url}/lab/index.html?path={NOTEBOOK}", timeout=deadline.ms(60))
                page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=deadline.ms(60))
                wait_for_kernel_idle(page, deadline, 120)
                kernel_s = time.monotonic() - start

                outputs, first_cell_s = {}, None
                for index in ENGINE_CELLS:
                    began = time.monotonic()
                    outputs[index] = run_cell(page, index, deadline, 90)
                    first_cell_s = first_cell_s if first_cell_s is not None else time.monotonic() - began

                run_cell(page, STEPPER_CELL, deadline, 60)
                stepper = code_cell(page, STEPPER_CELL).locator(".jp-OutputArea-output").filter(
                    has=page.locator(".ksched-current")).first
                stepper.wait_for(timeout=deadline.ms(30))
                next_button = stepper.get_by_role("button", name=NEXT_LABEL, exact=True)
                state = stepper_state(stepper)
                points = [state[0]]
                while state[0] != "Score" and len(points) < 12:
                    state = step_once(stepper, next_button, state, deadline)
                    points.append(state[0])
                rows = score_table(stepper)
                page.screenshot(path=str(tmp_path / "site-score.png"))
            except Exception:
                page.screenshot(path=str(tmp_path / "page-at-failure.png"))
                print(f"page at failure: {tmp_path / 'page-at-failure.png'}; blocked: {blocked}")
                raise
        finally:
            browser.close()

    with capsys.disabled():  # in the CI log, not only on failure
        print(f"\nsite: kernel start {kernel_s:.1f} s; first cell {first_cell_s:.1f} s")
    for index, text in EXPECTED_OUTPUTS.items():
        assert text in outputs[index], f"cell {index} printed:\n{outputs[index]}"
    assert points[-1] == "Score", f"the stepper never reached Score: {points}"
    assert {n: rows.get(n) for n in SCORE_ROWS} == SCORE_ROWS, f"Score table: {rows}"
    expected = expected_cdn_files()
    assert expected, "the lock names no CDN file for ksched_edu's dependencies"
    assert all(CDN.match(url) for url in blocked), f"requests outside the site and the CDN: {blocked}"
    assert set(blocked) == expected, (f"blocked beyond the expected: {sorted(set(blocked) - expected)}; "
                                      f"expected but never asked for: {sorted(expected - set(blocked))}")
