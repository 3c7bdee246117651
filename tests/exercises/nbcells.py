"""Run notebook cells in this process, with IPython, and collect what each printed.

Used by the exercise tests: a stripped exercise cell and its check cell are run
in a fresh namespace (the notebook's folder as working directory); when the
pair needs names from earlier cells, the notebook is run from the top instead.
"""
from __future__ import annotations

import contextlib
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from ksched_edu.exercises.strip import cell_source, is_exercise_cell


@dataclass(frozen=True)
class Exercise:
    notebook: Path
    exercise_index: int  # index of the `# EXERCISE` cell in nb["cells"]
    check_index: int  # index of the code cell after it (the check)

    @property
    def id(self) -> str:
        return f"{self.notebook.stem}-cell{self.exercise_index}"


@dataclass
class CellRun:
    stdout: str
    error: Optional[BaseException]


def find_exercises(path: Path, nb: dict[str, Any]) -> list[Exercise]:
    cells = nb["cells"]
    found = []
    for i, cell in enumerate(cells):
        if is_exercise_cell(cell):
            check = next((j for j in range(i + 1, len(cells)) if cells[j]["cell_type"] == "code"), -1)
            found.append(Exercise(path, i, check))
    return found


def _instance() -> Any:
    os.environ.setdefault("MPLBACKEND", "Agg")
    from IPython.core.interactiveshell import InteractiveShell

    return InteractiveShell.instance()


def close_shell() -> None:
    """Drop the shell, so that later tests in the same process see no IPython."""
    from IPython.core.interactiveshell import InteractiveShell

    if InteractiveShell.initialized():
        InteractiveShell.instance().cleanup()
        InteractiveShell.clear_instance()
    _BASE.clear()


def _shell() -> Any:
    """The IPython shell, its namespace emptied."""
    shell = _instance()
    shell.reset(new_session=False)
    return shell


def run_cells(sources: list[str], cwd: Path, namespace: Optional[dict[str, Any]] = None) -> list[CellRun]:
    """Run ``sources`` one after another in a fresh IPython namespace (or a copy of ``namespace``).

    Stops at the first error.
    """
    shell = _shell()
    if namespace is not None:
        shell.user_ns.update(namespace)
    runs: list[CellRun] = []
    old = Path.cwd()
    os.chdir(cwd)
    try:
        for src in sources:
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                result = shell.run_cell(src, store_history=False, silent=False)
            error = result.error_before_exec or result.error_in_exec
            runs.append(CellRun(buf.getvalue(), error))
            if error is not None:
                break
    finally:
        os.chdir(old)
    return runs


_BASE: dict[Path, dict[str, Any]] = {}


def base_namespace(nb: dict[str, Any], path: Path) -> dict[str, Any]:
    """The names every cell before the notebook's first exercise defines (run once per notebook)."""
    if path not in _BASE:
        first = min(ex.exercise_index for ex in find_exercises(path, nb))
        before = [cell_source(c) for c in nb["cells"][:first] if c["cell_type"] == "code"]
        runs = run_cells(before, path.parent)
        if runs and runs[-1].error is not None:
            raise RuntimeError(f"{path.name}: a cell before the exercises failed: {runs[-1].error!r}")
        shell = _instance()
        hidden = set(shell.user_ns_hidden)
        _BASE[path] = {k: v for k, v in shell.user_ns.items() if k not in hidden and not k.startswith("_")}
    return _BASE[path]


def run_pair(nb: dict[str, Any], ex: Exercise, exercise_source: str) -> CellRun:
    """The check cell's output after ``exercise_source``.

    The pair runs on its own first; if it needs names from earlier cells, it
    runs again on the names the cells before the first exercise defined.
    """
    cells = nb["cells"]
    check_source = cell_source(cells[ex.check_index])
    runs = run_cells([exercise_source, check_source], ex.notebook.parent)
    if not isinstance(runs[-1].error, NameError):
        return runs[-1]
    runs = run_cells([exercise_source, check_source], ex.notebook.parent, dict(base_namespace(nb, ex.notebook)))
    return runs[-1]


def committed_text(cell: dict[str, Any]) -> str:
    """Everything a cell's committed outputs printed (streams and text/plain)."""
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append("".join(out.get("text", "")))
        elif "data" in out:
            parts.append("".join(out["data"].get("text/plain", "")))
        elif out.get("output_type") == "error":
            parts.append(f"{out.get('ename')}: {out.get('evalue')}")
    return "".join(parts)
