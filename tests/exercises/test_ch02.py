"""The checks of chapter 02: the right answer prints ✔; each common wrong answer ✘ with its hint."""
from __future__ import annotations

import copy
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from ksched_edu import exercises
from ksched_edu.exercises import ch02
from tests.exercises.verdicts import Row
from tests.exercises.verdicts import assert_row, endless, verdict
from tests.test_ch00_tour import go_lines, needs_checkout

pytestmark = pytest.mark.ch02

ROOT = Path(__file__).resolve().parents[2]


# --- the second attempt, queueing hints on (exercise 1) ------------------------------------------

def test_the_second_attempt_with_the_gate_on_and_off() -> None:
    assert ch02.second_attempt() == ("unschedulablePods", 0.003, 330.0)
    assert ch02.second_attempt(queueing_hints=False) == ("backoffQ", 0.003, 2.0)


WHERE = "L676-732"  # the hint for a wrong part cites determineSchedulingHintForInFlightPod
WHEN = "L863-879"  # the hint for a wrong time cites flushUnschedulablePodsLeftover
SECOND_ATTEMPT = [
    Row("right", ("unschedulablePods", 330), True, says="the 30-second flush of t=330 s"),
    Row("right, the trace's name and a float", ("Unschedulable", 330.0), True),
    Row("right, the walkthroughs' name", ("unschedulableQ", 330), True),
    Row("the gate-off answer of section 1", ("backoffQ", 2), False, WHERE, says="did not go to backoffQ"),
    Row("retried at once", ("activeQ", 0.003), False, WHERE, says="did not go to activeQ"),
    Row("five minutes after the failure", ("unschedulablePods", 300.003), False, WHEN, says="t=300.003 s"),
    Row("the flush at exactly 300 s", ("unschedulablePods", 300), False, WHEN, says="t=300 s"),
    Row("one flush late", ("unschedulablePods", 360), False, WHEN, says="t=360 s"),
    Row("parked, but moved by the backoff flush", ("unschedulablePods", 2), False, WHEN, says="t=2 s"),
    Row("the old question's answer", ({1: 2, 2: 4, 3: 8, 4: 16, 5: 20, 6: 20}, 330), False, WHERE,
        says="is not one of the queue's parts"),
    Row("not a part of the queue", ("inFlight", 330), False, WHERE),
    Row("a time as a string", ("unschedulablePods", "330"), False, WHEN, says="not str"),
    Row("a bool", ("unschedulablePods", True), False, WHEN, says="not bool"),
    Row("a function that never returns, for the time", ("unschedulablePods", endless), False, WHEN,
        says="not function", short=True),
    Row("a function that never returns, for the part", (endless, 330), False, WHERE, short=True),
    Row("None", (None, 330), False, WHERE, says="not both set"),
    Row("...", (..., ...), False, WHERE, says="not both set"),
]


@pytest.mark.parametrize("row", SECOND_ATTEMPT, ids=[r.id for r in SECOND_ATTEMPT])
def test_check_second_attempt(row: Row, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_row(capsys, monkeypatch, exercises.check_second_attempt, row.args, row)


def test_the_second_attempt_hints_do_not_give_the_answer_away(capsys: pytest.CaptureFixture) -> None:
    for row in SECOND_ATTEMPT:
        if not row.passes:
            _, out = verdict(capsys, exercises.check_second_attempt, *row.args)
            hint = out.split(" Hint: ", 1)[1]
            assert "330" not in hint and "unschedulablePods" not in hint.replace('"unschedulablePods"', ""), out


# --- free the pod -------------------------------------------------------------------------


def _label(name: str, copy_first: bool = True) -> Callable[[Any], None]:
    def free(api: Any) -> None:
        node = api.get("Node", "", name)
        node = copy.deepcopy(node) if copy_first else node
        node.metadata.labels["disk"] = "ssd"
        api.update(node)
    return free


def _new_node(api: Any) -> None:
    from ksched_edu.api.loader import load_cluster

    node = load_cluster(ROOT / "data/workloads/new-nodes.yaml").nodes[0]
    node.metadata.labels["disk"] = "ssd"
    api.create(node)


def _change_pod(api: Any) -> None:
    pod = copy.deepcopy(api.get_pod("default", "ssd-job"))
    pod.spec.node_selector = {}
    api.update(pod)


def _stub(api: Any) -> None:
    raise NotImplementedError("your code here")


def _forever(api: Any) -> None:
    while True:
        pass


def _no_such_node(api: Any) -> None:
    node = copy.deepcopy(api.get("Node", "", "n9"))
    node.metadata.labels["disk"] = "ssd"


@pytest.mark.parametrize("free,ok,says", [
    (_label("n1"), True, "NodeLabelChange"),
    (_new_node, True, "NodeAdd"),
    (_label("n1", copy_first=False), False, "no cluster event"),
    (_label("n2"), False, "no cluster event"),
    (lambda api: None, False, "no cluster event"),
    (_change_pod, False, "changed"),
    (_no_such_node, False, "free(api) raised"),
    (_stub, False, "NotImplementedError"),
    (_forever, False, "free(api) did not return: your code is still running after 0.5 s (a loop that never ends?)"),
    (..., False, "not a function"),
    (None, False, "not a function"),
    ("n1", False, "not a function"),
], ids=["label n1", "a new labelled node", "label without a copy", "label the tainted node", "does nothing",
        "change the pod", "a node that does not exist", "stub", "endless loop", "unanswered", "None", "a string"])
def test_check_free_the_pod(capsys: pytest.CaptureFixture, free: Any, ok: bool, says: str) -> None:
    start = time.monotonic()
    result, out = verdict(capsys, exercises.check_free_the_pod, free, seconds=0.5)
    assert result is ok and says in out
    assert time.monotonic() - start < 10


# --- the 30-second flush -----------------------------------------------------------------------


def test_the_flush_moves_web_at_420() -> None:
    assert ch02.flush_move_time() == 420.0


@pytest.mark.parametrize("answer,ok,says", [
    (420, True, "the flush at t=420s"),
    (420.0, True, "the flush at t=420s"),
    (400, False, "no flush runs at t=400s"),
    (390, False, "has not waited 5 minutes"),
    (330, False, "has not waited 5 minutes"),
    (130, False, "has not waited 5 minutes"),
    (450, False, "before t=450s"),
    ("420", False, "not str"),
    (True, False, "not bool"),
    (None, False, "not a time"),
    (..., False, "not a time"),
], ids=["right", "a float", "event time + 300", "one flush early", "as if it failed at t=0", "30 s after the label",
        "one flush late", "a string", "a bool", "None", "unanswered"])
def test_check_flush_prediction(capsys: pytest.CaptureFixture, answer: Any, ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_flush_prediction, answer)
    assert result is ok and says in out


# --- queueing hints -------------------------------------------------------------------------

RIGHT = {"uncordon n2": False, "uncordon n3": True, "add n4": True, "add n4 cordoned": False}


def test_which_changes_move_web_with_hints_on() -> None:
    assert ch02.hint_outcomes() == RIGHT


@pytest.mark.parametrize("answer,ok,says", [
    (RIGHT, True, "only uncordon n3 and add n4 moved web"),
    ({c: True for c in RIGHT}, False, "2 prediction(s) off; for instance 'uncordon n2' did not move web"),
    ({**RIGHT, "uncordon n2": True}, False, "1 prediction(s) off; for instance 'uncordon n2' did not move web"),
    ({**RIGHT, "add n4 cordoned": True}, False, "1 prediction(s) off; for instance 'add n4 cordoned' did not"),
    ({**RIGHT, "add n4": False}, False, "'add n4' moved web"),
    ({c: not v for c, v in RIGHT.items()}, False, "4 prediction(s) off"),
    ({**RIGHT, "uncordon n3": "yes"}, False, "True or False"),
    ({**RIGHT, "uncordon n3": 1}, False, "True or False"),
    ({"uncordon n2": False}, False, "no prediction for"),
    ({**RIGHT, "add n4": None}, False, "no prediction for ['add n4']"),
    (None, False, "not a dict"),
    (..., False, "not a dict"),
    ([False, True, True, False], False, "not a dict"),
], ids=["right", "every change moves it (hints off)", "forgot the pre-check", "forgot the hint", "forgot NodeAdd",
        "all inverted", "a string", "an int", "missing changes", "None for one", "None", "unanswered", "a list"])
def test_check_hint_predictions(capsys: pytest.CaptureFixture, answer: Any, ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_hint_predictions, answer)
    assert result is ok and says in out


# --- the Go lines exercise 1 and its hints cite -------------------------------------------------------


QUEUE = "pkg/scheduler/internal/queue/scheduling_queue.go"
HINT_LINES = [
    ("pkg/scheduler/eventhandlers.go", 194, "func (sched *Scheduler) addPodToCache("),
    ("pkg/scheduler/eventhandlers.go", 208, "}"),
    (QUEUE, 1064, "func (p *PriorityQueue) AssignedPodAdded("), (QUEUE, 1068, "}"),
    (QUEUE, 780, "func (p *PriorityQueue) AddUnschedulableIfNotPresent("), (QUEUE, 827, "}"),
    (QUEUE, 676, "func (p *PriorityQueue) determineSchedulingHintForInFlightPod("), (QUEUE, 732, "}"),
    (QUEUE, 442, "func (p *PriorityQueue) isPodWorthRequeuing("), (QUEUE, 513, "}"),
    (QUEUE, 830, "func (p *PriorityQueue) flushBackoffQCompleted("), (QUEUE, 859, "}"),
    (QUEUE, 863, "func (p *PriorityQueue) flushUnschedulablePodsLeftover("), (QUEUE, 879, "}"),
    (QUEUE, 393, "func (p *PriorityQueue) Run("), (QUEUE, 400, "}"),
    (QUEUE, 805, "pInfo.Timestamp = p.clock.Now()"),
]


@pytest.mark.parametrize("path, line, holds", HINT_LINES, ids=[f"{p.rsplit('/', 1)[-1]}:{n}" for p, n, _ in HINT_LINES])
def test_each_line_exercise_1_cites_holds_what_it_should(path: str, line: int, holds: str) -> None:
    needs_checkout()
    text = go_lines(path)[line - 1]
    assert text.startswith(holds) or holds in text, f"{path} L{line}: {text!r}"
