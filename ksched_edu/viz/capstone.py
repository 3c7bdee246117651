"""What chapter 11 measures when it compares two profiles on a GPU cluster with gangs.

Not a port: the course's own readers and figure. Three measures, each read off what
a run recorded, never recomputed:

- **time to full gang placement**: per PodGroup, from the moment its first member
  entered the scheduling queue (a ``QueueEvent`` "add") to the moment the last of
  its first ``minMember`` members was bound (a ``BindEvent`` "bound"): a proxy for
  when the job can start;
- **stranded GPUs**: at each sample, the free GPUs of nodes that are partly used
  (free GPUs on an idle node can still take any job; on a half-used node they are
  what fragments the cluster), read from the scheduler's cache as
  :func:`ksched_edu.viz.readers.node_usage` reads it;
- **preemptions**: the ``PreemptionEvent`` s that nominated a node, with their victims.

:func:`measure` runs a simulation in steps of virtual time to take the samples
(the steps do not change what the scheduler does: the clock fires the same
timers in the same order) and returns a :class:`CapstoneRun`;
:func:`plot_capstone` draws two or more runs side by side.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ..api.podgroup import POD_GROUP_LABEL
from ..gpu.catalog import TopologyCatalog
from ..gpu.search import Constraint, best_subset, to_mask
from ..gpu.topology import Topology
from ..trace import BindEvent, PreemptionEvent, QueueEvent
from ..i18n import _
from ._figure import PALETTE, localize_fonts
from .readers import node_usage, recorder_of

GPU = "nvidia.com/gpu"


@dataclass(frozen=True)
class GangPlacement:
    """One PodGroup's way through the scheduler."""

    group: str  # namespace/name
    min_member: int
    arrived: Optional[float]  # the first member queued
    placed: Optional[float]  # the minMember-th member bound (None: never)
    nodes: tuple[str, ...]  # where its members were first bound, in member order

    @property
    def wait(self) -> Optional[float]:
        """Seconds from arrival to full placement (None when the gang never got there)."""
        if self.arrived is None or self.placed is None:
            return None
        return self.placed - self.arrived


@dataclass(frozen=True)
class GPUSample:
    """The GPUs of one node at one moment, as the scheduler's cache held them."""

    time: float
    node: str
    used: int
    total: int

    @property
    def stranded(self) -> int:
        """Free GPUs on a node that is partly used (0 on an idle or a full node)."""
        return self.total - self.used if 0 < self.used < self.total else 0


@dataclass(frozen=True)
class Preemption:
    time: float
    preemptor: str
    node: str
    victims: tuple[str, ...]


@dataclass
class CapstoneRun:
    """One profile's run: its gangs, its GPU samples and its preemptions."""

    name: str
    gangs: list[GangPlacement]
    samples: list[GPUSample]
    preemptions: list[Preemption]

    def waits(self) -> dict[str, Optional[float]]:
        return {g.group: g.wait for g in self.gangs}

    def stranded_over_time(self) -> list[tuple[float, int]]:
        """(time, stranded GPUs summed over the nodes), one per sample time."""
        total: dict[float, int] = {}
        for s in self.samples:
            total[s.time] = total.get(s.time, 0) + s.stranded
        return sorted(total.items())

    def mean_stranded(self) -> float:
        series = self.stranded_over_time()
        return sum(v for _, v in series) / len(series) if series else 0.0


def gang_placements(sim: Any) -> list[GangPlacement]:
    """Every PodGroup of the simulation's cluster, read from its trace, in name order."""
    rec = recorder_of(sim)
    groups = {f"{g['metadata'].get('namespace', 'default')}/{g['metadata']['name']}":
              int(g.get('spec', {}).get('minMember', 1) or 1) for g in sim.cluster.extra.get("PodGroup", [])}
    members: dict[str, list[str]] = {name: [] for name in groups}
    for pod in sim.pending:
        label = pod.metadata.labels.get(POD_GROUP_LABEL)
        key = f"{pod.metadata.namespace}/{label}"
        if label and key in members:
            members[key].append(pod.key)
    queued: dict[str, float] = {}
    for e in rec.of(QueueEvent):
        if e.action == "add":
            queued.setdefault(e.pod, e.time)
    bound: dict[str, tuple[float, str]] = {}
    for e in rec.of(BindEvent):
        if e.kind == "bound":
            bound.setdefault(e.pod, (e.time, e.node))
    out = []
    for name in sorted(groups):
        pods = members[name]
        arrivals = [queued[p] for p in pods if p in queued]
        times = sorted(bound[p][0] for p in pods if p in bound)
        need = groups[name]
        placed = times[need - 1] if len(times) >= need else None
        out.append(GangPlacement(name, need, min(arrivals) if arrivals else None, placed,
                                 tuple(bound[p][1] for p in pods if p in bound)))
    return out


def gpu_samples(sim: Any, time: float) -> list[GPUSample]:
    """Every node's GPUs (used of total) in the scheduler's cache now."""
    return [GPUSample(time, u.node, u.requested.get(GPU, 0), u.allocatable.get(GPU, 0))
            for u in node_usage(sim) if u.allocatable.get(GPU, 0)]


def preemptions(sim: Any) -> list[Preemption]:
    """The preemption attempts that nominated a node, in the order they happened."""
    return [Preemption(e.time, e.pod, e.nominated_node, e.victims)
            for e in recorder_of(sim).of(PreemptionEvent) if e.nominated_node]


def measure(name: str, sim: Any, every: float = 5.0, until: float = 3600.0) -> CapstoneRun:
    """Run ``sim`` to its end (at most ``until`` virtual seconds), sampling GPUs every ``every`` s."""
    samples: list[GPUSample] = []
    t = 0.0
    while t <= until:
        sim.run(until=t)
        samples += gpu_samples(sim, t)
        if not sim.scheduler.busy():
            break
        t += every
    return CapstoneRun(name, gang_placements(sim), samples, preemptions(sim))


def members_without_nvlink_set(sim: Any, catalog: Optional[TopologyCatalog] = None) -> list[tuple[str, str]]:
    """(member, node) for each gang member first bound to a server that has no NVLink set of the
    member's GPU count at all, even idle (read from the node's topology label)."""
    from ..gpu.plugins.gpu_topology import requested_gpus

    catalog = catalog or TopologyCatalog()
    nodes = {n.metadata.name: n for n in sim.cluster.nodes}
    bound: dict[str, str] = {}
    for e in recorder_of(sim).of(BindEvent):
        if e.kind == "bound":
            bound.setdefault(e.pod, e.node)
    out = []
    for pod in sim.pending:
        if not pod.metadata.labels.get(POD_GROUP_LABEL) or pod.key not in bound:
            continue
        node = nodes.get(bound[pod.key])
        _, top = catalog.for_node(node) if node is not None else ("", None)
        count = requested_gpus(pod)
        if top is None or best_subset(top, (1 << len(top.gpus)) - 1, count, Constraint(nvlink=True)) is None:
            out.append((pod.key, bound[pod.key]))
    return out


def disjoint_sets(top: Topology, count: int, constraint: Constraint) -> list[tuple[int, ...]]:
    """Sets of ``count`` GPUs of an idle ``top`` that meet ``constraint``, taken greedily: the best set
    (:func:`ksched_edu.gpu.search.best_subset`), then the best among the GPUs left, until none is found."""
    free = (1 << len(top.gpus)) - 1
    found: list[tuple[int, ...]] = []
    while (choice := best_subset(top, free, count, constraint)) is not None:
        found.append(tuple(choice.gpus))
        free &= ~to_mask(choice.gpus)
    return found


def plot_capstone(runs: Sequence[CapstoneRun], figsize: tuple[float, float] = (12.0, 3.4)) -> Any:
    """Three panels: each gang's time to full placement, stranded GPUs over time, preemptions over time."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=figsize, layout="constrained")
    wait_ax, frag_ax, pre_ax = fig.subplots(1, 3)
    groups = [g.group.split("/")[-1] for g in runs[0].gangs]
    width = 0.8 / max(len(runs), 1)
    for i, run in enumerate(runs):
        colour = PALETTE[i % len(PALETTE)]
        xs = [k + (i - (len(runs) - 1) / 2) * width for k in range(len(groups))]
        waits = [g.wait if g.wait is not None else 0.0 for g in run.gangs]
        wait_ax.bar(xs, waits, width=width, color=colour, label=run.name)
        for x, g in zip(xs, run.gangs):
            if g.wait is None:
                wait_ax.text(x, 0, _("never"), rotation=90, ha="center", va="bottom", fontsize=7)
        series = run.stranded_over_time()
        frag_ax.step([t for t, _ in series], [v for _, v in series], where="post", color=colour, label=run.name)
        times = [p.time for p in run.preemptions]
        pre_ax.step([0.0] + times + [series[-1][0] if series else 0.0], [0] + list(range(1, len(times) + 1))
                    + [len(times)], where="post", color=colour, label=run.name)
    wait_ax.set_xticks(range(len(groups)), groups, fontsize=8)
    wait_ax.set_ylabel(_("seconds"))
    wait_ax.set_title(_("time to full gang placement"), fontsize=10)
    wait_ax.legend(fontsize=8)
    frag_ax.set_xlabel(_("virtual time (s)"))
    frag_ax.set_ylabel("GPUs")
    frag_ax.set_title(_("free GPUs on partly used nodes"), fontsize=10)
    pre_ax.set_xlabel(_("virtual time (s)"))
    pre_ax.set_ylabel(_("preemptions so far"))
    pre_ax.set_title(_("preemptions"), fontsize=10)
    pre_ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    pre_ax.legend(fontsize=8)
    return localize_fonts(fig)


__all__ = ["GangPlacement", "GPUSample", "Preemption", "CapstoneRun", "gang_placements", "gpu_samples",
           "preemptions", "measure", "members_without_nvlink_set", "disjoint_sets", "plot_capstone"]
