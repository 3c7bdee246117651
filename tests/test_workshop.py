"""The instructor's kit stays true to the chapters it is written from.

``workshop/answer-key.md`` is generated from the chapters' ``# EXERCISE`` cells and
the checks' hint tables: a chapter or a hint that changes without the key being
written again fails here, naming the command that writes it.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_answer_key_is_current() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "workshop" / "answer_key.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, ("workshop/answer-key.md is out of date: run "
                                 f"`.venv/bin/python workshop/answer_key.py`\n{run.stdout}{run.stderr}")


def test_every_chapter_with_exercises_is_in_the_key() -> None:
    key = (ROOT / "workshop" / "answer-key.md").read_text()
    chapters = [nb.stem for nb in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
                if "# EXERCISE" in nb.read_text()]
    assert chapters and all(name in key for name in chapters), chapters
