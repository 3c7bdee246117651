"""Properties of gang scheduling over random clusters (Hypothesis).

- All or nothing: when the run stops, a gang has no member bound, or at least
  ``minMember`` of them (all of them when ``minMember`` is the gang's size).
- No reservation outlives its timeout: a member assumed on a node is bound or
  forgotten within its group's wait time (``scheduleTimeoutSeconds``, else the
  plugin's ``permitWaitingTimeSeconds``), and none still waits longer at the end.

Runs stop at a horizon: a gang that can never fit is retried for ever, as upstream.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ksched_edu.api.podgroup import POD_GROUP_LABEL, PodGroup, PodGroupSpec
from ksched_edu.api.types import Cluster, ObjectMeta
from ksched_edu.config.loader import load_config_data
from ksched_edu.framework.plugins.registry import new_registry_with_out_of_tree
from ksched_edu.sim.simulation import Simulation
from ksched_edu.trace import BindEvent, Recorder
from tests.builders import make_node, make_pod

pytestmark = pytest.mark.ch06  # Coscheduling is a section of chapter 06 (profiles)

PERMIT_WAITING_TIME_SECONDS = 5
HORIZON = 120.0

# The README's configuration: Coscheduling at every point it implements.
FULL_CONFIG = f"""\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled:
      - name: Coscheduling
      disabled:
      - name: PrioritySort
  pluginConfig:
  - name: Coscheduling
    args:
      permitWaitingTimeSeconds: {PERMIT_WAITING_TIME_SECONDS}
      podGroupBackoffSeconds: 3
"""

# The least the README asks for (queueSort, permit, reserve): no PreFilter refuses a group
# with missing members and no PostFilter releases it, so members wait until they time out.
MINIMAL_CONFIG = f"""\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    queueSort:
      enabled: [{{name: Coscheduling}}]
      disabled: [{{name: "*"}}]
    permit:
      enabled: [{{name: Coscheduling}}]
    reserve:
      enabled: [{{name: Coscheduling}}]
  pluginConfig:
  - name: Coscheduling
    args:
      permitWaitingTimeSeconds: {PERMIT_WAITING_TIME_SECONDS}
"""
configs = st.sampled_from([FULL_CONFIG, MINIMAL_CONFIG])

gangs = st.lists(st.tuples(st.integers(1, 5),                      # members
                           st.integers(0, 4),                      # members fewer than minMember asks for
                           st.one_of(st.none(), st.integers(1, 8)),  # scheduleTimeoutSeconds
                           st.integers(1, 2)),                     # GPUs per member
                 min_size=1, max_size=3)
nodes = st.lists(st.integers(0, 4), min_size=1, max_size=3)  # GPUs per node
plain = st.lists(st.integers(0, 2), max_size=3)  # GPUs of pods in no group


def _cluster(node_gpus: list[int], gang_specs: list[tuple], plain_gpus: list[int]) -> tuple[Cluster, dict]:
    cluster = Cluster()
    for i, gpus in enumerate(node_gpus):
        cluster.nodes.append(make_node().name(f"n{i}").capacity({"cpu": "16", "memory": "64Gi", "pods": "110",
                                                                  "nvidia.com/gpu": str(gpus)}).obj())
    groups: dict[str, tuple[int, float]] = {}
    for g, (members, missing, timeout, gpus) in enumerate(gang_specs):
        name = f"g{g}"
        min_member = members + missing
        cluster.extra.setdefault("PodGroup", []).append(
            PodGroup(metadata=ObjectMeta(name=name, namespace="default", uid=f"pg-{name}"),
                     spec=PodGroupSpec(min_member=min_member, schedule_timeout_seconds=timeout)))
        groups[name] = (min_member, float(timeout if timeout is not None else PERMIT_WAITING_TIME_SECONDS))
        for m in range(members):
            cluster.pods.append(make_pod().name(f"{name}-{m}").uid(f"{name}-{m}").namespace("default")
                                .label(POD_GROUP_LABEL, name).req({"cpu": "1", "nvidia.com/gpu": str(gpus)}).obj())
    for i, gpus in enumerate(plain_gpus):
        cluster.pods.append(make_pod().name(f"plain-{i}").uid(f"plain-{i}").namespace("default")
                            .req({"cpu": "1", "nvidia.com/gpu": str(gpus)}).obj())
    for p in cluster.pods:
        p.spec.scheduler_name = "default-scheduler"
    return cluster, groups


def _run(config, node_gpus, gang_specs, plain_gpus):
    cluster, groups = _cluster(node_gpus, gang_specs, plain_gpus)
    recorder = Recorder()
    sim = Simulation(cluster, load_config_data(config), recorder=recorder, registry=new_registry_with_out_of_tree())
    sim.scheduler.run(until=HORIZON, max_steps=200_000)
    assert sim.clock.now <= HORIZON + 1e-9 and (sim.clock.now == HORIZON or not sim.scheduler.busy()), \
        "the run neither reached the horizon nor became quiescent"
    return sim, recorder, groups


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(configs, nodes, gangs, plain)
def test_a_gang_is_bound_all_or_nothing(config, node_gpus, gang_specs, plain_gpus):
    sim, _, groups = _run(config, node_gpus, gang_specs, plain_gpus)
    bound = {p.pod for p in sim.placements() if p.node}
    for name, (min_member, _) in groups.items():
        members = [p for p in sim.pending if p.metadata.labels.get(POD_GROUP_LABEL) == name]
        n = sum(1 for p in members if p.key in bound)
        assert n == 0 or n >= min_member, f"{name}: {n} of {len(members)} bound, minMember {min_member}"
        if min_member == len(members):
            assert n in (0, len(members))


@SETTINGS
@given(configs, nodes, gangs, plain)
def test_no_reservation_outlives_its_timeout(config, node_gpus, gang_specs, plain_gpus):
    sim, recorder, groups = _run(config, node_gpus, gang_specs, plain_gpus)
    group_of = {p.key: p.metadata.labels.get(POD_GROUP_LABEL) for p in sim.pending}
    assumed_at: dict[str, float] = {}
    for e in recorder.of(BindEvent):
        group = group_of.get(e.pod)
        if e.kind == "assume":
            assumed_at[e.pod] = e.time
        elif e.pod in assumed_at:
            held = e.time - assumed_at.pop(e.pod)
            if group:
                assert held <= groups[group][1] + 1e-9, f"{e.pod} held its node {held}s"
            else:
                assert held == 0.0  # a pod in no group never waits at Permit
    for pod, since in assumed_at.items():
        assert sim.clock.now - since <= groups[group_of[pod]][1] + 1e-9, f"{pod} still waits at the end"
