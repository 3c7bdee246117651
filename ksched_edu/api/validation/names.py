"""Port of k8s.io/apimachinery/pkg/util/validation/validation.go (v1.30), with the name
functions of apimachinery/pkg/api/validation/generic.go and api/validation/path/name.go.

These are the string checks every other validator is built from: qualified
names (label keys, annotation keys, resource names), label values, DNS-1123
labels and subdomains (object names), DNS-1035 labels (Service names), port
numbers and percentages. Each returns a list of upstream's messages, empty
when the value is fine.
"""
from __future__ import annotations

import re

from ...anchors import SCHEDULER_PLUGINS, ports

QNAME_CHAR_FMT = "[A-Za-z0-9]"
QNAME_EXT_CHAR_FMT = "[-A-Za-z0-9_.]"
QUALIFIED_NAME_FMT = "(" + QNAME_CHAR_FMT + QNAME_EXT_CHAR_FMT + "*)?" + QNAME_CHAR_FMT
QUALIFIED_NAME_ERR_MSG = ("must consist of alphanumeric characters, '-', '_' or '.', "
                          "and must start and end with an alphanumeric character")
QUALIFIED_NAME_MAX_LENGTH = 63

LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?"
LABEL_VALUE_ERR_MSG = ("a valid label must be an empty string or consist of alphanumeric characters, "
                       "'-', '_' or '.', and must start and end with an alphanumeric character")
LABEL_VALUE_MAX_LENGTH = 63

DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_LABEL_ERR_MSG = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters "
                         "or '-', and must start and end with an alphanumeric character")
DNS1123_LABEL_MAX_LENGTH = 63

DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*"
DNS1123_SUBDOMAIN_ERROR_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                               "characters, '-' or '.', and must start and end with an alphanumeric character")
DNS1123_SUBDOMAIN_MAX_LENGTH = 253

DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?"
DNS1035_LABEL_ERR_MSG = ("a DNS-1035 label must consist of lower case alphanumeric characters or '-', "
                         "start with an alphabetic character, and end with an alphanumeric character")
DNS1035_LABEL_MAX_LENGTH = 63

PERCENT_FMT = "[0-9]+%"
PERCENT_ERR_MSG = "a valid percent string must be a numeric string followed by an ending '%'"


def _whole(fmt: str) -> re.Pattern[str]:
    # Go's regexp "$" matches only at the very end; Python's fullmatch does the same.
    return re.compile(fmt)


_QUALIFIED_NAME = _whole(QUALIFIED_NAME_FMT)
_LABEL_VALUE = _whole(LABEL_VALUE_FMT)
_DNS1123_LABEL = _whole(DNS1123_LABEL_FMT)
_DNS1123_SUBDOMAIN = _whole(DNS1123_SUBDOMAIN_FMT)
_DNS1035_LABEL = _whole(DNS1035_LABEL_FMT)
_PERCENT = _whole(PERCENT_FMT)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/validation.go", "MaxLenError", 476, 478, repo=SCHEDULER_PLUGINS)
def max_len_error(length: int) -> str:
    return f"must be no more than {length} characters"


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/validation.go", "RegexError", 481, 494, repo=SCHEDULER_PLUGINS)
def regex_error(msg: str, fmt: str, *examples: str) -> str:
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {shown}regex used for validation is '{fmt}')"


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/validation.go", "EmptyError", 498, 500, repo=SCHEDULER_PLUGINS)
def empty_error() -> str:
    return "must be non-empty"


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/validation.go", "InclusiveRangeError", 511, 513, repo=SCHEDULER_PLUGINS)
def inclusive_range_error(lo: int, hi: int) -> str:
    return f"must be between {lo} and {hi}, inclusive"


def _blen(s: str) -> int:
    return len(s.encode("utf-8"))  # upstream len() counts bytes


def _matches(pattern: re.Pattern[str], value: str) -> bool:
    return pattern.fullmatch(value) is not None


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/validation.go", "IsQualifiedName", 42, 71, repo=SCHEDULER_PLUGINS)
def is_qualified_name(value: str) -> list[str]:
    """Upstream IsQualifiedName: ``[prefix/]name``, the prefix a DNS subdomain."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part " + empty_error())
        else:
            errs += ["prefix part " + m for m in is_dns1123_subdomain(prefix)]
    else:
        return ["a qualified name " + regex_error(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT,
                                                  "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    if not name:
        errs.append("name part " + empty_error())
    elif _blen(name) > QUALIFIED_NAME_MAX_LENGTH:
        errs.append("name part " + max_len_error(QUALIFIED_NAME_MAX_LENGTH))
    if not _matches(_QUALIFIED_NAME, name):
        errs.append("name part " + regex_error(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT,
                                               "MyName", "my.name", "123-abc"))
    return errs


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/validation.go", "IsValidLabelValue", 166, 175, repo=SCHEDULER_PLUGINS)
def is_valid_label_value(value: str) -> list[str]:
    errs: list[str] = []
    if _blen(value) > LABEL_VALUE_MAX_LENGTH:
        errs.append(max_len_error(LABEL_VALUE_MAX_LENGTH))
    if not _matches(_LABEL_VALUE, value):
        errs.append(regex_error(LABEL_VALUE_ERR_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/validation.go", "IsDNS1123Label", 187, 202, repo=SCHEDULER_PLUGINS)
def is_dns1123_label(value: str) -> list[str]:
    errs: list[str] = []
    if _blen(value) > DNS1123_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_LABEL_MAX_LENGTH))
    if not _matches(_DNS1123_LABEL, value):
        if _matches(_DNS1123_SUBDOMAIN, value):
            errs.append("must not contain dots")  # a valid subdomain, so it is the dots
        else:
            errs.append(regex_error(DNS1123_LABEL_ERR_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"))
    return errs


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/validation.go", "IsDNS1123Subdomain", 214, 223, repo=SCHEDULER_PLUGINS)
def is_dns1123_subdomain(value: str) -> list[str]:
    errs: list[str] = []
    if _blen(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if not _matches(_DNS1123_SUBDOMAIN, value):
        errs.append(regex_error(DNS1123_SUBDOMAIN_ERROR_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/validation.go", "IsDNS1035Label", 235, 244, repo=SCHEDULER_PLUGINS)
def is_dns1035_label(value: str) -> list[str]:
    errs: list[str] = []
    if _blen(value) > DNS1035_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1035_LABEL_MAX_LENGTH))
    if not _matches(_DNS1035_LABEL, value):
        errs.append(regex_error(DNS1035_LABEL_ERR_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"))
    return errs


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/validation.go", "IsValidPortNum", 283, 288, repo=SCHEDULER_PLUGINS)
def is_valid_port_num(port: int) -> list[str]:
    return [] if 1 <= port <= 65535 else [inclusive_range_error(1, 65535)]


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/validation.go", "IsValidPercent", 398, 403, repo=SCHEDULER_PLUGINS)
def is_valid_percent(percent: str) -> list[str]:
    return [] if _matches(_PERCENT, percent) else [regex_error(PERCENT_ERR_MSG, PERCENT_FMT, "1%", "93%")]


# --- apimachinery/pkg/api/validation/generic.go: name functions -----------------------


def _mask_trailing_dash(name: str) -> str:
    # upstream maskTrailingDash: a generateName prefix may end in '-'
    if len(name) > 1 and name.endswith("-"):
        return name[:-2] + "a"
    return name


@ports("vendor/k8s.io/apimachinery/pkg/api/validation/generic.go", "NameIsDNSSubdomain", 37, 42, repo=SCHEDULER_PLUGINS)
def name_is_dns_subdomain(name: str, prefix: bool = False) -> list[str]:
    return is_dns1123_subdomain(_mask_trailing_dash(name) if prefix else name)


@ports("vendor/k8s.io/apimachinery/pkg/api/validation/generic.go", "NameIsDNSLabel", 45, 50, repo=SCHEDULER_PLUGINS)
def name_is_dns_label(name: str, prefix: bool = False) -> list[str]:
    return is_dns1123_label(_mask_trailing_dash(name) if prefix else name)


@ports("vendor/k8s.io/apimachinery/pkg/api/validation/generic.go", "NameIsDNS1035Label", 53, 58, repo=SCHEDULER_PLUGINS)
def name_is_dns1035_label(name: str, prefix: bool = False) -> list[str]:
    return is_dns1035_label(_mask_trailing_dash(name) if prefix else name)


validate_namespace_name = name_is_dns_label
validate_node_name = name_is_dns_subdomain
validate_pod_name = name_is_dns_subdomain
validate_priority_class_name = name_is_dns_subdomain
validate_service_name = name_is_dns1035_label


# --- apimachinery/pkg/api/validation/path/name.go -------------------------------------

NAME_MAY_NOT_BE = (".", "..")
NAME_MAY_NOT_CONTAIN = ("/", "%")


@ports("vendor/k8s.io/apimachinery/pkg/api/validation/path/name.go", "ValidatePathSegmentName", 62, 68, repo=SCHEDULER_PLUGINS)
def validate_path_segment_name(name: str, prefix: bool = False) -> list[str]:
    """Upstream ValidatePathSegmentName: the name must fit in a URL path."""
    if not prefix and name in NAME_MAY_NOT_BE:
        return [f"may not be '{name}'"]
    return [f"may not contain '{c}'" for c in NAME_MAY_NOT_CONTAIN if c in name]
