"""Figures made without pyplot, so a notebook shows each one exactly once.

A ``matplotlib.figure.Figure`` built directly is not registered with pyplot:
the inline backend does not also draw it at the end of the cell, and no GUI
backend is ever needed. Returning it from a cell displays it as a PNG.
"""
from __future__ import annotations

from typing import Any, Optional

# Fixed colours (matplotlib's tab10), so the same plugin or phase has the same colour everywhere.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf")


def new_axes(ax: Optional[Any] = None, figsize: tuple[float, float] = (7.0, 3.5)) -> tuple[Any, Any]:
    """(figure, axes): the given axes and its figure, or a fresh pyplot-free figure with one axes."""
    if ax is not None:
        return ax.figure, ax
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()
