"""Matplotlib figures over a trace (and, for node usage, the scheduler cache).

Each function returns a ``matplotlib.figure.Figure`` built without pyplot, so
a notebook cell that ends with the call shows it once, and scripts can
``fig.savefig(...)``. Pass ``ax=`` to draw into axes of your own instead.
The numbers come from :mod:`ksched_edu.viz.readers`, which reads recorded
events; matplotlib is imported only when a figure is drawn.
"""
from .backoff import plot_backoff_curve
from .diagram import draw_framework_diagram
from .scores import plot_scores
from .timeline import plot_timeline
from .usage import plot_node_usage
from . import machine  # SVG pictures of the scheduler itself: pod_path, queue_moves, extension_points, cycles_timeline

__all__ = ["plot_backoff_curve", "plot_scores", "plot_timeline", "draw_framework_diagram", "plot_node_usage"]
