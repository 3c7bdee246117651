"""Port of k8s.io/apimachinery/pkg/util/validation/field/errors.go (v1.30), and of the
``errors.NewInvalid`` message of k8s.io/apimachinery/pkg/api/errors/errors.go.

A :class:`FieldError` names one field and says what is wrong with it, printed
as the API server prints it: ``<field>: <Type>: <value>: <detail>``, the value
in Go's formatting (``%v`` for numbers and booleans, ``%q`` for strings,
``%#v`` for structs). :func:`new_invalid_message` joins a list of them into
the one-line message kube-apiserver answers a refused create with.

Deviations:
- Paths are plain strings (``spec.containers[0].name``) built by the callers,
  not ``field.Path`` chains.
- A struct value is handed over already printed in Go's ``%#v`` form, as a
  :class:`GoValue`; a non-nil pointer inside it prints as ``0xc000000000``,
  since a real address is different on every run.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ...anchors import SCHEDULER_PLUGINS, plumbing, ports

REQUIRED = "Required value"
INVALID = "Invalid value"
NOT_SUPPORTED = "Unsupported value"
DUPLICATE = "Duplicate value"
FORBIDDEN = "Forbidden"
TOO_LONG = "Too long"

# Error types whose body never shows the value (upstream ErrorBody).
_VALUE_HIDDEN = (REQUIRED, FORBIDDEN, TOO_LONG)

# How a non-nil Go pointer prints inside a %#v struct.
GO_POINTER = "0xc000000000"


@plumbing("a value preformatted as Go's %#v")
@dataclass(frozen=True)
class GoValue:
    """A value already printed as Go's ``%#v`` would print it."""

    text: str


@plumbing("Go's strconv.Quote for error messages")
def go_quote(s: str) -> str:
    """Go's ``strconv.Quote`` (what ``%q`` prints)."""
    out = ['"']
    for ch in s:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch in "\a\b\f\n\r\t\v":
            out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n",
                        "\r": "\\r", "\t": "\\t", "\v": "\\v"}[ch])
        elif ch.isprintable() and code != 0x7F:
            out.append(ch)
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


@plumbing("formats a bad value as Go prints it")
def go_value(value: Any) -> str:
    """A bad value as a field error shows it."""
    if isinstance(value, GoValue):
        return value.text
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return "[]string{" + ", ".join(go_quote(v) for v in value) + "}"
    return str(value)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Error", 31, 36, repo=SCHEDULER_PLUGINS)
@dataclass(frozen=True)
class FieldError:
    """Upstream ``field.Error``: what is wrong with which field."""

    type: str
    field: str
    bad_value: Any = ""
    detail: str = ""

    @ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "(*Error).ErrorBody", 51, 97, repo=SCHEDULER_PLUGINS)
    def error_body(self) -> str:
        body = self.type if self.type in _VALUE_HIDDEN else f"{self.type}: {go_value(self.bad_value)}"
        return f"{body}: {self.detail}" if self.detail else body

    def __str__(self) -> str:
        return f"{self.field}: {self.error_body()}"


ErrorList = list[FieldError]


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Required", 184, 186, repo=SCHEDULER_PLUGINS)
def required(path: str, detail: str = "") -> FieldError:
    return FieldError(REQUIRED, path, "", detail)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Invalid", 196, 198, repo=SCHEDULER_PLUGINS)
def invalid(path: str, value: Any, detail: str) -> FieldError:
    return FieldError(INVALID, path, value, detail)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Forbidden", 219, 221, repo=SCHEDULER_PLUGINS)
def forbidden(path: str, detail: str) -> FieldError:
    return FieldError(FORBIDDEN, path, "", detail)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Duplicate", 190, 192, repo=SCHEDULER_PLUGINS)
def duplicate(path: str, value: Any, detail: str = "") -> FieldError:
    return FieldError(DUPLICATE, path, value, detail)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "NotSupported", 203, 213, repo=SCHEDULER_PLUGINS)
def not_supported(path: str, value: Any, valid_values: Sequence[str]) -> FieldError:
    detail = "supported values: " + ", ".join(go_quote(v) for v in valid_values) if valid_values else ""
    return FieldError(NOT_SUPPORTED, path, value, detail)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "TooLong", 227, 229, repo=SCHEDULER_PLUGINS)
def too_long(path: str, value: Any, max_length: int) -> FieldError:
    return FieldError(TOO_LONG, path, value, f"must have at most {max_length} bytes")


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "(ErrorList).ToAggregate", 291, 306, repo=SCHEDULER_PLUGINS)
def aggregate_message(errs: Iterable[FieldError]) -> str:
    """``ErrorList.ToAggregate().Error()``: one error as is, several as ``[a, b]``;
    an error printed twice is kept once."""
    seen: list[str] = []
    for e in errs:
        text = str(e)
        if text not in seen:
            seen.append(text)
    if len(seen) == 1:
        return seen[0]
    return "[" + ", ".join(seen) + "]"


@ports("vendor/k8s.io/apimachinery/pkg/api/errors/errors.go", "NewInvalid", 282, 310, repo=SCHEDULER_PLUGINS)
def new_invalid_message(group_kind: str, name: str, errs: Sequence[FieldError]) -> str:
    """The message of upstream ``errors.NewInvalid``: ``Pod "p" is invalid: ...``."""
    if not errs:
        return f"{group_kind} {go_quote(name)} is invalid"
    return f"{group_kind} {go_quote(name)} is invalid: {aggregate_message(errs)}"
