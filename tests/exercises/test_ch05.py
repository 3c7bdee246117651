"""Chapter 05's checks, each against a table of answers a learner might give.

Every row is one answer: the check must return its verdict, print exactly one
line, never raise, and (for a wrong answer) give a hint that points the right
way. A learner's Permit plugin that loops forever or returns an Error on every
call must end with a verdict too (the wall-clock limit is lowered here, so that
the endless loop costs half a second).
"""
from __future__ import annotations

import time
from typing import Any, Callable, Optional

import pytest

from ksched_edu import exercises
from ksched_edu.exercises import ch05, core
from ksched_edu.framework.interface import Code, new_status
from tests.exercises.verdicts import SHORT_LIMIT, endless, verdict

pytestmark = pytest.mark.ch05


def _expect(capsys: pytest.CaptureFixture, check: Callable[..., bool], args: tuple, passes: bool,
            says: Optional[str], hint: Optional[str]) -> None:
    result, out = verdict(capsys, check, *args)
    assert result is passes, out
    if says is not None:
        assert says in out.split(" Hint: ")[0], f"the verdict should say {says!r}: {out!r}"
    if hint is not None:
        assert hint in out.split(" Hint: ", 1)[1], f"the hint should mention {hint!r}: {out!r}"


# --- check_team_permit -------------------------------------------------------------------


class TeamPermit:
    def name(self) -> str:
        return "TeamPermit"

    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        if "team" in pod.metadata.labels:
            return None, 0.0
        return new_status(Code.Unschedulable, "pod has no team label"), 0.0


class PermitAll(TeamPermit):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        return None, 0.0


class RejectAll(TeamPermit):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        return new_status(Code.Unschedulable, "pod has no team label"), 0.0


class WrongLabel(TeamPermit):  # one letter off: "teams"
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        if "teams" in pod.metadata.labels:
            return None, 0.0
        return new_status(Code.Unschedulable, "pod has no team label"), 0.0


class WrongReason(TeamPermit):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        if "team" in pod.metadata.labels:
            return None, 0.0
        return new_status(Code.Unschedulable, "no team"), 0.0


class StatusNotPair(TeamPermit):  # the wrong type: a Status alone
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        if "team" in pod.metadata.labels:
            return None
        return new_status(Code.Unschedulable, "pod has no team label")


class Stub(TeamPermit):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        raise NotImplementedError("your code here")


class Endless(TeamPermit):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        while True:
            pass


class Errors(TeamPermit):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        if "team" in pod.metadata.labels:
            return None, 0.0
        return new_status(Code.Error, "team lookup failed"), 0.0


class WaitsForever(TeamPermit):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        if "team" in pod.metadata.labels:
            return new_status(Code.Wait), 30.0
        return new_status(Code.Unschedulable, "pod has no team label"), 0.0


class Misnamed(TeamPermit):
    def name(self) -> str:
        return "Team"


def factory(cls: type) -> Callable[[Any, Any], Any]:
    return lambda args, handle: cls()


def factory_not_written(args: Any, handle: Any) -> Any:
    raise NotImplementedError("your code here")


def factory_crashes(args: Any, handle: Any) -> Any:
    return TeamPermit(args)  # type: ignore[call-arg]


# (id, the answer, passes, a part of the verdict, a part of the hint)
TEAM_ROWS = [
    ("right", factory(TeamPermit), True, "2 team pod(s) bound, 1 refused", None),
    ("wrong code: lets everyone through", factory(PermitAll), False, "default/web has no team label",
     "Unschedulable"),
    ("wrong code: refuses everyone", factory(RejectAll), False, "has a team label but was not bound", "Success"),
    ("off by one: the label 'teams'", factory(WrongLabel), False, "has a team label but was not bound", "'team'"),
    ("another reason", factory(WrongReason), False, "refused with", "pod has no team label"),
    ("wrong type: a Status, not a pair", factory(StatusNotPair), False, "TypeError", "pair"),
    ("returns Error", factory(Errors), False, 'running Permit plugin "TeamPermit": team lookup failed',
     "Code.Unschedulable"),
    ("returns Wait", factory(WaitsForever), False, "waited at Permit", "(None, 0)"),
    ("hangs", factory(Endless), False, "a loop that never ends", "at once"),
    ("permit raises NotImplementedError", factory(Stub), False, "NotImplementedError", "fill in"),
    ("factory raises NotImplementedError", factory_not_written, False, "not written", "TeamPermit"),
    ("factory raises TypeError", factory_crashes, False, "TypeError", "(args, handle)"),
    ("wrong name", factory(Misnamed), False, "'Team'", "name()"),
    ("None", None, False, "no plugin factory", "new_team_permit"),
    ("...", ..., False, "no plugin factory", "new_team_permit"),
    ("not callable", TeamPermit(), False, "no plugin factory", "new_team_permit"),
]


@pytest.mark.parametrize("answer,passes,says,hint", [pytest.param(*r[1:], id=r[0]) for r in TEAM_ROWS])
def test_team_permit(answer: Any, passes: bool, says: Optional[str], hint: Optional[str], capsys,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "TIME_LIMIT_SECONDS", 0.5)
    _expect(capsys, exercises.check_team_permit, (answer,), passes, says, hint)


def test_team_permit_error_quotes_the_cycle_error_once(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "TIME_LIMIT_SECONDS", 5.0)
    _, out = verdict(capsys, exercises.check_team_permit, factory(Errors))
    assert out.count("team lookup failed") == 1


# --- check_pods_binding ----------------------------------------------------------------------

BINDING_ROWS = [
    ("right at 0.5 s", (2,), True, "job-1, default/job-2", None),
    ("right at 1 s", (4, "default/job-3", 1.0), True, "default/web, default/job-0, default/job-1, default/job-2",
     None),
    ("off by one: forgets web or job-0", (3, "default/job-3", 1.0), False, "3 is not", "web and job-0 at once"),
    ("off by one: counts job-3 itself", (5, "default/job-3", 1.0), False, "5 is not", "1 s after"),
    ("the count at 0.5 s, for 1 s", (2, "default/job-3", 1.0), False, "2 is not", "less than 1 s before"),
    ("wrong type: a string", ("4", "default/job-3", 1.0), False, "not a whole number", "whole number"),
    ("wrong type: a float", (4.0, "default/job-3", 1.0), False, "not a whole number", "whole number"),
    ("wrong type: a bool", (True,), False, "not a whole number", "whole number"),
    ("None", (None,), False, "no prediction", "number"),
    ("...", (...,), False, "no prediction", "number"),
    ("a function that never returns", (endless,), False, "not a whole number", "whole number"),
]


@pytest.mark.parametrize("args,passes,says,hint", [pytest.param(*r[1:], id=r[0]) for r in BINDING_ROWS])
def test_pods_binding(args: tuple, passes: bool, says: Optional[str], hint: Optional[str], capsys) -> None:
    _expect(capsys, exercises.check_pods_binding, args, passes, says, hint)


# --- check_first_failure_queues ------------------------------------------------------------

RIGHT_QUEUES = {"default/b": "backoffQ", "default/d": "backoffQ", "default/e": "unschedulablePods"}

QUEUE_ROWS = [
    ("right", RIGHT_QUEUES, True, "default/e → unschedulablePods", None),
    ("wrong: every pod backs off", {**RIGHT_QUEUES, "default/e": "backoffQ"}, False, "1 of 3", "move request"),
    ("wrong: as if binding never overlapped", {p: "unschedulablePods" for p in RIGHT_QUEUES}, False, "2 of 3",
     "move request"),
    ("off by one: a pod missing", {"default/b": "backoffQ", "default/d": "backoffQ"}, False,
     "not the pods that failed", "never fit"),
    ("off by one: a pod too many", {**RIGHT_QUEUES, "default/c": "backoffQ"}, False, "not the pods that failed",
     "never fit"),
    ("short pod names", {"b": "backoffQ", "d": "backoffQ", "e": "unschedulablePods"}, False,
     "['b', 'd', 'e'] are not namespace/name keys", "namespace/name"),
    ("one short name among full ones", {"default/b": "backoffQ", "d": "backoffQ", "default/e": "unschedulablePods"},
     False, "['d'] are not namespace/name keys", "namespace/name"),
    ("a function that never returns", endless, False, "not a dict", "move request"),
    ("the port's queue names", {p: "Backoff" for p in RIGHT_QUEUES}, False, "not queue names", "backoffQ"),
    ("wrong type: a list", ["default/b", "default/d"], False, "not a dict", "move request"),
    ("None", None, False, "not a dict", "move request"),
    ("...", ..., False, "not a dict", "move request"),
]


@pytest.mark.parametrize("answer,passes,says,hint", [pytest.param(*r[1:], id=r[0]) for r in QUEUE_ROWS])
def test_first_failure_queues(answer: Any, passes: bool, says: Optional[str], hint: Optional[str], capsys) -> None:
    _expect(capsys, exercises.check_first_failure_queues, (answer,), passes, says, hint)


# --- check_permit_outcomes -----------------------------------------------------------------

RIGHT_OUTCOMES = {"default/job-1": "allowed", "default/job-2": "timeout", "default/job-3": "rejected",
                  "default/job-4": "timeout", "default/job-5": "allowed"}

OUTCOME_ROWS = [
    ("right", RIGHT_OUTCOMES, True, "default/job-2 timeout", None),
    ("the Allow after the timeout counted", {**RIGHT_OUTCOMES, "default/job-2": "allowed"}, False,
     "1 of 5 predictions are wrong: default/job-2", "timer runs out"),
    ("the Reject after the Allow counted", {**RIGHT_OUTCOMES, "default/job-5": "rejected"}, False,
     "1 of 5 predictions are wrong: default/job-5", "does nothing"),
    ("the Reject after the timeout counted", {**RIGHT_OUTCOMES, "default/job-4": "rejected"}, False,
     "default/job-4", "first of"),
    ("every wait times out", {p: "timeout" for p in RIGHT_OUTCOMES}, False, "3 of 5", "Allow"),
    ("off by one: a pod missing", {p: o for p, o in RIGHT_OUTCOMES.items() if p != "default/job-5"}, False,
     "you named 4 pod(s); 5 pods waited", "HOLD_TIMEOUTS"),
    ("off by one: job-6 too", {**RIGHT_OUTCOMES, "default/job-6": "allowed"}, False, "you named 6 pod(s)",
     "HOLD_TIMEOUTS"),
    ("another word", {**RIGHT_OUTCOMES, "default/job-2": "timed out"}, False, "not outcomes", '"timeout"'),
    ("wrong type: a list", list(RIGHT_OUTCOMES.values()), False, "not a dict", "Reject"),
    ("a function that never returns", endless, False, "not a dict", "Reject"),
    ("None", None, False, "not a dict", "Reject"),
    ("...", ..., False, "not a dict", "Reject"),
]


@pytest.mark.parametrize("answer,passes,says,hint", [pytest.param(*r[1:], id=r[0]) for r in OUTCOME_ROWS])
def test_permit_outcomes(answer: Any, passes: bool, says: Optional[str], hint: Optional[str], capsys) -> None:
    _expect(capsys, exercises.check_permit_outcomes, (answer,), passes, says, hint)


def test_permit_outcomes_are_read_off_the_trace() -> None:
    from ksched_edu.trace import PermitEvent, Recorder

    rec = Recorder()
    ch05.permit_script_simulation(rec)
    ends = {(e.pod, e.kind): e for e in rec.of(PermitEvent) if e.kind != "wait"}
    assert ch05.permit_outcomes(rec) == RIGHT_OUTCOMES
    assert ends["default/job-2", "timeout"].message == "rejected due to timeout after waiting 3s at plugin Hold"
    assert ends["default/job-3", "rejected"].time == 2.0
    # every held pod binds on its next attempt, so the run ends
    sim = ch05.permit_script_simulation()
    assert all(p.node for p in sim.placements())


def test_a_wrong_set_of_pods_is_not_counted_for_the_learner(capsys) -> None:
    """Naming the wrong pods gets no count of the failing ones (it would give part of the answer away),
    and short names get told what a key looks like, not "the pods that failed are 3"."""
    for answer in ({"b": "backoffQ", "d": "backoffQ", "e": "backoffQ"}, {"default/b": "backoffQ"}):
        _, out = verdict(capsys, exercises.check_first_failure_queues, answer)
        assert "are 3" not in out and "3 pods" not in out, out


def test_team_permit_shares_one_time_limit_across_the_learner_calls(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """The factory, name() and the simulation share one wall-clock limit: a plugin whose every method is
    slow, each just under the limit, still gets its verdict near the limit, not after several."""
    import time as clock

    monkeypatch.setattr(core, "TIME_LIMIT_SECONDS", SHORT_LIMIT)

    class Slow(TeamPermit):
        def name(self) -> str:
            clock.sleep(SHORT_LIMIT * 0.8)
            return "TeamPermit"

    def slow_factory(args: Any, handle: Any) -> Any:
        clock.sleep(SHORT_LIMIT * 0.8)
        return Slow()

    start = clock.monotonic()
    result, _ = verdict(capsys, exercises.check_team_permit, slow_factory)
    assert result is False
    assert clock.monotonic() - start < 3 * SHORT_LIMIT


def test_an_endless_permit_gets_its_verdict_within_eight_seconds_at_the_default_limit(capsys) -> None:
    start = time.monotonic()
    result, out = verdict(capsys, exercises.check_team_permit, factory(Endless))
    assert result is False and "a loop that never ends" in out
    assert time.monotonic() - start <= 8.0
