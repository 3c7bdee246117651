"""The learner's copy carries the files the chapters show (pictures), not only the chapters.

``python -m ksched_edu.exercises strip`` (which ``bash workshop/make-learner-copy`` runs) copies
every file a notebook's text shows or links to from beside it, at the same relative path, so a
learner sees no broken image.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from ksched_edu.exercises.strip import referenced_files

ROOT = Path(__file__).resolve().parents[2]
LANDING = "welcome.ipynb"  # the course map that bash .ci/lab opens first


def _notebook(*markdown: str) -> dict:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": text} for text in markdown]
    cells.append({"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [],
                  "source": "# EXERCISE\nanswer = 42"})
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}


def _strip(src: Path, out: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "ksched_edu.exercises", "strip", str(src), str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done


def test_the_files_a_chapter_shows_are_copied_and_nothing_else(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "images").mkdir(parents=True)
    for name in ("images/a b.png", "images/c.svg", "notes.txt", "images/unused.png"):
        (src / name).write_bytes(b"x")
    (tmp_path / "outside.png").write_bytes(b"x")
    (src / "01_x.ipynb").write_text(json.dumps(_notebook(
        '![a picture](images/a%20b.png "its title")\n\n<img src="images/c.svg" width="300">',
        "[the notes](notes.txt#top), [the web](https://example.org/x.png), [a chapter](02_y.ipynb)",
        "![gone](images/missing.png) ![up](../outside.png) ![absolute](/etc/hostname)",
    )))
    out = tmp_path / "learner"
    done = _strip(src, out)
    copied = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert copied == ["01_x.ipynb", "images/a b.png", "images/c.svg", "notes.txt"]
    assert f"{out / 'images/c.svg'}: copied (a chapter shows it)" in done.stdout
    assert "1 exercise(s) stripped" in done.stdout


def test_one_notebook_alone_takes_its_pictures_along(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "images").mkdir(parents=True)
    (src / "images" / "p.png").write_bytes(b"png")
    (src / "01_x.ipynb").write_text(json.dumps(_notebook("![p](images/p.png)")))
    _strip(src / "01_x.ipynb", tmp_path / "out")
    assert (tmp_path / "out" / "images" / "p.png").read_bytes() == b"png"


def test_every_file_the_chapters_show_is_in_the_learner_copy(tmp_path: Path) -> None:
    chapters = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")) + [ROOT / "notebooks" / LANDING]
    out = tmp_path / "learner"
    _strip(ROOT / "notebooks", out)
    assert sorted(p.name for p in out.glob("*.ipynb")) == sorted(p.name for p in chapters)
    for chapter in chapters:
        cells = json.loads(chapter.read_text())["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        # Whatever form a reference takes, a file under images/ that a chapter names is a picture it shows.
        named = {m for m in re.findall(r"images/[\w./-]+\w", text) if (ROOT / "notebooks" / m).is_file()}
        shown = set(referenced_files(chapter))
        assert named <= shown, f"{chapter.name}: {sorted(named - shown)} not found as references"
        missing = sorted(rel for rel in shown if not (out / rel).is_file())
        assert not missing, f"{chapter.name} shows {missing}, missing from the learner copy"


def test_the_chapters_folder_holds_chapters_and_pictures_only() -> None:
    """What a learner's file browser shows in notebooks/ (and the static site serves): the landing
    notebook, the chapters and their pictures; no tool's file."""
    others = sorted(p.relative_to(ROOT / "notebooks").as_posix() for p in (ROOT / "notebooks").rglob("*")
                    if p.is_file() and not {".ipynb_checkpoints", "__pycache__"} & set(p.parts)
                    and not re.fullmatch(r"\d\d_\w+\.ipynb", p.name) and p.name != LANDING
                    and p.parent.name != "images")
    assert not others, f"notebooks/ holds {others}: keep chapters and their images/ only (tools' files go in .ci/)"


def test_the_learner_copy_holds_the_chinese_edition_stripped_as_the_english(tmp_path: Path) -> None:
    out = tmp_path / "learner"
    _strip(ROOT / "notebooks", out)
    edition = sorted(p.name for p in (ROOT / "notebooks" / "zh-CN").glob("*.ipynb"))
    assert edition and sorted(p.name for p in (out / "zh-CN").glob("*.ipynb")) == edition
    for name in edition:
        english = [c for c in json.loads((out / name).read_text())["cells"] if c["cell_type"] == "code"]
        chinese = [c for c in json.loads((out / "zh-CN" / name).read_text())["cells"] if c["cell_type"] == "code"]
        assert ["".join(c["source"]) for c in chinese[1:]] == ["".join(c["source"]) for c in english], name
        assert 'set_language("zh_CN")' in "".join(chinese[0]["source"])
