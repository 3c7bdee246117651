"""The traces the view tests read: the teaching cluster, alone or with two more pods.

``teaching_cluster()`` is data/clusters/three-nodes.yaml as it is: default/web
lands on n3 (n2 is tainted, n3 scores highest). ``crowded_cluster()`` adds
default/big (10 CPUs: fits nowhere until node n4 arrives at t=1) and
default/b2 (1 CPU), with a binding latency so the binding cycle is visible:

    t=0      web, big, b2 enter activeQ (0.001 s apart)
    t=0.003  cycle #1 web -> n3; #2 big unschedulable; #3 b2 -> n1
    t=0.503  web and b2 bound
    t=1      n4 added: big moves unschedulable -> backoffQ on NodeAdd
    t=2      big's backoff ends: backoffQ -> activeQ; cycle #4 big -> n4
    t=2.5    big bound

``gang_cluster(config)`` is data/workloads/gang.yaml on data/clusters/gpu-six.yaml
(8 pods of PodGroup default/train, one GPU each, 6 GPUs free) under one of the
Coscheduling configurations of data/configs/; ``only_the_gang`` drops the web
pods and the node that arrives at t=60.
"""
from __future__ import annotations

from pathlib import Path

from ksched_edu.api.loader import load_cluster
from ksched_edu.config.loader import default_config
from ksched_edu.exercises.ch06 import gang_simulation
from ksched_edu.sim.simulation import Simulation
from ksched_edu.trace import Recorder
from tests.builders import make_node, make_pod

ROOT = Path(__file__).resolve().parents[2]
THREE_NODES = ROOT / "data" / "clusters" / "three-nodes.yaml"


def _pending(name: str, cpu: str):
    return (make_pod().name(name).namespace("default").uid(name).scheduler_name("default-scheduler")
            .priority(0).req(cpu=cpu).obj())


def teaching_cluster(bind_latency: float = 0.0, until: float = 5.0) -> Simulation:
    sim = Simulation(load_cluster(THREE_NODES), default_config(), seed=1, recorder=Recorder(),
                     bind_latency=bind_latency)
    sim.run(until=until)
    return sim


def crowded_cluster() -> Simulation:
    cluster = load_cluster(THREE_NODES)
    cluster.pods += [_pending("big", "10"), _pending("b2", "1")]
    sim = Simulation(cluster, default_config(), seed=1, recorder=Recorder(), bind_latency=0.5)
    sim.run(until=1.0)
    sim.api.create(make_node().name("n4").capacity(cpu="16", memory="32Gi", pods="110").obj())
    sim.run(until=5.0)
    return sim


def gang_cluster(config: str, *, only_the_gang: bool = False, until: float | None = None) -> Simulation:
    return gang_simulation(config, only_the_gang=only_the_gang, recorder=Recorder()).run(until=until)
