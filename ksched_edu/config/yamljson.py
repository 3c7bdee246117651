"""Port of sigs.k8s.io/yaml's YAMLToJSON over gopkg.in/yaml.v2 (as vendored by kube-scheduler v1.30).

kube-scheduler never reads YAML directly: it converts the file to JSON
first, with go-yaml v2's YAML 1.1 rules for plain scalars (``yes``/``y``/
``on`` are booleans, ``1e3`` is a float, ``0x1F`` and ``017`` are integers,
timestamps stay strings), object keys turned into strings, and, in the
strict pass, every duplicated key reported as
``line N: key "k" already set in map``. This module does the same on top of
PyYAML's composer, so the decoder sees what Go's decoder sees.

Deviations:
- Syntax errors carry PyYAML's wording (``yaml: line 3: ...``), not go-yaml's.
- A JSON document (``{...}``) goes through the same path; upstream would
  decode it with the JSON serializer and report duplicate keys as
  ``duplicate field``.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Optional

import yaml

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from .gofmt import format_float_g, go_quote

_MERGE_TAG = "tag:yaml.org,2002:merge"
_PLAIN_TAG = "tag:ksched-edu:plain"
_STR_TAG = "tag:yaml.org,2002:str"

_NULLS = {"", "~", "null", "Null", "NULL"}
_TRUES = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}
_FALSES = {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}
_POS_INF = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}
_NEG_INF = {"-.inf", "-.Inf", "-.INF"}
_NANS = {".nan", ".NaN", ".NAN"}
_YAML_STYLE_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_GO_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?[iI]nf(inity)?|NaN")


@plumbing("the error a file that is not valid YAML raises")
class YAMLError(ValueError):
    """The file is not YAML that kube-scheduler could turn into JSON."""


class _Loader(yaml.SafeLoader):
    """Composes nodes only; plain scalars keep a marker tag and are resolved the go-yaml way."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:  # type: ignore[override]
        if kind is yaml.ScalarNode:
            if implicit[0]:
                return _MERGE_TAG if value == "<<" else _PLAIN_TAG
            return _STR_TAG
        return super().resolve(kind, value, implicit)


def _parse_go_int(s: str) -> Optional[int]:
    """strconv.ParseInt(s, 0, 64), falling back to ParseUint: None when it is no integer."""
    m = re.fullmatch(r"([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)", s)
    if not m:
        return None
    sign, digits = m.groups()
    low = digits.lower()
    if low.startswith("0x"):
        v = int(low[2:], 16)
    elif low.startswith("0o"):
        v = int(low[2:], 8)
    elif low.startswith("0b"):
        v = int(low[2:], 2)
    elif len(digits) > 1 and digits[0] == "0":
        v = int(digits, 8)
    else:
        v = int(digits)
    if sign == "-":
        v = -v
        return v if v >= -(2**63) else None
    if v <= 2**63 - 1:
        return v
    return v if (sign == "" and v <= 2**64 - 1) else None


@ports("vendor/gopkg.in/yaml.v2/resolve.go", "resolve", 86, 197, repo=SCHEDULER_PLUGINS)
def resolve_plain(value: str) -> Any:
    """go-yaml v2's resolve() of an untagged plain scalar, as decoded into interface{}."""
    if value in _NULLS:
        return None
    if value in _TRUES:
        return True
    if value in _FALSES:
        return False
    if value in _POS_INF:
        return math.inf
    if value in _NEG_INF:
        return -math.inf
    if value in _NANS:
        return math.nan
    first = value[0]
    if first == ".":
        if _GO_FLOAT.fullmatch(value):
            return float(value)
        return value
    if first.isdigit() or first in "+-":
        plain = value.replace("_", "")
        iv = _parse_go_int(plain)
        if iv is not None:
            return iv
        if _YAML_STYLE_FLOAT.fullmatch(plain):
            return float(plain)
    return value  # timestamps and everything else stay strings


def _explicit(node: yaml.ScalarNode) -> Any:
    tag = node.tag
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool"):
        return resolve_plain(node.value)
    return node.value


@plumbing("a converted document with the duplicate-key errors of the strict pass")
@dataclass
class Converted:
    """A YAML document as JSON-able Python values, with what the strict pass would say."""

    value: Any
    duplicate_key_errors: list[str] = field(default_factory=list)

    @ports("vendor/gopkg.in/yaml.v2/yaml.go", "(*TypeError).Error", 274, 276, repo=SCHEDULER_PLUGINS)
    def strict_error(self) -> Optional[str]:
        """go-yaml's TypeError text for the duplicated keys, or None."""
        if not self.duplicate_key_errors:
            return None
        return "yaml: unmarshal errors:\n  " + "\n  ".join(self.duplicate_key_errors)


def _key_string(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int):
        return str(key)
    if isinstance(key, float):
        if math.isinf(key):
            return ".inf" if key > 0 else "-.inf"
        if math.isnan(key):
            return ".nan"
        return format_float_g(float(f"{key:.7g}"))  # upstream formats keys as float32
    raise YAMLError(f"Unsupported map key of type: {type(key).__name__}, key: {key!r}")


def _go_key_repr(key: Any) -> str:
    """%#v of a map key held in an interface{}."""
    if isinstance(key, str):
        return go_quote(key)
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "<nil>"
    if isinstance(key, float):
        return format_float_g(key)
    return str(key)


@ports("vendor/sigs.k8s.io/yaml/yaml.go", "convertToJSONableObject", 142, 319, repo=SCHEDULER_PLUGINS)
def _convert(node: yaml.Node, dups: list[str]) -> Any:
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _PLAIN_TAG:
            return resolve_plain(node.value)
        return _explicit(node)
    if isinstance(node, yaml.SequenceNode):
        return [_convert(child, dups) for child in node.value]
    if isinstance(node, yaml.MappingNode):
        _Loader.flatten_mapping(_FLATTENER, node)
        out: dict[str, Any] = {}
        seen: set[Any] = set()
        for key_node, value_node in node.value:
            key = _convert(key_node, dups)
            if isinstance(key, (list, dict)):
                raise YAMLError(f"yaml: line {key_node.start_mark.line + 1}: invalid map key")
            value = _convert(value_node, dups)
            hashable = (type(key).__name__, key) if not isinstance(key, float) else ("float", key)
            if hashable in seen:
                dups.append(f"line {value_node.start_mark.line + 1}: key "
                            f"{_go_key_repr(key)} already set in map")
            seen.add(hashable)
            out[_key_string(key)] = value  # the non-strict pass keeps the last value
        return out
    raise YAMLError(f"unexpected YAML node {type(node).__name__}")


class _Flattener(_Loader):
    def __init__(self) -> None:  # only flatten_mapping is used; no stream
        pass


_FLATTENER = _Flattener()


@ports("vendor/sigs.k8s.io/yaml/yaml.go", "yamlToJSON", 121, 140, repo=SCHEDULER_PLUGINS)
def yaml_to_json(data: str) -> Converted:
    """Parse the first YAML document of ``data`` into JSON-able values (None for an empty one)."""
    try:
        nodes = yaml.compose_all(data, Loader=_Loader)
        first = next(iter(nodes), None)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = f"line {mark.line + 1}: " if mark is not None else ""
        raise YAMLError(f"yaml: {line}{e.problem or e.context}") from None
    except yaml.YAMLError as e:
        raise YAMLError(f"yaml: {e}") from None
    if first is None:
        return Converted(None)
    dups: list[str] = []
    try:
        value = _convert(first, dups)
    except yaml.MarkedYAMLError as e:  # a bad merge key ("<<")
        mark = e.problem_mark or e.context_mark
        line = f"line {mark.line + 1}: " if mark is not None else ""
        raise YAMLError(f"yaml: {line}{e.problem or e.context}") from None
    _check_json_marshalable(value)
    return Converted(value, dups)


def _check_json_marshalable(value: Any) -> None:
    """encoding/json.Marshal refuses NaN and infinities."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        raise YAMLError(f"json: unsupported value: {format_float_g(value)}")
    if isinstance(value, list):
        for v in value:
            _check_json_marshalable(v)
    elif isinstance(value, dict):
        for v in value.values():
            _check_json_marshalable(v)
