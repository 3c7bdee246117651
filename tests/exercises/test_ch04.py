"""The checks of chapter 04: each common wrong answer gets ✘ and the hint it needs, the right one ✔.

A check compares values (it never calls the learner's answer), so a callable
handed to it in place of a number is a wrong type, answered at once, even one
that would loop forever.
"""
from __future__ import annotations

import time

import pytest

from ksched_edu import exercises
from ksched_edu.exercises import ch04
from tests.exercises.verdicts import verdict

pytestmark = pytest.mark.ch04

TAINT_RIGHT = {"n1": 0, "n2": 0, "n3": 100, "n4": 0}


def not_written() -> int:
    raise NotImplementedError("your code here")


def endless() -> int:
    while True:
        pass


# (name, arguments, passes, a piece of the hint)
NUM_FEASIBLE = [
    ("right: 2000 nodes, adaptive", (2000, 680), True, None),
    ("right: 10000 nodes, the 5 % floor", (10000, 500), True, None),
    ("right: 99 nodes, searched whole", (99, 99), True, None),
    ("right: 20 percent of 1000", (1000, 200, 20), True, None),
    ("off by one", (2000, 681), False, "adaptive percentage = 50 - nodes // 125"),
    ("forgot the adaptive drop", (2000, 1000), False, "125"),
    ("the whole cluster", (2000, 2000), False, "only a percentage"),
    ("under the minimum", (5000, 50), False, "minFeasibleNodesToFind = 100"),
    ("a small cluster cut down", (60, 30), False, "searched whole"),
    ("explicit percentage ignored", (1000, 420, 20), False, "percentageOfNodesToScore=20"),
    ("None", (2000, None), False, "set `answer`"),
    ("Ellipsis", (2000, ...), False, "set `answer`"),
    ("a string", (2000, "680"), False, "give an int"),
    ("a float", (2000, 680.0), False, "give an int"),
    ("a bool", (2000, True), False, "give an int"),
    ("a function", (2000, not_written), False, "give an int"),
]

NORMALIZED = [
    ("right", (TAINT_RIGHT,), True, None),
    ("the tolerated taint counted", ({"n1": 50, "n2": 0, "n3": 100, "n4": 50},), False, "reversed"),
    ("not reversed", ({"n1": 100, "n2": 100, "n3": 0, "n4": 100},), False, "100 - 100 * raw // max raw"),
    ("off by one", ({"n1": 0, "n2": 0, "n3": 99, "n4": 0},), False, "TaintToleration"),
    ("scores as strings", ({"n1": "0", "n2": "0", "n3": "100", "n4": "0"},), False, "reversed"),
    ("a node missing", ({"n1": 0, "n2": 0, "n3": 100},), False, "every feasible node"),
    ("an extra node", ({**TAINT_RIGHT, "n5": 0},), False, "only feasible nodes"),
    ("a list", ([0, 0, 100, 0],), False, "write a dict"),
    ("None", (None,), False, "write a dict"),
    ("Ellipsis", (...,), False, "write a dict"),
    ("a function", (not_written,), False, "write a dict"),
    ("an unknown plugin", (TAINT_RIGHT, "NoSuchPlugin"), False, "plugin name"),
]

FILTER_COUNTS = [
    ("right", (266, 200), True, None),
    ("the one too many counted", (267, 200), False, "filtered but not counted"),
    ("one short", (265, 200), False, "count the tainted nodes"),
    ("rejected nodes not counted", (200, 200), False, "evaluated = feasible + rejected"),
    ("the adaptive default", (560, 420), False, "percentageOfNodesToScore: 20"),
    ("every untainted node", (1000, 750), False, "stops once numFeasibleNodesToFind"),
    ("the whole cluster", (1000, 1000), False, "stops once numFeasibleNodesToFind"),
    ("evaluated: the whole cluster", (1000, 200), False, "the search stops early"),
    ("feasible off by one", (266, 201), False, "percentageOfNodesToScore: 20"),
    ("the arguments swapped", (200, 266), False, "numFeasibleNodesToFind(1000)"),
    ("None", (None, 200), False, "set `evaluated` and `feasible`"),
    ("Ellipsis", (..., ...), False, "set `evaluated` and `feasible`"),
    ("a string", ("266", 200), False, "give two ints"),
    ("a float", (266, 200.0), False, "give two ints"),
    ("a bool", (True, 200), False, "give two ints"),
    ("a function", (not_written, 200), False, "give two ints"),
]


def _rows(table: list) -> list:
    return [pytest.param(*row[1:], id=row[0]) for row in table]


@pytest.mark.parametrize("args,passes,hint", _rows(NUM_FEASIBLE))
def test_check_num_feasible_nodes(args: tuple, passes: bool, hint: str, capsys: pytest.CaptureFixture) -> None:
    result, out = verdict(capsys, exercises.check_num_feasible_nodes, *args)
    assert result is passes
    if hint:
        assert hint in out.split("Hint:", 1)[1], out


@pytest.mark.parametrize("args,passes,hint", _rows(NORMALIZED))
def test_check_normalized_scores(args: tuple, passes: bool, hint: str, capsys: pytest.CaptureFixture) -> None:
    result, out = verdict(capsys, exercises.check_normalized_scores, *args)
    assert result is passes
    if hint:
        assert hint in out.split("Hint:", 1)[1], out


@pytest.mark.parametrize("args,passes,hint", _rows(FILTER_COUNTS))
def test_check_filter_counts(args: tuple, passes: bool, hint: str, capsys: pytest.CaptureFixture) -> None:
    result, out = verdict(capsys, exercises.check_filter_counts, *args)
    assert result is passes
    if hint:
        assert hint in out.split("Hint:", 1)[1], out


@pytest.mark.parametrize("check,args", [
    ("check_num_feasible_nodes", (2000, endless)),
    ("check_normalized_scores", (endless,)),
    ("check_filter_counts", (endless, endless)),
], ids=["num feasible", "normalized scores", "filter counts"])
def test_a_looping_function_is_not_called(check: str, args: tuple, capsys: pytest.CaptureFixture) -> None:
    start = time.monotonic()
    result, _ = verdict(capsys, getattr(exercises, check), *args)
    assert result is False
    assert time.monotonic() - start < 10


def test_filter_counts_match_the_chapter() -> None:
    # The chapter's table (default configuration, adaptive 42 %): 560 evaluated, 420 feasible.
    assert ch04.first_cycle_counts(0) == (560, 420)
    assert ch04.first_cycle_counts(10) == (133, 100)


def test_filter_counts_other_percentage(capsys: pytest.CaptureFixture) -> None:
    result, out = verdict(capsys, exercises.check_filter_counts, 133, 100, 10)
    assert result is True and "133" in out
    result, out = verdict(capsys, exercises.check_filter_counts, 266, 200, 10)
    assert result is False and "percentageOfNodesToScore: 10" in out
