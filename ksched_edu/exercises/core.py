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

A typical check::

    from ksched_edu.exercises.core import failed, passed

    def check_winner(predicted: str) -> bool:
        actual = _run_cycle().node
        if predicted == actual:
            return passed(f"the pod lands on {actual}")
        return failed(f"you predicted {predicted!r}", hint="compare the Score table")
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

# The project root, so that a check finds data/ whether it runs from notebooks/ or from the root.
ROOT = Path(__file__).resolve().parents[2]

PASS_MARK = "✔"
FAIL_MARK = "✘"
PLACEHOLDER = "..."


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
    """``path`` as given when it exists from the working directory, else relative to the project root."""
    p = Path(path)
    return p if p.is_absolute() or p.exists() else ROOT / p


def call_answer(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[bool, Any]:
    """Call a learner's function; return (True, result) or (False, the exception).

    Lets a check turn a placeholder body (``raise NotImplementedError``) or a
    crash into a ``failed`` verdict instead of a traceback.
    """
    try:
        return True, fn(*args, **kwargs)
    except Exception as exc:  # a learner's answer may fail in any way
        return False, exc
