"""Tests of ksched_edu/goint.py: Go's int64/int32 arithmetic, as the Go spec and amd64 define it."""
from __future__ import annotations

import math

import pytest

from ksched_edu import goint

MAX64, MIN64, MAX32, MIN32 = 2**63 - 1, -(2**63), 2**31 - 1, -(2**31)


@pytest.mark.parametrize("x,want", [
    (0, 0), (MAX64, MAX64), (MIN64, MIN64), (MAX64 + 1, MIN64), (MIN64 - 1, MAX64),
    (2**64, 0), (2**64 + 5, 5), (MAX64 * 1000, -1000), (-(2**64) - 1, -1), (3 * 2**64 + 7, 7),
])
def test_wrap64(x, want):
    assert goint.wrap64(x) == want


@pytest.mark.parametrize("x,want", [
    (0, 0), (MAX32, MAX32), (MIN32, MIN32), (MAX32 + 1, MIN32), (MIN32 - 1, MAX32), (2**32 + 3, 3),
])
def test_wrap32(x, want):
    assert goint.wrap32(x) == want


@pytest.mark.parametrize("a,b,q,r", [
    (7, 2, 3, 1), (-7, 2, -3, -1), (7, -2, -3, 1), (-7, -2, 3, -1), (0, -5, 0, 0),
    (-1, 1000, 0, -1), (MIN64, -1, 2**63, 0),  # Go would wrap this quotient: callers wrap first
])
def test_div_and_rem_truncate_toward_zero(a, b, q, r):
    assert goint.div(a, b) == q
    assert goint.rem(a, b) == r
    assert goint.div(a, b) * b + goint.rem(a, b) == a


def test_div_by_zero_raises():
    with pytest.raises(ZeroDivisionError):
        goint.div(1, 0)


@pytest.mark.parametrize("f,want", [
    (2.7, 2), (-2.7, -2), (0.0, 0), (-0.0, 0), (99.99999, 99), (2.0**62, 2**62),
    (-(2.0**63), MIN64), (2.0**63, MIN64), (1e300, MIN64), (-1e300, MIN64),
    (math.inf, MIN64), (-math.inf, MIN64), (math.nan, MIN64),
])
def test_float_to_int64(f, want):
    assert goint.float_to_int64(f) == want


@pytest.mark.parametrize("x,want", [
    (0.5, 1.0), (1.5, 2.0), (2.5, 3.0), (-0.5, -1.0), (-2.5, -3.0), (2.4999, 2.0),
    (0.49999999999999994, 0.0), (-0.49999999999999994, -0.0), (4503599627370497.0, 4503599627370497.0),
])
def test_round_half_away(x, want):
    got = goint.round_half_away(x)
    assert got == want and math.copysign(1, got) == math.copysign(1, want)


def test_round_half_away_keeps_nan_and_inf():
    assert math.isnan(goint.round_half_away(math.nan))
    assert goint.round_half_away(-math.inf) == -math.inf


def test_imports_nothing_from_the_project():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(goint))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("ksched_edu")
