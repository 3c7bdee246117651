"""Write workshop/answer-key.md: every exercise of every chapter, where learners get stuck, the answer.

    .venv/bin/python workshop/answer_key.py            # rewrite workshop/answer-key.md
    .venv/bin/python workshop/answer_key.py --check    # exit 1 when the file is out of date

For each ``# EXERCISE`` cell of ``notebooks/NN_*.ipynb``: the question (the exercise's
paragraph), the check the next cell calls, the one-line hints that check can print
(read from its source in ``ksched_edu/exercises/chNN.py``: each ``hint=`` or ``*_hint=`` and each
``*_HINT`` / ``*_HINTS`` table it uses), and the working answer the committed chapter holds.
"""
from __future__ import annotations

import argparse
import ast
import inspect
import json
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ksched_edu import exercises  # noqa: E402

OUT = Path(__file__).resolve().parent / "answer-key.md"
CHECK_CALL = re.compile(r"exercises\.(check_\w+)\(")
QUESTION = re.compile(r"^\*\*(\d+)\.\*\*")


def render(node: ast.AST) -> str:
    """A string, an f-string (its holes as {…}) or a name, as the learner reads it."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{…}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return render(node.left) + render(node.right)
    if isinstance(node, ast.Name):
        return f"{{{node.id}}}"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "N_") and node.args:
        return render(node.args[0])  # a marked message: its English
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        text = render(node.func.value)  # its named fields, as an f-string's holes (a constant's name stays)
        return re.sub(r"\{(?![A-Z_]+\})[^{}]*\}", "{…}", text)
    return "{…}"


def module_constants(module) -> dict[str, str]:
    """The module's string constants (and string tables) by name, rendered."""
    tree = ast.parse(inspect.getsource(module))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            if isinstance(value, (ast.Constant, ast.JoinedStr, ast.BinOp, ast.Call)) or (
                    isinstance(value, ast.Tuple) and all(isinstance(e, ast.Constant) for e in value.elts)):
                text = (" ".join(render(e) for e in value.elts) if isinstance(value, ast.Tuple) else render(value))
                if isinstance(text, str) and text.strip():
                    found[name] = text
            elif isinstance(value, ast.Dict):
                found[name] = "; ".join(render(v) for v in value.values)
    return found


def hints_of(check) -> list[str]:
    """The hints ``check`` can print, in the order its source gives them."""
    module = sys.modules[check.__module__]
    constants = module_constants(module)
    tree = ast.parse(textwrap.dedent(inspect.getsource(check)))
    hints: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg is not None and (node.arg == "hint" or node.arg.endswith("_hint")):
            text = render(node.value)
            for name, value in constants.items():
                text = text.replace(f"{{{name}}}", value)
            if text == "{hint}":  # a local variable: the module's *_HINT tables hold the words
                continue
            hints.append(text)
        elif isinstance(node, ast.Name) and re.fullmatch(r"[A-Z_]*HINTS?", node.id) and node.id in constants:
            hints.append(constants[node.id])
    for node in ast.walk(tree):  # a hint assembled in a local `hint = ...`
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "hint"):
            hints.append(render(node.value))
    unique = []
    for h in hints:
        h = " ".join(h.split())
        if len(re.sub(r"[^A-Za-z]", "", h.replace("{…}", ""))) >= 12 and h not in unique:
            unique.append(h)
    return unique


def exercises_of(nb_path: Path) -> list[dict]:
    cells = json.loads(nb_path.read_text())["cells"]
    found = []
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] != "code" or not source.lstrip().startswith("# EXERCISE"):
            continue
        question = ""
        for back in range(i - 1, max(i - 4, -1), -1):
            if cells[back]["cell_type"] == "markdown":
                text = "".join(cells[back]["source"])
                paragraphs = [p for p in text.split("\n\n") if QUESTION.match(p.strip())]
                if paragraphs:
                    question = paragraphs[-1].strip()
                    break
        check_source = "".join(cells[i + 1]["source"]) if i + 1 < len(cells) else ""
        match = CHECK_CALL.search(check_source)
        found.append({"question": question, "answer": source.strip(), "check": match.group(1) if match else None})
    return found


def answer_key() -> str:
    lines = ["# Answer key: where learners get stuck, and the answers", "",
             "Written by `workshop/answer_key.py` from the chapters and their checks; do not edit by hand.",
             "Each exercise: the question, the hints its check prints to a wrong answer (the places",
             "learners get stuck, `{…}` is filled in with their value), and the committed answer.", ""]
    for nb_path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        items = exercises_of(nb_path)
        if not items:
            continue
        lines += [f"## {nb_path.stem}", ""]
        for n, item in enumerate(items, 1):
            question = item["question"] or f"**{n}.**"
            lines += [f"### {nb_path.stem[:2]}.{n}", "", question, ""]
            check = getattr(exercises, item["check"], None) if item["check"] else None
            if check is not None:
                lines += [f"Check: `exercises.{item['check']}`. When it says ✘, it adds one of:", ""]
                lines += [f"- {h}" for h in hints_of(check)] or ["- (its verdict names the difference)"]
                lines.append("")
            lines += ["Answer (as committed):", "", "```python", item["answer"], "```", ""]
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when answer-key.md is out of date")
    args = parser.parse_args()
    text = answer_key()
    if args.check:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run .venv/bin/python workshop/answer_key.py")
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
