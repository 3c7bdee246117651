"""The package installed with pip in a fresh virtual environment, then every chapter from a folder
with nothing of the repository in it.

The installed package reads its data from ``ksched_edu/_data`` (package data), not from a
checkout: each chapter runs in a temporary folder holding its ``.ipynb`` alone, with the
kernel of the virtual environment (see ``conftest.installed``: README.md's ``pip install``
commands). Chapter 09 uses ``data/gpu-sample`` (``KSCHED_EDU_OPENB`` is not passed on).
Chapters run two at a time, each in its own process, and each must print what its committed
copy prints: the text outputs, compared as ``.ci/test`` compares them under nbval, a data
file's path aside (``DATA_PATH``).
"""
from __future__ import annotations

import configparser
import json
import os
import re
import subprocess
import textwrap
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Iterator

import pytest

from .conftest import ROOT, TIMEOUT_S, Installed

CHAPTERS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
WORKERS = max(1, min(2, os.cpu_count() or 1))
CELL_TIMEOUT_S = 300
SANITIZE = ROOT / ".ci" / "nbval-sanitize.cfg"

RUN_CHAPTER = textwrap.dedent("""
    import sys
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(sys.argv[1], as_version=4)
    NotebookClient(nb, timeout=int(sys.argv[3]), kernel_name="python3",
                   resources={"metadata": {"path": "."}}).execute()
    nbformat.write(nb, sys.argv[2])
    import ksched_edu.resources as r
    print("data root:", r.data_root())
""")


def _sanitizers() -> list[tuple[re.Pattern, str]]:
    parser = configparser.ConfigParser()
    parser.read(SANITIZE)
    return [(re.compile(parser[s]["regex"]), parser[s]["replace"]) for s in parser.sections()]


# A data file's path as a chapter may print it: ../data/... in a checkout, .../ksched_edu/_data/...
# installed. Only where the data sits differs; both read the same, from DATA/.
DATA_PATH = (re.compile(r"""[^\s'"]*(?:ksched_edu/_data|\bdata)/"""), "DATA/")
# Cells whose output nbval does not compare: by a cell tag, or a comment line in the cell.
NOT_COMPARED = {"nbval-ignore-output", "nbval-skip"}
NOT_COMPARED_MARKERS = {"NBVAL_IGNORE_OUTPUT", "NBVAL_SKIP", "PYTEST_VALIDATE_IGNORE_OUTPUT"}


def _compared(cell: dict) -> bool:
    source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    markers = {line.strip().lstrip("#").strip() for line in source.splitlines() if line.strip().startswith("#")}
    return not (NOT_COMPARED & set(cell.get("metadata", {}).get("tags", [])) or NOT_COMPARED_MARKERS & markers)


def text_outputs(nb: dict) -> list[list[str]]:
    """Per code cell, its text outputs (streams, text/plain, errors), sanitized as nbval's are
    (``.ci/nbval-sanitize.cfg``, and ``DATA_PATH``); empty for a cell nbval does not compare."""
    subs = _sanitizers() + [DATA_PATH]

    def clean(text) -> str:
        text = "".join(text) if isinstance(text, list) else str(text)
        for pattern, replace in subs:
            text = pattern.sub(replace, text)
        return text

    cells = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        if not _compared(cell):
            cells.append([])
            continue
        shown = []
        for out in cell.get("outputs", []):
            if out["output_type"] == "stream":  # one stream's consecutive writes are one output, as in nbval
                head = f"{out['name']}: "
                text = "".join(out["text"]) if isinstance(out["text"], list) else out["text"]
                if shown and shown[-1][0] == head:
                    shown[-1] = (head, shown[-1][1] + text)
                else:
                    shown.append((head, text))
            elif out["output_type"] == "error":
                shown.append(("error: ", f"{out['ename']}: {out['evalue']}"))
            elif "text/plain" in out.get("data", {}):
                shown.append((f"{out['output_type']}: ", out["data"]["text/plain"]))
        cells.append([head + clean(text) for head, text in shown])
    return cells


@pytest.fixture(scope="session")
def chapter_runs(installed: Installed, tmp_path_factory) -> Iterator[dict[str, Future]]:
    """Every chapter started in the installed environment, ``WORKERS`` at a time."""
    base = tmp_path_factory.mktemp("chapters")
    pool = ThreadPoolExecutor(max_workers=WORKERS)

    def run_one(chapter: str) -> tuple[subprocess.CompletedProcess, Path, float]:
        work = base / Path(chapter).stem
        work.mkdir()
        (work / chapter).write_bytes((ROOT / "notebooks" / chapter).read_bytes())
        start = time.monotonic()
        done = subprocess.run([str(installed.python), "-c", RUN_CHAPTER, chapter, "executed.ipynb",
                               str(CELL_TIMEOUT_S)], cwd=work, env=installed.env, capture_output=True,
                              text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
        return done, work / "executed.ipynb", time.monotonic() - start

    start = time.monotonic()
    runs = {chapter: pool.submit(run_one, chapter) for chapter in CHAPTERS}
    yield runs
    pool.shutdown(wait=True)
    print(f"\ninstalled package: {installed.seconds:.0f} s to install; {len(CHAPTERS)} chapters, {WORKERS} at a "
          f"time, {time.monotonic() - start:.0f} s; each: " +
          ", ".join(f"{c[:2]} {runs[c].result()[2]:.0f} s" for c in CHAPTERS if not runs[c].exception()))


def test_the_chapters_are_found():
    assert len(CHAPTERS) >= 12 and CHAPTERS[0] == "00_tour.ipynb", CHAPTERS


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_runs_from_the_installed_package(chapter: str, chapter_runs: dict[str, Future]):
    done, executed, _ = chapter_runs[chapter].result()  # executed.ipynb, beside the chapter as it was copied
    assert done.returncode == 0, f"{chapter} failed from the installed package:\n{done.stdout[-3000:]}\n" \
                                 f"{done.stderr[-5000:]}"
    root = done.stdout.strip().splitlines()[-1].removeprefix("data root: ")
    assert Path(root).parts[-2:] == ("ksched_edu", "_data") and "site-packages" in root, root
    got = text_outputs(json.loads(executed.read_text()))
    want = text_outputs(json.loads((executed.parent / chapter).read_text()))
    differ = [i for i, (g, w) in enumerate(zip(got, want)) if g != w]
    assert len(got) == len(want) and not differ, (
        f"{chapter}: code cell {differ[0] if differ else len(want)} prints otherwise from the installed package:\n"
        f"--- committed\n{''.join(want[differ[0]]) if differ else ''}\n"
        f"--- installed\n{''.join(got[differ[0]]) if differ else ''}")
