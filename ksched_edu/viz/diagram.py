"""The scheduling framework's extension points as a diagram.

Upstream: pkg/scheduler/framework/interface.go declares one interface per
extension point; framework/runtime/framework.go runs them; schedule_one.go
orders them: the scheduling queue (PreEnqueue, QueueSort), the scheduling
cycle (PreFilter, Filter, PostFilter when no node fits, PreScore, Score,
NormalizeScore, Reserve, Permit) and the binding cycle (PreBind, Bind,
PostBind), with Unreserve undoing Reserve when a later step fails. This is the
picture of the upstream docs' "scheduling framework" page, drawn with
matplotlib patches; give it a profile's plugins to list them inside each box.

Every plugin is listed, one per line, in the order the profile runs them. A name
wider than its box is wrapped inside the box where its words meet (a capital
letter, ``_``, ``-`` or ``.``), the continuation indented, never in the middle of a
word. Each column is as wide as its widest line needs, up to :data:`MAX_BOX_W`
inches, and the boxes grow downwards to hold their lists; the figure stays
14 inches wide, so that shown as wide as a notebook on a laptop (about 930 px at
1366 px with the file browser open) a list is still about 9 px high.

NormalizeScore is no interface of its own: a Score plugin whose
``ScoreExtensions()`` returns an object (not nil) normalizes its scores. The
diagram asks each Score plugin of the profile (``score_extensions()``) rather
than keeping a list of its own. Every text is at least :data:`MIN_FONT_SIZE` pt.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Union

from ..i18n import N_, _
from ._figure import localize_fonts, new_axes

# Font sizes (points): nothing in the figure is smaller than MIN_FONT_SIZE.
MIN_FONT_SIZE = 8.0
BOX_FONT, LIST_FONT, LABEL_FONT, TITLE_FONT = 11.0, 10.0, 10.0, 13.0
LIST_SPACING = 1.2  # line height of a list, in font sizes
# The key of the NormalizeScore list in a plugins mapping (list_plugins() has none: it is not a point of its own).
NORMALIZE_SCORE_KEY = "normalize_score"

# The figure, in inches (the axes span it, and one data unit is one inch).
FIG_W = 14.0
MIN_FIG_H, MIN_FIG_H_BARE = 6.8, 5.2  # with plugin lists, without
MARGIN_X = 0.12
MIN_BOX_W, MAX_BOX_W = 1.1, 1.95
PAD_X, PAD_Y = 0.08, 0.07  # inside a box, around its text
TITLE_GAP = 0.05  # between a box's point name and its list
MIN_GAP_X = 0.3  # between two columns: room for an arrow
TITLE_H = 0.4  # the figure's title
BAND_LABEL_H = 0.24  # above a band's boxes: the band's name
BAND_PAD, BAND_GAP = 0.12, 0.16  # below a band's boxes; between two bands
BRANCH_GAP = 0.38  # between the scheduling cycle's boxes and PostFilter / Unreserve below them
DOWN_DX = 0.22  # a straight-down arrow runs this far right of its box's left edge, clear of the centred text
INDENT = "  "  # before the continuation of a wrapped name

# point -> (row, column). Rows from the top: the scheduling queue, the scheduling cycle, its two
# branches (PostFilter when no node fits, Unreserve on failure), the binding cycle.
QUEUE, CYCLE, BRANCH, BIND = range(4)
LAYOUT = {
    "PreEnqueue": (QUEUE, 0), "QueueSort": (QUEUE, 1),
    "PreFilter": (CYCLE, 0), "Filter": (CYCLE, 1), "PreScore": (CYCLE, 2), "Score": (CYCLE, 3),
    "NormalizeScore": (CYCLE, 4), "Reserve": (CYCLE, 5), "Permit": (CYCLE, 6),
    "PostFilter": (BRANCH, 1), "Unreserve": (BRANCH, 5),
    "PreBind": (BIND, 4), "Bind": (BIND, 5), "PostBind": (BIND, 6),
}
COLUMNS = 7
# (from, to, label, dashed); a label is shown with _() ("Pop" is upstream's name and stays).
FLOW = [
    ("PreEnqueue", "QueueSort", "", False), ("QueueSort", "PreFilter", "Pop", False),
    ("PreFilter", "Filter", "", False), ("Filter", "PreScore", "", False), ("PreScore", "Score", "", False),
    ("Score", "NormalizeScore", "", False), ("NormalizeScore", "Reserve", "", False),
    ("Reserve", "Permit", "", False), ("Filter", "PostFilter", N_("no node fits"), True),
    ("Permit", "PreBind", N_("binding cycle, later"), False), ("PreBind", "Bind", "", False),
    ("Bind", "PostBind", "", False), ("Reserve", "Unreserve", N_("on failure"), True),
    ("PreBind", "Unreserve", "", True),
]
BANDS = [  # (label, rows, colour); the label shown with _()
    (N_("scheduling queue"), (QUEUE,), "#e8f1fb"),
    (N_("scheduling cycle"), (CYCLE, BRANCH), "#eef7ee"),
    (N_("binding cycle"), (BIND,), "#fbf1e6"),
]


def normalize_score_plugins(fwk: Any) -> list[str]:
    """The profile's Score plugins that normalize their scores (``score_extensions()`` is not None), in run order.

    Upstream: (*frameworkImpl).RunScorePlugins calls NormalizeScore for each
    Score plugin whose ScoreExtensions() is not nil.
    """
    return [pl.name() for pl in fwk.score_plugins if pl.score_extensions() is not None]


def _plugin_lists(plugins: Any) -> dict[str, list[str]]:
    """point -> plugin names (with the weight for Score), from a mapping or a Framework.

    From a Framework: its ``list_plugins()``, plus the NormalizeScore list read
    off its Score plugins (:func:`normalize_score_plugins`).
    """
    if plugins is None:
        return {}
    if hasattr(plugins, "list_plugins"):
        fwk = plugins
        plugins = dict(fwk.list_plugins())
        normalizers = normalize_score_plugins(fwk)
        if normalizers:
            plugins[NORMALIZE_SCORE_KEY] = normalizers
    by_key = {p.lower(): p for p in LAYOUT}
    out: dict[str, list[str]] = {}
    for key, names in dict(plugins).items():
        point = by_key.get(str(key).replace("_", "").lower())
        if point is None:
            continue
        shown = []
        for n in names:
            name, weight = (n if isinstance(n, tuple) else (n, 0))
            shown.append(f"{name} ×{weight}" if point == "Score" and weight else str(name))
        out[point] = shown
    return out


def _text_width(text: str, size: float, weight: str = "normal") -> float:
    """The width of one line of ``text`` in inches, as matplotlib draws it (DejaVu Sans)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    width, _, _ = text_to_path.get_text_width_height_descent(text, FontProperties(size=size, weight=weight),
                                                             ismath=False)
    return width / 72.0


def _words(name: str) -> list[str]:
    """The places a name may be wrapped: before a capital that starts a word, after ``_``, ``-`` or ``.``."""
    return [w for w in re.split(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[_.\-])", name) if w]


def wrap_name(name: str, width: float, size: float = LIST_FONT) -> list[str]:
    """``name`` in lines no wider than ``width`` inches, broken only where its words meet.

    The continuation lines are indented. A word wider than ``width`` by itself stays whole
    (a line too wide beats a word cut in two). A weight such as `` ×3`` stays with the last word.
    """
    if _text_width(name, size) <= width:
        return [name]
    head, _, weight = name.partition(" ")
    words = _words(head)
    if weight:
        words[-1] += " " + weight
    lines = [words[0]]
    for word in words[1:]:
        if _text_width(lines[-1] + word, size) <= width:
            lines[-1] += word
        else:
            lines.append(INDENT + word)
    return lines


@dataclass
class _Box:
    point: str
    lines: list[str]  # the plugin list, wrapped
    width: float = 0.0
    height: float = 0.0
    x: float = 0.0  # centre
    top: float = 0.0

    @property
    def left(self) -> float:
        return self.x - self.width / 2

    @property
    def right(self) -> float:
        return self.x + self.width / 2

    @property
    def bottom(self) -> float:
        return self.top - self.height

    @property
    def title_y(self) -> float:
        """Where the point's name stands (its middle): arrows between boxes of a row run at this height."""
        return self.top - PAD_Y - BOX_FONT / 72 * 0.6


def _natural_width(point: str, names: list[str]) -> float:
    widest = max([_text_width(point, BOX_FONT, "bold")] + [_text_width(n, LIST_FONT) for n in names])
    return widest + 2 * PAD_X


def _column_widths(lists: dict[str, list[str]]) -> list[float]:
    """Each column's box width: what its widest line needs, capped so that the columns fit the figure."""
    natural = [MIN_BOX_W] * COLUMNS
    for point, (_, col) in LAYOUT.items():
        natural[col] = max(natural[col], min(MAX_BOX_W, _natural_width(point, lists.get(point, []))))
    room = FIG_W - 2 * MARGIN_X - (COLUMNS - 1) * MIN_GAP_X
    if sum(natural) <= room:
        return natural
    cap = room / COLUMNS  # the widest columns give way first, down to one even share
    for _ in range(COLUMNS):
        narrow = [w for w in natural if w < cap]
        cap = (room - sum(narrow)) / (COLUMNS - len(narrow))
    return [min(w, cap) for w in natural]


def _box_height(lines: list[str]) -> float:
    height = 2 * PAD_Y + BOX_FONT / 72 * 1.2
    if lines:
        height += TITLE_GAP + len(lines) * LIST_FONT / 72 * LIST_SPACING
    return height


def _layout(lists: dict[str, list[str]], min_height: float) -> tuple[dict[str, _Box], float, list[tuple[float, float]]]:
    """(boxes, figure height, (top, bottom) of each band), every length in inches from the figure's bottom."""
    widths = _column_widths(lists)
    gap = min(0.9, (FIG_W - 2 * MARGIN_X - sum(widths)) / (COLUMNS - 1))
    left = (FIG_W - sum(widths) - gap * (COLUMNS - 1)) / 2
    centres = []
    for w in widths:
        centres.append(left + w / 2)
        left += w + gap
    boxes = {}
    for point, (_, col) in LAYOUT.items():
        lines = [line for name in lists.get(point, []) for line in wrap_name(name, widths[col] - 2 * PAD_X)]
        boxes[point] = _Box(point, lines, widths[col], _box_height(lines), centres[col])
    row_h = {row: max(b.height for p, b in boxes.items() if LAYOUT[p][0] == row)
             for row in (QUEUE, CYCLE, BRANCH, BIND)}
    # Top down: title, then each band: its label, its rows, its padding, and the gap to the next band.
    needed = (TITLE_H + 3 * (BAND_LABEL_H + BAND_PAD) + 2 * BAND_GAP + BRANCH_GAP + sum(row_h.values()))
    height = max(min_height, needed)
    spare = (height - needed) / 4  # inside the bands: above and below their boxes, and above the branches
    tops, bands, y = {}, [], height - TITLE_H
    for _, rows, _ in BANDS:
        band_top = y
        y -= BAND_LABEL_H + spare / 2
        for i, row in enumerate(rows):
            if i:
                y -= BRANCH_GAP + spare
            tops[row] = y
            y -= row_h[row]
        y -= BAND_PAD + spare / 2
        bands.append((band_top, y))
        y -= BAND_GAP
    for point, box in boxes.items():
        box.top = tops[LAYOUT[point][0]]
    return boxes, height, bands


def draw_framework_diagram(highlight: Union[str, Iterable[str], None] = None,
                           plugins: Optional[Union[Mapping[str, Any], Any]] = None, ax: Optional[Any] = None) -> Any:
    """The extension points in the order a pod meets them; ``highlight`` fills some boxes in blue.

    ``plugins``: a Framework (its ``list_plugins()`` and the Score plugins that normalize) or a
    mapping point -> names (e.g. ``{"filter": [...], "normalize_score": [...]}``), listed inside each box,
    every one of them.
    """
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle

    marked = {highlight} if isinstance(highlight, str) else set(highlight or ())
    unknown = marked - set(LAYOUT)
    if unknown:
        raise ValueError(f"unknown extension point(s) {sorted(unknown)}; one of {', '.join(LAYOUT)}")
    lists = _plugin_lists(plugins)
    boxes, height, bands = _layout(lists, MIN_FIG_H if lists else MIN_FIG_H_BARE)
    own_figure = ax is None
    fig, ax = new_axes(ax, (FIG_W, height))
    if own_figure:  # the axes spans the figure: one data unit is one inch, as the layout assumed
        fig.set_layout_engine("none")
        ax.set_position((0.0, 0.0, 1.0, 1.0))
    for (label, _rows, colour), (top, bottom) in zip(BANDS, bands):
        ax.add_patch(Rectangle((0.04, bottom), FIG_W - 0.08, top - bottom, facecolor=colour, edgecolor="none",
                               zorder=0))
        ax.text(0.1, top - 0.05, _(label), fontsize=LABEL_FONT, color="#555", va="top", style="italic")
    for point, box in boxes.items():
        on = point in marked
        ax.add_patch(FancyBboxPatch((box.left, box.bottom), box.width, box.height,
                                    boxstyle="round,pad=0,rounding_size=0.05", facecolor="#1565c0" if on else "white",
                                    edgecolor="#1565c0" if on else "#555", linewidth=1.4 if on else 1.0,
                                    linestyle="--" if point == "Unreserve" else "-", zorder=2))
        ax.text(box.x, box.top - PAD_Y, point, ha="center", va="top", fontsize=BOX_FONT, fontweight="bold", zorder=3,
                color="white" if on else "black")
        if box.lines:
            ax.text(box.x, box.top - PAD_Y - BOX_FONT / 72 * 1.2 - TITLE_GAP, "\n".join(box.lines), ha="center",
                    multialignment="left", va="top", fontsize=LIST_FONT, linespacing=LIST_SPACING, zorder=3,
                    color="white" if on else "#333")
    for a, b, label, dashed in FLOW:
        _arrow(ax, boxes[a], boxes[b], _(label) if label else "", dashed, bands[-1][0] + BAND_GAP / 2,
               FancyArrowPatch)
    ax.set_xlim(0, FIG_W)
    ax.set_ylim(0, height)
    ax.set_axis_off()
    ax.text(FIG_W / 2, height - 0.12, _("The scheduling framework: extension points in the order a pod meets them"),
            ha="center", va="top", fontsize=TITLE_FONT)
    return localize_fonts(fig)


def _arrow(ax: Any, a: _Box, b: _Box, label: str, dashed: bool, turn: float, arrow_cls: Any) -> None:
    """One arrow of FLOW, routed clear of the boxes and their lists (``turn``: the height of the
    Permit -> PreBind line's run to the left, in the gap above the binding cycle)."""
    style = dict(color="#444", linestyle="--" if dashed else "-", linewidth=1.0, zorder=1)
    text = dict(fontsize=LABEL_FONT, color="#444", zorder=3)

    def head(start: tuple[float, float], end: tuple[float, float], rad: float = 0.0) -> None:
        ax.add_patch(arrow_cls(start, end, arrowstyle="-|>", mutation_scale=11, shrinkA=0, shrinkB=0,
                               connectionstyle=f"arc3,rad={rad}", **style))

    row_a, row_b = LAYOUT[a.point][0], LAYOUT[b.point][0]
    if row_a == row_b:  # along a row, at the height of the point names
        head((a.right, a.title_y), (b.left, b.title_y))
    elif (a.point, b.point) == ("QueueSort", "PreFilter"):
        start, end = (a.left + DOWN_DX, a.bottom), (b.right - DOWN_DX, b.top)
        head(start, end, rad=-0.25)
        ax.text(start[0] + 0.08, (start[1] + end[1]) / 2, label, ha="left", va="center", **text)
    elif (a.point, b.point) == ("Permit", "PreBind"):
        # down from Permit, left under Unreserve (in the gap between the bands), down into PreBind
        xe = b.x + 0.25
        ax.plot([a.x, a.x, xe], [a.bottom, turn, turn], **style)
        head((xe, turn), (xe, b.top))
        ax.text(a.x - 0.1, turn - 0.04, label, ha="right", va="top", **text)
    elif (a.point, b.point) == ("PreBind", "Unreserve"):
        # up from PreBind's left part, then right into Unreserve: clear of the Permit -> PreBind line
        xs, y = a.left + DOWN_DX, b.top - b.height / 2
        ax.plot([xs, xs], [a.top, y], **style)
        head((xs, y), (b.left, y))
    else:  # straight down, along the box's left edge, clear of the centred text; the label to its left
        x = b.left + DOWN_DX
        head((x, a.bottom), (x, b.top))
        if label:
            ax.text(x - 0.08, (a.bottom + b.top) / 2, label, ha="right", va="center", **text)
