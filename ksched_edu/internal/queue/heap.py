"""Port of pkg/scheduler/internal/heap/heap.go (v1.30).

A binary heap that also keeps a map from each item's key to its slot, so the
scheduling queue can find, update and delete a pod by its key in O(log n)
besides pushing and popping. The sift-up and sift-down steps are those of
Go's ``container/heap``, so items the less function cannot order come out in
the same order as upstream's.

Deviations:
- ``delete`` returns False where upstream returns "object not found";
  ``pop`` on an empty heap raises IndexError (upstream's heap.Pop panics).
- Optional ``tie_fn``: when ``less`` orders neither of two items, the one with
  the smaller tie value goes first. The scheduling queue uses it because
  many pods share one instant on the virtual clock, where upstream's
  nanosecond timestamps would still tell them apart. Without it the heap is
  upstream's exactly.
- No metric recorder: ``len()`` is the gauge upstream keeps.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, Iterator, Optional, TypeVar

from ...anchors import plumbing, ports

T = TypeVar("T")

KeyFunc = Callable[[Any], str]
LessFunc = Callable[[Any, Any], bool]


@ports("pkg/scheduler/internal/heap/heap.go", "heapItem", 34, 37)
class _HeapItem(Generic[T]):
    """An object stored in the heap and its index in the heap's array."""

    __slots__ = ("key", "obj", "index", "tie")

    def __init__(self, key: str, obj: T, index: int, tie: Any) -> None:
        self.key = key
        self.obj = obj
        self.index = index
        self.tie = tie


@ports("pkg/scheduler/internal/heap/heap.go", "Heap", 127, 134)
class Heap(Generic[T]):
    """A keyed binary heap (upstream heap.Heap, with its ``data`` folded in)."""

    @ports("pkg/scheduler/internal/heap/heap.go", "New", 227, 229)
    def __init__(self, key_fn: KeyFunc, less_fn: LessFunc, tie_fn: Optional[Callable[[T], Any]] = None) -> None:
        self.key_fn = key_fn
        self.less_fn = less_fn
        self.tie_fn = tie_fn
        # items: key -> item; queue: the heap array. An item is in one iff it is in the other.
        self._items: dict[str, _HeapItem[T]] = {}
        self._queue: list[_HeapItem[T]] = []

    # --- the heap.Interface of upstream's data -----------------------------------

    @ports("pkg/scheduler/internal/heap/heap.go", "(*data).Less", 68, 81)
    def _less(self, i: int, j: int) -> bool:
        a, b = self._queue[i], self._queue[j]
        if self.less_fn(a.obj, b.obj):
            return True
        if self.tie_fn is None or not a.tie < b.tie:
            return False
        return not self.less_fn(b.obj, a.obj)

    @ports("pkg/scheduler/internal/heap/heap.go", "(*data).Swap", 88, 94)
    def _swap(self, i: int, j: int) -> None:
        q = self._queue
        q[i], q[j] = q[j], q[i]
        q[i].index = i
        q[j].index = j

    # --- container/heap's algorithms ----------------------------------------------

    def _up(self, j: int) -> None:
        while j > 0:
            i = (j - 1) // 2  # parent
            if not self._less(j, i):
                break
            self._swap(i, j)
            j = i

    def _down(self, i0: int, n: int) -> bool:
        i = i0
        while True:
            j1 = 2 * i + 1
            if j1 >= n:
                break
            j = j1  # left child
            j2 = j1 + 1
            if j2 < n and self._less(j2, j1):
                j = j2  # right child
            if not self._less(j, i):
                break
            self._swap(i, j)
            i = j
        return i > i0

    def _fix(self, i: int) -> None:
        if not self._down(i, len(self._queue)):
            self._up(i)

    def _remove_at(self, i: int) -> _HeapItem[T]:
        n = len(self._queue) - 1
        if n != i:
            self._swap(i, n)
            if not self._down(i, n):
                self._up(i)
        item = self._queue.pop()
        del self._items[item.key]
        return item

    def _tie(self, obj: T) -> Any:
        return self.tie_fn(obj) if self.tie_fn is not None else None

    # --- Heap ------------------------------------------------------------------------

    @ports("pkg/scheduler/internal/heap/heap.go", "(*Heap).Add", 138, 153)
    def add(self, obj: T) -> None:
        """Insert ``obj``, or replace the item with the same key and restore the order."""
        key = self.key_fn(obj)
        item = self._items.get(key)
        if item is not None:
            item.obj = obj
            item.tie = self._tie(obj)
            self._fix(item.index)
            return
        item = _HeapItem(key, obj, len(self._queue), self._tie(obj))
        self._items[key] = item
        self._queue.append(item)
        self._up(item.index)

    @ports("pkg/scheduler/internal/heap/heap.go", "(*Heap).Update", 157, 159)
    def update(self, obj: T) -> None:
        """The same as :meth:`add` (upstream: an absent item is added)."""
        self.add(obj)

    @ports("pkg/scheduler/internal/heap/heap.go", "(*Heap).Delete", 162, 175)
    def delete(self, obj: T) -> bool:
        """Remove the item with ``obj``'s key; False when there is none."""
        item = self._items.get(self.key_fn(obj))
        if item is None:
            return False
        self._remove_at(item.index)
        return True

    @ports("pkg/scheduler/internal/heap/heap.go", "(*Heap).Peek", 178, 180)
    def peek(self) -> Optional[T]:
        return self._queue[0].obj if self._queue else None

    @ports("pkg/scheduler/internal/heap/heap.go", "(*Heap).Pop", 183, 192)
    def pop(self) -> T:
        if not self._queue:
            raise IndexError("pop from an empty heap")
        return self._remove_at(0).obj

    @ports("pkg/scheduler/internal/heap/heap.go", "(*Heap).Get", 195, 201)
    def get(self, obj: T) -> Optional[T]:
        return self.get_by_key(self.key_fn(obj))

    @ports("pkg/scheduler/internal/heap/heap.go", "(*Heap).GetByKey", 204, 210)
    def get_by_key(self, key: str) -> Optional[T]:
        item = self._items.get(key)
        return item.obj if item is not None else None

    @plumbing("Python convenience: whether an item with this key is in the heap")
    def has(self, obj: T) -> bool:
        return self.key_fn(obj) in self._items

    @ports("pkg/scheduler/internal/heap/heap.go", "(*Heap).List", 213, 219)
    def list(self) -> list[T]:
        """Every item, in heap-array order (upstream: map order)."""
        return [item.obj for item in self._queue]

    @plumbing("for views: the items in pop order, without popping them")
    def sorted(self) -> list[T]:
        """Every item in the order successive pops would return them (for views)."""
        clone: Heap[T] = Heap(self.key_fn, self.less_fn, self.tie_fn)
        clone._queue = [_HeapItem(it.key, it.obj, it.index, it.tie) for it in self._queue]
        clone._items = {it.key: it for it in clone._queue}
        return [clone.pop() for _ in range(len(clone))]

    @ports("pkg/scheduler/internal/heap/heap.go", "(*Heap).Len", 222, 224)
    def __len__(self) -> int:
        return len(self._queue)

    def __iter__(self) -> Iterator[T]:
        return iter(self.list())
