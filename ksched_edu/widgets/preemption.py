"""PreemptionExplorer: DefaultPreemption's candidates, one at a time, and the rule that picked the node.

What it shows and where upstream does it (kubernetes pkg/scheduler, v1.30):

- The dry run (framework/preemption/preemption.go DryRunPreemption, with
  default_preemption.go GetOffsetAndNumCandidates): how many candidates it
  looked for, the random offset it started from, the nodes it checked in order.
- One candidate at a time: its victims as SelectVictimsOnNode left them
  (default_preemption.go), how many PodDisruptionBudgets they violate, the
  highest and the summed victim priority, the earliest start among the
  highest-priority victims.
- The rules of pickOneNodeForPreemption (preemption.go), in upstream's order:
  which nodes each rule compared and kept, what the shown candidate scored and
  whether it was kept or dropped there. The rule that left a single node
  carries ``ksched-decided``; rules never reached are greyed (``ksched-notrun``).
- Every candidate in one table, the shown one marked ``ksched-current-row``,
  the nominated node ``ksched-winner``; then the nodes that are no candidate,
  with the reason the dry run (or nodesWherePreemptionMightHelp) gave.

Everything comes from the PreemptionEvent the Evaluator recorded; the widget
never runs a plugin or re-applies a rule.
"""
from __future__ import annotations

import datetime as dt
from typing import Any, Callable, Optional, Union

import ipywidgets as widgets

from ..framework.preemption import (CRITERION_FIRST, CRITERION_LATEST_START_TIME, CRITERION_MIN_HIGHEST_PRIORITY,
                                    CRITERION_MIN_NUM_PODS, CRITERION_MIN_PDB_VIOLATIONS,
                                    CRITERION_MIN_SUM_PRIORITIES, CRITERION_ONLY_CANDIDATE, DEFAULT_CRITERIA)
from ..goint import MAX_INT32
from ..i18n import N_, _
from ..trace import PreemptionCandidate, PreemptionCriterion, PreemptionEvent
from ..viz.readers import CycleRecord, index_cycles, recorder_of
from ._html import STYLE, Section, attrs, escape, note, render_section
from .cycle_stepper import StepView, control_row, outcome_text

# What each rule compares (pickOneNodeForPreemption's comments, in our words; shown with _()).
RULE_HELP = {
    CRITERION_MIN_PDB_VIOLATIONS: N_("PodDisruptionBudgets the victims would violate: fewest wins"),
    CRITERION_MIN_HIGHEST_PRIORITY: N_("priority of the most important victim: lowest wins"),
    CRITERION_MIN_SUM_PRIORITIES: N_("sum of the victims' priorities, each plus MaxInt32+1 (shown plain here; "
                                     "the candidates table has the compared sum): lowest wins"),
    CRITERION_MIN_NUM_PODS: N_("number of victims: fewest wins"),
    CRITERION_LATEST_START_TIME: N_("earliest start among the highest-priority victims: latest wins"),
    CRITERION_FIRST: N_("every rule tied: the first candidate left wins (upstream: any of them)"),
    CRITERION_ONLY_CANDIDATE: N_("the dry run found one candidate: SelectCandidate takes it"),
}
CUSTOM_RULE = N_("a custom score: highest wins")
# A rule's verdict on the candidate shown, and a victim without a start time. The rows keep these
# English words (code reads them); the tables show them in the course's language (shown()).
DECIDED, KEPT, DROPPED, OUT_EARLIER, NOT_NEEDED = (N_("★ decided"), N_("kept"), N_("✘ dropped"), N_("out earlier"),
                                                   N_("not needed"))
NOT_STARTED = N_("not started")
# What a candidate's table lists, in order (its "what" column).
VICTIMS, PDB_VIOLATIONS, HIGHEST, SUM, EARLIEST, OUTCOME = (
    N_("victims (evicted in this order)"), N_("PDB violations"), N_("highest victim priority"),
    N_("sum of victim priorities"), N_("earliest start (highest-priority victims)"), N_("outcome"))

EXTRA_STYLE = """<style>
.ksched-grid tr.ksched-current-row td {box-shadow: inset 0 2px 0 #1565c0, inset 0 -2px 0 #1565c0;}
.ksched-grid tr.ksched-decided td {background: #fff3c4; font-weight: bold;}
.ksched-grid tr.ksched-idle-row td {color: #a0a0a0;}
</style>"""


def format_start(t: Optional[float]) -> str:
    """A recorded start time as RFC 3339 (UTC); "not started" when the victim has no startTime."""
    if t is None:
        return NOT_STARTED
    return dt.datetime.fromtimestamp(t, tz=dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# pickOneNodeForPreemption adds MaxInt32+1 to every victim's priority before summing.
SUM_OFFSET = MAX_INT32 + 1
SUM_COMPARED = N_("sum compared (each + MaxInt32+1)")  # a column's key; shown translated


# The English words of this module a table shows translated (see shown()).
_WORDS = frozenset([*RULE_HELP.values(), CUSTOM_RULE, DECIDED, KEPT, DROPPED, OUT_EARLIER, NOT_NEEDED, NOT_STARTED,
                    VICTIMS, PDB_VIOLATIONS, HIGHEST, SUM, SUM_COMPARED, EARLIEST, OUTCOME])


def compared_sum(c: PreemptionCandidate) -> int:
    """The sum pickOneNodeForPreemption compares: every victim's priority plus MaxInt32+1."""
    return c.sum_priorities + SUM_OFFSET * len(c.victims)


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def candidate_value(c: PreemptionCandidate, rule: str, crit: Optional[PreemptionCriterion]) -> Any:
    """What ``rule`` looks at for candidate ``c``, as recorded (a custom rule shows its recorded score)."""
    values = {CRITERION_MIN_PDB_VIOLATIONS: c.num_pdb_violations, CRITERION_MIN_HIGHEST_PRIORITY: c.highest_priority,
              CRITERION_MIN_SUM_PRIORITIES: c.sum_priorities, CRITERION_MIN_NUM_PODS: len(c.victims),
              CRITERION_LATEST_START_TIME: format_start(c.earliest_start_time)}
    if rule in values:
        return values[rule]
    if crit is not None:
        return dict(crit.scores).get(c.node, "")
    return ""


def event_label(e: PreemptionEvent) -> str:
    """``#1 default/critical → n3`` or ``#2 default/critical: not eligible ...``."""
    if e.nominated_node:
        return f"#{e.cycle} {e.pod} → {e.nominated_node}"
    text = e.message if len(e.message) <= 60 else e.message[:57] + "..."
    return f"#{e.cycle} {e.pod}: " + (text or _("no candidate"))


def shown(row: dict[str, Any]) -> dict[str, str]:
    """What the table shows for the cells of ``row`` that hold one of this module's English words:
    the word in the course's language."""
    return {col: _(value) for col, value in row.items() if isinstance(value, str) and value in _WORDS}


def rules_of(e: PreemptionEvent) -> list[str]:
    """The rules shown, in order: the default five (or the recorded custom ones), then the final pick if any."""
    recorded = [c.name for c in e.criteria]
    rules = list(DEFAULT_CRITERIA) if all(r in DEFAULT_CRITERIA for r in recorded) else recorded
    if e.decided_by in (CRITERION_FIRST, CRITERION_ONLY_CANDIDATE):
        rules.append(e.decided_by)
    return rules


def fate(e: PreemptionEvent, node: str, *, translated: bool = False) -> str:
    """Why candidate ``node`` won or lost, read off the recorded rules (in English, or with
    ``translated`` in the course's language)."""
    say: Callable[[str], str] = _ if translated else str
    if not e.nominated_node:
        return say(N_("no node was nominated"))
    if node == e.nominated_node:
        return say(N_("nominated: {rule}")).format(rule=e.decided_by)
    for crit in e.criteria:
        compared = [n for n, _score in crit.scores]
        if node in compared and node not in crit.kept:
            return say(N_("dropped by {rule}")).format(rule=crit.name)
    return say(N_("tied to the end; {rule} went to {node}")).format(rule=e.decided_by, node=e.nominated_node)


def criteria_section(e: PreemptionEvent, c: Optional[PreemptionCandidate]) -> Section:
    """pickOneNodeForPreemption's rules in order, with what the shown candidate scored under each."""
    s = Section(_("pickOneNodeForPreemption: the rules, in order"),
                ["#", "rule", "compares", "this candidate", "nodes compared", "nodes kept", "verdict"])
    applied = {crit.name: crit for crit in e.criteria}
    for i, rule in enumerate(rules_of(e), start=1):
        crit = applied.get(rule)
        row: dict[str, Any] = {"#": i, "rule": rule,
                               "compares": RULE_HELP.get(rule, CUSTOM_RULE),
                               "this candidate": candidate_value(c, rule, crit) if c is not None else ""}
        cells: dict[str, str] = {}
        titles: dict[str, str] = {}
        if rule in (CRITERION_FIRST, CRITERION_ONLY_CANDIDATE):
            left = list(e.criteria[-1].kept) if e.criteria else [e.nominated_node]
            row.update({"nodes compared": ", ".join(left), "nodes kept": e.nominated_node, "this candidate": ""})
            if c is None or c.node == e.nominated_node:
                row["verdict"] = DECIDED
            elif c.node in left:
                row["verdict"], cells["verdict"] = DROPPED, "ksched-rejected"
            else:
                row["verdict"], cells["verdict"] = OUT_EARLIER, "ksched-notrun"
            s.add(row, "ksched-decided", cells, shown=shown(row))
            continue
        if crit is None:
            row.update({"nodes compared": "", "nodes kept": "", "verdict": NOT_NEEDED})
            s.add(row, "ksched-idle-row", {k: "ksched-notrun" for k in s.columns}, shown=shown(row))
            continue
        compared = [n for n, _score in crit.scores]
        row["nodes compared"] = ", ".join(compared)
        row["nodes kept"] = ", ".join(crit.kept)
        titles["nodes compared"] = "; ".join(_("{node}: score {score}").format(node=n, score=_number(score))
                                             for n, score in crit.scores)
        decided = rule == e.decided_by
        if c is None:
            row["verdict"] = DECIDED if decided else ""
        elif c.node not in compared:
            row["verdict"] = OUT_EARLIER
            cells["verdict"] = "ksched-notrun"
        elif c.node in crit.kept:
            row["verdict"] = DECIDED if decided else KEPT
        else:
            row["verdict"] = DROPPED
            cells["verdict"] = cells["this candidate"] = "ksched-rejected"
        s.add(row, "ksched-decided" if decided else "", cells, titles, shown(row))
    return s


def candidates_section(e: PreemptionEvent, current: int) -> Section:
    s = Section(_("Candidates, in dry-run order (those violating no PDB first)"),
                ["#", "node", "victims", "count", "pdb violations", "highest priority", "sum of priorities",
                 SUM_COMPARED, "earliest start", "chosen"])
    for i, c in enumerate(e.candidates):
        chosen = c.node == e.nominated_node
        row = {"#": i + 1, "node": c.node, "victims": ", ".join(c.victims), "count": len(c.victims),
               "pdb violations": c.num_pdb_violations, "highest priority": c.highest_priority,
               "sum of priorities": c.sum_priorities, SUM_COMPARED: compared_sum(c),
               "earliest start": format_start(c.earliest_start_time), "chosen": "★" if chosen else ""}
        s.add(row, " ".join(cls for cls, on in (("ksched-winner", chosen), ("ksched-current-row", i == current)) if on),
              {"pdb violations": "ksched-rejected"} if c.num_pdb_violations else None, shown=shown(row))
    return s


def candidate_section(e: PreemptionEvent, c: PreemptionCandidate) -> Section:
    s = Section(_("Candidate {node}").format(node=c.node), ["what", "value"])
    for what, value in ((VICTIMS, ", ".join(c.victims)), (PDB_VIOLATIONS, c.num_pdb_violations),
                        (HIGHEST, c.highest_priority), (SUM, c.sum_priorities), (SUM_COMPARED, compared_sum(c)),
                        (EARLIEST, format_start(c.earliest_start_time))):
        row = {"what": what, "value": value}
        bad = what == PDB_VIOLATIONS and c.num_pdb_violations
        s.add(row, cells={"value": "ksched-rejected"} if bad else None, shown=shown(row))
    won = c.node == e.nominated_node
    s.add({"what": OUTCOME, "value": fate(e, c.node)}, "ksched-winner" if won else "",
          shown={"what": _(OUTCOME), "value": fate(e, c.node, translated=True)})
    return s


def ruled_out_section(e: PreemptionEvent) -> Optional[Section]:
    if not e.node_statuses:
        return None
    s = Section(_("Nodes that are no candidate"), ["node", "reason"])
    for node, reason in e.node_statuses:
        s.add({"node": node, "reason": reason}, cells={"reason": "ksched-rejected"})
    return s


def dry_run_note(e: PreemptionEvent) -> str:
    if not e.dry_run:
        return ""
    return _("The dry run looked for {count} candidate(s), starting at offset {offset} of the nodes where "
             "preemption might help, and checked {nodes} in that order.").format(
                 count=e.num_candidates, offset=e.offset, nodes=", ".join(e.dry_run))


def render_header(e: PreemptionEvent, record: Optional[CycleRecord]) -> str:
    if e.nominated_node:
        result = _("nominated <b>{node}</b> ({rule}), evicts {victims}").format(
            node=escape(e.nominated_node), rule=escape(e.decided_by), victims=escape(", ".join(e.victims)))
    else:
        result = escape(e.message or _("no candidate"))
    head = _("Preemption for pod <b>{pod}</b> · cycle #{cycle} · profile {profile} · t={time}s · {result}")
    head = ('<div class="ksched-head">'
            + head.format(pod=escape(e.pod), cycle=e.cycle, profile=escape(e.profile), time=f"{e.time:g}",
                          result=result)
            + "</div>")
    if record is not None and record.summary.message:
        head += note(_("The cycle ended {outcome}: {message}").format(outcome=outcome_text(record.summary.outcome),
                                                                      message=record.summary.message))
    return head


# --- the widget -----------------------------------------------------------------------------


NO_CANDIDATE = "none"  # the step label of an attempt that found no candidate


class PreemptionExplorer(StepView, widgets.VBox):
    """Step through one preemption attempt's candidates; works in a notebook and in plain Python.

    ``PreemptionExplorer(recorder_or_simulation, cycle=None, candidate=None)`` shows the first
    attempt that found candidates (or the given cycle's), at its first candidate (or the one
    named: a node name or a 0-based position). ``.next()``, ``.prev()``,
    ``.goto(node_or_index)`` move this widget; ``.candidate`` is the candidate shown;
    ``.rows()`` the candidates table, ``.criteria_rows()`` the rules table.

    ``.at(node, cycle=None)`` returns a new, independent PreemptionExplorer over the same trace,
    showing candidate ``node``: a cell that discusses n4 shows ``explorer.at("n4")``. The root
    element carries the class ``ksched-at-<node>`` (``ksched-at-n4``, ``ksched-at-gpu-1``, see
    :func:`at_class`; ``ksched-at-none`` for an attempt without candidates), swapped on every move.
    """

    def __init__(self, recorder: Any, cycle: Optional[int] = None, *,
                 candidate: Union[str, int, None] = None) -> None:
        self.recorder = recorder_of(recorder)
        self._events: list[PreemptionEvent] = []
        self._cycles: dict[int, CycleRecord] = {}
        self._build()
        self._read(cycle, candidate)

    def at(self, candidate: Union[str, int, None] = None, *, cycle: Optional[int] = None) -> "PreemptionExplorer":
        """A new PreemptionExplorer over the same trace, showing ``candidate`` (a node name or a 0-based
        position; None: this one's candidate, or the first of another ``cycle``) of the attempt of
        ``cycle`` (None: this one's attempt). It moves independently of this one."""
        event_index = self._event_index if cycle is None else self._find(cycle)
        if candidate is None:
            index = self._index if event_index == self._event_index else 0
        else:
            index = self._candidate_index(self._events[event_index], candidate)
        view = type(self).__new__(type(self))
        view.recorder, view._events, view._cycles = self.recorder, self._events, self._cycles
        view._build()
        view._show(event_index, index)
        return view

    def _build(self) -> None:
        """The child widgets (empty until an attempt is shown)."""
        self._event_index = 0
        self._index = 0
        self._syncing = False
        self.style_html = widgets.HTML(STYLE + EXTRA_STYLE)
        self.header = widgets.HTML()
        self.header.add_class("ksched-header")
        self.table = widgets.HTML()
        self.table.add_class("ksched-table")
        self.prev_button = widgets.Button(description=_("◀ Prev"), tooltip=_("Previous candidate"))
        self.next_button = widgets.Button(description=_("Next ▶"), tooltip=_("Next candidate"))
        self.position = widgets.HTML()
        self.event_dropdown = widgets.Dropdown(description=_("Attempt"), layout=widgets.Layout(width="420px"))
        self.prev_button.on_click(lambda _: self.prev())
        self.next_button.on_click(lambda _: self.next())
        self.event_dropdown.observe(self._on_event_dropdown, names="value")
        self.controls = control_row([self.prev_button, self.position, self.next_button, self.event_dropdown])
        super().__init__(children=[self.style_html, self.header, self.controls, self.table])
        self.add_class("ksched-preemption")

    # --- what a test or a notebook reads ------------------------------------------------

    @property
    def event(self) -> PreemptionEvent:
        """The preemption attempt shown."""
        return self._events[self._event_index]

    @property
    def events(self) -> list[PreemptionEvent]:
        return list(self._events)

    @property
    def cycle(self) -> int:
        return self.event.cycle

    @property
    def index(self) -> int:
        """The position of the shown candidate (0-based)."""
        return self._index

    @property
    def candidate(self) -> Optional[PreemptionCandidate]:
        """The candidate shown; None when the attempt found none."""
        cands = self.event.candidates
        return cands[self._index] if cands else None

    @property
    def step_label(self) -> str:
        """The node of the candidate shown ("none" without one): the root element's class is ``ksched-at-<node>``."""
        c = self.candidate
        return c.node if c is not None else NO_CANDIDATE

    @property
    def table_html(self) -> str:
        return self.table.value

    def rows(self) -> list[dict[str, Any]]:
        """Every candidate as the candidates table shows it (column -> value)."""
        return [dict(r) for r in candidates_section(self.event, self._index).rows]

    def criteria_rows(self) -> list[dict[str, Any]]:
        """The rules of pickOneNodeForPreemption, in order, as seen from the shown candidate."""
        return [dict(r) for r in criteria_section(self.event, self.candidate).rows]

    def sections(self) -> list[Section]:
        """Every table shown, in order."""
        e, c = self.event, self.candidate
        out = [candidate_section(e, c)] if c is not None else []
        out.append(criteria_section(e, c))
        if e.candidates:
            out.append(candidates_section(e, self._index))
        ruled_out = ruled_out_section(e)
        if ruled_out is not None:
            out.append(ruled_out)
        return out

    # --- moving ---------------------------------------------------------------------

    def next(self) -> None:
        """Show the next candidate (stays on the last)."""
        self._go(min(self._index + 1, max(len(self.event.candidates) - 1, 0)))

    def prev(self) -> None:
        """Show the previous candidate (stays on the first)."""
        self._go(max(self._index - 1, 0))

    def goto(self, target: Union[str, int]) -> None:
        """Show a candidate by node name ("n3") or position (0-based)."""
        self._go(self._candidate_index(self.event, target))

    def select_cycle(self, cycle: int) -> None:
        """Show the preemption attempt of another cycle, from its first candidate."""
        self._event_index = self._find(cycle)
        self._index = 0
        self._render()

    def refresh(self) -> None:
        """Read the trace again (after the simulation ran further)."""
        self._read(self.cycle)

    # --- internals --------------------------------------------------------------------

    def _read(self, cycle: Optional[int], candidate: Union[str, int, None] = None) -> None:
        self._events = self.recorder.of(PreemptionEvent)
        if not self._events:
            raise ValueError("the trace holds no preemption attempt: build the Simulation with "
                             "recorder=Recorder() and run it until a pod that fits nowhere ran PostFilter")
        self._cycles = index_cycles(self.recorder)
        if cycle is None:
            event_index = next((i for i, e in enumerate(self._events) if e.candidates), 0)
        else:
            event_index = self._find(cycle)
        index = 0 if candidate is None else self._candidate_index(self._events[event_index], candidate)
        self._show(event_index, index)

    def _show(self, event_index: int, index: int) -> None:
        """Show candidate ``index`` of attempt ``event_index``, with the attempts in the dropdown."""
        self._event_index, self._index = event_index, index
        self._syncing = True
        try:
            self.event_dropdown.options = [(event_label(e), i) for i, e in enumerate(self._events)]
            self.event_dropdown.value = self._event_index
        finally:
            self._syncing = False
        self.event_dropdown.layout.display = "none" if len(self._events) < 2 else None
        self._render()

    @staticmethod
    def _candidate_index(e: PreemptionEvent, target: Union[str, int]) -> int:
        """The position of candidate ``target`` (a node name or a 0-based position) of attempt ``e``."""
        nodes = [c.node for c in e.candidates]
        if isinstance(target, str):
            if target not in nodes:
                raise ValueError(f"{target!r} is no candidate; the candidates are {', '.join(nodes) or 'none'}")
            return nodes.index(target)
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < len(nodes):
            if not nodes:
                raise ValueError(f"no candidate {target!r}: cycle {e.cycle}'s attempt found no candidate")
            raise ValueError(f"candidate index {target!r} out of range 0..{len(nodes) - 1} "
                             f"({', '.join(nodes)})")
        return target

    def _find(self, cycle: int) -> int:
        found = next((i for i, e in enumerate(self._events) if e.cycle == cycle), None)
        if found is None:
            have = ", ".join(str(e.cycle) for e in self._events)
            raise ValueError(f"no preemption attempt in cycle {cycle}; the trace has them in cycles {have}")
        return found

    def _go(self, index: int) -> None:
        self._index = index
        self._render()

    def _render(self) -> None:
        e = self.event
        self._mark_step()
        self.header.value = render_header(e, self._cycles.get(e.cycle))
        n = len(e.candidates)
        c = self.candidate
        self.position.value = ('<span class="ksched-head">'
                               + (_("candidate <b>{position}</b> of {count}: <b>{node}</b>").format(
                                   position=self._index + 1, count=n, node=escape(c.node)) if c is not None
                                  else escape(_("no candidate")))
                               + "</span>")
        body = [f'<div{attrs(class_="ksched-preemption-view", data_cycle=e.cycle, data_node=c.node if c else None)}>']
        body.append(note(dry_run_note(e)))
        body += [render_section(s) for s in self.sections()]
        body.append("</div>")
        self.table.value = "".join(body)
        self.prev_button.disabled = self._index == 0
        self.next_button.disabled = self._index >= n - 1
        self._syncing = True
        try:
            self.event_dropdown.value = self._event_index
        finally:
            self._syncing = False

    def _on_event_dropdown(self, change: dict) -> None:
        if not self._syncing and change["new"] is not None:
            self.select_cycle(self._events[int(change["new"])].cycle)

    def __repr__(self) -> str:
        node = self.candidate.node if self.candidate is not None else None
        return (f"PreemptionExplorer(cycle={self.cycle}, pod={self.event.pod!r}, candidate={node!r}, "
                f"nominated={self.event.nominated_node!r})")
