"""The Scheduler's declared fields (scheduler.go's struct, and the port's own) are what New sets."""
from __future__ import annotations

import typing

import pytest

from ksched_edu.config.loader import default_config
from ksched_edu.scheduler import Scheduler

# The Go struct's fields that the port keeps as attributes, in the struct's order.
GO_FIELDS_KEPT = ["cache", "scheduling_queue", "profiles", "client", "node_info_snapshot",
                  "percentage_of_nodes_to_score", "next_start_node_index"]


def test_the_go_fields_come_first_in_the_struct_order() -> None:
    declared = list(Scheduler.__annotations__)
    assert declared[:len(GO_FIELDS_KEPT)] == GO_FIELDS_KEPT


@pytest.mark.parametrize("field", list(Scheduler.__annotations__))
def test_new_sets_every_declared_field(field: str) -> None:
    sched = Scheduler(default_config())
    assert hasattr(sched, field), f"Scheduler declares {field} but __init__ (New) does not set it"


def test_the_declared_types_resolve() -> None:
    hints = typing.get_type_hints(Scheduler)
    assert set(hints) == set(Scheduler.__annotations__)
