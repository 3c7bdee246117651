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
  (wall clock: a plugin that loops forever ends with a verdict, not a hang;
  in the browser, where there is no SIGALRM, the learner's own loops and calls
  look at the clock),
  and a simulation with a learner's plugin runs through
  :func:`run_learner_simulation` (virtual clock too: a plugin that returns an
  Error forever sends its pod into backoff forever). When a learner's plugin
  returns an Error, the check quotes the cycle's error text
  (:func:`cycle_errors`), as ``kubectl describe pod`` would show it.

Verdicts and hints are the course's own voice: each goes through ``_()`` when the check runs
(:mod:`ksched_edu.i18n`), with named fields filled in after translation, so that it prints in
the learner's language (English by default).

A typical check::

    from ksched_edu.exercises.core import failed, passed
    from ksched_edu.i18n import _

    def check_winner(predicted: str) -> bool:
        actual = _run_cycle().node
        if predicted == actual:
            return passed(_("the pod lands on {node}").format(node=actual))
        return failed(_("you predicted {node!r}").format(node=predicted), hint=_("compare the Score table"))
"""
from __future__ import annotations

import os
import signal
import sys
import sysconfig
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from ..i18n import _
from ..resources import data_root, resolve_data

# The folder that holds data/ in a checkout (the project root); an installed package reads its
# data through ksched_edu.resources, so a check finds it from notebooks/, the root or anywhere.
ROOT = data_root().parent

PASS_MARK = "✔"
FAIL_MARK = "✘"
PLACEHOLDER = "..."

# How long a learner's code may run inside one check (wall clock: a verdict within 8 s of
# starting even for a loop that never ends, tests/exercises/test_bounded.py), and how far a
# simulation with a learner's plugin may go on the virtual clock.
TIME_LIMIT_SECONDS = 6.0
VIRTUAL_LIMIT_SECONDS = 900.0


class CheckTimeout(Exception):
    """A learner's code ran longer than a check allows (it is a verdict, not a crash)."""


def passed(msg: str) -> bool:
    """Print ``✔ msg`` and return True."""
    print(f"{PASS_MARK} {msg}")
    return True


def failed(msg: str, hint: str) -> bool:
    """Print ``✘ msg Hint: hint`` (in the course's language: ``提示：`` under zh_CN) and return False."""
    # Translators: a failed check's verdict line; {mark} is ✘, {message} what is wrong, {hint} what to do.
    print(_("{mark} {message} Hint: {hint}").format(mark=FAIL_MARK, message=msg, hint=hint))
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
    In the browser (Pyodide: no signal arrives while Python runs) the bound is
    :func:`learner_code_deadline` instead.
    """
    if _in_browser():
        with learner_code_deadline(seconds):
            yield
        return
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def _expired(signum: int, frame: Any) -> None:
        raise CheckTimeout(_still_running(seconds))

    previous = signal.signal(signal.SIGALRM, _expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _still_running(seconds: float) -> str:
    """What a :class:`CheckTimeout` says: the learner's code ran past the limit."""
    # Translators: completes "your code is {error} (a loop that never ends?)".
    return _("still running after {seconds:g} s").format(seconds=seconds)


def _in_browser() -> bool:
    return sys.platform == "emscripten"


def _library_prefixes() -> tuple[str, ...]:
    """Where the code that is not the learner's lives: the standard library, installed packages and
    ksched_edu itself (a checkout too). Everything else (a notebook cell, ``exec``) is the learner's."""
    paths = sysconfig.get_paths()
    dirs = {paths.get(key, "") for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    dirs.add(str(Path(__file__).resolve().parents[1]))
    dirs.add(os.path.dirname(os.__file__))
    return tuple(sorted(d.rstrip(os.sep) + os.sep for d in dirs if d)) + ("<frozen ",)


@contextmanager
def learner_code_deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`CheckTimeout` in the learner's code once ``seconds`` of wall time have passed,
    without signals: each loop turn and each call of the learner's own code looks at the clock.

    ``sys.monitoring`` (Python 3.12+) watches jumps and function starts and turns itself off
    for library code after its first visit, so the engine runs at full speed; before 3.12,
    ``sys.settrace`` does the same, slower. What it cannot bound is a loop inside library
    or C code that never returns to the learner's code (``sum(itertools.count())``); there
    only the virtual-clock bound of :func:`run_learner_simulation` applies.
    """
    library = _library_prefixes()
    end = time.monotonic() + seconds

    def expired() -> CheckTimeout:
        return CheckTimeout(_still_running(seconds))

    monitoring = getattr(sys, "monitoring", None)
    tool = None
    if monitoring is not None:
        tool = next((t for t in (4, 3, 5, 2) if monitoring.get_tool(t) is None), None)
    if tool is not None:
        events = monitoring.events

        def visit(code: Any, *_: Any) -> Any:
            if code.co_filename.startswith(library):
                return monitoring.DISABLE
            if time.monotonic() > end:
                raise expired()
            return None

        monitoring.use_tool_id(tool, "ksched_edu time limit")
        try:
            monitoring.restart_events()  # locations turned off by an earlier check are watched again
            monitoring.register_callback(tool, events.PY_START, visit)
            monitoring.register_callback(tool, events.JUMP, visit)
            monitoring.set_events(tool, events.PY_START | events.JUMP)
            yield
        finally:
            monitoring.set_events(tool, 0)
            monitoring.register_callback(tool, events.PY_START, None)
            monitoring.register_callback(tool, events.JUMP, None)
            monitoring.free_tool_id(tool)
        return

    def local(frame: Any, event: str, arg: Any) -> Any:
        if time.monotonic() > end:
            raise expired()
        return local

    def on_call(frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename.startswith(library):
            return None
        return local(frame, event, arg)

    previous = sys.gettrace()
    sys.settrace(on_call)
    try:
        yield
    finally:
        sys.settrace(previous)


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
        # Translators: {error} is "still running after 6 s".
        return _("your code is {error} (a loop that never ends?)").format(error=exc)
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
        return _("pods were still being retried after {until:g} s of virtual time; "
                 "every attempt failed, so the scheduler never stopped").format(until=until)
    return None


def cycle_errors(recorder: Any, pod: str = "") -> list[str]:
    """The distinct messages of the cycles that ended in an Error (of ``pod``, when given), in order."""
    from ksched_edu.trace import CycleEvent

    seen: list[str] = []
    for event in recorder.of(CycleEvent):
        if event.kind == "error" and (not pod or event.pod == pod) and event.message not in seen:
            seen.append(event.message)
    return seen
