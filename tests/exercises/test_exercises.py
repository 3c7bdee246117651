"""Every exercise of every notebook: the solution passes its check, the stripped copy fails it with a hint.

An exercise is a code cell starting with ``# EXERCISE``; its check is the next
code cell. The committed (executed) notebook must show ``✔`` under the check;
run after the stripped cell, the check must print ``✘ ... Hint: ...`` and
raise nothing.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from ksched_edu.exercises.core import FAIL_MARK, PASS_MARK
from ksched_edu.exercises.strip import EXERCISE_MARK, cell_source, strip_notebook, strip_source

from .nbcells import close_shell, committed_text, find_exercises, run_pair

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
# The chapter markers pyproject.toml declares ("ch00", ...): each exercise is marked with its chapter's.
MARKERS = set(re.findall(r'"(ch\d\d):', (ROOT / "pyproject.toml").read_text()))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _all_exercises() -> list:
    found = []
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        found += find_exercises(path, _load(path))
    return found


def _param(ex) -> object:
    marker = "ch" + ex.notebook.stem.split("_")[0]
    return pytest.param(ex, id=ex.id, marks=[getattr(pytest.mark, marker)] if marker in MARKERS else [])


EXERCISES = _all_exercises()
PARAMS = [_param(ex) for ex in EXERCISES]


@pytest.fixture(autouse=True, scope="module")
def _own_shell():
    """The cells run in one IPython shell, closed when this module is done."""
    saved = sys.displayhook, sys.excepthook
    yield
    close_shell()
    sys.displayhook, sys.excepthook = saved


def test_there_are_exercises() -> None:
    assert EXERCISES, f"no `{EXERCISE_MARK}` cell in {NOTEBOOKS}"


@pytest.mark.parametrize("ex", PARAMS)
def test_check_cell_follows_exercise(ex) -> None:
    nb = _load(ex.notebook)
    assert ex.check_index > ex.exercise_index, "an exercise needs a check cell after it"
    assert "check_" in cell_source(nb["cells"][ex.check_index]), "the cell after an exercise calls a check_* function"


@pytest.mark.parametrize("ex", PARAMS)
def test_committed_solution_passes(ex) -> None:
    text = committed_text(_load(ex.notebook)["cells"][ex.check_index])
    assert PASS_MARK in text and FAIL_MARK not in text, f"the executed notebook's check printed {text!r}"


@pytest.mark.parametrize("ex", PARAMS)
def test_solution_passes_when_run(ex) -> None:
    nb = _load(ex.notebook)
    run = run_pair(nb, ex, cell_source(nb["cells"][ex.exercise_index]))
    assert run.error is None, f"the check raised {run.error!r}"
    assert PASS_MARK in run.stdout and FAIL_MARK not in run.stdout, run.stdout


@pytest.mark.parametrize("ex", PARAMS)
def test_stripped_exercise_fails_with_hint(ex) -> None:
    nb = _load(ex.notebook)
    stripped = strip_source(cell_source(nb["cells"][ex.exercise_index]))
    assert stripped.startswith(EXERCISE_MARK)
    run = run_pair(nb, ex, stripped)
    assert run.error is None, f"after stripping, the check raised {run.error!r} instead of printing a verdict"
    assert FAIL_MARK in run.stdout and "Hint:" in run.stdout, run.stdout
    assert PASS_MARK not in run.stdout, run.stdout


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_strip_notebook_clears_every_output(path: Path) -> None:
    stripped = strip_notebook(_load(path))
    for cell in stripped["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
