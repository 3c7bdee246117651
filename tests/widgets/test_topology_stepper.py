"""TopologyStepper explains each GPU choice from the trace: reasons, ends, time stamps, link colours."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")

from ksched_edu.api.loader import load_cluster  # noqa: E402
from ksched_edu.gpu import plugins  # noqa: E402
from ksched_edu.gpu.catalog import TopologyCatalog  # noqa: E402
from ksched_edu.sim.simulation import Simulation  # noqa: E402
from ksched_edu.trace import GPUAllocationEvent, Recorder  # noqa: E402
from ksched_edu.widgets.topology import (FONT_SIZE, NVLINK_COLOURS, TopologyStepper, draw_topology, layout,  # noqa: E402
                                         node_topologies, nvlink_quads)

pytestmark = pytest.mark.ch08

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def lab() -> Simulation:
    sim = Simulation(load_cluster([DATA / "clusters" / "gpu-lab.yaml", DATA / "workloads" / "gpu-lab-jobs.yaml"]),
                     plugins.scheduler_config(), seed=1, recorder=Recorder(), registry=plugins.full_registry())
    sim.run()
    return sim


@pytest.fixture(scope="module")
def dgx1():
    return TopologyCatalog(DATA / "topologies").get("dgx-1-v100")


def test_reserve_events_carry_every_weighed_node(lab) -> None:
    reserves = [e for e in lab.recorder.of(GPUAllocationEvent) if e.kind == "reserve"]
    assert reserves and all(e.candidates for e in reserves)
    for e in reserves:
        assert (e.node, e.gpus) in {(c[0], c[1]) for c in e.candidates}
        assert [c[0] for c in e.candidates] == sorted(c[0] for c in e.candidates)


def test_reasons_table_names_sets_slowest_links_and_scores(lab) -> None:
    w = TopologyStepper(lab.recorder, node_topologies(lab))
    assert w.reasons() == [] and w.reasons_html.value == ""
    w.goto(2)  # resnet-1: four GPUs; the H200's NV18 quad beats the DGX-1's NV1 quad
    rows = {r["node"]: r for r in w.reasons()}
    assert rows["h200-a"] == {"node": "h200-a", "GPUs": "4,5,6,7", "slowest link": "GPU4-GPU5 NV18", "GB/s": 450,
                              "score": 87, "chosen": True}
    assert rows["dgx1-a"]["slowest link"] == "GPU0-GPU1 NV1" and rows["dgx1-a"]["GB/s"] == 25
    assert [r["node"] for r in w.reasons() if r["chosen"]] == ["h200-a"]
    assert all(r["score"] < rows["h200-a"]["score"] for r in rows.values() if not r["chosen"])
    html = w.reasons_html.value
    assert "<table" in html and "h200-a (chosen)" in html and "GPU0-GPU1 NV1" in html and "87" in html


def test_a_single_feasible_node_is_not_scored(lab) -> None:
    w = TopologyStepper(lab.recorder, node_topologies(lab))
    w.goto(len(w.steps))  # resnet-2: only dgx1-a is left
    assert [(r["node"], r["score"]) for r in w.reasons()] == [("dgx1-a", None)]
    assert "not scored (one feasible node)" in w.reasons_html.value


def test_buttons_are_disabled_at_both_ends(lab) -> None:
    w = TopologyStepper(lab.recorder, node_topologies(lab))
    assert w.cursor == 0 and w.prev_button.disabled and not w.next_button.disabled
    w.next_button.click()
    assert not w.prev_button.disabled and not w.next_button.disabled
    w.goto(len(w.steps))
    assert w.next_button.disabled and not w.prev_button.disabled
    w.next()  # a step past the end stays at the end
    assert w.cursor == len(w.steps) and w.next_button.disabled
    w.slider.value = 0
    assert w.prev_button.disabled and not w.next_button.disabled


def test_each_step_is_stamped_with_its_own_time() -> None:
    rec = Recorder()
    rec.record(GPUAllocationEvent(1.5, 1, "default/a", "n", "reserve", (0, 1), (("n", (0, 1), 50, None),)))
    rec.record(GPUAllocationEvent(4.25, 2, "default/a", "n", "release", (0, 1)))
    top = TopologyCatalog(DATA / "topologies").get("dgx-1-v100")
    w = TopologyStepper(rec, {"n": top})
    assert w.time() is None and "t=" not in w.figure()._suptitle.get_text()
    stamps = []
    for step in (1, 2):
        w.goto(step)
        stamps.append((w.time(), w.caption().split(": ")[0], w.figure()._suptitle.get_text()))
    assert stamps == [(1.5, "step 1/2 (t=1.5s)", "step 1/2, t=1.5s"), (4.25, "step 2/2 (t=4.25s)", "step 2/2, t=4.25s")]
    w.goto(1)
    assert "t=1.5s" in w.reasons_html.value
    w.goto(2)
    assert w.reasons_html.value == ""  # a release has no reasons


def _edge_colours(fig) -> dict[str, set]:
    from matplotlib.colors import to_hex

    found: dict[str, set] = {}
    for coll in fig.axes[0].collections:
        if type(coll).__name__ == "LineCollection":
            for colour in coll.get_colors():
                found.setdefault("edges", set()).add(to_hex(colour))
    return found


def test_nv1_and_nv2_links_have_their_own_colours_and_legend(dgx1) -> None:
    from matplotlib.colors import to_hex

    assert NVLINK_COLOURS[1] != NVLINK_COLOURS[2]
    fig = draw_topology(dgx1)
    colours = _edge_colours(fig)["edges"]
    assert {NVLINK_COLOURS[1], NVLINK_COLOURS[2]} <= colours
    legend = {t.get_text(): to_hex(h.get_color()) for t, h in zip(fig.axes[0].get_legend().get_texts(),
                                                                  fig.axes[0].get_legend().legend_handles)
              if t.get_text().startswith("NV")}
    assert legend == {"NV1": NVLINK_COLOURS[1], "NV2": NVLINK_COLOURS[2]}


def test_stepper_figure_has_a_link_legend(lab) -> None:
    w = TopologyStepper(lab.recorder, node_topologies(lab))
    texts = [t.get_text() for t in w.figure().legends[0].get_texts()]
    assert {"NV1", "NV2", "PIX", "SYS"} <= set(texts)
    assert "NV18 (every pair, via NVSwitch)" in texts


def test_labels_are_legible(dgx1) -> None:
    fig = draw_topology(dgx1, {0: "default/a"})
    sizes = [t.get_fontsize() for t in fig.axes[0].texts] + [t.get_fontsize() for t in
                                                              fig.axes[0].get_legend().get_texts()]
    assert sizes and min(sizes) >= 8 and FONT_SIZE >= 8


def test_dgx1_is_drawn_as_two_quads(dgx1) -> None:
    first, twins = nvlink_quads(dgx1)
    assert (first, twins) == ([0, 1, 2, 3], [4, 5, 6, 7])
    pos = layout(dgx1)
    assert all(pos[g][0] < 0 for g in first) and all(pos[g][0] > 0 for g in twins)
    for g, t in zip(first, twins):  # each twin level with its GPU, mirrored
        assert pos[t] == (-pos[g][0], pos[g][1])
    assert len({pos[g][1] for g in first}) == 4  # four rows: no twin link runs through a GPU


def test_other_servers_keep_the_circle() -> None:
    catalog = TopologyCatalog(DATA / "topologies")
    for name in ("dgx-a100", "pcie-2socket-8gpu", "workstation-4gpu"):
        assert nvlink_quads(catalog.get(name)) is None
        assert layout(catalog.get(name))[0] == (0.0, 1.0)
