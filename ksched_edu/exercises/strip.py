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

A code cell after an exercise that runs only with its solution names the answer it
needs in its metadata, ``{"ksched": {"needs_solution": "new_gang_gpu"}}``. In the
learner's copy such a cell runs its code only once the exercise's check (the
``check_*`` call before it) has passed with that very answer, as the check's module
records it (its ``solution_checked``); until then it prints one line saying so
instead of failing (:func:`guard_source`).

Every output and execution count of the notebook is cleared. Notebooks are
read and written as plain nbformat-4 JSON. The files the chapters' text shows or
links to from beside them (``![...](images/x.png)``, ``<img src="images/x.png">``)
are copied along, so the learner's copy shows the same pictures.
"""
from __future__ import annotations

import ast
import copy
import io
import json
import re
import shutil
import tokenize
from pathlib import Path
from typing import Any
from urllib.parse import unquote

EXERCISE_MARK = "# EXERCISE"
ANSWER_COMMENT = "  # your answer"
YOUR_CODE = "# Your code here."
NEEDS_SOLUTION = "needs_solution"  # cell metadata ksched.needs_solution: the answer a later cell runs with
_CHECK_CALL = re.compile(r"\b(check_\w+)\s*\(")


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


def needed_answer(cell: dict[str, Any]) -> str:
    """The answer a cell says it needs (its ``ksched.needs_solution`` metadata), or ""."""
    return str(((cell.get("metadata") or {}).get("ksched") or {}).get(NEEDS_SOLUTION) or "")


def _indent_code(source: str) -> str:
    """``source`` indented by four spaces, save the lines inside a multi-line string (their text is data)."""
    inside: set[int] = set()
    fstring_start = getattr(tokenize, "FSTRING_START", None)  # Python 3.12+: an f-string is several tokens
    fstring_end = getattr(tokenize, "FSTRING_END", None)
    opened: list[int] = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        first = tok.start[0]
        if fstring_start is not None and tok.type == fstring_start:
            opened.append(first)
            continue
        if fstring_end is not None and tok.type == fstring_end:
            first = opened.pop()
        elif tok.type != tokenize.STRING:
            continue
        inside.update(range(first + 1, tok.end[0] + 1))
    return "\n".join(line if n in inside or not line.strip() else "    " + line
                     for n, line in enumerate(source.splitlines(), start=1))


# Calls whose value Jupyter would not show (None): a cell that ends with one keeps it in its body.
_SILENT_CALLS = ("print", "claim", "claim_equal")


def _shows_nothing(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in _SILENT_CALLS


def guard_source(source: str, answer: str, check: str, module: str) -> str:
    """A cell's source that runs only once ``check`` (of ``module``) has passed with ``answer``.

    Until then it prints one line. The cell's statements go under an ``else``, as written (comments and
    multi-line strings kept); its last expression, which Jupyter shows, stays at the top level as
    ``(expr) if ready else None``, so that a passing run shows what the chapter shows (a last
    ``print`` or claim line, which shows nothing, stays in the body).
    """
    tree = ast.parse(source)
    lines = source.splitlines()
    last = tree.body[-1] if tree.body else None
    shown = ""
    if isinstance(last, ast.Expr) and not _shows_nothing(last.value):
        shown = ast.get_source_segment(source, last.value) or ""
        lines = lines[:last.lineno - 1]
    body = "\n".join(lines).rstrip()
    ready = f"solution_checked(globals().get({answer!r}))"
    message = f"this cell needs your solution above: it runs once {check}({answer}) has printed \u2714"
    out = [f"# This cell runs once your solution ({answer}) has passed its check above.",
           f"from {module} import solution_checked",
           "",
           f"if not {ready}:",
           f"    print({message!r})"]
    if ast.parse(body).body:
        out += ["else:", _indent_code(body)]
    if shown:
        out.append(f"({shown}) if {ready} else None")
    return "\n".join(out)


def _check_module(check: str) -> str:
    """The module of the exercise check ``check`` (``ksched_edu.exercises.chNN``), which must say which
    answer passed it (``solution_checked``)."""
    from ksched_edu import exercises

    fn = exercises.all_checks().get(check)
    module = getattr(fn, "__module__", "")
    if not module or not hasattr(__import__(module, fromlist=["solution_checked"]), "solution_checked"):
        raise ValueError(f"a cell needs the solution checked by {check}, whose module has no solution_checked")
    return module


def strip_notebook(nb: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``nb`` with every exercise stripped, the cells that need a solution guarded, and every
    output cleared."""
    out = copy.deepcopy(nb)
    check = ""  # the last check_* an earlier code cell calls
    for cell in out.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        answer = needed_answer(cell)
        if is_exercise_cell(cell):
            cell["source"] = strip_source(cell_source(cell))
        elif answer:
            if not check:
                raise ValueError(f"a cell needs {answer}, but no check cell comes before it")
            cell["source"] = guard_source(cell_source(cell), answer, check, _check_module(check))
        else:
            check = (_CHECK_CALL.findall(cell_source(cell)) or [check])[-1]
        cell["outputs"] = []
        cell["execution_count"] = None
    return out


def read_notebook(path: Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def write_notebook(nb: dict[str, Any], path: Path) -> None:
    Path(path).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def strip_tree(src: Path, dst: Path) -> list[Path]:
    """Strip every ``*.ipynb`` in ``src`` (a folder or one notebook) into folder ``dst``, and
    each edition in another language (a folder of ``src`` with notebooks, ``zh-CN/``) into the
    same folder of ``dst``.

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
    if src.is_dir():
        for edition in sorted(d for d in src.iterdir() if d.is_dir() and not d.name.startswith(".")
                              and any(d.glob("*.ipynb"))):
            written += strip_tree(edition, dst / edition.name)
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
