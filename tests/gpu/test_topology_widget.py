"""The topology figures and the TopologyStepper read the trace and draw every node's GPUs."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")

from ksched_edu.api.loader import load_cluster  # noqa: E402
from ksched_edu.gpu import plugins  # noqa: E402
from ksched_edu.sim.simulation import Simulation  # noqa: E402
from ksched_edu.trace import Recorder  # noqa: E402
from ksched_edu.widgets.topology import (TopologyStepper, draw_topology, node_topologies, nvswitch_label,  # noqa: E402
                                         plot_gpu_usage, show_gpu_topology)

pytestmark = pytest.mark.ch08

PACKING = Path(__file__).resolve().parents[2] / "data" / "clusters" / "gpu-packing.yaml"


@pytest.fixture(scope="module")
def runs() -> dict:
    out = {}
    for strategy in ("Binpack", "Spread"):
        rec = Recorder()
        sim = Simulation(load_cluster(PACKING), plugins.scheduler_config(strategy), seed=1, recorder=rec,
                         registry=plugins.full_registry())
        sim.run()
        out[strategy] = sim
    return out


def test_stepper_walks_the_allocations(runs) -> None:
    w = show_gpu_topology(runs["Binpack"])
    assert isinstance(w, TopologyStepper) and list(w.topologies) == ["h100-1", "h100-2", "h100-3"]
    assert w.cursor == 0 and w.allocation() == {} and bytes(w.image.value).startswith(b"\x89PNG")
    w.next_button.click()
    assert w.caption() == "step 1/7 (t=0.007s): reserve default/job-1 on h100-2: GPUs 0,1"
    w.goto(7)
    assert w.allocation()["h100-1"] == {g: "default/job-7" for g in range(8)}
    w.next()
    assert w.cursor == 7 and w.slider.value == 7
    w.prev_button.click()
    assert w.cursor == 6 and "job-6" in w.caption()
    assert repr(w) == "TopologyStepper(3 nodes, 7 steps, at 6)"


def test_node_topologies_come_from_the_plugin_catalog(runs) -> None:
    tops = node_topologies(runs["Spread"])
    assert {n: t.name for n, t in tops.items()} == {"h100-1": "hgx-h100", "h100-2": "hgx-h100", "h100-3": "hgx-h100"}
    assert nvswitch_label(tops["h100-1"]) == "NV18"


def test_usage_plot_has_a_panel_per_run(runs) -> None:
    fig = plot_gpu_usage({k: s.recorder for k, s in runs.items()}, {"h100-1": 8, "h100-2": 8, "h100-3": 8},
                         pending={"Spread": ["default/job-7"]})
    titles = [a.get_title() for a in fig.axes]
    assert titles == ["Binpack", "Spread"]
    assert [a.get_xlabel() for a in fig.axes] == ["pending: none", "pending: job-7"]


def test_draw_colours_the_held_gpus(catalog) -> None:
    fig = draw_topology(catalog.get("dgx-1-v100"), {0: "default/a", 3: "default/a"})
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ["NV1", "NV2", "SYS", "default/a", "N#: the GPU's NUMA node"]
