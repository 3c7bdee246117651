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

Step moves one event forward, Play runs through them, the time slider jumps
to the state after everything that happened at or before that virtual time.
"""
from __future__ import annotations

from typing import Any, Optional

import ipywidgets as widgets

from ..viz.readers import QUEUES, QueueMove, QueueReplay, queue_moves, recorder_of
from ._html import STYLE, attrs, escape

LANE_TITLES = {"activeQ": "activeQ", "backoffQ": "backoffQ", "unschedulable": "unschedulablePods",
               "inFlight": "in flight", "bound": "bound"}
LOG_LINES = 6


class QueueExplorer(widgets.VBox):
    """The queue's lanes at one moment of the trace, and the moves that led there.

    ``.time`` is the virtual time shown, ``.queues()`` the pods in each lane,
    ``.step()`` applies the next move, ``.goto_time(t)`` jumps, ``.reset()``
    returns to the first moment (everything recorded at the first time stamp).
    """

    def __init__(self, recorder: Any, *, interval_ms: int = 700) -> None:
        self.recorder = recorder_of(recorder)
        self.replay = QueueReplay(queue_moves(self.recorder))
        if not len(self.replay):
            raise ValueError("the trace holds no queue event: build the Simulation with recorder=Recorder() "
                             "and run it first")
        self._times = self.replay.times()
        self._cursor = 0
        self._syncing = False

        self.style_html = widgets.HTML(STYLE)
        self.header = widgets.HTML()
        self.header.add_class("ksched-header")
        self.board = widgets.HTML()
        self.board.add_class("ksched-queues")
        self.move_html = widgets.HTML()
        self.move_html.add_class("ksched-move")
        self.log_html = widgets.HTML()
        auto = widgets.Layout(width="auto")
        self.reset_button = widgets.Button(description="⟲ Reset", tooltip="Back to the first moment", layout=auto)
        self.step_button = widgets.Button(description="Step ▶", tooltip="Apply the next recorded move",
                                          layout=auto)
        self.play = widgets.Play(value=0, min=0, max=len(self.replay), step=1, interval=interval_ms,
                                 repeat=False, description="Play", tooltip="Play the moves")
        self.time_slider = widgets.SelectionSlider(options=[(f"{t:g}s", t) for t in self._times],
                                                   value=self._times[0], description="time",
                                                   continuous_update=False,
                                                   layout=widgets.Layout(width="420px"))
        self.reset_button.on_click(lambda _: self.reset())
        self.step_button.on_click(lambda _: self.step())
        self.play.observe(self._on_play, names="value")
        self.time_slider.observe(self._on_slider, names="value")
        self.controls = widgets.HBox([self.reset_button, self.step_button, self.play, self.time_slider])
        super().__init__(children=[self.style_html, self.header, self.controls, self.board, self.move_html,
                                   self.log_html])
        self.add_class("ksched-queue-explorer")
        self.reset()

    # --- what a test or a notebook reads ------------------------------------------------

    @property
    def moves(self) -> list[QueueMove]:
        return self.replay.moves

    @property
    def cursor(self) -> int:
        """How many moves have been applied."""
        return self._cursor

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
        self._go(self.replay.count_at(self._times[0]))

    def goto_time(self, time: float) -> None:
        """Show the queue after every move at or before virtual ``time``."""
        self._go(self.replay.count_at(time))

    def goto_move(self, n: int) -> None:
        """Show the queue after the first ``n`` moves."""
        self._go(max(0, min(n, len(self.replay))))

    # --- internals --------------------------------------------------------------------

    def _go(self, cursor: int) -> None:
        self._cursor = cursor
        self._render()

    def _render(self) -> None:
        where = self.replay.phases_after(self._cursor)
        last = self.last_move
        lanes = {q: [] for q in QUEUES}
        for pod, (queue, phase, since) in where.items():
            lanes[queue].append((pod, phase, since))
        out = ['<div class="ksched-board">']
        for q in QUEUES:
            out.append(f'<div{attrs(class_="ksched-lane", data_queue=q)}><h4>{escape(LANE_TITLES[q])} '
                       f"({len(lanes[q])})</h4>")
            for pod, phase, since in lanes[q]:
                moved = last is not None and last.pod == pod
                label = pod + (f" · {phase}" if q == "inFlight" else "")
                cls = "ksched-pod ksched-moved" if moved else "ksched-pod"
                out.append(f'<span{attrs(class_=cls, data_pod=pod, title=f"here since t={since:g}s")}>'
                           f"{escape(label)}</span>")
            out.append("</div>")
        out.append("</div>")
        self.board.value = "".join(out)
        self.header.value = (f'<div class="ksched-head">t = <b>{self.time:g}s</b> · move {self._cursor} of '
                             f"{len(self.replay)}</div>")
        last_text = escape(str(last)) if last is not None else "(no move yet)"
        self.move_html.value = f'<div class="ksched-log"><span class="ksched-last">{last_text}</span></div>'
        start = max(0, self._cursor - LOG_LINES)
        lines = [f"[t={m.time:g}s] {escape(str(m))}" for m in self.replay.moves[start:self._cursor]]
        self.log_html.value = '<div class="ksched-log">' + "<br>".join(lines) + "</div>"
        self.step_button.disabled = self._cursor >= len(self.replay)
        self._syncing = True
        try:
            self.play.value = self._cursor
            self.time_slider.value = self.time
        finally:
            self._syncing = False

    def _on_play(self, change: dict) -> None:
        if not self._syncing:
            self._go(int(change["new"]))

    def _on_slider(self, change: dict) -> None:
        if not self._syncing:
            self.goto_time(float(change["new"]))

    def __repr__(self) -> str:
        return f"QueueExplorer(time={self.time:g}, move={self._cursor}/{len(self.replay)})"
