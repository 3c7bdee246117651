"""Port of Go's fmt/print.go (%v, %#v), strconv/quote.go and time/time.go (Go 1.22, for v1.30).

Go's value formatting, as far as it shows up in kube-scheduler's
configuration error messages, e.g.
``config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:"Coscheduling", Weight:0}}, Disabled:[]config.Plugin(nil)}``.
Python values do not know their Go type, so each dataclass that can be
printed is registered once with its Go type name and its fields' Go names
and types (:func:`register_go_struct`); a value whose type cannot be guessed
is wrapped in :class:`GoValue`.

Deviations:
- An empty Python list or dict prints as Go's nil slice/map (``[]T(nil)``):
  the configuration code keeps no difference between nil and empty there.
- A pointer inside a printed value shows one fixed fake address
  (``0xc000010000``); the conformance checker masks addresses anyway.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports

FAKE_POINTER = "0xc000010000"


@plumbing("tags a Python value with the Go type it stands for, for printing")
@dataclass(frozen=True)
class GoValue:
    """A Python value with the Go type it stands for (``"[]string"``, ``"config.ScoringStrategyType"``)."""

    value: Any
    go_type: str


@dataclass(frozen=True)
class _GoStruct:
    go_type: str
    fields: tuple[tuple[str, str, Union[str, Callable[[Any], Any]]], ...]


_BY_CLASS: dict[type, _GoStruct] = {}
# Interface types: a value stored in such a field prints as a pointer.
_INTERFACES = {"runtime.Object", "interface {}"}


@plumbing("records how a class prints as a Go struct")
def register_go_struct(cls: type, go_type: str,
                       fields: list[tuple[str, str, Union[str, Callable[[Any], Any]]]]) -> None:
    """Tell the formatter that instances of ``cls`` print as Go struct ``go_type``.

    ``fields`` lists (Go field name, Go type, Python attribute name or getter).
    """
    _BY_CLASS[cls] = _GoStruct(go_type, tuple(fields))


@plumbing("the Go type name of a Python value, for printing")
def go_type_of(value: Any) -> str:
    if isinstance(value, GoValue):
        return value.go_type
    spec = _BY_CLASS.get(type(value))
    if spec is not None:
        return spec.go_type
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (bytes, bytearray)):
        return "[]uint8"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "[]string"
    if isinstance(value, dict):
        return "map[string]interface {}"
    raise TypeError(f"no Go type known for {type(value).__name__}")


# --- strconv.Quote -----------------------------------------------------------

from ..api.validation.field import go_quote  # noqa: E402,F401  (shared with the API server's messages)


# --- floats -------------------------------------------------------------------


def _shortest_digits(f: float) -> tuple[str, int]:
    """Shortest decimal digits of |f| and the decimal point position (strconv's digs.d, digs.dp)."""
    r = repr(abs(f))
    mant, _, exp = r.partition("e")
    e = int(exp) if exp else 0
    whole, _, frac = mant.partition(".")
    digits = (whole + frac).lstrip("0")
    lead = len(whole + frac) - len((whole + frac).lstrip("0"))
    dp = len(whole) + e - lead
    digits = digits.rstrip("0") or "0"
    return digits, dp


@plumbing("Go's strconv 'g' formatting, from the Go standard library")
def format_float_g(f: float) -> str:
    """Go ``%v`` of a float64 (strconv 'g' with the shortest precision)."""
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    if f == 0:
        return "-0" if math.copysign(1, f) < 0 else "0"
    digits, dp = _shortest_digits(f)
    sign = "-" if f < 0 else ""
    exp = dp - 1
    # strconv 'g' with the shortest precision switches to %e when exp < -4 || exp >= 6.
    if exp < -4 or exp >= 6:
        m = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        es = "-" if exp < 0 else "+"
        return f"{sign}{m}e{es}{abs(exp):02d}"
    if dp <= 0:
        return f"{sign}0.{'0' * -dp}{digits}"
    if dp >= len(digits):
        return f"{sign}{digits}{'0' * (dp - len(digits))}"
    return f"{sign}{digits[:dp]}.{digits[dp:]}"


# --- time.Duration.String ------------------------------------------------------


def _fmt_frac(v: int, prec: int) -> tuple[str, int]:
    digits = []
    printed = False
    for _ in range(prec):
        digit = v % 10
        printed = printed or digit != 0
        if printed:
            digits.append(str(digit))
        v //= 10
    frac = ("." + "".join(reversed(digits))) if printed else ""
    return frac, v


@plumbing("Go's time.Duration.String, from the Go standard library")
def format_duration(ns: int) -> str:
    """time.Duration(ns).String(): ``"1h2m3.5s"``, ``"1.5ms"``, ``"0s"``."""
    if ns == 0:
        return "0s"
    neg = ns < 0
    u = -ns if neg else ns
    if u < 1_000_000_000:
        if u < 1_000:
            s = f"{u}ns"
        elif u < 1_000_000:
            frac, w = _fmt_frac(u, 3)
            s = f"{w}{frac}µs"
        else:
            frac, w = _fmt_frac(u, 6)
            s = f"{w}{frac}ms"
    else:
        frac, v = _fmt_frac(u, 9)
        s = f"{v % 60}{frac}s"
        v //= 60
        if v > 0:
            s = f"{v % 60}m" + s
            v //= 60
            if v > 0:
                s = f"{v}h" + s
    return ("-" + s) if neg else s


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/duration.go", "Duration", 27, 29, repo=SCHEDULER_PLUGINS)
@dataclass(frozen=True)
class Duration:
    """metav1.Duration: nanoseconds that print as Go prints a time.Duration."""

    nanoseconds: int = 0

    @plumbing("Go's time.Duration.String, from the Go standard library")
    def go_string(self) -> str:  # fmt.Stringer
        return format_duration(self.nanoseconds)

    def __str__(self) -> str:
        return self.go_string()


# --- encoding/json.Marshal ------------------------------------------------------


@plumbing("how Go's encoding/json writes a float64, from the Go standard library")
def go_json_float(f: float) -> str:
    """How encoding/json writes a float64 (``2.0`` -> ``2``, ``1e21`` -> ``1e+21``)."""
    if f == 0:
        return "0" if math.copysign(1, f) > 0 else "-0"
    digits, dp = _shortest_digits(f)
    sign = "-" if f < 0 else ""
    a = abs(f)
    if a < 1e-6 or a >= 1e21:
        exp = dp - 1
        m = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{m}e{'-' if exp < 0 else '+'}{abs(exp)}"
    if dp <= 0:
        return f"{sign}0.{'0' * -dp}{digits}"
    if dp >= len(digits):
        return f"{sign}{digits}{'0' * (dp - len(digits))}"
    return f"{sign}{digits[:dp]}.{digits[dp:]}"


def _go_json_string(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ch in "<>&" or ch in "\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


@plumbing("Go's encoding/json.Marshal, from the Go standard library")
def go_json(value: Any) -> str:
    """encoding/json.Marshal of a decoded YAML/JSON value: compact, keys sorted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_json_float(value)
    if isinstance(value, str):
        return _go_json_string(value)
    if isinstance(value, list):
        return "[" + ",".join(go_json(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_go_json_string(str(k))}:{go_json(value[k])}"
                              for k in sorted(value)) + "}"
    raise TypeError(f"cannot marshal {type(value).__name__}")


def _unknown_literal(raw: dict) -> str:
    """%#v of the runtime.Unknown that holds an out-of-tree plugin's raw args."""
    data = go_json(raw).encode()
    return ('runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:'
            + _fmt(data, "[]uint8", False)
            + ', ContentEncoding:"", ContentType:"application/json"}')


# --- %#v -------------------------------------------------------------------------


@plumbing("Go's fmt %#v verb, from the Go standard library")
def sharp_v(value: Any, go_type: Optional[str] = None) -> str:
    """Go's ``fmt.Sprintf("%#v", value)``."""
    if isinstance(value, GoValue):
        return sharp_v(value.value, value.go_type)
    if go_type is None:
        go_type = go_type_of(value)
    return _fmt(value, go_type, top=True)


def _fmt(value: Any, t: str, top: bool) -> str:
    if isinstance(value, GoValue):
        value, t = value.value, value.go_type
    if t in _INTERFACES:
        if value is None:
            return f"{t}(nil)"
        if isinstance(value, dict):
            return _unknown_literal(value) if top else f"(*runtime.Unknown)({FAKE_POINTER})"
        dyn = go_type_of(value)
        if dyn.startswith("[]") or dyn.startswith("map[") or dyn in ("string", "int", "bool", "float64"):
            return _fmt(value, dyn, top)
        return _fmt(value, "*" + dyn, top)
    if t.startswith("*"):
        if value is None:
            return f"({t})(nil)"
        if top:
            return "&" + _fmt(value, t[1:], top=False)
        return f"({t})({FAKE_POINTER})"
    if t.startswith("[]"):
        elem = t[2:]
        if value is None or len(value) == 0:
            return f"{t}(nil)"
        if elem in ("uint8", "byte"):
            return "[]uint8{" + ", ".join(f"0x{b:x}" for b in bytes(value)) + "}"
        return t + "{" + ", ".join(_fmt(v, elem, False) for v in value) + "}"
    if t.startswith("map["):
        key_t, val_t = _split_map(t)
        if not value:
            return f"{t}(nil)"
        items = sorted(value.items())
        return t + "{" + ", ".join(f"{_fmt(k, key_t, False)}:{_fmt(v, val_t, False)}"
                                   for k, v in items) + "}"
    spec = _BY_CLASS.get(type(value))
    if spec is not None:
        parts = []
        for go_name, go_t, getter in spec.fields:
            v = getter(value) if callable(getter) else getattr(value, getter)
            parts.append(f"{go_name}:{_fmt(v, go_t, False)}")
        return spec.go_type + "{" + ", ".join(parts) + "}"
    if isinstance(value, Duration):
        return f"v1.Duration{{Duration:{value.nanoseconds}}}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format_float_g(value)
    if isinstance(value, str):
        return go_quote(value)
    if value is None:
        return "<nil>"
    raise TypeError(f"cannot format {type(value).__name__} as Go {t}")


def _split_map(t: str) -> tuple[str, str]:
    depth = 0
    for i, ch in enumerate(t):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return t[4:i], t[i + 1:]
    raise ValueError(t)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "(*Error).ErrorBody", 51, 97, repo=SCHEDULER_PLUGINS)
def error_value(value: Any) -> str:
    """How field.Error's ErrorBody prints a bad value (after dereferencing a pointer)."""
    go_type = None
    if isinstance(value, GoValue):
        value, go_type = value.value, value.go_type
        if go_type.startswith("*"):
            go_type = go_type[1:]
    if value is None:
        return "null"
    if hasattr(value, "go_string"):
        return value.go_string()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)) and (go_type is None or go_type in (
            "int32", "int64", "float64", "float32", "int")):
        return str(value) if isinstance(value, int) else format_float_g(value)
    if isinstance(value, str):
        return go_quote(value)
    if go_type in _INTERFACES:
        if isinstance(value, dict):
            return _unknown_literal(value)
        go_type = go_type_of(value)
    return _fmt(value, go_type or go_type_of(value), top=False)
