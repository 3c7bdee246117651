"""Port of k8s.io/apimachinery/pkg/api/resource/quantity.go and suffix.go (v1.30).

A :class:`Quantity` is an exact amount of a resource ("500m" CPU, "1.5Gi"
memory) that remembers which kind of suffix it was written with, so that it
prints back in the same style. Parsing follows upstream's scanner step by
step; values are kept as exact fractions, never as floats.

Deviations:
- One exact representation (a ``Fraction``) replaces upstream's two (an int64
  fast path and an ``inf.Dec``); the values, rounding and formats are the same.
- ``str()`` always gives the canonical form (upstream echoes an input such as
  ``"+1"`` verbatim when it was already canonical apart from the sign).
- Printing a value beyond the largest suffix ("E", "Ei") or below "n" falls
  back to exponent notation, as later upstream releases do (v1.30 dropped the
  suffix and printed a wrong number).
- A positive exponent above 100000 is refused with upstream's numeric error
  (upstream allows up to 2^31-1), so no parse asks for an astronomically
  large integer.

Go's int64 shows through ``value()``, ``milli_value()`` and
``scaled_value()``: alongside the exact amount, each Quantity records how
upstream would hold it (an int64 mantissa and a power of ten, or an
``inf.Dec``), and an amount that does not fit an int64 comes out as upstream's
would: wrapped to 64 bits, or 0 where upstream's scaling gives up. ``"8Ei"`` is
capped at MaxInt64 when parsed, so its ``milli_value()`` is -1000; ``"100E"``
has ``value()`` 0. v1.30 also rounds a negative inf.Dec amount toward +inf
(``"-.484785E-7466"`` has ``value()`` 1; fixed in a later release).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Union

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from ..goint import MAX_INT64, MIN_INT64, div, fits64, rem, wrap64

DECIMAL_EXPONENT = "DecimalExponent"  # e.g. 12e6
BINARY_SI = "BinarySI"  # e.g. 12Mi (12 * 2^20)
DECIMAL_SI = "DecimalSI"  # e.g. 12M  (12 * 10^6)

# Scales, as powers of ten (upstream Scale constants).
NANO, MICRO, MILLI, KILO, MEGA, GIGA, TERA, PETA, EXA = -9, -6, -3, 3, 6, 9, 12, 15, 18

SPLIT_RE_STRING = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
ERR_FORMAT_WRONG = "quantities must match the regular expression '" + SPLIT_RE_STRING + "'"
ERR_NUMERIC = "unable to parse numeric part of quantity"
ERR_SUFFIX = "unable to parse quantity's suffix"

# suffix -> (base, exponent, format); "" is the plain number.
_SUFFIXES: dict[str, tuple[int, int, str]] = {
    "n": (10, NANO, DECIMAL_SI), "u": (10, MICRO, DECIMAL_SI), "m": (10, MILLI, DECIMAL_SI),
    "": (10, 0, DECIMAL_SI), "k": (10, KILO, DECIMAL_SI), "M": (10, MEGA, DECIMAL_SI),
    "G": (10, GIGA, DECIMAL_SI), "T": (10, TERA, DECIMAL_SI), "P": (10, PETA, DECIMAL_SI),
    "E": (10, EXA, DECIMAL_SI),
    "Ki": (2, 10, BINARY_SI), "Mi": (2, 20, BINARY_SI), "Gi": (2, 30, BINARY_SI),
    "Ti": (2, 40, BINARY_SI), "Pi": (2, 50, BINARY_SI), "Ei": (2, 60, BINARY_SI),
}
# For printing: base-10 exponent -> decimal suffix, base-1024 exponent -> binary suffix.
_DECIMAL_SUFFIX = {exp: s for s, (base, exp, _) in _SUFFIXES.items() if base == 10}
_BINARY_SUFFIX = {0: "", 1: "Ki", 2: "Mi", 3: "Gi", 4: "Ti", 5: "Pi", 6: "Ei"}

_DIGITS = "0123456789"
_SUFFIX_CHARS = "eEinumkKMGTP"
_MAX_INT64 = 2**63 - 1
_MAX_INT32 = 2**31 - 1
_MAX_POSITIVE_EXPONENT = 100_000
_NANO_UNITS = 10**9  # parsed values are rounded up to a multiple of 1n


@plumbing("Python exception carrying upstream's parse error text")
class QuantityError(ValueError):
    """A string that is not a quantity; the message is upstream's error text."""


@ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "parseQuantityString", 158, 272, repo=SCHEDULER_PLUGINS)
def parse_quantity_string(s: str) -> tuple[bool, str, str, str]:
    """Split ``s`` into (positive, numerator digits, denominator digits, suffix).

    Upstream parseQuantityString: a fast scanner that checks the shape only;
    the suffix is interpreted later.
    """
    positive, pos, end = True, 0, len(s)
    if pos < end and s[0] in "+-":
        positive = s[0] == "+"
        pos += 1
    while pos < end and s[pos] == "0":  # leading zeros
        pos += 1
    if pos == end:
        return positive, "0", "", ""
    start = pos
    while pos < end and s[pos] in _DIGITS:
        pos += 1
    num = s[start:pos] or "0"
    denom = ""
    if pos < end and s[pos] == ".":
        pos += 1
        start = pos
        while pos < end and s[pos] in _DIGITS:
            pos += 1
        denom = s[start:pos]
    suffix_start = pos
    while pos < end and s[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos < end and s[pos] in "+-":
        pos += 1
    while pos < end and s[pos] in _DIGITS:
        pos += 1
    if pos < end:
        # a character after the suffix that is not part of an exponent
        raise QuantityError(ERR_FORMAT_WRONG)
    return positive, num, denom, s[suffix_start:]


@ports("vendor/k8s.io/apimachinery/pkg/api/resource/suffix.go", "(*suffixHandler).interpret", 180, 198, repo=SCHEDULER_PLUGINS)
def interpret_suffix(suffix: str) -> tuple[int, int, str]:
    """(base, exponent, format) of a suffix; upstream suffixer.interpret."""
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    if len(suffix) > 1 and suffix[0] in "eE":
        try:
            exponent = int(suffix[1:])
        except ValueError:
            raise QuantityError(ERR_SUFFIX) from None
        if abs(exponent) > _MAX_INT32:
            raise QuantityError(ERR_SUFFIX)
        return 10, exponent, DECIMAL_EXPONENT
    raise QuantityError(ERR_SUFFIX)


def _round_up_to_nano(magnitude: Fraction) -> Fraction:
    """Round a non-negative amount up to a whole number of nano units."""
    scaled = magnitude * _NANO_UNITS
    if scaled.denominator == 1:
        return magnitude
    return Fraction(math.ceil(scaled), _NANO_UNITS)


def _ceil_away_from_zero(x: Fraction) -> int:
    return math.ceil(x) if x >= 0 else -math.ceil(-x)


def _remove_factors(value: int, base: int) -> tuple[int, int]:
    """Divide ``base`` out of ``value`` as often as it goes; upstream removeInt64Factors."""
    times = 0
    while value != 0 and value % base == 0:
        value //= base
        times += 1
    return value, times


def _decimal_mantissa(amount: Fraction) -> tuple[int, int]:
    """``amount`` as mantissa * 10^exponent with the exponent a multiple of 3.

    Upstream AsCanonicalBytes: move every factor of ten into the exponent, then
    lower the exponent to a multiple of three.
    """
    shift = 0
    while (amount * 10**shift).denominator != 1:
        shift += 1
    mantissa, exponent = _remove_factors(int(amount * 10**shift), 10)
    exponent -= shift
    extra = exponent % 3
    return mantissa * 10**extra, exponent - extra


# --- upstream's two representations ----------------------------------------------------
#
# A rep is (dec, unscaled, exp) with amount == unscaled * 10**exp: an int64Amount
# {value: unscaled, scale: exp} when dec is False, an inf.Dec with unscaled value
# ``unscaled`` and scale ``-exp`` when dec is True. None: no upstream counterpart
# (an amount built directly from a Fraction); the exact amount is used instead.

Rep = Optional[tuple[bool, int, int]]
_INT64_DIGITS = 18  # upstream maxInt64Factors
_LOG10_MAX_INT64 = 19


def _pow10_as_int64(k: int) -> int:
    """Go's ``int64(math.Pow10(k))`` for k >= 0: past 10^18 the float is out of range (MinInt64 on amd64)."""
    return 10**k if k <= _INT64_DIGITS else MIN_INT64


def _positive_scale(value: int, k: int) -> tuple[int, bool]:
    """Upstream positiveScaleInt64: value * 10^k and whether it fit.

    For k in 1, 2, 3, 6, 9 an overflowing product comes back wrapped; for the
    other scales the loop gives up and returns 0.
    """
    if k == 0:
        return value, True
    product = value * 10**k
    if fits64(product):
        return product, True
    if value == MIN_INT64:
        return 0, False
    if k in (1, 2, 3, 6, 9):
        return wrap64(product), False
    return 0, False


def _negative_scale(value: int, k: int) -> int:
    """Upstream negativeScaleInt64: value / 10^k rounded away from zero."""
    d = 10**k
    q = abs(value) // d
    if abs(value) % d:
        q += 1
    return q if value >= 0 else -q


def _int64_add(a: tuple[int, int], b: tuple[int, int]) -> Optional[tuple[int, int]]:
    """Upstream int64Amount.Add: the sum at the smaller scale, or None when it would overflow."""
    (av, ae), (bv, be) = a, b
    if bv == 0:
        return a
    if av == 0:
        return b
    if ae == be:
        c = av + bv
        return (c, ae) if fits64(c) else None
    if ae > be:
        c, ok = _positive_scale(av, ae - be)
        c += bv
        return (c, be) if ok and fits64(c) else None
    c, ok = _positive_scale(bv, be - ae)
    c += av
    return (c, ae) if ok and fits64(c) else None


def _dec_add(a: tuple[bool, int, int], b: tuple[bool, int, int]) -> tuple[bool, int, int]:
    """inf.Dec Add: exact, at the larger of the two scales."""
    e = min(a[2], b[2])
    return True, a[1] * 10 ** (a[2] - e) + b[1] * 10 ** (b[2] - e), e


def _parse_rep(positive: bool, num: str, denom: str, exponent: int, fmt: str,
               magnitude: Fraction) -> tuple[bool, int, int]:
    """How upstream ParseQuantity stores the value: its int64 fast path when the
    digits and the scale allow it, otherwise an inf.Dec rounded to nano units
    (or MaxInt64 itself for a capped BinarySI)."""
    mantissa = 1
    if fmt == BINARY_SI:
        scale = 0
        if exponent >= 0 and not denom:
            mantissa = 1 << exponent
            precision = 15 - len(num) - exponent * 3 // 10 - 1
        else:
            precision = -1
    else:
        scale = exponent
        precision = _INT64_DIGITS - (len(num) + len(denom))
    if precision >= 0:
        scale -= len(denom)
        if scale >= NANO:
            result = int(num + denom) * mantissa
            if fits64(result):
                return False, (result if positive else -result), scale
    if magnitude == _MAX_INT64 and fmt == BINARY_SI:
        unscaled, exp = _MAX_INT64, 0
    else:
        unscaled, exp = int(magnitude * _NANO_UNITS), NANO
    return True, (unscaled if positive else -unscaled), exp


def _dec_scaled_value(unscaled: int, exp: int, scale: int) -> int:
    """Upstream scaledValue (scale_int.go) on an inf.Dec, v1.30: int64 wrap-around,
    and a fast path that rounds negative amounts toward +inf."""
    dif = scale - exp  # upstream: dec.Scale() - newScale, both as inf scales
    if dif == 0:
        return wrap64(unscaled)
    if dif < 0:
        return wrap64(wrap64(unscaled) * _pow10_as_int64(-dif))
    if unscaled < MAX_INT64 and dif < _LOG10_MAX_INT64:
        low = wrap64(unscaled)  # big.Int.Int64 keeps the low 64 bits
        divide = 10**dif
        result = div(low, divide)
        return result + 1 if rem(low, divide) != 0 else result
    result, remainder = divmod(unscaled, 10**dif)  # big.Int.DivMod: Euclidean
    return wrap64(wrap64(result) + 1) if remainder != 0 else wrap64(result)


def _default_rep(amount: Fraction) -> Rep:
    if amount.denominator == 1 and fits64(amount.numerator):
        return False, amount.numerator, 0
    return None


@ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "Quantity", 100, 111, repo=SCHEDULER_PLUGINS)
class Quantity:
    """An exact, immutable resource amount.

    ``Quantity("1.5Gi")`` parses a string (or an int or float, as YAML gives
    them); ``Quantity(Fraction(3, 2), BINARY_SI)`` takes an exact amount.
    """

    __slots__ = ("amount", "format", "_rep")
    amount: Fraction
    format: str
    _rep: Rep  # how upstream holds it, for the int64 accessors

    def __init__(self, value: Union[str, int, float, Fraction, "Quantity"] = 0,
                 format: str = DECIMAL_SI) -> None:
        rep: Rep
        if isinstance(value, Quantity):
            amount, format, rep = value.amount, value.format, value._rep
        elif isinstance(value, bool):
            raise QuantityError(ERR_FORMAT_WRONG)
        elif isinstance(value, int):
            # A YAML/JSON number reaches upstream as its text: ParseQuantity keeps up to
            # 18 digits in an int64, longer numbers in an inf.Dec.
            amount = Fraction(value)
            rep = (False, value, 0) if abs(value) < 10**_INT64_DIGITS else (True, value * _NANO_UNITS, NANO)
        elif isinstance(value, Fraction):
            amount, rep = value, _default_rep(value)
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise QuantityError(ERR_FORMAT_WRONG)
            amount, format, rep = _parse(repr(value))
        elif isinstance(value, str):
            amount, format, rep = _parse(value)
        else:
            raise QuantityError(ERR_FORMAT_WRONG)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "format", format)
        object.__setattr__(self, "_rep", rep)

    @classmethod
    def _make(cls, amount: Fraction, format: str, rep: Rep) -> "Quantity":
        q = object.__new__(cls)
        object.__setattr__(q, "amount", amount)
        object.__setattr__(q, "format", format)
        object.__setattr__(q, "_rep", rep)
        return q

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Quantity is immutable")

    # Immutable, so a copy is the value itself (upstream DeepCopy copies the inf.Dec).
    def __copy__(self) -> "Quantity":
        return self

    def __deepcopy__(self, memo: dict) -> "Quantity":
        return self

    def __reduce__(self) -> tuple:
        return (Quantity._make, (self.amount, self.format, self._rep))

    # --- constructors (upstream NewQuantity, NewMilliQuantity, NewScaledQuantity) ---

    @classmethod
    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "NewQuantity", 725, 730, repo=SCHEDULER_PLUGINS)
    def from_int(cls, value: int, format: str = DECIMAL_SI) -> "Quantity":
        return cls._make(Fraction(value), format, (False, value, 0))

    @classmethod
    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "NewMilliQuantity", 736, 741, repo=SCHEDULER_PLUGINS)
    def from_milli(cls, value: int, format: str = DECIMAL_SI) -> "Quantity":
        return cls._make(Fraction(value, 1000), format, (False, value, MILLI))

    @classmethod
    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "NewScaledQuantity", 745, 750, repo=SCHEDULER_PLUGINS)
    def from_scaled(cls, value: int, scale: int) -> "Quantity":
        return cls._make(Fraction(value) * Fraction(10) ** scale, DECIMAL_SI, (False, value, scale))

    @classmethod
    @plumbing("the zero quantity, a Python convenience")
    def zero(cls) -> "Quantity":
        return cls._make(Fraction(0), DECIMAL_SI, (False, 0, 0))

    # --- reading the value ---

    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "(*Quantity).Value", 753, 755, repo=SCHEDULER_PLUGINS)
    def value(self) -> int:
        """The amount rounded up (away from zero) to an int64; upstream Value."""
        return self.scaled_value(0)

    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "(*Quantity).MilliValue", 759, 761, repo=SCHEDULER_PLUGINS)
    def milli_value(self) -> int:
        """ceil(amount * 1000), away from zero, as an int64; upstream MilliValue."""
        return self.scaled_value(MILLI)

    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "(*Quantity).ScaledValue", 767, 774, repo=SCHEDULER_PLUGINS)
    def scaled_value(self, scale: int) -> int:
        """ceil(amount / 10^scale), away from zero, as an int64; upstream ScaledValue.

        A result beyond int64 is what upstream returns: wrapped, or 0 (see the
        module docstring).
        """
        rep = self._rep
        if rep is None:
            return _ceil_away_from_zero(self.amount / Fraction(10) ** scale)
        dec, unscaled, exp = rep
        if dec:
            return _dec_scaled_value(unscaled, exp, scale)
        # upstream int64Amount.AsScaledInt64
        if exp < scale:
            return _negative_scale(unscaled, scale - exp)
        return _positive_scale(unscaled, exp - scale)[0]

    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "(*Quantity).AsApproximateFloat64", 464, 479, repo=SCHEDULER_PLUGINS)
    def as_approximate_float64(self) -> float:
        return float(self.amount)

    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "(*Quantity).IsZero", 520, 525, repo=SCHEDULER_PLUGINS)
    def is_zero(self) -> bool:
        return self.amount == 0

    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "(*Quantity).Sign", 529, 534, repo=SCHEDULER_PLUGINS)
    def sign(self) -> int:
        return (self.amount > 0) - (self.amount < 0)

    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "(*Quantity).Cmp", 607, 612, repo=SCHEDULER_PLUGINS)
    def cmp(self, other: "Quantity") -> int:
        """-1, 0 or 1 as upstream Cmp."""
        return (self.amount > other.amount) - (self.amount < other.amount)

    # --- arithmetic: new values; a zero left side takes the right side's format ---

    # Each keeps upstream's representation: int64 while the result fits, inf.Dec after.

    def __add__(self, other: "Quantity") -> "Quantity":
        if not isinstance(other, Quantity):
            return NotImplemented
        fmt = other.format if self.is_zero() else self.format
        return Quantity._make(self.amount + other.amount, fmt, _add_rep(self._rep, other._rep, False))

    def __sub__(self, other: "Quantity") -> "Quantity":
        if not isinstance(other, Quantity):
            return NotImplemented
        fmt = other.format if self.is_zero() else self.format
        return Quantity._make(self.amount - other.amount, fmt, _add_rep(self._rep, other._rep, True))

    def __neg__(self) -> "Quantity":
        rep = self._rep
        if rep is not None:
            # Go negates an int64 mantissa in place: -MinInt64 stays MinInt64.
            rep = (rep[0], -rep[1] if rep[0] else wrap64(-rep[1]), rep[2])
        return Quantity._make(-self.amount, self.format, rep)

    def __mul__(self, factor: int) -> "Quantity":
        if not isinstance(factor, int) or isinstance(factor, bool):
            return NotImplemented
        return Quantity._make(self.amount * factor, self.format, _mul_rep(self._rep, factor))

    __rmul__ = __mul__

    # --- comparison: by amount only, as upstream Equal/Cmp ---

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Quantity):
            return NotImplemented
        return self.amount == other.amount

    def __hash__(self) -> int:
        return hash(self.amount)

    def __lt__(self, other: "Quantity") -> bool:
        return self.amount < other.amount

    def __le__(self, other: "Quantity") -> bool:
        return self.amount <= other.amount

    def __gt__(self, other: "Quantity") -> bool:
        return self.amount > other.amount

    def __ge__(self, other: "Quantity") -> bool:
        return self.amount >= other.amount

    # --- printing: upstream CanonicalizeBytes ---

    def __str__(self) -> str:
        amount = self.amount
        if amount == 0:
            return "0"
        fmt = self.format
        if fmt == BINARY_SI:
            if -1024 < amount < 1024 or amount.denominator != 1:
                fmt = DECIMAL_SI  # avoids rounding, and confusion
            else:
                mantissa, exp1024 = _remove_factors(int(amount), 1024)
                if exp1024 in _BINARY_SUFFIX:
                    return f"{mantissa}{_BINARY_SUFFIX[exp1024]}"
                fmt = DECIMAL_EXPONENT  # beyond "Ei"
        elif fmt != DECIMAL_SI:
            fmt = DECIMAL_EXPONENT
        mantissa, exponent = _decimal_mantissa(amount)
        if fmt == DECIMAL_SI and exponent in _DECIMAL_SUFFIX:
            return f"{mantissa}{_DECIMAL_SUFFIX[exponent]}"
        return f"{mantissa}e{exponent}" if exponent else str(mantissa)

    def __repr__(self) -> str:
        return f"Quantity({str(self)!r})"


def _add_rep(a: Rep, b: Rep, subtract: bool) -> Rep:
    """Upstream Quantity.Add / Sub on the representations."""
    if a is None or b is None:
        return None
    if not a[0] and not b[0]:
        # Sub adds the negated int64 mantissa (wrapping, as Go's unary minus does).
        bi = (wrap64(-b[1]), b[2]) if subtract else (b[1], b[2])
        r = _int64_add((a[1], a[2]), bi)
        if r is not None:
            return False, r[0], r[1]
    return _dec_add(a, (True, -b[1], b[2]) if subtract else b)


def _mul_rep(a: Rep, y: int) -> Rep:
    """Upstream Quantity.Mul on the representation."""
    if a is None:
        return None
    dec, v, e = a
    if not dec:
        if v == 0:
            return a
        if y == 0:
            return False, 0, 0
        c = v * y
        if fits64(c):
            if e == 0 or (e > 0 and _positive_scale(c, e)[1]) or (e < 0 and c % 10**-e == 0):
                return False, c, e
    return True, v * y, e


def _parse(s: str) -> tuple[Fraction, str, tuple[bool, int, int]]:
    """Upstream ParseQuantity: the exact amount, the format and the representation of ``s``."""
    if not s:
        raise QuantityError(ERR_FORMAT_WRONG)
    if s == "0":
        return Fraction(0), DECIMAL_SI, (False, 0, 0)
    positive, num, denom, suffix = parse_quantity_string(s)
    base, exponent, fmt = interpret_suffix(suffix)

    if exponent > _MAX_POSITIVE_EXPONENT:
        raise QuantityError(ERR_NUMERIC)
    digits = int(num + denom)
    if base == 10 and digits and len(num) + exponent < NANO:
        # below 10^(len(num)+exponent), far under one nano: rounds up to 1n
        # (and skips computing 10^-huge)
        magnitude = Fraction(1, _NANO_UNITS)
    else:
        magnitude = Fraction(digits, 10 ** len(denom)) * Fraction(base) ** exponent
        # Round non-zero values up to the smallest representable amount: if you
        # ask for some of a resource you get some, never nothing.
        magnitude = _round_up_to_nano(magnitude)
    if fmt == BINARY_SI and magnitude > _MAX_INT64:
        magnitude = Fraction(_MAX_INT64)  # the max is a simple cap
    rep = _parse_rep(positive, num, denom, exponent, fmt, magnitude)
    if fmt == BINARY_SI and 0 < magnitude < 1:
        fmt = DECIMAL_SI
    return (magnitude if positive else -magnitude), fmt, rep


@ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "ParseQuantity", 275, 389, repo=SCHEDULER_PLUGINS)
def parse_quantity(value: Union[str, int, float]) -> Quantity:
    """Upstream ParseQuantity; raises :class:`QuantityError` with upstream's message."""
    return Quantity(value)


@ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "MustParse", 136, 142, repo=SCHEDULER_PLUGINS)
def must_parse(value: Union[str, int, float]) -> Quantity:
    """Upstream MustParse, for tests and constants."""
    return Quantity(value)
