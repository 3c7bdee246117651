"""Time every chapter's run and write workshop/timings.md, the table the workshop plans use.

    .venv/bin/python workshop/timings.py                            # run every chapter, rewrite timings.md
    .venv/bin/python workshop/timings.py --measure 04_schedule_one  # run only these; keep the others' run times
    .venv/bin/python workshop/timings.py --keep-run-times           # run nothing; keep every listed run time
    .venv/bin/python workshop/timings.py --check                    # exit 1 when timings.md is out of date

What is measured. Each chapter is executed as ``jupyter nbconvert --to notebook --execute``
does it (from ``notebooks/``, into a temporary folder: the committed chapters are not
touched), one after the other, and timed on the wall clock. A run time depends on the
machine and on what else it is doing; on a shared machine one run may differ from the next
by a third. ``--measure`` and ``--keep-run-times`` keep the run times timings.md lists
(for the chapters not measured again), and recount everything else.

What is estimated. The time a learner spends on a chapter, in minutes, is not measured: it
is a rule of thumb, made of two parts, each counted from the committed chapter:

- Reading: the words of the chapter's prose (its Markdown cells) at 120 words a minute,
  slow, technical reading with the code and its output beside it.
- Exercises: each ``# EXERCISE`` cell, by what its working solution (the code the committed
  chapter holds in that cell, comments and blank lines left out) asks the learner to do:

  - *predict*: set a value, a list or a table of values worked out from the chapter:
    8 minutes (read the question, work it out, run the check, read its hint once).
  - *write*: write a function, a class or a configuration (the solution has a ``def``, a
    ``class`` or a multi-line string): 20 minutes.
  - *project*: write a plugin set, one plugin that implements three or more extension
    points (the solution defines three or more of ``less``, ``pre_filter``, ``filter``,
    ``post_filter``, ``pre_score``, ``score``, ``normalize_score``, ``reserve``,
    ``permit``, ``pre_bind``, ``bind``, ``post_bind``): 2 to 3 hours. That is the capstone
    (``11_capstone``): five extension points, each with the status codes upstream's
    contracts ask for, then registering it, running the workload with it and reading why
    it behaved as it did; the check's hints take a learner through it one point at a time.

The estimate is given as a range where the exercises' time is one (a project).
"""
from __future__ import annotations

import argparse
import ast
import json
import math
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
OUT = Path(__file__).resolve().parent / "timings.md"
WORDS_PER_MINUTE = 120
# Minutes per exercise, (least, most), by what the exercise asks for.
EXERCISE_MINUTES = {"predict": (8, 8), "write": (20, 20), "project": (120, 180)}
EXTENSION_POINT_METHODS = {"less", "pre_filter", "filter", "post_filter", "pre_score", "score", "normalize_score",
                           "reserve", "permit", "pre_bind", "bind", "post_bind"}
PLUGIN_SET_POINTS = 3  # a solution that implements this many extension points is a plugin set
HEADER = ("| Chapter | Run (s, measured) | Prose (words) | Reading (min) | Exercises | "
          "Exercises (min) | Reading + exercises (min, estimate) |")


@dataclass(frozen=True)
class Chapter:
    name: str
    words: int
    kinds: tuple[str, ...]  # one per exercise, in order: predict, write or project

    @property
    def reading(self) -> int:
        return math.ceil(self.words / WORDS_PER_MINUTE)

    def exercises(self) -> tuple[int, int]:
        return (sum(EXERCISE_MINUTES[k][0] for k in self.kinds), sum(EXERCISE_MINUTES[k][1] for k in self.kinds))

    def row(self, seconds: str) -> str:
        kinds = ", ".join(f"{self.kinds.count(k)} {k}" for k in EXERCISE_MINUTES if k in self.kinds) or "none"
        low, high = self.exercises()
        return (f"| `{self.name}` | {seconds} | {self.words} | {self.reading} | {kinds} | "
                f"{span(low, high)} | {span(self.reading + low, self.reading + high)} |")


def span(low: int, high: int) -> str:
    """Minutes, or a range of them; from 2 hours on, in hours too."""
    text = str(low) if low == high else f"{low}–{high}"
    if high >= 120:
        text += f" ({hours(low)}" + ("" if low == high else f" to {hours(high)}") + ")"
    return text


def hours(minutes: int) -> str:
    return f"{minutes // 60} h" + (f" {minutes % 60:02d}" if minutes % 60 else "")


def exercise_kind(solution: str) -> str:
    """predict, write or project: what the working solution of an ``# EXERCISE`` cell does."""
    tree = ast.parse(solution)
    methods = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    if len(methods & EXTENSION_POINT_METHODS) >= PLUGIN_SET_POINTS:
        return "project"
    multi_line_string = any(isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" in node.value
                            for node in ast.walk(tree))
    if methods or any(isinstance(node, ast.ClassDef) for node in ast.walk(tree)) or multi_line_string:
        return "write"
    return "predict"


def chapter_facts(path: Path) -> Chapter:
    """The words of a chapter's prose and the kind of each of its exercises."""
    cells = json.loads(path.read_text())["cells"]
    words = sum(len(re.findall(r"\w+", "".join(c["source"]))) for c in cells if c["cell_type"] == "markdown")
    kinds = tuple(exercise_kind("".join(c["source"])) for c in cells if c["cell_type"] == "code"
                  and "".join(c["source"]).lstrip().startswith("# EXERCISE"))
    return Chapter(path.stem, words, kinds)


def chapters() -> list[Path]:
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def listed_rows(text: str) -> dict[str, list[str]]:
    """The table timings.md holds: chapter name -> its cells, as written."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and cells:
            rows[cells[0].strip("`")] = cells
    return rows


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


def check() -> int:
    """Exit status 1, naming each difference, when timings.md does not list the chapters as they are."""
    listed = listed_rows(OUT.read_text()) if OUT.exists() else {}
    stale = []
    for path in chapters():
        facts = chapter_facts(path)
        row = listed.pop(facts.name, None)
        if row is None:
            stale.append(f"{facts.name}: not listed")
            continue
        expected = [c.strip() for c in facts.row(row[1]).strip().strip("|").split("|")]
        if row != expected:
            stale.append(f"{facts.name}: lists {' | '.join(row[2:])}; the chapter has {' | '.join(expected[2:])}")
    stale += [f"{name}: listed, but there is no such chapter" for name in listed]
    for line in stale:
        print(line)
    if stale:
        print("workshop/timings.md is out of date: run `.venv/bin/python workshop/timings.py` "
              "(or with --keep-run-times to recount without running the chapters)")
    return 1 if stale else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="exit 1 when timings.md is out of date; run nothing")
    group.add_argument("--keep-run-times", action="store_true",
                       help="run no chapter: keep the run times timings.md lists, recount the rest")
    group.add_argument("--measure", action="append", metavar="CHAPTER", default=[],
                       help="run only this chapter (e.g. 04_schedule_one; repeatable); keep the others' run times")
    args = parser.parse_args(argv)
    if args.check:
        return check()
    paths = chapters()
    unknown = set(args.measure) - {p.stem for p in paths}
    if unknown:
        parser.error(f"no such chapter: {', '.join(sorted(unknown))}")
    kept = {name: row[1] for name, row in listed_rows(OUT.read_text()).items()} if OUT.exists() else {}
    rows = [HEADER, "| --- | ---: | ---: | ---: | --- | ---: | ---: |"]
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            keep = args.keep_run_times or (args.measure and path.stem not in args.measure)
            if keep and path.stem in kept:
                seconds = kept[path.stem]
            else:
                seconds = f"{run_seconds(path, Path(tmp)):.0f}"
            rows.append(chapter_facts(path).row(seconds))
            print(rows[-1], flush=True)
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    minutes = ", ".join(f"{k} {span(*v)}" for k, v in EXERCISE_MINUTES.items())
    OUT.write_text(
        "# Chapter timings\n\n"
        f"Written by `workshop/timings.py` ({machine}; the machine was shared\n"
        "with other work while it ran).\n\n"
        "- Run: the whole chapter executed by nbconvert, in seconds, measured. It depends on the\n"
        "  machine and on its load: one run may differ from the next by a third.\n"
        f"- Reading: the prose (the Markdown cells' words) at {WORDS_PER_MINUTE} words a minute, an estimate.\n"
        "- Exercises: each `# EXERCISE` cell by what its solution asks for, an estimate in minutes:\n"
        f"  {minutes}.\n"
        "  *predict* sets values worked out from the chapter; *write* is a function, a class or a\n"
        "  configuration; *project* is a plugin set (three or more extension points in one plugin),\n"
        "  the capstone's exercise. `workshop/timings.py` says how each kind is recognised.\n\n"
        + "\n".join(rows) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
