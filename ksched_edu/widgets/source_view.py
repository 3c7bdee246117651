"""SourceView: a ported function's Python beside the Go function it ports.

    from ksched_edu.schedule_one import schedule_pod
    from ksched_edu.widgets import SourceView
    SourceView(schedule_pod)

Left: the Python source (``inspect``), with its own file's line numbers. Right:
the Go lines its anchor names (``ksched_edu.upstream(obj)``), with the v1.30.4
file's line numbers and a link to the permalink. Both are highlighted by
Pygments. The Go is read at run time (see :mod:`ksched_edu.widgets.go_source`:
a local checkout named by ``KSCHED_EDU_K8S_SRC``, the cache, one download, or
nothing but a line saying why and the permalink); the project ships none.

CSS classes for a page or a browser test: ``ksched-source`` (the whole view),
``ksched-source-python`` and ``ksched-source-go`` (the two columns),
``ksched-source-status`` (where the Go came from, or why it is missing).
"""
from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Optional

import ipywidgets as widgets
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import GoLexer, PythonLexer
from pygments.styles.default import DefaultStyle

from ..anchors import Anchor, Plumbing, record_of
from ._html import escape
from .go_source import GoSource, go_source

MAX_PYTHON_LINES = 120  # a class's source is cut here (its fields and first methods)

STYLE = """<style>
.ksched-source {display: flex; gap: 10px; align-items: flex-start; font: 12px monospace;}
.ksched-source > div {flex: 1 1 50%; min-width: 0; border: 1px solid #ddd; border-radius: 4px;}
.ksched-source h4 {margin: 0; padding: 3px 6px; background: #f0f0f0; font: bold 12px sans-serif;}
.ksched-source .ksched-source-code {max-height: 460px; overflow: auto;}
.ksched-source .ksched-source-code pre {margin: 0; padding: 4px 6px; line-height: 1.35; white-space: pre;}
.ksched-source-status {padding: 3px 6px; font: 12px sans-serif; color: #555; border-top: 1px solid #eee;}
</style>"""


class _Style(DefaultStyle):
    """Pygments' default colours, with grey line numbers."""

    line_number_color = "#9a9a9a"
    line_number_background_color = "transparent"


class NoAnchorError(ValueError):
    """The object has no upstream anchor (neither @ports nor @plumbing)."""


def _highlight(lines: list[str], first_line: int, lexer: Any) -> str:
    formatter = HtmlFormatter(linenos="inline", linenostart=first_line, noclasses=True, style=_Style,
                              nobackground=True)
    return highlight("\n".join(lines) + "\n", lexer, formatter)


def python_source(obj: Any, max_lines: int = MAX_PYTHON_LINES) -> tuple[list[str], int, str]:
    """(lines, first line number, file name relative to the package) of ``obj``'s source."""
    lines, first = inspect.getsourcelines(obj)
    lines = [line.rstrip("\n") for line in lines]
    if len(lines) > max_lines:
        lines = lines[:max_lines] + [f"# … {len(lines) - max_lines} more lines"]
    path = Path(inspect.getsourcefile(obj) or "?")
    parts = path.parts
    name = "/".join(parts[parts.index("ksched_edu"):]) if "ksched_edu" in parts else path.name
    return lines, first, name


class SourceView(widgets.HTML):
    """The Python of ``obj`` beside the Go its anchor names; see the module docstring."""

    def __init__(self, obj: Any, *, max_python_lines: int = MAX_PYTHON_LINES) -> None:
        record = record_of(obj)
        if record is None:
            name = getattr(obj, "__qualname__", repr(obj))
            raise NoAnchorError(f"{name} has no upstream anchor: SourceView takes a function, method or class "
                                f"of the engine marked with @ports or @plumbing (see ksched_edu.anchors)")
        self.record = record
        self.qualname: str = getattr(obj, "__qualname__", record.python)
        self.python_lines, self.python_start, self.python_file = python_source(obj, max_python_lines)
        self.go: Optional[GoSource] = go_source(record) if isinstance(record, Anchor) else None
        super().__init__(value=self._html())

    @property
    def anchor(self) -> Optional[Anchor]:
        """The upstream anchor (None for plumbing: port-only code)."""
        return self.record if isinstance(self.record, Anchor) else None

    @property
    def go_lines(self) -> Optional[list[str]]:
        return self.go.lines if self.go is not None else None

    @property
    def go_status(self) -> str:
        if isinstance(self.record, Plumbing):
            return f"No Go counterpart: {self.record.reason}."
        assert self.go is not None
        return self.go.status

    # --- rendering ---------------------------------------------------------------------------

    def _python_column(self) -> str:
        head = f"Python · {escape(self.record.python)} ({escape(self.python_file)}:{self.python_start})"
        code = _highlight(self.python_lines, self.python_start, PythonLexer())
        return (f'<div class="ksched-source-python"><h4>{head}</h4>'
                f'<div class="ksched-source-code">{code}</div></div>')

    def _go_column(self) -> str:
        anchor = self.anchor
        if anchor is None:
            body, head = "", "Go · none"
        else:
            where = f"{anchor.path}#L{anchor.start}-L{anchor.end}"
            head = (f'Go · {escape(anchor.go)} (<a href="{escape(anchor.permalink)}" target="_blank" '
                    f'rel="noopener">{escape(anchor.repo)}@{escape(anchor.ref)} {escape(where)}</a>)')
            body = (f'<div class="ksched-source-code">{_highlight(self.go_lines, anchor.start, GoLexer())}</div>'
                    if self.go_lines else "")
        status = f'<div class="ksched-source-status">{escape(self.go_status)}</div>'
        return f'<div class="ksched-source-go"><h4>{head}</h4>{body}{status}</div>'

    def _html(self) -> str:
        return f'{STYLE}<div class="ksched-source">{self._python_column()}{self._go_column()}</div>'

    def __repr__(self) -> str:
        anchor = self.anchor
        if anchor is None:
            return f"SourceView({self.qualname}: plumbing)"
        return f"SourceView({self.qualname} ⇄ {anchor.go}, {anchor.path}#L{anchor.start}-L{anchor.end})"
