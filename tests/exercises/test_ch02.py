"""The checks of chapter 02: the right answer prints ✔; each common wrong answer ✘ with its hint."""
from __future__ import annotations

import copy
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from ksched_edu import exercises
from ksched_edu.exercises import ch02
from tests.exercises.verdicts import verdict

pytestmark = pytest.mark.ch02

ROOT = Path(__file__).resolve().parents[2]


# --- backoff prediction ------------------------------------------------------------------

BACKOFF = {1: 2, 2: 4, 3: 8, 4: 16, 5: 20, 6: 20}


@pytest.mark.parametrize("answer,ok,says", [
    (BACKOFF, True, "every backoff is right"),
    ({n: float(s) for n, s in BACKOFF.items()}, True, "every backoff is right"),
    ({1: 2, 2: 4, 3: 8, 4: 16, 5: 32, 6: 64}, False, "after 5 attempt(s)"),
    ({1: 1, 2: 2, 3: 4, 4: 8, 5: 10, 6: 10}, False, "after 1 attempt(s)"),
    ({1: 4, 2: 8, 3: 16, 4: 20, 5: 20, 6: 20}, False, "after 1 attempt(s)"),
    ({n: str(s) for n, s in BACKOFF.items()}, False, "does not wait '2's"),
    ({1: 2, 2: 4}, False, "no prediction for 4"),
    ({**BACKOFF, 3: ...}, False, "no prediction for 1"),
    (None, False, "not a dict"),
    (..., False, "not a dict"),
    ([2, 4, 8, 16, 20, 20], False, "not a dict"),
], ids=["right", "floats", "no cap", "the default configuration", "off by one attempt", "strings",
        "missing attempts", "an ellipsis left", "None", "unanswered", "a list"])
def test_check_backoff_prediction(capsys: pytest.CaptureFixture, answer: Any, ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_backoff_prediction, answer)
    assert result is ok and says in out


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
