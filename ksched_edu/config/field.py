"""Port of k8s.io/apimachinery/pkg/util/validation/field (errors.go, path.go) (v1.30).

A :class:`Path` names a field (``profiles[0].pluginConfig[1].args``) and a
:class:`FieldError` says what is wrong with it, printed exactly as upstream:
``<path>: <Type>: <value>: <detail>``, the value in Go's formatting
(``%v`` for numbers and booleans, ``%q`` for strings, ``%#v`` for the rest,
see :mod:`ksched_edu.config.gofmt`).

Deviations:
- An error list is a plain ``list[FieldError]``; :func:`to_aggregate` is
  upstream's ``ErrorList.ToAggregate``.
- A Go value whose type Python cannot tell (a slice of structs, a named
  type) is passed wrapped in :class:`~ksched_edu.config.gofmt.GoValue`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional

from . import gofmt
from .errors import Aggregate, new_aggregate

# --- path.go ---------------------------------------------------------------


class Path:
    """One step of a field path: a name, or a subscript of its parent."""

    __slots__ = ("name", "subscript", "parent")

    def __init__(self, name: str = "", subscript: str = "",
                 parent: Optional["Path"] = None) -> None:
        self.name = name
        self.subscript = subscript  # upstream: Path.index
        self.parent = parent

    def root(self) -> "Path":
        p = self
        while p.parent is not None:
            p = p.parent
        return p

    def child(self, name: str, *more: str) -> "Path":
        r = new_path(name, *more)
        r.root().parent = self
        return r

    def index(self, i: int) -> "Path":
        return Path(subscript=str(i), parent=self)

    def key(self, k: str) -> "Path":
        return Path(subscript=k, parent=self)

    def __str__(self) -> str:
        elems: list[Path] = []
        p: Optional[Path] = self
        while p is not None:
            elems.append(p)
            p = p.parent
        out = []
        for p in reversed(elems):
            if p.parent is not None and p.name:
                out.append(".")
            out.append(p.name if p.name else f"[{p.subscript}]")
        return "".join(out)

    def __repr__(self) -> str:
        return f"Path({str(self)!r})"


def new_path(name: str, *more: str) -> Path:
    r = Path(name=name)
    for another in more:
        r = Path(name=another, parent=r)
    return r


def child(path: Optional[Path], name: str, *more: str) -> Path:
    """``path.Child(...)`` that also works on a nil path, as Go's does."""
    if path is None:
        return new_path(name, *more)
    return path.child(name, *more)


def index(path: Optional[Path], i: int) -> Path:
    """``path.Index(i)`` that also works on a nil path."""
    return Path(subscript=str(i), parent=path)


def path_string(path: Optional[Path]) -> str:
    return "<nil>" if path is None else str(path)


gofmt.register_go_struct(Path, "field.Path", [
    ("name", "string", "name"),
    ("index", "string", "subscript"),
    ("parent", "*field.Path", "parent"),
])

# --- errors.go -------------------------------------------------------------

ERROR_TYPE_NOT_FOUND = "FieldValueNotFound"
ERROR_TYPE_REQUIRED = "FieldValueRequired"
ERROR_TYPE_DUPLICATE = "FieldValueDuplicate"
ERROR_TYPE_INVALID = "FieldValueInvalid"
ERROR_TYPE_NOT_SUPPORTED = "FieldValueNotSupported"
ERROR_TYPE_FORBIDDEN = "FieldValueForbidden"
ERROR_TYPE_TOO_LONG = "FieldValueTooLong"
ERROR_TYPE_TOO_MANY = "FieldValueTooMany"
ERROR_TYPE_INTERNAL = "InternalError"
ERROR_TYPE_TYPE_INVALID = "FieldValueTypeInvalid"

_TYPE_STRINGS = {
    ERROR_TYPE_NOT_FOUND: "Not found",
    ERROR_TYPE_REQUIRED: "Required value",
    ERROR_TYPE_DUPLICATE: "Duplicate value",
    ERROR_TYPE_INVALID: "Invalid value",
    ERROR_TYPE_NOT_SUPPORTED: "Unsupported value",
    ERROR_TYPE_FORBIDDEN: "Forbidden",
    ERROR_TYPE_TOO_LONG: "Too long",
    ERROR_TYPE_TOO_MANY: "Too many",
    ERROR_TYPE_INTERNAL: "Internal error",
    ERROR_TYPE_TYPE_INVALID: "Invalid value",
}

# Marks "no value to print" (upstream omitValue).
OMIT_VALUE = object()


def error_type_string(t: str) -> str:
    return _TYPE_STRINGS[t]


@dataclass
class FieldError(Exception):
    """Upstream ``field.Error``: what is wrong with which field."""

    type: str
    field: str
    bad_value: Any
    detail: str = ""

    def __post_init__(self) -> None:
        Exception.__init__(self)

    def error_body(self) -> str:
        t = self.type
        if t in (ERROR_TYPE_REQUIRED, ERROR_TYPE_FORBIDDEN, ERROR_TYPE_TOO_LONG,
                 ERROR_TYPE_INTERNAL) or self.bad_value is OMIT_VALUE:
            s = error_type_string(t)
        else:
            s = f"{error_type_string(t)}: {gofmt.error_value(self.bad_value)}"
        if self.detail:
            s += f": {self.detail}"
        return s

    def __str__(self) -> str:
        return f"{self.field}: {self.error_body()}"

    def __hash__(self) -> int:
        return id(self)


def required(path: Optional[Path], detail: str) -> FieldError:
    return FieldError(ERROR_TYPE_REQUIRED, path_string(path), "", detail)


def invalid(path: Optional[Path], value: Any, detail: str) -> FieldError:
    return FieldError(ERROR_TYPE_INVALID, path_string(path), value, detail)


def duplicate(path: Optional[Path], value: Any) -> FieldError:
    return FieldError(ERROR_TYPE_DUPLICATE, path_string(path), value, "")


def not_found(path: Optional[Path], value: Any) -> FieldError:
    return FieldError(ERROR_TYPE_NOT_FOUND, path_string(path), value, "")


def forbidden(path: Optional[Path], detail: str) -> FieldError:
    return FieldError(ERROR_TYPE_FORBIDDEN, path_string(path), "", detail)


def not_supported(path: Optional[Path], value: Any, valid_values: Iterable[str]) -> FieldError:
    valid = list(valid_values)
    detail = ""
    if valid:
        detail = "supported values: " + ", ".join(gofmt.go_quote(str(v)) for v in valid)
    return FieldError(ERROR_TYPE_NOT_SUPPORTED, path_string(path), value, detail)


def type_invalid(path: Optional[Path], value: Any, detail: str) -> FieldError:
    return FieldError(ERROR_TYPE_TYPE_INVALID, path_string(path), value, detail)


def internal_error(path: Optional[Path], err: BaseException) -> FieldError:
    return FieldError(ERROR_TYPE_INTERNAL, path_string(path), None, str(err))


def to_aggregate(errs: Iterable[BaseException]) -> Optional[Aggregate]:
    """Upstream ErrorList.ToAggregate: repeated messages kept once, nil if empty."""
    kept: list[BaseException] = []
    seen: set[str] = set()
    for err in errs:
        msg = str(err)
        if msg in seen:
            continue
        seen.add(msg)
        kept.append(err)
    return new_aggregate(kept)


def flatten_errors(errs: Iterable[Optional[BaseException]]) -> list[BaseException]:
    """Nested aggregates lifted into one list (what Flatten(NewAggregate(..)) keeps)."""
    out: list[BaseException] = []
    for err in errs:
        if err is None:
            continue
        if isinstance(err, Aggregate):
            out.extend(flatten_errors(err.errors))
        else:
            out.append(err)
    return out
