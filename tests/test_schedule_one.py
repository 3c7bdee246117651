"""Tests of schedule_one.py, mirroring schedule_one_test.go (v1.30)."""
from __future__ import annotations

import random

import pytest

from ksched_edu.framework.interface import Code, NodePluginScores, new_status
from ksched_edu.framework.types import Diagnosis, FitError
from ksched_edu.schedule_one import num_feasible_nodes_to_find, rand_intn, select_host, truncate_message
from tests.builders import make_pod

pytestmark = pytest.mark.ch04


# Mirrors TestNumFeasibleNodesToFind.
@pytest.mark.parametrize("name,global_pct,profile_pct,num_all,want", [
    ("not set percentageOfNodesToScore and nodes number not more than 50", None, None, 10, 10),
    ("set profile percentageOfNodesToScore and nodes number not more than 50", None, 40, 10, 10),
    ("not set percentageOfNodesToScore and nodes number more than 50", None, None, 1000, 420),
    ("set profile percentageOfNodesToScore and nodes number more than 50", None, 40, 1000, 400),
    ("set global and profile percentageOfNodesToScore and nodes number more than 50", 100, 40, 1000, 400),
    ("set global percentageOfNodesToScore and nodes number more than 50", 40, None, 1000, 400),
    ("not set profile percentageOfNodesToScore and nodes number more than 50*125", None, None, 6000, 300),
    ("set profile percentageOfNodesToScore and nodes number more than 50*125", None, 40, 6000, 2400),
    ("99 nodes are searched whole", None, None, 99, 99),
    ("100 nodes: 49% of them would be below the minimum of 100", None, None, 100, 100),
    ("5000 nodes: 50 - 5000/125 = 10%", None, None, 5000, 500),
    ("at most the minimum percentage of 5% on huge clusters", None, None, 100_000, 5000),
])
def test_num_feasible_nodes_to_find(name, global_pct, profile_pct, num_all, want):
    assert num_feasible_nodes_to_find(global_pct, profile_pct, num_all) == want


def scores(*totals: int) -> list[NodePluginScores]:
    return [NodePluginScores(f"node{i}", total_score=t) for i, t in enumerate(totals)]


# Mirrors TestSelectHost: the winner is always one of the top-scoring nodes.
@pytest.mark.parametrize("name,totals,possible", [
    ("unique properly ordered scores", (1, 2), {"node1"}),
    ("equal scores", (1, 2, 2, 2), {"node1", "node2", "node3"}),
    ("out of order scores", (3, 3, 2, 1), {"node0", "node1"}),
])
def test_select_host(name, totals, possible):
    seen = {select_host(scores(*totals), 3, random.Random(seed)) for seed in range(40)}
    assert seen == possible  # every tied node wins for some seed, nothing else ever does


def test_select_host_is_deterministic_for_a_seed():
    picks = [select_host(scores(5, 5, 5, 5), 3, random.Random(7)) for _ in range(3)]
    assert len(set(picks)) == 1


class CountingRandom(random.Random):
    """A generator whose randrange is its own: rand_intn must ask it, not getrandbits."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked: list[int] = []

    def randrange(self, n, *args):  # type: ignore[override]
        self.asked.append(n)
        return super().randrange(n, *args)


class FirstDraw:
    """Not a random.Random at all: only randrange, as a notebook's stand-in may have."""

    def randrange(self, n: int) -> int:
        return 0


@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_rand_intn_draws_what_randrange_draws(seed):
    # select_host's ties were broken by randrange(n); rand_intn must keep every draw.
    ns = [1, 2, 3, 4, 5, 7, 8, 9, 100, 255, 256, 257, 1000, 4999, 5000]
    intn = rand_intn(random.Random(seed))
    reference = random.Random(seed)
    assert [intn(n) for n in ns * 20] == [reference.randrange(n) for n in ns * 20]


def test_rand_intn_asks_a_generator_with_its_own_randrange():
    rng = CountingRandom(3)
    select_host(scores(5, 5, 5, 5), 3, rng)
    assert rng.asked == [2, 3, 4]
    assert select_host(scores(5, 5, 5), 3, FirstDraw()) == "node2"  # every draw 0: the last tie wins


def test_select_host_refuses_an_empty_list():
    with pytest.raises(Exception, match="empty priorityList"):
        select_host([], 3, random.Random(0))


# Mirrors TestFitError / the FitError message of types_test.go.
@pytest.mark.parametrize("name,statuses,pre_filter_msg,post_filter_msg,want", [
    ("nodes failing with the same reason are counted",
     {"n1": ["Insufficient cpu"], "n2": ["Insufficient cpu"], "n3": ["node(s) had untolerated taint {a: b}"]},
     "", "", "0/3 nodes are available: 1 node(s) had untolerated taint {a: b}, 2 Insufficient cpu."),
    ("a PreFilter rejection replaces the histogram", {"n1": ["x"]}, "pod affinity terms conflict", "",
     "0/3 nodes are available: pod affinity terms conflict."),
    ("the PostFilter message follows",
     {"n1": ["Insufficient cpu"], "n2": ["Insufficient cpu"], "n3": ["Insufficient cpu"]}, "",
     "preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
     "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption "
     "victims found for incoming pod."),
    ("a node with two reasons counts in both",
     {"n1": ["Insufficient cpu", "Insufficient memory"], "n2": ["Insufficient memory"]}, "", "",
     "0/3 nodes are available: 1 Insufficient cpu, 2 Insufficient memory."),
])
def test_fit_error_message(name, statuses, pre_filter_msg, post_filter_msg, want):
    diagnosis = Diagnosis({n: new_status(Code.Unschedulable, *r) for n, r in statuses.items()},
                          pre_filter_msg=pre_filter_msg, post_filter_msg=post_filter_msg)
    assert str(FitError(make_pod().name("p").obj(), 3, diagnosis)) == want


def test_truncate_message_keeps_the_event_note_limit():
    assert truncate_message("short") == "short"
    long = "x" * 2000
    assert len(truncate_message(long)) == 1024 and truncate_message(long).endswith(" ...")
