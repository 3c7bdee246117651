"""ipywidgets views over a trace: step through a cycle, watch the queue, look at the nodes.

    from ksched_edu.widgets import show_cycle
    show_cycle(sim)            # the first scheduling cycle, one extension point at a time

Every widget reads what the scheduler recorded (``ksched_edu.trace``) or, for
ClusterView, the scheduler cache at one moment; none re-runs a plugin. Each
works outside a notebook too: construct it, call ``.next()`` / ``.step()`` or
click its buttons (``.next_button.click()``), and read what it shows.
SourceView shows a ported function's Python beside the Go it ports.
"""
from .cluster_view import ClusterView
from .cycle_stepper import CycleStepper, show_cycle
from .queue_explorer import QueueExplorer
from .source_view import SourceView
from .preemption import PreemptionExplorer
from .topology import TopologyStepper, show_gpu_topology

__all__ = ["CycleStepper", "QueueExplorer", "ClusterView", "PreemptionExplorer", "TopologyStepper", "SourceView",
           "show_cycle", "show_gpu_topology"]
