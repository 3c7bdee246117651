"""The checks of chapter 10: a right answer prints ✔, each kind of wrong answer ✘ with a hint, nothing raises."""
import pytest

from ksched_edu import exercises
from ksched_edu.exercises.core import FAIL_MARK, PASS_MARK

pytestmark = pytest.mark.ch10


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
    ("whole GPUs: right", "check_whole_gpus_under_random", "0-2", True),
    ("whole GPUs: the old best-fit answer", "check_whole_gpus_under_random", "2", False),
    ("whole GPUs: GPU 1 counted free", "check_whole_gpus_under_random", "0-1", False),
    ("whole GPUs: unanswered", "check_whole_gpus_under_random", ..., False),
]


@pytest.mark.parametrize("name,check,answer,want", ROWS, ids=[r[0] for r in ROWS])
def test_check(capsys, name, check, answer, want):
    assert getattr(exercises, check)(answer) is want
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert out.startswith(PASS_MARK if want else FAIL_MARK)
    if not want:
        assert " Hint: " in out
