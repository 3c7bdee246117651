"""Claim lines: a chapter's statement, checked where the learner reads it.

A chapter says what the scheduler did and backs each statement with a check. In a
teaching cell the check reads as one line that prints what was checked::

    from ksched_edu.claims import claim, claim_equal

    claim("node-b is the only node with room", feasible == ["node-b"])
    claim_equal("the pod's node", result.suggested_host, "node-b")

prints::

    ✔ node-b is the only node with room
    ✔ the pod's node: node-b

A claim that does not hold raises :class:`ClaimError` (an ``AssertionError``, so a
notebook run under nbval fails on it) whose message says what was claimed and what
was found: ``✘ the pod's node: node-a, the chapter says node-b``.
"""
from __future__ import annotations

from typing import Any

from .anchors import plumbing

__all__ = ["ClaimError", "claim", "claim_equal"]


class ClaimError(AssertionError):
    """A statement of a chapter that the run does not bear out."""


@plumbing("a chapter's checked statement: teaching output, no upstream counterpart")
def claim(text: str, holds: Any) -> None:
    """Print ``✔ text`` when ``holds`` is true; raise ClaimError with ``✘ text`` otherwise."""
    if not holds:
        raise ClaimError(f"✘ {text}")
    print(f"✔ {text}")


@plumbing("a chapter's checked statement: teaching output, no upstream counterpart")
def claim_equal(text: str, got: Any, want: Any) -> None:
    """Print ``✔ text: want`` when ``got == want``; raise ClaimError naming both otherwise."""
    if got != want:
        raise ClaimError(f"✘ {text}: {got!r}, the chapter says {want!r}")
    print(f"✔ {text}: {_shown(want)}")


def _shown(value: Any) -> str:
    """A value as the line shows it: strings bare, anything else as its repr."""
    return value if isinstance(value, str) else repr(value)
