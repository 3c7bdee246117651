"""Verdict helpers shared by every chapter's exercise checks.

The convention, for every ``check_<name>`` function in ``ksched_edu.exercises``:

* A chapter's exercise is a learner cell whose first line is ``# EXERCISE``,
  followed by a check cell that calls ``ksched_edu.exercises.check_<name>(...)``
  with whatever the learner cell defined.
* A check never raises on a wrong answer. It prints exactly one verdict line
  and returns a bool: ``passed("...")`` prints ``✔ ...`` and returns ``True``;
  ``failed("...", hint="...")`` prints ``✘ ... Hint: ...`` and returns
  ``False``. A missing or half-written answer (``None``, ``...``, a placeholder
  function that raises ``NotImplementedError``) is a wrong answer: catch it
  and call ``failed`` with a hint that points the learner at the right place.
* An exercise cell and its check cell should run on their own, one after the
  other in a fresh namespace: import what the exercise needs inside the
  exercise cell and pass the check only names that cell defines (or
  literals). The tests in tests/exercises/ run each pair that way, on the
  solution and on the stripped copy (see :mod:`ksched_edu.exercises.strip`),
  and run the notebook from the top only when the pair needs earlier cells.
* Checks verify the answer against what the library records (the trace, the
  placements, a plugin's own output); they never recompute scheduling.
* A check is bounded in time. Learner code runs under :func:`time_limit`
  (wall clock: a plugin that loops forever ends with a verdict, not a hang),
  and a simulation with a learner's plugin runs through
  :func:`run_learner_simulation` (virtual clock too: a plugin that returns an
  Error forever sends its pod into backoff forever). When a learner's plugin
  returns an Error, the check quotes the cycle's error text
  (:func:`cycle_errors`), as ``kubectl describe pod`` would show it.

A typical check::

    from ksched_edu.exercises.core import failed, passed

    def check_winner(predicted: str) -> bool:
        actual = _run_cycle().node
        if predicted == actual:
            return passed(f"the pod lands on {actual}")
        return failed(f"you predicted {predicted!r}", hint="compare the Score table")
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from ..resources import data_root, resolve_data

# The folder that holds data/ in a checkout (the project root); an installed package reads its
# data through ksched_edu.resources, so a check finds it from notebooks/, the root or anywhere.
ROOT = data_root().parent

PASS_MARK = "✔"
FAIL_MARK = "✘"
PLACEHOLDER = "..."

# How long a learner's code may run inside one check (wall clock), and how far a
# simulation with a learner's plugin may go on the virtual clock.
TIME_LIMIT_SECONDS = 20.0
VIRTUAL_LIMIT_SECONDS = 900.0


class CheckTimeout(Exception):
    """A learner's code ran longer than a check allows (it is a verdict, not a crash)."""


def passed(msg: str) -> bool:
    """Print ``✔ msg`` and return True."""
    print(f"{PASS_MARK} {msg}")
    return True


def failed(msg: str, hint: str) -> bool:
    """Print ``✘ msg Hint: hint`` and return False."""
    print(f"{FAIL_MARK} {msg} Hint: {hint}")
    return False


def is_unanswered(value: Any) -> bool:
    """True for the values a stripped exercise cell leaves behind (None or ``...``)."""
    return value is None or value is Ellipsis


def project_path(path: str | Path) -> Path:
    """``path`` as given when it exists from the working directory; ``data/...`` under the data root
    (:func:`ksched_edu.resources.data_path`), installed or not; anything else relative to :data:`ROOT`."""
    p = resolve_data(path)
    return p if p.is_absolute() or p.exists() else ROOT / p


@contextmanager
def time_limit(seconds: float = TIME_LIMIT_SECONDS) -> Iterator[None]:
    """Raise :class:`CheckTimeout` inside the block once ``seconds`` of wall time have passed.

    Uses SIGALRM, so it bounds code in the main thread (where Jupyter and pytest
    run a cell); elsewhere (a thread, or a platform without SIGALRM) the block
    runs without a wall-clock bound and only the virtual-clock bound applies.
    """
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def _expired(signum: int, frame: Any) -> None:
        raise CheckTimeout(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, _expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def call_answer(fn: Callable[..., Any], *args: Any, seconds: float = TIME_LIMIT_SECONDS,
                **kwargs: Any) -> tuple[bool, Any]:
    """Call a learner's function; return (True, result) or (False, the exception).

    Lets a check turn a placeholder body (``raise NotImplementedError``), a
    crash or an endless loop (:class:`CheckTimeout` after ``seconds``) into a
    ``failed`` verdict instead of a traceback or a hang.
    """
    try:
        with time_limit(seconds):
            return True, fn(*args, **kwargs)
    except Exception as exc:  # a learner's answer may fail in any way
        return False, exc


def describe_exception(exc: BaseException) -> str:
    """``TypeError: ...`` or, for a timeout, what the learner should look at."""
    if isinstance(exc, CheckTimeout):
        return f"your code is {exc} (a loop that never ends?)"
    return f"{type(exc).__name__}: {exc}"


def run_learner_simulation(sim: Any, until: float = VIRTUAL_LIMIT_SECONDS,
                           seconds: float = TIME_LIMIT_SECONDS) -> Optional[str]:
    """Run ``sim`` (built with a learner's plugin) within both bounds.

    Returns None when it ran to its end, else one line saying why it stopped:
    the wall-clock limit, an exception from the learner's code, or pods still
    retrying when the virtual clock passed ``until`` (the usual sign of a
    plugin that returns an Error on every call).
    """
    ok, err = call_answer(sim.run, until=until, seconds=seconds)
    if not ok:
        return describe_exception(err)
    if sim.scheduler.busy():
        return (f"pods were still being retried after {until:g} s of virtual time; "
                f"every attempt failed, so the scheduler never stopped")
    return None


def cycle_errors(recorder: Any, pod: str = "") -> list[str]:
    """The distinct messages of the cycles that ended in an Error (of ``pod``, when given), in order."""
    from ksched_edu.trace import CycleEvent

    seen: list[str] = []
    for event in recorder.of(CycleEvent):
        if event.kind == "error" and (not pod or event.pod == pod) and event.message not in seen:
            seen.append(event.message)
    return seen
