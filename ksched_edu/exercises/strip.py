"""Make the learner's copy of the course: every exercise's solution taken out.

An exercise is a code cell whose first line is ``# EXERCISE``. The comment
lines right below it are its instructions and stay; the rest of the cell (the
solution) becomes a placeholder of the same shape, so that the check cell
after it still runs and prints ``✘ ... Hint: ...`` instead of a NameError:

* ``name = <answer>``            ->  ``name = ...  # your answer``
* ``def f(args): <body>``        ->  ``def f(args):`` + docstring + ``raise NotImplementedError``
* ``class C(Base): <body>``      ->  the class header, its docstring, each method as above,
                                     each class attribute as ``name = ...``
* imports stay; any other statement goes.

Every output and execution count of the notebook is cleared. Notebooks are
read and written as plain nbformat-4 JSON. The files the chapters' text shows or
links to from beside them (``![...](images/x.png)``, ``<img src="images/x.png">``)
are copied along, so the learner's copy shows the same pictures.
"""
from __future__ import annotations

import ast
import copy
import json
import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import unquote

EXERCISE_MARK = "# EXERCISE"
ANSWER_COMMENT = "  # your answer"
YOUR_CODE = "# Your code here."


def cell_source(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def is_exercise_cell(cell: dict[str, Any]) -> bool:
    if cell.get("cell_type") != "code":
        return False
    lines = cell_source(cell).splitlines()
    return bool(lines) and lines[0].strip().startswith(EXERCISE_MARK)


def split_instructions(source: str) -> tuple[list[str], str]:
    """(the ``# EXERCISE`` line and the comment lines under it, the code below them)."""
    lines = source.splitlines()
    n = 0
    while n < len(lines) and (lines[n].lstrip().startswith("#") or not lines[n].strip()):
        n += 1
    header = lines[:n]
    while header and not header[-1].strip():
        header.pop()
    return header, "\n".join(lines[n:])


def _not_implemented() -> ast.stmt:
    return ast.Raise(exc=ast.Call(func=ast.Name("NotImplementedError", ast.Load()),
                                  args=[ast.Constant("your code here")], keywords=[]), cause=None)


def _docstring(node: ast.AST) -> list[ast.stmt]:
    body = getattr(node, "body", [])
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return [body[0]]
    return []


def _stub_function(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt:
    stub = copy.copy(fn)
    stub.body = _docstring(fn) + [_not_implemented()]
    return stub


def _stub_class(cls: ast.ClassDef) -> ast.stmt:
    stub = copy.copy(cls)
    body: list[ast.stmt] = _docstring(cls)
    for stmt in cls.body[len(body):]:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body.append(_stub_function(stmt))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            body.append(_stub_assign(stmt))
    stub.body = body or [ast.Pass()]
    return stub


def _stub_assign(stmt: ast.Assign | ast.AnnAssign) -> ast.stmt:
    stub = copy.copy(stmt)
    stub.value = ast.Constant(Ellipsis)
    return stub


def placeholder(code: str) -> list[str]:
    """The placeholder lines for a solution (see the module docstring): imports, then stubs."""
    tree = ast.parse(code)
    imports: list[str] = []
    stubs: list[str] = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            imports.append(ast.unparse(stmt))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            stubs.append(ast.unparse(_stub_assign(stmt)) + ANSWER_COMMENT)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stubs.extend(["", ast.unparse(_stub_function(stmt)), ""])
        elif isinstance(stmt, ast.ClassDef):
            stubs.extend(["", ast.unparse(_stub_class(stmt)), ""])
    while stubs and not stubs[0]:
        stubs.pop(0)
    while stubs and not stubs[-1]:
        stubs.pop()
    return imports + ([""] if imports else []) + [YOUR_CODE] + stubs


def strip_source(source: str) -> str:
    """An exercise cell's source with its solution replaced by a placeholder."""
    header, code = split_instructions(source)
    text = "\n".join(header + placeholder(code))
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text


def strip_notebook(nb: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``nb`` with every exercise stripped and every output cleared."""
    out = copy.deepcopy(nb)
    for cell in out.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        if is_exercise_cell(cell):
            cell["source"] = strip_source(cell_source(cell))
        cell["outputs"] = []
        cell["execution_count"] = None
    return out


def read_notebook(path: Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def write_notebook(nb: dict[str, Any], path: Path) -> None:
    Path(path).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def strip_tree(src: Path, dst: Path) -> list[Path]:
    """Strip every ``*.ipynb`` in ``src`` (a folder or one notebook) into folder ``dst``.

    The files the notebooks reference (``referenced_files``) are copied along.
    """
    src, dst = Path(src), Path(dst)
    notebooks = [src] if src.is_file() else sorted(src.glob("*.ipynb"))
    dst.mkdir(parents=True, exist_ok=True)
    written = []
    for path in notebooks:
        target = dst / path.name
        write_notebook(strip_notebook(read_notebook(path)), target)
        written.append(target)
    copy_referenced_files(notebooks, dst)
    return written


# Markdown images and links, ![alt](target "title") and [text](target), and HTML src/href.
_MARKDOWN_TARGET = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'][^\"']*[\"'])?\s*\)")
_HTML_TARGET = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)


def referenced_files(notebook: Path) -> list[str]:
    """The files beside ``notebook`` that its markdown cells show or link to, as relative paths.

    URLs, anchors, other notebooks and paths leaving the notebook's folder are left out,
    as are targets that are not files there.
    """
    folder = Path(notebook).parent.resolve()
    found: list[str] = []
    for cell in read_notebook(notebook).get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        text = cell_source(cell)
        for target in _MARKDOWN_TARGET.findall(text) + _HTML_TARGET.findall(text):
            target = unquote(target.split("#", 1)[0].split("?", 1)[0])
            if not target or ":" in target or target.startswith("/") or target.endswith(".ipynb"):
                continue
            path = (folder / target).resolve()
            if path.is_file() and path.is_relative_to(folder):
                rel = path.relative_to(folder).as_posix()
                if rel not in found:
                    found.append(rel)
    return found


def copy_referenced_files(notebooks: list[Path], dst: Path) -> list[Path]:
    """Copy the files the notebooks reference (``referenced_files``) into ``dst``, same relative paths."""
    copied: list[Path] = []
    for notebook in notebooks:
        for rel in referenced_files(notebook):
            target = Path(dst) / rel
            if target in copied:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(Path(notebook).parent / rel, target)
            copied.append(target)
    return copied
