"""The checks of chapters 06 and 07 (those of 08 and 10 are in test_ch08_10.py), each against a table of the answers a learner might give.

Every check has its table: the right answer(s) print ✔; each common wrong
answer (a wrong value, a wrong type, off by one, an unanswered ``None`` or
``...``, a function that raises NotImplementedError or never returns, a
plugin that returns an Error) prints ✘ with a hint, and the row names a
word the hint must contain. A check must return its verdict, print exactly
one line and never raise. Rows marked ``short`` lower the wall-clock limit
of ``ksched_edu.exercises.core`` so that an endless loop ends fast. Chapter
11's table (the capstone) is in test_ch11.py, chapter 12's in test_ch12.py.
"""
from __future__ import annotations

from typing import Any, Callable

import pytest

from ksched_edu import exercises
from ksched_edu.framework.preemption import (CRITERION_MIN_HIGHEST_PRIORITY, CRITERION_MIN_NUM_PODS,
                                             CRITERION_MIN_PDB_VIOLATIONS, CRITERION_MIN_SUM_PRIORITIES)

from .verdicts import Row, assert_every_check_has_a_table, assert_row, endless, not_written, table_params







# --- chapter 06 ----------------------------------------------------------------------------

NODES_USED = [
    Row("right", ({"default-scheduler": 4, "binpacking": 3},), True, says="two pods each"),
    Row("the 500m answer of section 2", ({"default-scheduler": 4, "binpacking": 1},), False, "1500m"),
    Row("binpacking off by one", ({"default-scheduler": 4, "binpacking": 2},), False, "MostAllocated"),
    Row("default-scheduler packs", ({"default-scheduler": 3, "binpacking": 3},), False, "LeastAllocated"),
    Row("default-scheduler off by one", ({"default-scheduler": 5, "binpacking": 3},), False, "least_allocated.go"),
    Row("a number as a string", ({"default-scheduler": "4", "binpacking": 3},), False, "whole numbers"),
    Row("a profile missing", ({"default-scheduler": 4},), False, "binpacking"),
    Row("a list, not a dict", ([4, 3],), False, "binpacking"),
    Row("a function that never returns, in place of the dict", (endless,), False, "binpacking", short=True),
    Row("None", (None,), False, "binpacking"),
    Row("...", (...,), False, "binpacking"),
]

RTCR_YAML = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: packer
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: RequestedToCapacityRatio
        requestedToCapacityRatio:
          shape:
          - {utilization: 0, score: 0}
          - {utilization: 100, score: 10}
"""
RTCR_FALLING = RTCR_YAML.replace("{utilization: 0, score: 0}", "{utilization: 0, score: 10}").replace(
    "{utilization: 100, score: 10}", "{utilization: 100, score: 0}")
RTCR_BOTH = RTCR_YAML.replace("- schedulerName: default-scheduler\n", """- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: RequestedToCapacityRatio
        requestedToCapacityRatio:
          shape:
          - {utilization: 0, score: 0}
          - {utilization: 100, score: 10}
""")
RTCR_WALKTHROUGH = RTCR_YAML + """  plugins:
    queueSort:
      enabled:
      - name: Coscheduling
"""
RTCR_UNKNOWN_PLUGIN = RTCR_YAML + """  plugins:
    score:
      enabled:
      - name: PackHarder
"""

PACKER = [
    Row("right", (RTCR_YAML,), True, says="RequestedToCapacityRatio"),
    Row("MostAllocated, as binpacking", (RTCR_YAML.replace("type: RequestedToCapacityRatio", "type: MostAllocated"),),
        False, "RequestedToCapacityRatio"),
    Row("LeastAllocated", (RTCR_YAML.replace("type: RequestedToCapacityRatio", "type: LeastAllocated"),), False,
        "RequestedToCapacityRatio"),
    Row("a falling shape spreads", (RTCR_FALLING,), False, "rise with utilization"),
    Row("both profiles pack", (RTCR_BOTH,), False, "packer profile only"),
    Row("another profile name", (RTCR_YAML.replace("packer", "pack"),), False, "packer"),
    Row("refused like the walkthrough", (RTCR_WALKTHROUGH,), False, "two-profiles.yaml", says="queueSort"),
    Row("a score above 10 (refused when the plugin is built)", (RTCR_YAML.replace("score: 10}", "score: 11}"),),
        False, "from 0 to 10", says="not in valid range"),
    Row("a plugin the registry lacks", (RTCR_UNKNOWN_PLUGIN,), False, "plugin names"),
    Row("the strategy type misspelled", (RTCR_YAML.replace("type: RequestedToCapacityRatio",
                                                           "type: RequestedToCapacityRation"),), False,
        "unknown scoring strategy type 'RequestedToCapacityRation', did you mean 'RequestedToCapacityRatio'?"),
    Row("the strategy type in the wrong case", (RTCR_YAML.replace("type: RequestedToCapacityRatio",
                                                                  "type: requestedToCapacityRatio"),), False,
        "did you mean 'RequestedToCapacityRatio'?"),
    Row("a strategy type that is no strategy", (RTCR_YAML.replace("type: RequestedToCapacityRatio", "type: Packing"),),
        False, "known: LeastAllocated, MostAllocated, RequestedToCapacityRatio"),
    Row("the requestedToCapacityRatio key misspelled", (RTCR_YAML.replace("requestedToCapacityRatio:",
                                                                          "requestedToCapacityRation:"),), False,
        "unknown key 'requestedToCapacityRation' in scoringStrategy, did you mean 'requestedToCapacityRatio'?"),
    Row("the scoringStrategy key misspelled", (RTCR_YAML.replace("scoringStrategy:", "scoringStratgy:"),), False,
        "did you mean 'scoringStrategy'?"),
    Row("a shape point key misspelled", (RTCR_YAML.replace("utilization: 100", "utilisation: 100"),), False,
        "did you mean 'utilization'?"),
    Row("the plugin name of the pluginConfig misspelled", (RTCR_YAML.replace("name: NodeResourcesFit",
                                                                             "name: NodeResourceFit"),), False,
        "did you mean 'NodeResourcesFit'?"),
    Row("not YAML", ("profiles: [",), False, "two-profiles.yaml"),
    Row("a dict, not a YAML string", ({"profiles": []},), False, "YAML string"),
    Row("a function that never returns, in place of the YAML", (endless,), False, "YAML string", short=True),
    Row("None", (None,), False, "YAML"),
    Row("...", (...,), False, "YAML"),
]

PERMIT_ONLY, COSCHEDULING = "coscheduling-permit-only.yaml", "coscheduling.yaml"
GPUS_HELD = [
    Row("right", ({PERMIT_ONLY: 6, COSCHEDULING: 0},), True, says="minMember 7"),
    Row("right, as floats", ({PERMIT_ONLY: 6.0, COSCHEDULING: 0.0},), True),
    Row("within 10% of the quorum", ({PERMIT_ONLY: 6, COSCHEDULING: 6},), False, "10%"),
    Row("PostFilter releases only some", ({PERMIT_ONLY: 6, COSCHEDULING: 3},), False, "minMember 7"),
    Row("nothing waits", ({PERMIT_ONLY: 0, COSCHEDULING: 0},), False, "scheduleTimeoutSeconds"),
    Row("off by one: seven held (minMember members wait)", ({PERMIT_ONLY: 7, COSCHEDULING: 0},), False,
        "Can every member get a GPU"),
    Row("all eight members held", ({PERMIT_ONLY: 8, COSCHEDULING: 0},), False, "Can every member get a GPU"),
    Row("off by one below", ({PERMIT_ONLY: 5, COSCHEDULING: 0},), False, "room for"),
    Row("a number as a string", ({PERMIT_ONLY: "6", COSCHEDULING: 0},), False, "whole numbers"),
    Row("a configuration missing", ({PERMIT_ONLY: 6},), False, COSCHEDULING),
    Row("a function that never returns, in place of the dict", (endless,), False, COSCHEDULING, short=True),
    Row("None", (None,), False, COSCHEDULING),
    Row("...", (...,), False, COSCHEDULING),
]

LATE_MEMBER = [
    Row("right", (90,), True, says="activeQ"),
    Row("right, as a float", (90.0,), True),
    Row("the flush of section 5.4", (330,), False, "ActivateSiblings"),
    Row("five minutes after train-7 arrives", (390,), False, "ActivateSiblings"),
    Row("never", (float("inf"),), False, "ActivateSiblings"),
    Row("when gpu-3 joins", (60,), False, "PreFilter"),
    Row("at once, t=0", (0,), False, "PreFilter"),
    Row("after the group's backoff (podGroupBackoffSeconds)", (110,), False, "backed off"),
    Row("the old question's answer (the largest minMember, 6)", (6,), False, "PreFilter"),
    Row("a string", ("90",), False, "number of seconds"),
    Row("a bool", (True,), False, "number of seconds"),
    Row("a list", ([90],), False, "number of seconds"),
    Row("a function that never returns, in place of the time", (endless,), False, "number of seconds", short=True),
    Row("None", (None,), False, "number of seconds"),
    Row("...", (...,), False, "number of seconds"),
]

# --- chapter 07 ----------------------------------------------------------------------------

NUM_CANDIDATES = [
    Row("right", ({30: 30, 100: 40, 1000: 250},), True, says="25%"),
    Row("right, with another count", ({30: 30, 100: 40, 1000: 250, 4000: 1000},), True),
    Row("the default args", ({30: 30, 100: 100, 1000: 100},), False, "default args"),
    Row("25 percent of a small cluster", ({30: 7, 100: 40, 1000: 250},), False, "40"),
    Row("more than the nodes", ({30: 40, 100: 40, 1000: 250},), False, "two ifs"),
    Row("the minimum on a big cluster", ({30: 30, 100: 40, 1000: 40},), False, "25%"),
    Row("off by one", ({30: 30, 100: 40, 1000: 251},), False, "25%"),
    Row("a count missing", ({30: 30, 100: 40},), False, "1000"),
    Row("a string key", ({"30": 30, 100: 40, 1000: 250},), False, "ints"),
    Row("a string value", ({30: "30", 100: 40, 1000: 250},), False, "whole numbers"),
    Row("a function that never returns, in place of the dict", (endless,), False, "dict", short=True),
    Row("None", (None,), False, "dict"),
    Row("...", (...,), False, "dict"),
]

RIGHT_DROPS = {"n1": CRITERION_MIN_HIGHEST_PRIORITY, "n4": CRITERION_MIN_HIGHEST_PRIORITY,
               "n2": CRITERION_MIN_SUM_PRIORITIES}
DROPPED_BY = [
    Row("right", (RIGHT_DROPS,), True, says="db-0"),
    Row("the chapter's answer: n1 at PDB violations", ({**RIGHT_DROPS, "n1": CRITERION_MIN_PDB_VIOLATIONS},), False,
        "one disruption"),
    Row("n2 at fewest victims", ({**RIGHT_DROPS, "n2": CRITERION_MIN_NUM_PODS},), False, "in order"),
    Row("n4 one rule late", ({**RIGHT_DROPS, "n4": CRITERION_MIN_SUM_PRIORITIES},), False, "in order"),
    Row("the winner listed", ({**RIGHT_DROPS, "n3": CRITERION_MIN_NUM_PODS},), False, "nominated node"),
    Row("a node missing", ({"n4": CRITERION_MIN_HIGHEST_PRIORITY},), False, "every"),
    Row("n5 is no candidate", ({**RIGHT_DROPS, "n5": CRITERION_MIN_NUM_PODS},), False, "n5"),
    Row("a rule of its own words", ({**RIGHT_DROPS, "n2": "sum"},), False, "CRITERION_"),
    Row("a function that never returns, in place of the dict", (endless,), False, "dict", short=True),
    Row("None", (None,), False, "dict"),
    Row("...", (...,), False, "dict"),
]


def set_priority(name: str, priority: Any) -> Callable[[Any], None]:
    def change(cluster: Any) -> None:
        for pod in cluster.running_pods:
            if pod.metadata.name == name:
                pod.spec.priority = priority
    return change


def returns_a_copy(cluster: Any) -> Any:
    import copy

    changed = copy.deepcopy(cluster)
    set_priority("scratch-c", 100)(changed)
    return changed


def change_class_name(cluster: Any) -> None:
    for pod in cluster.running_pods:
        if pod.metadata.name == "scratch-c":
            pod.spec.priority_class_name = "batch"


def move_a_pod(cluster: Any) -> None:
    for pod in cluster.running_pods:
        if pod.metadata.name == "batch-c":
            pod.spec.node_name = "n1"


def lower_the_preemptor(cluster: Any) -> None:
    cluster.pending_pods[0].spec.priority = 5


def crashes(cluster: Any) -> None:
    cluster.nodes[9].metadata.name = "n9"


MAKE_N2_WIN = [
    Row("scratch-c as important as a batch pod", (set_priority("scratch-c", 100),), True, says="nominates n2"),
    Row("a changed copy returned", (returns_a_copy,), True),
    Row("off by one: scratch-c as important as scratch-a", (set_priority("scratch-c", 10),), False,
        "pickOneNodeForPreemption"),
    Row("n2's victims made more important", (set_priority("scratch-a", 100),), False, "pickOneNodeForPreemption"),
    Row("only the class name changed", (change_class_name,), False, "spec.priority"),
    Row("a priority as a string", (set_priority("scratch-c", "100"),), False, "int"),
    Row("returns something else", (lambda cluster: 42,), False, "return nothing"),
    Row("a pod moved", (move_a_pod,), False, "priorities"),
    Row("the preemptor lowered", (lower_the_preemptor,), False, "priorities"),
    Row("crashes", (crashes,), False, "objects in `cluster`", says="IndexError"),
    Row("not written", (not_written,), False, "spec.priority"),
    Row("never returns", (endless,), False, "objects in `cluster`", says="never ends", short=True),
    Row("None", (None,), False, "make_n2_win"),
    Row("...", (...,), False, "make_n2_win"),
]

TABLES: dict[str, tuple[str, list[Row]]] = {
    "check_nodes_used": ("ch06", NODES_USED),
    "check_packer_profile": ("ch06", PACKER),
    "check_gpus_held_at_permit": ("ch06", GPUS_HELD),
    "check_late_member": ("ch06", LATE_MEMBER),
    "check_num_candidates": ("ch07", NUM_CANDIDATES),
    "check_dropped_by": ("ch07", DROPPED_BY),
    "check_make_n2_win": ("ch07", MAKE_N2_WIN),
}


@pytest.mark.parametrize("check,row", table_params(TABLES))
def test_check_verdict(check: str, row: Row, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_row(capsys, monkeypatch, getattr(exercises, check), row.args, row)


def test_every_check_of_chapters_06_and_07_has_a_table() -> None:
    from ksched_edu.exercises import ch06, ch07

    assert_every_check_has_a_table((ch06, ch07), TABLES)


@pytest.mark.ch06
@pytest.mark.parametrize("check,rows,answer", [
    ("check_gpus_held_at_permit", GPUS_HELD, r"(?<![\w-])(6|six)(?![\w-]|\.\w)"),  # not gpu-six.yaml
    ("check_late_member", LATE_MEMBER, r"\b90\b"),
], ids=["GPUs held at Permit", "the late member"])
def test_hints_do_not_give_the_answer_away(check: str, rows: list[Row], answer: str,
                                            capsys: pytest.CaptureFixture) -> None:
    import re

    for row in rows:
        if row.passes or row.short:
            continue
        assert getattr(exercises, check)(*row.args) is False
        hint = capsys.readouterr().out.split(" Hint: ", 1)[1]
        assert not re.search(answer, hint, flags=re.I), (row.id, hint)


@pytest.mark.ch06
def test_every_endless_answer_gets_its_verdict_within_eight_seconds_at_the_default_limit() -> None:
    """With the default time limit (no test override), each check answers an endless answer in time."""
    import time

    for check, (_, rows) in TABLES.items():
        for row in rows:
            if row.short:
                start = time.monotonic()
                getattr(exercises, check)(*row.args)
                assert time.monotonic() - start <= 8.0, (check, row.id)


@pytest.mark.parametrize("check", ["check_packer_profile", "check_make_n2_win"])
def test_checks_that_run_learner_code_take_a_time_limit(check: str) -> None:
    import inspect

    assert "seconds" in inspect.signature(getattr(exercises, check)).parameters


@pytest.mark.ch06
def test_the_late_member_asks_for_its_seven_siblings_at_permit() -> None:
    """What exercise 06.4's verdict says: train-7, created at t=90 s, is the first member to wait at
    Permit, and that moves the seven members refused at PreFilter to activeQ (ForceActivate)."""
    from ksched_edu.exercises import ch06
    from ksched_edu.trace import Recorder
    from ksched_edu.viz.readers import queue_moves

    assert ch06.all_bound_at() == 90
    sim = ch06.gang_simulation("coscheduling.yaml", only_the_gang=False, late=ch06.LATE_MEMBER,
                               recorder=Recorder()).run()
    moves = queue_moves(sim.recorder)
    refused = {m.pod for m in moves if m.time == 0 and "/train-" in m.pod and m.action == "requeue"}
    assert refused == {f"default/train-{i}" for i in range(7)}
    activated = {m.pod for m in moves if m.time == 90 and m.event == "ForceActivate"}
    assert activated == refused
    assert ch06.all_bound_at(("train-7", 0.0)) == 330  # section 5.4: no member is late
