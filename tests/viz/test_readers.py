"""What the views read off a trace: cycles, filter and score tables, queue moves, phases, backoff."""
from __future__ import annotations

import pytest

from ksched_edu.trace import PermitEvent, Recorder
from ksched_edu.viz.readers import (QueueMove, QueueReplay, backoff_durations, filter_rows, format_amount,
                                    index_cycles, permit_waits, pod_phases, queue_moves, read_cycle, score_rows,
                                    score_weights)


BACKOFF_CASES = [
    # (name, initial, max, expected backoff after attempts 1, 2, ...)
    ("default 1s doubling to 10s", 1, 10, [1, 2, 4, 8, 10, 10, 10, 10]),
    ("initial equals max", 10, 10, [10, 10, 10]),
    ("a longer cap", 1, 60, [1, 2, 4, 8, 16, 32, 60, 60]),
    ("fractional initial", 0.5, 3, [0.5, 1, 2, 3]),
]


@pytest.mark.ch02
@pytest.mark.parametrize("name, initial, max_, expected", BACKOFF_CASES, ids=[c[0] for c in BACKOFF_CASES])
def test_backoff_durations_come_from_the_queue(name, initial, max_, expected):
    # mirrors the backoff rows of TestBackOffFlow in scheduling_queue_test.go
    assert backoff_durations(initial=initial, max=max_, attempts=len(expected)) == expected


@pytest.mark.ch04
def test_cycles_of_the_crowded_cluster(crowded_sim):
    cycles = index_cycles(crowded_sim.recorder)
    assert [(c.summary.pod, c.summary.outcome, c.summary.node) for c in cycles.values()] == [
        ("default/web", "scheduled", "n3"), ("default/big", "unschedulable", ""),
        ("default/b2", "scheduled", "n1"), ("default/big", "scheduled", "n4")]
    assert [c.summary.label for c in cycles.values()][:2] == ["#1 default/web → n3", "#2 default/big: unschedulable"]
    assert cycles[2].preemption is not None and cycles[2].preemption.nominated_node == ""
    assert [p for p, _ in cycles[1].active_at_pop] == ["default/web", "default/big", "default/b2"]
    assert [b.kind for b in cycles[1].binds] == ["assume", "bound"]


@pytest.mark.ch04
def test_filter_and_score_tables(teaching_sim):
    record = read_cycle(teaching_sim.recorder)
    plugins, rows = filter_rows(record)
    assert plugins == ["NodeUnschedulable", "NodeName", "TaintToleration", "NodeResourcesFit"]
    assert {r.node: r.code for r in rows} == {"n1": "Success", "n3": "Success",
                                              "n2": "UnschedulableAndUnresolvable"}
    assert rows[2].rejection.plugin == "TaintToleration"
    plugins, scores = score_rows(record)
    weights = score_weights(plugins, scores)
    assert weights["TaintToleration"] == 3 and weights["NodeResourcesFit"] == 1
    assert weights["ImageLocality"] is None  # every node scored 0: the weight is not visible in the trace
    assert {s.node: s.total for s in scores} == {"n1": 461, "n3": 474}


@pytest.mark.ch04
def test_read_cycle_errors(teaching_sim):
    with pytest.raises(ValueError, match="holds no scheduling cycle"):
        read_cycle(Recorder())
    with pytest.raises(ValueError, match=r"cycle 2 is not in the trace \(it holds cycles 1..1\)"):
        read_cycle(teaching_sim.recorder, 2)
    with pytest.raises(TypeError, match="expected a Recorder"):
        read_cycle(object())


@pytest.mark.ch02
def test_replay_matches_applying_every_move(crowded_sim):
    moves = queue_moves(crowded_sim.recorder)
    small = QueueReplay(moves, every=3)  # jumps go through checkpoints
    big = QueueReplay(moves, every=1000)
    for n in range(len(moves) + 1):
        assert small.queues_after(n) == big.queues_after(n)
    assert big.times()[0] == 0.0 and big.times()[-1] == 2.5


@pytest.mark.ch02
@pytest.mark.parametrize("move, text", [
    (QueueMove(0, 0.0, "default/b", "unschedulable", "activeQ", "move", "NodeAdd"),
     "default/b: unschedulable -> activeQ on NodeAdd"),
    (QueueMove(0, 0.0, "default/b", "activeQ", "inFlight", "pop", note="popped for a scheduling cycle"),
     "default/b: activeQ -> inFlight (popped for a scheduling cycle)"),
    (QueueMove(0, 0.0, "default/b", "inFlight", "inFlight", "scheduled", note="cycle #1 chose n1"),
     "default/b: cycle #1 chose n1 (in inFlight)"),
    (QueueMove(0, 0.0, "default/v", "bound", None, "preempted", note="preempted by default/p"),
     "default/v: bound -> gone (preempted by default/p)"),
], ids=["moved by an event", "popped", "same lane", "preempted"])
def test_move_text(move, text):
    assert str(move) == text


@pytest.mark.ch05
def test_pod_phases_of_big(crowded_sim):
    phases = [(p.phase, p.start, p.end) for p in pod_phases(crowded_sim.recorder) if p.pod == "default/big"]
    assert phases == [("activeQ", 0.001, 0.003), ("scheduling", 0.003, 0.003), ("unschedulable", 0.003, 1.0),
                      ("backoffQ", 1.0, 2.0), ("activeQ", 2.0, 2.0), ("scheduling", 2.0, 2.0),
                      ("binding", 2.0, 2.5), ("bound", 2.5, None)]


@pytest.mark.parametrize("resource, amount, text", [
    ("cpu", 500, "500m"), ("cpu", 4000, "4"), ("cpu", 1500, "1500m"),
    ("memory", 512 * 2**20, "512Mi"), ("memory", 8 * 2**30, "8Gi"), ("memory", 1536 * 2**20, "1.5Gi"),
    ("memory", 100, "100"), ("pods", 110, "110"), ("nvidia.com/gpu", 2, "2"),
])
def test_format_amount(resource, amount, text):
    assert format_amount(resource, amount) == text


# --- waits at Permit (Coscheduling; chapter 06) ------------------------------------------

@pytest.mark.ch06
def test_permit_waits_and_the_waiting_phase(gang_timeout_sim):
    waits = [w for w in permit_waits(gang_timeout_sim) if w.start == 0.0]
    assert [(w.pod, w.outcome, w.end) for w in waits] == [(f"default/train-{i}", "timeout", 30.0) for i in range(6)]
    assert waits[0].message == "rejected due to timeout after waiting 30s at plugin Coscheduling"
    phases = [(p.phase, p.start, p.end) for p in pod_phases(gang_timeout_sim) if p.pod == "default/train-0"]
    assert ("waiting", 0.0, 30.0) in phases
    # Still waiting when the trace ends (t=45): the second wait began at t=30.
    assert {w.outcome for w in permit_waits(gang_timeout_sim) if w.start == 30.0} == {"waiting"}


@pytest.mark.ch06
def test_the_trace_table_has_one_row_per_event_with_plain_text_lists(gang_timeout_sim):
    frame = gang_timeout_sim.recorder.to_frame()
    waits = frame[(frame["event"] == "PermitEvent") & (frame["kind"] == "wait")]
    assert len(waits) == len(gang_timeout_sim.recorder.of(PermitEvent)) - 6  # six waits ended at t=30 s
    assert set(waits["plugins"]) == {"Coscheduling"}
