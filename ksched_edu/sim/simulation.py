"""A cluster in a box: an API server, a scheduler and a virtual clock, built from manifests.

``Simulation(cluster, config, seed)`` creates the cluster's objects in the
order a real cluster would have them when the scheduler starts (nodes, storage
classes, CSI drivers, CSI nodes, persistent volumes and claims, priority
classes, disruption budgets, running pods, services and controllers), then
hands the pending pods to the API server one at a time, so the queue sees them
arrive in file order, and runs the scheduler on the virtual clock.

A simulated PV controller and provisioner run beside the scheduler by default
(``storage_controller=StorageControllerOptions(...)`` sets their delays; ``None``
or ``False`` leaves them out, as the ``case`` command does: the reference run had
none), so the volume bindings VolumeBinding's PreBind starts are completed.
"""
from __future__ import annotations

import gc
import math
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, Union

from ..anchors import plumbing
from ..api.noderesourcetopology import parse_node_resource_topology
from ..api.podgroup import parse_pod_group
from ..api.types import Cluster, Pod
from ..config.types import KubeSchedulerConfiguration
from ..framework.runtime import Registry
from ..scheduler import Scheduler
from ..trace import NULL_RECORDER, Recorder
from .apiserver import APIServer
from .clock import VirtualClock
from .storage_controller import StorageController, StorageControllerOptions
from .workload import Workload, WorkloadEvent

# The pending pods arrive this far apart, so their queue timestamps keep file order.
ARRIVAL_GAP = 0.001
# An object dated in the cluster file was created at least this long before the simulation started.
BEFORE_START = 1.0

# While a simulation runs (tuned_gc): a young-generation collection after this many new
# container objects instead of Python's 700 (a scheduling cycle makes a few thousand).
GC_THRESHOLD_0 = 50_000

# Kinds the loader keeps raw in Cluster.extra -> the parser that makes each an API object
# (a ManifestError for a bad one); a kind not listed here is not created.
EXTRA_KIND_PARSERS: dict[str, Callable[[dict], Any]] = {
    "NodeResourceTopology": parse_node_resource_topology,
    "PodGroup": parse_pod_group,
}


@plumbing("garbage-collector settings for a long simulation run")
@contextmanager
def tuned_gc(enabled: bool = True) -> Iterator[None]:
    """Cheaper garbage collection while a simulation runs; the settings come back after.

    Everything that exists when the run starts (the cluster, the snapshot, the queue) is
    moved out of the collector's sight (``gc.freeze()``), so the full collections the run
    triggers no longer walk it, and the young generation is collected after
    ``GC_THRESHOLD_0`` allocations instead of 700. Only cycles are collected later than
    before: the objects themselves, and so placements and traces, are the same.
    """
    if not enabled:
        yield
        return
    thresholds = gc.get_threshold()
    freeze = gc.get_freeze_count() == 0  # someone else's freeze is theirs to undo
    if freeze:
        gc.freeze()
    gc.set_threshold(max(GC_THRESHOLD_0, thresholds[0]), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        if freeze:
            gc.unfreeze()


@plumbing("drives the simulation")
def create_cluster_objects(api: APIServer, cluster: Cluster) -> None:
    """Everything but the pending pods, in the order the scheduler's informers would list them."""
    for group in (cluster.nodes, cluster.storage_classes, cluster.csi_drivers, cluster.csi_nodes,
                  cluster.persistent_volumes, cluster.persistent_volume_claims, cluster.priority_classes, cluster.pdbs, cluster.running_pods, cluster.services,
                  cluster.replication_controllers, cluster.replica_sets, cluster.stateful_sets):
        for obj in group:
            api.create(obj)
    for kind, objs in cluster.extra.items():
        parse = EXTRA_KIND_PARSERS.get(kind)
        parsed = [parse(obj) if isinstance(obj, dict) and parse is not None else obj for obj in objs]
        if kind == "PodGroup":
            date_before_start(parsed)
        for obj in parsed:
            if hasattr(obj, "metadata"):
                api.create(obj)


@plumbing("drives the simulation")
def date_before_start(objs: list[Any]) -> None:
    """Put the creation dates of objects that exist before the simulation on its clock.

    A creationTimestamp in a manifest is a date (seconds since 1970); the clock
    counts seconds from the start of the simulation. The objects were created
    before the start, so their times become negative: the newest date is one
    second before 0, the others keep their distance to it, and an object with
    no date sits at that newest time. Only PodGroups need this: Coscheduling
    compares a group's age with the queue's timestamps.
    """
    dated = [o.metadata.creation_timestamp for o in objs if o.metadata.creation_timestamp]
    newest = max(dated, default=0.0)
    for o in objs:
        date = o.metadata.creation_timestamp or newest
        o.metadata.creation_timestamp = date - newest - BEFORE_START


@plumbing("drives the simulation")
def create_pending_pods(api: APIServer, pods: list[Pod], gap: float = ARRIVAL_GAP) -> None:
    for pod in pods:
        api.create(pod)
        if api.clock is not None:
            api.clock.advance_to(api.clock.now + gap)


@plumbing("drives the simulation")
@dataclass
class Placement:
    pod: str
    node: Optional[str]
    message: Optional[str]
    nominated_node: Optional[str]


@plumbing("drives the simulation")
class Simulation:
    def __init__(self, cluster: Cluster, config: KubeSchedulerConfiguration, seed: int = 0, *,
                 recorder: Recorder = NULL_RECORDER, registry: Optional[Registry] = None,
                 bind_latency: float = 0.0, queueing_hints: bool = False,
                 victim_grace_period: Optional[float] = None, resource_versions: bool = True,
                 storage_controller: Union[StorageControllerOptions, bool, None] = True) -> None:
        self.cluster = cluster
        self.clock = VirtualClock()
        self.api = APIServer(self.clock, resource_versions=resource_versions)
        self.recorder = recorder
        self.scheduler = Scheduler(config, self.api, clock=self.clock, seed=seed, recorder=recorder,
                                   registry=registry, bind_latency=bind_latency, queueing_hints=queueing_hints,
                                   victim_grace_period=victim_grace_period)
        # A cluster's PV controller and external provisioner (True: with the default delays).
        self.storage_controller: Optional[StorageController] = None
        if storage_controller:
            options = storage_controller if isinstance(storage_controller, StorageControllerOptions) else None
            self.storage_controller = StorageController(self.api, self.clock, options, recorder=recorder)
        create_cluster_objects(self.api, cluster)
        self.pending = list(cluster.pending_pods)
        create_pending_pods(self.api, self.pending)
        self.events: list[WorkloadEvent] = []

    @classmethod
    @plumbing("drives the simulation")
    def from_workload(cls, workload: Workload, config: KubeSchedulerConfiguration, seed: int = 0,
                      **options: Any) -> "Simulation":
        """A simulation whose later objects arrive (and leave) at their workload times."""
        sim = cls(workload.initial, config, seed, **options)
        for event in workload.events:
            sim.schedule_event(event)
        return sim

    @plumbing("drives the simulation")
    def schedule_event(self, event: WorkloadEvent) -> None:
        """Put one workload event on the clock."""
        self.events.append(event)
        if event.action == "create" and isinstance(event.obj, Pod) and not event.obj.spec.node_name:
            self.pending.append(event.obj)
        self.clock.call_at(event.at, lambda: self._apply(event), label=str(event))

    def _apply(self, event: WorkloadEvent) -> None:
        obj = event.obj
        if event.action == "create":
            self.api.create(obj)
            return
        current = self.api.get(obj.kind, obj.metadata.namespace, obj.metadata.name)
        if current is not None:
            self.api.delete(obj.kind, obj.metadata.namespace, obj.metadata.name)

    @plumbing("drives the simulation")
    def run(self, until: Optional[float] = None, progress: Optional[Callable[[], None]] = None,
            tune_gc: bool = True) -> "Simulation":
        """Run the scheduler on the virtual clock (see ``Scheduler.run``), with the garbage
        collector tuned for the run unless ``tune_gc`` is False (see ``tuned_gc``).
        ``until`` is a virtual time in seconds, 0 or more (ValueError otherwise)."""
        if until is not None and not (isinstance(until, (int, float)) and math.isfinite(until) and until >= 0):
            raise ValueError(f"until: expected a number of seconds, 0 or more, got {until!r}")
        with tuned_gc(tune_gc):
            self.scheduler.run(until=until, progress=progress)
        return self

    @plumbing("drives the simulation")
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

    @plumbing("drives the simulation")
    def bound_count(self) -> int:
        """How many of the pending pods have a node by now."""
        return self.api.write_counts.get("bind", 0)

    @plumbing("drives the simulation")
    def victims(self) -> list[str]:
        return sorted(self.api.deleted)
