"""Port of the name checks of k8s.io/apimachinery (v1.30) that plugin-args validation uses.

From ``pkg/util/validation/validation.go``: IsQualifiedName,
IsDNS1123Subdomain, IsValidLabelValue and the messages they build; from
``pkg/apis/meta/v1/validation/validation.go``: ValidateLabelName; from
``pkg/labels/selector.go``: the checks NewRequirement makes on a key, an
operator's values and each value; from kubernetes ``pkg/apis/core/v1``:
IsExtendedResourceName.

Deviations:
- Only the functions the scheduler configuration reaches are ported.
"""
from __future__ import annotations

import re
from typing import Optional

from ..anchors import SCHEDULER_PLUGINS, ports
from . import field
from .field import FieldError, Path
from .gofmt import GoValue

# The util/validation checks are shared with the API server's object validation.
from ..api.validation.names import (empty_error, is_dns1123_subdomain, is_qualified_name,  # noqa: E402,F401
                                    is_valid_label_value, max_len_error, regex_error)


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go", "ValidateLabelName", 96, 102, repo=SCHEDULER_PLUGINS)
def validate_label_name(label_name: str, path: Optional[Path]) -> list[FieldError]:
    """metav1 validation.ValidateLabelName."""
    return [field.invalid(path, label_name, msg) for msg in is_qualified_name(label_name)]


@ports("pkg/apis/core/v1/helper/helpers.go", "IsExtendedResourceName", 36, 46)
def is_extended_resource_name(name: str) -> bool:
    """IsExtendedResourceName of kubernetes pkg/apis/core/v1."""
    if "/" not in name or "kubernetes.io/" in name or name.startswith("requests."):
        return False
    return not is_qualified_name("requests." + name)


# --- labels.NewRequirement's checks ---------------------------------------------


def _parses_as_int64(v: str) -> bool:
    if not re.fullmatch(r"[+-]?[0-9]+", v):
        return False
    return -(2**63) <= int(v) <= 2**63 - 1


@ports("vendor/k8s.io/apimachinery/pkg/labels/selector.go", "NewRequirement", 161, 201, repo=SCHEDULER_PLUGINS)
def validate_requirement(key: str, op: str, values: Optional[list[str]],
                         path: Optional[Path]) -> list[FieldError]:
    """The errors labels.NewRequirement returns for (key, selection operator, values).

    ``op`` is a selection operator: ``in``, ``notin``, ``exists``, ``!``, ``gt``, ``lt``.
    """
    errs: list[FieldError] = []
    vals = values or []
    go_vals = GoValue(values, "[]string")
    key_errs = is_qualified_name(key)
    if key_errs:
        errs.append(field.invalid(field.child(path, "key"), key, "; ".join(key_errs)))
    value_path = field.child(path, "values")
    if op in ("in", "notin"):
        if not vals:
            errs.append(field.invalid(value_path, go_vals,
                                      "for 'in', 'notin' operators, values set can't be empty"))
    elif op in ("=", "==", "!="):
        if len(vals) != 1:
            errs.append(field.invalid(value_path, go_vals,
                                      "exact-match compatibility requires one single value"))
    elif op in ("exists", "!"):
        if vals:
            errs.append(field.invalid(value_path, go_vals,
                                      "values set must be empty for exists and does not exist"))
    elif op in ("gt", "lt"):
        if len(vals) != 1:
            errs.append(field.invalid(value_path, go_vals,
                                      "for 'Gt', 'Lt' operators, exactly one value is required"))
        for i, v in enumerate(vals):
            if not _parses_as_int64(v):
                errs.append(field.invalid(value_path.index(i), v,
                                          "for 'Gt', 'Lt' operators, the value must be an integer"))
    for i, v in enumerate(vals):
        msgs = is_valid_label_value(v)
        if msgs:
            errs.append(field.invalid(value_path.index(i).key(key), v, "; ".join(msgs)))
    return errs
