"""What a learner sees of one chapter on a laptop screen: run it in JupyterLab, measure, photograph.

:class:`Screen` opens chapter after chapter in one JupyterLab page, the file browser open
(the first by its URL in a new workspace, the next ones from the file browser), clears every
output, runs Run > Run All Cells, waits until the kernel is idle and every code cell has run
(or Run All stopped at a failing cell), and then reads the page:

- every SourceView (``.ksched-source``): where its Python and Go columns stand, how wide
  they are, and whether the Go's code lies inside the notebook panel and the viewport;
- every button of a widget output: its label's width against the button's;
- each widget output's root element's CSS classes, per cell (the ``ksched-at-<step>``
  convention, see :func:`at_class`);
- after one click on each "Python ⇄ Go" toggle that is off, the SourceView it opens.

Each output area holding a widget, an image or a traceback is scrolled to the top of the
notebook and photographed as the screen shows it, into ``<folder>/<notebook stem>/<cell>-<kind>.png``.
Console errors and page errors are collected from the page's first request on.
The test (``test_screen_browser.py``) asserts on the :class:`Observation`.
"""
from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from ksched_edu.widgets import at_class

from .conftest import Lab

VIEWPORT = {"width": 1366, "height": 768}
TOGGLE_LABEL = "Python ⇄ Go"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
NOTEBOOK_RUN_S = 150.0  # a chapter's Run All, from the click to the last cell
PAGE_READY_S = 45.0  # JupyterLab's page, the notebook and its kernel
WIDGETS_DRAWN_S = 20.0  # after the last cell: every widget output drawn, every image loaded

# A SourceView's Go column, side by side with the Python, is at least this share of the notebook's width;
# under the Python it is at least this share of its output area's width.
SIDE_BY_SIDE_MIN_SHARE = 0.40
STACKED_MIN_SHARE = 0.90


def cell_steps(notebook: Path) -> dict[int, str]:
    """Cell index -> the step its prose names (cell metadata ``{"ksched": {"at": step}}``)."""
    cells = json.loads(notebook.read_text())["cells"]
    steps = {}
    for index, cell in enumerate(cells):
        at = (cell.get("metadata", {}).get("ksched") or {}).get("at")
        if cell["cell_type"] == "code" and at is not None:
            steps[index] = str(at)
    return steps


def widget_cells(notebook: Path) -> list[int]:
    """Code cells whose saved outputs hold a widget that may step (any but a SourceView), or whose
    metadata names a step."""
    cells = json.loads(notebook.read_text())["cells"]
    steps = cell_steps(notebook)

    def steps_through(out: dict) -> bool:
        data = out.get("data", {})
        return WIDGET_MIME in data and not "".join(data.get("text/plain", "")).startswith("SourceView(")

    return [i for i, cell in enumerate(cells) if cell["cell_type"] == "code" and (
        i in steps or any(steps_through(out) for out in cell.get("outputs", [])))]


def _code_cells_to_run(notebook: Path) -> int:
    """Code cells JupyterLab executes on Run All (it skips a cell with no code)."""
    cells = json.loads(notebook.read_text())["cells"]
    return sum(1 for c in cells if c["cell_type"] == "code" and "".join(c["source"]).strip())


@dataclass
class Observation:
    """What one chapter showed after Run All (see the module docstring)."""

    notebook: str
    failure: Optional[str] = None  # the run did not reach its end: why
    seconds: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)  # seconds spent opening, running, reading, photographing
    errors: list[str] = field(default_factory=list)  # console errors and page errors
    views: list[dict[str, Any]] = field(default_factory=list)
    buttons: list[dict[str, Any]] = field(default_factory=list)
    wide: list[dict[str, Any]] = field(default_factory=list)  # tables shown past the notebook's right edge
    roots: dict[int, list[list[str]]] = field(default_factory=dict)  # cell -> classes of each widget root
    steps: dict[int, str] = field(default_factory=dict)  # cell -> the step its metadata names
    toggled: list[dict[str, Any]] = field(default_factory=list)  # cell, and the view it opened (or why not)
    shots: list[Path] = field(default_factory=list)


# --- page scripts ------------------------------------------------------------------------------

# The notebook on screen (a closed or hidden one may linger in the DOM for a moment).
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
NB = f"{PANEL} .jp-Notebook"


def _js(script: str) -> str:
    return script.replace("$PANEL", PANEL).replace("$NB", NB)


# Progress of Run All: cells queued or running ([*]), cells with an execution count, error outputs.
PROGRESS_JS = _js("""() => {
  const prompts = [...document.querySelectorAll('$NB .jp-CodeCell .jp-InputPrompt')];
  const errors = [...document.querySelectorAll('$NB .jp-OutputArea-output')]
    .filter(o => o.getAttribute('data-mime-type') === 'application/vnd.jupyter.stderr'
                 && /Traceback|Error/.test(o.textContent))
    .map(o => [[...document.querySelectorAll('$NB .jp-Cell')].indexOf(o.closest('.jp-Cell')),
               o.textContent.slice(-600)]);
  return {running: prompts.filter(p => p.textContent.includes('*')).length,
          ran: prompts.filter(p => /\\[\\d+\\]/.test(p.textContent)).length, errors};
}""")

# Every widget output drawn (its view inside), every image loaded.
DRAWN_JS = _js("""() => {
  const outputs = [...document.querySelectorAll('$NB .jp-OutputArea-output')];
  const widgets = outputs.filter(o => !o.hasAttribute('data-mime-type'));
  const images = [...document.querySelectorAll('$NB .jp-OutputArea-output img')];
  return widgets.every(o => o.querySelector('.jupyter-widgets') && o.getBoundingClientRect().height > 0)
      && images.every(i => i.complete && i.naturalWidth > 0);
}""")

_COMMON_JS = _js("""
const cells = [...document.querySelectorAll('$NB .jp-Cell')];
const cellOf = e => cells.indexOf(e.closest('.jp-Cell'));
const box = e => { const r = e.getBoundingClientRect();
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}; };
const scroller = document.querySelector('$PANEL .jp-NotebookPanel-notebook');
""")

# Every SourceView in the outputs (stepper panes included): its columns and their surroundings.
VIEWS_JS = _js("""() => {""" + _COMMON_JS + """
  return [...document.querySelectorAll('$NB .jp-OutputArea-output .ksched-source')].map(v => {
    const out = v.closest('.jp-OutputArea-output');
    const go = v.querySelector('.ksched-source-go');
    const py = v.querySelector('.ksched-source-python');
    const code = go && (go.querySelector('.ksched-source-code') || go);
    const head = go && go.querySelector('h4');
    return {cell: cellOf(v), in_stepper: !!v.closest('.ksched-stepper-source'),
            go_name: head ? head.textContent.slice(0, 120) : '',
            view: box(v), python: py ? box(py) : null, go: go ? box(go) : null, code: code ? box(code) : null,
            go_visible: !!go && getComputedStyle(go).visibility !== 'hidden' && go.getClientRects().length > 0,
            output: {...box(out), client_width: out.clientWidth, scroll_width: out.scrollWidth},
            notebook: {...box(scroller), client_width: scroller.clientWidth},
            panel: box(v.closest('.jp-NotebookPanel')), viewport_width: window.innerWidth};
  });
}""")

# Every visible button of a widget output, with its label's width and its own.
BUTTONS_JS = _js("""() => {""" + _COMMON_JS + """
  const found = new Set(document.querySelectorAll(
    '$NB .jp-OutputArea-output button, $NB .jp-OutputArea-output .jupyter-button'));
  return [...found].filter(b => b.closest('.jupyter-widgets') && b.getClientRects().length > 0 && b.clientWidth > 0)
    .map(b => ({cell: cellOf(b), label: (b.textContent.trim() || b.title || b.getAttribute('aria-label') || ''),
                scroll_width: b.scrollWidth, client_width: b.clientWidth}));
}""")

# Every table of a widget output, judged by the box that shows it: the nearest scrolling box around
# it inside the output, or the table itself. A learner cannot read what lies past the notebook's edge.
WIDE_JS = _js("""() => {""" + _COMMON_JS + """
  const edge = Math.min(scroller.getBoundingClientRect().right, window.innerWidth);
  const wide = [];
  for (const table of document.querySelectorAll('$NB .jp-OutputArea-output .jupyter-widgets table')) {
    if (table.getClientRects().length === 0) continue;
    let shown = table;
    for (let e = table.parentElement; e && !e.classList.contains('jp-OutputArea-output'); e = e.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(e).overflowX)) { shown = e; break; }
    }
    const r = shown.getBoundingClientRect();
    if (r.right > edge + 1) wide.push({cell: cellOf(table), right: r.right, edge,
                                       text: table.textContent.trim().slice(0, 60)});
  }
  return wide;
}""")

# Cell -> the CSS classes of each widget output's root element.
ROOTS_JS = _js("""() => {""" + _COMMON_JS + """
  const roots = {};
  for (const root of document.querySelectorAll('$NB .jp-OutputArea-output > .jupyter-widgets')) {
    (roots[cellOf(root)] = roots[cellOf(root)] || []).push([...root.classList]);
  }
  return roots;
}""")

# Each output area holding a widget or an image: [cell, kind], in page order (the index is its place in the list).
SHOTS_JS = _js("""() => {""" + _COMMON_JS + """
  const outputs = [...document.querySelectorAll('$NB .jp-OutputArea-output')];
  return outputs.map((o, i) => {
    const mime = o.getAttribute('data-mime-type') || '';
    const kind = o.querySelector(':scope > .jupyter-widgets') ? 'widget'
      : (o.querySelector('img, svg') && /^image\\//.test(mime)) ? 'image'
      : (mime === 'application/vnd.jupyter.stderr' && /Traceback/.test(o.textContent)) ? 'error' : '';
    return [i, cellOf(o), kind];
  }).filter(([, , kind]) => kind);
}""")

# Scroll one element to the top of the notebook; return the part of it the screen shows.
SCROLL_AND_CLIP_JS = _js("""(e) => {
  const scroller = document.querySelector('$PANEL .jp-NotebookPanel-notebook');
  e.scrollIntoView({block: 'start', inline: 'nearest'});
  const r = e.getBoundingClientRect(), s = scroller.getBoundingClientRect();
  const left = Math.max(r.left, s.left, 0), top = Math.max(r.top, s.top, 0);
  const right = Math.min(r.right, s.right, window.innerWidth);
  const bottom = Math.min(r.bottom, s.bottom, window.innerHeight);
  return {x: left, y: top, width: Math.max(0, right - left), height: Math.max(0, bottom - top)};
}""")


# --- the run ----------------------------------------------------------------------------------

def _api(lab: Lab, path: str, method: str = "GET") -> Any:
    request = urllib.request.Request(lab.url(path), method=method, headers={"Authorization": f"token {lab.token}"})
    with urllib.request.urlopen(request, timeout=5) as reply:
        body = reply.read()
    return json.loads(body) if body else None


def shut_down_kernel(lab: Lab, notebook: str) -> None:
    """End the notebook's session (and its kernel), so the next chapter runs beside no other kernel."""
    try:
        for session in _api(lab, "api/sessions"):
            if session.get("path", "").endswith(notebook):
                _api(lab, f"api/sessions/{session['id']}", method="DELETE")
    except (urllib.error.URLError, OSError, ValueError):
        pass


def _wait(condition, seconds: float, what: str, poll_s: float = 0.25) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() >= end:
            raise TimeoutError(f"{what} (waited {seconds:.0f} s)")
        time.sleep(poll_s)


def _show_file_browser(page) -> None:
    browser = page.locator("#filebrowser")
    if not browser.is_visible():
        page.locator('.jp-SideBar.jp-mod-left .lm-TabBar-tab[data-id="filebrowser"]').click()
    browser.wait_for(state="visible", timeout=10_000)


def _current_tab(page) -> str:
    return page.evaluate("""() => { const t = document.querySelector(
        '.lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel'); return t ? t.textContent : ''; }""")


class RunStopped(Exception):
    """Run All stopped before the last cell (a cell raised): what ran is still read and photographed."""


def _run_all(page, lab: Lab, notebook: str, cells_to_run: int) -> None:
    """Clear every output and execution count, then Run All; return when every code cell has run."""
    for menu, item in (("Edit", "Clear Outputs of All Cells"), ("Run", "Run All Cells")):
        page.locator(".lm-MenuBar-itemLabel").get_by_text(menu, exact=True).click()
        page.locator(".lm-Menu-itemLabel").get_by_text(item, exact=True).click()
        if item.startswith("Clear"):
            _wait(lambda: page.evaluate(PROGRESS_JS)["ran"] == 0, 10, "the outputs were not cleared")
    end = time.monotonic() + NOTEBOOK_RUN_S
    idle_since = None
    while True:
        progress = page.evaluate(PROGRESS_JS)
        if progress["running"] == 0 and progress["ran"] >= cells_to_run and lab.kernel_state(notebook) == "idle":
            return
        stopped = progress["running"] == 0 and lab.kernel_state(notebook) == "idle"
        idle_since = (idle_since or time.monotonic()) if stopped else None
        if idle_since is not None and time.monotonic() - idle_since > 3.0:
            where = "; ".join(f"cell {cell}: …{text.strip()[-300:]}" for cell, text in progress["errors"][:2])
            raise RunStopped(f"Run All stopped after {progress['ran']} of {cells_to_run} code cells"
                               + (f": {where}" if where else ""))
        if time.monotonic() >= end:
            raise TimeoutError(f"Run All had run {progress['ran']} of {cells_to_run} code cells after "
                               f"{NOTEBOOK_RUN_S:.0f} s ({progress['running']} still queued or running)")
        time.sleep(0.3)


def _photograph(page, element, path: Path) -> Optional[Path]:
    """The part of ``element`` the screen shows once it is scrolled to the top of the notebook."""
    clip = element.evaluate(SCROLL_AND_CLIP_JS)
    if clip["width"] < 1 or clip["height"] < 1:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), clip=clip)
    return path


def _toggle_sources(page, obs: Observation, shots: Path) -> None:
    """Click each "Python ⇄ Go" toggle that is off, once; measure and photograph the view it opens."""
    toggles = page.locator(f"{NB} .jp-OutputArea-output").get_by_role("button", name=TOGGLE_LABEL, exact=True)
    for i in range(toggles.count()):
        toggle = toggles.nth(i)
        if "mod-active" in (toggle.get_attribute("class") or ""):
            continue  # already open: its view is measured with the others
        output = toggle.locator("xpath=ancestor::div[contains(@class, 'jp-OutputArea-output')][1]")
        cell = toggle.evaluate(_js("b => [...document.querySelectorAll('$NB .jp-Cell')]"
                                   ".indexOf(b.closest('.jp-Cell'))"))
        toggle.scroll_into_view_if_needed()
        toggle.click()
        pane = output.locator(".ksched-stepper-source .ksched-source")
        try:
            pane.first.wait_for(timeout=15_000)
        except Exception:  # noqa: BLE001 - reported as a finding, with the cell
            obs.toggled.append({"cell": cell, "opened": False})
            continue
        page.wait_for_timeout(200)
        obs.toggled.append({"cell": cell, "opened": True})
        shot = _photograph(page, output.locator(".ksched-stepper-source").first,
                           shots / f"{cell}-stepper-source.png")
        if shot:
            obs.shots.append(shot)


class Screen:
    """One page of JupyterLab that runs chapter after chapter, as a learner opens them from the file browser.

    The first chapter is opened by its URL, in a new workspace (so nothing else is restored
    beside it); the next ones with a double click in the file browser, after the previous
    chapter's tab was closed (its changes discarded) and its kernel shut down. After a failure the
    page is closed and the next chapter starts on a new one.
    """

    def __init__(self, context, lab: Lab) -> None:
        self.context, self.lab = context, lab
        self.page = None
        self.pages = 0
        self.errors: list[str] = []

    def _new_page(self, notebook: str) -> None:
        page = self.context.new_page()
        page.set_default_timeout(20_000)
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(
            f"console error: {msg.text} ({msg.location.get('url', '')}:{msg.location.get('lineNumber', '')})"))
        page.on("pageerror", lambda err: self.errors.append(f"page error: {err}"))
        self.page = page
        self.pages += 1  # a workspace of its own: nothing a failed page left open is restored
        page.goto(self.lab.url(f"lab/workspaces/ksched-screen-{self.pages}/tree/{notebook}"),
                  timeout=PAGE_READY_S * 1000)

    def _open(self, notebook: str) -> None:
        """The notebook open and current, its kernel idle, the file browser open."""
        if self.page is None:
            self._new_page(notebook)
        else:
            _show_file_browser(self.page)
            item = self.page.locator(".jp-DirListing-item").filter(
                has=self.page.locator(".jp-DirListing-itemText").get_by_text(notebook, exact=True))
            item.dblclick()
        page = self.page
        _wait(lambda: _current_tab(page) == notebook, PAGE_READY_S, f"{notebook} did not open")
        page.locator(f"{NB} .jp-Cell").first.wait_for(timeout=PAGE_READY_S * 1000)
        _show_file_browser(page)
        _wait(lambda: self.lab.kernel_state(notebook) == "idle", PAGE_READY_S,
              f"the kernel of {notebook} is not idle")

    def _close(self, notebook: str) -> None:
        """Close the notebook's tab, discarding its changes, and shut its kernel down."""
        page = self.page
        tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab").filter(
            has=page.locator(".lm-TabBar-tabLabel").get_by_text(notebook, exact=True))
        tab.locator(".lm-TabBar-tabCloseIcon").click()
        discard = page.locator(".jp-Dialog").get_by_role("button", name="Discard")
        try:
            discard.click(timeout=5_000)
        except Exception:  # noqa: BLE001 - no dialog: the notebook had no unsaved change
            pass
        _wait(lambda: page.locator(".jp-NotebookPanel").count() == 0, 10, f"{notebook} did not close")
        shut_down_kernel(self.lab, notebook)

    def run(self, notebook: str, shots: Path) -> Observation:
        """Open, Run All, measure and photograph ``notebook``; see the module docstring."""
        obs = Observation(notebook)
        start = phase_start = time.monotonic()
        source = self.lab.root_dir / notebook
        obs.steps = cell_steps(source)
        for old in shots.glob("*.png") if shots.is_dir() else ():
            old.unlink()
        self.errors = obs.errors

        def phase(name: str) -> None:
            nonlocal phase_start
            now = time.monotonic()
            obs.phases[name] = round(now - phase_start, 1)
            phase_start = now

        try:
            self._open(notebook)
            page = self.page
            phase("open")
            try:
                _run_all(page, self.lab, notebook, _code_cells_to_run(source))
            except RunStopped as stop:
                obs.failure = str(stop)
            phase("run")
            _wait(lambda: page.evaluate(DRAWN_JS), WIDGETS_DRAWN_S, "a widget output or an image was not drawn")
            page.wait_for_timeout(300)  # the last layout of what was just drawn
            phase("drawn")
            obs.roots = {int(cell): roots for cell, roots in page.evaluate(ROOTS_JS).items()}
            obs.buttons = page.evaluate(BUTTONS_JS)
            obs.wide = page.evaluate(WIDE_JS)
            outputs = page.locator(f"{NB} .jp-OutputArea-output")
            seen: dict[str, int] = {}
            for index, cell, kind in page.evaluate(SHOTS_JS):
                name = f"{cell}-{kind}"
                seen[name] = seen.get(name, 0) + 1
                suffix = "" if seen[name] == 1 else f"-{seen[name]}"
                shot = _photograph(page, outputs.nth(index), shots / f"{name}{suffix}.png")
                if shot:
                    obs.shots.append(shot)
            phase("photographed")
            _toggle_sources(page, obs, shots)
            obs.views = page.evaluate(VIEWS_JS)
            phase("toggled")
            self.errors = []  # what closing the tab logs is no finding of this chapter's
            self._close(notebook)
        except Exception as err:  # noqa: BLE001 - the test reports it with the page's picture
            obs.failure = (f"{obs.failure}; then " if obs.failure else "") + f"{type(err).__name__}: {err}"
            if self.page is not None:
                try:
                    shots.mkdir(parents=True, exist_ok=True)
                    self.page.screenshot(path=str(shots / "page-at-failure.png"))
                    obs.failure += f" (page: {shots / 'page-at-failure.png'})"
                except Exception:  # noqa: BLE001
                    pass
                self.page.close()
                self.page = None
            shut_down_kernel(self.lab, notebook)
        obs.seconds = time.monotonic() - start
        return obs

    def close(self) -> None:
        if self.page is not None:
            self.page.close()
            self.page = None


# --- judging a SourceView ----------------------------------------------------------------------

def go_column_problems(view: dict[str, Any]) -> list[str]:
    """What keeps a learner from reading one SourceView's Go: an empty list when nothing does."""
    where = f"cell {view['cell']}{' (stepper pane)' if view['in_stepper'] else ''} {view['go_name']!r}"
    py, go, code = view["python"], view["go"], view["code"]
    if go is None or py is None or not view["go_visible"] or go["width"] < 1 or go["height"] < 1:
        return [f"{where}: the Go column is not shown"]
    problems = []
    side_by_side = abs(go["top"] - py["top"]) <= 2 and go["left"] >= py["right"] - 1
    stacked = go["top"] >= py["bottom"] - 1 and abs(go["left"] - py["left"]) <= 2
    notebook_width, output_width = view["notebook"]["client_width"], view["output"]["client_width"]
    if side_by_side and go["width"] < SIDE_BY_SIDE_MIN_SHARE * notebook_width:
        problems.append(f"{where}: the Go column beside the Python is {go['width']:.0f} px wide, under "
                        f"{SIDE_BY_SIDE_MIN_SHARE:.0%} of the notebook's {notebook_width} px")
    elif stacked and go["width"] < STACKED_MIN_SHARE * output_width:
        problems.append(f"{where}: the Go column under the Python is {go['width']:.0f} px wide, under "
                        f"{STACKED_MIN_SHARE:.0%} of its output area's {output_width} px")
    elif not side_by_side and not stacked:
        problems.append(f"{where}: the Go column is neither beside the Python nor under it "
                        f"(Python {py}, Go {go})")
    right_edge = min(view["notebook"]["right"], view["panel"]["right"], view["viewport_width"])
    left_edge = max(view["notebook"]["left"], view["panel"]["left"], 0)
    if code["right"] > right_edge + 1 or code["left"] < left_edge - 1:
        problems.append(f"{where}: the Go code spans x={code['left']:.0f}..{code['right']:.0f}, outside the "
                        f"notebook panel's x={left_edge:.0f}..{right_edge:.0f}")
    out = view["output"]
    if out["scroll_width"] > out["client_width"] + 1:
        problems.append(f"{where}: its output area scrolls sideways ({out['scroll_width']} px of content in "
                        f"{out['client_width']} px)")
    return problems
