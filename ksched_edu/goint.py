"""Go's fixed-width integer arithmetic, for the few places where upstream relies on it.

A Python ``int`` grows without limit; Go's ``int32`` and ``int64`` do not. The
scheduler is mostly written so that its numbers stay small, but in a few
places upstream's behaviour *is* Go's arithmetic, and a faithful port has to
reproduce it. Go's rules, as this module applies them:

- **Wrap-around.** ``+``, ``-`` and ``*`` on ``int64`` keep the low 64 bits of
  the exact result, read as two's complement: ``MaxInt64 + 1 == MinInt64``,
  ``MaxInt64 - (-100)`` is a large *negative* number. Nothing raises. The
  same holds for ``int32`` with 32 bits. (``wrap64``, ``wrap32``)
- **Division truncates toward zero.** Go's ``-7 / 2`` is ``-3`` (Python's
  ``-7 // 2`` is ``-4``), and ``%`` takes the sign of the dividend: ``-7 % 2``
  is ``-1``. The two only differ when an operand is negative. (``div``,
  ``rem``)
- **Float to integer conversion truncates toward zero.** ``int64(-2.7)`` is
  ``-2``. The Go spec leaves NaN and out-of-range values implementation
  defined; on amd64 (where kube-scheduler runs) they give ``MinInt64``.
  (``float_to_int64``)
- **math.Round rounds halves away from zero**: ``math.Round(2.5) == 3`` and
  ``math.Round(-2.5) == -3``; Python's ``round()`` rounds halves to even.
  (``round_half_away``)

These helpers are plain functions on ``int`` and ``float``. Call sites use
them only where a value can actually leave the range or be negative; where it
provably cannot, a comment says so and the code keeps Python's operators.
"""
from __future__ import annotations

import math

MAX_INT64 = 2**63 - 1
MIN_INT64 = -(2**63)
MAX_INT32 = 2**31 - 1
MIN_INT32 = -(2**31)

_MASK64 = 2**64 - 1
_MASK32 = 2**32 - 1
_TWO_63 = 2.0**63


def wrap64(x: int) -> int:
    """``x`` as a Go ``int64`` would hold it: the low 64 bits, two's complement."""
    if MIN_INT64 <= x <= MAX_INT64:
        return x
    x &= _MASK64
    return x - 2**64 if x > MAX_INT64 else x


def wrap32(x: int) -> int:
    """``x`` as a Go ``int32`` would hold it: the low 32 bits, two's complement."""
    if MIN_INT32 <= x <= MAX_INT32:
        return x
    x &= _MASK32
    return x - 2**32 if x > MAX_INT32 else x


def fits64(x: int) -> bool:
    """Whether ``x`` is representable as a Go ``int64``."""
    return MIN_INT64 <= x <= MAX_INT64


def div(a: int, b: int) -> int:
    """Go's integer ``a / b``: the quotient truncated toward zero.

    ``b == 0`` raises ZeroDivisionError (Go panics). The operands are taken
    as they are; wrap them first when they come from int64 arithmetic.
    """
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def rem(a: int, b: int) -> int:
    """Go's ``a % b``: the remainder with the sign of ``a`` (``a == div(a, b) * b + rem(a, b)``)."""
    return a - div(a, b) * b


def float_to_int64(f: float) -> int:
    """Go's ``int64(f)`` on amd64: truncation toward zero; NaN, infinities
    and values outside the int64 range give ``MinInt64``."""
    if -_TWO_63 <= f < _TWO_63:
        return int(f)
    return MIN_INT64  # also NaN, which fails both comparisons


def round_half_away(x: float) -> float:
    """Go's ``math.Round``: the nearest integer, halves away from zero (a float, as in Go)."""
    if math.isnan(x) or math.isinf(x):
        return x
    t = math.trunc(x)
    if abs(x - t) >= 0.5:
        t += 1 if x > 0 else -1
    return math.copysign(float(t), x)  # keeps the sign of zero, as Go does
