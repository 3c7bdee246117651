"""The static site (``bash .ci/lite-build`` writes ``_site/``) in a real browser, offline.

Serves ``_site/`` on 127.0.0.1, opens the chapters in JupyterLite with Debian's Chromium, and
aborts every request to any other host. The Pyodide kernel starts from the site's own files.

- Chapter 00's engine cells print what they print on a machine, and the CycleStepper steps to Score.
- Run All runs every cell of chapters 00-05 to the last: the first cell says in one line that
  figures and tables are off and why, a cell that needs them says so in one line, no output is a
  traceback, and a SourceView shows its permalink and why the Go is not there.
- On a network that drops packets (the CDN never answers) the first cell gives up within seconds,
  and an exercise check stops a learner's endless loop (the browser has no SIGALRM).
- Online (the CDN and GitHub played by the test: small stand-in wheels, a lock that names their
  hashes, a fake Go file), the first cell says figures and tables are on, the three libraries
  import, and a SourceView shows the Go the browser fetched.

The only requests that leave the site are numpy's, pandas' and matplotlib's files (and their
compiled dependencies') on Pyodide's CDN, which the kernel asks for when it starts, and the Go
files a SourceView asks raw.githubusercontent.com for; online, a learner's browser fetches them.

Without ``_site/`` (or Chromium, or Playwright) the tests are skipped with one line; with
``CI=true`` that is a failure.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import http.server
import io
import json
import re
import threading
import time
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlparse
import zipfile

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, _unavailable, free_port
from tests.browser.test_stepper_browser import NEXT_LABEL, Deadline, stepper_state

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "_site"
CDN = re.compile(r"^https://cdn\.jsdelivr\.net/pyodide/v[\w.]+/full/")
GO_FILES = re.compile(r"^https://raw\.githubusercontent\.com/")
TEST_BUDGET_S = 240.0
# The chapters whose every cell runs offline, and the time one may take (kernel start and Run All).
RUN_ALL_CHAPTERS = ("00_tour", "01_architecture", "02_scheduling_queue", "03_framework", "04_schedule_one",
                    "05_binding_cycle")
CHAPTER_BUDGET_S = 240.0
FIGURES_OFF = ("ksched_edu: figures and tables are off: numpy, pandas and matplotlib could not be loaded "
               "from cdn.jsdelivr.net (no network: offline?); everything else works")
SKIPPED = "ksched_edu: skipped "
SKIPPED_END = "; figures and tables are off (see the first cell); the notebook goes on"
DROPPING_BUDGET_S = 150.0
# On a network that drops packets: a download with no answer within 10 s is given up (ksched_edu.browser).
FIGURES_GAVE_UP = ("ksched_edu: figures and tables are off: numpy, pandas and matplotlib could not be loaded "
                   "from cdn.jsdelivr.net (no answer within 10 s: a slow or dropping network?); everything else works")
GAVE_UP_WITHIN_S = (9.0, 15.0)  # how long the kernel's load of the figures' libraries took, in the kernel
ENDLESS_ANSWER = (
    "from ksched_edu.browser import FIGURES\n"
    "from ksched_edu.exercises.core import call_answer, describe_exception\n"
    "def spin():\n"
    "    while True:\n"
    "        pass\n"
    "ok, err = call_answer(spin, seconds=2)\n"
    "print(ok, describe_exception(err))\n"
    "print(f'gave up after {FIGURES.seconds:.1f} s')\n"
)
ENDLESS_VERDICT = "False your code is still running after 2 s (a loop that never ends?)"
ONLINE_BUDGET_S = 150.0
FIGURES_ON = "ksched_edu: figures and tables are on (numpy, pandas and matplotlib loaded from cdn.jsdelivr.net)"
ONLINE_CELL = (
    "import matplotlib, numpy, pandas\n"
    "from ksched_edu.schedule_one import select_host\n"
    "from ksched_edu.widgets import SourceView\n"
    "view = SourceView(select_host)\n"
    "print(numpy.STAND_IN, pandas.STAND_IN, matplotlib.STAND_IN, view.go.origin, view.go_lines[0])\n"
    "print(view.go_status)\n"
)
# Chapter 00's cells that run without matplotlib (by index in the notebook): the imports, the
# cluster, the simulation, the trace, the Filter and Score reports, and the CycleStepper.
ENGINE_CELLS = (1, 3, 5, 7, 9, 11, 13, 15, 17)
STEPPER_CELL = 21
EXPECTED_OUTPUTS = {
    3: "default/cache    on n1",
    5: "Placement(pod='default/web', node='n3', message=None, nominated_node=None)",
    13: "n2 UnschedulableAndUnresolvable {'TaintToleration': ['node(s) had untolerated taint {dedicated: batch}']}",
    17: "✔ the totals: {'n1': 461, 'n3': 474}",
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


@pytest.fixture(scope="module")
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
    """The CDN files of numpy, pandas and matplotlib and of their dependencies, which the kernel asks for
    when it starts (ksched_edu.browser.FIGURE_PACKAGES); ksched_edu's own dependencies are all served."""
    from ksched_edu.browser import FIGURE_PACKAGES

    packages = json.loads((SITE / "static/pyodide/pyodide-lock.json").read_text())["packages"]
    assert not [d for d in packages["ksched-edu"]["depends"] if CDN.match(packages[d]["file_name"])], \
        "ksched_edu's lock entry names a package from the CDN: the kernel's start would wait for it"
    seen, todo = set(), list(FIGURE_PACKAGES)
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


@pytest.fixture(scope="module")
def chromium(site_url: str):
    """Debian's Chromium, every host but 127.0.0.1 unresolvable, for every test of the module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), timeout=30_000, args=[
            *CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def chapter_page(chromium, site_url: str, chapter: str, tmp_path: Path, deadline: Deadline, *,
                 answer_outside: bool = True) -> Iterator[tuple[Any, list[str], float]]:
    """A fresh browser context on ``chapter``, its kernel idle: (page, requests outside the site, seconds
    the kernel took). Requests outside the site are aborted at once (offline), or with
    ``answer_outside=False`` never answered (a network that drops every packet)."""
    blocked: list[str] = []
    host = urlparse(site_url).netloc

    def only_the_site(route) -> None:
        url = route.request.url
        if urlparse(url).netloc == host or url.startswith(("data:", "blob:")):
            route.continue_()
            return
        blocked.append(url)
        if answer_outside:
            route.abort()
        # else: left unanswered, as a network that drops every packet leaves it

    context = chromium.new_context(viewport={"width": 1600, "height": 1000})
    try:
        context.route("**/*", only_the_site)
        page = context.new_page()
        page.set_default_timeout(20_000)
        try:
            start = time.monotonic()
            page.goto(f"{site_url}/lab/index.html?path=notebooks/{chapter}.ipynb", timeout=deadline.ms(60))
            page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=deadline.ms(60))
            wait_for_kernel_idle(page, deadline, 120)
            yield page, blocked, time.monotonic() - start
        except BaseException:
            shot = tmp_path / f"{chapter}-at-failure.png"
            page.screenshot(path=str(shot))
            print(f"page at failure: {shot}; requests outside the site: {blocked}")
            raise
    finally:
        context.close()


def test_chapter_00_runs_in_the_static_site_offline(chromium, site_url: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture):
    deadline = Deadline(TEST_BUDGET_S)
    with chapter_page(chromium, site_url, "00_tour", tmp_path, deadline) as (page, blocked, kernel_s):
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
        state = step_once(stepper, next_button, state, deadline)  # the chapter's view opens at Score: click on
        points.append(state[0])

    with capsys.disabled():  # in the CI log, not only on failure
        print(f"\nsite: kernel start {kernel_s:.1f} s; first cell {first_cell_s:.1f} s")
    assert outputs[ENGINE_CELLS[0]].splitlines()[0] == FIGURES_OFF, outputs[ENGINE_CELLS[0]]
    for index, text in EXPECTED_OUTPUTS.items():
        assert text in outputs[index], f"cell {index} printed:\n{outputs[index]}"
    assert points[-2:] == ["Score", "NormalizeScore"], f"the stepper never reached Score, or Next did nothing: {points}"
    assert {n: rows.get(n) for n in SCORE_ROWS} == SCORE_ROWS, f"Score table: {rows}"
    expected = expected_cdn_files()
    assert expected, "the lock names no CDN file for numpy, pandas and matplotlib"
    assert all(CDN.match(url) for url in blocked), f"requests outside the site and the CDN: {blocked}"
    assert set(blocked) == expected, (f"blocked beyond the expected: {sorted(set(blocked) - expected)}; "
                                      f"expected but never asked for: {sorted(expected - set(blocked))}")


# Every code cell of the notebook: its prompt, its outputs' MIME types and texts (the DOM's text: a
# cell scrolled out of view has it too).
CELLS_JS = """() => Array.from(document.querySelectorAll('.jp-Notebook .jp-CodeCell')).map(cell => ({
  prompt: (cell.querySelector('.jp-InputPrompt') || {}).textContent || '',
  outputs: Array.from(cell.querySelectorAll('.jp-OutputArea-output')).map(o => ({
    mime: o.getAttribute('data-mime-type') || '', text: o.textContent || ''})),
  sources: Array.from(cell.querySelectorAll('.ksched-source-status')).map(s => s.textContent),
  links: Array.from(cell.querySelectorAll('.ksched-source-go h4 a')).map(a => a.getAttribute('href')),
}))"""
NUMBERED = re.compile(r"^\[\d+\]:?$")


def run_all(page, deadline: Deadline, cap_s: float) -> list[dict]:
    """Run → Run All Cells; wait until no cell is running or waiting and the first one ran; the cells."""
    page.locator(".jp-Notebook").first.click(timeout=deadline.ms(10))
    page.get_by_role("menuitem", name="Run", exact=True).click(timeout=deadline.ms(10))
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click(timeout=deadline.ms(10))
    end = time.monotonic() + deadline.ms(cap_s) / 1000
    settled = 0
    while True:
        cells = page.evaluate(CELLS_JS)
        done = bool(cells) and NUMBERED.match(cells[0]["prompt"].strip()) and not any(
            c["prompt"].strip() == "[*]:" for c in cells)
        settled = settled + 1 if done else 0
        if settled >= 3:  # a second with nothing running: Run All ended, or stopped at an error
            return cells
        if time.monotonic() >= end:
            running = [i for i, c in enumerate(cells) if c["prompt"].strip() == "[*]:"]
            pytest.fail(f"Run All did not end within {cap_s:.0f} s (cells still running or waiting: {running})",
                        pytrace=False)
        time.sleep(0.4)


def tracebacks(cells: list[dict]) -> list[str]:
    """The outputs that are errors or tracebacks, each as "cell N: first lines"."""
    found = []
    for index, cell in enumerate(cells):
        for out in cell["outputs"]:
            if out["mime"] == "application/vnd.jupyter.error" or "Traceback (most recent call last)" in out["text"] \
                    or re.search(r"^\w+Error\b.*Traceback", out["text"]):
                found.append(f"cell {index}: {out['text'][:600]}")
    return found


@pytest.mark.parametrize("chapter", RUN_ALL_CHAPTERS)
def test_run_all_runs_every_cell_of_the_chapter_offline(chromium, site_url: str, chapter: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture):
    deadline = Deadline(CHAPTER_BUDGET_S)
    with chapter_page(chromium, site_url, chapter, tmp_path, deadline) as (page, blocked, kernel_s):
        began = time.monotonic()
        cells = run_all(page, deadline, CHAPTER_BUDGET_S)
        run_s = time.monotonic() - began

    skipped = sum(1 for c in cells for o in c["outputs"] if SKIPPED in o["text"])
    with capsys.disabled():
        print(f"\nsite {chapter}: kernel start {kernel_s:.1f} s; Run All {run_s:.1f} s; {len(cells)} code cells, "
              f"{skipped} skipped for want of figures and tables")
    not_run = [i for i, c in enumerate(cells) if not NUMBERED.match(c["prompt"].strip())]
    assert not not_run, f"Run All stopped: code cells {not_run} of {len(cells)} never ran; {tracebacks(cells)}"
    assert not tracebacks(cells), "\n".join(tracebacks(cells))
    first = cells[0]["outputs"][0]["text"] if cells[0]["outputs"] else ""
    assert first.splitlines()[:1] == [FIGURES_OFF], f"the first cell printed:\n{first}"
    for index, cell in enumerate(cells):
        for out in cell["outputs"]:
            for line in out["text"].splitlines():
                if SKIPPED in line:
                    assert line.startswith(SKIPPED) and line.endswith(SKIPPED_END), (index, line)
    failed_checks = [f"cell {i}: {line}" for i, c in enumerate(cells) for o in c["outputs"]
                     for line in o["text"].splitlines() if line.startswith("✘")]
    assert not failed_checks, f"an exercise check failed offline: {failed_checks}"
    views = [(s, link) for c in cells for s, link in zip(c["sources"], c["links"])]
    for status, link in views:
        assert "could not be fetched (the browser could not reach it: offline?)" in status, status
        assert link.startswith("https://github.com/") and status.endswith(link), (status, link)
    if chapter == "00_tour":
        assert views, "chapter 00 shows no SourceView"
    outside = [u for u in blocked if not (CDN.match(u) or GO_FILES.match(u))]
    assert not outside, f"requests outside the site, the CDN and the Go files: {outside}"


def test_a_dropping_network_gives_up_in_seconds_and_an_endless_answer_is_stopped(
        chromium, site_url: str, tmp_path: Path, capsys: pytest.CaptureFixture):
    deadline = Deadline(DROPPING_BUDGET_S)
    with chapter_page(chromium, site_url, "00_tour", tmp_path, deadline, answer_outside=False) as (page, blocked, _):
        began = time.monotonic()
        first = run_cell(page, ENGINE_CELLS[0], deadline, 60)
        first_cell_s = time.monotonic() - began
        cell = code_cell(page, len(page.locator(".jp-Notebook .jp-Cell").all()) - 1)
        cell.scroll_into_view_if_needed(timeout=deadline.ms(10))
        cell.locator(".jp-InputPrompt").first.click(timeout=deadline.ms(10))
        page.keyboard.press("b")  # a new cell below the last one
        page.keyboard.press("Enter")
        page.keyboard.insert_text(ENDLESS_ANSWER)
        last = len(page.locator(".jp-Notebook .jp-Cell").all()) - 1
        began = time.monotonic()
        verdict = run_cell(page, last, deadline, 60)
        endless_s = time.monotonic() - began

    endless, gave_up = verdict.strip().splitlines()
    load_s = float(re.fullmatch(r"gave up after ([\d.]+) s", gave_up).group(1))
    with capsys.disabled():
        print(f"\nsite, a dropping network: first cell {first_cell_s:.1f} s (the kernel gave up on the CDN after "
              f"{load_s:.1f} s); an endless answer stopped in {endless_s:.1f} s")
    assert first.splitlines()[0] == FIGURES_GAVE_UP, first
    assert GAVE_UP_WITHIN_S[0] <= load_s <= GAVE_UP_WITHIN_S[1], gave_up
    assert blocked and all(CDN.match(u) for u in blocked), blocked
    assert endless == ENDLESS_VERDICT, verdict


def stand_in_wheel(file_name: str, imports: list[str]) -> bytes:
    """A pure-Python wheel named as the CDN's, whose modules say ``STAND_IN = "<module>"``."""
    name, version = file_name.split("-")[:2]
    dist_info = f"{name}-{version}.dist-info"
    files = {f"{module}/__init__.py": f'STAND_IN = "{module}"\n' for module in imports}
    files[f"{dist_info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    files[f"{dist_info}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: cp314-cp314-any\n"
    files[f"{dist_info}/RECORD"] = "".join(f"{path},,\n" for path in [*files, f"{dist_info}/RECORD"])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
    return buffer.getvalue()


def stand_in_cdn() -> tuple[dict, dict[str, bytes]]:
    """The site's lock with the CDN's packages of the figures' libraries replaced by stand-ins (their
    hashes), and the stand-ins by URL."""
    from ksched_edu.browser import FIGURE_PACKAGES

    lock = json.loads((SITE / "static/pyodide/pyodide-lock.json").read_text())
    packages, served = lock["packages"], {}
    seen, todo = set(), list(FIGURE_PACKAGES)
    while todo:
        name = todo.pop()
        if name in seen or name not in packages:
            continue
        seen.add(name)
        todo += packages[name]["depends"]
        entry = packages[name]
        if CDN.match(entry["file_name"]):
            wheel = stand_in_wheel(entry["file_name"].rsplit("/", 1)[-1], entry["imports"])
            entry["sha256"] = hashlib.sha256(wheel).hexdigest()
            served[entry["file_name"]] = wheel
    return lock, served


def test_online_the_figures_load_from_the_cdn_and_a_source_view_fetches_its_go(
        chromium, site_url: str, tmp_path: Path, capsys: pytest.CaptureFixture):
    from ksched_edu.anchors import upstream
    from ksched_edu.schedule_one import select_host
    from tests.go_fixture import fixture_func_line, write_checkout

    lock, wheels = stand_in_cdn()
    anchor = upstream(select_host)
    go_file = (write_checkout(tmp_path / "github", [anchor]) / anchor.path).read_bytes()
    host = urlparse(site_url).netloc
    answered: list[str] = []
    cors = {"access-control-allow-origin": "*"}

    def internet(route) -> None:
        url = route.request.url
        if urlparse(url).netloc == host:
            if url.split("?")[0].endswith("/static/pyodide/pyodide-lock.json"):
                route.fulfill(status=200, body=json.dumps(lock), content_type="application/json")
            else:
                route.continue_()
        elif url in wheels:
            answered.append(url)
            route.fulfill(status=200, body=wheels[url], content_type="application/octet-stream", headers=cors)
        elif url == anchor.raw_url:
            answered.append(url)
            route.fulfill(status=200, body=go_file, content_type="text/plain; charset=utf-8", headers=cors)
        else:
            route.abort()

    deadline = Deadline(ONLINE_BUDGET_S)
    context = chromium.new_context(viewport={"width": 1600, "height": 1000})
    try:
        context.route("**/*", internet)
        page = context.new_page()
        page.set_default_timeout(20_000)
        try:
            page.goto(f"{site_url}/lab/index.html?path=notebooks/00_tour.ipynb", timeout=deadline.ms(60))
            page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=deadline.ms(60))
            wait_for_kernel_idle(page, deadline, 120)
            code_cell(page, 0).click(timeout=deadline.ms(10))
            page.keyboard.press("Escape")
            page.keyboard.press("a")  # a new cell above the first one
            page.keyboard.press("Enter")
            page.keyboard.insert_text(ONLINE_CELL)
            began = time.monotonic()
            printed = run_cell(page, 0, deadline, 90)
            first_cell_s = time.monotonic() - began
        except BaseException:
            page.screenshot(path=str(tmp_path / "online-at-failure.png"))
            print(f"page at failure: {tmp_path / 'online-at-failure.png'}; answered: {answered}")
            raise
    finally:
        context.close()

    with capsys.disabled():
        print(f"\nsite online (a stand-in CDN): first cell {first_cell_s:.1f} s")
    lines = printed.splitlines()
    assert lines[0] == FIGURES_ON, printed
    assert lines[1] == f"numpy pandas matplotlib download {fixture_func_line(anchor)}", printed
    assert lines[2].startswith(f"Fetched from {anchor.raw_url}; cached in "), printed
    assert set(wheels) <= set(answered) and anchor.raw_url in answered, answered



def test_the_site_serves_both_editions(site_url: str) -> None:
    """Every chapter is on the site in English and in Chinese (notebooks/zh-CN/), as JupyterLite's
    contents list them."""
    import json
    import urllib.request

    def listing(path: str) -> set[str]:
        with urllib.request.urlopen(f"{site_url}/api/contents/{path}/all.json", timeout=30) as r:
            return {item["name"] for item in json.load(r)["content"]}

    english = {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert english <= listing("notebooks")
    assert "zh-CN" in listing("notebooks")
    assert english == {n for n in listing("notebooks/zh-CN") if n.endswith(".ipynb")}
    with urllib.request.urlopen(f"{site_url}/files/notebooks/zh-CN/welcome.ipynb", timeout=30) as r:
        assert "课程" in r.read().decode("utf-8")
