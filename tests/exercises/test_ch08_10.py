"""The checks of chapters 08 and 10 (the GPU chapters), each against a table of the answers a learner might give.

The rows follow test_ch06_10.py's conventions (its docstring says them).
"""
from __future__ import annotations

import itertools

import pytest

from ksched_edu import exercises

from .verdicts import Row
from .verdicts import assert_every_check_has_a_table, assert_row, endless, table_params


# --- chapter 08 ----------------------------------------------------------------------------

BEST_PAIR = [
    Row("right", ((4, 7),), True, says="4 and 7"),
    Row("right, as a list in another order", ([7, 4],), True),
    Row("the idle DGX-1's pair", ((0, 3),), False, "free GPUs"),
    Row("NV2 across the sockets", ((1, 5),), False, "NUMA"),
    Row("NV2, higher ids", ((5, 6),), False, "id order"),
    Row("NV1", ((1, 3),), False, "fastest slowest link"),
    Row("off by one: no GPU 8", ((4, 8),), False, "0 to 7"),
    Row("one GPU", ((4,),), False, "nvidia.com/gpu: 2"),
    Row("a string", ("4,7",), False, "two whole numbers"),
    Row("an endless iterator", (itertools.count(),), False, "two whole numbers", short=True),
    Row("a function that never returns", (endless,), False, "two whole numbers", short=True),
    Row("None", (None,), False, "pair"),
    Row("...", (...,), False, "pair"),
]

MIN_BW, CONSTRAINT = "gpu.ksched-edu.io/min-bandwidth", "gpu.ksched-edu.io/constraint"
FAST_LINKS = [
    Row("right: 100 GB/s", ({MIN_BW: "100"},), True),
    Row("right: 300 GB/s", ({MIN_BW: "300"},), True),
    Row("NVLink lets the DGX-1 in", ({CONSTRAINT: "nvlink"},), False, "slowest links"),
    Row("a floor the DGX-1's quad meets", ({MIN_BW: "25"},), False, "compare it with your floor"),
    Row("too fast for the A100", ({MIN_BW: "400"},), False, "Link.bandwidth"),
    Row("too fast for every node", ({MIN_BW: "500"},), False, "slowest link in section 4's table"),
    Row("off by one above the A100", ({MIN_BW: "301"},), False, "Link.bandwidth"),
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
    Row("a function that never returns", (endless,), False, "dict", short=True),
    Row("None", (None,), False, "dict"),
    Row("...", (...,), False, "dict"),
]

BIG_JOB_FIRST = [
    Row("right", ([3, 1, 0],), True, says="no job waits"),
    Row("right, in another order", ((0, 1, 3),), True),
    Row("the old question's answer (8 idle GPUs with a 4-GPU job-7)", (8,), False, "three whole numbers"),
    Row("the chapter's run, job-7 last and waiting", ([4, 4, 4],), False, "job-7 comes first"),
    Row("binpacking's ending", ([4, 0, 0],), False, "this run spreads"),
    Row("the small jobs split evenly", ([2, 2, 0],), False, "GPUTopology._score"),
    Row("off by one", ([3, 2, 0],), False, "count the GPUs"),
    Row("more GPUs than a node has", ([9, 0, 0],), False, "replay the six small jobs", says="between 0 and 8"),
    Row("two numbers", ([3, 1],), False, "three whole numbers"),
    Row("strings", (["3", "1", "0"],), False, "three whole numbers"),
    Row("a function that never returns", (endless,), False, "three whole numbers", short=True),
    Row("None", (None,), False, "three whole numbers"),
    Row("...", (...,), False, "three whole numbers"),
]

# --- chapter 10 ----------------------------------------------------------------------------

FRAG_AMOUNT = [
    Row("right", (650,), True, says="1700"),
    Row("right, as a float", (650.0,), True),
    Row("the node before the pod", (850,), False, "work the measure again"),
    Row("all the idle GPU", (1700,), False, "not the whole node"),
    Row("off by one", (651,), False, "NodeGpuShareFragAmount (L147-167)"),
    Row("a function that never returns", (endless,), False, "number", short=True),
    Row("a string", ("650",), False, "number"),
    Row("a bool", (True,), False, "number"),
    Row("None", (None,), False, "frag_amount"),
    Row("...", (...,), False, "frag_amount"),
]

FGD_CHOICE = [
    Row("right", ("1",), True),
    Row("right, as an int", (1,), True),
    Row("the tightest fit", ("0",), False, "calculateGpuShareFragExtendScore, L62-85"),
    Row("off by one: no GPU 2", ("2",), False, "gpu ="),
    Row("a function that never returns", (endless,), False, "gpu =", short=True),
    Row("None", (None,), False, "gpu ="),
    Row("...", (...,), False, "gpu ="),
]


WHOLE_GPUS = [
    Row("right", ("0-2",), True, says="whatever the policy"),
    Row("right, ids the other way round", ("2-0",), True),
    Row("the old question's answer (best fit of a 250m share)", ("2",), False, "the pod asks for two GPUs"),
    Row("random, it depends on the seed", ("random",), False, "allocateGpuIdBasedOnRandomFit, L308-326"),
    Row("GPU 1 counted as free", ("0-1",), False, "AllocateExclusiveGpuId, L348-368", says="400m left"),
    Row("the last free GPUs", ("2-3",), False, "AllocateExclusiveGpuId"),
    Row("off by one", ("1-3",), False, "AllocateExclusiveGpuId"),
    Row("three GPUs", ("0-2-3",), False, "two GPUs"),
    Row("a list of ids", ([0, 2],), False, "joined by"),
    Row("a function that never returns", (endless,), False, "joined by", short=True),
    Row("None", (None,), False, "joined by"),
    Row("...", (...,), False, "joined by"),
]


TABLES: dict[str, tuple[str, list[Row]]] = {
    "check_best_pair": ("ch08", BEST_PAIR),
    "check_fast_links_only": ("ch08", FAST_LINKS),
    "check_big_job_first": ("ch08", BIG_JOB_FIRST),
    "check_frag_amount": ("ch10", FRAG_AMOUNT),
    "check_fgd_choice": ("ch10", FGD_CHOICE),
    "check_whole_gpus_under_random": ("ch10", WHOLE_GPUS),
}


@pytest.mark.parametrize("check,row", table_params(TABLES))
def test_check_verdict(check: str, row: Row, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_row(capsys, monkeypatch, getattr(exercises, check), row.args, row)


def test_every_check_of_chapters_08_and_10_has_a_table() -> None:
    from ksched_edu.exercises import ch08, ch10

    assert_every_check_has_a_table((ch08, ch10), TABLES)


def test_every_table_has_an_endless_answer() -> None:
    for check, (_, rows) in TABLES.items():
        assert any(r.short and not r.passes for r in rows), f"{check}: no endless answer"


# Wrong answers whose hint must not name the right answer, or a bound that gives it away.
NOT_GIVEN_AWAY = [
    ("check_fast_links_only", ({MIN_BW: "500"},), ("300", "<=", "at or below")),
    ("check_fast_links_only", ({MIN_BW: "400"},), ("300", "<=", "at or below")),
    ("check_fast_links_only", ({CONSTRAINT: "nvlink"},), ("min-bandwidth", "minimum bandwidth")),
    ("check_best_pair", ((1, 3),), ("4", "7", "NV2")),
    ("check_big_job_first", ([2, 2, 0],), ("[3, 1, 0]", "3, 1")),
    ("check_big_job_first", ([4, 4, 4],), ("[3, 1, 0]", "3, 1")),
    ("check_fgd_choice", ("0",), ("GPU 1", "less than the 500m")),
    ("check_whole_gpus_under_random", ("random",), ("0-2", "first fully free")),
    ("check_frag_amount", (651,), ("650",)),
]


@pytest.mark.parametrize("check,args,forbidden", NOT_GIVEN_AWAY,
                         ids=[f"{c}: {a[0]!r}" for c, a, _ in NOT_GIVEN_AWAY])
def test_a_hint_does_not_give_the_answer_away(check: str, args: tuple, forbidden: tuple,
                                              capsys: pytest.CaptureFixture) -> None:
    from .verdicts import verdict

    result, out = verdict(capsys, getattr(exercises, check), *args)
    hint = out.split(" Hint: ", 1)[1]
    assert not result and not [f for f in forbidden if f in hint], out
