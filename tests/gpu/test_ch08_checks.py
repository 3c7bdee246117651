"""Chapter 08's fast-links check; the tables of its other checks are in tests/exercises/test_ch06_10.py."""
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


