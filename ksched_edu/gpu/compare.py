"""Stock binpacking beside GPUTopology on the same jobs: which placements differ, and why.

Not a port: the course's own measuring bench. kube-scheduler can binpack GPUs
with NodeResourcesFit alone (``MostAllocated`` or ``RequestedToCapacityRatio``
on ``nvidia.com/gpu``), but it only counts; which GPUs a pod then gets is the
kubelet's device manager's business, which asks the device plugin's
``GetPreferredAllocation``. :func:`run` simulates a configuration, then gives
every bound pod its GPU ids in binding order: the ids GPUTopology wrote at
PreBind when it ran, else :func:`device_plugin_choice`, the model of a device
plugin that prefers well-connected GPUs (NVIDIA's asks go-gpuallocator's
best-effort policy, which ranks sets by their links; here it is the course's
subset search without a constraint). :func:`compare` sorts each job into the
case that explains a difference, and :func:`fragmentation` measures what
the run left: idle GPUs the workload's next job could not use.
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from ..anchors import plumbing
from .catalog import TopologyCatalog
from .ledger import GPUS_ANNOTATION, parse_gpus
from .plugins.gpu_topology import read_request
from .search import Constraint, best_subset, to_mask
from .topology import Topology

_PLUMBING = ("the project's own comparison of stock GPU binpacking with the topology-aware plugin; "
             "no upstream counterpart")

# The cases of compare(), in the order a difference is explained.
SAME = "same node, same GPUs"
OTHER_GPUS = "same node, other GPUs"
STOCK_BREAKS_CONSTRAINT = "other node: the stock node's GPUs break the job's constraint"
FASTER_LINK = "other node: a faster slowest link"
KNOCK_ON = "other node: earlier placements differ"
NOT_PLACED = "placed by one run only"
CASES = (SAME, OTHER_GPUS, STOCK_BREAKS_CONSTRAINT, FASTER_LINK, KNOCK_ON, NOT_PLACED)


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class JobPlacement:
    """Where one job ran in one run, the GPUs it got and how they are joined."""

    pod: str  # namespace/name
    asked: int
    constraint: Constraint
    node: Optional[str] = None
    gpus: tuple[int, ...] = ()
    slowest_link: str = ""  # the label of the slowest pair, "" for fewer than two GPUs
    bottleneck: int = 0  # GB/s of that pair
    meets_constraint: bool = True


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class RunOutcome:
    """One configuration's run: every job's placement, and each node's free GPUs after it."""

    name: str
    jobs: dict[str, JobPlacement]  # in the workload's order
    free: dict[str, tuple[int, ...]]  # node -> free GPU ids at the end
    topologies: dict[str, Topology]  # node -> its topology


@plumbing(_PLUMBING)
def device_plugin_choice(top: Topology, free: Iterable[int], count: int) -> tuple[int, ...]:
    """The GPUs a link-aware device plugin would prefer among ``free``: the best connected set."""
    choice = best_subset(top, to_mask(free), count)
    if choice is None:
        raise ValueError(f"{top.name}: {count} GPUs asked, {len(list(free))} free")
    return choice.gpus


@plumbing(_PLUMBING)
def slowest_pair(top: Topology, gpus: Iterable[int]) -> tuple[str, int]:
    """(the label of the slowest link between two of ``gpus``, its GB/s); ("", 0) for fewer than two."""
    pairs = list(itertools.combinations(sorted(gpus), 2))
    if not pairs:
        return "", 0
    i, j = min(pairs, key=lambda p: (top.bandwidths[p[0]][p[1]], p))
    return top.links[i][j].label, top.bandwidths[i][j]


@plumbing(_PLUMBING)
def meets(top: Topology, gpus: Iterable[int], constraint: Constraint) -> bool:
    """Whether every pair of ``gpus`` satisfies ``constraint``."""
    return all(constraint.allows(top, i, j) for i, j in itertools.combinations(sorted(gpus), 2))


@plumbing(_PLUMBING)
def run(name: str, cluster: Any, config: Any, registry: Optional[dict[str, Any]] = None, seed: int = 1,
        catalog: Optional[TopologyCatalog] = None, honour_annotations: bool = True) -> RunOutcome:
    """Simulate ``cluster`` under ``config``; give each bound job its GPU ids in binding order.

    The ids are the ones PreBind wrote on the pod (``gpu.ksched-edu.io/gpus``) when
    ``honour_annotations``, else :func:`device_plugin_choice`'s, as a stock device
    plugin that never reads the annotation would give them.
    """
    from ..sim.simulation import Simulation
    from ..trace import Recorder

    catalog = catalog or TopologyCatalog()
    recorder = Recorder()
    sim = Simulation(cluster, config, seed=seed, recorder=recorder, registry=registry)
    sim.run()
    tops = {n.metadata.name: top for n in cluster.nodes for _, top in [catalog.for_node(n)] if top is not None}
    free = {node: set(range(len(top.gpus))) for node, top in tops.items()}
    for pod in cluster.pods:  # running pods keep the ids they carry
        if pod.spec.node_name in free and GPUS_ANNOTATION in pod.metadata.annotations:
            free[pod.spec.node_name] -= set(parse_gpus(pod.metadata.annotations[GPUS_ANNOTATION]))
    given: dict[str, tuple[str, tuple[int, ...]]] = {}
    for e in recorder.plugin_events(point="Bind"):
        if e.code != "Success" or e.pod in given:
            continue
        namespace, pod_name = e.pod.split("/", 1)
        pod = sim.api.get_pod(namespace, pod_name)
        req, _ = read_request(pod)
        if req is None or e.node not in tops:
            continue
        written = pod.metadata.annotations.get(GPUS_ANNOTATION) if honour_annotations else None
        gpus = parse_gpus(written) if written else device_plugin_choice(tops[e.node], free[e.node], req.count)
        free[e.node] -= set(gpus)
        given[e.pod] = (e.node, gpus)
    jobs = {}
    for placement in sim.placements():
        namespace, pod_name = placement.pod.split("/", 1)
        req, _ = read_request(sim.api.get_pod(namespace, pod_name))
        if req is None:
            continue
        node, gpus = given.get(placement.pod, (None, ()))
        link, gbps = slowest_pair(tops[node], gpus) if node else ("", 0)
        ok = meets(tops[node], gpus, req.constraint) if node else False
        jobs[placement.pod] = JobPlacement(placement.pod, req.count, req.constraint, node, gpus, link, gbps, ok)
    return RunOutcome(name, jobs, {n: tuple(sorted(f)) for n, f in free.items()}, tops)


@plumbing(_PLUMBING)
def case_of(stock: JobPlacement, topo: JobPlacement) -> str:
    """Which case of :data:`CASES` explains how the two placements of one job differ."""
    if stock.node is None or topo.node is None:
        return SAME if stock.node == topo.node else NOT_PLACED
    if stock.node == topo.node:
        return SAME if stock.gpus == topo.gpus else OTHER_GPUS
    if not stock.meets_constraint:
        return STOCK_BREAKS_CONSTRAINT
    if topo.bottleneck > stock.bottleneck:
        return FASTER_LINK
    return KNOCK_ON


@plumbing(_PLUMBING)
def compare(stock: RunOutcome, topo: RunOutcome) -> list[dict[str, Any]]:
    """One row per job: both placements side by side and the case that explains them."""
    rows = []
    for pod, a in stock.jobs.items():
        b = topo.jobs[pod]
        row: dict[str, Any] = {"pod": pod, "GPUs asked": a.asked, "constraint": str(a.constraint)}
        for run_name, p in ((stock.name, a), (topo.name, b)):
            row[f"{run_name} node"] = p.node or "(pending)"
            row[f"{run_name} GPUs"] = ",".join(map(str, p.gpus))
            row[f"{run_name} slowest"] = f"{p.slowest_link} {p.bottleneck}" if p.slowest_link else "-"
            row[f"{run_name} meets"] = p.meets_constraint
        row["case"] = case_of(a, b)
        rows.append(row)
    return rows


@plumbing(_PLUMBING)
def job_shapes(outcome: RunOutcome) -> dict[tuple[int, Constraint], float]:
    """The workload's jobs as (GPUs, constraint) -> how often that shape occurs (the typical jobs)."""
    counts = Counter((j.asked, j.constraint) for j in outcome.jobs.values())
    total = sum(counts.values())
    return {shape: n / total for shape, n in sorted(counts.items(), key=lambda kv: (kv[0][0], str(kv[0][1])))}


@plumbing(_PLUMBING)
def fragmentation(outcome: RunOutcome, shapes: Optional[dict[tuple[int, Constraint], float]] = None,
                  with_constraints: bool = True) -> dict[str, float]:
    """Per node: the expected number of its idle GPUs the next job cannot use.

    The next job is drawn from ``shapes`` (default: this run's own jobs). A node's
    idle GPUs all count for a job it cannot take, none for one it can: FGD's
    measure for whole-GPU pods. With ``with_constraints``, "can take" also asks
    for a free set that meets the job's constraint; without, only the count.
    """
    shapes = shapes if shapes is not None else job_shapes(outcome)
    out = {}
    for node, top in outcome.topologies.items():
        free = outcome.free[node]
        amount = 0.0
        for (count, constraint), weight in shapes.items():
            if with_constraints:
                fits = best_subset(top, to_mask(free), count, constraint) is not None
            else:
                fits = len(free) >= count
            if not fits:
                amount += weight * len(free)
        out[node] = round(amount, 6)
    return out


@plumbing(_PLUMBING)
def free_summary(outcome: RunOutcome) -> dict[str, str]:
    """node -> its free GPU ids after the run, as ``"2,3"`` (``"-"`` when none)."""
    return {node: ",".join(map(str, ids)) or "-" for node, ids in outcome.free.items()}


__all__ = ["JobPlacement", "RunOutcome", "run", "compare", "case_of", "fragmentation", "job_shapes",
           "device_plugin_choice", "slowest_pair", "meets", "free_summary", "CASES"]
