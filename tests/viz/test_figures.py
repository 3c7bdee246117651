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


def _failure_trace() -> Recorder:
    """Four pods that each lose their assumed node a different way (see the test below)."""
    from ksched_edu.trace import BindEvent, CycleEvent, PermitEvent, PluginEvent, QueueEvent

    rec = Recorder()
    record = rec.record

    def cycle(t: float, n: int, pod: str) -> None:
        record(QueueEvent(t, pod, "pop", "InFlight"))
        record(CycleEvent(t, n, pod, "p", "start"))
        record(BindEvent(t, n, pod, "n1", "assume"))

    def wait(t: float, n: int, pod: str) -> None:
        cycle(t, n, pod)
        record(PluginEvent(t, n, pod, "p", "Permit", "Gate", "n1", "Wait"))
        record(CycleEvent(t, n, pod, "p", "scheduled", "n1"))
        record(PermitEvent(t, n, pod, "p", "n1", "wait", ("Gate",), deadline=t + 10))

    for i, pod in enumerate(("default/rejected", "default/timed-out", "default/bind-fails", "default/refused")):
        record(QueueEvent(0.001 * i, pod, "add", "Active", "PodAdd"))
    wait(0.01, 1, "default/rejected")
    wait(0.01, 2, "default/timed-out")
    cycle(0.01, 3, "default/bind-fails")
    record(CycleEvent(0.01, 3, "default/bind-fails", "p", "scheduled", "n1"))
    cycle(0.01, 4, "default/refused")  # a Permit plugin says no in the scheduling cycle
    record(PluginEvent(0.01, 4, "default/refused", "p", "Permit", "Gate", "n1", "Unschedulable", ("no team",)))
    record(BindEvent(0.01, 4, "default/refused", "n1", "forget"))  # not a bind failure: Permit said no
    record(CycleEvent(0.01, 4, "default/refused", "p", "unschedulable", "n1", "0/1 nodes are available"))
    record(QueueEvent(0.01, "default/refused", "requeue", "Unschedulable", "ScheduleAttemptFailure"))
    record(PluginEvent(0.5, 3, "default/bind-fails", "p", "PreBind", "Gate", "n1", "Error", ("disk",)))
    record(BindEvent(0.5, 3, "default/bind-fails", "n1", "forget"))
    record(QueueEvent(0.5, "default/bind-fails", "requeue", "Backoff", "ScheduleAttemptFailure"))
    record(PermitEvent(3.0, 1, "default/rejected", "p", "n1", "rejected", ("Gate",), "quota exceeded"))
    record(BindEvent(3.0, 1, "default/rejected", "n1", "forget"))  # after the rejection: not a bind failure
    record(QueueEvent(3.0, "default/rejected", "requeue", "Backoff", "ScheduleAttemptFailure"))
    record(PermitEvent(10.01, 2, "default/timed-out", "p", "n1", "timeout", ("Gate",),
                       "rejected due to timeout after waiting 10s at plugin Gate"))
    record(BindEvent(10.01, 2, "default/timed-out", "n1", "forget"))
    record(QueueEvent(10.01, "default/timed-out", "requeue", "Unschedulable", "ScheduleAttemptFailure"))
    return rec


def _marks_on(ax) -> dict[str, list[tuple[float, str]]]:
    """Legend label -> (x, row label) of each failure mark drawn on ``ax``."""
    rows = {round(tick): label.get_text() for tick, label in zip(ax.get_yticks(), ax.get_yticklabels())}
    labels = {viz.timeline.MARK_STYLES[k]["marker"]: viz.timeline.MARK_LABELS[k] for k in viz.timeline.MARKS}
    out: dict[str, list[tuple[float, str]]] = {}
    for line in ax.get_lines():
        if line.get_marker() in labels:
            out.setdefault(labels[line.get_marker()], []).append((line.get_xdata()[0], rows[line.get_ydata()[0]]))
    return out


@pytest.mark.ch05
def test_timeline_marks_a_permit_rejection_a_timeout_and_a_bind_failure_apart():
    from ksched_edu.viz.timeline import failure_marks

    rec = _failure_trace()
    assert [(m.pod, m.kind, m.time) for m in failure_marks(rec)] == [
        ("default/refused", "rejected", 0.01),
        ("default/bind-fails", "bind-failed", 0.5),
        ("default/rejected", "rejected", 3.0),
        ("default/timed-out", "timeout", 10.01),
    ]
    fig = viz.plot_timeline(rec)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels[-3:] == ["rejected at Permit", "Permit wait timed out", "PreBind/Bind failed"]
    assert _marks_on(fig.axes[0]) == {
        "rejected at Permit": [(0.01, "default/refused"), (3.0, "default/rejected")],
        "Permit wait timed out": [(10.01, "default/timed-out")],
        "PreBind/Bind failed": [(0.5, "default/bind-fails")],
    }
    # a trace without Unreserve calls (no Reserve plugin recorded them) gets the plain labels
    assert all(m.unreserved_by == () for m in failure_marks(rec))
    # a mark after ``until`` is not drawn, and gets no legend entry
    fig = viz.plot_timeline(rec, until=5.0)
    assert "Permit wait timed out" not in [t.get_text() for t in fig.legends[0].get_texts()]
    assert "Permit wait timed out" not in _marks_on(fig.axes[0])


@pytest.mark.ch05
@pytest.mark.ch05
def test_timeline_says_which_failed_binding_cycles_ended_in_unreserve():
    from ksched_edu.trace import PluginEvent
    from ksched_edu.viz.timeline import failure_marks

    rec = _failure_trace()
    # Unreserve recorded for the bind failure's cycle (3) only, in the order the plugins ran
    rec.record(PluginEvent(0.5, 3, "default/bind-fails", "p", "Unreserve", "Gate", "n1"))
    rec.record(PluginEvent(0.5, 3, "default/bind-fails", "p", "Unreserve", "VolumeBinding", "n1"))
    marks = {m.pod: m for m in failure_marks(rec)}
    assert marks["default/bind-fails"].unreserved_by == ("Gate", "VolumeBinding")
    assert marks["default/bind-fails"].label == "PreBind/Bind failed, then Unreserve"
    assert marks["default/rejected"].label == "rejected at Permit"
    labels = [t.get_text() for t in viz.plot_timeline(rec).legends[0].get_texts()]
    assert labels[-3:] == ["rejected at Permit", "Permit wait timed out", "PreBind/Bind failed, then Unreserve"]


@pytest.mark.ch05
def test_timeline_without_failures_has_no_failure_legend(crowded_sim):
    labels = [t.get_text() for t in viz.plot_timeline(crowded_sim).legends[0].get_texts()]
    assert not set(labels) & set(viz.timeline.MARK_LABELS.values())


@pytest.mark.ch06
def test_timeline_marks_the_gang_timing_out_and_released_by_postfilter(gang_timeout_sim, gang_sim):
    _, ax = plt_subplots()
    viz.plot_timeline(gang_timeout_sim, until=45, ax=ax)
    marks = _marks_on(ax)
    assert set(marks) == {"Permit wait timed out"}
    assert {x for x, _ in marks["Permit wait timed out"]} == {30.0}
    # each member's binding cycle ended in Unreserve (RunReservePluginsUnreserve: Reserve's reverse
    # order), and the legend says so
    assert "Permit wait timed out, then Unreserve" in [t.get_text() for t in ax.get_legend().get_texts()]
    from ksched_edu.viz.timeline import failure_marks

    assert {m.unreserved_by for m in failure_marks(gang_timeout_sim)} == {("Coscheduling", "VolumeBinding")}
    # with PostFilter, the waiting members are rejected (released), not timed out
    marks = _marks_on(viz.plot_timeline(gang_sim, until=10).axes[0])
    assert set(marks) == {"rejected at Permit"} and len(marks["rejected at Permit"]) == 6


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


@pytest.mark.ch03
def test_framework_diagram_lists_the_plugins_that_normalize(teaching_sim):
    """v1.30.4: TaintToleration, NodeAffinity, PodTopologySpread and InterPodAffinity return themselves
    from ScoreExtensions(); the other default Score plugins return nil. The diagram reads it off the profile."""
    from ksched_edu.viz.diagram import normalize_score_plugins

    fwk = teaching_sim.scheduler.profiles["default-scheduler"]
    normalizers = normalize_score_plugins(fwk)
    assert normalizers == ["TaintToleration", "NodeAffinity", "PodTopologySpread", "InterPodAffinity"]
    assert normalizers == [p.name() for p in fwk.score_plugins if p.score_extensions() is not None]
    texts = [t.get_text() for t in viz.draw_framework_diagram(plugins=fwk).axes[0].texts]
    assert "\n".join(normalizers) in texts
    # a mapping names the list itself
    texts = [t.get_text() for t in viz.draw_framework_diagram(plugins={"normalize_score": ["Mine"]}).axes[0].texts]
    assert "Mine" in texts


@pytest.mark.ch03
@pytest.mark.parametrize("with_plugins", [True, False], ids=["with plugins", "bare"])
def test_framework_diagram_text_is_readable(teaching_sim, with_plugins):
    from matplotlib.text import Text

    from ksched_edu.viz.diagram import MIN_FONT_SIZE

    fig = viz.draw_framework_diagram(
        highlight="Score", plugins=teaching_sim.scheduler.profiles["default-scheduler"] if with_plugins else None)
    sizes = {t.get_text(): t.get_fontsize() for t in fig.findobj(Text) if t.get_text()}
    assert MIN_FONT_SIZE >= 8 and len(sizes) >= 14
    small = {text: size for text, size in sizes.items() if size < MIN_FONT_SIZE}
    assert not small, f"text below {MIN_FONT_SIZE} pt: {small}"


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
