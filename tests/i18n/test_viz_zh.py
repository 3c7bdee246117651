"""The figures and the SVG pictures speak the course's language.

Under zh_CN every figure's title, axis labels and legend words are Chinese, and each text
carries a CJK font after its own when one is installed (matplotlib's default font has no
Chinese glyph); every SVG picture's headings and explanations are Chinese, they still fit
their boxes, and the picture's font list names CJK fonts. Names stay as they are: extension
points, plugins, Go functions, queue parts, trace labels, node and pod names, and the time
line's legend (the phases and FailureMark.label, which chapter 05's claims read off it). In
English (the default) each figure is the English one, with matplotlib's own fonts. The
``zh`` fixture always restores English.
"""
from __future__ import annotations

import io
import re
import warnings
from typing import Any, Callable

import pytest

pytest.importorskip("matplotlib")

from matplotlib.text import Text  # noqa: E402

from ksched_edu import viz  # noqa: E402
from ksched_edu.api.loader import load_cluster  # noqa: E402
from ksched_edu.config.loader import default_config  # noqa: E402
from ksched_edu.i18n import get_language, set_language  # noqa: E402
from ksched_edu.resources import data_path  # noqa: E402
from ksched_edu.sim.simulation import Simulation  # noqa: E402
from ksched_edu.trace import Recorder  # noqa: E402
from ksched_edu.viz import machine, svgdraw  # noqa: E402
from ksched_edu.viz._figure import cjk_family, localize_fonts, new_axes  # noqa: E402
from ksched_edu.viz.capstone import CapstoneRun, GangPlacement, GPUSample, Preemption, plot_capstone  # noqa: E402
from ksched_edu.viz.readers import queue_moves  # noqa: E402
from ksched_edu.widgets.topology import draw_topology, node_topologies, plot_gpu_usage  # noqa: E402

from .conftest import chinese  # noqa: E402






@pytest.fixture(scope="module")
def overlap_sim() -> Simulation:
    return Simulation(load_cluster(data_path("clusters/bind-overlap.yaml")), default_config(), seed=1,
                      recorder=Recorder()).run()


def _runs() -> list[CapstoneRun]:
    stock = CapstoneRun("stock", [GangPlacement("default/a", 2, 0.0, 5.0, ("n1",)),
                                  GangPlacement("default/b", 2, 0.0, None, ())],
                        [GPUSample(0.0, "n1", 1, 8), GPUSample(5.0, "n1", 2, 8)],
                        [Preemption(3.0, "default/p", "n1", ("default/v",))])
    model = CapstoneRun("model", [GangPlacement("default/a", 2, 0.0, 2.0, ("n1",)),
                                  GangPlacement("default/b", 2, 0.0, 4.0, ("n2",))], [GPUSample(0.0, "n1", 8, 8)], [])
    return [stock, model]


def _gpu_usage(sim: Simulation) -> Any:
    tops = node_topologies(sim)
    return plot_gpu_usage({"Binpack": sim.recorder}, {n: len(t.gpus) for n, t in tops.items()},
                          pending={"Binpack": ["default/late"]})


# name -> (how to draw it, the texts that must be in the course's language: "title", "xlabel", "ylabel",
# "legend", "texts" (any text of the figure))
FIGURES: dict[str, tuple[Callable[..., Any], tuple[str, ...]]] = {
    "plot_backoff_curve": (lambda r: viz.plot_backoff_curve(), ("title", "xlabel", "ylabel")),
    "plot_scores": (lambda r: viz.plot_scores(r["crowded_sim"].recorder), ("title", "xlabel")),
    "plot_timeline": (lambda r: viz.plot_timeline(r["crowded_sim"].recorder), ("title", "xlabel")),
    "plot_timeline, failure marks": (lambda r: viz.plot_timeline(r["gang_timeout_sim"].recorder),
                                     ("title", "xlabel")),
    "plot_node_usage": (lambda r: viz.plot_node_usage(r["crowded_sim"]), ("title", "texts")),
    "draw_framework_diagram": (lambda r: viz.draw_framework_diagram("Filter"), ("texts",)),
    "plot_capstone": (lambda r: plot_capstone(_runs()), ("title", "xlabel", "ylabel", "texts")),
    "draw_topology": (lambda r: draw_topology(next(iter(node_topologies(r["packing_sim"]).values())), {0: "a/b"}),
                      ("legend",)),
    "plot_gpu_usage": (lambda r: _gpu_usage(r["packing_sim"]), ("xlabel",)),
}


class _Fixtures(dict):
    def __init__(self, request: pytest.FixtureRequest) -> None:
        super().__init__()
        self.request = request

    def __missing__(self, name: str) -> Any:
        return self.request.getfixturevalue(name)


def _texts(fig: Any) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"title": [], "xlabel": [], "ylabel": [], "legend": [], "texts": []}
    for ax in fig.axes:
        out["title"] += [ax.get_title()]
        out["xlabel"] += [ax.get_xlabel()]
        out["ylabel"] += [ax.get_ylabel()]
        legend = ax.get_legend()
        if legend is not None:
            out["legend"] += [t.get_text() for t in legend.get_texts()]
    for legend in fig.legends:
        out["legend"] += [t.get_text() for t in legend.get_texts()]
    out["texts"] = [t.get_text() for t in fig.findobj(Text)]
    return out


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=50)
    return buf.getvalue()


def test_the_fixture_leaves_english_behind() -> None:
    assert get_language() == "en"


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_each_figure_in_chinese(zh, request, name) -> None:
    draw, parts = FIGURES[name]
    fig = draw(_Fixtures(request))
    texts = _texts(fig)
    for part in parts:
        assert any(chinese(t) for t in texts[part]), (name, part, texts[part])
    family = cjk_family()
    if family is None:
        pytest.skip("no CJK font installed (Debian: fonts-wqy-microhei or fonts-noto-cjk)")
    for text in fig.findobj(Text):
        assert family in text.get_fontfamily(), (name, text.get_text())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a Chinese character without a glyph warns
        assert _png(fig)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_each_figure_in_english(en, request, name) -> None:
    draw, _ = FIGURES[name]
    fig = draw(_Fixtures(request))
    assert not any(chinese(t) for t in _texts(fig)["texts"]), name
    for text in fig.findobj(Text):
        assert not any(f in svgdraw.CJK_FONT_FAMILY and f not in svgdraw.FONT_FAMILY
                       for f in text.get_fontfamily()), (name, text.get_text())


def test_english_figure_words(en, crowded_sim, gang_timeout_sim) -> None:
    backoff = _texts(viz.plot_backoff_curve())
    assert backoff["title"] == ["Pod backoff: 1s doubled per attempt, capped at 10s"]
    assert (backoff["xlabel"], backoff["ylabel"]) == (["attempts so far"], ["backoff (virtual seconds)"])
    timeline = _texts(viz.plot_timeline(gang_timeout_sim.recorder))
    assert timeline["title"] == ["Pods on the virtual clock"] and timeline["xlabel"] == ["virtual time (s)"]
    assert "Permit wait timed out, then Unreserve" in timeline["legend"] and "waiting" in timeline["legend"]
    usage = _texts(viz.plot_node_usage(crowded_sim))
    assert usage["title"][0] == "Node usage (scheduler cache)" and "requested / allocatable" in usage["ylabel"]
    capstone = _texts(plot_capstone(_runs()))
    assert capstone["title"] == ["time to full gang placement", "free GPUs on partly used nodes", "preemptions"]


def test_the_timeline_legend_names_the_phases_and_marks_as_the_trace_does(zh, gang_timeout_sim) -> None:
    legend = _texts(viz.plot_timeline(gang_timeout_sim.recorder))["legend"]
    assert "waiting" in legend and "Permit wait timed out, then Unreserve" in legend


def test_localize_fonts_changes_nothing_in_english(en) -> None:
    fig, ax = new_axes()
    ax.set_title("title")
    before = [list(t.get_fontfamily()) for t in fig.findobj(Text)]
    assert localize_fonts(fig) is fig
    assert [list(t.get_fontfamily()) for t in fig.findobj(Text)] == before


# --- the SVG pictures ---------------------------------------------------------------------------

PICTURES: dict[str, Callable[..., Any]] = {
    "pod_path": lambda r: machine.pod_path(),
    "queue_moves": lambda r: machine.queue_moves(),
    "extension_points": lambda r: machine.extension_points(),
    "cycles_timeline": lambda r: machine.cycles_timeline(r["overlap_sim"]),
}


def _svg_words(svg: str) -> str:
    return " ".join(re.findall(r">([^<]+)<", svg))


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_each_picture_in_chinese(zh, request, name) -> None:
    p = PICTURES[name](_Fixtures(request))
    assert chinese(p.title) and chinese(_svg_words(p.svg))
    assert f'font-family="{svgdraw.CJK_FONT_FAMILY}"' in p.svg
    assert p.text_overflows() == [], [(t.text, t.box) for t in p.text_overflows()]
    again = PICTURES[name](_Fixtures(request))
    assert again.svg == p.svg  # the same bytes each time


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_each_picture_in_english(en, request, name) -> None:
    p = PICTURES[name](_Fixtures(request))
    assert not chinese(p.svg) and f'font-family="{svgdraw.FONT_FAMILY}"' in p.svg
    assert p.text_overflows() == []


def test_pictures_keep_their_names_and_data_in_chinese(zh, overlap_sim) -> None:
    points = machine.extension_points()
    cells = {r.point: r.cells for r in points.rows}
    assert cells["PostFilter"]["Unschedulable"].text == "try next"  # the data stays English...
    assert "试下一个" in points.svg  # ...the picture shows it in Chinese
    assert chinese(cells["Filter"]["Success"].meaning)  # the tooltip
    assert ">PreFilter</text>" in points.svg and "NodeResourcesFit" in points.svg
    moves = machine.queue_moves()
    assert ">AddUnschedulableIfNotPresent</text>" in moves.svg and "BackoffComplete" in moves.svg
    assert {m.source for m in moves.moves} >= {"new", "activeQ", "inFlight"}
    timeline = machine.cycles_timeline(overlap_sim, until=1.0)
    assert [s.title for s in timeline.slots if s.kind == "cycle"] == ["#1 a", "#2 b", "#3 c"]


def test_english_picture_words(en) -> None:
    assert machine.pod_path().title == "The path of a pod through kube-scheduler"
    assert machine.queue_moves().title == "The scheduling queue: three parts and the moves between them"
    points = machine.extension_points()
    assert points.title == "Extension points: the plugins and what each status code does"
    assert ">try next</text>" in points.svg and ">extension point</text>" in points.svg


def test_the_queue_moves_are_the_traces_in_every_language(zh, crowded_sim) -> None:
    assert not any(chinese(str(m)) for m in queue_moves(crowded_sim.recorder))


# --- Chinese text in an SVG: its width, its line breaks ------------------------------------------


def test_a_chinese_character_is_a_full_em_and_english_widths_are_unchanged() -> None:
    assert svgdraw.text_width("调度", 10) == 20.0
    assert svgdraw.text_width("Pod", 10) == pytest.approx(3 * 0.66 * 10)  # no wide character: as before
    assert svgdraw.text_width("，", 12) == 12.0


def test_wrap_breaks_chinese_between_characters_and_english_at_spaces() -> None:
    lines = svgdraw.wrap("调度器从 activeQ 的队首弹出（Pop）下一个 Pod，然后运行它的调度周期。", 100, 11)
    assert len(lines) > 1 and all(svgdraw.text_width(line, 11) <= 100 for line in lines)
    assert "".join(lines).replace(" ", "") == "调度器从activeQ的队首弹出（Pop）下一个Pod，然后运行它的调度周期。"
    assert not any(line.startswith(("，", "。", "）")) for line in lines)
    assert not any(line.endswith("（") for line in lines)
    assert any("activeQ" in line for line in lines)  # a Latin word is never cut
    assert svgdraw.wrap("plain English text that wraps at spaces only", 100, 11) == [
        "plain English", "text that wraps", "at spaces only"]


def test_the_font_list(en) -> None:
    assert svgdraw.font_family() == svgdraw.FONT_FAMILY
    set_language("zh_CN")
    try:
        assert svgdraw.font_family().endswith("sans-serif") and "Noto Sans CJK SC" in svgdraw.font_family()
    finally:
        set_language(None)
