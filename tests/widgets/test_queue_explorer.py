"""QueueExplorer outside a notebook: the queue's lanes at each moment, rebuilt from the trace."""
from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from ksched_edu.trace import QueueEvent, Recorder  # noqa: E402
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
