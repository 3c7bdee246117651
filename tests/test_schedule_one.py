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


# --- two steps as the Go has them (schedule_one.go) ---------------------------------------

ERROR_ON = "ErrorOnN3"


class _ErrorOnNode:
    """A Filter plugin: Unschedulable on n1, Error on n3, Success elsewhere."""

    def name(self) -> str:
        return ERROR_ON

    def filter(self, state, pod, node_info):
        from ksched_edu.framework.interface import Code, new_status
        if node_info.name == "n1":
            return new_status(Code.Unschedulable, "not n1")
        if node_info.name == "n3":
            return new_status(Code.Error, "n3 failed")
        return None


def _simulation(cluster_objects, *, plugin=None, queueing_hints=False):
    from ksched_edu.api.types import Cluster
    from ksched_edu.config.loader import load_config_data
    from ksched_edu.framework.plugins.registry import new_in_tree_registry
    from ksched_edu.framework.runtime import merge_registries
    from ksched_edu.sim.simulation import Simulation

    from ksched_edu.api import apply_defaults

    cluster = Cluster(nodes=[o for o in cluster_objects if o.kind == "Node"],
                      pods=[o for o in cluster_objects if o.kind == "Pod"])
    apply_defaults(cluster)  # as the API server would: schedulerName, allocatable, ...
    registry = new_in_tree_registry()
    text = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
    if plugin is not None:
        registry = merge_registries(registry, {plugin.name(): lambda args, handle: plugin})
        text += f"profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: {plugin.name()}\n"
    return Simulation(cluster, load_config_data(text), seed=0, registry=registry, queueing_hints=queueing_hints)


def test_a_filter_error_still_moves_next_start_node_index():
    """findNodesThatFitPod (L497-503): nextStartNodeIndex moves past the nodes processed
    before the Error (n1 rejected, n2 feasible), then the error is returned."""
    from tests.builders import make_node, make_pod

    nodes = [make_node().name(f"n{i}").capacity(cpu="4", memory="8Gi").obj() for i in range(1, 6)]
    pod = make_pod().name("p").namespace("default").req(cpu="1").obj()
    sim = _simulation(nodes + [pod], plugin=_ErrorOnNode())
    sched = sim.scheduler
    assert sched.next_start_node_index == 0
    sched.schedule_one()
    assert sched.next_start_node_index == 2  # 1 feasible (n2) + 1 status (n1), the Error not counted


def test_a_skipped_pod_is_not_marked_done():
    """ScheduleOne (L93-95) returns after skipPodSchedule without SchedulingQueue.Done: with
    queueing hints on, the skipped pod stays among the pods in flight."""
    from tests.builders import make_node, make_pod

    node = make_node().name("n1").capacity(cpu="4", memory="8Gi").obj()
    pod = make_pod().name("p").namespace("default").uid("p").req(cpu="1").obj()
    sim = _simulation([node, pod], queueing_hints=True)
    sched = sim.scheduler
    terminating = sim.api.get_pod("default", "p")
    terminating.metadata.deletion_timestamp = 1.0  # being deleted: skipPodSchedule says skip
    assert sched.schedule_one()
    assert "p" in sched.scheduling_queue.in_flight_pods
    assert sim.api.get_pod("default", "p").spec.node_name == ""
