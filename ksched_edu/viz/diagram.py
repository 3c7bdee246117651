"""The scheduling framework's extension points as a diagram.

Upstream: pkg/scheduler/framework/interface.go declares one interface per
extension point; framework/runtime/framework.go runs them; schedule_one.go
orders them: the scheduling queue (PreEnqueue, QueueSort), the scheduling
cycle (PreFilter, Filter, PostFilter when no node fits, PreScore, Score,
NormalizeScore, Reserve, Permit) and the binding cycle (PreBind, Bind,
PostBind), with Unreserve undoing Reserve when a later step fails. This is the
picture of the upstream docs' "scheduling framework" page, drawn with
matplotlib patches; give it a profile's plugins to list them under each point.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional, Union

from ._figure import new_axes

BOX_W, BOX_H = 1.5, 0.46
QUEUE_Y, CYCLE_Y, BRANCH_Y, BIND_Y = 3.45, 2.25, 1.1, 0.05

# point -> (x, y) of its box's centre.
LAYOUT = {
    "PreEnqueue": (0.9, QUEUE_Y), "QueueSort": (2.6, QUEUE_Y),
    "PreFilter": (0.9, CYCLE_Y), "Filter": (2.6, CYCLE_Y), "PreScore": (4.3, CYCLE_Y), "Score": (6.0, CYCLE_Y),
    "NormalizeScore": (7.7, CYCLE_Y), "Reserve": (9.4, CYCLE_Y), "Permit": (11.1, CYCLE_Y),
    "PostFilter": (2.6, BRANCH_Y), "Unreserve": (5.6, BRANCH_Y),
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


def _plugin_lists(plugins: Any) -> dict[str, list[str]]:
    """point -> plugin names (with the weight for Score), from a mapping or a Framework's list_plugins()."""
    if plugins is None:
        return {}
    if hasattr(plugins, "list_plugins"):
        plugins = plugins.list_plugins()
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

    ``plugins``: a Framework (its ``list_plugins()``) or a mapping point -> names, listed under each box.
    """
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle

    marked = {highlight} if isinstance(highlight, str) else set(highlight or ())
    unknown = marked - set(LAYOUT)
    if unknown:
        raise ValueError(f"unknown extension point(s) {sorted(unknown)}; one of {', '.join(LAYOUT)}")
    lists = _plugin_lists(plugins)
    fig, ax = new_axes(ax, (12.0, 5.2 if lists else 4.4))
    for label, y0, y1, colour in BANDS:
        ax.add_patch(Rectangle((-0.2, y0), 12.3, y1 - y0, facecolor=colour, edgecolor="none", zorder=0))
        ax.text(-0.1, y1 - 0.06, label, fontsize=8, color="#555", va="top", style="italic")
    for point, (x, y) in LAYOUT.items():
        on = point in marked
        dashed = point == "Unreserve"
        ax.add_patch(FancyBboxPatch((x - BOX_W / 2, y - BOX_H / 2), BOX_W, BOX_H, boxstyle="round,pad=0.02",
                                    facecolor="#1565c0" if on else "white", edgecolor="#1565c0" if on else "#555",
                                    linestyle="--" if dashed else "-", linewidth=1.4 if on else 1.0, zorder=2))
        ax.text(x, y, point, ha="center", va="center", fontsize=8.5, zorder=3, color="white" if on else "black",
                fontweight="bold" if on else "normal")
        names = lists.get(point, [])
        if names:
            text = "\n".join(names[:MAX_LISTED] + ([f"+{len(names) - MAX_LISTED} more"]
                                                   if len(names) > MAX_LISTED else []))
            ax.text(x, y - BOX_H / 2 - 0.03, text, ha="center", va="top", fontsize=5.5, color="#333", zorder=3)
    for a, b, label, dashed in FLOW:
        (xa, ya), (xb, yb) = LAYOUT[a], LAYOUT[b]
        if ya == yb:
            start, end = (xa + BOX_W / 2, ya), (xb - BOX_W / 2, yb)
        elif xa == xb:  # straight down, along the box's left part so a plugin list under it stays clear
            start, end = (xa - 0.5, ya - BOX_H / 2), (xb - 0.5, yb + BOX_H / 2)
        else:
            down = yb < ya
            dx = 0.35 if xb > xa else -0.35
            start = (xa + dx, ya - BOX_H / 2 if down else ya + BOX_H / 2)
            end = (xb - dx, yb + BOX_H / 2 if down else yb - BOX_H / 2)
        rad = -0.25 if (a, b) == ("QueueSort", "PreFilter") else 0.0
        ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=10, color="#444",
                                     linestyle="--" if dashed else "-", linewidth=1.0, zorder=1,
                                     connectionstyle=f"arc3,rad={rad}"))
        if label and xa == xb:  # beside the arrow, just above its head: clear of any plugin list
            ax.text(start[0] - 0.08, end[1] + 0.12, label, fontsize=7, color="#444", ha="right", va="bottom",
                    zorder=3)
        elif label:
            ax.text((start[0] + end[0]) / 2 + 0.08, (start[1] + end[1]) / 2, label, fontsize=7, color="#444",
                    ha="left", va="center", zorder=3)
    ax.set_xlim(-0.25, 12.15)
    ax.set_ylim(BIND_Y - 0.65 - (0.35 if lists else 0), QUEUE_Y + 0.5)
    ax.set_axis_off()
    ax.set_title("The scheduling framework: extension points in the order a pod meets them", fontsize=10)
    return fig
