"""YAML as kube-scheduler reads it: go-yaml v2's YAML 1.1 scalars, then JSON (sigs.k8s.io/yaml)."""
from __future__ import annotations

import math

import pytest

from ksched_edu.config.decode import _Abort, parse_duration
from ksched_edu.config.yamljson import YAMLError, resolve_plain, yaml_to_json


@pytest.mark.parametrize("plain,want", [
    ("", None), ("~", None), ("null", None),
    ("true", True), ("yes", True), ("on", True), ("y", True), ("Y", True),
    ("false", False), ("no", False), ("off", False), ("n", False),
    ("42", 42), ("-7", -7), ("+3", 3), ("0x1F", 31), ("017", 15), ("0o17", 15), ("0b101", 5),
    ("1_000", 1000), ("18446744073709551615", 2**64 - 1),
    ("1.5", 1.5), ("1e3", 1000.0), (".5", 0.5), ("-2.", -2.0),
    ("1:30", "1:30"),  # no sexagesimal numbers in go-yaml
    ("2024-01-02", "2024-01-02"),  # timestamps stay strings when decoded into interface{}
    ("08", 8.0),  # no octal integer, but go-yaml's float pattern accepts it
    ("abc", "abc"), ("1.2.3", "1.2.3"),
], ids=lambda v: repr(v))
def test_resolve_plain(plain: str, want: object) -> None:
    got = resolve_plain(plain)
    assert got == want and type(got) is type(want)


def test_special_floats() -> None:
    assert resolve_plain(".inf") == math.inf
    assert resolve_plain("-.Inf") == -math.inf
    assert math.isnan(resolve_plain(".nan"))


def test_quoted_scalars_are_strings() -> None:
    assert yaml_to_json("a: '1'\nb: \"yes\"\nc: |\n  2\n").value == {"a": "1", "b": "yes", "c": "2\n"}


def test_keys_become_strings() -> None:
    assert yaml_to_json("1: a\ntrue: b\n").value == {"1": "a", "true": "b"}


def test_duplicate_keys_in_document_order() -> None:
    conv = yaml_to_json("a: 1\nb:\n  c: 1\n  c: 2\na: 3\n")
    assert conv.value == {"a": 3, "b": {"c": 2}}  # the last value wins
    assert conv.strict_error() == ('yaml: unmarshal errors:\n  line 4: key "c" already set in map'
                                   '\n  line 5: key "a" already set in map')


def test_merge_keys() -> None:
    assert yaml_to_json("b: &b {x: 1}\nd:\n  <<: *b\n  z: 2\n").value == {
        "b": {"x": 1}, "d": {"x": 1, "z": 2}}


def test_only_the_first_document() -> None:
    assert yaml_to_json("a: 1\n---\nb: 2\n").value == {"a": 1}


def test_empty_document() -> None:
    assert yaml_to_json("").value is None


@pytest.mark.parametrize("text,want", [
    ("a: [b\n", "yaml: line 2: "),
    ("a: .nan\n", "json: unsupported value: NaN"),
])
def test_yaml_errors(text: str, want: str) -> None:
    with pytest.raises(YAMLError) as info:
        yaml_to_json(text)
    assert str(info.value).startswith(want)


@pytest.mark.parametrize("s,ns", [
    ("15s", 15_000_000_000), ("1m30s", 90_000_000_000), ("1.5h", 5_400_000_000_000),
    ("300ms", 300_000_000), ("2us", 2_000), ("2µs", 2_000), ("0", 0), ("-1s", -1_000_000_000),
])
def test_parse_duration(s: str, ns: int) -> None:
    assert parse_duration(s) == ns


@pytest.mark.parametrize("s,message", [
    ("abc", 'time: invalid duration "abc"'),
    ("15", 'time: missing unit in duration "15"'),
    ("15x", 'time: unknown unit "x" in duration "15x"'),
    ("", 'time: invalid duration ""'),
])
def test_parse_duration_errors(s: str, message: str) -> None:
    with pytest.raises(_Abort) as info:
        parse_duration(s)
    assert str(info.value) == message
