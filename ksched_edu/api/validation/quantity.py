"""Port of k8s.io/apimachinery/pkg/api/resource/quantity.go (v1.30), how kube-apiserver holds
a parsed quantity: the int64 fast path of ParseQuantity, RoundUp and String.

Field errors show a quantity two ways: ``quantity.String()`` (the text the
user wrote when it was already canonical, else the canonical form) and, for
"must be an integer", the Go ``%#v`` of the struct itself, e.g.
``resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:...,
s:"500m", Format:"DecimalSI"}``. Both depend on the text as written, so the
loader remembers it; :class:`GoQuantity` rebuilds the struct from that text
and the v1 defaulting that rounds every ResourceList value up to milli units.

Deviations:
- A value that needs upstream's ``inf.Dec`` form prints its pointer as
  ``0xc000000000``.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...anchors import SCHEDULER_PLUGINS, plumbing, ports
from ..quantity import (
    BINARY_SI,
    DECIMAL_EXPONENT,
    DECIMAL_SI,
    Quantity,
    QuantityError,
    interpret_suffix,
    parse_quantity_string,
)
from .field import GO_POINTER, go_quote

MAX_INT64_FACTORS = 18
MILLI_SCALE = -3
NANO_SCALE = -9
_MAX_INT64 = 2**63 - 1


@ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "Quantity", 100, 111, repo=SCHEDULER_PLUGINS)
@dataclass
class GoQuantity:
    """The fields of upstream's ``resource.Quantity`` after parsing and defaulting."""

    canonical: str  # what String() computes when nothing is cached
    value: int = 0  # i.value
    scale: int = 0  # i.scale
    dec: bool = False  # whether the inf.Dec form is used
    s: str = ""  # the cached string
    format: str = DECIMAL_SI

    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "(*Quantity).String", 646, 657, repo=SCHEDULER_PLUGINS)
    def string(self) -> str:
        """Upstream ``Quantity.String()``."""
        return self.s or self.canonical

    @plumbing("Go's %#v of the struct, for error messages")
    def go_repr(self) -> str:
        """Go's ``%#v`` of the struct."""
        i_value, i_scale = (0, 0) if self.dec else (self.value, self.scale)
        dec = f"(*inf.Dec)({GO_POINTER})" if self.dec else "(*inf.Dec)(nil)"
        return (f"resource.Quantity{{i:resource.int64Amount{{value:{i_value}, scale:{i_scale}}}, "
                f"d:resource.infDecAmount{{Dec:{dec}}}, s:{go_quote(self.s)}, Format:{go_quote(self.format)}}}")


def _parse(text: str, canonical: str) -> GoQuantity:
    """Upstream ParseQuantity: which representation, and whether the text is kept."""
    if text == "0":
        return GoQuantity(canonical, s=text, format=DECIMAL_SI)
    positive, num, denom, suffix = parse_quantity_string(text)
    base, exponent, fmt = interpret_suffix(suffix)
    mantissa, scale = 1, 0
    if fmt in (DECIMAL_EXPONENT, DECIMAL_SI):
        scale = exponent
        precision = MAX_INT64_FACTORS - (len(num) + len(denom))
    elif exponent >= 0 and not denom:
        mantissa = 1 << exponent
        precision = 15 - len(num) - int(exponent * 3 / 10) - 1
    else:
        precision = -1
    if precision >= 0:
        scale -= len(denom)
        if scale >= NANO_SCALE:
            shifted = num + denom
            result = int(shifted) * mantissa
            if int(shifted) <= _MAX_INT64 and abs(result) <= _MAX_INT64:
                result = result if positive else -result
                if fmt == BINARY_SI:
                    keep = exponent % 10 == 0 and int(shifted) & 0x07 != 0
                else:
                    keep = scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0"
                return GoQuantity(canonical, result, scale, s=text if keep else "", format=fmt)
    if fmt == BINARY_SI and 0 < abs(Quantity(text).amount) < 1:
        fmt = DECIMAL_SI
    return GoQuantity(canonical, dec=True, format=fmt)


def _round_up(q: GoQuantity, scale: int) -> None:
    """Upstream ``Quantity.RoundUp``: the cached string goes when the value changes form."""
    if q.dec:
        q.s = ""
        return
    if q.scale >= scale:
        return
    q.s = ""
    factor = 10 ** (scale - q.scale)
    magnitude = -(-abs(q.value) // factor)  # rounded up, away from zero
    q.value, q.scale = (magnitude if q.value >= 0 else -magnitude), scale


@plumbing("rebuilds the API server's Quantity fields for error messages")
def go_quantity(q: Quantity, text: str | None) -> GoQuantity:
    """The API server's view of ``q`` written as ``text``, after v1 defaulting
    (SetDefaults_ResourceList rounds up to milli units)."""
    canonical = str(q)
    try:
        g = _parse(text if text is not None else canonical, canonical)
    except (QuantityError, ValueError):
        g = _parse(canonical, canonical)
    _round_up(g, MILLI_SCALE)
    g.canonical = str(Quantity.from_milli(q.milli_value(), q.format))
    return g
