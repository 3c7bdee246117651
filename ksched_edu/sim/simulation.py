"""A cluster in a box: an API server, a scheduler and a virtual clock, built from manifests.

``Simulation(cluster, config, seed)`` creates the cluster's objects in the
order a real cluster would have them when the scheduler starts (nodes, priority
classes, disruption budgets, running pods, services and controllers), then
hands the pending pods to the API server one at a time, so the queue sees them
arrive in file order, and runs the scheduler on the virtual clock.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..api.types import Cluster, Pod
from ..config.types import KubeSchedulerConfiguration
from ..framework.runtime import Registry
from ..scheduler import Scheduler
from ..trace import NULL_RECORDER, Recorder
from .apiserver import APIServer
from .clock import VirtualClock

# The pending pods arrive this far apart, so their queue timestamps keep file order.
ARRIVAL_GAP = 0.001


def create_cluster_objects(api: APIServer, cluster: Cluster) -> None:
    """Everything but the pending pods, in the order the scheduler's informers would list them."""
    for group in (cluster.nodes, cluster.priority_classes, cluster.pdbs, cluster.running_pods, cluster.services,
                  cluster.replication_controllers, cluster.replica_sets, cluster.stateful_sets):
        for obj in group:
            api.create(obj)
    for kind, objs in cluster.extra.items():
        for obj in objs:
            if hasattr(obj, "metadata"):
                api.create(obj)


def create_pending_pods(api: APIServer, pods: list[Pod], gap: float = ARRIVAL_GAP) -> None:
    for pod in pods:
        api.create(pod)
        if api.clock is not None:
            api.clock.advance_to(api.clock.now + gap)


@dataclass
class Placement:
    pod: str
    node: Optional[str]
    message: Optional[str]
    nominated_node: Optional[str]


class Simulation:
    def __init__(self, cluster: Cluster, config: KubeSchedulerConfiguration, seed: int = 0, *,
                 recorder: Recorder = NULL_RECORDER, registry: Optional[Registry] = None,
                 bind_latency: float = 0.0, queueing_hints: bool = False) -> None:
        self.cluster = cluster
        self.clock = VirtualClock()
        self.api = APIServer(self.clock)
        self.recorder = recorder
        self.scheduler = Scheduler(config, self.api, clock=self.clock, seed=seed, recorder=recorder,
                                   registry=registry, bind_latency=bind_latency, queueing_hints=queueing_hints)
        create_cluster_objects(self.api, cluster)
        self.pending = list(cluster.pending_pods)
        create_pending_pods(self.api, self.pending)

    def run(self, until: Optional[float] = None) -> "Simulation":
        self.scheduler.run(until=until)
        return self

    def placements(self) -> list[Placement]:
        """Where each pending pod ended up, as ``kubectl get pod -o yaml`` would show it."""
        out = []
        for pod in self.pending:
            cur: Any = self.api.get_pod(pod.metadata.namespace, pod.metadata.name)
            if cur is None:
                out.append(Placement(pod.key, None, None, None))
                continue
            message = None
            if not cur.spec.node_name:
                cond = next((c for c in cur.status.conditions if c.type == "PodScheduled" and c.status == "False"),
                            None)
                message = cond.message if cond is not None else None
            out.append(Placement(pod.key, cur.spec.node_name or None, message,
                                 cur.status.nominated_node_name or None))
        return out

    def victims(self) -> list[str]:
        return sorted(self.api.deleted)
