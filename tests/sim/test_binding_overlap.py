"""The binding cycle overlaps the next scheduling cycle; the API server's resourceVersion.

Mirrors upstream's ``ScheduleOne`` (schedule_one.go), which starts ``bindingCycle``
in a goroutine and pops the next pod at once, and the queue's
``addUnschedulableWithoutQueueingHint`` (scheduling_queue.go), which sends a pod to
backoffQ when a move request came during its cycle (``moveRequestCycle >=
podSchedulingCycle``), as scheduling_queue_test.go's
TestPriorityQueue_AddUnschedulableIfNotPresent_Backoff does at the queue level.
The resourceVersion tests mirror eventhandlers.go's ``updatePodInSchedulingQueue``,
which drops an update whose old and new resourceVersion are equal.
"""
from __future__ import annotations

import pytest

from ksched_edu.api.defaults import apply_defaults
from ksched_edu.api.types import Cluster
from ksched_edu.config.loader import default_config
from ksched_edu.sim.apiserver import APIServer
from ksched_edu.sim.simulation import Simulation
from ksched_edu.trace import CycleEvent, Recorder
from tests.builders import make_node, make_pod

pytestmark = pytest.mark.ch05

HOST = "kubernetes.io/hostname"


def overlap_cluster() -> Cluster:
    """n1 has 1 CPU; n2 has 4 CPUs and room for 2 pods. a and c go to n2; b (4 CPUs) fits nowhere."""
    c = Cluster()
    c.nodes = [make_node().name("n1").label(HOST, "n1").capacity(cpu="1", memory="8Gi", pods="110").obj(),
               make_node().name("n2").label(HOST, "n2").capacity(cpu="4", memory="8Gi", pods="2").obj()]
    c.pods = [make_pod().name("a").namespace("default").node_selector({HOST: "n2"}).req(cpu="1").obj(),
              make_pod().name("b").namespace("default").req(cpu="4").obj(),
              make_pod().name("c").namespace("default").node_selector({HOST: "n2"}).req(cpu="1").obj()]
    return apply_defaults(c)


FIRST = "0/2 nodes are available: 2 Insufficient cpu."
RETRY = "0/2 nodes are available: 1 Too many pods, 2 Insufficient cpu."


def test_a_pod_failing_while_the_previous_bind_lands_goes_to_backoff_and_retries():
    rec = Recorder()
    sim = Simulation(overlap_cluster(), default_config(), seed=0, recorder=rec)
    sched = sim.scheduler
    assert sched.schedule_one()  # a: scheduled and assumed; its bind has not landed
    assert sim.api.get_pod("default", "a").spec.node_name == ""
    assert sched.schedule_one()  # b: popped, fails; a's bind lands during this cycle
    assert sim.api.get_pod("default", "a").spec.node_name == "n2"
    assert sched.scheduling_queue.queue_of(sim.api.get_pod("default", "b")) == "Backoff"
    sim.run()
    placements = {p.pod: (p.node, p.message) for p in sim.placements()}
    assert placements["default/c"] == ("n2", None)
    # b was retried after c bound: its final message is the retry's.
    assert placements["default/b"][0] is None and placements["default/b"][1].startswith(RETRY)
    assert sum(1 for e in rec.of(CycleEvent) if e.pod == "default/b" and e.kind == "start") == 2


def test_a_pod_failing_after_the_previous_bind_landed_is_parked_with_its_first_message():
    rec = Recorder()
    sim = Simulation(overlap_cluster(), default_config(), seed=0, recorder=rec)
    sched = sim.scheduler
    assert sched.schedule_one()
    assert sched.finish_binding_cycles()  # a's bind lands before b is popped
    assert sim.api.get_pod("default", "a").spec.node_name == "n2"
    assert sched.schedule_one()  # b fails; no event came during its cycle
    assert sched.scheduling_queue.queue_of(sim.api.get_pod("default", "b")) == "Unschedulable"
    sim.run()
    b = next(p for p in sim.placements() if p.pod == "default/b")
    assert b.node is None and b.message.startswith(FIRST)
    assert sum(1 for e in rec.of(CycleEvent) if e.pod == "default/b" and e.kind == "start") == 1


def test_the_run_loop_lands_binding_work_when_no_pod_is_left_to_pop():
    sim = Simulation(overlap_cluster(), default_config(), seed=0)
    sim.run()
    assert not sim.scheduler.busy()
    assert {p.pod: p.node for p in sim.placements()} == {"default/a": "n2", "default/b": None, "default/c": "n2"}


def test_finish_binding_cycles_is_false_with_nothing_to_land():
    sim = Simulation(overlap_cluster(), default_config(), seed=0)
    assert not sim.scheduler.finish_binding_cycles()


def test_with_bind_latency_the_bind_lands_during_the_cycle_running_then():
    rec = Recorder()
    sim = Simulation(overlap_cluster(), default_config(), seed=0, recorder=rec, bind_latency=0.5)
    sim.run()
    a = sim.api.get_pod("default", "a")
    assert a.spec.node_name == "n2"
    # a's bind, 0.5 s after its cycle, lands while nothing else is popped: at once.
    binds = [w for w in sim.api.writes if w.verb == "bind"]
    assert [w.key for w in binds] == ["default/a", "default/c"]
    assert binds[0].time == pytest.approx(0.5 + 0.003, abs=1e-9)


# --- resourceVersion: a real API server against client-go's fake tracker ----------------------


@pytest.mark.parametrize("resource_versions, want_first, want_bumped", [
    (True, "1", True),    # kube-apiserver: set on create, bumped on every write
    (False, "", False),   # fake clientset: never set, never changed
])
def test_resource_version_on_writes(resource_versions, want_first, want_bumped):
    api = APIServer(resource_versions=resource_versions)
    node = make_node().name("n1").obj()
    api.create(node)
    assert node.metadata.resource_version == want_first
    before = node.metadata.resource_version
    api.update(node)
    assert (node.metadata.resource_version != before) == want_bumped


def preemption_cluster() -> Cluster:
    """One node full of a low-priority pod; a high-priority pod preempts it."""
    c = Cluster()
    c.nodes = [make_node().name("n1").label(HOST, "n1").capacity(cpu="1", memory="8Gi", pods="110").obj()]
    c.pods = [make_pod().name("low").namespace("default").node("n1").priority(0).req(cpu="1").obj(),
              make_pod().name("high").namespace("default").priority(100).req(cpu="1").obj()]
    return apply_defaults(c)


@pytest.mark.parametrize("resource_versions, want_nominated_in_queue", [
    (True, "n1"),   # the status write comes back as an update: the queue's copy has nominatedNodeName
    (False, ""),    # dropped (equal resourceVersions): the queue's copy has none
])
def test_the_schedulers_own_status_write_reaches_the_queue_only_when_resource_version_changes(
        resource_versions, want_nominated_in_queue):
    sim = Simulation(preemption_cluster(), default_config(), seed=0, victim_grace_period=30.0,
                     resource_versions=resource_versions)
    sched = sim.scheduler
    assert sched.schedule_one()  # high preempts low; it is nominated to n1
    assert sim.api.get_pod("default", "high").status.nominated_node_name == "n1"
    queued = {info.pod.key: info for _, info in sched.scheduling_queue.pending_pod_infos()}
    assert queued["default/high"].pod.status.nominated_node_name == want_nominated_in_queue
