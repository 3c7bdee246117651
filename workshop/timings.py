"""Time every chapter's run and write workshop/timings.md, the table the workshop plans use.

    .venv/bin/python workshop/timings.py

Each chapter is executed as ``jupyter nbconvert --to notebook --execute`` does it (from
``notebooks/``, into a temporary folder: the committed chapters are not touched), one after
the other, and timed on the wall clock. Beside each run time the table gives an estimate of
the time a learner spends reading and doing the exercises: the chapter's prose at 120 words
a minute (slow, technical reading with the code beside it) plus 8 minutes per exercise. The
estimate is a rule of thumb, not a measurement; the run time is measured.
"""
from __future__ import annotations

import json
import math
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(__file__).resolve().parent / "timings.md"
WORDS_PER_MINUTE = 120
MINUTES_PER_EXERCISE = 8


def chapter_facts(path: Path) -> tuple[int, int]:
    """(words of prose, exercises) of a chapter."""
    cells = json.loads(path.read_text())["cells"]
    words = sum(len(re.findall(r"\w+", "".join(c["source"]))) for c in cells if c["cell_type"] == "markdown")
    exercises = sum(1 for c in cells if c["cell_type"] == "code"
                    and "".join(c["source"]).lstrip().startswith("# EXERCISE"))
    return words, exercises


def run_seconds(path: Path, out_dir: Path) -> float:
    env = dict(os.environ, KSCHED_EDU_OFFLINE="1")
    start = time.monotonic()
    done = subprocess.run([str(ROOT / ".venv/bin/jupyter"), "nbconvert", "--to", "notebook", "--execute",
                           path.name, "--output-dir", str(out_dir)], cwd=path.parent, env=env,
                          capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        raise SystemExit(f"{path.name} failed:\n{done.stderr[-2000:]}")
    return seconds


def main() -> int:
    rows = ["| Chapter | Run (s, measured) | Prose (words) | Exercises | Reading + exercises (min, estimate) |",
            "| --- | ---: | ---: | ---: | ---: |"]
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
            seconds = run_seconds(path, Path(tmp))
            words, exercises = chapter_facts(path)
            minutes = math.ceil(words / WORDS_PER_MINUTE + MINUTES_PER_EXERCISE * exercises)
            rows.append(f"| `{path.stem}` | {seconds:.0f} | {words} | {exercises} | {minutes} |")
            print(rows[-1], flush=True)
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    OUT.write_text("# Chapter timings\n\nWritten by `workshop/timings.py` (" + machine + "; the machine was shared\n"
                   "with other work while it ran). Run: the whole chapter executed by\n"
                   "nbconvert. Reading + exercises: the prose at "
                   f"{WORDS_PER_MINUTE} words a minute plus {MINUTES_PER_EXERCISE} minutes per exercise,\n"
                   "an estimate.\n\n" + "\n".join(rows) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
