"""Chapter 07 (preemption): what the chapter relies on but does not show as a claim line.

- Section 6's SourceView puts ``select_victims_on_node`` beside upstream's
  ``(*DefaultPreemption).SelectVictimsOnNode`` in ``defaultpreemption/default_preemption.go``.
- Section 12.3: the sums the explorer shows as compared (each victim's priority plus
  MaxInt32+1) are the scores the trace recorded for "lowest sum of victim priorities"
  (negated: higher is better there).
- The explorers' views stand at the candidates the prose names (n3 and n4 in section 8,
  gpu-2 in section 12.3), and stepping one moves no other.
"""
from __future__ import annotations

import pytest

from ksched_edu.anchors import upstream
from ksched_edu.api.loader import load_cluster
from ksched_edu.config.loader import default_config, load_config
from ksched_edu.framework.plugins.defaultpreemption.default_preemption import DefaultPreemption
from ksched_edu.framework.plugins.registry import new_registry_with_out_of_tree
from ksched_edu.framework.preemption import CRITERION_MIN_SUM_PRIORITIES
from ksched_edu.resources import data_path
from ksched_edu.sim.simulation import Simulation
from ksched_edu.trace import PreemptionEvent, Recorder

pytestmark = pytest.mark.ch07

MAX_INT32_PLUS_ONE = 2**31


@pytest.fixture(scope="module")
def preemption_sim() -> Simulation:
    """Sections 1 to 10: data/clusters/preemption.yaml under the default configuration, run to the end."""
    return Simulation(load_cluster(data_path("clusters/preemption.yaml")), default_config(), seed=1,
                      recorder=Recorder()).run()


@pytest.fixture(scope="module")
def gang_sim() -> Simulation:
    """Section 12.2: ch07-gpu-gang.yaml under coscheduling.yaml, with Coscheduling in the registry."""
    return Simulation(load_cluster(data_path("clusters/ch07-gpu-gang.yaml")),
                      load_config(data_path("configs/coscheduling.yaml")), seed=1, recorder=Recorder(),
                      registry=new_registry_with_out_of_tree()).run()


def test_the_source_view_names_select_victims_on_node():
    anchor = upstream(DefaultPreemption.select_victims_on_node)
    assert anchor is not None
    assert anchor.go == "(*DefaultPreemption).SelectVictimsOnNode"
    assert anchor.path == "pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go"


def test_the_compared_sums_are_the_recorded_scores(gang_sim):
    pytest.importorskip("ipywidgets")
    from ksched_edu.widgets import PreemptionExplorer
    from ksched_edu.widgets.preemption import SUM_COMPARED

    [first, *_] = [e for e in gang_sim.recorder.of(PreemptionEvent) if e.pod == "default/inference"]
    [sum_rule] = [c for c in first.criteria if c.name == CRITERION_MIN_SUM_PRIORITIES]
    shown = {row["node"]: row[SUM_COMPARED] for row in PreemptionExplorer(gang_sim).at("gpu-2").rows()}
    assert shown == {"gpu-2": 2000 + 2 * MAX_INT32_PLUS_ONE, "gpu-1": 3000 + 3 * MAX_INT32_PLUS_ONE}
    assert {node: -score for node, score in sum_rule.scores} == shown


@pytest.mark.parametrize("which,shown,other,after_next", [
    ("preemption", "n3", "n4", "n4"),
    ("gang", "gpu-2", "gpu-1", "gpu-1"),
])
def test_each_view_stands_at_its_candidate_and_steps_alone(preemption_sim, gang_sim, which, shown, other,
                                                           after_next):
    pytest.importorskip("ipywidgets")
    from ksched_edu.widgets import PreemptionExplorer

    explorer = PreemptionExplorer(preemption_sim if which == "preemption" else gang_sim)
    view, second = explorer.at(shown), explorer.at(other)
    assert (view.step_label, view.step_class) == (shown, f"ksched-at-{shown}")
    assert second.step_label == other
    view.next()
    assert view.step_label == after_next
    assert f"ksched-at-{after_next}" in view._dom_classes and f"ksched-at-{shown}" not in view._dom_classes
    assert second.step_label == other, "stepping one view moved another"
    assert explorer.step_label == explorer.event.candidates[0].node, "stepping a view moved the explorer"
