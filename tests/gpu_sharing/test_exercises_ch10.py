"""The checks of chapter 09: a right answer prints ✔, each kind of wrong answer ✘ with a hint, nothing raises."""
import pytest

from ksched_edu import exercises
from ksched_edu.exercises.core import FAIL_MARK, PASS_MARK

pytestmark = pytest.mark.ch10


def best_fit(gpus_left, milli):
    chosen = ""
    for i, left in enumerate(gpus_left):
        if left >= milli and (chosen == "" or left < gpus_left[int(chosen)]):
            chosen = str(i)
    return chosen


def worst_fit(gpus_left, milli):
    fits = [i for i, left in enumerate(gpus_left) if left >= milli]
    return str(max(fits, key=lambda i: gpus_left[i])) if fits else ""


def last_of_equals(gpus_left, milli):
    fits = [i for i, left in enumerate(gpus_left) if left >= milli]
    return str(min(reversed(fits), key=lambda i: gpus_left[i])) if fits else ""


def placeholder(gpus_left, milli):
    raise NotImplementedError


def crashes(gpus_left, milli):
    return gpus_left[10]


ROWS = [
    ("frag: right", "check_frag_amount", 650, True),
    ("frag: right as a float", "check_frag_amount", 650.0000001, True),
    ("frag: all idle GPU", "check_frag_amount", 2700, False),
    ("frag: wrong number", "check_frag_amount", 310, False),
    ("frag: unanswered", "check_frag_amount", ..., False),
    ("frag: not a number", "check_frag_amount", "650", False),
    ("fgd: right", "check_fgd_choice", "1", True),
    ("fgd: right as int", "check_fgd_choice", 1, True),
    ("fgd: the fuller GPU", "check_fgd_choice", "0", False),
    ("fgd: unanswered", "check_fgd_choice", None, False),
    ("selection: best fit", "check_gpu_selection", best_fit, True),
    ("selection: worst fit", "check_gpu_selection", worst_fit, False),
    ("selection: last of equals", "check_gpu_selection", last_of_equals, False),
    ("selection: not written", "check_gpu_selection", placeholder, False),
    ("selection: crashes", "check_gpu_selection", crashes, False),
    ("selection: unanswered", "check_gpu_selection", ..., False),
]


@pytest.mark.parametrize("name,check,answer,want", ROWS, ids=[r[0] for r in ROWS])
def test_check(capsys, name, check, answer, want):
    assert getattr(exercises, check)(answer) is want
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert out.startswith(PASS_MARK if want else FAIL_MARK)
    if not want:
        assert " Hint: " in out
