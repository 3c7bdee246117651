"""Chapter 00 (tour): the checks its teaching cells leave out.

Section 7 shows ``schedule_one`` in a SourceView beside the Go it ports; the view must read
the anchor the port declares, ``(*Scheduler).ScheduleOne`` in schedule_one.go.
"""
from __future__ import annotations

import pytest

from ksched_edu.anchors import upstream
from ksched_edu.schedule_one import schedule_one

pytestmark = [pytest.mark.ch00, pytest.mark.usefixtures("offline_go")]


def test_the_source_view_of_schedule_one_stands_beside_schedule_one_go() -> None:
    pytest.importorskip("ipywidgets")
    from ksched_edu.widgets import SourceView

    view = SourceView(schedule_one)
    assert view.anchor == upstream(schedule_one)
    assert (view.anchor.path, view.anchor.go) == ("pkg/scheduler/schedule_one.go", "(*Scheduler).ScheduleOne")
