"""The virtual clock: simulated seconds and a heap of timers.

Upstream reads the wall clock (``time.Now``) and sleeps in goroutines; every
such place in the port reads this clock instead, and every delayed action
(backoff expiry, queue flushes, permit timeouts, binding latency) is a timer
on it. Timers due at the same instant fire in the order they were set, so a
run is reproducible step for step.
"""
from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field
from typing import Callable

from ..anchors import plumbing


@plumbing("virtual clock of the simulation")
@dataclass(order=True)
class Timer:
    due: float
    seq: int
    action: Callable[[], None] = field(compare=False)
    label: str = field(compare=False, default="")
    cancelled: bool = field(compare=False, default=False)
    # A background timer (a periodic flush) does not keep a simulation running.
    background: bool = field(compare=False, default=False)

    @plumbing("virtual clock of the simulation")
    def cancel(self) -> None:
        self.cancelled = True


@plumbing("virtual clock of the simulation")
class VirtualClock:
    def __init__(self, start: float = 0.0) -> None:
        self.now = start
        self._timers: list[Timer] = []
        self._seq = itertools.count()

    @plumbing("virtual clock of the simulation")
    def call_at(self, due: float, action: Callable[[], None], label: str = "", background: bool = False) -> Timer:
        timer = Timer(max(due, self.now), next(self._seq), action, label, background=background)
        heapq.heappush(self._timers, timer)
        return timer

    @plumbing("virtual clock of the simulation")
    def call_later(self, delay: float, action: Callable[[], None], label: str = "",
                   background: bool = False) -> Timer:
        return self.call_at(self.now + delay, action, label, background)

    @plumbing("virtual clock of the simulation")
    def next_due(self) -> float | None:
        while self._timers and self._timers[0].cancelled:
            heapq.heappop(self._timers)
        return self._timers[0].due if self._timers else None

    @plumbing("virtual clock of the simulation")
    def fire_next(self) -> bool:
        """Advance to the earliest timer and run it; False when none is left."""
        due = self.next_due()
        if due is None:
            return False
        timer = heapq.heappop(self._timers)
        self.now = max(self.now, timer.due)
        timer.action()
        return True

    @plumbing("virtual clock of the simulation")
    def advance_to(self, t: float) -> None:
        """Run every timer due up to ``t``, then stand at ``t``."""
        while True:
            due = self.next_due()
            if due is None or due > t:
                break
            self.fire_next()
        self.now = max(self.now, t)

    @plumbing("virtual clock of the simulation")
    def pending(self) -> int:
        return sum(1 for t in self._timers if not t.cancelled)

    @plumbing("virtual clock of the simulation")
    def timers(self) -> list[Timer]:
        """The timers still set, in the order they will fire (for reading, not for changing)."""
        return sorted(t for t in self._timers if not t.cancelled)

    @plumbing("virtual clock of the simulation")
    def has_foreground(self) -> bool:
        """Is a timer other than a background one still set?"""
        return any(not t.cancelled and not t.background for t in self._timers)
