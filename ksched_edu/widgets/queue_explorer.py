"""QueueExplorer: the scheduling queue over virtual time, one recorded move at a time.

What it shows and where upstream does it (kubernetes pkg/scheduler, v1.30):

- Five lanes: activeQ, backoffQ and unschedulable are the three parts of the
  PriorityQueue (internal/queue/scheduling_queue.go: activeQ, podBackoffQ,
  unschedulablePods); inFlight holds a pod from ``Pop`` until its attempt ends
  (the in-flight bookkeeping of the same file, and schedule_one.go's binding
  goroutine while it binds); bound is where a pod goes once the binding cycle
  has bound it (schedule_one.go bindingCycle).
- Each move is one recorded event: a QueueEvent (written where upstream logs
  "Pod moved to an internal scheduling queue"), the end of a scheduling cycle
  (CycleEvent), a binding (BindEvent) or a preemption victim (PreemptionEvent).
  The line under the lanes says which event moved which pod, e.g.
  ``default/b: unschedulable -> activeQ on NodeAdd``.
- Pods in a lane are listed in the order they arrived there; the order activeQ
  pops them in (QueueSort) is not in the trace, so it is not claimed here.
- A pod in backoffQ shows when its backoff ends (``backoff until t=4s``): the
  queue records it with the move (getBackoffTime: the last failure's time plus
  the backoff for its attempts); flushBackoffQCompleted moves it at the first
  one-second flush at or after that time.
- The log also lists the moves a cluster event did *not* make (a
  QueueSkipEvent): the event handler's pre-check (eventhandlers.go
  preCheckForNode, for node events) filtered the waiting pod out, or no plugin
  that rejected it answered Queue (movePodsToActiveOrBackoffQueue asking
  isPodWorthRequeuing). Such a line changes no lane.

Step moves one event forward, Play runs through them, the time slider jumps
to the state after everything that happened at or before that virtual time.
``explorer.at(n)`` (or ``explorer.at(time=t)``) is a second, independent
explorer over the same trace, standing after ``n`` moves (or at time ``t``).
"""
from __future__ import annotations

from typing import Any, Optional

import ipywidgets as widgets

from ..i18n import N_, _
from ..trace import SKIP_PRE_CHECK, QueueEvent, QueueSkipEvent
from ..viz.readers import QUEUES, QueueMove, QueueReplay, queue_moves, recorder_of
from ._html import STYLE, attrs, escape
from .cycle_stepper import StepView, control_row

# Each lane's heading (upstream's names for the queue's parts; the others shown with _()).
LANE_TITLES = {"activeQ": "activeQ", "backoffQ": "backoffQ", "unschedulable": "unschedulablePods",
               "inFlight": N_("in flight"), "bound": N_("bound")}
_NAMES = {"activeQ", "backoffQ", "unschedulablePods"}  # upstream's field names: never translated
LOG_LINES = 6
# Styles of this view only: the backoff end under a pod, a skipped move in the log.
EXTRA_STYLE = """<style>
.ksched-until {display: block; font: 11px monospace; color: #8a5a00; margin: -1px 0 2px 10px;}
.ksched-log .ksched-skip {color: #7a7a7a; font-style: italic;}
</style>"""


class QueueExplorer(StepView, widgets.VBox):
    """The queue's lanes at one moment of the trace, and the moves that led there.

    ``QueueExplorer(recorder_or_simulation, move=None, time=None)`` starts at the first moment
    (everything recorded at the first time stamp), or after ``move`` moves, or at virtual
    ``time``. ``.time`` is the virtual time shown, ``.cursor`` the number of moves applied,
    ``.queues()`` the pods in each lane, ``.step()`` applies the next move, ``.goto_move(n)``
    and ``.goto_time(t)`` jump, ``.reset()`` returns to the first moment.
    ``.backoff_until(pod)`` is when the backoff of a pod in backoffQ ends,
    ``.skips`` the moves cluster events did not make, ``.log_lines()`` the log.

    ``.at(n)`` (or ``.at(time=t)``) returns a new, independent QueueExplorer over the same trace,
    standing after ``n`` moves (or after every move at or before ``t``): a cell that discusses
    t=2.5 s shows ``explorer.at(time=2.5)``. The root element carries the class
    ``ksched-at-<n>``, ``n`` the moves applied (the header's "move n of N"; ``ksched-at-12``,
    see :func:`at_class`), swapped on every move.
    """

    def __init__(self, recorder: Any, *, move: Optional[int] = None, time: Optional[float] = None,
                 interval_ms: int = 700) -> None:
        self.recorder = recorder_of(recorder)
        self.replay = QueueReplay(queue_moves(self.recorder))
        if not len(self.replay):
            raise ValueError("the trace holds no queue event: build the Simulation with recorder=Recorder() "
                             "and run it first")
        self._times = self.replay.times()
        # Cluster events that left a waiting pod where it was, in trace order, and for each the
        # number of moves before it (a skip comes before the move at that index).
        self.skips: list[QueueSkipEvent] = self.recorder.of(QueueSkipEvent)
        self._skip_positions = self._place_skips()
        # pod -> (time, backoff end) of each move that sent it to backoffQ, in time order.
        self._backoff_ends: dict[str, list[tuple[float, float]]] = {}
        for e in self.recorder.of(QueueEvent):
            if e.queue == "Backoff" and e.backoff_until is not None:
                self._backoff_ends.setdefault(e.pod, []).append((e.time, e.backoff_until))
        self._build(self._start(move, time), interval_ms)

    def at(self, move: Optional[int] = None, *, time: Optional[float] = None) -> "QueueExplorer":
        """A new QueueExplorer over the same trace, after ``move`` moves or at virtual ``time`` (neither:
        where this one stands). It moves independently of this one."""
        cursor = self._cursor if move is None and time is None else self._start(move, time)
        view = type(self).__new__(type(self))
        view.recorder, view.replay, view._times = self.recorder, self.replay, self._times
        view.skips, view._skip_positions, view._backoff_ends = self.skips, self._skip_positions, self._backoff_ends
        view._build(cursor, self.play.interval)
        return view

    def _build(self, cursor: int, interval_ms: int) -> None:
        """The child widgets, standing after ``cursor`` moves."""
        self._cursor = cursor
        self._syncing = False
        self.style_html = widgets.HTML(STYLE + EXTRA_STYLE)
        self.header = widgets.HTML()
        self.header.add_class("ksched-header")
        self.board = widgets.HTML()
        self.board.add_class("ksched-queues")
        self.move_html = widgets.HTML()
        self.move_html.add_class("ksched-move")
        self.log_html = widgets.HTML()
        self.reset_button = widgets.Button(description=_("⟲ Reset"), tooltip=_("Back to the first moment"))
        self.step_button = widgets.Button(description=_("Step ▶"), tooltip=_("Apply the next recorded move"))
        self.play = widgets.Play(value=cursor, min=0, max=len(self.replay), step=1, interval=interval_ms,
                                 repeat=False, description=_("Play"), tooltip=_("Play the moves"))
        self.time_slider = widgets.SelectionSlider(options=[(f"{t:g}s", t) for t in self._times],
                                                   value=self._times[0], description=_("time"),
                                                   continuous_update=False,
                                                   layout=widgets.Layout(width="420px"))
        self.reset_button.on_click(lambda _: self.reset())
        self.step_button.on_click(lambda _: self.step())
        self.play.observe(self._on_play, names="value")
        self.time_slider.observe(self._on_slider, names="value")
        self.controls = control_row([self.reset_button, self.step_button, self.play, self.time_slider])
        super().__init__(children=[self.style_html, self.header, self.controls, self.board, self.move_html,
                                   self.log_html])
        self.add_class("ksched-queue-explorer")
        self._go(cursor)

    def _start(self, move: Optional[int], time: Optional[float]) -> int:
        """The number of moves applied when standing after ``move`` moves, or at ``time``, or (neither)
        at the first moment."""
        if move is not None and time is not None:
            raise ValueError(f"give a move or a time, not both (move={move!r}, time={time!r})")
        if move is not None:
            if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move <= len(self.replay):
                raise ValueError(f"no move {move!r}: the trace's moves are 0..{len(self.replay)} (the number of "
                                 f"moves applied)")
            return move
        first, last = self._times[0], self._times[-1]
        if time is None:
            return self.replay.count_at(first)
        if isinstance(time, bool) or not isinstance(time, (int, float)) or not first <= time <= last:
            raise ValueError(f"no time {time!r} in the trace: its moves are at t={first:g}s..{last:g}s")
        return self.replay.count_at(time)

    # --- what a test or a notebook reads ------------------------------------------------

    @property
    def moves(self) -> list[QueueMove]:
        return self.replay.moves

    @property
    def cursor(self) -> int:
        """How many moves have been applied."""
        return self._cursor

    @property
    def step_label(self) -> str:
        """How many moves have been applied: the root element's class is ``ksched-at-<moves>``."""
        return str(self._cursor)

    @property
    def last_move(self) -> Optional[QueueMove]:
        return self.replay.moves[self._cursor - 1] if self._cursor else None

    @property
    def time(self) -> float:
        """The virtual time shown: that of the last applied move (the first time stamp before any)."""
        m = self.last_move
        return m.time if m is not None else self._times[0]

    def queues(self) -> dict[str, list[str]]:
        """Lane name (activeQ, backoffQ, unschedulable, inFlight, bound) -> pod keys, at the current moment."""
        return self.replay.queues_after(self._cursor)

    def where(self, pod: str) -> Optional[str]:
        """The lane holding ``pod`` now, or None."""
        return next((q for q, pods in self.queues().items() if pod in pods), None)

    @property
    def board_html(self) -> str:
        return self.board.value

    def backoff_until(self, pod: str) -> Optional[float]:
        """When the backoff of ``pod`` ends, if it is in backoffQ now (else None)."""
        where = self.replay.phases_after(self._cursor).get(pod)
        if where is None or where[0] != "backoffQ":
            return None
        return self._backoff_end(pod, where[2])

    def _backoff_end(self, pod: str, since: float) -> Optional[float]:
        """The backoff end recorded by the last move of ``pod`` to backoffQ between ``since`` and now."""
        ends = [until for t, until in self._backoff_ends.get(pod, ()) if since <= t <= self.time]
        return ends[-1] if ends else None

    def skips_until_now(self) -> list[QueueSkipEvent]:
        """The skipped moves recorded before the last applied move (or, at its time, after it)."""
        return [e for e, p in zip(self.skips, self._skip_positions)
                if p <= self._cursor and self._cursor and e.time <= self.time]

    def log_lines(self) -> list[str]:
        """The log under the lanes as plain text: the last moves, with the skipped moves among them."""
        return [text for text, _ in self._log_entries()]

    @staticmethod
    def skip_text(e: QueueSkipEvent) -> str:
        """One log line for a move a cluster event did not make."""
        if e.reason == SKIP_PRE_CHECK:
            why = "the pre-check (preCheckForNode) filtered it out"
        else:
            why = f"no rejecting plugin ({', '.join(e.plugins)}) answered Queue"
        return f"[t={e.time:g}s] {e.pod}: not moved on {e.event}: {why} (stays in unschedulable)"

    # --- moving -----------------------------------------------------------------------

    def step(self) -> Optional[QueueMove]:
        """Apply the next move; returns it (None at the end)."""
        if self._cursor >= len(self.replay):
            return None
        self._go(self._cursor + 1)
        return self.last_move

    def back(self) -> None:
        """Undo the last move."""
        self._go(max(self._cursor - 1, 0))

    def reset(self) -> None:
        """Back to the first moment: every move recorded at the first time stamp applied."""
        self.play.playing = False
        self._go(self._start(None, None))

    def goto_time(self, time: float) -> None:
        """Show the queue after every move at or before virtual ``time`` (within the trace's time stamps)."""
        self._go(self._start(None, time))

    def goto_move(self, n: int) -> None:
        """Show the queue after the first ``n`` moves (0 to ``len(self.moves)``)."""
        self._go(self._start(n, None))

    # --- internals --------------------------------------------------------------------

    def _go(self, cursor: int) -> None:
        self._cursor = cursor
        self._render()

    def _render(self) -> None:
        self._mark_step()
        where = self.replay.phases_after(self._cursor)
        last = self.last_move
        lanes = {q: [] for q in QUEUES}
        for pod, (queue, phase, since) in where.items():
            lanes[queue].append((pod, phase, since))
        out = ['<div class="ksched-board">']
        for q in QUEUES:
            title = LANE_TITLES[q] if LANE_TITLES[q] in _NAMES else _(LANE_TITLES[q])
            out.append(f'<div{attrs(class_="ksched-lane", data_queue=q)}><h4>{escape(title)} '
                       f"({len(lanes[q])})</h4>")
            for pod, phase, since in lanes[q]:
                moved = last is not None and last.pod == pod
                label = pod + (f" · {phase}" if q == "inFlight" else "")
                cls = "ksched-pod ksched-moved" if moved else "ksched-pod"
                until = self._backoff_end(pod, since) if q == "backoffQ" else None
                if until is not None:
                    title = _("here since t={since}s; backoff until t={until}s").format(since=f"{since:g}",
                                                                                       until=f"{until:g}")
                else:
                    title = _("here since t={since}s").format(since=f"{since:g}")
                out.append(f'<span{attrs(class_=cls, data_pod=pod, title=title)}>'
                           f"{escape(label)}</span>")
                if until is not None:
                    out.append(f'<span{attrs(class_="ksched-until", data_pod=pod)}>'
                               + escape(_("backoff until t={until}s").format(until=f"{until:g}")) + "</span>")
            out.append("</div>")
        out.append("</div>")
        self.board.value = "".join(out)
        self.header.value = ('<div class="ksched-head">'
                             + _("t = <b>{time}s</b> · move {move} of {count}").format(
                                 time=f"{self.time:g}", move=self._cursor, count=len(self.replay))
                             + "</div>")
        last_text = escape(str(last)) if last is not None else escape(_("(no move yet)"))
        self.move_html.value = f'<div class="ksched-log"><span class="ksched-last">{last_text}</span></div>'
        lines = [f'<span class="ksched-skip">{escape(text)}</span>' if skip else escape(text)
                 for text, skip in self._log_entries()]
        self.log_html.value = '<div class="ksched-log">' + "<br>".join(lines) + "</div>"
        self.step_button.disabled = self._cursor >= len(self.replay)
        self._syncing = True
        try:
            self.play.value = self._cursor
            self.time_slider.value = self.time
        finally:
            self._syncing = False

    def _place_skips(self) -> list[int]:
        """For each skip, the index of the first move recorded after it.

        Every QueueEvent is one move (the other moves come from cycles, bindings and
        preemptions), so a skip goes before the move of the first QueueEvent recorded after
        it, or before an earlier move whose time is later than the skip's.
        """
        queue_events_before = []
        count = 0
        for e in self.recorder.events:
            if isinstance(e, QueueEvent):
                count += 1
            elif isinstance(e, QueueSkipEvent):
                queue_events_before.append(count)
        from_queue_events = {e.action for e in self.recorder.of(QueueEvent)}
        moves = self.replay.moves
        positions: list[int] = []
        i = seen = 0  # seen: the moves from QueueEvents among moves[:i]
        for skip, before in zip(self.skips, queue_events_before):  # both in trace order: i only grows
            while i < len(moves):
                is_queue_event = moves[i].action in from_queue_events
                if moves[i].time > skip.time or (is_queue_event and seen == before):
                    break
                seen += is_queue_event
                i += 1
            positions.append(i)
        return positions

    def _log_entries(self) -> list[tuple[str, bool]]:
        """(text, is a skipped move) for the log: the last LOG_LINES moves, with the skipped moves
        recorded among them, each where it was recorded."""
        start = max(0, self._cursor - LOG_LINES)
        entries = [((i, 1), f"[t={m.time:g}s] {m}", False)
                   for i, m in enumerate(self.replay.moves[start:self._cursor], start=start)]
        shown = set(map(id, self.skips_until_now()))
        entries += [((p, 0), self.skip_text(e), True) for e, p in zip(self.skips, self._skip_positions)
                    if id(e) in shown and p >= start]
        entries.sort(key=lambda x: x[0])
        return [(text, skip) for _, text, skip in entries]

    def _on_play(self, change: dict) -> None:
        if not self._syncing:
            self._go(int(change["new"]))

    def _on_slider(self, change: dict) -> None:
        if not self._syncing:
            self.goto_time(float(change["new"]))

    def __repr__(self) -> str:
        return f"QueueExplorer(time={self.time:g}, move={self._cursor}/{len(self.replay)})"
