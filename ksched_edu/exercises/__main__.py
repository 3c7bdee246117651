"""``python -m ksched_edu.exercises strip NOTEBOOKS OUT``: write the learner's copy of the course."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

from ksched_edu.exercises.strip import is_exercise_cell, read_notebook, referenced_files, strip_tree


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ksched_edu.exercises",
                                 description="Tools for the course's exercises.")
    sub = ap.add_subparsers(dest="command", required=True)
    st = sub.add_parser("strip", help="copy notebooks with every exercise's solution replaced by a placeholder, "
                                      "and the pictures and files their text shows")
    st.add_argument("src", help="a folder of notebooks (or one notebook)")
    st.add_argument("out", help="the folder to write the stripped notebooks to")
    args = ap.parse_args(argv)
    src = Path(args.src)
    if not src.exists():
        print(f"{src}: no such file or directory", file=sys.stderr)
        return 2
    for path in strip_tree(src, Path(args.out)):
        n = sum(is_exercise_cell(c) for c in read_notebook(path)["cells"])
        print(f"{path}: {n} exercise(s) stripped")
    sources = [src] if src.is_file() else sorted(src.glob("*.ipynb"))
    for rel in sorted({rel for notebook in sources for rel in referenced_files(notebook)}):
        print(f"{Path(args.out) / rel}: copied (a chapter shows it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
