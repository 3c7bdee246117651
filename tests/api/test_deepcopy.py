"""deep_copy against copy.deepcopy, on every object the course's clusters hold.

Upstream's generated DeepCopy methods are tested by round trips (the copy equals the
original, and changing the copy leaves the original alone); these cases do the same.
"""
from __future__ import annotations

import copy
import dataclasses
import enum
from typing import Any, Iterator

import pytest

from ksched_edu.api.deepcopy import deep_copy
from ksched_edu.api.loader import load_cluster
from ksched_edu.api.quantity import Quantity
from ksched_edu.framework.types import PodInfo, Resource
from ksched_edu.resources import data_path

CLUSTERS = ["three-nodes.yaml", "preemption.yaml", "storage-zones.yaml", "ch12-claims.yaml",
            "ch07-train-pdb.yaml", "capstone-gpu-lab.yaml", "gpu-lab.yaml", "zones-100.yaml"]


def objects(name: str) -> list[Any]:
    cluster = load_cluster(data_path(f"clusters/{name}"))
    return [obj for f in dataclasses.fields(cluster) for obj in getattr(cluster, f.name)]


def mutable_parts(obj: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every list, dict and dataclass instance reachable from ``obj``, with its path."""
    if isinstance(obj, (list, dict)) or (dataclasses.is_dataclass(obj) and not isinstance(obj, type)):
        yield path, obj
    if isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from mutable_parts(v, f"{path}[{i}]")
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from mutable_parts(v, f"{path}[{k!r}]")
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from mutable_parts(getattr(obj, f.name), f"{path}.{f.name}")


@pytest.mark.parametrize("cluster", CLUSTERS)
def test_copies_equal_deepcopy_and_share_nothing_mutable(cluster: str) -> None:
    for obj in objects(cluster):
        got = deep_copy(obj)
        assert type(got) is type(obj)
        assert got == copy.deepcopy(obj) == obj
        originals = {id(part) for _, part in mutable_parts(obj)}
        shared = [path for path, part in mutable_parts(got) if id(part) in originals]
        assert shared == [], f"{cluster}: {type(obj).__name__} {getattr(obj, 'key', '')} shares {shared[:3]}"


def test_changing_the_copy_leaves_the_original() -> None:
    pod = next(o for o in objects("three-nodes.yaml") if type(o).__name__ == "Pod")
    before = copy.deepcopy(pod)
    got = deep_copy(pod)
    got.metadata.labels["changed"] = "yes"
    got.spec.containers[0].resources.requests["cpu"] = Quantity("7")
    got.spec.node_name = "elsewhere"
    assert pod == before


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Holder:
    items: list
    table: dict
    pair: tuple
    names: set
    colour: Colour
    quantity: Quantity


CASES = [
    # (what, value, same object expected)
    ("a string", "abc", True),
    ("an int", 10**30, True),
    ("None", None, True),
    ("an immutable Quantity", Quantity("1.5Gi"), True),
    ("an enum member", Colour.RED, True),
    ("a list of lists", [[1], [2]], False),
    ("a dict of dicts", {"a": {"b": 1}}, False),
    ("a tuple holding a list", ([1],), False),
    ("a set", {1, 2}, False),
    ("a dataclass", Holder([[1]], {"k": [2]}, ([3],), {4}, Colour.RED, Quantity("1")), False),
    ("a slots dataclass", Resource(1000, 2, 0, 110, {"nvidia.com/gpu": 1}), False),
]


@pytest.mark.parametrize("what,value,same", CASES, ids=[c[0] for c in CASES])
def test_values(what: str, value: Any, same: bool) -> None:
    got = deep_copy(value)
    assert got == value
    assert (got is value) is same


def test_nested_parts_are_copies() -> None:
    h = Holder([[1]], {"k": [2]}, ([3],), {4}, Colour.RED, Quantity("1"))
    got = deep_copy(h)
    assert got.items[0] is not h.items[0] and got.table["k"] is not h.table["k"] and got.pair[0] is not h.pair[0]
    assert got.colour is h.colour and got.quantity is h.quantity
    r = Resource(1, 2, 3, 4, {"x/y": 1})
    assert deep_copy(r).scalar_resources is not r.scalar_resources


def test_anything_else_goes_to_copy_deepcopy() -> None:
    pod = next(o for o in objects("preemption.yaml") if type(o).__name__ == "Pod")
    info = PodInfo.of(pod)
    got = deep_copy(info)
    assert got.pod == pod and got.pod is not pod
