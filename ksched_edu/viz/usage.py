"""Nodes' requested vs allocatable resources as a heatmap (one row per node).

Upstream: NodeInfo.Requested and NodeInfo.Allocatable in
pkg/scheduler/framework/types.go, as the scheduler cache holds them
(internal/cache/cache.go) and its dumper prints them
(internal/cache/debugger/dumper.go). Read with :func:`ksched_edu.viz.readers.node_usage`.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

from ..i18n import _
from ._figure import localize_fonts, new_axes
from .readers import format_amount, node_usage, resources_in

ANNOTATE_UP_TO = 40  # nodes; beyond that the cells are too small for text


def plot_node_usage(source: Any, resources: Optional[Sequence[str]] = None, ax: Optional[Any] = None) -> Any:
    """Fraction requested per node and resource (cpu, memory, pods, and GPUs or other extended resources)."""
    usage = node_usage(source)
    cols = list(resources) if resources is not None else resources_in(usage)
    fig, ax = new_axes(ax, (1.6 * len(cols) + 3.0, 0.32 * max(len(usage), 3) + 1.4))
    data = [[min(u.fraction(r), 1.0) for r in cols] for u in usage]
    image = ax.imshow(data or [[0.0] * len(cols)], cmap="YlOrRd", vmin=0.0, vmax=1.0, aspect="auto")
    if len(usage) <= ANNOTATE_UP_TO:
        for i, u in enumerate(usage):
            for j, r in enumerate(cols):
                text = f"{format_amount(r, u.requested.get(r, 0))}/{format_amount(r, u.allocatable.get(r, 0))}"
                ax.text(j, i, text, ha="center", va="center", fontsize=8,
                        color="white" if data[i][j] > 0.6 else "black")
    ax.set_xticks(range(len(cols)), cols)
    ax.xaxis.tick_top()
    step = 1 if len(usage) <= ANNOTATE_UP_TO else max(1, len(usage) // 25)
    ax.set_yticks(range(0, len(usage), step), [u.node for u in usage][::step])
    fig.colorbar(image, ax=ax, label=_("requested / allocatable"), shrink=0.8)
    ax.set_title(_("Node usage (scheduler cache)"), fontsize=10)
    return localize_fonts(fig)
