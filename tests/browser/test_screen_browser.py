"""What a learner sees, chapter by chapter, on a laptop screen: 1366x768, the file browser open.

One JupyterLab serves every chapter in ``notebooks/`` (the list is read when the tests are
collected); each chapter is opened in a fresh page of one headless Chromium, run with
Run > Run All Cells, and read (``screen.py``). The SourceViews read Go from fake checkouts
(``tests/go_fixture.py``), so every Go column has lines to show. For each chapter:

- every SourceView's Go column is visible: beside the Python and at least 40% of the
  notebook's width, or under it at nearly the output area's full width; its code lies inside
  the notebook panel and the viewport, and its output area does not scroll sideways;
- the same for the SourceView each CycleStepper's "Python ⇄ Go" toggle opens (one click);
- no button label of a widget is cut (its scrollWidth fits its clientWidth);
- no console error and no page error.

And per cell whose output is a stepping widget: when the cell's metadata names the step its
prose describes (``{"ksched": {"at": "<step>"}}``), the widget's root element carries the class
``ksched-at-<step>`` (characters outside [A-Za-z0-9_-] become '-'); without the metadata the
check is skipped.

Every widget output, figure and traceback is photographed as the screen shows it, scrolled to
the top of the notebook: ``.cache/screenshots/<notebook stem>/<cell>-<kind>.png`` under the
project (kind: widget, image, error, stepper-source), or under ``$KSCHED_EDU_SCREENSHOTS``.
A chapter whose Run All stops at a failing cell is still read and photographed up to there.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterator

import pytest

from ..go_fixture import checkout_env
from .conftest import CHROMIUM_ARGS, ROOT, Lab, running_lab
from .screen import VIEWPORT, Observation, Screen, at_class, go_column_problems, widget_cells

pytestmark = pytest.mark.browser

NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
WIDGET_CELLS = [(nb, cell) for nb in NOTEBOOKS for cell in widget_cells(ROOT / "notebooks" / nb)]


def screenshot_root() -> Path:
    return Path(os.environ.get("KSCHED_EDU_SCREENSHOTS") or ROOT / ".cache" / "screenshots")


@pytest.fixture(scope="module")
def screen_lab(chromium_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """The lab reads the Go from fake checkouts; with KSCHED_EDU_SCREEN_GO=1 and a real checkout
    named by KSCHED_EDU_K8S_SRC (and KSCHED_EDU_SCHEDULER_PLUGINS_SRC), the screenshots show the real Go."""
    tmp = tmp_path_factory.mktemp("screen")
    env = checkout_env(tmp / "go")
    if os.environ.get("KSCHED_EDU_SCREEN_GO") == "1":
        env.update({name: os.environ[name] for name in ("KSCHED_EDU_K8S_SRC", "KSCHED_EDU_SCHEDULER_PLUGINS_SRC")
                    if os.environ.get(name)})
    with running_lab(tmp / "lab", env) as lab:
        yield lab


@pytest.fixture(scope="module")
def screen_context(chromium_path: Path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS, timeout=30_000)
        try:
            yield browser.new_context(viewport=VIEWPORT)
        finally:
            browser.close()


@pytest.fixture(scope="module")
def observe(screen_lab: Lab, screen_context) -> Iterator[Callable[[str], Observation]]:
    """notebook -> what it showed; each chapter runs once, for whichever test asks first."""
    seen: dict[str, Observation] = {}
    screen = Screen(screen_context, screen_lab)

    def observe_notebook(notebook: str) -> Observation:
        if notebook not in seen:
            if not (screen_lab.root_dir / notebook).exists():
                pytest.skip(f"notebooks/{notebook} is gone since the tests were collected")
            shots = screenshot_root() / Path(notebook).stem
            seen[notebook] = screen.run(notebook, shots)
        return seen[notebook]

    yield observe_notebook
    screen.close()


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_what_the_learner_sees(observe, notebook: str) -> None:
    obs = observe(notebook)
    print(f"{notebook}: {obs.seconds:.1f} s, {len(obs.views)} SourceView(s), {len(obs.buttons)} button(s), "
          f"{len(obs.shots)} screenshot(s) in {screenshot_root() / Path(notebook).stem}; {obs.phases}")
    problems = [obs.failure] if obs.failure else []
    problems += [p for view in obs.views for p in go_column_problems(view)]
    problems += [f"cell {t['cell']}: the {'Python ⇄ Go'!r} toggle opened no SourceView"
                 for t in obs.toggled if not t["opened"]]
    problems += [f"cell {b['cell']}: the label of button {b['label']!r} is cut "
                 f"({b['scroll_width']} px of text in {b['client_width']} px)"
                 for b in obs.buttons if b["scroll_width"] > b["client_width"]]
    problems += [f"cell {w['cell']}: a table ({w['text']!r}...) runs past the notebook's edge "
                 f"(x={w['right']:.0f} > {w['edge']:.0f}) with no sideways scroll of its own" for w in obs.wide]
    problems += obs.errors
    assert not problems, f"{notebook}:\n" + "\n".join(problems)


@pytest.mark.parametrize("notebook,cell", WIDGET_CELLS, ids=[f"{nb}-cell{c}" for nb, c in WIDGET_CELLS])
def test_each_widget_stands_at_the_step_its_prose_names(observe, notebook: str, cell: int) -> None:
    obs = observe(notebook)
    step = obs.steps.get(cell)
    if step is None:
        pytest.skip(f'cell {cell} of {notebook} names no step (no {{"ksched": {{"at": ...}}}} metadata)')
    roots = obs.roots.get(cell, [])
    assert roots, f"cell {cell} of {notebook} names step {step!r} but shows no widget" + (
        f" ({obs.failure})" if obs.failure else "")
    wanted = at_class(step)
    assert any(wanted in classes for classes in roots), (
        f"cell {cell} of {notebook}: its prose names step {step!r}, but no widget of its output carries "
        f"{wanted!r} (their classes: {roots})")
