"""Chapter 12's checks, each against a table of answers a learner might give.

Every row is one answer: the check must return its verdict, print exactly one
line, never raise, and (for a wrong answer) give a hint that points the right
way without giving the answer away.
"""
from __future__ import annotations

import itertools
import time
from typing import Any, Callable, Optional

import pytest

from ksched_edu import exercises
from ksched_edu.exercises import ch12
from tests.exercises.verdicts import verdict

pytestmark = pytest.mark.ch12

BIND = ch12.BIND_CONFLICT
NODE = ch12.NODE_CONFLICT


def _expect(capsys: pytest.CaptureFixture, check: Callable[..., bool], answer: Any, passes: bool,
            says: Optional[str], hint: Optional[str]) -> None:
    start = time.monotonic()
    result, out = verdict(capsys, check, answer)
    assert time.monotonic() - start < 8.0, "a verdict comes within 8 s"
    assert result is passes, out
    if says is not None:
        assert says in out.split(" Hint: ")[0], f"the verdict should say {says!r}: {out!r}"
    if hint is not None:
        assert hint in out.split(" Hint: ", 1)[1], f"the hint should mention {hint!r}: {out!r}"


# --- check_volume_reasons ------------------------------------------------------------------

RIGHT_REASONS = {"n1": [BIND], "n2": [NODE], "n3": [], "n4": []}

REASON_CASES = [
    # (id, answer, passes, the verdict says, the hint mentions)
    ("right", RIGHT_REASONS, True, "n3 and n4", None),
    ("right-tuples", {"n1": (BIND,), "n2": (NODE,), "n3": (), "n4": ()}, True, None, None),
    ("unanswered-none", None, False, "no prediction", "predicted ="),
    ("unanswered-ellipsis", ..., False, "no prediction", "predicted ="),
    ("a-list", [BIND, NODE, [], []], False, "not a dict", "node name"),
    ("missing-node", {"n1": [BIND], "n2": [NODE], "n3": []}, False, "no prediction for n4", "n1 to n4"),
    ("extra-node", dict(RIGHT_REASONS, n5=[]), False, "n5 is not a node", "n1 to n4"),
    ("string-not-list", dict(RIGHT_REASONS, n1=BIND), False, "not a list", "list of reasons"),
    ("a-bool", dict(RIGHT_REASONS, n3=True), False, "not a list", "list of reasons"),
    ("not-a-reason", dict(RIGHT_REASONS, n1=["no volume"]), False, "not one of the binder's reasons",
     "copy the reasons"),
    ("swapped", {"n1": [NODE], "n2": [BIND], "n3": [], "n4": []}, False, "2 node(s) predicted wrong",
     "node affinity"),
    # forgets that the class does not allow zone-a (n1 would provision)
    ("n1-passes", dict(RIGHT_REASONS, n1=[]), False, "1 node(s) predicted wrong", "allowedTopologies"),
    # forgets the static volume on n4 (zone-a is not allowed for provisioning)
    ("n4-fails", dict(RIGHT_REASONS, n4=[BIND]), False, "among them n4", "findMatchingVolumes L901-937"),
    # thinks the bound volume is fine everywhere
    ("n2-passes", dict(RIGHT_REASONS, n2=[]), False, "1 node(s) predicted wrong", None),
    ("n2-both", dict(RIGHT_REASONS, n2=[NODE, BIND]), False, "among them n2", "binder.go L278-382"),
    # an endless value: the check never iterates what is not a list
    ("endless-iterable", dict(RIGHT_REASONS, n1=itertools.count()), False, "not a list", "list of reasons"),
    ("everything-fails", {n: [BIND] for n in ("n1", "n2", "n3", "n4")}, False, "3 node(s) predicted wrong", None),
]


@pytest.mark.parametrize("answer,passes,says,hint", [c[1:] for c in REASON_CASES], ids=[c[0] for c in REASON_CASES])
def test_check_volume_reasons(capsys, answer, passes, says, hint) -> None:
    _expect(capsys, ch12.check_volume_reasons, answer, passes, says, hint)


def test_wrong_reasons_do_not_give_the_answer_away(capsys) -> None:
    _, out = verdict(capsys, ch12.check_volume_reasons, dict(RIGHT_REASONS, n1=[]))
    assert "n3" not in out and "n4" not in out
    for node, reasons in RIGHT_REASONS.items():  # a wrong answer never learns VolumeBinding's own reasons
        _, out = verdict(capsys, ch12.check_volume_reasons, dict(RIGHT_REASONS, **{node: [BIND, NODE]}))
        assert "lets" not in out and "through" not in out.split(" Hint: ")[0]


# --- check_csi_placements -----------------------------------------------------------------

RIGHT_PLACEMENTS = {"default/a": "n1", "default/b": None, "default/c": None, "default/d": "n2", "default/e": "n1"}

PLACEMENT_CASES = [
    ("right", RIGHT_PLACEMENTS, True, "default/b, default/c stay pending", None),
    ("unanswered-none", None, False, "no prediction", "predicted ="),
    ("unanswered-ellipsis", ..., False, "no prediction", "predicted ="),
    ("a-list", ["n1", None, None, "n2", "n1"], False, "not a dict", "node name or None"),
    ("short-keys", {"a": "n1", "b": None, "c": None, "d": "n2", "e": "n1"}, False, "no prediction for default/a",
     "'default/a'"),
    ("missing-pod", {k: v for k, v in RIGHT_PLACEMENTS.items() if k != "default/e"}, False,
     "no prediction for default/e", "all five"),
    ("old-included", dict(RIGHT_PLACEMENTS, **{"default/old": "n1"}), False, "not a pending pod", "old is already"),
    ("string-none", dict(RIGHT_PLACEMENTS, **{"default/b": "None"}), False, "neither a node nor None", "None"),
    ("pending-word", dict(RIGHT_PLACEMENTS, **{"default/c": "pending"}), False, "neither a node nor None", None),
    # counts v0 twice: e does not fit on n1
    ("e-pending", dict(RIGHT_PLACEMENTS, **{"default/e": None}), False, "1 of 5 pods predicted wrong",
     "not counted twice"),
    # forgets old's two volumes: c would still fit on n1
    ("c-fits", dict(RIGHT_PLACEMENTS, **{"default/c": "n1"}), False, "1 of 5", "already on the node"),
    # b's two volumes on n2 (limit 1)
    ("b-on-n2", dict(RIGHT_PLACEMENTS, **{"default/b": "n2", "default/d": None}), False, "2 of 5", None),
    ("all-n1", {k: "n1" for k in RIGHT_PLACEMENTS}, False, "3 of 5", None),
    # the hint cites the Go to read
    ("b-fits-n1", dict(RIGHT_PLACEMENTS, **{"default/b": "n1"}), False, "1 of 5", "csi.go L109-179"),
    # an endless value: never iterated
    ("endless-iterable", dict(RIGHT_PLACEMENTS, **{"default/a": itertools.count()}), False,
     "neither a node nor None", None),
]


@pytest.mark.parametrize("answer,passes,says,hint", [c[1:] for c in PLACEMENT_CASES],
                         ids=[c[0] for c in PLACEMENT_CASES])
def test_check_csi_placements(capsys, answer, passes, says, hint) -> None:
    _expect(capsys, ch12.check_csi_placements, answer, passes, says, hint)


def test_the_checks_are_exported() -> None:
    assert exercises.check_volume_reasons is ch12.check_volume_reasons
    assert exercises.check_csi_placements is ch12.check_csi_placements
