"""Pods on the virtual clock: queued, scheduling, waiting at Permit, binding, bound.

Upstream: the phases a pod goes through in pkg/scheduler — waiting in one of
the scheduling queue's parts (internal/queue/scheduling_queue.go), its
scheduling cycle (schedule_one.go schedulingCycle), its binding cycle (the
goroutine of bindingCycle; here a step on the virtual clock), which begins
with WaitOnPermit for a pod a Permit plugin holds, and bound. The
phases are read off the recorded queue, cycle and bind events
(:func:`ksched_edu.viz.readers.pod_phases`). A scheduling cycle takes no
virtual time, so it shows as a tick.

Three ways a pod can lose the node it was assumed on are marked where they
happened, each with its own legend entry (:func:`failure_marks`):

* **rejected at Permit**: a Permit plugin rejected the pod in its scheduling
  cycle (``RunPermitPlugins``), or something called ``Reject`` on the waiting
  pod (waiting_pods_map.go): a plugin such as Coscheduling releasing a gang,
  or preemption evicting a waiting victim (``"preempted"``);
* **Permit wait timed out**: a waiting pod's timer ran out and rejected it
  with upstream's ``rejected due to timeout after waiting %v at plugin %v``;
* **PreBind/Bind failed**: the binding cycle got past Permit and a PreBind or
  Bind plugin failed (``handleBindingCycleError`` forgot the pod).

Each of the three ends in Unreserve: the framework's ``RunReservePluginsUnreserve``
runs every Reserve plugin's Unreserve, in reverse order, for that cycle. A mark
reads those calls off the trace (``FailureMark.unreserved_by``) and its legend
entry says "then Unreserve" when they are there, so a failed binding cycle is
told apart from one that simply has not finished.

In Chinese the title and the time axis are Chinese; the legend names the phases and the
marks as the trace and :attr:`FailureMark.label` name them, in every language (a chapter
reads them off the legend).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Optional

from ..i18n import _
from ..trace import BindEvent, CycleEvent, PermitEvent, PluginEvent
from ._figure import localize_fonts, new_axes
from .readers import PHASES, pod_phases, recorder_of

PHASE_COLOURS = {"activeQ": "#1f77b4", "backoffQ": "#ff7f0e", "unschedulable": "#d62728",
                 "scheduling": "#9467bd", "waiting": "#e6b800", "binding": "#2ca02c", "bound": "#c7c7c7"}

# The kinds of failure mark, in legend order, with their legend text and marker style.
MARKS = ("rejected", "timeout", "bind-failed")
MARK_LABELS = {"rejected": "rejected at Permit", "timeout": "Permit wait timed out",
               "bind-failed": "PreBind/Bind failed"}
MARK_STYLES = {
    "rejected": {"marker": "X", "markersize": 11, "markerfacecolor": "#d62728", "markeredgecolor": "black"},
    "timeout": {"marker": "o", "markersize": 10, "markerfacecolor": "white", "markeredgecolor": "#b8860b",
                "markeredgewidth": 2.5},
    "bind-failed": {"marker": "D", "markersize": 8, "markerfacecolor": "#8c564b", "markeredgecolor": "black"},
}
_REJECTED_CODES = ("Unschedulable", "UnschedulableAndUnresolvable")
UNRESERVE_SUFFIX = ", then Unreserve"


@dataclass(frozen=True)
class FailureMark:
    """One pod losing its assumed node: ``kind`` is one of :data:`MARKS`."""

    pod: str
    time: float
    cycle: int
    kind: str
    message: str = ""
    # The Reserve plugins whose Unreserve ran for this cycle, in the order they ran.
    unreserved_by: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return MARK_LABELS[self.kind] + (UNRESERVE_SUFFIX if self.unreserved_by else "")


def failure_marks(recorder: Any) -> list[FailureMark]:
    """Every Permit rejection, Permit timeout and PreBind/Bind failure of the trace, in order,
    each with the Unreserve calls its cycle ended in.

    Read off the events: a PermitEvent ``rejected`` or ``timeout`` (the end of a
    wait), a Permit PluginEvent that rejected the pod in its scheduling cycle,
    and a ``forget`` BindEvent of a cycle that was scheduled and got past Permit
    (a forget inside the scheduling cycle, after Reserve or Permit said no, or
    after a Permit wait ended badly, is not a bind failure).
    """
    marks: list[FailureMark] = []
    scheduled: set[int] = set()
    permit_failed: set[int] = set()
    unreserved: dict[tuple[str, int], list[str]] = {}
    for e in recorder_of(recorder).events:
        if isinstance(e, PluginEvent) and e.point == "Unreserve":
            unreserved.setdefault((e.pod, e.cycle), []).append(e.plugin)
        if isinstance(e, CycleEvent) and e.kind == "scheduled":
            scheduled.add(e.cycle)
        elif isinstance(e, PermitEvent) and e.kind in ("rejected", "timeout"):
            permit_failed.add(e.cycle)
            marks.append(FailureMark(e.pod, e.time, e.cycle, e.kind, e.message))
        elif (isinstance(e, PluginEvent) and e.point == "Permit" and e.code in _REJECTED_CODES
              and not e.dry_run):
            marks.append(FailureMark(e.pod, e.time, e.cycle, "rejected", ", ".join(e.reasons)))
        elif (isinstance(e, BindEvent) and e.kind == "forget" and e.cycle in scheduled
              and e.cycle not in permit_failed):
            marks.append(FailureMark(e.pod, e.time, e.cycle, "bind-failed", e.message))
    return [replace(m, unreserved_by=tuple(unreserved.get((m.pod, m.cycle), ()))) for m in marks]


def plot_timeline(recorder: Any, until: Optional[float] = None, ax: Optional[Any] = None) -> Any:
    """One row per pod (in order of arrival), coloured by phase, over virtual time, with a mark
    where a pod was rejected at Permit, timed out waiting at Permit, or failed PreBind/Bind."""
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
    for m in failure_marks(rec):
        if m.pod not in row or m.time > end:
            continue
        label = m.label if m.label not in seen else None
        seen.add(m.label)
        ax.plot([m.time], [row[m.pod]], linestyle="none", zorder=5, label=label, **MARK_STYLES[m.kind])
    ax.set_yticks([row[p] for p in pods], pods)
    ax.set_xlim(0, span * 1.04)
    ax.set_ylim(-0.7, len(pods) - 0.3)
    ax.set_xlabel(_("virtual time (s)"))
    ax.set_title(_("Pods on the virtual clock"), fontsize=10)
    handles, labels = ax.get_legend_handles_labels()
    legend_order = list(PHASES) + [MARK_LABELS[k] for k in MARKS]
    order = sorted(range(len(labels)), key=lambda i: legend_order.index(labels[i].removesuffix(UNRESERVE_SUFFIX)))
    handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    # One row for the phases alone; with failure marks too, two rows that fit the width.
    ncol = len(PHASES) if len(labels) <= len(PHASES) else -(-len(labels) // 2)
    if own_figure:  # the constrained layout makes room for it below the axes
        fig.legend(handles, labels, loc="outside lower center", ncol=ncol, fontsize=8, frameon=False)
    else:
        ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=ncol, fontsize=8,
                  frameon=False)
    return localize_fonts(fig)
