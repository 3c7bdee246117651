"""The checks of chapter 07 (preemption): a right answer prints ✔, each kind of wrong answer ✘ with a hint.

Each row is one answer a learner might give; the check must return the
verdict, print exactly one line, and never raise.
"""
from __future__ import annotations

from typing import Any, Optional

import pytest

from ksched_edu import exercises
from ksched_edu.exercises.ch07 import dropped_by, first_preemption, run_scenario
from ksched_edu.exercises.core import FAIL_MARK, PASS_MARK
from ksched_edu.framework.preemption import (CRITERION_MIN_HIGHEST_PRIORITY, CRITERION_MIN_NUM_PODS,
                                             CRITERION_MIN_PDB_VIOLATIONS, CRITERION_MIN_SUM_PRIORITIES)

pytestmark = pytest.mark.ch07

RIGHT_DROPS = {"n1": CRITERION_MIN_PDB_VIOLATIONS, "n4": CRITERION_MIN_HIGHEST_PRIORITY,
               "n2": CRITERION_MIN_SUM_PRIORITIES}


def set_priority(name: str, priority: int):
    def change(cluster: Any) -> None:
        for pod in cluster.running_pods:
            if pod.metadata.name == name:
                pod.spec.priority = priority
    return change


def returns_a_copy(cluster: Any) -> Any:
    import copy

    changed = copy.deepcopy(cluster)
    set_priority("scratch-c", 100)(changed)
    return changed


def change_class_name(cluster: Any) -> None:
    for pod in cluster.running_pods:
        if pod.metadata.name == "scratch-c":
            pod.spec.priority_class_name = "batch"


def delete_a_pod(cluster: Any) -> None:
    cluster.pods = [p for p in cluster.pods if p.metadata.name != "scratch-a"]


def move_a_pod(cluster: Any) -> None:
    for pod in cluster.running_pods:
        if pod.metadata.name == "batch-c":
            pod.spec.node_name = "n1"


def lower_the_preemptor(cluster: Any) -> None:
    cluster.pending_pods[0].spec.priority = 5


def not_written(cluster: Any) -> None:
    raise NotImplementedError("your code here")


def crashes(cluster: Any) -> None:
    cluster.nodes[9].metadata.name = "n9"


# (name, check, arguments, passes, a word the hint must contain)
ROWS: list[tuple[str, str, tuple, bool, Optional[str]]] = [
    # exercise 1: how many candidates the dry run looks for
    ("num candidates: right", "check_num_candidates", ({50: 50, 300: 100, 3000: 300},), True, None),
    ("num candidates: one entry", "check_num_candidates", ({2000: 200},), True, None),
    ("num candidates: 10 percent of a small cluster", "check_num_candidates", ({50: 5},), False, "100"),
    ("num candidates: more than the nodes", "check_num_candidates", ({50: 100},), False, "never more"),
    ("num candidates: the minimum on a big cluster", "check_num_candidates", ({3000: 100},), False, "10%"),
    ("num candidates: not a number of nodes", "check_num_candidates", ({"50": 50},), False, "ints"),
    ("num candidates: not answered", "check_num_candidates", (...,), False, "dict"),
    # exercise 2: the rule that dropped each losing candidate
    ("dropped by: right", "check_dropped_by", (RIGHT_DROPS,), True, None),
    ("dropped by: n2 at fewest victims", "check_dropped_by", ({**RIGHT_DROPS, "n2": CRITERION_MIN_NUM_PODS},),
     False, "in order"),
    ("dropped by: the winner listed", "check_dropped_by", ({**RIGHT_DROPS, "n3": CRITERION_MIN_NUM_PODS},), False,
     "nominated node"),
    ("dropped by: a node missing", "check_dropped_by", ({"n1": CRITERION_MIN_PDB_VIOLATIONS},), False, "every"),
    ("dropped by: n5 is no candidate", "check_dropped_by", ({**RIGHT_DROPS, "n5": CRITERION_MIN_NUM_PODS},), False,
     "n5"),
    ("dropped by: not answered", "check_dropped_by", (None,), False, "dict"),
    # exercise 3: make n2 win
    ("n2 wins: scratch-c as important as a batch pod", "check_make_n2_win", (set_priority("scratch-c", 100),), True,
     None),
    ("n2 wins: scratch-c above the preemptor", "check_make_n2_win", (set_priority("scratch-c", 20000),), True,
     None),
    ("n2 wins: a changed copy returned", "check_make_n2_win", (returns_a_copy,), True, None),
    ("n2 wins: only the class name changed", "check_make_n2_win", (change_class_name,), False, "spec.priority"),
    ("n2 wins: n2's victims made more important", "check_make_n2_win", (set_priority("scratch-a", 100),), False,
     "n3's victim"),
    ("n2 wins: a pod deleted", "check_make_n2_win", (delete_a_pod,), False, "priorities"),
    ("n2 wins: a pod moved", "check_make_n2_win", (move_a_pod,), False, "priorities"),
    ("n2 wins: the preemptor lowered", "check_make_n2_win", (lower_the_preemptor,), False, "priorities"),
    ("n2 wins: not written", "check_make_n2_win", (not_written,), False, "spec.priority"),
    ("n2 wins: crashes", "check_make_n2_win", (crashes,), False, "objects in `cluster`"),
    ("n2 wins: not answered", "check_make_n2_win", (...,), False, "make_n2_win"),
]


@pytest.mark.parametrize("check,args,passes,hint", [pytest.param(*r[1:], id=r[0]) for r in ROWS])
def test_check_verdict(check: str, args: tuple, passes: bool, hint: Optional[str], capsys) -> None:
    result = getattr(exercises, check)(*args)
    out = capsys.readouterr().out
    assert result is passes
    assert out.count("\n") == 1, f"one verdict line expected, got {out!r}"
    if passes:
        assert out.startswith(PASS_MARK) and FAIL_MARK not in out, out
    else:
        assert out.startswith(FAIL_MARK) and "Hint:" in out, out
        assert hint in out.split("Hint:", 1)[1], f"the hint should mention {hint!r}: {out!r}"


def test_dropped_by_reads_the_recorded_rules() -> None:
    sim, _ = run_scenario()
    event = first_preemption(sim)
    assert event.nominated_node == "n3"
    assert dropped_by(event) == RIGHT_DROPS
