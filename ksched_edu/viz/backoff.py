"""The pod backoff curve, from the scheduling queue's own calculation.

Upstream: pkg/scheduler/internal/queue/scheduling_queue.go calculateBackoffDuration
(the initial backoff doubled for each attempt after the first, capped at the
maximum; 1 s and 10 s by default, podInitialBackoffSeconds and
podMaxBackoffSeconds in the configuration). The values are asked from a real
PriorityQueue (see :func:`ksched_edu.viz.readers.backoff_durations`).
"""
from __future__ import annotations

from typing import Any, Optional

from ..i18n import _
from ._figure import PALETTE, localize_fonts, new_axes
from .readers import backoff_durations


def plot_backoff_curve(initial: float = 1, max: float = 10, attempts: int = 8, ax: Optional[Any] = None) -> Any:
    """Bars of the backoff a pod serves after each failed attempt, with the cap as a dashed line."""
    durations = backoff_durations(initial, max, attempts)
    fig, ax = new_axes(ax, (6.5, 3.2))
    xs = list(range(1, attempts + 1))
    bars = ax.bar(xs, durations, color=[PALETTE[3] if d >= max else PALETTE[0] for d in durations])
    ax.bar_label(bars, labels=[f"{d:g}s" for d in durations], padding=2, fontsize=8)
    ax.axhline(max, color=PALETTE[3], linestyle="--", linewidth=1, label=f"podMaxBackoffSeconds = {max:g}")
    ax.set_xticks(xs)
    ax.set_xlabel(_("attempts so far"))
    ax.set_ylabel(_("backoff (virtual seconds)"))
    ax.set_ylim(0, max * 1.2)
    ax.set_title(_("Pod backoff: {initial}s doubled per attempt, capped at {max}s").format(
        initial=f"{initial:g}", max=f"{max:g}"), fontsize=10)
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    return localize_fonts(fig)
