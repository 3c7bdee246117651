"""The strip tool: what a learner's copy of an exercise cell looks like."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ksched_edu.exercises.strip import is_exercise_cell, strip_notebook, strip_source

ROOT = Path(__file__).resolve().parents[2]

CASES = [
    ("an assignment keeps its name",
     "# EXERCISE: the winner.\nwinner = 'n3'\n",
     "# EXERCISE: the winner.\n# Your code here.\nwinner = ...  # your answer"),
    ("instructions over several comment lines stay",
     "# EXERCISE\n# line one\n# line two\n\nx, y = 1, 2\n",
     "# EXERCISE\n# line one\n# line two\n# Your code here.\nx, y = ...  # your answer"),
    ("imports stay, a function keeps its signature and docstring",
     "# EXERCISE\nimport math\ndef f(a: int) -> int:\n    '''Twice a.'''\n    return 2 * a\n",
     "# EXERCISE\nimport math\n\n# Your code here.\ndef f(a: int) -> int:\n    \"\"\"Twice a.\"\"\"\n"
     "    raise NotImplementedError('your code here')"),
    ("a class keeps its header, methods and attributes as stubs",
     "# EXERCISE\nclass P:\n    NAME = 'P'\n    def name(self):\n        return self.NAME\n",
     "# EXERCISE\n# Your code here.\nclass P:\n    NAME = ...\n\n    def name(self):\n"
     "        raise NotImplementedError('your code here')"),
    ("other statements go",
     "# EXERCISE\nx = 1\nprint(x)\nfor i in range(3):\n    x += i\n",
     "# EXERCISE\n# Your code here.\nx = ...  # your answer"),
]


@pytest.mark.parametrize("source,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_strip_source(source: str, expected: str) -> None:
    assert strip_source(source) == expected


def _nb(*cells: dict) -> dict:
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": list(cells)}


def _code(src: str, outputs: list | None = None) -> dict:
    return {"cell_type": "code", "id": "x", "metadata": {}, "source": src, "execution_count": 3,
            "outputs": outputs or [{"output_type": "stream", "name": "stdout", "text": "hi\n"}]}


@pytest.mark.parametrize("cell,expected", [
    (_code("# EXERCISE\nx = 1"), True),
    (_code("  # EXERCISE: indented mark\nx = 1"), True),
    (_code("x = 1\n# EXERCISE"), False),
    ({"cell_type": "markdown", "id": "m", "metadata": {}, "source": "# EXERCISE"}, False),
], ids=["first line", "leading spaces", "not the first line", "markdown cell"])
def test_is_exercise_cell(cell: dict, expected: bool) -> None:
    assert is_exercise_cell(cell) is expected


def test_strip_notebook_leaves_the_original_alone() -> None:
    nb = _nb(_code("print('setup')"), _code("# EXERCISE\nx = 1"), _code("check(x)"))
    out = strip_notebook(nb)
    assert nb["cells"][1]["source"] == "# EXERCISE\nx = 1" and nb["cells"][0]["outputs"]
    assert out["cells"][0]["source"] == "print('setup')"
    assert out["cells"][1]["source"] == "# EXERCISE\n# Your code here.\nx = ...  # your answer"
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in out["cells"])


def test_command_line_writes_the_learner_copy(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "01_x.ipynb").write_text(json.dumps(_nb(_code("# EXERCISE\nanswer = 42"), _code("check(answer)"))))
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "ksched_edu.exercises", "strip", str(src), str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "1 exercise(s) stripped" in proc.stdout
    written = json.loads((out / "01_x.ipynb").read_text())
    assert written["cells"][0]["source"] == "# EXERCISE\n# Your code here.\nanswer = ...  # your answer"


def test_command_line_missing_folder(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "ksched_edu.exercises", "strip", str(tmp_path / "nope"),
                           str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and "no such file or directory" in proc.stderr
