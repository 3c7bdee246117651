"""Chapter 01 (architecture): the checks its teaching cells leave out.

- Section 1 prints, for each step from the command line to the scheduling loop, the Go it
  ports (or why it has none); every row is checked here.
- Section 2 shows the ``Scheduler`` class, its constructor, ``Scheduler.run`` and
  ``PriorityQueue.start`` in SourceViews: each view reads the anchor the port declares.
- The callouts about the walkthroughs' names (sections 2 and 5) cite the lines the port's anchors
  give; with a v1.30.4 checkout (see tests/test_ch00_tour.py), ``New`` adds the event handlers and
  server.go's ``Run`` does not, ``addAllEventHandlers`` adds two pod handlers and one node handler
  (section 3), and every other line the prose cites holds what it says.
"""
from __future__ import annotations

import json
from pathlib import Path
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
from tests.test_ch00_tour import SCHEDULE_ONE, SCHEDULER, SERVER, go_lines, needs_checkout

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


# --- the walkthroughs' names, where the chapter meets them -------------------------------------------

CHAPTER = Path(__file__).resolve().parents[1] / "notebooks" / "01_architecture.ipynb"


def _callouts() -> list[str]:
    """The chapter's blockquotes about the walkthroughs, each as one line."""
    cells = json.loads(CHAPTER.read_text(encoding="utf-8"))["cells"]
    quotes = []
    for cell in cells:
        if cell["cell_type"] == "markdown":
            block: list[str] = []
            for line in "".join(cell["source"]).splitlines() + [""]:
                if line.startswith(">"):
                    block.append(line.lstrip("> "))
                elif block:
                    quotes.append(" ".join(block))
                    block = []
    return [q for q in quotes if q.startswith("**Walkthroughs of older releases**")]


def test_the_callouts_name_the_walkthroughs_names_and_v1_30_4_s() -> None:
    callouts = _callouts()
    handlers = next(c for c in callouts if "addAllEventHandlers" in c or "event handlers" in c)
    assert "server.go's `Run`" in handlers and "(scheduler.go L359)" in handlers
    one = next(c for c in callouts if "`scheduleOne`" in c)
    assert "`profileForPod`" in one


def test_the_callouts_lines_are_the_anchors_lines() -> None:
    from ksched_edu.scheduler import Scheduler

    cycle, lookup = upstream(Scheduler.schedule_one), upstream(Scheduler.framework_for_pod)
    assert (cycle.path, cycle.go, cycle.start, cycle.end) == (SCHEDULE_ONE, "(*Scheduler).ScheduleOne", 66, 134)
    assert (lookup.path, lookup.go, lookup.start, lookup.end) == (SCHEDULE_ONE, "(*Scheduler).frameworkForPod", 358, 364)
    new = upstream(Scheduler.__init__)
    assert (new.path, new.go) == (SCHEDULER, "New") and new.start <= 359 <= new.end


def test_new_adds_the_event_handlers_and_server_go_s_run_does_not() -> None:
    needs_checkout()
    assert "addAllEventHandlers(sched," in go_lines(SCHEDULER)[358]
    run = go_lines(SERVER)[149:261]
    assert run[0].startswith("func Run(") and run[-1] == "}"
    assert not any("addAllEventHandlers" in line for line in run)


def test_add_all_event_handlers_adds_two_pod_handlers_and_one_node_handler() -> None:
    """Section 3: two filtered pod handlers (the cache, the queue) and one node handler (eventhandlers.go L287-546)."""
    needs_checkout()
    body = "\n".join(go_lines("pkg/scheduler/eventhandlers.go")[286:546])
    assert body.count("Core().V1().Pods().Informer().AddEventHandler(") == 2
    assert body.count("Core().V1().Nodes().Informer().AddEventHandler(") == 1
    assert "sched.addPodToCache," in body and "sched.addPodToSchedulingQueue," in body


PROSE = [
    ("c02", "eventhandlers.go\nL287-546", "pkg/scheduler/eventhandlers.go", 287, "func addAllEventHandlers("),
    ("c02", "eventhandlers.go\nL287-546", "pkg/scheduler/eventhandlers.go", 546, "}"),
    ("e25", "scheduling_queue.go L393-400", "pkg/scheduler/internal/queue/scheduling_queue.go", 393,
     "func (p *PriorityQueue) Run("),
    ("e25", "L863-879", "pkg/scheduler/internal/queue/scheduling_queue.go", 863,
     "func (p *PriorityQueue) flushUnschedulablePodsLeftover("),
]


@pytest.mark.parametrize("cell_id, cited, path, line, holds", PROSE, ids=[f"{row[0]}:{row[3]}" for row in PROSE])
def test_the_prose_cites_lines_that_hold_what_it_says(cell_id: str, cited: str, path: str, line: int,
                                                      holds: str) -> None:
    cells = json.loads(CHAPTER.read_text(encoding="utf-8"))["cells"]
    assert cited in next("".join(c["source"]) for c in cells if c.get("id") == cell_id)
    needs_checkout()
    assert holds in go_lines(path)[line - 1]
