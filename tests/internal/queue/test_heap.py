"""Tests of internal/queue/heap.py, mirroring heap_test.go (v1.30)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_edu.internal.queue.heap import Heap

pytestmark = pytest.mark.ch02


class Obj:
    def __init__(self, name: str, val: int) -> None:
        self.name = name
        self.val = val


def key(o: Obj) -> str:
    return o.name


def less(a: Obj, b: Obj) -> bool:
    return a.val < b.val


def check_invariant(h: Heap) -> None:
    """Every item sits where its index says, the map and the array agree, and the heap order holds."""
    q = h._queue
    assert len(q) == len(h._items)
    for i, item in enumerate(q):
        assert item.index == i
        assert h._items[item.key] is item
        if i > 0:
            assert not h._less(i, (i - 1) // 2)


def test_heap_basic():
    """TestHeapBasic: pushed in reverse, popped in order."""
    h = Heap(key, less)
    amount = 500
    for i in range(amount, 0, -1):
        h.add(Obj(f"a{i}", i))
    check_invariant(h)
    prev = 0
    for _ in range(amount):
        item = h.pop()
        assert item.val > prev
        prev = item.val
    assert len(h) == 0


def test_heap_add():
    """TestHeap_Add: adding an existing key replaces the object and fixes its place."""
    h = Heap(key, less)
    h.add(Obj("foo", 10))
    h.add(Obj("bar", 1))
    h.add(Obj("baz", 11))
    h.add(Obj("zab", 30))
    h.add(Obj("foo", 13))  # replaces foo
    assert [h.pop().val for _ in range(len(h))] == [1, 11, 13, 30]
    h.add(Obj("baz", 14))
    h.add(Obj("foo", 2))  # smallest now
    assert h.pop().name == "foo"


def test_heap_delete():
    """TestHeap_Delete."""
    h = Heap(key, less)
    for name, val in [("foo", 10), ("bar", 1), ("bal", 31), ("baz", 11)]:
        h.add(Obj(name, val))
    assert h.delete(Obj("bar", 200))
    check_invariant(h)
    assert h.pop().name == "foo"
    h.add(Obj("bop", 30))
    h.add(Obj("bap", 9))
    assert h.delete(Obj("bal", 31))
    assert h.delete(Obj("baz", 11))
    assert not h.delete(Obj("missing", 0))
    assert [h.pop().name for _ in range(len(h))] == ["bap", "bop"]


def test_heap_update():
    """TestHeap_Update: update is add."""
    h = Heap(key, less)
    h.add(Obj("foo", 10))
    h.add(Obj("bar", 1))
    h.add(Obj("bal", 31))
    h.update(Obj("baz", 11))
    h.update(Obj("bar", 100))
    assert h.pop().name == "foo"
    assert h.pop().name == "baz"


def test_heap_get_and_list():
    """TestHeap_Get, TestHeap_GetByKey, TestHeap_List."""
    h = Heap(key, less)
    objs = {"foo": 10, "bar": 1, "bal": 31, "baz": 11, "faz": 30}
    for name, val in objs.items():
        h.add(Obj(name, val))
    assert h.get(Obj("baz", 0)).val == 11
    assert h.get_by_key("bal").val == 31
    assert h.get(Obj("non-existing", 0)) is None
    assert h.has(Obj("foo", 0)) and not h.has(Obj("nope", 0))
    assert {o.name: o.val for o in h.list()} == objs
    assert [o.val for o in h.sorted()] == sorted(objs.values())
    assert len(h) == len(objs)  # sorted() leaves the heap alone


def test_peek_and_pop_empty():
    h = Heap(key, less)
    assert h.peek() is None
    with pytest.raises(IndexError):
        h.pop()


def test_tie_fn_orders_items_less_cannot():
    """With a tie function, equal items come out in tie order; without one, in container/heap's order."""
    h = Heap(key, lambda a, b: False, tie_fn=lambda o: o.val)
    for i in [3, 1, 4, 0, 2, 5]:
        h.add(Obj(f"p{i}", i))
    assert [h.pop().val for _ in range(6)] == [0, 1, 2, 3, 4, 5]
    # Go's container/heap on five equal items pushed in order pops 1, 5, 4, 3, 2.
    g = Heap(key, lambda a, b: False)
    for i in range(1, 6):
        g.add(Obj(f"p{i}", i))
    assert [g.pop().val for _ in range(5)] == [1, 5, 4, 3, 2]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "delete", "pop"]), st.integers(0, 15), st.integers(0, 9)),
                max_size=60))
def test_heap_matches_a_sorted_model(ops):
    """Random adds, deletes and pops keep the index map right and pop the minimum."""
    h = Heap(key, less)
    model: dict[str, int] = {}
    for op, k, v in ops:
        name = f"k{k}"
        if op == "add":
            h.add(Obj(name, v))
            model[name] = v
        elif op == "delete":
            assert h.delete(Obj(name, 0)) == (name in model)
            model.pop(name, None)
        elif model:
            got = h.pop()
            assert got.val == min(model.values())
            del model[got.name]
        check_invariant(h)
        assert {o.name: o.val for o in h.list()} == model


def test_many_random_items_sort():
    rng = random.Random(7)
    h = Heap(key, less)
    vals = [rng.randrange(1000) for _ in range(2000)]
    for i, v in enumerate(vals):
        h.add(Obj(str(i), v))
    assert [h.pop().val for _ in range(len(vals))] == sorted(vals)
