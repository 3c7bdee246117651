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

The view is as wide as the output area, never as wide as its longest line: the two
columns stand side by side when each can be :data:`COLUMN_MIN_PX` wide (each
scrolls sideways on its own) and the Go goes under the Python, full width, when
they cannot. An ipywidgets HTML widget is a flex item that would otherwise grow to
its content's width (``min-width: auto``), pushing the Go past the right edge of
the notebook; the view's ``container-type: inline-size`` takes its content out of
that sum. The style ships in the view's own HTML, so it holds wherever the widget
is shown (JupyterLab, the static site, an embedding of the stepper).
"""
from __future__ import annotations

import inspect
import textwrap
from pathlib import Path
from typing import Any, Optional

import ipywidgets as widgets
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import GoLexer, PythonLexer
from pygments.styles.default import DefaultStyle

from ..anchors import Anchor, Plumbing, record_of
from ..i18n import _
from ._html import escape
from .go_source import GoSource, go_source

MAX_PYTHON_LINES = 120  # a longer source is cut here

# A column is never narrower than this when the two stand side by side: about 65 characters of code
# beside the line numbers. Below twice this (plus the gap) the Go goes under the Python.
COLUMN_MIN_PX = 520
COLUMN_GAP_PX = 10
STACKED_BELOW_PX = 2 * COLUMN_MIN_PX + COLUMN_GAP_PX

STYLE = f"""<style>
.ksched-source {{container-type: inline-size; font: 12px monospace; margin: 2px 0;}}
.ksched-source-columns {{display: flex; flex-wrap: wrap; gap: {COLUMN_GAP_PX}px; align-items: flex-start;}}
.ksched-source-columns > div {{flex: 1 1 {COLUMN_MIN_PX}px; min-width: 0; max-width: 100%; box-sizing: border-box;
  border: 1px solid #ddd; border-radius: 4px;}}
.ksched-source h4 {{margin: 0; padding: 3px 6px; background: #f0f0f0; font: bold 12px/1.35 sans-serif;
  overflow-wrap: anywhere;}}
.ksched-source .ksched-source-code {{max-height: 460px; overflow: auto;}}
.ksched-source .ksched-source-code pre {{margin: 0; padding: 4px 6px; line-height: 1.35; white-space: pre;
  tab-size: 4;}}
.ksched-source-status {{padding: 3px 6px; font: 12px/1.35 sans-serif; color: #555; border-top: 1px solid #eee;
  white-space: normal; overflow-wrap: anywhere;}}
@container (max-width: {STACKED_BELOW_PX - 1}px) {{
  .ksched-source .ksched-source-code {{max-height: min(460px, 36vh);}}
}}
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
    """(lines, first line number, file name relative to the package) of ``obj``'s source.

    A class is shown as the Go shows a struct: its declaration, docstring and fields, up
    to its first method; a last line names the methods, each its own SourceView.
    """
    lines, first = inspect.getsourcelines(obj)
    lines = [line.rstrip("\n") for line in lines]
    if inspect.isclass(obj):
        lines = _declaration_and_fields(obj, lines)
    if len(lines) > max_lines:
        lines = lines[:max_lines] + ["# " + _("… {count} more lines").format(count=len(lines) - max_lines)]
    path = Path(inspect.getsourcefile(inspect.unwrap(obj)) or "?")
    parts = path.parts
    name = "/".join(parts[parts.index("ksched_edu"):]) if "ksched_edu" in parts else path.name
    return lines, first, name


def _declaration_and_fields(cls: type, lines: list[str]) -> list[str]:
    """A class's source up to its first method, and a comment line naming its methods."""
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("class "))
    body = [i for i in range(head + 1, len(lines)) if lines[i].strip()]
    if not body:
        return lines
    indent = lines[body[0]][:len(lines[body[0]]) - len(lines[body[0]].lstrip())]
    first_method = next((i for i in body if lines[i].startswith(indent + "@") or lines[i].startswith(indent + "def ")
                         or lines[i].startswith(indent + "async def ")), None)
    if first_method is None:
        return lines
    kept = lines[:first_method]
    while kept and not kept[-1].strip():
        kept.pop()
    methods = [name for name, value in vars(cls).items()
               if inspect.isfunction(inspect.unwrap(getattr(value, "__func__", value))) and not name.startswith("_")
               or name == "__init__"]
    if methods:
        kept.append("")
        head = _("methods (each beside its Go: SourceView({cls}.name)):").format(cls=cls.__name__)
        kept.extend(textwrap.wrap(", ".join(methods), width=96, break_on_hyphens=False,
                                  initial_indent=f"{indent}# {head} ", subsequent_indent=f"{indent}#   "))
    return kept


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
            return _("No Go counterpart: {reason}.").format(reason=self.record.reason)
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
            body, head = "", _("Go · none")
        else:
            where = f"{anchor.path}#L{anchor.start}-L{anchor.end}"
            head = (f'Go · {escape(anchor.go)} (<a href="{escape(anchor.permalink)}" target="_blank" '
                    f'rel="noopener">{escape(anchor.repo)}@{escape(anchor.ref)} {escape(where)}</a>)')
            body = (f'<div class="ksched-source-code">{_highlight(self.go_lines, anchor.start, GoLexer())}</div>'
                    if self.go_lines else "")
        status = f'<div class="ksched-source-status">{escape(self.go_status)}</div>'
        return f'<div class="ksched-source-go"><h4>{head}</h4>{body}{status}</div>'

    def _html(self) -> str:
        return (f'{STYLE}<div class="ksched-source"><div class="ksched-source-columns">'
                f'{self._python_column()}{self._go_column()}</div></div>')

    def __repr__(self) -> str:
        anchor = self.anchor
        if anchor is None:
            return f"SourceView({self.qualname}: plumbing)"
        return f"SourceView({self.qualname} ⇄ {anchor.go}, {anchor.path}#L{anchor.start}-L{anchor.end})"
