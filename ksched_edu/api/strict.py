"""Port of the API server's strict field validation (v1.30): unknown and duplicate fields.

kube-apiserver (and ``kubectl apply``, whose ``--validate`` is ``strict`` by default)
refuses an object with a field its API type does not have, or a key written twice in
one mapping, instead of dropping it::

    strict decoding error: unknown field "spec.containers[0].resources.requets"

sigs.k8s.io/json finds these while it decodes (``kubernetes_patch.go``: a field path
built as it descends, ``unknown field`` and ``duplicate field`` errors, at most 100,
each once), and apimachinery joins them into one ``strict decoding error``
(``runtime/error.go``). Here the check walks the decoded YAML against the field table
of the v1.30 API types (:mod:`ksched_edu.api.apifields`, the JSON names of every field,
whether the scheduler reads it or not) and of the two CRDs the loader reads (PodGroup,
NodeResourceTopology, below, from their Go types).

Deviations:
- The keys of a mapping are visited in sorted order, as upstream's YAML path does (YAML
  becomes JSON with sorted keys before it is decoded); a duplicated key is reported with
  the kjson wording and path (``duplicate field "spec.nodeSelector.disk"``), where a YAML
  body sent to the API server names the YAML line instead.
- A value of the wrong shape where the table says object or list (``livenessProbe: 5``)
  is reported as the loader reports types, ``expected a map, got integer 5``.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Optional

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from .apifields import KINDS as API_KINDS
from .apifields import TYPES as API_TYPES
from .validation.field import go_quote

MAX_STRICT_ERRORS = 100  # kubernetes_patch.go saveStrictError

# The CRDs the loader reads (scheduler-plugins' apis/scheduling/v1alpha1 PodGroup and
# noderesourcetopology-api's topology/v1alpha2 NodeResourceTopology), in the same form.
CRD_TYPES: dict[str, dict[str, str]] = {
    "PodGroup": {"apiVersion": "", "kind": "", "metadata": "ObjectMeta",
                 "spec": "PodGroupSpec", "status": "PodGroupStatus"},
    "PodGroupSpec": {"minMember": "", "minResources": "", "scheduleTimeoutSeconds": ""},
    "PodGroupStatus": {"phase": "", "occupiedBy": "", "running": "", "succeeded": "",
                       "failed": "", "scheduleStartTime": ""},
    "NodeResourceTopology": {"apiVersion": "", "kind": "", "metadata": "ObjectMeta",
                             "topologyPolicies": "", "zones": "[]Zone",
                             "attributes": "[]AttributeInfo"},
    "Zone": {"name": "", "type": "", "parent": "", "costs": "[]CostInfo",
             "attributes": "[]AttributeInfo", "resources": "[]ResourceInfo"},
    "ResourceInfo": {"name": "", "capacity": "", "allocatable": "", "available": ""},
    "CostInfo": {"name": "", "value": ""},
    "AttributeInfo": {"name": "", "value": ""},
    # a kind: List (metav1.List: TypeMeta, ListMeta, items checked one by one)
    "List": {"apiVersion": "", "kind": "", "metadata": "ListMeta", "items": ""},
}
TYPES: dict[str, dict[str, str]] = {**API_TYPES, **CRD_TYPES}
KINDS: dict[str, str] = {**API_KINDS, "PodGroup": "PodGroup",
                         "NodeResourceTopology": "NodeResourceTopology", "List": "List"}


@plumbing("a shape error found by the strict walk (the loader reports it as a type error)")
class ShapeError(ValueError):
    """A value that is not a map (or list) where the API type has an object (or list)."""

    def __init__(self, path: str, expected: str, value: Any) -> None:
        super().__init__(path, expected, value)
        self.path = path
        self.expected = expected
        self.value = value


@ports("vendor/sigs.k8s.io/json/internal/golang/encoding/json/kubernetes_patch.go",
       "(*decodeState).newFieldError", 73, 85, repo=SCHEDULER_PLUGINS)
def field_path(parent: str, key: str) -> str:
    """``parent.key``, or ``key`` at the top: the path of a strict error."""
    return f"{parent}.{key}" if parent else key


@ports("vendor/sigs.k8s.io/json/internal/golang/encoding/json/kubernetes_patch.go",
       "(*strictError).Error", 140, 142, repo=SCHEDULER_PLUGINS)
def strict_error(err_type: str, path: str) -> str:
    """``unknown field "a.b"`` / ``duplicate field "a.b"`` (strconv.Quote of the path)."""
    return f"{err_type} {go_quote(path)}"


@ports("vendor/k8s.io/apimachinery/pkg/runtime/error.go", "(*strictDecodingError).Error",
       138, 148, repo=SCHEDULER_PLUGINS)
def strict_decoding_message(errors: list[str]) -> str:
    """The one-line message of a strict decoding error."""
    return "strict decoding error: " + ", ".join(errors)


@plumbing("the strict walk over a decoded YAML object, against the API field table")
def strict_errors(kind: str, raw: dict, duplicates: Optional[dict[int, list[str]]] = None) -> list[str]:
    """Every unknown or duplicate field of one object of ``kind``, in the order upstream
    reports them (at most 100, each once). ``duplicates`` maps ``id()`` of a mapping to
    the keys written more than once in it (see :func:`ksched_edu.api.loader`).
    Raises :class:`ShapeError` for a value of the wrong shape."""
    errors: list[str] = []
    for err in _walk(raw, KINDS[kind], "", duplicates or {}):
        if err not in errors:
            errors.append(err)
            if len(errors) >= MAX_STRICT_ERRORS:
                break
    return errors


def _walk(value: Any, shape: str, path: str, duplicates: dict[int, list[str]]) -> Iterator[str]:
    """The errors inside ``value``, whose table shape is ``shape`` (see apifields)."""
    if value is None:
        return
    if shape.startswith("[]"):
        if not isinstance(value, list):
            raise ShapeError(path, "a list", value)
        for i, item in enumerate(value):
            yield from _walk(item, shape[2:], f"{path}[{i}]", duplicates)
    elif not shape:  # a value the table does not enter: only keys written twice inside it
        if isinstance(value, list):
            for i, item in enumerate(value):
                yield from _walk(item, "", f"{path}[{i}]", duplicates)
        elif isinstance(value, dict):
            yield from _keys(value, path, duplicates, lambda name: "")
    elif not isinstance(value, dict):
        raise ShapeError(path, "a map", value)
    elif shape.startswith("{}"):
        yield from _keys(value, path, duplicates, lambda name: shape[2:])
    else:
        yield from _keys(value, path, duplicates, TYPES[shape].get)


def _keys(value: dict, path: str, duplicates: dict[int, list[str]],
          child_shape: Callable[[str], Optional[str]]) -> Iterator[str]:
    """A mapping's keys in sorted order: repeated, unknown (``child_shape`` gives None), or walked."""
    repeated = duplicates.get(id(value), ())
    for key in sorted(value, key=str):
        name = str(key)
        child_path = field_path(path, name)
        if name in repeated:
            yield strict_error("duplicate field", child_path)
        shape = child_shape(name)
        if shape is None:
            yield strict_error("unknown field", child_path)
        elif shape or duplicates:  # a leaf is entered only to find keys written twice
            yield from _walk(value[key], shape, child_path, duplicates)
