"""Chapter 06 (profiles): what the chapter relies on but does not show as a claim line.

- The two SourceViews of the chapter put the Python beside the Go it names: ``new_map``
  beside ``NewMap`` (kubernetes ``pkg/scheduler/profile/profile.go``) and
  ``Coscheduling.permit`` beside ``(*Coscheduling).Permit`` (scheduler-plugins
  ``pkg/coscheduling/coscheduling.go``).
- Section 5.2's timeline of the gang under ``coscheduling-permit-only.yaml`` (100 s) names,
  in its legend, the mark of a Permit wait that timed out and was followed by Unreserve.
- Section 5.4's QueueExplorer view stands where the prose puts it, and stepping it moves
  no other view of the same trace.
"""
from __future__ import annotations

import pytest

from ksched_edu import profile
from ksched_edu.anchors import SCHEDULER_PLUGINS, upstream
from ksched_edu.exercises.ch06 import gang_simulation
from ksched_edu.framework.plugins.coscheduling.coscheduling import Coscheduling
from ksched_edu.trace import Recorder

pytestmark = pytest.mark.ch06


@pytest.mark.parametrize("obj,go,path,repo_is_scheduler_plugins", [
    (profile.new_map, "NewMap", "pkg/scheduler/profile/profile.go", False),
    (Coscheduling.permit, "(*Coscheduling).Permit", "pkg/coscheduling/coscheduling.go", True),
], ids=["new_map", "Coscheduling.permit"])
def test_the_source_views_name_the_go_the_chapter_compares(obj, go, path, repo_is_scheduler_plugins):
    anchor = upstream(obj)
    assert anchor is not None, f"{obj.__qualname__} has no @ports anchor"
    assert (anchor.go, anchor.path) == (go, path)
    assert (anchor.repo == SCHEDULER_PLUGINS) == repo_is_scheduler_plugins, anchor.repo


def test_the_gang_timeline_names_the_timeout_then_unreserve_mark():
    pytest.importorskip("matplotlib")
    from ksched_edu.viz import plot_timeline

    sim = gang_simulation("coscheduling-permit-only.yaml", only_the_gang=True, recorder=Recorder()).run(until=100)
    fig = plot_timeline(sim.recorder, until=100)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "Permit wait timed out, then Unreserve" in legend, legend


def test_the_gang_view_stands_before_the_last_members_pop_and_moves_alone():
    pytest.importorskip("ipywidgets")
    from ksched_edu.widgets import QueueExplorer

    sim = gang_simulation("coscheduling.yaml", only_the_gang=False, recorder=Recorder()).run()
    explorer = QueueExplorer(sim)
    first_allowed = next(m for m in explorer.moves if m.action == "permit allowed")
    last_pop = max(m.index for m in explorer.moves
                   if m.index < first_allowed.index and m.action == "pop" and "/train-" in m.pod)
    start = explorer.cursor
    view, other = explorer.at(last_pop), explorer.at(last_pop)
    assert (view.step_label, view.step_class) == ("173", "ksched-at-173")
    assert explorer.moves[last_pop].pod == "default/train-7"
    view.step()
    assert (view.cursor, other.cursor, explorer.cursor) == (174, 173, start)
    assert "ksched-at-174" in view._dom_classes and "ksched-at-173" in other._dom_classes
