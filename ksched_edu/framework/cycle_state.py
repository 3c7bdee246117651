"""Port of pkg/scheduler/framework/cycle_state.go (v1.30).

CycleState is the scratch pad of one scheduling cycle: plugins write what
PreFilter computed and read it back in Filter and Score. ``clone()`` copies it
for the preemption dry runs, asking each stored value to clone itself.

Deviations:
- No lock: a simulation runs one step at a time.
"""
from __future__ import annotations

from typing import Any

from ..anchors import plumbing, ports


@plumbing("exception standing in for upstream's ErrNotFound sentinel error")
class StateNotFoundError(KeyError):
    """Upstream ErrNotFound: "not found"."""

    def __str__(self) -> str:
        return "not found"


@ports("pkg/scheduler/framework/cycle_state.go", "CycleState", 48, 57)
class CycleState:
    @ports("pkg/scheduler/framework/cycle_state.go", "NewCycleState", 60, 62)
    def __init__(self) -> None:
        self._storage: dict[str, Any] = {}
        # Plugins whose PreFilter / PreScore returned Skip: their Filter / Score does not run.
        self.skip_filter_plugins: set[str] = set()
        self.skip_score_plugins: set[str] = set()

    @ports("pkg/scheduler/framework/cycle_state.go", "(*CycleState).Read", 104, 109)
    def read(self, key: str) -> Any:
        try:
            return self._storage[key]
        except KeyError:
            raise StateNotFoundError(key) from None

    @ports("pkg/scheduler/framework/cycle_state.go", "(*CycleState).Write", 114, 116)
    def write(self, key: str, value: Any) -> None:
        self._storage[key] = value

    @ports("pkg/scheduler/framework/cycle_state.go", "(*CycleState).Delete", 121, 123)
    def delete(self, key: str) -> None:
        self._storage.pop(key, None)

    @plumbing("lists the stored entries for the trace")
    def items(self) -> list[tuple[str, Any]]:
        """The stored (key, value) pairs, in the order they were first written."""
        return list(self._storage.items())

    @ports("pkg/scheduler/framework/cycle_state.go", "(*CycleState).Clone", 82, 98)
    def clone(self) -> "CycleState":
        c = CycleState()
        for k, v in self._storage.items():
            c._storage[k] = v.clone() if hasattr(v, "clone") else v
        c.skip_filter_plugins = set(self.skip_filter_plugins)
        c.skip_score_plugins = set(self.skip_score_plugins)
        return c
