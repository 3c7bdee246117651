"""QueueExplorer outside a notebook: the queue's lanes at each moment, rebuilt from the trace."""
from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from ksched_edu.trace import QueueEvent, QueueSkipEvent, Recorder  # noqa: E402
from ksched_edu.widgets import QueueExplorer  # noqa: E402

pytestmark = pytest.mark.ch02

LANE = {"Active": "activeQ", "Backoff": "backoffQ", "Unschedulable": "unschedulable", "InFlight": "inFlight"}


def lanes(q: QueueExplorer) -> dict[str, list[str]]:
    return {k: v for k, v in q.queues().items() if v}


@pytest.mark.parametrize("sim_name", ["teaching_sim", "crowded_sim"])
def test_queues_at_t0_match_the_queue_events(request, sim_name):
    sim = request.getfixturevalue(sim_name)
    q = QueueExplorer(sim)
    assert q.time == 0
    expected: dict[str, list[str]] = {}
    for e in sim.recorder.of(QueueEvent):
        if e.time == 0:
            expected.setdefault(LANE[e.queue], []).append(e.pod)
    assert expected == {"activeQ": ["default/web"]}
    assert lanes(q) == expected


# The crowded cluster, moment by moment (see scenarios.py).
CROWDED_TIMELINE = [
    ("all three arrived", 0.002, {"activeQ": ["default/web", "default/big", "default/b2"]}),
    ("three cycles ran", 0.003, {"unschedulable": ["default/big"], "inFlight": ["default/web", "default/b2"]}),
    ("two bound", 0.503, {"unschedulable": ["default/big"], "bound": ["default/web", "default/b2"]}),
    ("n4 added", 1.0, {"backoffQ": ["default/big"], "bound": ["default/web", "default/b2"]}),
    ("backoff over, big popped", 2.0, {"inFlight": ["default/big"], "bound": ["default/web", "default/b2"]}),
    ("all bound", 2.5, {"bound": ["default/web", "default/b2", "default/big"]}),
]


@pytest.mark.parametrize("name, time, expected", CROWDED_TIMELINE, ids=[c[0] for c in CROWDED_TIMELINE])
def test_goto_time(crowded_sim, name, time, expected):
    q = QueueExplorer(crowded_sim)
    q.goto_time(time)
    assert q.time == time
    assert lanes(q) == expected


def test_the_moves_say_which_event_moved_which_pod(crowded_sim):
    q = QueueExplorer(crowded_sim)
    seen = []
    while (m := q.step()) is not None:
        seen.append(str(m))
        assert q.last_move is m and q.time == m.time
    assert "default/big: inFlight -> unschedulable on ScheduleAttemptFailure" in seen
    assert "default/big: unschedulable -> backoffQ on NodeAdd" in seen
    assert "default/big: backoffQ -> activeQ on BackoffComplete" in seen
    assert "default/web: inFlight -> bound (bound to n3)" in seen
    assert q.step() is None  # the end
    assert q.step_button.disabled


def test_step_button_play_and_slider(crowded_sim):
    q = QueueExplorer(crowded_sim)
    start = q.cursor
    q.step_button.click()
    assert q.cursor == start + 1
    assert str(q.last_move) == "default/big: new -> activeQ on PodAdd"
    assert 'class="ksched-pod ksched-moved" data-pod="default/big"' in q.board_html
    assert "default/big: new -&gt; activeQ on PodAdd" in q.move_html.value
    q.play.value = 0
    assert q.cursor == 0 and lanes(q) == {}
    q.time_slider.value = 1.0
    assert q.where("default/big") == "backoffQ"
    q.back()
    assert q.where("default/big") == "unschedulable"
    q.reset()
    assert q.cursor == start and q.time == 0


def test_an_empty_trace_is_a_clear_error():
    with pytest.raises(ValueError, match="no queue event"):
        QueueExplorer(Recorder())


# --- a gang at Permit (Coscheduling; chapter 06) -------------------------------------------

TRAIN = [f"default/train-{i}" for i in range(8)]


@pytest.mark.ch06
def test_a_gang_waits_at_permit_while_in_flight(gang_timeout_sim):
    q = QueueExplorer(gang_timeout_sim)
    q.goto_time(0)
    phases = q.replay.phases_after(q.cursor)
    waiting = [pod for pod, (lane, phase, _) in phases.items() if phase == "waiting"]
    assert sorted(waiting) == TRAIN[:6]  # six GPUs are free: six members are assumed and held
    assert all(phases[pod][0] == "inFlight" for pod in waiting)
    assert sorted(lanes(q)["unschedulable"]) == TRAIN[6:]
    assert "default/train-0 · waiting" in q.board_html


@pytest.mark.ch06
def test_the_waiting_members_time_out_together(gang_timeout_sim):
    timeouts = [m for m in QueueExplorer(gang_timeout_sim).moves if m.action == "permit timeout"]
    assert sorted(m.pod for m in timeouts if m.time == 30.0) == TRAIN[:6]
    assert all(m.note == "timed out at Permit: rejected due to timeout after waiting 30s at plugin Coscheduling"
               for m in timeouts)


@pytest.mark.ch06
def test_a_gang_is_released_together(gang_sim):
    q = QueueExplorer(gang_sim)
    allowed = [m for m in q.moves if m.action == "permit allowed"]
    # The last member's own Permit succeeds and allows the seven that wait.
    assert len(allowed) == 7 and {m.time for m in allowed} == {330.0}
    q.goto_time(329.0)
    assert not set(TRAIN) & set(q.queues()["bound"])
    q.goto_time(330.0)
    assert set(TRAIN) <= set(q.queues()["bound"])


# --- when a backoff ends, and the moves an event did not make -----------------------------------


def test_a_pod_in_backoffQ_shows_when_its_backoff_ends(crowded_sim):
    q = QueueExplorer(crowded_sim)
    q.goto_time(1.0)
    assert q.where("default/big") == "backoffQ"
    # Its one failed attempt ended at t=0.003: one second of backoff.
    assert q.backoff_until("default/big") == 1.003
    assert '<span class="ksched-until" data-pod="default/big">backoff until t=1.003s</span>' in q.board_html
    assert 'title="here since t=1s; backoff until t=1.003s"' in q.board_html
    # The pod's own label is unchanged: a page reads the lane's pods by their .ksched-pod text.
    assert '>default/big</span>' in q.board_html
    q.goto_time(2.0)
    assert q.backoff_until("default/big") is None and "ksched-until" not in q.board_html


def test_the_backoff_end_comes_from_the_trace():
    rec = Recorder()
    for e in [QueueEvent(0.0, "default/p", "add", "Active", "PodAdd"),
              QueueEvent(0.5, "default/p", "pop", "InFlight"),
              QueueEvent(0.5, "default/p", "requeue", "Backoff", "ScheduleAttemptFailure", backoff_until=7.5)]:
        rec.record(e)
    q = QueueExplorer(rec)
    q.goto_time(0.5)
    assert q.backoff_until("default/p") == 7.5
    assert "backoff until t=7.5s" in q.board_html
    assert q.backoff_until("default/nobody") is None


@pytest.fixture(scope="module")
def cordoned_with_hints():
    """The teaching cluster with every node cordoned, hints on: n1 and n2 get a label at t=5 s."""
    from ksched_edu.exercises.ch02 import change_node, cordoned_simulation

    sim = cordoned_simulation(queueing_hints=True)
    sim.run(until=5)
    for name in ("n1", "n2"):
        change_node(sim.api, name, lambda n: n.metadata.labels.update(team="blue"))
    change_node(sim.api, "n1", lambda n: setattr(n.spec, "unschedulable", False))
    return sim.run(until=10)


def test_the_trace_records_each_move_an_event_did_not_make(cordoned_with_hints):
    skips = [(e.time, e.pod, e.event, e.reason, e.plugins) for e in cordoned_with_hints.recorder.of(QueueSkipEvent)]
    assert skips == [(5.0, "default/web", "NodeLabelChange", "QueueSkip", ("NodeUnschedulable",)),
                     (5.0, "default/web", "NodeLabelChange", "preCheck", ("NodeUnschedulable",))]


def test_the_log_shows_the_skipped_moves_without_moving_a_pod(cordoned_with_hints):
    q = QueueExplorer(cordoned_with_hints)
    q.goto_time(0.001)
    assert q.where("default/web") == "unschedulable" and q.skips_until_now() == []
    q.goto_time(5.0)  # the uncordon moved web at t=5 too: the skips come before that move
    assert len(q.skips) == 2 and len(q.skips_until_now()) == 2
    lines = q.log_lines()
    assert ("[t=5s] default/web: not moved on NodeLabelChange: no rejecting plugin (NodeUnschedulable) "
            "answered Queue (stays in unschedulable)") in lines
    assert ("[t=5s] default/web: not moved on NodeLabelChange: the pre-check (preCheckForNode) filtered it out "
            "(stays in unschedulable)") in lines
    assert q.log_html.value.count('class="ksched-skip"') == 2
    # No lane changed for a skip: the moves are those of the QueueEvents and cycles.
    assert all(m.event != "NodeLabelChange" for m in q.moves)


def test_skips_are_not_shown_before_their_time(cordoned_with_hints):
    q = QueueExplorer(cordoned_with_hints)
    q.goto_move(0)
    assert q.log_lines() == [] and "ksched-skip" not in q.log_html.value
    q.goto_time(0.001)
    assert not any("not moved" in line for line in q.log_lines())


def test_a_skip_in_a_hand_made_trace():
    rec = Recorder()
    rec.record(QueueEvent(0.0, "default/p", "requeue", "Unschedulable", "ScheduleAttemptFailure"))
    rec.record(QueueSkipEvent(3.0, "default/p", "NodeAdd", "preCheck", ("NodeResourcesFit",)))
    rec.record(QueueEvent(4.0, "default/q", "add", "Active", "PodAdd"))
    q = QueueExplorer(rec)
    q.goto_time(4.0)
    assert q.log_lines() == [
        "[t=0s] default/p: new -> unschedulable on ScheduleAttemptFailure",
        "[t=3s] default/p: not moved on NodeAdd: the pre-check (preCheckForNode) filtered it out "
        "(stays in unschedulable)",
        "[t=4s] default/q: new -> activeQ on PodAdd"]
    assert q.where("default/p") == "unschedulable"


def test_a_skip_comes_before_the_moves_recorded_after_it_at_the_same_time():
    rec = Recorder()
    rec.record(QueueEvent(2.0, "default/big", "requeue", "Unschedulable", "ScheduleAttemptFailure"))
    rec.record(QueueSkipEvent(2.5, "default/big", "NodeAdd", "preCheck", ("NodeResourcesFit",)))
    rec.record(QueueEvent(2.5, "default/big", "move", "Backoff", "NodeAdd", backoff_until=4.0))
    q = QueueExplorer(rec)
    q.goto_move(1)  # only the requeue: the skip at t=2.5 is not shown at t=2
    assert q.skips_until_now() == [] and len(q.log_lines()) == 1
    q.goto_move(2)
    assert q.log_lines()[1].startswith("[t=2.5s] default/big: not moved on NodeAdd")
    assert q.log_lines()[2] == "[t=2.5s] default/big: unschedulable -> backoffQ on NodeAdd"
    assert q.backoff_until("default/big") == 4.0


def test_the_chapter_02_run_logs_the_dropped_node_add_before_the_helpful_one():
    """Chapter 02: n4 (too small for big) is created, then n5; the pre-check drops the first for big."""
    import copy as _copy
    from pathlib import Path

    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation

    data = Path(__file__).resolve().parents[2] / "data"
    rec = Recorder()
    sim = Simulation(load_cluster([data / "clusters/three-nodes.yaml", data / "workloads/queue-waiting-pods.yaml"]),
                     default_config(), seed=1, recorder=rec)
    sim.run(until=2.5)
    n4, n5 = load_cluster(data / "workloads/new-nodes.yaml").nodes
    sim.api.create(_copy.deepcopy(n4))
    sim.api.create(_copy.deepcopy(n5))
    sim.run(until=5)
    q = QueueExplorer(rec)
    q.goto_time(2.5)
    assert q.log_lines()[-2:] == [
        "[t=2.5s] default/big: not moved on NodeAdd: the pre-check (preCheckForNode) filtered it out "
        "(stays in unschedulable)",
        "[t=2.5s] default/big: unschedulable -> backoffQ on NodeAdd"]
    assert q.backoff_until("default/big") == 4.0
