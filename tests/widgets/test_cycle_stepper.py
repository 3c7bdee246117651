"""CycleStepper outside a notebook: build it on a real trace, click, read what it shows."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("ipywidgets")

from ksched_edu.api.loader import load_cluster  # noqa: E402
from ksched_edu.config.loader import default_config  # noqa: E402
from ksched_edu.config.types import Plugin  # noqa: E402
from ksched_edu.framework.interface import Code, new_status  # noqa: E402
from ksched_edu.framework.plugins.registry import new_in_tree_registry  # noqa: E402
from ksched_edu.sim.simulation import Simulation  # noqa: E402
from ksched_edu.trace import PluginEvent, Recorder  # noqa: E402
from ksched_edu.viz.readers import CYCLE_POINTS, permit_waits  # noqa: E402
from ksched_edu.widgets import CycleStepper, show_cycle  # noqa: E402

from .scenarios import THREE_NODES, teaching_cluster  # noqa: E402

pytestmark = pytest.mark.ch04

TAINT_REASON = "node(s) had untolerated taint {dedicated: batch}"


def current_points(html: str) -> list[str]:
    """data-point of every strip item marked ksched-current."""
    return re.findall(r'class="[^"]*\bksched-current\b[^"]*" data-point="([^"]+)"', html)


def row_of(rows: list[dict], node: str) -> dict:
    return next(r for r in rows if r.get("node") == node)


def test_starts_on_queue_sort_with_one_highlighted_point(teaching_sim):
    s = CycleStepper(teaching_sim.recorder)
    assert s.point == "QueueSort"
    assert current_points(s.strip_html) == ["QueueSort"]
    assert [r["pod"] for r in s.table_rows()] == ["default/web"]
    assert repr(s) == "CycleStepper(cycle=1, pod='default/web', point='QueueSort')"


@pytest.mark.parametrize("steps", range(len(CYCLE_POINTS)), ids=lambda n: f"{n} step(s): {CYCLE_POINTS[n]}")
def test_each_step_moves_the_highlight_and_the_table(teaching_sim, steps):
    s = CycleStepper(teaching_sim)
    tables = {s.table_html}
    for _ in range(steps):
        s.next()
        tables.add(s.table_html)
    assert s.point == CYCLE_POINTS[steps]
    assert current_points(s.strip_html) == [CYCLE_POINTS[steps]]
    assert f'data-point="{CYCLE_POINTS[steps]}"' in s.table_html
    assert len(tables) == steps + 1  # every point showed a table of its own


def test_buttons_drive_it_like_a_reader(teaching_sim):
    s = CycleStepper(teaching_sim)
    assert s.next_button.description == "Next ▶"
    assert s.next_button.tooltip == "Next extension point"
    assert "ksched-table" in s.table._dom_classes
    assert "ksched-strip-widget" in s.strip._dom_classes
    assert s.prev_button.disabled
    for _ in range(3):
        s.next_button.click()
    assert s.point == "PostFilter"
    s.prev_button.click()
    assert s.point == "Filter"
    s.reset_button.click()
    assert s.point == "QueueSort"


@pytest.mark.parametrize("how, target", [
    ("goto by name", "Score"),
    ("goto by position", 6),
    ("jump-to dropdown", "Reserve"),
    ("play widget", 3),
], ids=lambda v: str(v))
def test_jumps(teaching_sim, how, target):
    s = CycleStepper(teaching_sim)
    if how.startswith("goto"):
        s.goto(target)
    elif how == "jump-to dropdown":
        s.point_dropdown.value = target
    else:
        s.play.value = target
    expected = target if isinstance(target, str) else CYCLE_POINTS[target]
    assert s.point == expected
    assert s.point_dropdown.value == expected
    assert s.play.value == CYCLE_POINTS.index(expected)


def test_stays_inside_the_strip(teaching_sim):
    s = CycleStepper(teaching_sim)
    s.prev()
    assert s.point == "QueueSort"
    s.goto("PostBind")
    assert s.next_button.disabled
    s.next()
    assert s.point == "PostBind"
    with pytest.raises(ValueError, match="unknown extension point 'Sort'"):
        s.goto("Sort")


def test_filter_shows_the_untolerated_taint_on_the_tainted_node(teaching_sim):
    s = CycleStepper(teaching_sim, point="Filter")
    rows = s.table_rows()
    assert [r["node"] for r in rows] == ["n1", "n3", "n2"]
    n2 = row_of(rows, "n2")
    assert TAINT_REASON in n2["TaintToleration"]
    assert n2["verdict"] == "UnschedulableAndUnresolvable"
    assert n2["NodeResourcesFit"] == "—"  # the first rejection stops the node's filtering
    assert row_of(rows, "n1")["verdict"] == "feasible"
    assert re.search(r'<td class="ksched-rejected" title="UnschedulableAndUnresolvable">✘ '
                     + re.escape(TAINT_REASON), s.table_html)


@pytest.mark.parametrize("point", ["Filter", "Score", "NormalizeScore"])
def test_the_winner_row_is_highlighted(teaching_sim, point):
    winner = teaching_sim.placements()[0].node
    assert winner == "n3"
    s = CycleStepper(teaching_sim, point=point)
    assert [r["node"] for r in s.table_rows() if r["chosen"] == "★"] == [winner]
    assert f'<tr class="ksched-winner" data-node="{winner}">' in s.table_html
    assert s.table_html.count("ksched-winner") == 1


def test_scores_raw_normalized_weighted_and_totals_come_from_the_trace(teaching_sim):
    rec = teaching_sim.recorder
    score_events = [e for e in rec.events if isinstance(e, PluginEvent) and e.point == "Score" and e.cycle == 1]
    s = CycleStepper(rec, point="Score")
    raw = {(r["node"], p): r[p] for r in s.table_rows() for p in r if p not in ("node", "chosen")}
    assert raw == {(e.node, e.plugin): e.raw_score for e in score_events}
    s.next()
    assert s.point == "NormalizeScore"
    for row in s.table_rows():
        mine = [e for e in score_events if e.node == row["node"]]
        assert row["total"] == sum(e.weighted_score for e in mine)
        for e in mine:
            assert row[e.plugin] == f"{e.normalized_score} → {e.weighted_score}"
    assert "TaintToleration ×3" in s.table_html  # the weight, read off weighted / normalized
    totals = {r["node"]: r["total"] for r in s.table_rows()}
    assert max(totals, key=totals.get) == "n3"


@pytest.mark.parametrize("point, key", [
    ("PreFilter", "PreFilterNodeResourcesFit"),
    ("PreScore", "PreScoreTaintToleration"),
])
def test_pre_points_show_the_cycle_state(teaching_sim, point, key):
    s = CycleStepper(teaching_sim, point=point)
    assert {r["plugin"] for r in s.table_rows()} >= {"NodeResourcesFit"}
    state = s.sections()[1]
    assert state.title == f"CycleState after {point}"
    assert key in [r["key"] for r in state.rows]
    assert "0x" not in s.table_html  # no memory address leaks into a view


@pytest.mark.parametrize("point, note", [
    ("PostFilter", "Not run: a node passed Filter"),
    ("Permit", "No Permit plugin is enabled in this profile"),
    ("PostBind", "No PostBind plugin is enabled in this profile"),
])
def test_points_without_calls_say_why(teaching_sim, point, note):
    s = CycleStepper(teaching_sim, point=point)
    assert note in s.view.note
    assert s.table_rows() == []


def test_idle_points_are_dashed_in_the_strip(teaching_sim):
    s = CycleStepper(teaching_sim)
    idle = re.findall(r'class="[^"]*\bksched-idle\b[^"]*" data-point="([^"]+)"', s.strip_html)
    assert idle == ["PostFilter"]


def test_one_cycle_hides_the_cycle_selector(teaching_sim):
    s = CycleStepper(teaching_sim)
    assert s.cycles == [1]
    assert s.cycle_dropdown.layout.display == "none"


@pytest.mark.parametrize("cycle, point, expect", [
    ("#2 big fits nowhere", "Filter", {"n1": "Unschedulable", "n3": "Unschedulable",
                                       "n2": "UnschedulableAndUnresolvable"}),
    ("#2 big fits nowhere", "PostFilter", {"DefaultPreemption": "Unschedulable"}),
    ("#3 b2 lands on n1", "Filter", {"n1": "feasible", "n3": "feasible", "n2": "UnschedulableAndUnresolvable"}),
    ("#4 big on the new node", "Filter", {"n1": "Unschedulable", "n2": "UnschedulableAndUnresolvable",
                                          "n3": "Unschedulable", "n4": "feasible"}),
])
def test_several_cycles(crowded_sim, cycle, point, expect):
    number = int(cycle[1])
    s = CycleStepper(crowded_sim, point=point)
    assert s.cycles == [1, 2, 3, 4]
    assert s.cycle_dropdown.layout.display is None
    s.cycle_dropdown.value = number  # the selector
    assert s.cycle == number and s.point == point
    rows = s.table_rows()
    got = {r["node"]: r["verdict"] for r in rows} if point == "Filter" else {r["plugin"]: r["code"] for r in rows}
    assert got == expect


def test_one_feasible_node_skips_scoring(crowded_sim):
    s = CycleStepper(crowded_sim, cycle=4, point="PreScore")
    assert "only one node passed Filter" in s.view.note
    s.next()
    assert s.point == "Score" and s.table_rows() == []
    s.goto("Bind")
    assert [(r["plugin"], r["node"], r["time (s)"]) for r in s.table_rows()] == [("DefaultBinder", "n4", 2.5)]


def test_the_binding_cycle_comes_later_on_the_clock():
    sim = teaching_cluster(bind_latency=1.0, until=0.5)
    s = CycleStepper(sim, point="Bind")
    assert "has not run yet" in s.view.note
    sim.run(until=5.0)
    s.refresh()
    assert [r["plugin"] for r in s.table_rows()] == ["DefaultBinder"]
    assert "bound to n3 at t=1.001s" in s.view.note


def test_show_cycle_takes_a_simulation_or_a_recorder(teaching_sim):
    assert show_cycle(teaching_sim).point == "QueueSort"
    assert show_cycle(teaching_sim.recorder, 1, point="Filter").point == "Filter"
    with pytest.raises(ValueError, match="holds no scheduling cycle"):
        show_cycle(Recorder())
    with pytest.raises(ValueError, match="cycle 9 is not in the trace"):
        show_cycle(teaching_sim, 9)


class RejectReserve:
    """A Reserve plugin that always says no (after upstream's fake reserve plugins in schedule_one_test.go)."""

    def __init__(self, args, handle) -> None:
        pass

    def name(self) -> str:
        return "RejectReserve"

    def reserve(self, state, pod, node_name):
        return new_status(Code.Unschedulable, "no room reserved")

    def unreserve(self, state, pod, node_name) -> None:
        return None


def test_a_reserve_rejection_after_the_pod_was_assumed():
    config = default_config()
    config.profiles[0].plugins.reserve.enabled.append(Plugin("RejectReserve"))
    registry = new_in_tree_registry()
    registry["RejectReserve"] = RejectReserve
    sim = Simulation(load_cluster(THREE_NODES), config, seed=1, recorder=Recorder(), registry=registry)
    sim.run(until=0.5)
    s = CycleStepper(sim, point="Reserve")
    assert "rejected at Reserve on n3" in s.header.value
    assert [(r["call"], r["plugin"], r["code"]) for r in s.table_rows()] == [
        ("Reserve", "VolumeBinding", "Success"), ("Reserve", "RejectReserve", "Unschedulable"),
        ("Unreserve", "RejectReserve", "Success"), ("Unreserve", "VolumeBinding", "Success")]
    assert "the cache forgot it" in s.view.note
    assert re.findall(r'class="[^"]*\bksched-failed\b[^"]*" data-point="([^"]+)"', s.strip_html) == ["Reserve"]
    s.next()
    assert s.view.note == "Not reached: the cycle ended before Permit (rejected at Reserve)."
    s.goto("Filter")
    assert [r["node"] for r in s.table_rows() if r["chosen"] == "★"] == ["n3"]  # what selectHost picked


class RejectPermit:
    """A Permit plugin that says no at once, without a wait."""

    def __init__(self, args, handle) -> None:
        pass

    def name(self) -> str:
        return "RejectPermit"

    def permit(self, state, pod, node_name):
        return new_status(Code.Unschedulable, "not permitted"), 0.0


def test_a_permit_rejection_without_a_wait():
    config = default_config()
    config.profiles[0].plugins.permit.enabled.append(Plugin("RejectPermit"))
    registry = new_in_tree_registry()
    registry["RejectPermit"] = RejectPermit
    sim = Simulation(load_cluster(THREE_NODES), config, seed=1, recorder=Recorder(), registry=registry)
    sim.run(until=0.5)
    s = CycleStepper(sim, point="Permit")
    assert s.view.failed and not any(sec.title == "Waiting at Permit" for sec in s.view.sections)
    s.next()
    assert s.view.note == "Not reached: the cycle ended before PreBind (rejected at Permit)."


# --- a gang at Permit (Coscheduling; chapter 06) -------------------------------------------

@pytest.mark.ch06
def test_permit_shows_the_wait_and_its_timeout(gang_timeout_sim):
    s = CycleStepper(gang_timeout_sim, cycle=1)  # default/train-0, the first member
    s.goto("Permit")
    view = s.view
    assert view.failed
    wait = next(sec for sec in view.sections if sec.title == "Waiting at Permit")
    assert [(r["time (s)"], r["event"]) for r in wait.rows] == [(0.0, "wait"), (30.0, "timeout")]
    assert wait.rows[1]["message"] == "rejected due to timeout after waiting 30s at plugin Coscheduling"
    assert "The pod waited on gpu-1 from t=0s for Coscheduling" in view.note
    s.goto("PreBind")
    assert s.view.note.startswith("Not reached: the pod's wait at Permit ended without an allow (timed out at Permit)")
    assert "#1 default/train-0: timed out at Permit" in [label for label, _ in s.cycle_dropdown.options]


@pytest.mark.ch06
def test_permit_shows_a_member_allowed_when_the_gang_is_complete(gang_sim):
    cycle = next(w.cycle for w in permit_waits(gang_sim) if w.outcome == "allowed")
    s = CycleStepper(gang_sim, cycle=cycle)
    s.goto("Permit")
    assert not s.view.failed
    assert "at t=330s it was allowed." in s.view.note
    s.goto("Bind")
    assert "The pod was bound to" in s.view.note


# --- each point linked to its runtime function ---------------------------------------------

RUNTIME_GO = {  # point -> the framework.go function that runs its plugins (framework/runtime/framework.go)
    "QueueSort": "(*frameworkImpl).QueueSortFunc", "PreFilter": "(*frameworkImpl).RunPreFilterPlugins",
    "Filter": "(*frameworkImpl).RunFilterPlugins", "PostFilter": "(*frameworkImpl).RunPostFilterPlugins",
    "PreScore": "(*frameworkImpl).RunPreScorePlugins", "Score": "(*frameworkImpl).RunScorePlugins",
    "NormalizeScore": "(*frameworkImpl).RunScorePlugins", "Reserve": "(*frameworkImpl).RunReservePluginsReserve",
    "Permit": "(*frameworkImpl).RunPermitPlugins", "PreBind": "(*frameworkImpl).RunPreBindPlugins",
    "Bind": "(*frameworkImpl).RunBindPlugins", "PostBind": "(*frameworkImpl).RunPostBindPlugins",
}


@pytest.mark.parametrize("point", CYCLE_POINTS)
def test_each_point_links_its_runtime_function(teaching_sim, point, monkeypatch):
    monkeypatch.setenv("KSCHED_EDU_OFFLINE", "1")
    monkeypatch.delenv("KSCHED_EDU_K8S_SRC", raising=False)
    s = CycleStepper(teaching_sim, point=point)
    link = re.search(r'<div class="ksched-runtime">Runtime: <a href="([^"]+)"[^>]*>([^<]+)</a>', s.table_html)
    assert link, s.table_html[:300]
    assert link.group(2) == RUNTIME_GO[point].replace(">", "&gt;")
    assert link.group(1).startswith("https://github.com/kubernetes/kubernetes/blob/v1.30.4/"
                                    "pkg/scheduler/framework/runtime/framework.go#L")
    assert s.source.children == ()
    s.source_button.value = True
    (view,) = s.source.children
    assert view.anchor.go == RUNTIME_GO[point] and view.qualname == s.runtime_function.__qualname__


def test_the_source_follows_the_current_point_while_shown(teaching_sim, monkeypatch):
    monkeypatch.setenv("KSCHED_EDU_OFFLINE", "1")
    s = CycleStepper(teaching_sim, point="Filter")
    s.source_button.value = True
    assert s.source.children[0].anchor.go == "(*frameworkImpl).RunFilterPlugins"
    s.next()
    assert s.source.children[0].anchor.go == "(*frameworkImpl).RunPostFilterPlugins"
    s.source_button.value = False
    assert s.source.children == ()


def test_a_prefilter_verdict_of_the_framework_itself_is_shown_as_such():
    """Two bound local volumes pinned to different hosts: VolumeBinding's node sets do not meet,
    and the runtime (not a plugin) rejects the pod (RunPreFilterPlugins, framework.go)."""
    from ksched_edu.case import answer_case
    from ksched_edu.config.loader import load_config
    from ksched_edu.exercises.core import ROOT

    case = ROOT / "data/conformance/cases/vol-binding-bound-local-disjoint"
    assert answer_case(str(case))["preFilter"][""] == {
        "code": "UnschedulableAndUnresolvable", "reasons": ["node(s) didn't satisfy plugin VolumeBinding"]}
    cluster = load_cluster(case / "cluster.yaml", validate=False)
    rec = Recorder()
    Simulation(cluster, load_config(case / "config.yaml"), seed=0, recorder=rec, resource_versions=False).run(until=1)
    s = CycleStepper(rec, point="PreFilter")
    rows = [(r["plugin"], r["code"], r["reasons"]) for r in s.table_rows() if r["plugin"] == "(the framework)"]
    assert rows == [("(the framework)", "UnschedulableAndUnresolvable", "node(s) didn't satisfy plugin VolumeBinding")]
