"""Chapter 08's checks: a right answer prints ✔, each kind of wrong answer one ✘ line with a hint."""
from __future__ import annotations

from typing import Any

import pytest

from ksched_edu import exercises
from ksched_edu.exercises.core import FAIL_MARK, PASS_MARK

pytestmark = pytest.mark.ch08

MIN_BW = "gpu.ksched-edu.io/min-bandwidth"
CONSTRAINT = "gpu.ksched-edu.io/constraint"


def verdict(capsys: pytest.CaptureFixture, name: str, answer: Any) -> str:
    result = getattr(exercises, name)(answer)
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith(PASS_MARK if result else FAIL_MARK)
    assert result or " Hint: " in out
    return out


@pytest.mark.parametrize("answer,expected", [
    ((0, 3), "✔ GPUTopology reserved GPUs 0 and 3"),
    ([3, 0], "✔ GPUTopology reserved GPUs 0 and 3"),
    ((0, 1), "✘ GPU0-GPU1 is joined by NV1; the plugin found a faster pair."),
    ((1, 2), "✘ GPU1-GPU2 is NV2 too"),
    ((2, 2), "✘ (2, 2) is not two different GPUs of a DGX-1."),
    ((1, 2, 3), "✘ (1, 2, 3) does not name two GPUs."),
    ("ab", "✘ 'ab' is not a pair of GPU ids."),
    (..., "✘ no answer yet."),
], ids=["right", "right, any order", "NV1 pair", "an NV2 pair, not the first", "one GPU twice", "three GPUs",
        "not numbers", "unanswered"])
def test_check_best_pair(capsys, answer: Any, expected: str) -> None:
    assert verdict(capsys, "check_best_pair", answer).startswith(expected)


@pytest.mark.parametrize("answer,expected", [
    ({MIN_BW: "100"}, "✔ only a100-a, h100-a, h200-a pass"),
    ({MIN_BW: "300"}, "✔ only a100-a, h100-a, h200-a pass"),
    ({CONSTRAINT: "nvlink"}, "✘ dgx1-a also pass(es) the Filter."),
    ({MIN_BW: "450"}, "✘ a100-a should pass but is rejected"),
    ({CONSTRAINT: "nvswitch"}, "✘ GPUTopology refused the pod at PreFilter"),
    ({}, "✘ no annotations yet."),
    (..., "✘ no annotations yet."),
], ids=["100 GB/s", "300 GB/s", "NVLink lets the DGX-1 in", "too fast for the A100", "unknown constraint", "empty",
        "unanswered"])
def test_check_fast_links_only(capsys, answer: Any, expected: str) -> None:
    assert verdict(capsys, "check_fast_links_only", answer).startswith(expected)


@pytest.mark.parametrize("answer,expected", [
    (12, "✔ 12 GPUs are idle"),
    (4, "✘ 4 is not the number of idle GPUs."),
    (None, "✘ no prediction yet."),
], ids=["right", "wrong", "unanswered"])
def test_check_idle_gpus(capsys, answer: Any, expected: str) -> None:
    assert verdict(capsys, "check_idle_gpus", answer).startswith(expected)
