"""PreemptionExplorer outside a notebook: built on the preemption scenario's trace (and on hand-made
PreemptionEvents), stepped through its candidates, read back as rows and HTML.

data/clusters/preemption.yaml, cycle 1: the dry run checks n3, n4, n1, n2 (offset 2) and finds four
candidates; fewest PDB violations drops n1, lowest highest-priority victim drops n4, lowest sum of
priorities picks n3 over n2. Cycle 2 is a second attempt that is not eligible (a victim is terminating).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

from ksched_edu.api.loader import load_cluster  # noqa: E402
from ksched_edu.config.loader import default_config  # noqa: E402
from ksched_edu.framework.preemption import (CRITERION_FIRST, CRITERION_LATEST_START_TIME,  # noqa: E402
                                             CRITERION_MIN_HIGHEST_PRIORITY, CRITERION_MIN_NUM_PODS,
                                             CRITERION_MIN_PDB_VIOLATIONS, CRITERION_MIN_SUM_PRIORITIES,
                                             CRITERION_ONLY_CANDIDATE)
from ksched_edu.sim.simulation import Simulation  # noqa: E402
from ksched_edu.trace import (PreemptionCandidate, PreemptionCriterion, PreemptionEvent,  # noqa: E402
                              Recorder)
from ksched_edu.widgets import CycleStepper, PreemptionExplorer  # noqa: E402
from ksched_edu.widgets.preemption import format_start  # noqa: E402

from .scenarios import teaching_cluster  # noqa: E402

pytestmark = pytest.mark.ch07

SCENARIO = Path(__file__).resolve().parents[2] / "data" / "clusters" / "preemption.yaml"
ALL_RULES = [CRITERION_MIN_PDB_VIOLATIONS, CRITERION_MIN_HIGHEST_PRIORITY, CRITERION_MIN_SUM_PRIORITIES,
             CRITERION_MIN_NUM_PODS, CRITERION_LATEST_START_TIME]


@pytest.fixture(scope="module")
def preemption_sim() -> Simulation:
    sim = Simulation(load_cluster(SCENARIO), default_config(), seed=1, recorder=Recorder())
    return sim.run()


def decided_rows(html: str) -> list[str]:
    """The rule named in every row marked ksched-decided."""
    return re.findall(r'<tr class="ksched-decided"><td class="ksched-num">\d+</td><td>([^<]+)</td>', html)


def current_rows(html: str) -> list[str]:
    return re.findall(r'<tr class="[^"]*\bksched-current-row\b[^"]*" data-node="([^"]+)"', html)


def winner_rows(html: str) -> list[str]:
    return re.findall(r'<tr class="[^"]*\bksched-winner\b[^"]*" data-node="([^"]+)"', html)


def recorder_with(*events: PreemptionEvent) -> Recorder:
    rec = Recorder()
    for e in events:
        rec.record(e)
    return rec


def cand(node: str, *victims: str, pdb: int = 0, prio: int = 10, start: float | None = 0.0) -> PreemptionCandidate:
    return PreemptionCandidate(node, tuple(victims), pdb, prio, prio * len(victims), start)


# --- the scenario's trace ---------------------------------------------------------------------------


def test_the_recorded_attempt_holds_what_the_explorer_shows(preemption_sim):
    first = preemption_sim.recorder.of(PreemptionEvent)[0]
    assert (first.offset, first.num_candidates, first.dry_run) == (2, 4, ("n3", "n4", "n1", "n2"))
    assert [(c.name, c.kept) for c in first.criteria] == [
        (CRITERION_MIN_PDB_VIOLATIONS, ("n3", "n4", "n2")),
        (CRITERION_MIN_HIGHEST_PRIORITY, ("n3", "n2")),
        (CRITERION_MIN_SUM_PRIORITIES, ("n3",))]
    assert first.criteria[0].scores == (("n3", 0), ("n4", 0), ("n2", 0), ("n1", -1))


def test_starts_on_the_first_candidate_of_the_first_attempt_with_candidates(preemption_sim):
    x = PreemptionExplorer(preemption_sim)
    assert x.cycle == 1 and x.index == 0
    assert x.candidate.node == "n3"
    assert repr(x) == "PreemptionExplorer(cycle=1, pod='default/critical', candidate='n3', nominated='n3')"
    assert [e.cycle for e in x.events] == [1, 2]
    assert x.event_dropdown.options == (("#1 default/critical → n3", 0),
                                        ("#2 default/critical: not eligible due to a terminating pod on the nominated node.", 1))


def test_rows_are_the_recorded_candidates(preemption_sim):
    x = PreemptionExplorer(preemption_sim.recorder)
    recorded = x.event.rows()
    rows = x.rows()
    assert [r["node"] for r in rows] == ["n3", "n4", "n2", "n1"]
    for shown, rec in zip(rows, recorded):
        for key in ("node", "victims", "pdb violations", "highest priority", "sum of priorities"):
            assert shown[key] == rec[key], key
        assert shown["earliest start"] == format_start(rec["earliest start"])
        assert shown["chosen"] == ("★" if rec["chosen"] else "")
    assert rows[2]["count"] == 2 and rows[2]["victims"] == "default/scratch-a, default/scratch-b"
    assert rows[0]["earliest start"] == "2024-01-01T00:07:00Z"


# Each candidate, as the rules table shows it: what it scored under each rule and the verdict there.
CANDIDATES = [
    ("n3", [0, 10, 10, 1, "2024-01-01T00:07:00Z"], ["kept", "kept", "★ decided", "not needed", "not needed"],
     "nominated: lowest sum of victim priorities"),
    ("n4", [0, 1000, 1000, 1, "2024-01-01T00:08:00Z"], ["kept", "✘ dropped", "out earlier", "not needed",
                                                        "not needed"],
     "dropped by lowest highest-priority victim"),
    ("n2", [0, 10, 20, 2, "2024-01-01T00:04:00Z"], ["kept", "kept", "✘ dropped", "not needed", "not needed"],
     "dropped by lowest sum of victim priorities"),
    ("n1", [1, 100, 100, 1, "2024-01-01T00:01:00Z"], ["✘ dropped", "out earlier", "out earlier", "not needed",
                                                      "not needed"],
     "dropped by fewest PDB violations"),
]


@pytest.mark.parametrize("position, case", list(enumerate(CANDIDATES)), ids=[c[0] for c in CANDIDATES])
def test_next_steps_through_the_candidates(preemption_sim, position, case):
    node, values, verdicts, outcome = case
    x = PreemptionExplorer(preemption_sim)
    for _ in range(position):
        x.next()
    assert x.candidate.node == node and x.index == position
    rows = x.criteria_rows()
    assert [r["rule"] for r in rows] == ALL_RULES
    assert [r["this candidate"] for r in rows] == values
    assert [r["verdict"] for r in rows] == verdicts
    assert x.sections()[0].rows[-1] == {"what": "outcome", "value": outcome}
    assert current_rows(x.table_html) == [node]
    assert winner_rows(x.table_html) == ["n3"]
    assert decided_rows(x.table_html) == [CRITERION_MIN_SUM_PRIORITIES]
    assert f"candidate <b>{position + 1}</b> of 4" in x.position.value


def test_the_rules_table_names_what_each_rule_compared_and_kept(preemption_sim):
    rows = PreemptionExplorer(preemption_sim).criteria_rows()
    assert [(r["nodes compared"], r["nodes kept"]) for r in rows] == [
        ("n3, n4, n2, n1", "n3, n4, n2"), ("n3, n4, n2", "n3, n2"), ("n3, n2", "n3"), ("", ""), ("", "")]


def test_buttons_drive_it_and_stop_at_the_ends(preemption_sim):
    x = PreemptionExplorer(preemption_sim)
    assert x.prev_button.description == "◀ Prev" and x.next_button.description == "Next ▶"
    assert x.prev_button.disabled and not x.next_button.disabled
    for _ in range(5):
        x.next_button.click()
    assert x.candidate.node == "n1" and x.next_button.disabled and not x.prev_button.disabled
    x.prev_button.click()
    assert x.candidate.node == "n2"
    for _ in range(5):
        x.prev()
    assert x.index == 0
    assert "ksched-table" in x.table._dom_classes and "ksched-preemption" in x._dom_classes


@pytest.mark.parametrize("target, node", [("n2", "n2"), (3, "n1"), ("n3", "n3")], ids=["by name", "by index", "back"])
def test_goto(preemption_sim, target, node):
    x = PreemptionExplorer(preemption_sim)
    x.goto(target)
    assert x.candidate.node == node


@pytest.mark.parametrize("target, message", [
    ("n5", "'n5' is no candidate; the candidates are n3, n4, n2, n1"),
    (4, "candidate index 4 out of range 0..3"),
], ids=["a node that is no candidate", "an index past the end"])
def test_goto_refuses(preemption_sim, target, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        PreemptionExplorer(preemption_sim).goto(target)


def test_dry_run_and_ruled_out_nodes_are_shown(preemption_sim):
    x = PreemptionExplorer(preemption_sim)
    html = x.table_html
    assert ("The dry run looked for 4 candidate(s), starting at offset 2 of the nodes where preemption might help, "
            "and checked n3, n4, n1, n2 in that order.") in html
    [ruled_out] = [s for s in x.sections() if s.title == "Nodes that are no candidate"]
    assert ruled_out.rows == [{"node": "n5", "reason": "Preemption is not helpful for scheduling"}]
    assert "nominated <b>n3</b> (lowest sum of victim priorities), evicts default/scratch-c" in x.header.value
    assert "The cycle ended unschedulable: 0/5 nodes are available" in x.header.value


def test_an_attempt_without_candidates(preemption_sim):
    x = PreemptionExplorer(preemption_sim, cycle=2)
    assert x.candidate is None and x.rows() == []
    assert [r["verdict"] for r in x.criteria_rows()] == ["not needed"] * 5
    assert "not eligible due to a terminating pod on the nominated node." in x.header.value
    assert x.prev_button.disabled and x.next_button.disabled
    x.next()
    assert x.candidate is None and "no candidate" in x.position.value


def test_select_cycle_and_the_dropdown(preemption_sim):
    x = PreemptionExplorer(preemption_sim)
    x.next()
    x.event_dropdown.value = 1
    assert x.cycle == 2 and x.index == 0
    x.select_cycle(1)
    assert x.cycle == 1 and x.candidate.node == "n3" and x.event_dropdown.value == 0
    with pytest.raises(ValueError, match="no preemption attempt in cycle 7; the trace has them in cycles 1, 2"):
        x.select_cycle(7)


def test_refresh_reads_a_longer_trace():
    sim = Simulation(load_cluster(SCENARIO), default_config(), seed=1, recorder=Recorder())
    sim.run(until=1.0)
    x = PreemptionExplorer(sim)
    assert len(x.events) == 1 and x.event_dropdown.layout.display == "none"
    sim.run()
    x.refresh()
    assert len(x.events) == 2 and x.cycle == 1 and x.event_dropdown.layout.display is None


def test_a_trace_without_preemption_is_refused():
    with pytest.raises(ValueError, match="the trace holds no preemption attempt"):
        PreemptionExplorer(teaching_cluster())


# --- hand-made events: the widget renders the trace only ------------------------------------------------


def test_only_candidate():
    e = PreemptionEvent(0.0, 4, "default/p", "default-scheduler", candidates=(cand("a", "default/v"),),
                        nominated_node="a", decided_by=CRITERION_ONLY_CANDIDATE, victims=("default/v",))
    x = PreemptionExplorer(recorder_with(e))
    rows = x.criteria_rows()
    assert [r["rule"] for r in rows] == ALL_RULES + [CRITERION_ONLY_CANDIDATE]
    assert [r["verdict"] for r in rows] == ["not needed"] * 5 + ["★ decided"]
    assert decided_rows(x.table_html) == [CRITERION_ONLY_CANDIDATE]
    assert x.sections()[0].rows[-1]["value"] == "nominated: only candidate"


def test_every_rule_ties_and_the_first_candidate_wins():
    a, b = cand("a", "default/x", start=5.0), cand("b", "default/y", start=5.0)
    crits = tuple(PreemptionCriterion(r, (("a", 0), ("b", 0)), ("a", "b")) for r in ALL_RULES)
    e = PreemptionEvent(0.0, 1, "default/p", "default-scheduler", candidates=(a, b), nominated_node="a",
                        decided_by=CRITERION_FIRST, victims=("default/x",), criteria=crits)
    x = PreemptionExplorer(recorder_with(e))
    assert [r["verdict"] for r in x.criteria_rows()] == ["kept"] * 5 + ["★ decided"]
    x.next()
    assert [r["verdict"] for r in x.criteria_rows()] == ["kept"] * 5 + ["✘ dropped"]
    assert x.sections()[0].rows[-1]["value"] == "tied to the end; first candidate went to a"
    assert x.criteria_rows()[4]["this candidate"] == "1970-01-01T00:00:05Z"


def test_custom_score_functions_show_their_recorded_scores():
    crits = (PreemptionCriterion("score function 1", (("a", 3), ("b", 7)), ("b",)),)
    e = PreemptionEvent(0.0, 1, "default/p", "default-scheduler",
                        candidates=(cand("a", "default/x", start=None), cand("b", "default/y")), nominated_node="b",
                        decided_by="score function 1", victims=("default/y",), criteria=crits)
    x = PreemptionExplorer(recorder_with(e))
    [row] = x.criteria_rows()
    assert (row["rule"], row["this candidate"], row["verdict"]) == ("score function 1", 3, "✘ dropped")
    assert row["compares"] == "a custom score: highest wins"
    assert x.rows()[0]["earliest start"] == "not started"


def test_the_first_attempt_is_shown_when_none_found_a_candidate():
    e = PreemptionEvent(1.5, 3, "default/p", "default-scheduler", message="not eligible due to preemptionPolicy=Never.")
    x = PreemptionExplorer(recorder_with(e))
    assert x.cycle == 3 and x.candidate is None
    assert "not eligible due to preemptionPolicy=Never." in x.header.value
    assert "The dry run" not in x.table_html


def test_text_is_escaped():
    e = PreemptionEvent(0.0, 1, "default/<p>", "default-scheduler", message="<b>bad</b> " + "x" * 80)
    x = PreemptionExplorer(recorder_with(e))
    assert "&lt;b&gt;bad&lt;/b&gt;" in x.header.value and "default/&lt;p&gt;" in x.header.value
    assert x.event_dropdown.options[0][0] == "#1 default/<p>: <b>bad</b> " + "x" * 46 + "..."


@pytest.mark.ch07
def test_the_dry_run_is_kept_out_of_the_filter_table():
    # Preemption re-runs Filter on copies of nodes with victims removed (SelectVictimsOnNode):
    # those calls are marked in the trace, and the stepper's Filter table shows the real verdicts.
    sim = Simulation(load_cluster(SCENARIO), default_config(), seed=1, recorder=Recorder(), victim_grace_period=0)
    sim.scheduler.schedule_one()
    rec = sim.recorder
    dry = [e for e in rec.plugin_events(cycle=1, point="Filter") if e.dry_run]
    assert dry and all("(preemption dry run)" in str(e) for e in dry)
    stepper = CycleStepper(rec, cycle=1, point="Filter")
    table = next(s for s in stepper.view.sections if s.title.startswith("Filter"))
    assert table.rows and all(row["verdict"] != "feasible" for row in table.rows)  # every node failed Filter
    assert stepper.view.note.startswith("0 of 5 filtered node(s) passed.")
    stepper.goto("PostFilter")
    assert f"called the Filter plugins {len(dry)} more times" in stepper.view.note


# --- the sum of priorities, as pickOneNodeForPreemption compares it -----------------------------------

SUM_COMPARED = "sum compared (each + MaxInt32+1)"
OFFSET = 2**31  # math.MaxInt32 + 1


def test_the_candidates_table_shows_the_sum_the_rule_compares(preemption_sim):
    x = PreemptionExplorer(preemption_sim)
    rows = x.rows()
    assert [(r["node"], r["sum of priorities"], r[SUM_COMPARED]) for r in rows] == [
        ("n3", 10, 10 + OFFSET), ("n4", 1000, 1000 + OFFSET), ("n2", 20, 20 + 2 * OFFSET), ("n1", 100, 100 + OFFSET)]
    # The rule's recorded score is that sum, negated (higher score wins), for every node it compared.
    [rule] = [c for c in x.event.criteria if c.name == CRITERION_MIN_SUM_PRIORITIES]
    shown = {r["node"]: r[SUM_COMPARED] for r in rows}
    assert {node: -score for node, score in rule.scores} == {n: shown[n] for n, _ in rule.scores}
    assert f"<th>{SUM_COMPARED}</th>" in x.table_html
    x.goto("n2")
    assert {"what": SUM_COMPARED, "value": 20 + 2 * OFFSET} in x.sections()[0].rows
    [sum_rule] = [r for r in x.criteria_rows() if r["rule"] == CRITERION_MIN_SUM_PRIORITIES]
    assert "each plus MaxInt32+1" in sum_rule["compares"]


def test_with_negative_priorities_the_compared_sum_and_the_plain_sum_disagree():
    # Two victims of priority -10 sum to -20 (lower than -10), yet weigh more once each gets MaxInt32+1.
    two = PreemptionCandidate("a", ("default/x", "default/y"), 0, -10, -20, 0.0)
    one = PreemptionCandidate("b", ("default/z",), 0, -10, -10, 0.0)
    crit = PreemptionCriterion(CRITERION_MIN_SUM_PRIORITIES, (("a", -(2 * OFFSET - 20)), ("b", -(OFFSET - 10))), ("b",))
    e = PreemptionEvent(0.0, 1, "default/p", "default-scheduler", candidates=(two, one), nominated_node="b",
                        decided_by=CRITERION_MIN_SUM_PRIORITIES, victims=("default/z",), criteria=(crit,))
    x = PreemptionExplorer(recorder_with(e))
    assert [(r["sum of priorities"], r[SUM_COMPARED]) for r in x.rows()] == [(-20, 2 * OFFSET - 20), (-10, OFFSET - 10)]
    assert x.sections()[0].rows[-1]["value"] == "dropped by lowest sum of victim priorities"
