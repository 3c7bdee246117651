"""The checks of chapter 04: each common wrong answer gets ✘ and the hint it needs, the right one ✔.

A check compares values (it never calls the learner's answer), so a callable
handed to it in place of a number is a wrong type, answered at once, even one
that would loop forever (the ``short`` rows lower the wall-clock limit all the
same, as the tables of the other chapters do, and must end near it).
"""
from __future__ import annotations

import time

import pytest

from ksched_edu import exercises
from ksched_edu.exercises import ch04
from tests.exercises.verdicts import Row, assert_row, endless, not_written, verdict

pytestmark = pytest.mark.ch04




TAINT_RIGHT = {"n1": 0, "n2": 0, "n3": 100, "n4": 0}

# Exercise 1: nextStartNodeIndex after default/pinned's cycle (PreFilter left node-0 ... node-9).
NEXT_START = [
    Row("right", (370,), True, says="nextStartNodeIndex 360 -> 370"),
    Row("the index does not move for a narrowed search", (360,), False, "moves after every cycle"),
    Row("taken modulo the narrowed list", (0,), False, "modulo of L500"),
    Row("only the feasible nodes counted", (368,), False, "failure status"),
    Row("one node too many counted", (371,), False, "no passing node is one too many"),
    Row("numFeasibleNodesToFind of the whole cluster", (780,), False, "narrowed list"),
    Row("as if pinned's cycle were like the six before", (920,), False, "narrowed list"),
    Row("the old answer (numFeasibleNodesToFind(2000))", (680,), False, "findNodesThatFitPod (schedule_one.go L485-500)"),
    Row("past the end of the node list", (1370,), False, "0 <= index"),
    Row("negative", (-1,), False, "0 <= index"),
    Row("a string", ("370",), False, "an int"),
    Row("a float", (370.0,), False, "an int"),
    Row("a bool", (True,), False, "an int"),
    Row("a function that raises", (not_written,), False, "an int"),
    Row("a function that never returns", (endless,), False, "an int", short=True),
    Row("None", (None,), False, "set `predicted`"),
    Row("...", (...,), False, "set `predicted`"),
]

# Exercise 2: TaintToleration's normalized scores in score-taint-prefer-noschedule.
NORMALIZED = [
    Row("right", (TAINT_RIGHT,), True, says="n3=100"),
    Row("the tolerated taint counted", ({"n1": 50, "n2": 0, "n3": 100, "n4": 50},), False,
        "a taint the pod tolerates is not counted"),
    Row("not reversed", ({"n1": 100, "n2": 100, "n3": 0, "n4": 100},), False, "reverse=true"),
    Row("the raw counts", ({"n1": 1, "n2": 1, "n3": 0, "n4": 1},), False, "countIntolerableTaintsPreferNoSchedule"),
    Row("off by one", ({"n1": 0, "n2": 0, "n3": 99, "n4": 0},), False, "normalize_score.go (L27-55)"),
    Row("scores as strings", ({"n1": "0", "n2": "0", "n3": "100", "n4": "0"},), False, "an int from 0 to 100"),
    Row("a node missing", ({"n1": 0, "n2": 0, "n3": 100},), False, "every feasible node"),
    Row("an extra node", ({**TAINT_RIGHT, "n5": 0},), False, "only feasible nodes"),
    Row("a list", ([0, 0, 100, 0],), False, "write a dict"),
    Row("a function that never returns", (endless,), False, "write a dict", short=True),
    Row("a function that raises", (not_written,), False, "write a dict"),
    Row("None", (None,), False, "write a dict"),
    Row("...", (...,), False, "write a dict"),
    Row("an unknown plugin", (TAINT_RIGHT, "NoSuchPlugin"), False, "plugin name"),
]

# Exercise 3: the first cycle's counts with percentageOfNodesToScore: 20.
FILTER_COUNTS = [
    Row("right", (266, 200), True, says="266 nodes"),
    Row("the one too many counted", (267, 200), False, "filtered but not counted"),
    Row("one short", (265, 200), False, "count the tainted nodes"),
    Row("rejected nodes not counted", (200, 200), False, "failure status"),
    Row("the adaptive default", (560, 420), False, "percentageOfNodesToScore: 20"),
    Row("every untainted node", (1000, 750), False, "stops once numFeasibleNodesToFind"),
    Row("the whole cluster", (1000, 1000), False, "stops once numFeasibleNodesToFind"),
    Row("evaluated: the whole cluster", (1000, 200), False, "the search stops early"),
    Row("feasible off by one", (266, 201), False, "percentageOfNodesToScore: 20"),
    Row("the arguments swapped", (200, 266), False, "numFeasibleNodesToFind(1000)"),
    Row("None", (None, 200), False, "set `evaluated` and `feasible`"),
    Row("...", (..., ...), False, "set `evaluated` and `feasible`"),
    Row("a string", ("266", 200), False, "give two ints"),
    Row("a float", (266, 200.0), False, "give two ints"),
    Row("a bool", (True, 200), False, "give two ints"),
    Row("a function that raises", (not_written, 200), False, "give two ints"),
    Row("functions that never return", (endless, endless), False, "give two ints", short=True),
]

TABLES = {"check_next_start_index": NEXT_START, "check_normalized_scores": NORMALIZED,
          "check_filter_counts": FILTER_COUNTS}


@pytest.mark.parametrize("check,row", [pytest.param(check, row, id=f"{check}: {row.id}")
                                       for check, rows in TABLES.items() for row in rows])
def test_check_verdict(check: str, row: Row, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_row(capsys, monkeypatch, getattr(exercises, check), row.args, row)


@pytest.mark.parametrize("check,args", [
    ("check_next_start_index", (endless,)),
    ("check_normalized_scores", (endless,)),
    ("check_filter_counts", (endless, endless)),
], ids=["next start index", "normalized scores", "filter counts"])
def test_a_looping_function_gets_its_verdict_within_eight_seconds(check: str, args: tuple,
                                                                   capsys: pytest.CaptureFixture) -> None:
    start = time.monotonic()
    result, _ = verdict(capsys, getattr(exercises, check), *args)
    assert result is False
    assert time.monotonic() - start < 8


def test_no_hint_gives_the_answer_away(capsys: pytest.CaptureFixture) -> None:
    """A wrong answer's hint names the Go to read, never the index the check wants."""
    want = ch04.pinned_cycle().after
    for row in NEXT_START:
        if not row.passes:
            exercises.check_next_start_index(*row.args)
            hint = capsys.readouterr().out.split(" Hint: ", 1)[1]
            assert str(want) not in hint, (row.id, hint)


def test_the_pinned_cycle_is_the_one_the_exercise_describes() -> None:
    """After section 2's six pods the index stands at 360; PreFilter leaves node-0 ... node-9, of which
    node-3 and node-7 are tainted: all ten are filtered, in a 1,000-node snapshot."""
    run = ch04.pinned_cycle()
    assert (run.before, run.all_nodes, run.filtered, run.feasible, run.rejected) == (360, 1000, 10, 8, 2)
    assert run.step_before == 560 and (800 + run.step_before) % run.all_nodes == run.before


def test_pinned_is_filtered_on_the_ten_nodes_prefilter_left_whatever_their_order() -> None:
    """Go ranges over the PreFilterResult's set (random order); the port keeps the snapshot's. With
    fewer than 100 nodes left every one is filtered, so the order cannot change processedNodes."""
    from ksched_edu.schedule_one import num_feasible_nodes_to_find

    run = ch04.pinned_cycle()
    assert num_feasible_nodes_to_find(None, None, len(ch04.PINNED_NODES)) == len(ch04.PINNED_NODES) == run.filtered
    assert run.after == (run.before + run.feasible + run.rejected) % run.all_nodes


def test_filter_counts_match_the_chapter() -> None:
    # The chapter's table (default configuration, adaptive 42 %): 560 evaluated, 420 feasible.
    assert ch04.first_cycle_counts(0) == (560, 420)
    assert ch04.first_cycle_counts(10) == (133, 100)


def test_filter_counts_other_percentage(capsys: pytest.CaptureFixture) -> None:
    result, out = verdict(capsys, exercises.check_filter_counts, 133, 100, 10)
    assert result is True and "133" in out
    result, out = verdict(capsys, exercises.check_filter_counts, 266, 200, 10)
    assert result is False and "percentageOfNodesToScore: 10" in out
