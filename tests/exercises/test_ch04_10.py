"""The checks of chapters 04 and 05: a right answer prints ✔, a wrong one ✘ with a hint.

Each row is one answer a learner might give; the check must return the
verdict, print exactly one line, and never raise. The tables of chapters 06
to 10 are in test_ch06_10.py.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import pytest

from ksched_edu import exercises
from ksched_edu.exercises.core import FAIL_MARK, PASS_MARK
from ksched_edu.framework.interface import Code, new_status

# --- answers the rows below give -----------------------------------------------------------


class TeamPermit:
    def name(self) -> str:
        return "TeamPermit"

    def permit(self, state: Any, pod: Any, node_name: str) -> tuple[Any, float]:
        if "team" in pod.metadata.labels:
            return None, 0.0
        return new_status(Code.Unschedulable, "pod has no team label"), 0.0


class PermitAll(TeamPermit):
    def permit(self, state: Any, pod: Any, node_name: str) -> tuple[Any, float]:
        return None, 0.0


class PermitWrongReason(TeamPermit):
    def permit(self, state: Any, pod: Any, node_name: str) -> tuple[Any, float]:
        if "team" in pod.metadata.labels:
            return None, 0.0
        return new_status(Code.Unschedulable, "no team"), 0.0


class PermitNoPair(TeamPermit):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        return None


class PermitStub(TeamPermit):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        raise NotImplementedError("your code here")


class PermitMisnamed(TeamPermit):
    def name(self) -> str:
        return "Team"


def factory(cls: type, *args: Any) -> Callable[[Any, Any], Any]:
    return lambda plugin_args, handle: cls(*args)


def not_written(args: Any, handle: Any) -> Any:
    raise NotImplementedError("your code here")


# (name, check, arguments, passes, a word the hint must contain)
ROWS: list[tuple[str, str, tuple, bool, Optional[str], str]] = [
    # chapter 04
    ("next start index: right", "check_next_start_index", (370,), True, None, "ch04"),
    ("next start index: modulo the narrowed list", "check_next_start_index", (0,), False, "modulo", "ch04"),
    ("next start index: only the feasible nodes", "check_next_start_index", (368,), False, "failure status",
     "ch04"),
    ("next start index: the old answer", "check_next_start_index", (680,), False, "schedule_one.go", "ch04"),
    ("next start index: not answered", "check_next_start_index", (...,), False, "predicted", "ch04"),
    ("next start index: not a number", "check_next_start_index", ("370",), False, "int", "ch04"),
    ("taint scores: right", "check_normalized_scores", ({"n1": 0, "n2": 0, "n3": 100, "n4": 0},), True, None,
     "ch04"),
    ("taint scores: the tolerated taint counted", "check_normalized_scores",
     ({"n1": 50, "n2": 0, "n3": 100, "n4": 50},), False, "tolerates", "ch04"),
    ("taint scores: a node missing", "check_normalized_scores", ({"n1": 0, "n2": 0, "n3": 100},), False,
     "every", "ch04"),
    ("taint scores: not answered", "check_normalized_scores", (None,), False, "dict", "ch04"),
    # chapter 05
    ("team permit: right", "check_team_permit", (factory(TeamPermit),), True, None, "ch05"),
    ("team permit: lets everyone through", "check_team_permit", (factory(PermitAll),), False, "Unschedulable",
     "ch05"),
    ("team permit: another reason", "check_team_permit", (factory(PermitWrongReason),), False,
     "pod has no team label", "ch05"),
    ("team permit: no (status, timeout) pair", "check_team_permit", (factory(PermitNoPair),), False, "pair", "ch05"),
    ("team permit: permit not written", "check_team_permit", (factory(PermitStub),), False, "fill in", "ch05"),
    ("team permit: factory not written", "check_team_permit", (not_written,), False, "TeamPermit", "ch05"),
    ("team permit: wrong name", "check_team_permit", (factory(PermitMisnamed),), False, "name()", "ch05"),
    ("team permit: not answered", "check_team_permit", (...,), False, "new_team_permit", "ch05"),
    ("pods binding: right", "check_pods_binding", (2,), True, None, "ch05"),
    ("pods binding: counts job-0 too", "check_pods_binding", (3,), False, "0.5 s", "ch05"),
    ("pods binding: not answered", "check_pods_binding", (...,), False, "number", "ch05"),
    ("first failure: right", "check_first_failure_queues",
     ({"default/b": "backoffQ", "default/d": "backoffQ", "default/e": "unschedulablePods"},), True, None, "ch05"),
    ("first failure: every pod backs off", "check_first_failure_queues",
     ({"default/b": "backoffQ", "default/d": "backoffQ", "default/e": "backoffQ"},), False, "move request", "ch05"),
    ("first failure: as if binding never overlapped", "check_first_failure_queues",
     ({"default/b": "unschedulablePods", "default/d": "unschedulablePods", "default/e": "unschedulablePods"},),
     False, "move request", "ch05"),
    ("first failure: a pod missing", "check_first_failure_queues", ({"default/b": "backoffQ"},), False,
     "never fit", "ch05"),
    ("first failure: not a queue", "check_first_failure_queues", ({"default/b": "activeQ"},), False,
     "backoffQ", "ch05"),
    ("first failure: not answered", "check_first_failure_queues", (...,), False, "move request", "ch05"),
]


def _param(row: tuple) -> Any:
    name, check, args, passes, hint, chapter = row
    return pytest.param(check, args, passes, hint, id=name, marks=getattr(pytest.mark, chapter))


@pytest.mark.parametrize("check,args,passes,hint", [_param(r) for r in ROWS])
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
