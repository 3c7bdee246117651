"""Stacked weighted scores per node, by Score plugin, for one scheduling cycle.

Upstream: pkg/scheduler/framework/runtime/framework.go RunScorePlugins (each
plugin's score, normalized, times its weight) and schedule_one.go
prioritizeNodes / selectHost (the node with the highest sum wins). The numbers
are the recorded PluginEvents of the Score point.
"""
from __future__ import annotations

from typing import Any, Optional

from ..i18n import _
from ._figure import PALETTE, localize_fonts, new_axes
from .readers import first_cycle_with, index_cycles, pick_cycle, score_rows, score_weights


def plot_scores(recorder: Any, cycle: Optional[int] = None, ax: Optional[Any] = None) -> Any:
    """One horizontal bar per scored node, split by plugin; the chosen node is starred.

    ``cycle`` None picks the first cycle that scored nodes.
    """
    cycles = index_cycles(recorder)
    record = pick_cycle(cycles, cycle if cycle is not None else first_cycle_with(cycles, "Score"))
    plugins, rows = score_rows(record)
    fig, ax = new_axes(ax, (7.5, 0.45 * max(len(rows), 2) + 1.4))
    title = _("Cycle #{cycle}: {pod}, weighted scores by plugin").format(cycle=record.cycle, pod=record.summary.pod)
    if not rows:
        if record.summary.feasible_nodes == 1:
            text = _("cycle #{cycle} scored no node ({outcome}, one feasible node)")
        else:
            text = _("cycle #{cycle} scored no node ({outcome})")
        ax.text(0.5, 0.5, text.format(cycle=record.cycle, outcome=record.summary.outcome),
                ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        ax.set_title(title, fontsize=10)
        return localize_fonts(fig)
    weights = score_weights(plugins, rows)
    names = [r.node for r in rows]
    ys = list(range(len(rows)))[::-1]
    left = [0] * len(rows)
    for i, p in enumerate(plugins):
        values = [r.weighted[p] for r in rows]
        label = f"{p} ×{weights[p]}" if weights[p] else p
        ax.barh(ys, values, left=left, color=PALETTE[i % len(PALETTE)], label=label, height=0.6)
        left = [a + b for a, b in zip(left, values)]
    for y, r in zip(ys, rows):
        star = " ★" if r.node == record.winner else ""
        ax.text(r.total, y, f" {r.total}{star}", va="center", fontsize=9,
                fontweight="bold" if star else "normal")
    ax.set_yticks(ys, [n + (" ★" if n == record.winner else "") for n in names])
    ax.set_xlabel(_("weighted score (normalized score × weight)"))
    ax.set_xlim(0, max(left) * 1.15 if max(left) else 1)
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25 if len(rows) < 4 else -0.12), ncol=2, fontsize=8,
              frameon=False)
    return localize_fonts(fig)
