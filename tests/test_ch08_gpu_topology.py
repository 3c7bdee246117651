"""Chapter 08 (GPU topology), section 4: the GPU lab's TopologyStepper, as the chapter shows it.

The chapter shows one stepper over the lab's nine GPU allocations, standing at step 2
(``resnet-1`` on ``h200-a``, the step its prose reads), and draws the last step from a
second view. Stepping either view moves neither the other nor the figure's step.
"""
from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")

from ksched_edu.api.loader import load_cluster  # noqa: E402
from ksched_edu.framework.plugins.registry import new_in_tree_registry  # noqa: E402
from ksched_edu.framework.runtime import merge_registries  # noqa: E402
from ksched_edu.gpu import plugins  # noqa: E402
from ksched_edu.resources import data_path  # noqa: E402
from ksched_edu.sim.simulation import Simulation  # noqa: E402
from ksched_edu.trace import Recorder  # noqa: E402
from ksched_edu.widgets.topology import TopologyStepper, node_topologies  # noqa: E402

pytestmark = pytest.mark.ch08


@pytest.fixture(scope="module")
def lab_view() -> TopologyStepper:
    rec = Recorder()
    lab = Simulation(load_cluster([data_path("clusters/gpu-lab.yaml"), data_path("workloads/gpu-lab-jobs.yaml")]),
                     plugins.scheduler_config(), seed=1, recorder=rec,
                     registry=merge_registries(new_in_tree_registry(), plugins.registry()))
    lab.run()
    return TopologyStepper(rec, node_topologies(lab), step=2)


def test_the_view_stands_at_step_2_the_step_the_prose_reads(lab_view):
    assert (lab_view.step_label, lab_view.step_class) == ("2", "ksched-at-2")
    assert lab_view.caption() == "step 2/9 (t=0.009s): reserve default/resnet-1 on h200-a: GPUs 4,5,6,7"
    chosen = [r["node"] for r in lab_view.reasons() if r["chosen"]]
    assert chosen == ["h200-a"]


def test_the_last_step_is_another_view_and_each_moves_alone(lab_view):
    last = lab_view.at(len(lab_view.steps))
    assert last.caption() == "step 9/9 (t=0.009s): reserve default/resnet-2 on dgx1-a: GPUs 0,1,2,3"
    assert last.next_button.disabled and not lab_view.next_button.disabled
    last.back()
    assert (last.cursor, lab_view.cursor) == (8, 2)
    assert "ksched-at-8" in last._dom_classes and "ksched-at-2" in lab_view._dom_classes
    lab_view.back()
    assert (last.cursor, lab_view.cursor) == (8, 1)
    lab_view.next()
    assert lab_view.cursor == 2
