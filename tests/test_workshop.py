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


def _timings():
    """workshop/timings.py as a module (the folder is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("workshop_timings", ROOT / "workshop" / "timings.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def test_timings_list_the_chapters_as_they_are() -> None:
    """Every chapter, with its words, reading time, exercises and estimate as the chapter has them now."""
    run = subprocess.run([sys.executable, str(ROOT / "workshop" / "timings.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, f"workshop/timings.md is out of date:\n{run.stdout}{run.stderr}"


def test_a_stale_word_count_fails_the_check(tmp_path, monkeypatch, capsys) -> None:
    timings = _timings()
    listed = (ROOT / "workshop" / "timings.md").read_text()
    words = timings.chapter_facts(ROOT / "notebooks" / "04_schedule_one.ipynb").words
    row = next(line for line in listed.splitlines() if line.startswith("| `04_schedule_one` |"))
    stale = tmp_path / "timings.md"
    stale.write_text(listed.replace(row, row.replace(f"| {words} |", f"| {words - 952} |")))
    monkeypatch.setattr(timings, "OUT", stale)
    assert timings.check() == 1
    assert "04_schedule_one: lists" in capsys.readouterr().out


def test_the_capstone_is_estimated_as_a_plugin_set() -> None:
    """Its one exercise is a plugin set (five extension points): 2 to 3 hours, not minutes."""
    timings = _timings()
    capstone = timings.chapter_facts(ROOT / "notebooks" / "11_capstone.ipynb")
    assert capstone.kinds == ("project",)
    assert capstone.exercises() == (120, 180)
    assert "| 1 project | 120–180 (2 h to 3 h) |" in (ROOT / "workshop" / "timings.md").read_text()
    # a chapter whose exercises ask for values stays at minutes
    assert set(timings.chapter_facts(ROOT / "notebooks" / "04_schedule_one.ipynb").kinds) == {"predict"}
