"""The scheduling framework's extension points as a diagram.

Upstream: pkg/scheduler/framework/interface.go declares one interface per
extension point; framework/runtime/framework.go runs them; schedule_one.go
orders them: the scheduling queue (PreEnqueue, QueueSort), the scheduling
cycle (PreFilter, Filter, PostFilter when no node fits, PreScore, Score,
NormalizeScore, Reserve, Permit) and the binding cycle (PreBind, Bind,
PostBind), with Unreserve undoing Reserve when a later step fails. This is the
picture of the upstream docs' "scheduling framework" page, drawn with
matplotlib patches; give it a profile's plugins to list them under each point.

NormalizeScore is no interface of its own: a Score plugin whose
``ScoreExtensions()`` returns an object (not nil) normalizes its scores. The
diagram asks each Score plugin of the profile (``score_extensions()``) rather
than keeping a list of its own. Every text is at least :data:`MIN_FONT_SIZE` pt.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional, Union

from ._figure import new_axes

BOX_W, BOX_H = 1.5, 0.46
QUEUE_Y, CYCLE_Y, BRANCH_Y, BIND_Y = 4.1, 2.8, 1.25, 0.05
# Font sizes (points): nothing in the figure is smaller than MIN_FONT_SIZE.
MIN_FONT_SIZE = 8.0
BOX_FONT, LIST_FONT, LABEL_FONT, TITLE_FONT = 9.5, MIN_FONT_SIZE, MIN_FONT_SIZE, 11.0
# The key of the NormalizeScore list in a plugins mapping (list_plugins() has none: it is not a point of its own).
NORMALIZE_SCORE_KEY = "normalize_score"

# point -> (x, y) of its box's centre.
LAYOUT = {
    "PreEnqueue": (0.9, QUEUE_Y), "QueueSort": (2.6, QUEUE_Y),
    "PreFilter": (0.9, CYCLE_Y), "Filter": (2.6, CYCLE_Y), "PreScore": (4.3, CYCLE_Y), "Score": (6.0, CYCLE_Y),
    "NormalizeScore": (7.7, CYCLE_Y), "Reserve": (9.4, CYCLE_Y), "Permit": (11.1, CYCLE_Y),
    "PostFilter": (2.6, BRANCH_Y), "Unreserve": (9.4, BRANCH_Y),
    "PreBind": (7.7, BIND_Y), "Bind": (9.4, BIND_Y), "PostBind": (11.1, BIND_Y),
}
# (from, to, label, dashed)
FLOW = [
    ("PreEnqueue", "QueueSort", "", False), ("QueueSort", "PreFilter", "Pop", False),
    ("PreFilter", "Filter", "", False), ("Filter", "PreScore", "", False), ("PreScore", "Score", "", False),
    ("Score", "NormalizeScore", "", False), ("NormalizeScore", "Reserve", "", False),
    ("Reserve", "Permit", "", False), ("Filter", "PostFilter", "no node fits", True),
    ("Permit", "PreBind", "binding cycle, later", False), ("PreBind", "Bind", "", False),
    ("Bind", "PostBind", "", False), ("Reserve", "Unreserve", "on failure", True),
    ("PreBind", "Unreserve", "", True),
]
BANDS = [  # (label, y bottom, y top, colour)
    ("scheduling queue", QUEUE_Y - 0.5, QUEUE_Y + 0.45, "#e8f1fb"),
    ("scheduling cycle", BRANCH_Y - 0.6, CYCLE_Y + 0.45, "#eef7ee"),
    ("binding cycle", BIND_Y - 0.6, BIND_Y + 0.45, "#fbf1e6"),
]
MAX_LISTED = 4
# A straight-down arrow runs this far left of its boxes' centres, clear of the plugin list under the upper box.
DOWN_DX = 0.66
# Permit -> PreBind turns at this height: below Unreserve, above the binding cycle's boxes.
BIND_TURN_Y = (BRANCH_Y + BIND_Y) / 2


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


def draw_framework_diagram(highlight: Union[str, Iterable[str], None] = None,
                           plugins: Optional[Union[Mapping[str, Any], Any]] = None, ax: Optional[Any] = None) -> Any:
    """The extension points in the order a pod meets them; ``highlight`` fills some boxes in blue.

    ``plugins``: a Framework (its ``list_plugins()`` and the Score plugins that normalize) or a
    mapping point -> names (e.g. ``{"filter": [...], "normalize_score": [...]}``), listed under each box.
    """
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle

    marked = {highlight} if isinstance(highlight, str) else set(highlight or ())
    unknown = marked - set(LAYOUT)
    if unknown:
        raise ValueError(f"unknown extension point(s) {sorted(unknown)}; one of {', '.join(LAYOUT)}")
    lists = _plugin_lists(plugins)
    fig, ax = new_axes(ax, (14.0, 6.8 if lists else 5.2))
    for label, y0, y1, colour in BANDS:
        ax.add_patch(Rectangle((-0.2, y0), 12.3, y1 - y0, facecolor=colour, edgecolor="none", zorder=0))
        ax.text(-0.1, y1 - 0.06, label, fontsize=LABEL_FONT, color="#555", va="top", style="italic")
    for point, (x, y) in LAYOUT.items():
        on = point in marked
        dashed = point == "Unreserve"
        ax.add_patch(FancyBboxPatch((x - BOX_W / 2, y - BOX_H / 2), BOX_W, BOX_H, boxstyle="round,pad=0.02",
                                    facecolor="#1565c0" if on else "white", edgecolor="#1565c0" if on else "#555",
                                    linestyle="--" if dashed else "-", linewidth=1.4 if on else 1.0, zorder=2))
        ax.text(x, y, point, ha="center", va="center", fontsize=BOX_FONT, zorder=3, color="white" if on else "black",
                fontweight="bold" if on else "normal")
        names = lists.get(point, [])
        if names:
            text = "\n".join(names[:MAX_LISTED] + ([f"+{len(names) - MAX_LISTED} more"]
                                                   if len(names) > MAX_LISTED else []))
            ax.text(x, y - BOX_H / 2 - 0.04, text, ha="center", va="top", fontsize=LIST_FONT, color="#333",
                    linespacing=1.15, zorder=3)
    for a, b, label, dashed in FLOW:
        (xa, ya), (xb, yb) = LAYOUT[a], LAYOUT[b]
        style = dict(color="#444", linestyle="--" if dashed else "-", linewidth=1.0, zorder=1)
        if (a, b) == ("Permit", "PreBind"):
            # down from Permit, left below Unreserve, down into PreBind: crossing no box and no list
            xs, xe = xa, xb + 0.2
            ax.plot([xs, xs, xe], [ya - BOX_H / 2, BIND_TURN_Y, BIND_TURN_Y], **style)
            ax.add_patch(FancyArrowPatch((xe, BIND_TURN_Y), (xe, yb + BOX_H / 2), arrowstyle="-|>",
                                         mutation_scale=10, **style))
            ax.text(xs - 0.1, BIND_TURN_Y + 0.08, label, fontsize=LABEL_FONT, color="#444", ha="right",
                    va="bottom", zorder=3)
            continue
        if (a, b) == ("PreBind", "Unreserve"):
            # up from PreBind's left part, then right into Unreserve: clear of the Permit -> PreBind line
            xs = xa - DOWN_DX
            ax.plot([xs, xs], [ya + BOX_H / 2, yb], **style)
            ax.add_patch(FancyArrowPatch((xs, yb), (xb - BOX_W / 2, yb), arrowstyle="-|>", mutation_scale=10,
                                         **style))
            continue
        if ya == yb:
            start, end = (xa + BOX_W / 2, ya), (xb - BOX_W / 2, yb)
        elif xa == xb:  # straight down, along the box's left part so a plugin list under it stays clear
            start, end = (xa - DOWN_DX, ya - BOX_H / 2), (xb - DOWN_DX, yb + BOX_H / 2)
        else:
            down = yb < ya
            dx = 0.35 if xb > xa else -0.35
            start = (xa + dx, ya - BOX_H / 2 if down else ya + BOX_H / 2)
            end = (xb - dx, yb + BOX_H / 2 if down else yb - BOX_H / 2)
        rad = -0.25 if (a, b) == ("QueueSort", "PreFilter") else 0.0
        ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=10,
                                     connectionstyle=f"arc3,rad={rad}", **style))
        if label and xa == xb:  # beside the arrow, just above its head: clear of any plugin list
            ax.text(start[0] - 0.08, end[1] + 0.12, label, fontsize=LABEL_FONT, color="#444", ha="right",
                    va="bottom", zorder=3)
        elif label:
            ax.text((start[0] + end[0]) / 2 + 0.2, (start[1] + end[1]) / 2, label, fontsize=LABEL_FONT,
                    color="#444", ha="left", va="center", zorder=3)
    ax.set_xlim(-0.25, 12.15)
    ax.set_ylim(BIND_Y - 0.6 - (0.3 if lists else 0), QUEUE_Y + 0.5)
    ax.set_axis_off()
    ax.set_title("The scheduling framework: extension points in the order a pod meets them", fontsize=TITLE_FONT)
    return fig
