"""Every stepping widget, one table: ``.at(step)`` is a new, independent widget standing at that step,
its root element names the step in exactly one ``ksched-at-`` class, and a bad step is refused clearly.

One ipywidgets object displayed in two cells moves both views; ``.at(step)`` is what a cell shows
instead. The browser test of the chapters checks the ``ksched-at-`` class of each widget shown
against the cell's ``{"ksched": {"at": step}}`` metadata, with the same ``at_class``.

The traces: the crowded cluster (tests/widgets/scenarios.py: 4 cycles, 17 queue moves),
data/clusters/preemption.yaml (cycle 1's candidates n3, n4, n2, n1; cycle 2 has none) and
data/clusters/gpu-packing.yaml under Binpack (7 GPU allocation steps).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import pytest

widgets = pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")

from ksched_edu.api.loader import load_cluster  # noqa: E402
from ksched_edu.config.loader import default_config  # noqa: E402
from ksched_edu.gpu import plugins  # noqa: E402
from ksched_edu.resources import data_path  # noqa: E402
from ksched_edu.sim.simulation import Simulation  # noqa: E402
from ksched_edu.trace import Recorder  # noqa: E402
from ksched_edu.widgets import (ClusterView, CycleStepper, PreemptionExplorer, QueueExplorer,  # noqa: E402
                                StepView, TopologyStepper, at_class, show_cycle, show_gpu_topology)
from ksched_edu.widgets.topology import node_topologies  # noqa: E402

AT = "ksched-at-"


@pytest.fixture(scope="module")
def preemption_sim() -> Simulation:
    return Simulation(load_cluster(data_path("clusters/preemption.yaml")), default_config(), seed=1,
                      recorder=Recorder()).run()


@pytest.fixture(scope="module")
def packing_sim() -> Simulation:
    return Simulation(load_cluster(data_path("clusters/gpu-packing.yaml")), plugins.scheduler_config("Binpack"),
                      seed=1, recorder=Recorder(), registry=plugins.full_registry()).run()


@dataclass(frozen=True)
class Case:
    """One stepping widget: how to build it, two steps to stand at, how it moves, what it refuses."""

    name: str
    make: Callable[..., Any]  # (request, **start) -> a new widget
    start: str  # the step label right after construction
    a: Any  # a step for .at(), and its label
    a_label: str
    forward: Callable[[Any], Any]  # one move forward (a method, as a notebook calls it)
    after_a: str  # the label one move forward from a
    start_kwargs: dict  # the constructor's keyword naming the start step (and the step) ...
    start_kwargs_label: str  # ... and the label it stands at
    walk: list = field(default_factory=list)  # (what a reader does, the label after it), from the start
    bad: list = field(default_factory=list)  # (a step that does not exist, fragments the error names)


def _stepper(request, **kw):
    return CycleStepper(request.getfixturevalue("crowded_sim"), **kw)


def _topology(request, **kw):
    sim = request.getfixturevalue("packing_sim")
    return TopologyStepper(sim.recorder, node_topologies(sim), **kw)


def _preemption(request, **kw):
    return PreemptionExplorer(request.getfixturevalue("preemption_sim"), **kw)


def _queue(request, **kw):
    return QueueExplorer(request.getfixturevalue("crowded_sim"), **kw)


def _set(attr: str, value: Any) -> Callable[[Any], None]:
    """A reader moving a control of the widget (a dropdown, the Play widget, a slider)."""
    def move(w: Any) -> None:
        setattr(getattr(w, attr), "value", value)
    move.__name__ = f"{attr}.value = {value!r}"
    return move


def _click(button: str) -> Callable[[Any], None]:
    def click(w: Any) -> None:
        getattr(w, button).click()
    click.__name__ = f"{button}.click()"
    return click


def _call(method: str, *args: Any) -> Callable[[Any], Any]:
    def call(w: Any) -> Any:
        return getattr(w, method)(*args)
    call.__name__ = f"{method}({', '.join(map(repr, args))})"
    return call


POINTS = "QueueSort, PreFilter, Filter, PostFilter, PreScore, Score, NormalizeScore, Reserve, Permit, PreBind"
CANDIDATES = "n3, n4, n2, n1"
CASES = [
    Case("CycleStepper", _stepper, "QueueSort", "PreFilter", "PreFilter", _call("next"), "Filter",
         {"point": "Score"}, "Score",
         walk=[(_click("next_button"), "PreFilter"), (_set("point_dropdown", "Score"), "Score"),
               (_set("play", 2), "Filter"), (_call("prev"), "PreFilter"), (_call("goto", "PreBind"), "PreBind"),
               (_call("select_cycle", 2), "PreBind"), (_call("goto", 3), "PostFilter"),
               (_click("reset_button"), "QueueSort")],
         bad=[("Prefilter", ["'Prefilter'", POINTS]), (12, ["12", "0..11", POINTS]),
              (2.5, ["2.5", POINTS])]),
    Case("TopologyStepper", _topology, "0", 2, "2", _call("next"), "3", {"step": 4}, "4",
         walk=[(_click("next_button"), "1"), (_set("slider", 5), "5"), (_click("prev_button"), "4"),
               (_call("goto", 7), "7"), (_call("next"), "7"), (_call("goto", 0), "0"), (_call("back"), "0")],
         bad=[(8, ["8", "0..7"]), (-1, ["-1", "0..7"]), ("2", ["'2'", "0..7"])]),
    Case("PreemptionExplorer", _preemption, "n3", "n4", "n4", _call("next"), "n2", {"candidate": "n1"}, "n1",
         walk=[(_click("next_button"), "n4"), (_call("goto", "n1"), "n1"), (_click("prev_button"), "n2"),
               (_call("goto", 0), "n3"), (_call("select_cycle", 2), "none"), (_set("event_dropdown", 0), "n3")],
         bad=[("n9", ["'n9'", CANDIDATES]), (4, ["4", "0..3", CANDIDATES])]),
    Case("QueueExplorer", _queue, "1", 5, "5", _call("step"), "6", {"move": 3}, "3",
         walk=[(_click("step_button"), "2"), (_set("play", 10), "10"), (_set("time_slider", 2.0), "16"),
               (_call("back"), "15"), (_call("goto_time", 0.503), "12"), (_call("goto_move", 0), "0"),
               (_click("reset_button"), "1")],
         bad=[(18, ["18", "0..17"]), (-1, ["-1", "0..17"]), (2.5, ["2.5", "0..17"])]),
]
IDS = [c.name for c in CASES]


def at_classes(w: Any) -> list[str]:
    return [c for c in w._dom_classes if c.startswith(AT)]


def assert_at(w: Any, label: str) -> None:
    """``w`` stands at ``label`` and its root element says so in exactly one class."""
    assert w.step_label == label
    assert at_classes(w) == [at_class(label)], w._dom_classes


def models(w: Any) -> set[str]:
    """The model ids of ``w`` and of every widget it holds (children, layouts, styles)."""
    ids: set[str] = set()
    stack = [w]
    while stack:
        x = stack.pop()
        if x.model_id in ids:
            continue
        ids.add(x.model_id)
        for name in x.keys:
            value = getattr(x, name)
            items = value if isinstance(value, (list, tuple)) else [value]
            stack += [v for v in items if isinstance(v, widgets.Widget)]
    return ids


def shown(w: Any) -> list[Any]:
    """What the page shows of ``w``: the value of every HTML and Image it holds, in order."""
    out = []
    stack = [w]
    while stack:
        x = stack.pop(0)
        if isinstance(x, (widgets.HTML, widgets.Image)):
            out.append(x.value)
        stack += list(getattr(x, "children", ()))
    return out


# --- the class name ---------------------------------------------------------------------------


@pytest.mark.parametrize("step, expected", [
    ("PreFilter", "ksched-at-PreFilter"),
    ("NormalizeScore", "ksched-at-NormalizeScore"),
    (2, "ksched-at-2"),
    ("2", "ksched-at-2"),
    ("gpu-1", "ksched-at-gpu-1"),
    ("n_3", "ksched-at-n_3"),
    ("t=2.5s", "ksched-at-t-2-5s"),
    ("default/big pod", "ksched-at-default-big-pod"),
    ("é", "ksched-at--"),
])
def test_at_class_keeps_letters_digits_dash_and_underscore(step, expected):
    assert at_class(step) == expected


# --- .at(step) ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_at_is_a_new_widget_of_the_same_class_at_that_step(request, case):
    w = case.make(request)
    view = w.at(case.a)
    assert type(view) is type(w) and view is not w and isinstance(view, StepView)
    assert view.recorder is w.recorder  # the same recorded data
    assert_at(view, case.a_label)
    assert_at(w, case.start)  # making it moved nothing
    assert not models(view) & models(w), "the two share a widget model: stepping one would move the other"
    again = view.at()  # no step: where the widget stands
    assert again is not view and not models(again) & models(view)
    assert_at(again, case.a_label)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_stepping_one_view_moves_no_other(request, case):
    w = case.make(request)
    first, second = w.at(case.a), w.at(case.a)
    before = {"original": shown(w), "second": shown(second)}
    case.forward(first)
    assert_at(first, case.after_a)
    assert_at(w, case.start)
    assert_at(second, case.a_label)
    assert {"original": shown(w), "second": shown(second)} == before
    assert shown(first) != before["second"]
    case.forward(w)
    assert_at(first, case.after_a)
    assert_at(second, case.a_label)
    assert shown(second) == before["second"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_view_at_a_step_shows_what_stepping_there_shows(request, case):
    """.at(step) shows the same page as the constructor's start keyword, and as moving there."""
    view = case.make(request).at(*case.start_kwargs.values())
    built = case.make(request, **case.start_kwargs)
    assert_at(built, case.start_kwargs_label)
    assert_at(view, case.start_kwargs_label)
    assert shown(view) == shown(built)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_at_class_is_one_and_follows_every_move(request, case):
    w = case.make(request)
    assert_at(w, case.start)
    done = []
    for move, label in case.walk:
        move(w)
        done.append(move.__name__)
        assert w.step_label == label, f"after {done}"
        assert at_classes(w) == [at_class(label)], f"after {done}: {w._dom_classes}"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_step_that_does_not_exist_is_refused_by_name(request, case):
    w = case.make(request)
    goto = {"QueueExplorer": "goto_move"}.get(case.name, "goto")
    key = next(iter(case.start_kwargs))
    for bad, fragments in case.bad:
        calls = {"at": lambda: w.at(bad), goto: lambda: getattr(w, goto)(bad),
                 "constructor": lambda: case.make(request, **{key: bad})}
        for how, call in calls.items():
            with pytest.raises(ValueError) as err:
                call()
            for fragment in fragments:
                assert fragment in str(err.value), f"{how}({bad!r}): {err.value}"
    assert_at(w, case.start)  # a refused step moves nothing


# --- what each widget adds ----------------------------------------------------------------------


def test_cycle_stepper_at_another_cycle(crowded_sim):
    s = CycleStepper(crowded_sim)
    view = s.at("Filter", cycle=2)
    assert (view.cycle, view.point, s.cycle, s.point) == (2, "Filter", 1, "QueueSort")
    assert view.at("Score").cycle == 2  # a view of a view keeps its cycle
    assert_at(show_cycle(crowded_sim, 4, "Bind"), "Bind")
    with pytest.raises(ValueError, match=r"cycle 9 is not in the trace \(it holds cycles 1\.\.4\)"):
        s.at("Filter", cycle=9)


def test_preemption_explorer_at_another_attempt(preemption_sim):
    x = PreemptionExplorer(preemption_sim)
    none = x.at(cycle=2)
    assert (none.cycle, none.candidate, x.cycle) == (2, None, 1)
    assert_at(none, "none")
    with pytest.raises(ValueError, match="no candidate 0: cycle 2's attempt found no candidate"):
        x.at(0, cycle=2)
    with pytest.raises(ValueError, match="no preemption attempt in cycle 7"):
        x.at("n3", cycle=7)
    x.goto("n2")
    assert_at(x.at(), "n2")
    assert_at(none.at(cycle=1), "n3")  # another attempt starts at its first candidate


def test_queue_explorer_at_a_time(crowded_sim):
    q = QueueExplorer(crowded_sim)
    view = q.at(time=2.0)  # after every move at or before t=2s: big popped
    assert (view.time, view.cursor, view.where("default/big")) == (2.0, 16, "inFlight")
    assert_at(view, "16")
    assert_at(QueueExplorer(crowded_sim, time=1.0), str(q.replay.count_at(1.0)))
    for kwargs, message in [({"time": 9}, "no time 9 in the trace: its moves are at t=0s..2.5s"),
                            ({"time": -1}, "no time -1"),
                            ({"move": 3, "time": 1.0}, "give a move or a time, not both")]:
        with pytest.raises(ValueError, match=message):
            q.at(**kwargs)
    with pytest.raises(ValueError, match="no time 9"):
        q.goto_time(9)


def test_topology_stepper_shares_the_figures_it_drew(packing_sim):
    w = show_gpu_topology(packing_sim, step=3)
    assert_at(w, "3")
    view = w.at(3)
    assert view.image.value == w.image.value and view.caption() == w.caption()
    assert view.steps is w.steps and view.topologies is w.topologies


# --- the controls wrap instead of squeezing their labels ----------------------------------------


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_controls_wrap_and_keep_their_width(request, case):
    w = case.make(request)
    row = w.controls
    assert row.layout.flex_flow == "row wrap"
    assert row in w.children
    for child in row.children:
        assert child.layout.flex == "0 0 auto", child
        if isinstance(child, (widgets.Button, widgets.ToggleButton)):
            assert child.layout.width == "auto", child.description


def test_cluster_view_button_keeps_its_width(crowded_sim):
    v = ClusterView(crowded_sim)
    assert (v.refresh_button.layout.width, v.refresh_button.layout.flex) == ("auto", "0 0 auto")
    assert not at_classes(v)  # a snapshot of the cache: no step to name
