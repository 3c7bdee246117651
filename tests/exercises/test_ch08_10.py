"""The checks of chapters 08 and 10 (the GPU chapters), each against a table of the answers a learner might give.

The rows follow test_ch06_10.py's conventions (its docstring says them).
"""
from __future__ import annotations

from typing import Any, Optional

import pytest

from ksched_edu import exercises

from .test_ch06_10 import Row
from .verdicts import assert_row, endless, not_written


# --- chapter 08 ----------------------------------------------------------------------------

BEST_PAIR = [
    Row("right", ((4, 7),), True, says="4 and 7"),
    Row("right, as a list in another order", ([7, 4],), True),
    Row("the idle DGX-1's pair", ((0, 3),), False, "free GPUs"),
    Row("NV2 across the sockets", ((1, 5),), False, "NUMA"),
    Row("NV2, higher ids", ((5, 6),), False, "lowest ids"),
    Row("NV1", ((1, 3),), False, "fastest"),
    Row("off by one: no GPU 8", ((4, 8),), False, "0 to 7"),
    Row("one GPU", ((4,),), False, "nvidia.com/gpu: 2"),
    Row("a string", ("4,7",), False, "two whole numbers"),
    Row("None", (None,), False, "pair"),
    Row("...", (...,), False, "pair"),
]

MIN_BW, CONSTRAINT = "gpu.ksched-edu.io/min-bandwidth", "gpu.ksched-edu.io/constraint"
FAST_LINKS = [
    Row("right: 100 GB/s", ({MIN_BW: "100"},), True),
    Row("right: 300 GB/s", ({MIN_BW: "300"},), True),
    Row("NVLink lets the DGX-1 in", ({CONSTRAINT: "nvlink"},), False, "minimum bandwidth"),
    Row("too fast for the A100", ({MIN_BW: "400"},), False, "at or below 300"),
    Row("off by one above the A100", ({MIN_BW: "301"},), False, "at or below 300"),
    Row("a key the plugin does not read", ({"gpu.ksched-edu.io/speed": "fast"},), False,
        "unknown GPU annotation key \"gpu.ksched-edu.io/speed\"", says="known keys: gpu.ksched-edu.io/constraint"),
    Row("a misspelled key", ({"gpu.ksched-edu.io/min-bandwith": "100"},), False,
        "\"gpu.ksched-edu.io/min-bandwith\" (ignored); did you mean min-bandwidth?"),
    Row("a misspelled key beside a right one", ({MIN_BW: "100", "gpu.ksched-edu.io/constrain": "nvlink"},), False,
        "did you mean constraint?"),
    Row("not a number of GB/s", ({MIN_BW: "fast"},), False, "the keys are"),
    Row("a constraint that does not exist", ({CONSTRAINT: "nvswitch"},), False, "want one of"),
    Row("a misspelled constraint", ({CONSTRAINT: "nvlnk"},), False, "did you mean nvlink?"),
    Row("a list, not a dict", ([MIN_BW, "100"],), False, "dict"),
    Row("None", (None,), False, "dict"),
    Row("...", (...,), False, "dict"),
]

IDLE_GPUS = [
    Row("right", (8,), True, says="4 GPUs free on every node"),
    Row("the chapter's run, job-7 waiting", (12,), False, "Spread panel"),
    Row("off by one below", (7,), False, "does it fit"),
    Row("off by one above", (9,), False, "does it fit"),
    Row("24 less the 20 GPUs of section 6", (4,), False, "job-7 now for 4"),
    Row("a string", ("8",), False, "whole number"),
    Row("None", (None,), False, "whole number"),
    Row("...", (...,), False, "whole number"),
]

# --- chapter 09 ----------------------------------------------------------------------------

FRAG_AMOUNT = [
    Row("right", (650,), True, says="1700"),
    Row("right, as a float", (650.0,), True),
    Row("the node before the pod", (850,), False, "1700 idle"),
    Row("all the idle GPU", (1700,), False, "not the whole node"),
    Row("off by one", (651,), False, "frequency"),
    Row("a string", ("650",), False, "number"),
    Row("a bool", (True,), False, "number"),
    Row("None", (None,), False, "frag_amount"),
    Row("...", (...,), False, "frag_amount"),
]

FGD_CHOICE = [
    Row("right", ("1",), True),
    Row("right, as an int", (1,), True),
    Row("the tightest fit", ("0",), False, "500m"),
    Row("off by one: no GPU 2", ("2",), False, "500m"),
    Row("None", (None,), False, "gpu ="),
    Row("...", (...,), False, "gpu ="),
]


def best_fit(gpus_left: list, milli: int) -> str:
    chosen = ""
    for i, left in enumerate(gpus_left):
        if left >= milli and (chosen == "" or left < gpus_left[int(chosen)]):
            chosen = str(i)
    return chosen


def worst_fit(gpus_left: list, milli: int) -> str:
    fits = [i for i, left in enumerate(gpus_left) if left >= milli]
    return str(max(fits, key=lambda i: (gpus_left[i], -i))) if fits else ""


def last_on_a_tie(gpus_left: list, milli: int) -> str:
    chosen = ""
    for i, left in enumerate(gpus_left):
        if left >= milli and (chosen == "" or left <= gpus_left[int(chosen)]):
            chosen = str(i)
    return chosen


def none_when_full(gpus_left: list, milli: int) -> Optional[str]:
    return best_fit(gpus_left, milli) or None


def off_by_one(gpus_left: list, milli: int) -> str:
    found = best_fit(gpus_left, milli)
    return str(int(found) + 1) if found else ""


def as_int(gpus_left: list, milli: int) -> Any:
    found = best_fit(gpus_left, milli)
    return int(found) if found else ""


def crashes_on_empty(gpus_left: list, milli: int) -> str:
    return str(min((left, i) for i, left in enumerate(gpus_left) if left >= milli)[1])


GPU_SELECTION = [
    Row("right", (best_fit,), True),
    Row("an int index (compared as a string)", (as_int,), True),
    Row("worst fit", (worst_fit,), False, "least milli"),
    Row("the last on a tie", (last_on_a_tie,), False, "first one on a tie"),
    Row("None when no GPU has room", (none_when_full,), False, '"" when no GPU'),
    Row("off by one", (off_by_one,), False, "least milli"),
    Row("crashes when no GPU has room", (crashes_on_empty,), False, "enumerate", says="ValueError"),
    Row("not written", (not_written,), False, "string"),
    Row("never returns", (endless,), False, "enumerate", says="never ends", short=True),
    Row("not a function", (5,), False, "best_fit_gpu"),
    Row("None", (None,), False, "best_fit_gpu"),
    Row("...", (...,), False, "best_fit_gpu"),
]


TABLES: dict[str, tuple[str, list[Row]]] = {
    "check_best_pair": ("ch08", BEST_PAIR),
    "check_fast_links_only": ("ch08", FAST_LINKS),
    "check_idle_gpus": ("ch08", IDLE_GPUS),
    "check_frag_amount": ("ch10", FRAG_AMOUNT),
    "check_fgd_choice": ("ch10", FGD_CHOICE),
    "check_gpu_selection": ("ch10", GPU_SELECTION),
}


def _params() -> list[Any]:
    return [pytest.param(check, row, id=f"{check}: {row.id}", marks=getattr(pytest.mark, chapter))
            for check, (chapter, rows) in TABLES.items() for row in rows]


@pytest.mark.parametrize("check,row", _params())
def test_check_verdict(check: str, row: Row, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_row(capsys, monkeypatch, getattr(exercises, check), row.args, row)


def test_every_check_of_chapters_08_and_10_has_a_table() -> None:
    from ksched_edu.exercises import ch08, ch10

    checks = {name for module in (ch08, ch10) for name in dir(module) if name.startswith("check_")}
    assert checks == set(TABLES)
    for check, (_, rows) in TABLES.items():
        assert any(r.passes for r in rows) and sum(not r.passes for r in rows) >= 4, check
        assert any(r.args == (None,) or r.args == (...,) for r in rows), f"{check}: no unanswered row"


@pytest.mark.parametrize("check", ["check_fast_links_only", "check_gpu_selection"])
def test_checks_that_run_learner_code_take_a_time_limit(check: str) -> None:
    import inspect

    assert "seconds" in inspect.signature(getattr(exercises, check)).parameters
