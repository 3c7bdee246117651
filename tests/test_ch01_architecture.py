"""Chapter 01 (architecture): the checks its teaching cells leave out.

- Section 1 prints, for each step from the command line to the scheduling loop, the Go it
  ports (or why it has none); every row is checked here.
- Section 2 shows the ``Scheduler`` class, its constructor, ``Scheduler.run`` and
  ``PriorityQueue.start`` in SourceViews: each view reads the anchor the port declares.
"""
from __future__ import annotations

from typing import Any, Optional

import pytest

from ksched_edu import cli
from ksched_edu.anchors import record_of, upstream
from ksched_edu.eventhandlers import add_all_event_handlers
from ksched_edu.internal.queue.scheduling_queue import PriorityQueue
from ksched_edu.profile import new_map
from ksched_edu.scheduler import Scheduler
from ksched_edu.sim.simulation import Simulation
from tests.chapter_views import assert_beside_its_go

pytestmark = pytest.mark.ch01

# Section 1: the start-up path, step by step -> the Go it ports (None: the port's own, with a reason).
ENTRY = [
    ("cli.main", cli.main, None),
    ("Simulation", Simulation, None),
    ("Scheduler.__init__", Scheduler.__init__, "New"),
    ("new_map", new_map, "NewMap"),
    ("add_all_event_handlers", add_all_event_handlers, "addAllEventHandlers"),
    ("Simulation.run", Simulation.run, None),
    ("Scheduler.run", Scheduler.run, "(*Scheduler).Run"),
    ("PriorityQueue.start", PriorityQueue.start, "(*PriorityQueue).Run"),
    ("Scheduler.schedule_one", Scheduler.schedule_one, "(*Scheduler).ScheduleOne"),
]


@pytest.mark.parametrize("name, obj, go", ENTRY, ids=[row[0] for row in ENTRY])
def test_each_start_up_step_names_its_go_or_why_it_has_none(name: str, obj: Any, go: Optional[str]) -> None:
    anchor = upstream(obj)
    if go is None:
        assert anchor is None and record_of(obj).reason, f"{name} should be the port's own, with a reason"
    else:
        assert anchor is not None and anchor.go == go


# Section 2: the SourceViews -> (upstream file, Go identifier).
SOURCE_VIEWS = [
    (Scheduler, "pkg/scheduler/scheduler.go", "Scheduler"),
    (Scheduler.__init__, "pkg/scheduler/scheduler.go", "New"),
    (Scheduler.run, "pkg/scheduler/scheduler.go", "(*Scheduler).Run"),
    (PriorityQueue.start, "pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).Run"),
]


@pytest.mark.parametrize("obj, path, go", SOURCE_VIEWS, ids=[row[2] for row in SOURCE_VIEWS])
def test_each_source_view_stands_beside_its_go(offline_go: None, obj: Any, path: str, go: str) -> None:
    assert_beside_its_go(obj, path, go)
