"""ipywidgets views over a trace: step through a cycle, watch the queue, look at the nodes.

    from ksched_edu.widgets import show_cycle
    show_cycle(sim)            # the first scheduling cycle, one extension point at a time

Every widget reads what the scheduler recorded (``ksched_edu.trace``) or, for
ClusterView, the scheduler cache at one moment; none re-runs a plugin. Each
works outside a notebook too: construct it, call ``.next()`` / ``.step()`` or
click its buttons (``.next_button.click()``), and read what it shows.
SourceView shows a ported function's Python beside the Go it ports.

One widget object displayed in several cells is one model with several views:
stepping it moves all of them. A cell that shows a stepping widget at a given
step therefore shows a new one, made with ``.at(step)``; it stands there
whatever the other cells do later:

    stepper = CycleStepper(sim)
    stepper.at("PreFilter")    # a cell about PreFilter
    stepper.at("Filter")       # a later cell about Filter: the first stays at PreFilter

    TopologyStepper(rec, tops).at(2)          # step 2 (0 is before the first allocation)
    PreemptionExplorer(sim).at("n4")          # candidate n4
    QueueExplorer(rec).at(time=2.5)           # after every move at or before t=2.5 s (or .at(12): after 12 moves)

The root element of each carries the class ``at_class(step)``, e.g.
``ksched-at-PreFilter``, ``ksched-at-2``, ``ksched-at-n4``, ``ksched-at-12``
(QueueExplorer: the moves applied), swapped on every move.

In Chinese (``ksched_edu.set_language("zh_CN")``, before the widget is made) its
buttons, headings, notes and status lines are Chinese (``ksched_edu.i18n``); the
step labels and classes, extension point and plugin names, node and pod names,
status codes, the scheduler's messages and the keys of ``table_rows()`` stay as
they are.
"""
from .cluster_view import ClusterView
from .cycle_stepper import CycleStepper, StepView, at_class, show_cycle
from .queue_explorer import QueueExplorer
from .source_view import SourceView
from .preemption import PreemptionExplorer
from .topology import TopologyStepper, show_gpu_topology

__all__ = ["CycleStepper", "QueueExplorer", "ClusterView", "PreemptionExplorer", "TopologyStepper", "SourceView",
           "StepView", "at_class", "show_cycle", "show_gpu_topology"]
