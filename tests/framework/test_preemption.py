"""Tests of framework/preemption.py, mirroring preemption_test.go (v1.30) and the invariants of preemption.

Table tests cover nodesWherePreemptionMightHelp, pickOneNodeForPreemption and
the helpers of pkg/scheduler/util it relies on; property tests (Hypothesis)
run DefaultPreemption's PostFilter on random small clusters and check what
must always hold: a victim never has the preemptor's priority or more; when a
candidate node violates no PodDisruptionBudget, the chosen one violates none;
nothing is evicted when preemption cannot make the pod fit; and once the
victims are gone, the pod fits on the nominated node.
"""
from __future__ import annotations

import math
from typing import Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ksched_edu.api.types import Pod
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, new_status
from ksched_edu.framework.preemption import (CRITERION_FIRST, CRITERION_LATEST_START_TIME,
                                             CRITERION_MIN_HIGHEST_PRIORITY, CRITERION_MIN_NUM_PODS,
                                             CRITERION_MIN_PDB_VIOLATIONS, CRITERION_MIN_SUM_PRIORITIES,
                                             Evaluator, Victims, _CandidateList, aggregate_errors,
                                             get_earliest_pod_start_time, get_pod_start_time, more_important_pod,
                                             nodes_where_preemption_might_help, pick_one_node_for_preemption,
                                             pick_one_node_with_criterion)
from ksched_edu.framework.types import NodeInfo
from ksched_edu.internal.cache.snapshot import Snapshot
from ksched_edu.trace import PreemptionEvent, Recorder
from tests.builders import make_node, make_pod
from tests.framework.plugins.defaultpreemption.util import build, make_pdb

pytestmark = pytest.mark.ch07

U = Code.Unschedulable
UU = Code.UnschedulableAndUnresolvable


def pod(name: str, prio: Optional[int] = None, start: Optional[float] = None) -> Pod:
    w = make_pod().name(name).uid(name)
    if prio is not None:
        w.priority(prio)
    if start is not None:
        w.start_time(start)
    return w.obj()


# --- nodesWherePreemptionMightHelp ----------------------------------------------------


@pytest.mark.parametrize("statuses,expected_potential,expected_unresolvable", [
    pytest.param({"n1": U, "n2": U, "n3": U}, ["n1", "n2", "n3"], [], id="every node Unschedulable"),
    pytest.param({"n1": UU, "n2": U}, ["n2"], ["n1", "n3"],
                 id="UnschedulableAndUnresolvable and absent nodes are skipped"),
    pytest.param({}, [], ["n1", "n2", "n3"], id="an empty map means unresolvable everywhere"),
    pytest.param({"n1": Code.Error, "n2": U, "n3": U}, ["n2", "n3"], [],
                 id="a node with another code is neither tried nor reported"),
])
def test_nodes_where_preemption_might_help(statuses, expected_potential, expected_unresolvable) -> None:
    infos = []
    for n in ("n1", "n2", "n3"):
        info = NodeInfo()
        info.set_node(make_node().name(n).obj())
        infos.append(info)
    m = {name: new_status(code) for name, code in statuses.items()}
    potential, node_statuses = nodes_where_preemption_might_help(infos, m)
    assert [n.name for n in potential] == expected_potential
    assert sorted(node_statuses) == expected_unresolvable
    for s in node_statuses.values():
        assert s.code == UU and s.get_reasons() == ["Preemption is not helpful for scheduling"]


# --- pickOneNodeForPreemption -------------------------------------------------------------


def victims(*pods: Pod, pdb: int = 0) -> Victims:
    return Victims(list(pods), pdb)


@pytest.mark.parametrize("nodes_to_victims,expected,criterion", [
    pytest.param({"a": victims(pod("a1", 1), pdb=1), "b": victims(pod("b1", 100))}, "b",
                 CRITERION_MIN_PDB_VIOLATIONS, id="a node with fewer PDB violations wins"),
    pytest.param({"a": victims(pod("a1", 100)), "b": victims(pod("b1", 10), pod("b2", 10))}, "b",
                 CRITERION_MIN_HIGHEST_PRIORITY, id="a node with a lower highest-priority victim wins"),
    pytest.param({"a": victims(pod("a1", 10), pod("a2", 5)), "b": victims(pod("b1", 10), pod("b2", 1))}, "b",
                 CRITERION_MIN_SUM_PRIORITIES, id="then the lower sum of priorities"),
    pytest.param({"a": victims(pod("a1", -100), pod("a2", -100)), "b": victims(pod("b1", -100))}, "b",
                 CRITERION_MIN_SUM_PRIORITIES, id="the sum adds MaxInt32+1 to every priority"),
    pytest.param({"a": victims(pod("a1", 10), pod("a2", 0), pod("a3", 0)),
                  "b": victims(pod("b1", 10), pod("b2", 0))}, "b",
                 CRITERION_MIN_SUM_PRIORITIES, id="fewer victims of equal priority sum less"),
    pytest.param({"a": victims(pod("a1", 10, 5.0)), "b": victims(pod("b1", 10, 7.0))}, "b",
                 CRITERION_LATEST_START_TIME, id="then the latest start among the highest-priority victims"),
    pytest.param({"a": victims(pod("a1", 10, 5.0)), "b": victims(pod("b1", 10, 5.0))}, "a",
                 CRITERION_FIRST, id="then the first node"),
    pytest.param({"a": victims(pod("a1", 10, 5.0)), "b": victims(pod("b1", 10))}, "b",
                 CRITERION_LATEST_START_TIME, id="a victim that has not started counts as started now"),
])
def test_pick_one_node_for_preemption(nodes_to_victims, expected, criterion) -> None:
    assert pick_one_node_with_criterion(nodes_to_victims, None) == (expected, criterion)
    assert pick_one_node_for_preemption(nodes_to_victims) == expected


def test_pick_one_node_counts_victims_when_sums_tie() -> None:
    # Equal sums need equal counts (each victim adds MaxInt32+1), so "fewest victims" only decides
    # when custom priorities make the sums tie; with score functions given, those decide instead.
    nodes_to_victims = {"a": victims(pod("a1", 0), pod("a2", 0)), "b": victims(pod("b1", 0))}
    assert pick_one_node_with_criterion(nodes_to_victims, None)[1] == CRITERION_MIN_SUM_PRIORITIES
    funcs = [lambda n: 0, lambda n: -len(nodes_to_victims[n].pods)]
    assert pick_one_node_with_criterion(nodes_to_victims, funcs) == ("b", "score function 2")
    assert CRITERION_MIN_NUM_PODS  # the default rule exists, in its place in the order


def test_pick_one_node_of_nothing() -> None:
    assert pick_one_node_for_preemption({}) == ""


# --- util helpers -------------------------------------------------------------------------


def test_get_earliest_pod_start_time() -> None:
    v = victims(pod("a", 10, 9.0), pod("b", 20, 8.0), pod("c", 20, 7.0), pod("d", 5, 1.0))
    assert get_earliest_pod_start_time(v) == 7.0
    assert get_earliest_pod_start_time(victims()) is None
    assert get_pod_start_time(pod("x")) == math.inf


@pytest.mark.parametrize("p1,p2,expected", [
    pytest.param(pod("a", 10), pod("b", 5), True, id="higher priority first"),
    pytest.param(pod("a", 5, 1.0), pod("b", 5, 2.0), True, id="equal priority: earlier start first"),
    pytest.param(pod("a", 5, 2.0), pod("b", 5, 1.0), False, id="equal priority: later start after"),
    pytest.param(pod("a"), pod("b", 0, 1.0), False, id="no priority is 0; no start time is now"),
])
def test_more_important_pod(p1, p2, expected) -> None:
    assert more_important_pod(p1, p2) is expected


@pytest.mark.parametrize("messages,expected", [
    pytest.param([], None, id="no error"),
    pytest.param(["a"], "a", id="one error"),
    pytest.param(["a", "b"], "[a, b]", id="several errors"),
    pytest.param(["a", "a"], "a", id="repeated errors once"),
])
def test_aggregate_errors(messages, expected) -> None:
    assert aggregate_errors(messages) == expected


def test_candidate_list_drops_beyond_its_size() -> None:
    from ksched_edu.framework.preemption import Candidate

    cl = _CandidateList(2)
    for name in ("a", "b", "c"):
        cl.add(Candidate(Victims(), name))
    assert cl.size() == 2 and [c.name for c in cl.get()] == ["a", "b"]


def test_find_candidates_without_nodes() -> None:
    env = build([], [])
    p = make_pod().name("p").uid("p").namespace("default").priority(10).obj()
    env.client.create(p)
    ev = Evaluator("DefaultPreemption", env.fwk, CycleState(), env.plugin)
    assert ev.find_candidates(p, {}) == ([], {}, "no nodes available")
    res, status = ev.preempt(p, {})
    assert res is None and status.code == Code.Error and status.message() == "no nodes available"


def test_find_candidates_clears_nomination_where_preemption_cannot_help() -> None:
    node = make_node().name("n1").capacity(cpu="1").obj()
    p = make_pod().name("p").uid("p").namespace("default").priority(10).nominated_node_name("n1").obj()
    env = build([], [node], pending=[p])
    res, status = env.plugin.post_filter(CycleState(), p, {"n1": new_status(UU, "node(s) didn't match")})
    assert res is not None and res.nominating_info.nominated_node_name == ""
    assert status.message() == "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
    assert env.client.get_pod("default", "p").status.nominated_node_name == ""


# --- properties ------------------------------------------------------------------------------

CPU_CHOICES = [200, 300, 400, 500]


@st.composite
def clusters(draw):
    """1-3 nodes with 1000m CPU, running pods with random priorities/requests/labels, a preemptor, PDBs."""
    num_nodes = draw(st.integers(1, 3))
    pods: list[Pod] = []
    for n in range(num_nodes):
        used = 0
        for i in range(draw(st.integers(1, 5))):
            cpu = draw(st.sampled_from(CPU_CHOICES))
            if used + cpu > 1000:
                break
            used += cpu
            w = make_pod().name(f"v{n}-{i}").uid(f"v{n}-{i}").namespace("default").node(f"n{n}") \
                .priority(draw(st.integers(0, 4)) * 10).req(cpu=f"{cpu}m").start_time(float(draw(st.integers(0, 3))))
            if draw(st.booleans()):
                w.label("app", "guarded")
            pods.append(w.obj())
    preemptor = make_pod().name("p").uid("p").namespace("default").priority(draw(st.integers(1, 4)) * 10 + 5) \
        .req(cpu=f"{draw(st.sampled_from([300, 500, 700, 900, 1200]))}m").obj()
    pdbs = [make_pdb("guard", "default", {"app": "guarded"}, draw(st.integers(0, 2)))] if draw(st.booleans()) else []
    nodes = [make_node().name(f"n{n}").capacity(cpu="1", memory="1Gi").obj() for n in range(num_nodes)]
    return nodes, pods, preemptor, pdbs


def _run(nodes, pods, preemptor, pdbs):
    recorder = Recorder()
    env = build(pods, nodes, pending=[preemptor], pdbs=pdbs, recorder=recorder)
    state = env.state_for(preemptor)
    m = {}
    for info in env.snapshot.list():
        s = env.fwk.run_filter_plugins(state, preemptor, info)
        if s is not None and not s.is_success():
            m[info.name] = s
    return env, m, recorder


def _fits_without_lower_priority(node: NodeInfo, preemptor: Pod) -> bool:
    prio = preemptor.spec.priority or 0
    kept = sum(p.pod.spec.containers[0].resources.requests["cpu"].milli_value()
               for p in node.pods if (p.pod.spec.priority or 0) >= prio)
    return kept + preemptor.spec.containers[0].resources.requests["cpu"].milli_value() <= 1000


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters())
def test_preemption_invariants(cluster) -> None:
    nodes, pods, preemptor, pdbs = cluster
    env, m, recorder = _run(nodes, pods, preemptor, pdbs)
    if len(m) < len(nodes):
        return  # the pod fits somewhere: PostFilter would not run
    prio = preemptor.spec.priority
    by_name = {p.key: p for p in pods}
    result, status = env.plugin.post_filter(env.state_for(preemptor), preemptor, m)
    deleted = list(env.client.deleted)
    could_fit = any(_fits_without_lower_priority(info, preemptor) for info in env.snapshot.list())

    # A victim never has the preemptor's priority or more.
    assert all(by_name[key].spec.priority < prio for key in deleted)

    if not could_fit:
        # Preemption cannot make the pod fit: nothing is evicted and the nomination is cleared.
        assert deleted == []
        assert status.code == Code.Unschedulable
        assert result is not None and result.nominating_info.nominated_node_name == ""
        return

    assert status.is_success(), status
    chosen = result.nominating_info.nominated_node_name
    [event] = recorder.of(PreemptionEvent)
    assert event.nominated_node == chosen
    assert sorted(event.victims) == sorted(deleted)
    assert all(by_name[key].spec.node_name == chosen for key in deleted)
    # When some candidate violates no PDB, the chosen one violates none.
    if any(c.num_pdb_violations == 0 for c in event.candidates):
        assert next(c for c in event.candidates if c.node == chosen).num_pdb_violations == 0
    # Without its victims the pod fits the nominated node.
    remaining = [p for p in pods if p.key not in deleted]
    after = Snapshot.from_objects(remaining, nodes).get(chosen)
    state = CycleState()
    env.fwk.run_pre_filter_plugins(state, preemptor)
    assert env.fwk.run_filter_plugins(state, preemptor, after) is None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters())
def test_select_victims_reprieves_maximally(cluster) -> None:
    """No single victim could be put back: with it the pod would not fit (the reprieve is maximal)."""
    nodes, pods, preemptor, pdbs = cluster
    env, m, _ = _run(nodes, pods, preemptor, pdbs)
    for info in env.snapshot.list():
        state = env.state_for(preemptor)
        copy_ = info.snapshot()
        victims_, _, status = env.plugin.select_victims_on_node(state.clone(), preemptor, copy_, pdbs)
        if status is None or not status.is_success():
            continue
        for v in victims_:
            trial = copy_.snapshot()
            trial.add_pod(v)
            s = CycleState()
            env.fwk.run_pre_filter_plugins(s, preemptor)
            assert env.fwk.run_filter_plugins(s, preemptor, trial) is not None


MIN32, MAX32 = -(2**31), 2**31 - 1


@pytest.mark.parametrize("nodes_to_victims,expected,criterion", [
    # int64(priority) + MaxInt32 + 1 is exactly 0 for a MinInt32 victim: the sums tie and the
    # count decides. An offset one smaller would make the sums -2 and -1 instead.
    pytest.param({"a": victims(pod("a1", MIN32), pod("a2", MIN32)), "b": victims(pod("b1", MIN32))}, "b",
                 CRITERION_MIN_NUM_PODS, id="MinInt32 victims add nothing to the sum"),
    pytest.param({"a": victims(pod("a1", MAX32), pod("a2", MIN32)), "b": victims(pod("b1", MAX32))}, "b",
                 CRITERION_MIN_NUM_PODS, id="a MinInt32 victim beside a MaxInt32 one ties the sum"),
    pytest.param({"a": victims(pod("a1", MAX32), pod("a2", MIN32 + 1)), "b": victims(pod("b1", MAX32))}, "b",
                 CRITERION_MIN_SUM_PRIORITIES, id="MinInt32+1 adds one"),
    pytest.param({"a": victims(*[pod(f"a{i}", MAX32) for i in range(3)]),
                  "b": victims(pod("b1", MAX32), pod("b2", MAX32))}, "b",
                 CRITERION_MIN_SUM_PRIORITIES, id="MaxInt32 victims add 2^32 each, in int64"),
])
def test_pick_one_node_sum_of_priorities_offsets(nodes_to_victims, expected, criterion) -> None:
    """Mirrors pickOneNodeForPreemption's minSumPrioritiesScoreFunc (int64(MaxInt32)+1 per victim)."""
    assert pick_one_node_with_criterion(nodes_to_victims, None) == (expected, criterion)
