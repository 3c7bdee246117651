"""The figures: built without pyplot, from the trace, with the numbers the trace holds."""
from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("matplotlib")

from matplotlib.figure import Figure  # noqa: E402

from ksched_edu import viz  # noqa: E402
from ksched_edu.trace import Recorder  # noqa: E402


@pytest.mark.ch02
def test_backoff_curve_bars_are_the_queue_durations():
    fig = viz.plot_backoff_curve(initial=1, max=10, attempts=8)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert [p.get_height() for p in ax.patches] == [1, 2, 4, 8, 10, 10, 10, 10]
    assert "capped at 10s" in ax.get_title()


@pytest.mark.ch04
def test_scores_stack_weighted_scores_per_node(teaching_sim):
    fig = viz.plot_scores(teaching_sim.recorder)
    ax = fig.axes[0]
    # top to bottom, in the order the nodes were scored; the chosen one starred
    assert [t.get_text() for t in ax.get_yticklabels()] == ["n1", "n3 ★"]
    assert len(ax.patches) == 2 * 4  # 2 nodes x 4 scoring plugins
    assert [t.get_text() for t in ax.get_legend().get_texts()][0] == "TaintToleration ×3"
    widths = sorted(p.get_width() for p in ax.patches)
    assert widths[-2:] == [300, 300]


@pytest.mark.ch04
def test_scores_of_a_cycle_without_scoring(crowded_sim):
    ax = viz.plot_scores(crowded_sim, cycle=4).axes[0]
    assert "one feasible node" in ax.texts[0].get_text()


@pytest.mark.ch05
def test_timeline_rows_and_phases(crowded_sim):
    fig = viz.plot_timeline(crowded_sim)
    ax = fig.axes[0]
    # by arrival, top down
    assert [t.get_text() for t in ax.get_yticklabels()] == ["default/web", "default/big", "default/b2"]
    labels = [t.get_text() for t in fig.legends[0].get_texts()]  # below the axes, in PHASES order
    assert labels == ["activeQ", "backoffQ", "unschedulable", "scheduling", "binding", "bound"]


@pytest.mark.ch06
def test_timeline_shows_the_wait_at_permit(gang_timeout_sim):
    fig = viz.plot_timeline(gang_timeout_sim, until=45)
    assert "waiting" in [t.get_text() for t in fig.legends[0].get_texts()]
    _, ax = plt_subplots()
    viz.plot_timeline(gang_timeout_sim, until=45, ax=ax)  # into axes of one's own: the legend goes on the axes
    assert "waiting" in [t.get_text() for t in ax.get_legend().get_texts()]


def plt_subplots():
    from matplotlib.figure import Figure

    fig = Figure()
    return fig, fig.add_subplot()


@pytest.mark.ch03
def test_framework_diagram(teaching_sim):
    fig = viz.draw_framework_diagram(highlight="Filter",
                                     plugins=teaching_sim.scheduler.profiles["default-scheduler"])
    texts = [t.get_text() for t in fig.axes[0].texts]
    for point in ("QueueSort", "PreFilter", "Filter", "PostFilter", "NormalizeScore", "Permit", "PostBind"):
        assert point in texts
    assert "DefaultBinder" in texts and "PrioritySort" in texts
    assert any(t.startswith("TaintToleration ×3") for t in texts)
    with pytest.raises(ValueError, match="unknown extension point"):
        viz.draw_framework_diagram(highlight="Sort")


@pytest.mark.ch05
def test_node_usage_heatmap(teaching_sim):
    ax = viz.plot_node_usage(teaching_sim).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["cpu", "memory", "pods"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["n1", "n2", "n3"]
    assert "500m/2" in [t.get_text() for t in ax.texts]


def test_figures_draw_into_given_axes(teaching_sim):
    fig = Figure()
    ax = fig.add_subplot()
    assert viz.plot_timeline(teaching_sim.recorder, ax=ax) is fig


def test_empty_trace_timeline():
    assert isinstance(viz.plot_timeline(Recorder()), Figure)


def test_import_weight():
    """The engine loads no view library; the widgets load no matplotlib; figures never load pyplot."""
    code = ("import sys, ksched_edu, ksched_edu.sim.simulation, ksched_edu.cli;"
            "assert not {'ipywidgets', 'matplotlib', 'pandas'} & set(sys.modules), 'engine';"
            "import ksched_edu.widgets;"
            "assert 'matplotlib' not in sys.modules, 'widgets';"
            "import ksched_edu.viz;"
            "assert 'matplotlib' not in sys.modules, 'viz import';"
            "ksched_edu.viz.plot_backoff_curve();"
            "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot'")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
