"""Wrong-answer tables for the checks of chapters 00 and 01.

Each row is an answer a learner may give: the right one prints ✔, and each
common wrong one (a wrong value, a wrong type, one off, unanswered, a stub
that raises) prints ✘ with a hint that says what to look at. The checks run
the engine on the learner's value; the bound on that run is tested with a
simulation that never ends.
"""
from __future__ import annotations

from typing import Any, Callable

import pytest

from ksched_edu import exercises
from ksched_edu.exercises import core
from ksched_edu.schedule_one import prioritize_nodes, schedule_one, schedule_pod, select_host
from ksched_edu.scheduler import Scheduler
from ksched_edu.sim.simulation import Simulation
from tests.exercises.verdicts import endless, verdict
from tests.test_ch00_tour import go_lines, needs_checkout


def _stub(*args: Any) -> Any:
    raise NotImplementedError("your code here")


def _endless_run(self: Simulation, until: Any = None, progress: Any = None) -> Simulation:
    while True:
        pass


# --- chapter 00 -------------------------------------------------------------------------


@pytest.mark.ch00
@pytest.mark.parametrize("answer,ok,says", [
    ("2", True, "lands on n1"),
    ("1500m", True, "lands on n1"),
    ("500m", False, "still lands on n3"),
    ("1", False, "still lands on n3"),
    ("4", False, "fits nowhere"),
    ("lots", False, "is not a quantity"),
    (["2"], False, "is not a quantity"),
    ("-1", False, "not a positive amount"),
    ("0", False, "not a positive amount"),
    ("3", True, "lands on n1"),
    ("1000m", False, "still lands on n3"),
    ("3001m", False, "fits nowhere"),
    (2, True, "lands on n1"),
    (endless, False, "is not a quantity"),
    (None, False, "not set yet"),
    (..., False, "not set yet"),
], ids=["2 CPUs", "1500m", "500m: unchanged", "1 CPU: one too few", "4 CPUs: fits nowhere", "not a quantity",
        "a list", "negative", "zero", "the old hint's upper end", "1000m: n3 still wins",
        "more than n1 has free", "a number", "a function that never returns", "None", "Ellipsis"])
def test_check_tour_cpu_request(capsys: pytest.CaptureFixture, answer: Any, ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_tour_cpu_request, answer)
    assert result is ok and says in out
    if not ok:
        hint = out.split(" Hint: ", 1)[1]
        # the hint cites the Go to read and gives no value or bound that passes
        assert "least_allocated.go L30-61" in hint or "quantity string" in hint
        assert not any(word in hint for word in ("between", "1500m", '"2"', '"3"', "1100m"))


@pytest.mark.ch00
@pytest.mark.parametrize("answer,ok,says", [
    ("n3", True, "lands on n3"),
    ("n2", False, "does not land on n2"),
    ("n1", False, "does not land on n1"),
    ("N3", False, "is not one of the nodes"),
    (3, False, "is not one of the nodes"),
    (endless, False, "is not one of the nodes"),
    (None, False, "not set yet"),
    (..., False, "not set yet"),
], ids=["n3", "n2, the big node", "n1", "wrong case", "a number", "a function that never returns", "None",
        "Ellipsis"])
def test_check_tour_prediction(capsys: pytest.CaptureFixture, answer: Any, ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_tour_prediction, answer)
    assert result is ok and says in out
    if not ok:
        assert "taint_toleration.go L125-154" in out


@pytest.mark.ch00
@pytest.mark.parametrize("check,answer", [(exercises.check_tour_cpu_request, "2"),
                                          (exercises.check_tour_prediction, "n3")],
                         ids=["cpu request", "prediction"])
def test_tour_checks_are_bounded(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch,
                                 check: Callable[..., bool], answer: Any) -> None:
    monkeypatch.setattr(core, "TIME_LIMIT_SECONDS", 0.3)
    monkeypatch.setattr(Simulation, "run", _endless_run)
    result, out = verdict(capsys, check, answer)
    assert result is False and "still running after 0.3 s" in out


@pytest.mark.ch00
@pytest.mark.parametrize("answer,ok,says", [
    (select_host, True, "ports selectHost"),
    (schedule_pod, False, "ports (*Scheduler).schedulePod"),
    (prioritize_nodes, False, "ports prioritizeNodes"),
    (schedule_one, False, "ports (*Scheduler).ScheduleOne"),
    ("selectHost", False, "not its name"),
    ("select_host", False, "not its name"),
    (Scheduler.record, False, "has no Go counterpart"),
    (_stub, False, "not a function of ksched_edu with an upstream anchor"),
    (lambda nodes, count, rng: nodes[0], False, "not a function of ksched_edu with an upstream anchor"),
    (42, False, "not a function of ksched_edu with an upstream anchor"),
    (None, False, "not set yet"),
    (..., False, "not set yet"),
], ids=["select_host", "schedule_pod: one level up", "prioritize_nodes: one step early", "schedule_one",
        "the Go name", "the Python name", "plumbing", "a stub", "a lambda", "a number", "None", "Ellipsis"])
def test_check_tour_upstream(capsys: pytest.CaptureFixture, answer: Any, ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_tour_upstream, answer)
    assert result is ok and says in out


# --- chapter 01 -------------------------------------------------------------------------


@pytest.mark.ch01
@pytest.mark.parametrize("answer,ok,says", [
    (["x1", "y1", "z1", "x2", "y2", "x3"], True, "walks x1, y1, z1"),
    (("x1", "y1", "z1", "x2", "y2", "x3"), True, "walks x1, y1, z1"),
    (["x1", "x2", "y1", "x3", "z1", "y2"], False, "position 1 should hold y1"),
    (["x1", "x2", "x3", "y1", "y2", "z1"], False, "position 1 should hold y1"),
    (["y1", "z1", "x2", "y2", "x3", "x1"], False, "position 0 should hold x1"),
    (["x1", "y1", "z1"], False, "is not a list of the six nodes"),
    ("x1 y1 z1 x2 y2 x3", False, "is not a list of the six nodes"),
    (endless, False, "is not a list of the six nodes"),
    (None, False, "not set yet"),
    (..., False, "not set yet"),
], ids=["round robin", "a tuple", "creation order", "zone by zone", "rotated by one", "too few", "a string",
        "a function that never returns", "None", "Ellipsis"])
def test_check_node_tree_order(capsys: pytest.CaptureFixture, answer: Any, ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_node_tree_order, answer)
    assert result is ok and says in out
    if not ok:
        assert "node_tree.go L51-67 and L119-143" in out


@pytest.mark.ch01
@pytest.mark.parametrize("requested,non_zero,ok,says", [
    (500, 600, True, "counts for 100m when NodeResourcesFit scores"),
    (500, 500, False, "non_zero_requested.milli_cpu is not 500"),
    (600, 600, False, "requested.milli_cpu is not 600"),
    (500, 700, False, "non_zero_requested.milli_cpu is not 700"),
    ("500", "600", False, "requested.milli_cpu is not 500"),
    (500, endless, False, "non_zero_requested.milli_cpu is not"),
    (None, 600, False, "both numbers must be set"),
    (..., ..., False, "both numbers must be set"),
], ids=["defaults for the BestEffort pod", "no default", "default in requested too", "memory's 200 added",
        "strings", "a function that never returns", "one unanswered", "unanswered"])
def test_check_non_zero_cpu(capsys: pytest.CaptureFixture, requested: Any, non_zero: Any, ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_non_zero_cpu, requested, non_zero)
    assert result is ok and says in out
    if not ok:
        assert "pod_resources.go L33-46" in out


@pytest.mark.ch01
def test_the_flush_moves_the_pod_every_330_seconds() -> None:
    from ksched_edu.exercises.ch01 import unschedulable_timeout_moves

    assert unschedulable_timeout_moves() == [330.0, 660.0]


@pytest.mark.ch01
@pytest.mark.parametrize("answer,ok,says", [
    ([330, 660], True, "t=330, 660 s"),
    ((330.0, 660.0), True, "t=330, 660 s"),
    ([660, 330], True, "t=330, 660 s"),
    ([300, 600], False, "move 1 did not happen at t=300"),
    ([300.001, 600.002], False, "move 1 did not happen at t=300.001"),
    ([330, 690], False, "move 2 did not happen at t=690"),
    ([329, 659], False, "move 1 did not happen at t=329"),
    ([330], False, "1 move(s) predicted; the queue recorded 2"),
    ([330, 660, 690], False, "3 move(s) predicted"),
    ([30, 60, 90], False, "3 move(s) predicted"),
    ("330, 660", False, "is not a list of numbers"),
    (330, False, "is not a list of numbers"),
    ([True, False], False, "is not a list of numbers"),
    (["330", "660"], False, "is not a list of numbers"),
    (endless, False, "is not a list of numbers"),
    (None, False, "not set yet"),
    (..., False, "not set yet"),
], ids=["330 and 660", "a tuple of floats", "any order", "every 300 s", "300 s after each failure",
        "30 s off", "one second early", "only the first", "one too many", "the flush period", "a string",
        "a number", "booleans", "strings", "a function that never returns", "None", "Ellipsis"])
def test_check_unschedulable_flush_times(capsys: pytest.CaptureFixture, answer: Any, ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_unschedulable_flush_times, answer)
    assert result is ok and says in out
    if not ok:
        hint = out.split(" Hint: ", 1)[1]
        # the hint sends the learner to the Go (the flush period is section 2's) and gives no time away
        assert "every 30 s" in hint and "L863-879" in hint and "L742-743" in hint
        assert not any(word in hint for word in ("330", "more than", "300"))


@pytest.mark.ch01
def test_check_unschedulable_flush_times_is_bounded(capsys: pytest.CaptureFixture,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "TIME_LIMIT_SECONDS", 0.3)
    monkeypatch.setattr(Simulation, "run", _endless_run)
    result, out = verdict(capsys, exercises.check_unschedulable_flush_times, [330, 660])
    assert result is False and "still running after 0.3 s" in out


@pytest.mark.parametrize("name", ["check_tour_upstream", "check_unschedulable_flush_times"])
def test_new_checks_are_re_exported(name: str) -> None:
    assert callable(getattr(exercises, name)) and name in exercises.all_checks()


# --- the Go lines the hints cite ---------------------------------------------------------------------


NR = "pkg/scheduler/framework/plugins/noderesources/"
QUEUE = "pkg/scheduler/internal/queue/scheduling_queue.go"
# (the file a hint names, the line, what the line holds)
HINT_LINES = [
    (NR + "least_allocated.go", 30, "func leastResourceScorer("), (NR + "least_allocated.go", 61, "}"),
    (NR + "balanced_allocation.go", 138, "func balancedResourceScorer("), (NR + "balanced_allocation.go", 173, "}"),
    (NR + "fit.go", 421, "func fitsRequest("), (NR + "fit.go", 501, "}"),
    ("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", 125,
     "func countIntolerableTaintsPreferNoSchedule("),
    ("pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go", 154, "}"),
    ("pkg/scheduler/schedule_one.go", 390, "func (sched *Scheduler) schedulePod("),
    ("pkg/scheduler/schedule_one.go", 438, "}"),
    ("pkg/scheduler/internal/cache/node_tree.go", 51, "func (nt *nodeTree) addNode("),
    ("pkg/scheduler/internal/cache/node_tree.go", 67, "}"),
    ("pkg/scheduler/internal/cache/node_tree.go", 119, "func (nt *nodeTree) list()"),
    ("pkg/scheduler/internal/cache/node_tree.go", 143, "}"),
    ("pkg/scheduler/util/pod_resources.go", 33, "DefaultMilliCPURequest"),
    ("pkg/scheduler/util/pod_resources.go", 46, "}"),
    ("pkg/scheduler/framework/types.go", 846, "func (n *NodeInfo) update("),
    ("pkg/scheduler/framework/types.go", 865, "}"),
    (QUEUE, 393, "func (p *PriorityQueue) Run("), (QUEUE, 400, "}"),
    (QUEUE, 863, "func (p *PriorityQueue) flushUnschedulablePodsLeftover("), (QUEUE, 879, "}"),
    (QUEUE, 743, "pInfo.Timestamp = p.clock.Now()"),
]


@pytest.mark.parametrize("path, line, holds", HINT_LINES, ids=[f"{p.rsplit('/', 1)[-1]}:{n}" for p, n, _ in HINT_LINES])
def test_each_line_a_hint_cites_holds_what_it_should(path: str, line: int, holds: str) -> None:
    needs_checkout()
    text = go_lines(path)[line - 1]
    assert text.startswith(holds) or holds in text, f"{path} L{line}: {text!r}"
