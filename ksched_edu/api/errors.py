"""Port of k8s.io/apimachinery/pkg/util/validation/field/errors.go (v1.30), in part.

A bad manifest is reported as one line naming the file, the object and the
field, the way ``kubectl apply`` names them::

    cluster.yaml: Pod default/p: spec.containers[0].resources.requests.cpu: quantities must ...

The message texts of a field error (``Required value``, ``Invalid value: ...``,
``Unsupported value: ...``) are upstream's ``field.Error`` bodies.

An object that decodes but that kube-apiserver's validation would refuse
raises :class:`InvalidObjectError`, whose message is the API server's own
(``Pod "p" is invalid: [err1, err2]``, every field error of the object);
one that an admission plugin would refuse raises :class:`ForbiddenObjectError`.

Deviations:
- Only the error kinds the loader needs; a decoding error stops at the first
  one found, where the API server collects a list.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports

@plumbing("error raised by the manifest loader")
class ManifestError(ValueError):
    """A manifest the loader refuses. ``str()`` is a single line."""

    def __init__(self, file: str = "", object: str = "", field: str = "", message: str = "") -> None:
        self.file = file
        self.object = object  # e.g. "Pod default/p", "Node n1" or "document 3"
        self.field = field  # e.g. "spec.containers[0].resources.requests.cpu"
        self.message = message
        super().__init__(file, object, field, message)

    def __str__(self) -> str:
        parts = [self.file, self.object, self.field, self.message]
        return ": ".join(p for p in parts if p)

    def __repr__(self) -> str:
        return f"ManifestError({str(self)!r})"

    @plumbing("names the manifest file in the message")
    def with_file(self, file: str) -> "ManifestError":
        """The same error, naming ``file`` (for errors found after reading)."""
        return ManifestError(file, self.object, self.field, self.message)


@ports("vendor/k8s.io/apimachinery/pkg/runtime/error.go", "NewStrictDecodingError", 132, 136, repo=SCHEDULER_PLUGINS)
class StrictDecodingError(ManifestError):
    """An object with fields its API type lacks, or keys written twice (strict field
    validation, as ``kubectl apply`` and kube-apiserver apply it).

    ``errors`` holds each ``unknown field "path"`` / ``duplicate field "path"``,
    ``fields`` their paths; ``str()`` is one line: the file, the object, then
    ``strict decoding error: unknown field "spec.containers[0].resources.requets"``.
    """

    def __init__(self, file: str, object: str, errors: Sequence[str], message: str) -> None:
        self.errors = list(errors)
        self.fields = [e.split(" ", 2)[2][1:-1] for e in self.errors]
        super().__init__(file, object, self.fields[0] if self.fields else "", message)

    def __str__(self) -> str:
        return ": ".join(p for p in (self.file, self.object, self.message) if p)

    def __repr__(self) -> str:
        return f"StrictDecodingError({str(self)!r})"

    @plumbing("names the manifest file in the message")
    def with_file(self, file: str) -> "StrictDecodingError":
        return StrictDecodingError(file, self.object, self.errors, self.message)


def _go_value(value: object) -> str:
    """A value as Go's ``%q``/``%v`` shows it in a field error."""
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Required", 184, 186, repo=SCHEDULER_PLUGINS)
def required(detail: str = "") -> str:
    """Body of upstream field.Required."""
    return f"Required value: {detail}" if detail else "Required value"


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Invalid", 196, 198, repo=SCHEDULER_PLUGINS)
def invalid(value: object, detail: str) -> str:
    """Body of upstream field.Invalid."""
    return f"Invalid value: {_go_value(value)}: {detail}"


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "NotSupported", 203, 213, repo=SCHEDULER_PLUGINS)
def not_supported(value: object, valid_values: list[str]) -> str:
    """Body of upstream field.NotSupported."""
    quoted = ", ".join(_go_value(v) for v in valid_values)
    return f"Unsupported value: {_go_value(value)}: supported values: {quoted}"


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Duplicate", 190, 192, repo=SCHEDULER_PLUGINS)
def duplicate(value: object) -> str:
    """Body of upstream field.Duplicate."""
    return f"Duplicate value: {_go_value(value)}"


@ports("vendor/k8s.io/apimachinery/pkg/api/errors/errors.go", "NewInvalid", 282, 310, repo=SCHEDULER_PLUGINS)
class InvalidObjectError(ManifestError):
    """An object kube-apiserver's validation refuses (upstream ``errors.NewInvalid``).

    ``kind``, ``name`` and ``namespace`` name the object, ``errors`` holds its
    field errors (``.field``, ``.error_body()``) and ``status_message`` is the
    API server's one-line answer; ``str()`` puts the file name in front of it.
    """

    def __init__(self, file: str, object: str, kind: str, name: str, namespace: str,
                 errors: Sequence[Any], status_message: str) -> None:
        super().__init__(file, object, errors[0].field if errors else "", status_message)
        self.kind = kind
        self.name = name
        self.namespace = namespace
        self.errors = list(errors)
        self.status_message = status_message

    def __str__(self) -> str:
        return f"{self.file}: {self.status_message}" if self.file else self.status_message

    def __repr__(self) -> str:
        return f"InvalidObjectError({str(self)!r})"

    @plumbing("names the manifest file in the message")
    def with_file(self, file: str) -> "InvalidObjectError":
        return InvalidObjectError(file, self.object, self.kind, self.name, self.namespace,
                                  self.errors, self.status_message)


@ports("vendor/k8s.io/apimachinery/pkg/api/errors/errors.go", "NewForbidden", 208, 228, repo=SCHEDULER_PLUGINS)
class ForbiddenObjectError(ManifestError):
    """An object an admission plugin refuses (upstream ``errors.NewForbidden``)."""

    def __init__(self, file: str, object: str, kind: str, name: str, status_message: str) -> None:
        super().__init__(file, object, "", status_message)
        self.kind = kind
        self.name = name
        self.status_message = status_message

    def __str__(self) -> str:
        return f"{self.file}: {self.status_message}" if self.file else self.status_message

    def __repr__(self) -> str:
        return f"ForbiddenObjectError({str(self)!r})"

    @plumbing("names the manifest file in the message")
    def with_file(self, file: str) -> "ForbiddenObjectError":
        return ForbiddenObjectError(file, self.object, self.kind, self.name, self.status_message)
