"""The scheduler loop on the virtual clock: binding cycle, Permit, failures and invariants.

Mirrors schedule_one_test.go's TestSchedulerScheduleOne (bind error, Reserve/Permit
rejections, PreBind error -> Unreserve in reverse order, requeue) and
framework_test.go's TestPermitPlugins / waiting-pod cases, run through the real loop.
"""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_edu.api.defaults import apply_defaults
from ksched_edu.api.types import Cluster
from ksched_edu.config.loader import default_config
from ksched_edu.config.types import Plugin
from ksched_edu.framework.interface import Code, new_status
from ksched_edu.framework.plugins.registry import new_in_tree_registry
from ksched_edu.framework.runtime import merge_registries
from ksched_edu.sim.simulation import Simulation
from ksched_edu.trace import BindEvent, PermitEvent, PluginEvent, QueueEvent, Recorder
from tests.builders import make_node, make_pod

pytestmark = pytest.mark.ch05
ROOT = Path(__file__).resolve().parents[2]


def cluster(nodes=1, pods=1, cpu="1") -> Cluster:
    c = Cluster()
    c.nodes = [make_node().name(f"n{i}").capacity(cpu="4", memory="8Gi", pods="110").obj() for i in range(nodes)]
    c.pods = [make_pod().name(f"p{i}").namespace("default").req(cpu=cpu, memory="100Mi").obj() for i in range(pods)]
    return apply_defaults(c)


@dataclass
class Hooks:
    """A test plugin at Reserve, Permit and PreBind, recording what happened to it."""

    plugin_name: str
    log: list[str]
    permit_code: Code = Code.Success
    permit_timeout: float = 10.0
    pre_bind_code: Code = Code.Success
    waiting: list = field(default_factory=list)

    def name(self) -> str:
        return self.plugin_name

    def reserve(self, state, pod, node_name):
        self.log.append(f"reserve {self.plugin_name}")
        return None

    def unreserve(self, state, pod, node_name):
        self.log.append(f"unreserve {self.plugin_name}")

    def permit(self, state, pod, node_name):
        if self.permit_code == Code.Success:
            return None, 0.0
        return new_status(self.permit_code, f"{self.plugin_name} says {self.permit_code.name}"), self.permit_timeout

    def pre_bind(self, state, pod, node_name):
        if self.pre_bind_code == Code.Success:
            return None
        return new_status(self.pre_bind_code, "prebind failed")


def simulate(c: Cluster, hooks: list[Hooks], **options) -> tuple[Simulation, Recorder]:
    config = default_config()
    plugins = config.profiles[0].plugins
    for h in hooks:
        for point in ("reserve", "permit", "pre_bind"):
            getattr(plugins, point).enabled.append(Plugin(h.plugin_name))
    registry = merge_registries(new_in_tree_registry(), {h.plugin_name: (lambda a, f, h=h: h) for h in hooks})
    rec = Recorder()
    return Simulation(c, config, seed=1, recorder=rec, registry=registry, **options), rec


def test_bind_happens_after_the_latency_and_the_cache_is_assumed_meanwhile():
    sim, rec = simulate(cluster(pods=2), [], bind_latency=0.5)
    sim.scheduler.schedule_one()
    sim.scheduler.schedule_one()  # the second pod is scheduled while the first still binds
    assert [e.kind for e in rec.of(BindEvent)] == ["assume", "assume"]
    assert sim.api.get_pod("default", "p0").spec.node_name == ""
    sim.run()
    assert sim.clock.now == pytest.approx(0.5 + 0.001 * 2, abs=0.01)
    assert [p.node for p in sim.placements()] == ["n0", "n0"]


def test_pre_bind_error_unreserves_in_reverse_order_and_requeues():
    log: list[str] = []
    hooks = [Hooks("A", log), Hooks("B", log, pre_bind_code=Code.Error)]
    sim, rec = simulate(cluster(), hooks)
    sim.run(until=0.5)
    assert log[:4] == ["reserve A", "reserve B", "unreserve B", "unreserve A"]
    assert [e.kind for e in rec.of(BindEvent)][:2] == ["assume", "forget"]
    assert sim.scheduler.scheduling_queue.queue_of(sim.api.get_pod("default", "p0")) == "Backoff"
    placement = sim.placements()[0]
    assert placement.node is None and 'running PreBind plugin "B": prebind failed' in placement.message


def test_permit_rejection_is_a_fit_error_on_the_chosen_node():
    log: list[str] = []
    sim, _ = simulate(cluster(), [Hooks("A", log, permit_code=Code.Unschedulable)])
    sim.run(until=0.5)
    placement = sim.placements()[0]
    assert placement.node is None
    assert placement.message == "0/1 nodes are available: 1 A says Unschedulable."
    assert log[-1] == "unreserve A"


def test_permit_wait_times_out_with_upstream_message():
    log: list[str] = []
    sim, rec = simulate(cluster(), [Hooks("A", log, permit_code=Code.Wait, permit_timeout=3.0)])
    sim.run(until=2.9)
    fwk = sim.scheduler.profiles["default-scheduler"]
    assert fwk.get_waiting_pod(sim.api.get_pod("default", "p0").uid) is not None  # still waiting
    sim.run(until=3.5)
    placement = sim.placements()[0]
    assert placement.node is None
    assert placement.message == "0/1 nodes are available: 1 rejected due to timeout after waiting 3s at plugin A."
    assert "unreserve A" in log
    wait, timeout = rec.of(PermitEvent)[:2]
    assert (wait.kind, wait.plugins, wait.deadline) == ("wait", ("A",), pytest.approx(wait.time + 3.0))
    assert (timeout.kind, timeout.time, timeout.message) == (
        "timeout", pytest.approx(wait.time + 3.0), "rejected due to timeout after waiting 3s at plugin A")


def test_permit_wait_then_allow_binds():
    log: list[str] = []
    sim, rec = simulate(cluster(), [Hooks("A", log, permit_code=Code.Wait)])
    sim.run(until=1.0)
    fwk = sim.scheduler.profiles["default-scheduler"]
    fwk.get_waiting_pod(sim.api.get_pod("default", "p0").uid).allow("A")
    sim.run()
    assert sim.placements()[0].node == "n0"
    assert "unreserve A" not in log
    assert [(e.time, e.kind) for e in rec.of(PermitEvent)] == [(pytest.approx(0.001), "wait"), (1.0, "allowed")]


def test_unschedulable_pod_moves_back_when_a_node_is_added():
    c = cluster(nodes=1, pods=1, cpu="6")  # fits nowhere on a 4-CPU node
    sim, rec = simulate(c, [])
    sim.run()
    assert sim.placements()[0].node is None
    sim.api.create(make_node().name("big").capacity(cpu="8", memory="8Gi", pods="110").obj())
    sim.run()
    assert sim.placements()[0].node == "big"
    moves = [e for e in rec.of(QueueEvent) if e.event == "NodeAdd"]
    assert moves and moves[0].pod == "default/p0"


# --- invariants ------------------------------------------------------------------------------

ARRIVALS = st.lists(st.tuples(st.integers(1, 3), st.integers(0, 5)), min_size=1, max_size=25)


@settings(max_examples=25, deadline=None)
@given(ARRIVALS, st.integers(1, 4))
def test_every_pod_is_in_one_place_and_no_node_is_over_committed(pods, nodes):
    c = Cluster()
    c.nodes = [make_node().name(f"n{i}").capacity(cpu="2", memory="4Gi", pods="4").obj() for i in range(nodes)]
    c.pods = [make_pod().name(f"p{i}").namespace("default").req(cpu=f"{cpu * 300}m").priority(prio).obj()
              for i, (cpu, prio) in enumerate(pods)]
    sim = Simulation(apply_defaults(c), default_config(), seed=3)
    sched = sim.scheduler
    for _ in range(200):
        for pod in sim.pending:
            current = sim.api.get_pod("default", pod.metadata.name)
            where = sched.scheduling_queue.queue_of(current)
            assumed = sched.cache.is_assumed_pod(current)
            bound = bool(current.spec.node_name)
            # exactly one of: a queue, in flight (assumed, binding), or bound
            assert (where is not None) + (assumed and not bound) + bound >= 1
            assert not (where is not None and bound)
        if not sched.busy():
            break
        due = sched.clock.next_due()
        if due is not None and due <= sched.clock.now:
            sched.clock.fire_next()
        elif not sched.schedule_one():
            sched.clock.fire_next()
    for node in sim.api.list("Node"):
        on_node = [p for p in sim.api.list("Pod") if p.spec.node_name == node.metadata.name]
        cpu = sum(p.spec.containers[0].resources.requests["cpu"].milli_value() for p in on_node)
        assert cpu <= 2000 and len(on_node) <= 4


DETERMINISM_SCRIPT = """
import sys
from ksched_edu.api.loader import load_cluster
from ksched_edu.config.loader import default_config
from ksched_edu.sim.simulation import Simulation
from ksched_edu.sim.workload import load_workload
from ksched_edu.trace import Recorder
rec = Recorder()
w = load_workload(["data/clusters/three-nodes.yaml", "data/workloads/arrivals.yaml"])
Simulation.from_workload(w, default_config(), seed=7, recorder=rec).run()
for e in rec.events:
    print(e)
"""


def test_same_seed_same_trace_in_two_processes_with_different_hash_seeds():
    outs = []
    for hash_seed in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        proc = subprocess.run([sys.executable, "-c", DETERMINISM_SCRIPT], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=True)
        outs.append(proc.stdout)
    assert outs[0] == outs[1] and len(outs[0].splitlines()) > 100


def test_filter_events_carry_the_cycle_and_node():
    sim, rec = simulate(cluster(nodes=2), [])
    sim.run()
    filters = [e for e in rec.of(PluginEvent) if e.point == "Filter"]
    assert {e.node for e in filters} == {"n0", "n1"} and all(e.cycle == 1 for e in filters)


def test_preemption_victims_leave_after_their_grace_period():
    c = Cluster()
    c.nodes = [make_node().name("n0").capacity(cpu="1", memory="8Gi", pods="110").obj()]
    c.pods = [make_pod().name("low").namespace("default").req(cpu="1").priority(1).node("n0").obj(),
              make_pod().name("high").namespace("default").req(cpu="1").priority(100).obj()]
    sim = Simulation(apply_defaults(c), default_config(), seed=1)
    sim.run(until=10.0)
    low = sim.api.get_pod("default", "low")
    assert low is not None and low.metadata.deletion_timestamp is not None  # terminating, 30 s grace
    assert sim.placements()[0].nominated_node == "n0" and sim.placements()[0].node is None
    sim.run()
    assert sim.api.get_pod("default", "low") is None
    assert sim.placements()[0].node == "n0" and sim.clock.now >= 30.0
