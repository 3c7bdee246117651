"""CycleStepper: one pod's scheduling cycle, one extension point at a time, read off the trace.

What it shows and where upstream does it (kubernetes pkg/scheduler, v1.30):

- The strip of extension points (framework/interface.go): QueueSort, PreFilter,
  Filter, PostFilter, PreScore, Score, NormalizeScore, Reserve, Permit, PreBind,
  Bind, PostBind. The current one carries the class ``ksched-current``; points
  the cycle never reached are dashed (``ksched-idle``), a point that stopped
  the pod is red (``ksched-failed``).
- QueueSort: activeQ when ``Pop`` took the pod (internal/queue/scheduling_queue.go),
  rebuilt from the QueueEvents.
- PreFilter and PreScore: each plugin's status and the CycleState written so far
  (framework/runtime/framework.go RunPreFilterPlugins / RunPreScorePlugins).
- Filter: node x plugin verdicts with reasons (RunFilterPlugins, called by
  findNodesThatPassFilters in schedule_one.go); rejections are highlighted.
- PostFilter: the plugins' statuses and, with DefaultPreemption, its candidates
  (RunPostFilterPlugins; framework/preemption/preemption.go).
- Score and NormalizeScore: raw scores, then normalized and weighted, with the
  totals that selectHost compares (RunScorePlugins, schedule_one.go selectHost).
- Reserve, Permit: RunReservePluginsReserve / RunPermitPlugins, after the pod was
  assumed in the cache (schedule_one.go assume); Unreserve calls are listed under Reserve.
  A pod a Permit plugin holds (Coscheduling's gang) shows its wait and how it
  ended: allowed, rejected or timed out (framework/runtime/waiting_pods_map.go,
  WaitOnPermit at the start of bindingCycle).
- PreBind, Bind, PostBind: the binding cycle (schedule_one.go bindingCycle), later
  on the virtual clock.

The chosen node's row carries ``ksched-winner`` in every node table. The widget
only reads recorded events; it never re-runs a plugin.

This module also holds what every stepping widget of the package shares:
``at_class`` (the CSS class naming the step a widget stands at), the
``StepView`` mix-in that keeps that class in sync, and ``control_row`` (a row
of buttons that wraps rather than squeezing its labels).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, Union

import ipywidgets as widgets

from ..anchors import upstream
from ..framework.runtime import Framework
from ..i18n import N_, _
from ..trace import PermitEvent, PluginEvent
from ..viz.readers import (BINDING_POINTS, CYCLE_POINTS, CycleRecord, filter_rows, index_cycles, pick_cycle,
                           recorder_of, score_rows, score_weights)
from ._html import STYLE, Section, attrs, escape, note, render_section, sentences
from .source_view import SourceView

PASS, FAIL, NOT_RUN = "✔", "✘", "—"
REJECTING_CODES = ("Unschedulable", "UnschedulableAndUnresolvable", "Error")
FRAMEWORK = "(the framework)"  # a status the runtime itself returned, naming no plugin
# Values of the tables' rows (English, as code reads them; the table shows them with _()).
HEAD, FEASIBLE = N_("★ head"), N_("feasible")

# One line per point: what it does and the upstream function that runs it.
# (English, marked for the catalogs; shown with _().)
POINT_HELP = {
    "QueueSort": N_("orders activeQ; Pop takes its head (scheduling_queue.go)"),
    "PreFilter": N_("prepares data for Filter, may reject early (RunPreFilterPlugins)"),
    "Filter": N_("can the pod run on this node? (RunFilterPlugins, per node)"),
    "PostFilter": N_("no node fits: try preemption (RunPostFilterPlugins)"),
    "PreScore": N_("prepares data for Score (RunPreScorePlugins)"),
    "Score": N_("rank each feasible node (RunScorePlugins)"),
    "NormalizeScore": N_("map scores to 0..100, then apply weights (RunScorePlugins)"),
    "Reserve": N_("book the node's resources for the assumed pod (RunReservePluginsReserve)"),
    "Permit": N_("approve, deny or wait before binding (RunPermitPlugins)"),
    "PreBind": N_("work before binding, e.g. volumes (RunPreBindPlugins)"),
    "Bind": N_("write the binding to the API server (RunBindPlugins)"),
    "PostBind": N_("informational, after a successful bind (RunPostBindPlugins)"),
}

# How a cycle ended (outcome()), as a learner reads it; the English words are the trace's.
OUTCOME_TEXT = {
    "scheduled": N_("scheduled"), "unschedulable": N_("unschedulable"), "error": N_("error"),
    "running": N_("running"), "timed out at Permit": N_("timed out at Permit"),
    "rejected at Permit": N_("rejected at Permit"), "rejected at Reserve": N_("rejected at Reserve"),
}


def outcome_text(ended: str) -> str:
    """``ended`` (what :func:`outcome` returns) in the course's language."""
    return _(OUTCOME_TEXT[ended]) if ended in OUTCOME_TEXT else ended


# The runtime function (framework/runtime/framework.go) that runs each point's plugins.
# NormalizeScore has none of its own: RunScorePlugins normalizes and weighs too.
RUNTIME_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "QueueSort": Framework.queue_sort_func,
    "PreFilter": Framework.run_pre_filter_plugins,
    "Filter": Framework.run_filter_plugins,
    "PostFilter": Framework.run_post_filter_plugins,
    "PreScore": Framework.run_pre_score_plugins,
    "Score": Framework.run_score_plugins,
    "NormalizeScore": Framework.run_score_plugins,
    "Reserve": Framework.run_reserve_plugins_reserve,
    "Permit": Framework.run_permit_plugins,
    "PreBind": Framework.run_pre_bind_plugins,
    "Bind": Framework.run_bind_plugins,
    "PostBind": Framework.run_post_bind_plugins,
}


def render_runtime_link(point: str) -> str:
    """One line: the Go runtime function of ``point`` (a permalink) and the port's function."""
    fn = RUNTIME_FUNCTIONS[point]
    anchor = upstream(fn)
    port = escape(fn.__qualname__)
    if anchor is None:
        return '<div class="ksched-runtime">' + _("Runtime: {port}").format(port=port) + "</div>"
    where = f"{anchor.path.rsplit('/', 1)[-1]}#L{anchor.start}"
    link = (f'<a href="{escape(anchor.permalink)}" target="_blank" rel="noopener">{escape(anchor.go)}</a>')
    return ('<div class="ksched-runtime">'
            + _("Runtime: {go} ({where}) · port: {port}").format(go=link, where=escape(where),
                                                                 port=f"<code>{port}</code>")
            + "</div>")


@dataclass
class PointView:
    """What one extension point of one cycle shows: did it run, a note, and its tables."""

    point: str
    ran: bool
    failed: bool = False
    note: str = ""
    sections: list[Section] = field(default_factory=list)


# --- building the view of one point --------------------------------------------------------


def point_view(record: CycleRecord, point: str) -> PointView:
    """The view of ``point`` in ``record``'s cycle."""
    if point not in CYCLE_POINTS:
        raise ValueError(f"unknown extension point {point!r}; one of {', '.join(CYCLE_POINTS)}")
    return _BUILDERS[point](record)


def _failed(calls: list[PluginEvent]) -> bool:
    return any(e.code in REJECTING_CODES for e in calls)


def _plugin_section(title: str, calls: list[PluginEvent], *, call_column: bool = False,
                    node: bool = False, time: bool = False) -> Section:
    cols = (["call"] if call_column else []) + ["plugin"] + (["node"] if node else []) + ["code", "reasons"]
    cols += ["time (s)"] if time else []
    s = Section(title, cols)
    for e in calls:
        row: dict[str, Any] = {"call": e.point, "plugin": e.plugin or FRAMEWORK, "node": e.node, "code": e.code,
                               "reasons": "; ".join(e.reasons), "time (s)": e.time}
        if e.code in REJECTING_CODES:
            s.add(row, cells={"code": "ksched-rejected", "reasons": "ksched-rejected"})
        else:
            s.add(row, cells={"code": "ksched-notrun"} if e.code == "Skip" else None)
    return s


def _state_section(record: CycleRecord, point: str) -> Optional[Section]:
    state = record.states.get(point)
    if state is None:
        return None
    s = Section(_("CycleState after {point}").format(point=point), ["key", "value"])
    for key, summary in state.entries:
        s.add({"key": key, "value": summary})
    return s


def _wait_refused(record: CycleRecord) -> Optional[PermitEvent]:
    """How the pod's wait at Permit ended, when it ended in a rejection or a timeout."""
    return next((p for p in record.permits if p.kind in ("rejected", "timeout")), None)


def outcome(record: CycleRecord) -> str:
    """How the cycle ended; a Reserve or Permit rejection after the pod was assumed is named as such."""
    sm = record.summary
    ended = _wait_refused(record)
    if ended is not None:
        return "timed out at Permit" if ended.kind == "timeout" else "rejected at Permit"
    if sm.outcome in ("unschedulable", "error") and record.bind_event("forget") is not None:
        at = next((p for p in ("Reserve", "Permit") if _failed(record.calls(p))), "")
        if at:
            return f"rejected at {at}"
    return sm.outcome


def cycle_label(record: CycleRecord) -> str:
    """The cycle's name in the selector: ``#1 default/web → n3`` or ``#2 default/big: unschedulable``."""
    ended = outcome(record)
    return record.summary.label if ended == record.summary.outcome else f"#{record.cycle} {record.summary.pod}: {ended}"


def _not_reached(record: CycleRecord, point: str) -> str:
    ended = outcome(record)
    if ended == "running":
        return _("{point} has not run: the cycle had not ended when the trace was read.").format(point=point)
    if ended == "scheduled":
        return _("{point} did not run in this cycle.").format(point=point)
    return _("Not reached: the cycle ended before {point} ({outcome}).").format(point=point,
                                                                              outcome=outcome_text(ended))


def _queue_sort(r: CycleRecord) -> PointView:
    pod = r.summary.pod
    s = Section(_("activeQ when the pod was popped"), ["pod", "in activeQ since (s)", "popped"])
    if r.pop is None:
        return PointView("QueueSort", False, note=_("The trace holds no pop of {pod} for this cycle.").format(pod=pod))
    since = dict(r.active_at_pop)
    s.add({"pod": pod, "in activeQ since (s)": since.get(pod, r.pop.time), "popped": HEAD}, "ksched-winner",
          shown={"popped": _(HEAD)})
    for other, t in r.active_at_pop:
        if other != pod:
            s.add({"pod": other, "in activeQ since (s)": t, "popped": ""})
    text = _("The profile's QueueSort plugin (PrioritySort by default: higher priority first, then the earlier "
             "arrival) keeps activeQ in order; Pop took {pod} from its head at t={time}s.").format(
                 pod=pod, time=f"{r.pop.time:g}")
    if len(s.rows) > 1:
        text = sentences(text, _("The other pods (in the order they arrived) wait for later cycles."))
    return PointView("QueueSort", True, note=text, sections=[s])


def _pre_point(r: CycleRecord, point: str) -> PointView:
    calls = r.calls(point)
    sections = [_plugin_section(_("{point} plugins").format(point=point), calls)] if calls else []
    state = _state_section(r, point)
    if state is not None:
        sections.append(state)
    if not calls and state is None:
        if point == "PreScore" and r.summary.outcome == "scheduled" and r.summary.feasible_nodes == 1:
            text = _("Skipped: only one node passed Filter, so schedulePod takes it without scoring "
                     "(PreScore, Score and NormalizeScore do not run).")
        else:
            text = _not_reached(r, point)
        return PointView(point, False, note=text)
    failed = _failed(calls)
    if failed:
        text = _("{point} rejected the pod: {reasons}").format(
            point=point, reasons="; ".join(r for e in calls if e.code in REJECTING_CODES for r in e.reasons))
    elif point == "PreFilter":
        text = _("PreFilter plugins compute what their Filter needs once per cycle and keep it in the "
                 "CycleState; Skip means the plugin has nothing to check for this pod, so its Filter is skipped.")
    else:
        text = _("PreScore plugins compute what their Score needs once per cycle and keep it in the CycleState; "
                 "Skip means the plugin's Score is skipped for this pod.")
    return PointView(point, True, failed, text, sections)


def _filter(r: CycleRecord) -> PointView:
    plugins, rows = filter_rows(r)
    if not rows:
        pre = r.calls("PreFilter")
        if _failed(pre):
            return PointView("Filter", False,
                             note=_("Not run: PreFilter rejected the pod, so no node was filtered."))
        return PointView("Filter", False, note=_not_reached(r, "Filter"))
    s = Section(_("Filter: node × plugin"), ["node"] + plugins + ["verdict", "chosen"])
    for row in rows:
        values: dict[str, Any] = {"node": row.node}
        cells: dict[str, str] = {}
        titles: dict[str, str] = {}
        for p in plugins:
            e = row.calls.get(p)
            if e is None:
                values[p], cells[p], titles[p] = NOT_RUN, "ksched-notrun", _("not run: an earlier plugin rejected")
            elif e.code == "Success":
                values[p] = PASS
            else:
                values[p] = f"{FAIL} " + ("; ".join(e.reasons) or e.code)
                cells[p], titles[p] = "ksched-rejected", e.code
        values["verdict"] = FEASIBLE if row.feasible else row.code
        shown = {"verdict": _(FEASIBLE)} if row.feasible else None
        if not row.feasible:
            cells["verdict"] = "ksched-rejected"
        values["chosen"] = "★" if row.node == r.winner else ""
        s.add(values, "ksched-winner" if row.node == r.winner else ("" if row.feasible else "ksched-rejected-row"),
              cells, titles, shown)
    feasible = sum(1 for row in rows if row.feasible)
    text = _("{feasible} of {filtered} filtered node(s) passed. Nodes are listed in the order they were "
             "filtered (from the rotating start index); a node's filtering stops at its first rejection "
             "({not_run} = not run).").format(feasible=feasible, filtered=len(rows), not_run=NOT_RUN)
    return PointView("Filter", True, feasible == 0, text, [s])


def _post_filter(r: CycleRecord) -> PointView:
    calls = r.calls("PostFilter")
    if not calls:
        if r.summary.outcome == "scheduled":
            return PointView("PostFilter", False,
                             note=_("Not run: a node passed Filter, so there is nothing to preempt for."))
        return PointView("PostFilter", False, note=_not_reached(r, "PostFilter"))
    sections = [_plugin_section(_("{point} plugins").format(point="PostFilter"), calls)]
    p = r.preemption
    text = _("No node passed Filter, so the PostFilter plugins (preemption) ran.")
    if p is not None:
        s = Section(_("Preemption candidates"), ["node", "victims", "pdb violations", "highest priority",
                                              "sum of priorities", "earliest start", "chosen"])
        for row in p.rows():
            shown = dict(row, chosen="★" if row["chosen"] else "")
            s.add(shown, "ksched-winner" if row["chosen"] else "")
        sections.append(s)
        if p.nominated_node:
            text = sentences(text, _("DefaultPreemption nominated {node} ({rule}) and evicts {victims}.").format(
                node=p.nominated_node, rule=p.decided_by, victims=", ".join(p.victims)))
        elif p.message:
            text = sentences(text, p.message)
    if r.dry_run:
        nodes = sorted({e.node for e in r.dry_run})
        text = sentences(text, _("Its dry run called the Filter plugins {count} more times, on copies of {nodes} "
                                 "with victims removed; those calls are not in the Filter table.").format(
                                     count=len(r.dry_run), nodes=", ".join(nodes)))
    return PointView("PostFilter", True, _failed(calls), text, sections)


def _score(r: CycleRecord, normalized: bool) -> PointView:
    point = "NormalizeScore" if normalized else "Score"
    plugins, rows = score_rows(r)
    if not rows:
        pv = _pre_point(r, "PreScore")
        return PointView(point, False, note=pv.note if not pv.ran else _not_reached(r, point))
    weights = score_weights(plugins, rows)
    cols = ["node"] + plugins + (["total"] if normalized else []) + ["chosen"]
    s = Section(_("Normalized → weighted scores") if normalized else _("Raw scores (as each Score returned)"), cols)
    for row in rows:
        values: dict[str, Any] = {"node": row.node, "chosen": "★" if row.node == r.winner else ""}
        titles: dict[str, str] = {}
        for p in plugins:
            titles[p] = _("raw {raw}, normalized {normalized}, weight {weight}, weighted {weighted}").format(
                raw=row.raw[p], normalized=row.normalized[p], weight=weights[p] or "?", weighted=row.weighted[p])
            values[p] = f"{row.normalized[p]} → {row.weighted[p]}" if normalized else row.raw[p]
        if normalized:
            values["total"] = row.total
        s.add(values, "ksched-winner" if row.node == r.winner else "", titles=titles)
    headers = ["node"] + [f"{p} ×{weights[p]}" if normalized and weights[p] else p for p in plugins]
    headers += (["total"] if normalized else []) + ["chosen"]
    s.headers = headers
    if normalized:
        top = max(row.total for row in rows)
        text = _("Each plugin's NormalizeScore maps its raw scores to 0..100, then the runtime multiplies by the "
                 "plugin's weight. The highest total ({top}) wins; selectHost breaks ties at random with the "
                 "scheduler's seeded generator.").format(top=top)
        if r.winner:
            text = sentences(text, _("Chosen: {node}.").format(node=r.winner))
    else:
        text = _("Each Score plugin rates every feasible node; these are the raw values, before NormalizeScore.")
    return PointView(point, True, False, text, [s])


def _reserve(r: CycleRecord) -> PointView:
    calls = r.calls("Reserve") + r.calls("Unreserve")
    assume = r.bind_event("assume")
    if assume is None and not calls:
        return PointView("Reserve", False, note=_not_reached(r, "Reserve"))
    text = ""
    if assume is not None:
        text = _("The pod was assumed on {node} in the scheduler cache at t={time}s, before binding (optimistic "
                 "binding); Reserve plugins book what they need for it.").format(node=assume.node,
                                                                                time=f"{assume.time:g}")
    forget = r.bind_event("forget")
    if forget is not None:
        text = sentences(text, _("Later the cache forgot it (t={time}s) and Unreserve ran in reverse order.").format(
            time=f"{forget.time:g}"))
    sections = ([_plugin_section(_("{point} plugins").format(point="Reserve"), calls, call_column=True, node=True)]
                if calls else [])
    if not calls:
        text = sentences(text, _("No {point} plugin is enabled in this profile.").format(point="Reserve"))
    return PointView("Reserve", True, _failed(r.calls("Reserve")), text.strip(), sections)


def _permit(r: CycleRecord) -> PointView:
    calls = r.calls("Permit")
    if not calls:
        if r.bind_event("assume") is not None and not _failed(r.calls("Reserve")):
            return PointView("Permit", True, note=_("No Permit plugin is enabled in this profile: the pod is "
                                                    "allowed and goes on to the binding cycle."))
        return PointView("Permit", False, note=_not_reached(r, "Permit"))
    text = _("Permit plugins approve the pod, reject it, or make it wait (Wait) before the binding cycle.")
    sections = [_plugin_section(_("{point} plugins").format(point="Permit"), calls, node=True)]
    if r.permits:
        text = sentences(text, _wait_story(r))
        sections.append(_wait_section(r))
    failed = _failed(calls) or _wait_refused(r) is not None
    return PointView("Permit", True, failed, text, sections)


def _wait_story(r: CycleRecord) -> str:
    """One sentence on the pod's wait at Permit, from its PermitEvents."""
    wait = next((p for p in r.permits if p.kind == "wait"), None)
    end = next((p for p in r.permits if p.kind != "wait"), None)
    if wait is None:
        return ""
    text = _("The pod waited on {node} from t={time}s for {plugins} (its timer would end the wait at "
             "t={deadline}s)").format(node=wait.node, time=f"{wait.time:g}", plugins=", ".join(wait.plugins),
                                      deadline=f"{wait.deadline:g}")
    if end is None:
        return _("{wait} and was still waiting when the trace was read.").format(wait=text)
    ended = {"allowed": _("{wait}; at t={time}s it was allowed"), "rejected": _("{wait}; at t={time}s it was rejected"),
             "timeout": _("{wait}; at t={time}s it timed out")}[end.kind]
    text = ended.format(wait=text, time=f"{end.time:g}")
    return (_("{story}: {message}.").format(story=text, message=end.message) if end.message
            else _("{story}.").format(story=text))


def _wait_section(r: CycleRecord) -> Section:
    s = Section(_("Waiting at Permit"), ["time (s)", "event", "node", "plugins", "message"])
    for p in r.permits:
        row = {"time (s)": p.time, "event": p.kind, "node": p.node, "plugins": ", ".join(p.plugins),
               "message": p.message}
        s.add(row, cells={"event": "ksched-rejected", "message": "ksched-rejected"}
              if p.kind in ("rejected", "timeout") else None)
    return s


def _binding(r: CycleRecord, point: str) -> PointView:
    calls = r.calls(point)
    bound, forget = r.bind_event("bound"), r.bind_event("forget")
    started = bound is not None or any(r.calls(p) for p in BINDING_POINTS)
    reached = {"PreBind": started, "Bind": started and not _failed(r.calls("PreBind")),
               "PostBind": bound is not None}[point]
    if not calls:
        if reached:
            return PointView(point, True, note=_("No {point} plugin is enabled in this profile.").format(point=point))
        if _wait_refused(r) is not None:
            return PointView(point, False, note=_("Not reached: the pod's wait at Permit ended without an allow "
                                                  "({outcome}); the binding cycle unreserved it.").format(
                                                      outcome=outcome_text(outcome(r))))
        if r.summary.outcome == "scheduled" and not started and forget is None:
            if r.permits and all(p.kind == "wait" for p in r.permits):
                return PointView(point, False, note=_("Not reached yet: the pod is still waiting at Permit "
                                                      "(run the simulation further, then refresh())."))
            return PointView(point, False, note=_("The binding cycle has not run yet: it runs later on the "
                                                  "virtual clock (run the simulation further, then refresh())."))
        if forget is not None and r.summary.outcome == "scheduled":
            return PointView(point, False, note=_("Not reached: the pod's binding failed and the cache forgot it "
                                                  "at t={time}s.").format(time=f"{forget.time:g}"))
        return PointView(point, False, note=_not_reached(r, point))
    text = {"PreBind": _("The binding cycle runs after the scheduling cycle, later on the virtual clock."),
            "Bind": _("Bind plugins run in order until one handles the pod; DefaultBinder writes the binding."),
            "PostBind": _("PostBind plugins are told about a successful bind; they cannot fail it.")}[point]
    if point == "Bind" and bound is not None:
        text = sentences(text, _("The pod was bound to {node} at t={time}s.").format(node=bound.node,
                                                                                    time=f"{bound.time:g}"))
    return PointView(point, True, _failed(calls), text,
                     [_plugin_section(_("{point} plugins").format(point=point), calls, node=True, time=True)])


_BUILDERS = {
    "QueueSort": _queue_sort,
    "PreFilter": lambda r: _pre_point(r, "PreFilter"),
    "Filter": _filter,
    "PostFilter": _post_filter,
    "PreScore": lambda r: _pre_point(r, "PreScore"),
    "Score": lambda r: _score(r, normalized=False),
    "NormalizeScore": lambda r: _score(r, normalized=True),
    "Reserve": _reserve,
    "Permit": _permit,
    "PreBind": lambda r: _binding(r, "PreBind"),
    "Bind": lambda r: _binding(r, "Bind"),
    "PostBind": lambda r: _binding(r, "PostBind"),
}


def render_strip(views: dict[str, PointView], current: str) -> str:
    items = []
    for point in CYCLE_POINTS:
        v = views[point]
        cls = ["ksched-point"]
        if not v.ran:
            cls.append("ksched-idle")
        if v.failed:
            cls.append("ksched-failed")
        if point == current:
            cls.append("ksched-current")
        extra = attrs(aria_current="step") if point == current else ""
        items.append(f'<span{attrs(class_=" ".join(cls), data_point=point, title=_(POINT_HELP[point]))}{extra}>'
                     f"{escape(point)}</span>")
    return '<div class="ksched-strip">' + "".join(items) + "</div>"


def render_view(view: PointView, cycle: int) -> str:
    body = [f'<div{attrs(class_="ksched-point-view", data_point=view.point, data_cycle=cycle)}>',
            '<div class="ksched-head">' + _("<b>{point}</b>: {help}").format(
                point=escape(view.point), help=escape(_(POINT_HELP[view.point]))) + "</div>",
            render_runtime_link(view.point), note(view.note)]
    for s in view.sections:
        body.append(render_section(s))
    body.append("</div>")
    return "".join(body)


def render_header(record: CycleRecord, cycle_count: int) -> str:
    sm = record.summary
    ended = outcome(record)
    if ended.startswith("rejected"):
        end = _("{outcome} on {node}").format(outcome=escape(outcome_text(ended)),
                                              node=escape(record.bind_event('forget').node))
    elif sm.outcome == "scheduled":
        if sm.evaluated_nodes:
            end = _("scheduled on <b>{node}</b> ({evaluated} node(s) evaluated, {feasible} feasible)").format(
                node=escape(sm.node), evaluated=sm.evaluated_nodes, feasible=sm.feasible_nodes)
        else:
            end = _("scheduled on <b>{node}</b>").format(node=escape(sm.node))
    elif sm.message:
        end = _("{outcome}: {message}").format(outcome=escape(outcome_text(sm.outcome)), message=escape(sm.message))
    else:
        end = escape(outcome_text(sm.outcome))
    head = _("Cycle <b>#{cycle}</b> of {count} · pod <b>{pod}</b> · profile {profile} · t={time}s · {end}")
    return ('<div class="ksched-head">'
            + head.format(cycle=sm.cycle, count=cycle_count, pod=escape(sm.pod), profile=escape(sm.profile),
                          time=f"{sm.time:g}", end=end)
            + "</div>")


# --- what every stepping widget shares ------------------------------------------------------

AT_PREFIX = "ksched-at-"
_NOT_IN_A_CLASS = re.compile(r"[^A-Za-z0-9_-]")


def at_class(step: Any) -> str:
    """The CSS class of a stepping widget standing at ``step``: ``ksched-at-`` and the step's label.

    Every character of the label outside ``[A-Za-z0-9_-]`` becomes ``-``:
    ``at_class("PreFilter") == "ksched-at-PreFilter"``, ``at_class(2) == "ksched-at-2"``,
    ``at_class("gpu-1") == "ksched-at-gpu-1"``, ``at_class("a.b/c") == "ksched-at-a-b-c"``.
    """
    return AT_PREFIX + _NOT_IN_A_CLASS.sub("-", str(step))


class StepView:
    """Mix-in of the stepping widgets: the root element names the current step in a CSS class.

    The widget carries exactly one class ``ksched-at-<label>`` (see :func:`at_class`), where
    ``<label>`` is :attr:`step_label`; every move calls :meth:`_mark_step`, which swaps it.
    ``.at(...)`` of each widget returns a new, independent widget of the same class over the
    same recorded data, standing at the step given: displaying it in another cell and stepping
    either one never moves the other (one ipywidgets object shown twice moves both views).
    """

    @property
    def step_label(self) -> str:
        """The current step's name, as the ``ksched-at-`` class names it (before mangling)."""
        raise NotImplementedError

    @property
    def step_class(self) -> str:
        """The CSS class ``ksched-at-<step>`` the root element carries now."""
        return at_class(self.step_label)

    def _mark_step(self) -> None:
        """Swap the ``ksched-at-`` class for the current step's (call it on every move)."""
        root: Any = self  # a widget: the class that mixes this in is an ipywidgets box
        new = self.step_class
        for old in [c for c in root._dom_classes if c.startswith(AT_PREFIX) and c != new]:
            root.remove_class(old)
        if new not in root._dom_classes:
            root.add_class(new)


def control_row(children: Iterable[widgets.Widget]) -> widgets.HBox:
    """A row of controls that wraps onto a second line instead of squeezing them.

    An HBox shrinks its children when the notebook is narrow (a button then reads "Ne…");
    here every child keeps its own width (``flex: 0 0 auto``, buttons ``width: auto``) and
    the row wraps (``flex-flow: row wrap``).
    """
    children = list(children)
    for child in children:
        child.layout.flex = "0 0 auto"
        if isinstance(child, (widgets.Button, widgets.ToggleButton)):
            child.layout.width = "auto"
    return widgets.HBox(children, layout=widgets.Layout(flex_flow="row wrap", align_items="center"))


# --- the widget -----------------------------------------------------------------------------


class CycleStepper(StepView, widgets.VBox):
    """Step through one scheduling cycle's extension points; works in a notebook and in plain Python.

    ``CycleStepper(recorder_or_simulation, cycle=None, point="QueueSort")`` shows the first
    cycle unless told otherwise, standing at ``point``. ``.next()``, ``.prev()``, ``.reset()``,
    ``.goto(point)`` move this widget; ``.point`` names the current point;
    ``.table_rows()`` and ``.table_html`` are what the table shows.

    ``.at(point, cycle=None)`` returns a new, independent CycleStepper over the same trace,
    standing at ``point``: a cell that discusses PreFilter shows ``stepper.at("PreFilter")``,
    and stepping it (or the original) moves nothing else. The root element carries the class
    ``ksched-at-<point>`` (``ksched-at-PreFilter``, see :func:`at_class`), swapped on every move.
    """

    def __init__(self, recorder: Any, cycle: Optional[int] = None, *, point: Union[str, int] = "QueueSort",
                 interval_ms: int = 1200) -> None:
        self.recorder = recorder_of(recorder)
        self._cycles = index_cycles(self.recorder)
        self._record = pick_cycle(self._cycles, cycle)
        self._views: dict[str, PointView] = {}
        self._build(self._point_index(point), interval_ms)

    def at(self, point: Union[str, int, None] = None, *, cycle: Optional[int] = None) -> "CycleStepper":
        """A new CycleStepper over the same trace, at ``point`` (by name or position; None: this one's point)
        of ``cycle`` (None: this one's cycle). It moves independently of this one."""
        index = self._index if point is None else self._point_index(point)
        record = self._record if cycle is None else pick_cycle(self._cycles, cycle)
        view = type(self).__new__(type(self))
        view.recorder, view._cycles, view._record = self.recorder, self._cycles, record
        view._views = dict(self._views) if record is self._record else {}
        view._build(index, self.play.interval)
        return view

    def _build(self, index: int, interval_ms: int) -> None:
        """The child widgets, standing at point ``index`` of the shown cycle."""
        self._index = 0
        self._syncing = False

        self.style_html = widgets.HTML(STYLE)
        self.header = widgets.HTML()
        self.header.add_class("ksched-header")
        self.strip = widgets.HTML()
        self.strip.add_class("ksched-strip-widget")
        self.table = widgets.HTML()
        self.table.add_class("ksched-table")
        self.reset_button = widgets.Button(description=_("⟲ Reset"), tooltip=_("Back to the first extension point"))
        self.prev_button = widgets.Button(description=_("◀ Prev"), tooltip=_("Previous extension point"))
        self.next_button = widgets.Button(description=_("Next ▶"), tooltip=_("Next extension point"))
        self.play = widgets.Play(value=0, min=0, max=len(CYCLE_POINTS) - 1, step=1, interval=interval_ms,
                                 repeat=False, description=_("Play"), tooltip=_("Play through the extension points"))
        self.point_dropdown = widgets.Dropdown(options=list(CYCLE_POINTS), value=CYCLE_POINTS[0],
                                               description=_("Jump to"), layout=widgets.Layout(width="230px"))
        self.cycle_dropdown = widgets.Dropdown(description=_("Cycle"), layout=widgets.Layout(width="330px"))
        self.source_button = widgets.ToggleButton(
            value=False, description=_("Python ⇄ Go"),
            tooltip=_("Show the runtime function of this point, Python beside Go"))
        self.source = widgets.VBox()
        self.source.add_class("ksched-stepper-source")
        self.reset_button.on_click(lambda _: self.reset())
        self.prev_button.on_click(lambda _: self.prev())
        self.next_button.on_click(lambda _: self.next())
        self.play.observe(self._on_play, names="value")
        self.point_dropdown.observe(self._on_point_dropdown, names="value")
        self.cycle_dropdown.observe(self._on_cycle_dropdown, names="value")
        self.source_button.observe(lambda _: self._render_source(), names="value")
        self.controls = control_row([self.reset_button, self.prev_button, self.play, self.next_button,
                                     self.point_dropdown, self.cycle_dropdown, self.source_button])
        super().__init__(children=[self.style_html, self.header, self.strip, self.controls, self.table,
                                   self.source])
        self.add_class("ksched-stepper")
        self._fill_cycle_dropdown()
        self._index = index
        self._render()

    # --- what a test or a notebook reads ------------------------------------------------

    @property
    def point(self) -> str:
        """The current extension point's name."""
        return CYCLE_POINTS[self._index]

    @property
    def step_label(self) -> str:
        """The current extension point's name: the root element's class is ``ksched-at-<point>``."""
        return self.point

    @property
    def points(self) -> tuple[str, ...]:
        return CYCLE_POINTS

    @property
    def cycle(self) -> int:
        return self._record.cycle

    @property
    def record(self) -> CycleRecord:
        """Everything the trace holds about the shown cycle."""
        return self._record

    @property
    def cycles(self) -> list[int]:
        return sorted(self._cycles)

    @property
    def view(self) -> PointView:
        return self._view(self.point)

    @property
    def table_html(self) -> str:
        return self.table.value

    @property
    def strip_html(self) -> str:
        return self.strip.value

    @property
    def runtime_function(self) -> Callable[..., Any]:
        """The port's runtime function that runs the current point's plugins (``SourceView`` takes it)."""
        return RUNTIME_FUNCTIONS[self.point]

    def table_rows(self) -> list[dict[str, Any]]:
        """The rows of the current point's main table (the first one shown), as dicts column -> value."""
        sections = self.view.sections
        return [dict(r) for r in sections[0].rows] if sections else []

    def sections(self) -> list[Section]:
        """Every table the current point shows (PreFilter and PreScore add the CycleState)."""
        return list(self.view.sections)

    # --- moving ---------------------------------------------------------------------

    def next(self) -> None:
        """Go to the next extension point (stays on the last one)."""
        self._go(min(self._index + 1, len(CYCLE_POINTS) - 1))

    def prev(self) -> None:
        """Go to the previous extension point (stays on the first one)."""
        self._go(max(self._index - 1, 0))

    def reset(self) -> None:
        """Back to QueueSort; stops playing."""
        self.play.playing = False
        self._go(0)

    def goto(self, point: Union[str, int]) -> None:
        """Jump to an extension point, by name ("Filter") or position (0..11)."""
        self._go(self._point_index(point))

    def select_cycle(self, cycle: int) -> None:
        """Show another cycle of the same trace, at the same extension point."""
        self._record = pick_cycle(self._cycles, cycle)
        self._views = {}
        self._render()

    def refresh(self) -> None:
        """Read the trace again (after the simulation ran further)."""
        self._cycles = index_cycles(self.recorder)
        self._record = pick_cycle(self._cycles, self._record.cycle)
        self._views = {}
        self._fill_cycle_dropdown()
        self._render()

    # --- internals --------------------------------------------------------------------

    @staticmethod
    def _point_index(point: Union[str, int]) -> int:
        if isinstance(point, int) and not isinstance(point, bool):
            if not 0 <= point < len(CYCLE_POINTS):
                raise ValueError(f"point index {point} out of range 0..{len(CYCLE_POINTS) - 1} "
                                 f"({', '.join(CYCLE_POINTS)})")
            return point
        if point not in CYCLE_POINTS:
            raise ValueError(f"unknown extension point {point!r}; one of {', '.join(CYCLE_POINTS)}")
        return CYCLE_POINTS.index(point)

    def _view(self, point: str) -> PointView:
        view = self._views.get(point)
        if view is None:
            view = self._views[point] = point_view(self._record, point)
        return view

    def _go(self, index: int) -> None:
        self._index = index
        self._render()

    def _render(self) -> None:
        views = {p: self._view(p) for p in CYCLE_POINTS}
        self._mark_step()
        self.header.value = render_header(self._record, len(self._cycles))
        self.strip.value = render_strip(views, self.point)
        self.table.value = render_view(views[self.point], self._record.cycle)
        self.prev_button.disabled = self._index == 0
        self.next_button.disabled = self._index == len(CYCLE_POINTS) - 1
        self._render_source()
        self._syncing = True
        try:
            self.point_dropdown.value = self.point
            self.play.value = self._index
            self.cycle_dropdown.value = self._record.cycle
        finally:
            self._syncing = False

    def _render_source(self) -> None:
        """With the toggle on: the SourceView of the current point's runtime function (built on demand)."""
        if not self.source_button.value:
            self.source.children = ()
            return
        shown = self.source.children[0] if self.source.children else None
        if not isinstance(shown, SourceView) or shown.qualname != self.runtime_function.__qualname__:
            self.source.children = (SourceView(self.runtime_function),)

    def _fill_cycle_dropdown(self) -> None:
        self._syncing = True
        try:
            self.cycle_dropdown.options = [(cycle_label(self._cycles[n]), n) for n in sorted(self._cycles)]
            self.cycle_dropdown.value = self._record.cycle
        finally:
            self._syncing = False
        self.cycle_dropdown.layout.display = "none" if len(self._cycles) < 2 else None

    def _on_play(self, change: dict) -> None:
        if not self._syncing:
            self._go(int(change["new"]))

    def _on_point_dropdown(self, change: dict) -> None:
        if not self._syncing and change["new"] is not None:
            self.goto(change["new"])

    def _on_cycle_dropdown(self, change: dict) -> None:
        if not self._syncing and change["new"] is not None:
            self.select_cycle(int(change["new"]))

    def __repr__(self) -> str:
        return f"CycleStepper(cycle={self.cycle}, pod={self._record.summary.pod!r}, point={self.point!r})"


def show_cycle(sim_or_recorder: Any, cycle: Optional[int] = None,
               point: Union[str, int] = "QueueSort") -> CycleStepper:
    """A CycleStepper over a Simulation's (or a Recorder's) trace, ready to display."""
    return CycleStepper(sim_or_recorder, cycle, point=point)
