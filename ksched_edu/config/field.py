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

from ..anchors import SCHEDULER_PLUGINS, ports
from . import gofmt
from .errors import Aggregate, new_aggregate

# --- path.go ---------------------------------------------------------------


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/path.go", "Path", 49, 53, repo=SCHEDULER_PLUGINS)
class Path:
    """One step of a field path: a name, or a subscript of its parent."""

    __slots__ = ("name", "subscript", "parent")

    def __init__(self, name: str = "", subscript: str = "",
                 parent: Optional["Path"] = None) -> None:
        self.name = name
        self.subscript = subscript  # upstream: Path.index
        self.parent = parent

    @ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/path.go", "(*Path).Root", 65, 70, repo=SCHEDULER_PLUGINS)
    def root(self) -> "Path":
        p = self
        while p.parent is not None:
            p = p.parent
        return p

    @ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/path.go", "(*Path).Child", 73, 77, repo=SCHEDULER_PLUGINS)
    def child(self, name: str, *more: str) -> "Path":
        r = new_path(name, *more)
        r.root().parent = self
        return r

    @ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/path.go", "(*Path).Index", 81, 83, repo=SCHEDULER_PLUGINS)
    def index(self, i: int) -> "Path":
        return Path(subscript=str(i), parent=self)

    @ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/path.go", "(*Path).Key", 87, 89, repo=SCHEDULER_PLUGINS)
    def key(self, k: str) -> "Path":
        return Path(subscript=k, parent=self)

    @ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/path.go", "(*Path).String", 92, 117, repo=SCHEDULER_PLUGINS)
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


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/path.go", "NewPath", 56, 62, repo=SCHEDULER_PLUGINS)
def new_path(name: str, *more: str) -> Path:
    r = Path(name=name)
    for another in more:
        r = Path(name=another, parent=r)
    return r


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/path.go", "(*Path).Child", 73, 77, repo=SCHEDULER_PLUGINS)
def child(path: Optional[Path], name: str, *more: str) -> Path:
    """``path.Child(...)`` that also works on a nil path, as Go's does."""
    if path is None:
        return new_path(name, *more)
    return path.child(name, *more)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/path.go", "(*Path).Index", 81, 83, repo=SCHEDULER_PLUGINS)
def index(path: Optional[Path], i: int) -> Path:
    """``path.Index(i)`` that also works on a nil path."""
    return Path(subscript=str(i), parent=path)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/path.go", "(*Path).String", 92, 117, repo=SCHEDULER_PLUGINS)
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


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "(ErrorType).String", 143, 168, repo=SCHEDULER_PLUGINS)
def error_type_string(t: str) -> str:
    return _TYPE_STRINGS[t]


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Error", 31, 36, repo=SCHEDULER_PLUGINS)
@dataclass
class FieldError(Exception):
    """Upstream ``field.Error``: what is wrong with which field."""

    type: str
    field: str
    bad_value: Any
    detail: str = ""

    def __post_init__(self) -> None:
        Exception.__init__(self)

    @ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "(*Error).ErrorBody", 51, 97, repo=SCHEDULER_PLUGINS)
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

    @ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "(*Error).Error", 41, 43, repo=SCHEDULER_PLUGINS)
    def __str__(self) -> str:
        return f"{self.field}: {self.error_body()}"

    def __hash__(self) -> int:
        return id(self)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Required", 184, 186, repo=SCHEDULER_PLUGINS)
def required(path: Optional[Path], detail: str) -> FieldError:
    return FieldError(ERROR_TYPE_REQUIRED, path_string(path), "", detail)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Invalid", 196, 198, repo=SCHEDULER_PLUGINS)
def invalid(path: Optional[Path], value: Any, detail: str) -> FieldError:
    return FieldError(ERROR_TYPE_INVALID, path_string(path), value, detail)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Duplicate", 190, 192, repo=SCHEDULER_PLUGINS)
def duplicate(path: Optional[Path], value: Any) -> FieldError:
    return FieldError(ERROR_TYPE_DUPLICATE, path_string(path), value, "")


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "NotFound", 177, 179, repo=SCHEDULER_PLUGINS)
def not_found(path: Optional[Path], value: Any) -> FieldError:
    return FieldError(ERROR_TYPE_NOT_FOUND, path_string(path), value, "")


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Forbidden", 219, 221, repo=SCHEDULER_PLUGINS)
def forbidden(path: Optional[Path], detail: str) -> FieldError:
    return FieldError(ERROR_TYPE_FORBIDDEN, path_string(path), "", detail)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "NotSupported", 203, 213, repo=SCHEDULER_PLUGINS)
def not_supported(path: Optional[Path], value: Any, valid_values: Iterable[str]) -> FieldError:
    valid = list(valid_values)
    detail = ""
    if valid:
        detail = "supported values: " + ", ".join(gofmt.go_quote(str(v)) for v in valid)
    return FieldError(ERROR_TYPE_NOT_SUPPORTED, path_string(path), value, detail)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "TypeInvalid", 171, 173, repo=SCHEDULER_PLUGINS)
def type_invalid(path: Optional[Path], value: Any, detail: str) -> FieldError:
    return FieldError(ERROR_TYPE_TYPE_INVALID, path_string(path), value, detail)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "InternalError", 270, 272, repo=SCHEDULER_PLUGINS)
def internal_error(path: Optional[Path], err: BaseException) -> FieldError:
    return FieldError(ERROR_TYPE_INTERNAL, path_string(path), None, str(err))


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "(ErrorList).ToAggregate", 291, 306, repo=SCHEDULER_PLUGINS)
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


@ports("vendor/k8s.io/apimachinery/pkg/util/errors/errors.go", "Flatten", 181, 199, repo=SCHEDULER_PLUGINS)
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
