"""Pods on the virtual clock: queued, scheduling, waiting at Permit, binding, bound.

Upstream: the phases a pod goes through in pkg/scheduler — waiting in one of
the scheduling queue's parts (internal/queue/scheduling_queue.go), its
scheduling cycle (schedule_one.go schedulingCycle), its binding cycle (the
goroutine of bindingCycle; here a step on the virtual clock), which begins
with WaitOnPermit for a pod a Permit plugin holds, and bound. The
phases are read off the recorded queue, cycle and bind events
(:func:`ksched_edu.viz.readers.pod_phases`). A scheduling cycle takes no
virtual time, so it shows as a tick.
"""
from __future__ import annotations

from typing import Any, Optional

from ._figure import new_axes
from .readers import PHASES, pod_phases, recorder_of

PHASE_COLOURS = {"activeQ": "#1f77b4", "backoffQ": "#ff7f0e", "unschedulable": "#d62728",
                 "scheduling": "#9467bd", "waiting": "#e6b800", "binding": "#2ca02c", "bound": "#c7c7c7"}


def plot_timeline(recorder: Any, until: Optional[float] = None, ax: Optional[Any] = None) -> Any:
    """One row per pod (in order of arrival), coloured by phase, over virtual time."""
    rec = recorder_of(recorder)
    phases = pod_phases(rec)
    pods: list[str] = []
    for p in phases:
        if p.pod not in pods:
            pods.append(p.pod)
    last = max((getattr(e, "time", 0.0) for e in rec.events), default=0.0)
    end = until if until is not None else last
    span = end or 1.0
    own_figure = ax is None
    fig, ax = new_axes(ax, (8.0, 0.42 * max(len(pods), 2) + 1.5))
    row = {pod: len(pods) - 1 - i for i, pod in enumerate(pods)}
    seen: set[str] = set()
    for p in phases:
        stop = p.end if p.end is not None else max(end, p.start)
        colour = PHASE_COLOURS[p.phase]
        label = p.phase if p.phase not in seen else None
        seen.add(p.phase)
        if stop > p.start:
            ax.broken_barh([(p.start, stop - p.start)], (row[p.pod] - 0.3, 0.6), facecolors=colour, label=label)
        else:
            ax.plot([p.start], [row[p.pod]], marker="|", markersize=14, markeredgewidth=2.5, color=colour,
                    linestyle="none", label=label)
    ax.set_yticks([row[p] for p in pods], pods)
    ax.set_xlim(0, span * 1.04)
    ax.set_ylim(-0.7, len(pods) - 0.3)
    ax.set_xlabel("virtual time (s)")
    ax.set_title("Pods on the virtual clock", fontsize=10)
    handles, labels = ax.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: PHASES.index(labels[i]))
    handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    if own_figure:  # the constrained layout makes room for it below the axes
        fig.legend(handles, labels, loc="outside lower center", ncol=len(PHASES), fontsize=8, frameon=False)
    else:
        ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=len(PHASES), fontsize=8,
                  frameon=False)
    return fig
