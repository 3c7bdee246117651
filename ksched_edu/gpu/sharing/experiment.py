"""Port of pkg/simulator/simulator.go and analysis.go (kubernetes-scheduler-simulator), and merge_alloc_discrete.py.

One experiment of the FGD paper: a cluster (the node list), a workload (the
pod list, shuffled, then *tuned* by sampling more of its pods until the GPU
it asks for reaches 130% of the cluster's GPUs), one scheduling policy. Pods
arrive one at a time; each is scheduled by ksched_edu's scheduler with the
policy's configuration (``config.py``); a pod that fits nowhere is deleted.
After each pod the cluster's GPU allocation is recorded against the GPU
that has arrived so far: the *allocation curve* of the paper's Figure 7.
Ports ``SchedulePods``, ``TunePodsByNodeTotalResource``, ``SortClusterPods``,
the ``[Alloc]`` line of ``ClusterGpuFragReport``, and the curve of
``experiments/analysis/merge_alloc_discrete.py``.

Deviations:
- One seeded ``random.Random`` per experiment shuffles and tunes the workload
  and orders the nodes (Go's global ``math/rand`` seeded with the tuning seed
  does it upstream), so runs match the reference's statistics, not its draws.
- Nodes keep their names and are created in a random order; the simulator
  prefixes their names with a random index instead, and its scheduler (a fork
  of v1.20.5) gives a score tie to the smallest name. :class:`FirstAmongEquals`
  gives ties to the node created first, which is the same rule.
- Per-pod cluster totals are updated from the node a pod landed on, not by
  walking every node after every pod.
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence, TextIO

from ...anchors import FGD_SIMULATOR, plumbing, ports
from ...api.types import Node, Pod
from ...framework.plugins.registry import new_in_tree_registry
from ...framework.runtime import merge_registries
from ...scheduler import Scheduler
from ...sim.apiserver import APIServer
from ...sim.clock import VirtualClock
from ...trace import NULL_RECORDER, Recorder
from .config import scheduler_config
from .frag import TypicalPodsConfig, get_typical_pods
from .gpushare_utils import get_gpu_count_of_node, get_gpu_milli_of_node
from .plugins.plugin_utils import SharingContext
from .registry import SCORE_POLICY_ABBR, new_registry
from .resource import TargetPodList
from .utils import get_pod_resource

_PLUMBING = "the experiment's bookkeeping and command-line plumbing around the ported simulator loop"

DEFAULT_TUNE_RATIO = 1.3  # the workload asks for 130% of the cluster's GPUs
CURVE_MAX = 130  # the allocation curve's last point (percent of GPU arrived)

# The policies as the reference's result files name them.
POLICY_DIRS: dict[str, str] = {"Random": "01-Random", "DotProd": "02-DotProd", "GpuClustering": "03-GpuClustering",
                               "GpuPacking": "04-GpuPacking", "BestFit": "05-BestFit", "FGD": "06-FGD"}
POLICIES = tuple(POLICY_DIRS)

ProgressFn = Callable[[int, int], None]


@dataclass(frozen=True)
@ports("pkg/simulator/analysis.go", "(*Simulator).ClusterGpuFragReport", 24, 75, repo=FGD_SIMULATOR)
class AllocRow:
    """The cluster after one pod (the simulator's ``[Alloc]`` report line)."""

    used_nodes: int
    used_gpus: int  # every GPU of a node in use counts
    used_gpu_milli: int
    total_gpus: int
    arrived_gpu_milli: int


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class PodOutcome:
    """Where one pod went: its node and GPU ids, or None when it fit nowhere."""

    pod: str
    node: Optional[str]
    gpu_ids: str
    gpu_number: int
    milli_gpu: int
    milli_cpu: int


@dataclass
@plumbing(_PLUMBING)
class ExperimentResult:
    policy: str
    seed: int
    tune: float
    total_gpus: int
    typical_pods: TargetPodList
    rows: list[AllocRow] = field(default_factory=list)
    outcomes: list[PodOutcome] = field(default_factory=list)
    workload: str = ""

    @plumbing(_PLUMBING)
    def failed(self) -> list[PodOutcome]:
        return [o for o in self.outcomes if o.node is None]

    @plumbing(_PLUMBING)
    def curve(self) -> dict[int, float]:
        return allocation_curve(self.rows, self.total_gpus)

    @plumbing(_PLUMBING)
    def on_node(self, node: str) -> list[PodOutcome]:
        """The pods placed on ``node``, in the order they arrived."""
        return [o for o in self.outcomes if o.node == node]


# --- the workload ----------------------------------------------------------------------------


@ports("pkg/simulator/simulator.go", "(*Simulator).SortClusterPods", 843, 879, repo=FGD_SIMULATOR)
def sort_cluster_pods(pods: list[Pod], rng: random.Random, shuffle: bool = True) -> None:
    """Upstream SortClusterPods with ``shufflePod: true``: sort by name, then shuffle (in place)."""
    pods.sort(key=lambda p: p.metadata.name)
    if shuffle:
        rng.shuffle(pods)


@ports("pkg/simulator/simulator.go", "(*Simulator).TunePodsByNodeTotalResource", 1067, 1139, repo=FGD_SIMULATOR)
def tune_pods_by_node_total_resource(pods: list[Pod], workload_pods: Sequence[Pod], ratio: float,
                                     node_total_milli_gpu: int, rng: random.Random) -> list[Pod]:
    """Drop or add pods until they ask for ``ratio`` times the cluster's GPU (upstream tuneDown/tuneUp).

    Added pods are copies of pods drawn from the workload (sorted by name), named ``<pod>-tuned-<i>``.
    """
    asked = sum(get_pod_resource(p).total_milli_gpu() for p in pods)
    target = ratio * float(node_total_milli_gpu)
    if ratio <= 0 or float(asked) == target:
        return pods
    pods = list(pods)
    if float(asked) > target:
        while float(asked) > target:
            idx = rng.randrange(len(pods))
            asked -= get_pod_resource(pods.pop(idx)).total_milli_gpu()
        return pods
    i = 0
    while True:
        src = workload_pods[rng.randrange(len(workload_pods))]
        res = get_pod_resource(src)
        # upstream: the test adds the pod's milli GPU per GPU, not its total
        if float(asked + res.milli_gpu) > target:
            break
        asked += res.total_milli_gpu()
        pods.append(renamed(src, f"{src.metadata.name}-tuned-{i}"))
        i += 1
    return pods


@plumbing("a deep copy of a pod under another name, for the pods tuning adds")
def renamed(pod: Pod, name: str) -> Pod:
    out = copy.deepcopy(pod)
    out.metadata.name = name
    out.metadata.uid = f"{pod.metadata.namespace}/{name}"
    return out


@ports("pkg/simulator/analysis.go", "(*Simulator).SetTypicalPods", 217, 223, repo=FGD_SIMULATOR)
def typical_pods_of(workload_pods: Sequence[Pod], config: Optional[TypicalPodsConfig] = None) -> TargetPodList:
    """Upstream SetTypicalPods: the typical pods of the original workload (sorted by name)."""
    ordered = sorted(workload_pods, key=lambda p: p.metadata.name)
    return get_typical_pods([get_pod_resource(p) for p in ordered], config)


# --- one experiment --------------------------------------------------------------------------


@plumbing("makes select_host keep its first candidate, as the simulator's tie-break by node name does")
class FirstAmongEquals:
    """A stand-in for the scheduler's random source that makes ``select_host`` keep its first candidate.

    The simulator's kube-scheduler (a v1.20.5 fork) breaks score ties by the smallest node
    name, and names each node ``<random index>-<name>``: ties go to the node with the
    smallest random index, the same node for every pod. With all nodes scored, ksched_edu
    visits the tied nodes in the order they were created; ``select_host`` replaces its
    choice only when ``randrange`` returns 0, which this never does for two or more nodes.
    So creating the nodes in a random order and answering 1 reproduces the fork.
    """

    @plumbing("makes select_host keep its first candidate, as the simulator's tie-break by node name does")
    def randrange(self, n: int) -> int:
        return 1 if n > 1 else 0


class _ClusterAlloc:
    """The cluster totals of the ``[Alloc]`` line, kept up to date node by node."""

    def __init__(self, nodes: Sequence[Node]) -> None:
        self.gpus = {n.metadata.name: get_gpu_count_of_node(n) for n in nodes}
        self.total_gpus = sum(self.gpus.values())
        self.used: set[str] = set()
        self.used_gpus = 0

    def touch(self, node_name: str) -> None:
        # A node holding a pod is in use (pods only leave when they fail, before holding anything).
        if node_name not in self.used:
            self.used.add(node_name)
            self.used_gpus += self.gpus[node_name]


@plumbing("builds the project's scheduler with the policy's configuration and the GPU-sharing registry")
def new_scheduler(nodes: Sequence[Node], policy: str, seed: int, typical_pods: TargetPodList, *,
                  recorder: Recorder = NULL_RECORDER) -> tuple[Scheduler, APIServer, SharingContext]:
    """A scheduler with the policy's configuration and the GPU-sharing plugins, and the nodes in that order."""
    ctx = SharingContext(rng=random.Random(seed))
    ctx.set_typical_pods(typical_pods)
    clock = VirtualClock()
    api = APIServer(clock)
    sched = Scheduler(scheduler_config(policy), api, clock=clock, seed=seed, recorder=recorder,
                      registry=merge_registries(new_in_tree_registry(), new_registry(ctx=ctx)))
    sched.rng = FirstAmongEquals()  # the simulator's select_host: ties go to the first node in node order
    for node in nodes:
        api.create(copy.deepcopy(node))
    return sched, api, ctx


@ports("pkg/simulator/simulator.go", "(*Simulator).SchedulePods", 312, 344, repo=FGD_SIMULATOR)
def run_experiment(nodes: Sequence[Node], pods: Sequence[Pod], policy: str, seed: int, *,
                   tune: float = DEFAULT_TUNE_RATIO, typical: Optional[TypicalPodsConfig] = None,
                   recorder: Recorder = NULL_RECORDER, progress: Optional[ProgressFn] = None,
                   workload: str = "") -> ExperimentResult:
    """Schedule the (shuffled, tuned) workload on the nodes with ``policy``; the allocation record."""
    if policy not in SCORE_POLICY_ABBR:
        raise ValueError(f"unknown policy {policy!r}; one of {', '.join(SCORE_POLICY_ABBR)}")
    rng = random.Random(seed)
    workload_pods = [copy.deepcopy(p) for p in pods]
    typical_pods = typical_pods_of(workload_pods, typical)
    arriving = list(workload_pods)
    sort_cluster_pods(arriving, rng)
    node_total_milli_gpu = sum(get_gpu_milli_of_node(n) for n in nodes)
    if tune > 0:
        arriving = tune_pods_by_node_total_resource(arriving, sorted(workload_pods, key=lambda p: p.metadata.name),
                                                    tune, node_total_milli_gpu, rng)
    ordered_nodes = list(nodes)
    rng.shuffle(ordered_nodes)

    sched, api, ctx = new_scheduler(ordered_nodes, policy, seed, typical_pods, recorder=recorder)

    alloc = _ClusterAlloc(ordered_nodes)
    result = ExperimentResult(policy, seed, tune, alloc.total_gpus, typical_pods, workload=workload)
    arrived = 0
    for i, pod in enumerate(arriving):
        res = get_pod_resource(pod)
        arrived += res.total_milli_gpu()
        node_name = schedule_pod(sched, api, pod)
        if node_name is None:
            result.outcomes.append(PodOutcome(pod.key, None, "", res.gpu_number, res.milli_gpu, res.milli_cpu))
        else:
            alloc.touch(node_name)
            result.outcomes.append(PodOutcome(pod.key, node_name, ctx.ledger.pod_gpu_ids(pod.uid), res.gpu_number,
                                              res.milli_gpu, res.milli_cpu))
        result.rows.append(AllocRow(len(alloc.used), alloc.used_gpus, ctx.ledger.used_gpu_milli, alloc.total_gpus,
                                    arrived))
        if progress is not None:
            progress(i + 1, len(arriving))
    return result


@ports("pkg/simulator/simulator.go", "(*Simulator).assumePod", 301, 310, repo=FGD_SIMULATOR)
def schedule_pod(sched: Scheduler, api: APIServer, pod: Pod) -> Optional[str]:
    """Create the pod, run its scheduling and binding cycles; its node, or None (and delete it) when none fit.

    Upstream ``assumePod``: create the pod and wait until it is scheduled or marked unschedulable.
    """
    api.create(pod)
    sched.schedule_one()
    sched.finish_binding_cycles()  # the simulator waits for the bind before the next pod arrives
    current = api.get_pod(pod.metadata.namespace, pod.metadata.name)
    if current is not None and current.spec.node_name:
        return current.spec.node_name
    if current is not None:
        api.delete("Pod", pod.metadata.namespace, pod.metadata.name)
    return None


# --- the allocation curve ----------------------------------------------------------------------


@plumbing("the allocation curve of experiments/analysis/merge_alloc_discrete.py, computed in that script's "
          "top-level code (no function to anchor)")
def allocation_curve(rows: Sequence[AllocRow], total_gpus: int, last: int = CURVE_MAX) -> dict[int, float]:
    """GPU allocation (%) at each whole percent of GPU arrived, as merge_alloc_discrete.py computes it.

    Each row's arrived share is rounded to a whole percent (half to even); the point at
    ``a`` percent is the mean allocation of the rows at ``a``, or else of those within
    one percent of it; a point with no such row is left out.
    """
    if total_gpus <= 0:
        return {}
    arrive = [round(r.arrived_gpu_milli / total_gpus / 10) for r in rows]
    allocated = [round(r.used_gpu_milli / total_gpus / 10, 2) for r in rows]
    out: dict[int, float] = {}
    for a in range(0, last + 1):
        values = [v for x, v in zip(arrive, allocated) if x == a]
        if not values:
            values = [v for x, v in zip(arrive, allocated) if a - 1 <= x <= a + 1]
            if not values:
                continue
        out[a] = round(sum(values) / len(values), 2)
    return out


CURVE_HEADER = ["workload", "sc_policy", "tune", "seed", "total_gpus"] + [str(a) for a in range(CURVE_MAX + 1)]


@plumbing("a row of analysis_allo_discrete.csv, which merge_alloc_discrete.py writes from its top-level code")
def curve_row(result: ExperimentResult) -> list[str]:
    """One line of ``analysis_allo_discrete.csv`` for this experiment."""
    curve = result.curve()
    return [result.workload, POLICY_DIRS[result.policy], f"{result.tune:g}", str(result.seed),
            str(result.total_gpus)] + [f"{curve[a]:g}" if a in curve else "" for a in range(CURVE_MAX + 1)]


@plumbing("writes analysis_allo_discrete.csv, as merge_alloc_discrete.py does from its top-level code")
def write_curve_csv(results: Sequence[ExperimentResult], path: str) -> None:
    """Write the allocation curves in the reference's ``analysis_allo_discrete.csv`` layout."""
    import csv

    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(CURVE_HEADER)
        for r in results:
            w.writerow(curve_row(r))


# --- from files, for the command line --------------------------------------------------------------


@plumbing(_PLUMBING)
class ProgressBar:
    """A one-line progress bar on a stream (stderr): pods scheduled out of all pods."""

    def __init__(self, stream: Optional[TextIO], label: str = "") -> None:
        self.stream, self.label, self.shown = stream, label, -1

    def __call__(self, done: int, total: int) -> None:
        if self.stream is None:
            return
        pct = 100 * done // max(total, 1)
        if pct != self.shown:
            self.shown = pct
            print(f"\r{self.label}[{'#' * (pct // 4):<25}] {pct:3d}%  {done}/{total} pods", end="",
                  file=self.stream, flush=True)
            if done >= total:
                print(file=self.stream, flush=True)


@plumbing(_PLUMBING)
def run_files(nodes_csv: str, pods_csv: str, policy: str, seed: int, *, tune: float = DEFAULT_TUNE_RATIO,
              progress: Optional[ProgressFn] = None) -> ExperimentResult:
    """:func:`run_experiment` on an openb node list and pod list (OpenbError names a bad cell)."""
    from pathlib import Path

    from .openb import load_nodes, load_pods

    nodes, pods = load_nodes(nodes_csv), load_pods(pods_csv)
    return run_experiment(nodes, pods, policy, seed, tune=tune, progress=progress, workload=Path(pods_csv).stem)


@plumbing(_PLUMBING)
def summary(result: ExperimentResult) -> str:
    """A few lines on an experiment: pods, failures, allocation at 100% and at the last point."""
    curve = result.curve()
    last = max(curve) if curve else 0
    placed = len(result.outcomes) - len(result.failed())
    return (f"{result.policy} (seed {result.seed}): {len(result.outcomes)} pods arrived, {placed} placed, "
            f"{len(result.failed())} did not fit; {result.total_gpus} GPUs\n"
            f"GPU allocation: {curve.get(100, float('nan')):.2f}% at 100% arrived, "
            f"{curve.get(last, float('nan')):.2f}% at {last}%")
