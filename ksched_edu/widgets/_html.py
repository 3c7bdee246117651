"""Small HTML pieces the widgets share: escaping, one style sheet, a table from rows.

Every class name starts with ``ksched-`` so a page (or a browser test) can
select what a widget shows: ``ksched-current`` marks the current extension
point, ``ksched-winner`` the chosen node's row, ``ksched-rejected`` a Filter
rejection, ``ksched-moved`` the pod the last queue move touched.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any, Optional

from ..i18n import N_, _
from ..viz.svgdraw import is_wide

STYLE = """<style>
.ksched-strip {display: flex; flex-wrap: wrap; gap: 4px; margin: 2px 0;}
.ksched-point {padding: 2px 7px; border: 1px solid #b8b8b8; border-radius: 4px; font: 12px monospace;
  color: #333; background: #f6f6f6;}
.ksched-point.ksched-idle {color: #9a9a9a; border-style: dashed; background: #fff;}
.ksched-point.ksched-failed {border-color: #c62828; color: #c62828;}
.ksched-point.ksched-current {background: #1565c0; border-color: #1565c0; color: #fff; font-weight: bold;}
.ksched-grid {border-collapse: collapse; font: 12px monospace; margin: 4px 0 8px 0;}
.ksched-grid caption {text-align: left; font-weight: bold; padding: 2px 0;}
.ksched-grid th, .ksched-grid td {border: 1px solid #ddd; padding: 2px 7px; text-align: left;
  vertical-align: top;}
.ksched-grid th {background: #f0f0f0;}
.ksched-grid td.ksched-num {text-align: right;}
.ksched-grid tr.ksched-winner td {background: #e3f2e5; font-weight: bold;}
.ksched-grid td.ksched-rejected {background: #fdecea; color: #a31515;}
.ksched-grid td.ksched-notrun {color: #a0a0a0;}
.ksched-note {margin: 4px 0; color: #444; font: 13px sans-serif;}
.ksched-runtime {margin: 2px 0; color: #555; font: 12px sans-serif;}
.ksched-head {font: 13px sans-serif; margin: 2px 0;}
.ksched-board {display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-start;}
.jupyter-widgets[class*="ksched-"] .widget-html-content {min-width: 0; max-width: 100%; overflow-x: auto;}
.ksched-lane {min-width: 130px; border: 1px solid #ccc; border-radius: 4px; padding: 3px;}
.ksched-lane h4 {margin: 0 0 3px 0; font: bold 12px sans-serif;}
.ksched-pod {display: block; font: 12px monospace; padding: 1px 4px; margin: 1px 0; background: #f3f3f3;
  border-radius: 3px;}
.ksched-pod.ksched-moved {background: #fff3c4; outline: 1px solid #e0a800;}
.ksched-log {font: 12px monospace; color: #333; margin: 4px 0;}
.ksched-log .ksched-last {font-weight: bold;}
</style>"""


@dataclass
class Section:
    """One table of a view: its columns, the rows shown, and the CSS classes that highlight them."""

    title: str
    columns: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)
    row_classes: list[str] = field(default_factory=list)
    cell_classes: list[dict[str, str]] = field(default_factory=list)
    cell_titles: list[dict[str, str]] = field(default_factory=list)
    headers: list[str] = field(default_factory=list)  # what the header row says, when not the column keys
    # Per row, what a cell shows instead of its value: the value in the course's language. The rows
    # keep the English (code reads them: ``table_rows()``, ``criteria_rows()``...); the table shows this.
    shown: list[dict[str, str]] = field(default_factory=list)

    def add(self, row: dict[str, Any], row_class: str = "", cells: Optional[dict[str, str]] = None,
            titles: Optional[dict[str, str]] = None, shown: Optional[dict[str, str]] = None) -> None:
        self.rows.append(row)
        self.row_classes.append(row_class)
        self.cell_classes.append(cells or {})
        self.cell_titles.append(titles or {})
        self.shown.append(shown or {})


# Column names a table shows in the course's language (its rows keep the English names as keys).
# The others are trace fields and names (node, plugin, code, reasons, event, message, victims),
# plugin names and resource names: they are shown as they are.
TRANSLATED_COLUMNS = frozenset({
    N_("call"), N_("in activeQ since (s)"), N_("popped"), N_("verdict"), N_("chosen"), N_("total"),
    N_("time (s)"), N_("key"), N_("value"), N_("what"), N_("rule"), N_("compares"), N_("this candidate"),
    N_("nodes compared"), N_("nodes kept"), N_("count"), N_("pdb violations"), N_("highest priority"),
    N_("sum of priorities"), N_("sum compared (each + MaxInt32+1)"), N_("earliest start"), N_("pods on node"),
    N_("best GPU set"), N_("slowest link"), N_("score"),
})


def column_header(name: str) -> str:
    """What a table's header row says for column ``name``: translated when it is a word of the course's."""
    return _(name) if name in TRANSLATED_COLUMNS else name


def attrs(**kw: Any) -> str:
    """` key="value"` pairs, escaped; ``data_point`` becomes ``data-point``; None values are left out."""
    return "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(str(v), quote=True)}"'
                   for k, v in kw.items() if v is not None and v != "")


def render_section(section: Section) -> str:
    """The section as a ``<table class="ksched-grid">``."""
    out = [f'<table class="ksched-grid"{attrs(data_section=section.title)}>']
    if section.title:
        out.append(f"<caption>{escape(section.title)}</caption>")
    headers = section.headers or section.columns
    out.append("<tr>" + "".join(f"<th>{escape(column_header(h))}</th>" for h in headers) + "</tr>")
    for row, rcls, ccls, ctitle, shown in zip(section.rows, section.row_classes, section.cell_classes,
                                              section.cell_titles, section.shown):
        cells = []
        for col in section.columns:
            value = row.get(col, "")
            cls = ccls.get(col, "")
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                cls = (cls + " ksched-num").strip()
            text = shown[col] if col in shown else _text(value)
            cells.append(f"<td{attrs(class_=cls, title=ctitle.get(col))}>{escape(text)}</td>")
        out.append(f"<tr{attrs(class_=rcls, data_node=row.get('node'))}>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def sentences(first: str, then: str) -> str:
    """Two sentences one after the other: a space between them, none after a Chinese one."""
    if first and is_wide(first[-1]):
        return first + then
    return f"{first} {then}"


def note(text: str) -> str:
    return f'<div class="ksched-note">{escape(text)}</div>' if text else ""
