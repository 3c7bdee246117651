"""Chapter 04's SourceViews, and what it says about the Filter loop's trace.

Each SourceView cell of chapter 04 shows one ported function, and the prose beside it
names the Go function it is compared with. The table below holds, per view, the
expression the cell passes to ``SourceView`` and the Go function and file it must
show; the chapter and the table must list the same views.

Section 2's table of Filter verdicts is read from the trace. The chapter says each
verdict is the plugin's own status: ``run_filter_plugins`` runs each plugin through
``run_filter_plugin``, which records the status before a status that is not a
rejection is wrapped into an Error (``running "<plugin>" filter plugin: ...``).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from ksched_edu import schedule_one
from ksched_edu.framework.interface import Status
from ksched_edu.framework.plugins.helper.normalize_score import default_normalize_score
from ksched_edu.framework.plugins.tainttoleration.taint_toleration import TaintToleration
from ksched_edu.framework.preemption import Evaluator
from ksched_edu.framework.runtime import Framework
from ksched_edu.trace import CycleEvent, Recorder
from ksched_edu.widgets import SourceView
from tests.chapter_views import one_plugin_simulation, resolve, source_view_expressions

pytestmark = pytest.mark.ch04

CHAPTER = Path(__file__).resolve().parents[1] / "notebooks" / "04_schedule_one.ipynb"
SCHEDULE_ONE_GO = "pkg/scheduler/schedule_one.go"

# The names the chapter's SourceView cells use, as the chapter imports them.
NAMES = {"schedule_one": schedule_one, "Framework": Framework, "TaintToleration": TaintToleration,
         "default_normalize_score": default_normalize_score, "Evaluator": Evaluator}

SOURCE_VIEWS = [
    ("schedule_one.schedule_pod", "(*Scheduler).schedulePod", SCHEDULE_ONE_GO),
    ("schedule_one.find_nodes_that_fit_pod", "(*Scheduler).findNodesThatFitPod", SCHEDULE_ONE_GO),
    ("schedule_one.num_feasible_nodes_to_find", "(*Scheduler).numFeasibleNodesToFind", SCHEDULE_ONE_GO),
    ("schedule_one.find_nodes_that_pass_filters", "(*Scheduler).findNodesThatPassFilters", SCHEDULE_ONE_GO),
    ("schedule_one.has_scoring", "(*Scheduler).hasScoring", SCHEDULE_ONE_GO),
    ("schedule_one.evaluate_nominated_node", "(*Scheduler).evaluateNominatedNode", SCHEDULE_ONE_GO),
    ("Framework.run_filter_plugins_with_nominated_pods", "(*frameworkImpl).RunFilterPluginsWithNominatedPods",
     "pkg/scheduler/framework/runtime/framework.go"),
    ("schedule_one.prioritize_nodes", "prioritizeNodes", SCHEDULE_ONE_GO),
    ("TaintToleration.normalize_score", "(*TaintToleration).NormalizeScore",
     "pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go"),
    ("default_normalize_score", "DefaultNormalizeScore", "pkg/scheduler/framework/plugins/helper/normalize_score.go"),
    ("schedule_one.select_host", "selectHost", SCHEDULE_ONE_GO),
    ("Evaluator.call_extenders", "(*Evaluator).callExtenders", "pkg/scheduler/framework/preemption/preemption.go"),
]


def test_the_table_lists_the_chapters_source_views():
    assert source_view_expressions(CHAPTER) == [expression for expression, _, _ in SOURCE_VIEWS]


@pytest.mark.parametrize("expression, go, path", SOURCE_VIEWS, ids=[row[0] for row in SOURCE_VIEWS])
def test_each_source_view_shows_the_go_its_prose_names(expression, go, path, monkeypatch):
    monkeypatch.setenv("KSCHED_EDU_OFFLINE", "1")
    view = SourceView(resolve(expression, NAMES))
    assert (view.anchor.go, view.anchor.path) == (go, path)


class Broken:
    """A Filter plugin that fails (an Error, not a rejection) on node n3."""

    def __init__(self, handle) -> None:
        pass

    def name(self) -> str:
        return "Broken"

    def events_to_register(self):
        return []

    def filter(self, state, pod, node_info):
        return Status.as_status("disk read failed") if node_info.name == "n3" else None




def test_the_filter_trace_holds_each_plugins_own_status_before_the_runtime_wraps_it():
    rec = Recorder()
    sim = one_plugin_simulation("Broken", Broken, ["clusters/three-nodes.yaml"], rec)
    sim.scheduler.schedule_one()
    broken = {e.node: (e.code, e.reasons) for e in rec.plugin_events(cycle=1, point="Filter") if e.plugin == "Broken"}
    # The trace: what the plugin returned, on each node it ran on (n1, then n3, where the search ends).
    assert broken == {"n1": ("Success", ()), "n3": ("Error", ("disk read failed",))}
    # The cycle: the runtime's wrapped error.
    end = rec.of(CycleEvent)[-1]
    assert (end.kind, end.message) == ("error", 'running "Broken" filter plugin: disk read failed')


def test_run_filter_plugins_runs_each_plugin_through_run_filter_plugin_which_traces_it(monkeypatch):
    monkeypatch.setenv("KSCHED_EDU_OFFLINE", "1")
    loop = SourceView(Framework.run_filter_plugins).python_lines
    helper = SourceView(Framework.run_filter_plugin)
    assert helper.anchor.go == "(*frameworkImpl).runFilterPlugin"
    assert any("self.run_filter_plugin(" in line for line in loop)
    assert any("self._trace(\"Filter\"" in line for line in helper.python_lines)
