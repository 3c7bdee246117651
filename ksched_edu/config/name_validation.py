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

from . import field
from .field import FieldError, Path
from .gofmt import GoValue

QNAME_CHAR_FMT = "[A-Za-z0-9]"
QNAME_EXT_CHAR_FMT = "[-A-Za-z0-9_.]"
QUALIFIED_NAME_FMT = "(" + QNAME_CHAR_FMT + QNAME_EXT_CHAR_FMT + "*)?" + QNAME_CHAR_FMT
QUALIFIED_NAME_ERR_MSG = ("must consist of alphanumeric characters, '-', '_' or '.', and must "
                          "start and end with an alphanumeric character")
QUALIFIED_NAME_MAX_LENGTH = 63

LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?"
LABEL_VALUE_ERR_MSG = ("a valid label must be an empty string or consist of alphanumeric "
                       "characters, '-', '_' or '.', and must start and end with an alphanumeric "
                       "character")
LABEL_VALUE_MAX_LENGTH = 63

DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*"
DNS1123_SUBDOMAIN_ERROR_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case "
                               "alphanumeric characters, '-' or '.', and must start and end with "
                               "an alphanumeric character")
DNS1123_SUBDOMAIN_MAX_LENGTH = 253

_QUALIFIED_NAME_RE = re.compile(QUALIFIED_NAME_FMT)
_LABEL_VALUE_RE = re.compile(LABEL_VALUE_FMT)
_DNS1123_SUBDOMAIN_RE = re.compile(DNS1123_SUBDOMAIN_FMT)


def _blen(s: str) -> int:
    return len(s.encode("utf-8"))  # upstream len() counts bytes


def max_len_error(length: int) -> str:
    return f"must be no more than {length} characters"


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    if not examples:
        return msg + " (regex used for validation is '" + fmt + "')"
    msg += " (e.g. "
    for i, example in enumerate(examples):
        if i > 0:
            msg += " or "
        msg += "'" + example + "', "
    return msg + "regex used for validation is '" + fmt + "')"


def empty_error() -> str:
    return "must be non-empty"


def is_dns1123_subdomain(value: str) -> list[str]:
    errs = []
    if _blen(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if not _DNS1123_SUBDOMAIN_RE.fullmatch(value):
        errs.append(regex_error(DNS1123_SUBDOMAIN_ERROR_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def is_qualified_name(value: str) -> list[str]:
    """An optional DNS-subdomain prefix and '/', then a name of at most 63 characters."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part " + empty_error())
        else:
            errs.extend("prefix part " + m for m in is_dns1123_subdomain(prefix))
    else:
        return errs + ["a qualified name " + regex_error(
            QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    if not name:
        errs.append("name part " + empty_error())
    elif _blen(name) > QUALIFIED_NAME_MAX_LENGTH:
        errs.append("name part " + max_len_error(QUALIFIED_NAME_MAX_LENGTH))
    if not _QUALIFIED_NAME_RE.fullmatch(name):
        errs.append("name part " + regex_error(
            QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"))
    return errs


def is_valid_label_value(value: str) -> list[str]:
    errs = []
    if _blen(value) > LABEL_VALUE_MAX_LENGTH:
        errs.append(max_len_error(LABEL_VALUE_MAX_LENGTH))
    if not _LABEL_VALUE_RE.fullmatch(value):
        errs.append(regex_error(LABEL_VALUE_ERR_MSG, LABEL_VALUE_FMT,
                                "MyValue", "my_value", "12345"))
    return errs


def validate_label_name(label_name: str, path: Optional[Path]) -> list[FieldError]:
    """metav1 validation.ValidateLabelName."""
    return [field.invalid(path, label_name, msg) for msg in is_qualified_name(label_name)]


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
