"""Checks for chapter 08 (GPU topology: NVLink, PCIe, NUMA, and the GPUTopology plugin).

``check_best_pair`` schedules a 2-GPU job on a DGX-1 whose GPUs 0 and 2 are
taken and reads, from the trace, which GPUs GPUTopology reserved; ``check_fast_links_only`` runs a
learner's pod annotations through GPUTopology's Filter on every node of the
GPU lab; ``check_big_job_first`` runs section 6's spreading run with job-7 moved to the front
and reads, from the trace, the GPUs each node has free at the end.
"""
from __future__ import annotations

from typing import Any

from ksched_edu.exercises import core
from ksched_edu.exercises.core import call_answer, describe_exception, failed, is_unanswered, passed, project_path
from ksched_edu.i18n import N_, _

LAB = "data/clusters/gpu-lab.yaml"
PACKING = "data/clusters/gpu-packing.yaml"
NVSWITCH_NODES = ("a100-a", "h100-a", "h200-a")
BIG_JOB = "default/job-7"
# Exercise 1's DGX-1: a running notebook pod holds these GPUs.
HELD_GPUS = (0, 2)


def _limit(seconds: Any) -> float:
    """``seconds``, or the module-wide limit as it is now (tests lower it)."""
    return core.TIME_LIMIT_SECONDS if seconds is None else seconds


def _run(cluster: Any, strategy: str = "Binpack") -> tuple[Any, Any]:
    from ksched_edu.gpu import plugins
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import Recorder

    rec = Recorder()
    sim = Simulation(cluster, plugins.scheduler_config(strategy), seed=1, recorder=rec,
                     registry=plugins.full_registry())
    sim.run()
    return sim, rec


def _gpu_pod(name: str, gpus: int, annotations: dict[str, str]) -> Any:
    from ksched_edu.api.loader import load_objects

    lines = [f"    {k}: {v!r}" for k, v in annotations.items()]
    text = (f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: default\n"
            + ("  annotations:\n" + "\n".join(lines).replace("'", '"') + "\n" if lines else "")
            + f"spec:\n  containers:\n  - name: main\n    image: pytorch\n    resources:\n      limits:\n"
              f"        nvidia.com/gpu: \"{gpus}\"\n")
    return load_objects(text)[0]


def _cluster_with(path: str, *pods: Any) -> Any:
    from ksched_edu.api.defaults import apply_defaults
    from ksched_edu.api.loader import load_cluster

    cluster = load_cluster(project_path(path))
    cluster.pods.extend(pods)
    return apply_defaults(cluster)


def reserved_gpus(sim_recorder: Any, pod: str) -> tuple[int, ...]:
    """The GPU ids the trace says GPUTopology reserved for ``pod`` (its last reservation)."""
    from ksched_edu.trace import GPUAllocationEvent

    found = [e.gpus for e in sim_recorder.of(GPUAllocationEvent) if e.pod == pod and e.kind == "reserve"]
    return found[-1] if found else ()


def _held_pod() -> Any:
    """A running pod on ``dgx1`` holding the GPUs of ``HELD_GPUS`` (their ids in its annotation)."""
    from ksched_edu.api.loader import load_objects
    from ksched_edu.gpu.ledger import GPUS_ANNOTATION

    ids = ",".join(map(str, HELD_GPUS))
    return load_objects(f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: notebook\n  namespace: default\n"
                        f"  annotations:\n    {GPUS_ANNOTATION}: \"{ids}\"\nspec:\n  nodeName: dgx1\n"
                        f"  containers:\n  - name: main\n    image: pytorch\n    resources:\n      limits:\n"
                        f"        nvidia.com/gpu: \"{len(HELD_GPUS)}\"\nstatus:\n  phase: Running\n")[0]


def best_pair_reserved() -> tuple[int, ...]:
    """The GPUs GPUTopology reserves for a 2-GPU job on a DGX-1 whose ``HELD_GPUS`` are taken."""
    from ksched_edu.api.defaults import apply_defaults
    from ksched_edu.api.loader import load_objects
    from ksched_edu.api.types import Cluster

    node = load_objects("apiVersion: v1\nkind: Node\nmetadata:\n  name: dgx1\n  labels:\n"
                        "    gpu.ksched-edu.io/topology: dgx-1-v100\nstatus:\n  capacity:\n"
                        "    cpu: \"80\"\n    memory: 512Gi\n    pods: \"110\"\n    nvidia.com/gpu: \"8\"\n")[0]
    _sim, rec = _run(apply_defaults(Cluster(nodes=[node], pods=[_held_pod(), _gpu_pod("pair", 2, {})])))
    return reserved_gpus(rec, "default/pair")


def check_best_pair(answer: Any) -> bool:
    """Which two GPUs does GPUTopology give a 2-GPU job on a DGX-1 whose GPUs 0 and 2 are taken?"""
    if is_unanswered(answer):
        return failed(_("no answer yet."), hint=_("set `answer` to a pair of GPU ids, e.g. (0, 1)."))
    if not isinstance(answer, (list, tuple, set, frozenset)):
        return failed(_("{answer!r} is not a pair of GPU ids.").format(answer=answer),
                      hint=_("write two whole numbers, e.g. (0, 1)."))
    try:
        guess = tuple(sorted(int(g) for g in answer))
    except (TypeError, ValueError):
        return failed(_("{answer!r} is not a pair of GPU ids.").format(answer=answer),
                      hint=_("write two whole numbers, e.g. (0, 1)."))
    if len(guess) != 2:
        return failed(_("{answer!r} does not name two GPUs.").format(answer=answer),
                      hint=_("the job asks for nvidia.com/gpu: 2."))
    from ksched_edu.gpu.catalog import TopologyCatalog

    top = TopologyCatalog().get("dgx-1-v100")
    if min(guess) < 0 or max(guess) >= len(top.gpus) or guess[0] == guess[1]:
        return failed(_("{answer!r} is not two different GPUs of a DGX-1.").format(answer=answer),
                      hint=_("GPU ids run from 0 to 7."))
    taken = [g for g in guess if g in HELD_GPUS]
    if taken:
        return failed(_("GPU{gpu} is taken by the notebook pod.").format(gpu=taken[0]),
                      hint=_("the job gets two of the free GPUs 1, 3, 4, 5, 6 and 7."))
    actual = best_pair_reserved()
    if guess == actual:
        return passed(_("GPUTopology reserved GPUs {first} and {second}: NV2 (two NVLinks, 50 GB/s) on one "
                        "NUMA node, the lowest such pair among the free GPUs.").format(first=actual[0],
                                                                                      second=actual[1]))
    theirs, ours = top.link(*guess).label, top.link(*actual).label
    numa = len({top.gpus[g].numa_node for g in guess})
    if theirs == ours and numa > 1:
        return failed(_("GPU{first}-GPU{second} is {link} too, but it spans {numa} NUMA nodes.").format(
                          first=guess[0], second=guess[1], link=theirs, numa=numa),
                      hint=_("between pairs with the same links, the search prefers fewer NUMA nodes "
                             "(`Choice.key` in ksched_edu/gpu/search.py; the CPU Affinity column of the matrix)."))
    if theirs == ours:
        return failed(_("GPU{first}-GPU{second} is {link} too, as fast as the plugin's pair.").format(
                          first=guess[0], second=guess[1], link=theirs),
                      hint=_("among equally good pairs (same links, same NUMA node count) the search keeps the "
                             "first it meets, and it tries the pairs in id order (`brute_force_best_subset` in "
                             "ksched_edu/gpu/search.py, section 3)."))
    return failed(_("GPU{first}-GPU{second} is joined by {link}; the plugin found a faster pair.").format(
                      first=guess[0], second=guess[1], link=theirs),
                  hint=_("read the free GPUs' rows of the matrix: the search wants the fastest slowest link first "
                         "(`Choice.key` in ksched_edu/gpu/search.py)."))


def _prefilter_hint(annotations: dict[Any, Any]) -> str:
    """The hint for a pod GPUTopology refused at PreFilter: where the keys are, after what is wrong with a
    misspelled constraint ('unknown constraint "nvlnk": did you mean nvlink? ...')."""
    import difflib

    from ksched_edu.gpu.plugins.gpu_topology import CONSTRAINT_ANNOTATION, CONSTRAINTS

    words = [w.strip() for w in str(annotations.get(CONSTRAINT_ANNOTATION, "")).split(",") if w.strip()]
    for word in words:
        if word not in CONSTRAINTS:
            close = difflib.get_close_matches(word, CONSTRAINTS, n=1, cutoff=0.6)
            if close:
                return _('unknown constraint "{word}": did you mean {close}? the keys are '
                         "gpu.ksched-edu.io/constraint and gpu.ksched-edu.io/min-bandwidth.").format(
                             word=word, close=close[0])
            return _('unknown constraint "{word}" (want one of {constraints}); the keys are '
                     "gpu.ksched-edu.io/constraint and gpu.ksched-edu.io/min-bandwidth.").format(
                         word=word, constraints=", ".join(CONSTRAINTS))
    return _("the keys are gpu.ksched-edu.io/constraint and gpu.ksched-edu.io/min-bandwidth.")


# What GPUTopology's Filter does, as the hints of check_fast_links_only say it.
_READ_FILTER = N_("GPUTopology's Filter (`GPUTopology.filter` in ksched_edu/gpu/plugins/gpu_topology.py) "
                  "asks the subset search for a free set whose every pair meets the annotations")


def check_fast_links_only(annotations: Any, seconds: Any = None) -> bool:
    """Do these annotations make a 4-GPU job feasible on the GPU lab's NVSwitch nodes, and only there?"""
    from ksched_edu.gpu.plugins.gpu_topology import MIN_BANDWIDTH_ANNOTATION, NAME

    if is_unanswered(annotations) or not isinstance(annotations, dict) or not annotations:
        return failed(_("no annotations yet."),
                      hint=_('set `annotations` to a dict such as {"gpu.ksched-edu.io/constraint": "nvlink"}.'))

    from ksched_edu.gpu.plugins.gpu_topology import unknown_annotation_messages

    unknown = unknown_annotation_messages({str(k): str(v) for k, v in annotations.items()})
    if unknown:
        return failed(_("GPUTopology ignores an annotation key it does not know, so the pod would set no condition "
                        "on its GPUs."), hint=f"{unknown[0]}.")

    def schedule() -> Any:
        pod = _gpu_pod("fast", 4, {str(k): str(v) for k, v in annotations.items()})
        return _run(_cluster_with(LAB, pod))[1]

    ok, rec = call_answer(schedule, seconds=_limit(seconds))
    if not ok:
        return failed(_("a pod with these annotations could not be scheduled: {error}").format(
                          error=describe_exception(rec)),
                      hint=_('keys and values are strings, e.g. {"gpu.ksched-edu.io/min-bandwidth": "100"}.'))
    pre = [e for e in rec.plugin_events(cycle=1, point="PreFilter") if e.plugin == NAME]
    if pre and pre[0].code != "Success":
        return failed(_("GPUTopology refused the pod at PreFilter: {reasons}").format(
                          reasons="; ".join(pre[0].reasons)),
                      hint=_prefilter_hint(annotations))
    filters = {e.node: e for e in rec.plugin_events(cycle=1, point="Filter") if e.plugin == NAME}
    feasible = sorted(n for n, e in filters.items() if e.code == "Success")
    want = sorted(NVSWITCH_NODES)
    if feasible == want:
        return passed(_("only {nodes} pass GPUTopology's Filter; the others say: {reasons}").format(
            nodes=", ".join(want), reasons="; ".join(sorted({r for e in filters.values() for r in e.reasons}))))
    extra = [n for n in feasible if n not in want]
    missing = [n for n in want if n not in feasible]
    read_filter = _(_READ_FILTER)
    if extra:
        if MIN_BANDWIDTH_ANNOTATION in {str(k) for k in annotations}:
            return failed(_("{nodes} also pass(es) the Filter.").format(nodes=", ".join(extra)),
                          hint=_("{read_filter}: find, in section 4's table, the slowest link of the best four "
                                 "GPUs of each node the job must not get, and compare it with your floor.").format(
                                     read_filter=read_filter))
        return failed(_("{nodes} also pass(es) the Filter.").format(nodes=", ".join(extra)),
                      hint=_("{read_filter}: NVLink between every pair is something the DGX-1's quads have too. "
                             "What sets the NVSwitch nodes apart? Compare their slowest links in section 4's table "
                             "with the DGX-1's.").format(read_filter=read_filter))
    return failed(_("{nodes} should pass but is rejected: {reasons}").format(
                      nodes=", ".join(missing),
                      reasons="; ".join(sorted({r for n in missing for r in filters[n].reasons}))),
                  hint=_("{read_filter}: the rejected node's best four GPUs do not meet it. Read that node's "
                         "slowest link in section 4's table (and how `Link.bandwidth` in ksched_edu/gpu/links.py "
                         "turns NV# into GB/s).").format(read_filter=read_filter))


# Exercise 3: section 6's spreading run with job-7 moved to the front of the queue.


def free_gpus_at_the_end(strategy: str = "Spread", big_job_first: bool = True) -> list[int]:
    """The GPUs each node has free once the scheduler is done (largest first).

    The pods arrive in the order of the cluster file; with ``big_job_first`` job-7 is moved in
    front of the six small jobs. The free GPUs are read off the trace's last allocations
    (GPUAllocationEvent).
    """
    from ksched_edu.gpu.ledger import replay

    cluster = _cluster_with(PACKING)
    if big_job_first:
        job = next(p for p in cluster.pods if p.key == BIG_JOB)
        cluster.pods.remove(job)
        first_job = next(i for i, p in enumerate(cluster.pods) if not p.spec.node_name)
        cluster.pods.insert(first_job, job)
    sim, rec = _run(cluster, strategy)
    steps = replay(rec.events)
    held = steps[-1][1] if steps else {}
    return sorted((int(n.status.capacity["nvidia.com/gpu"].value()) - len(held.get(n.metadata.name, {}))
                   for n in sim.cluster.nodes), reverse=True)


_REPLAY_HINT = N_("job-7 takes a whole idle node; then replay the six small jobs in their order, each on the node "
                  "whose GPUs are the least used after it (GPUTopology's Spread score, "
                  "`GPUTopology._score` in ksched_edu/gpu/plugins/gpu_topology.py, section 6).")


def check_big_job_first(free: Any) -> bool:
    """If job-7 arrived first in section 6's spreading run, how many GPUs would each node have free at the end?"""
    if is_unanswered(free):
        return failed(_("no prediction yet."), hint=_("set `free` to a list of three whole numbers, one per node, "
                                                      "e.g. [8, 2, 0]."))
    if (not isinstance(free, (list, tuple)) or len(free) != 3
            or any(isinstance(n, bool) or not isinstance(n, int) for n in free)):
        return failed(_("{answer!r} is not three numbers of GPUs.").format(answer=free),
                      hint=_("write a list of three whole numbers, one per node (any order), e.g. [8, 2, 0]."))
    guess = sorted(free, reverse=True)
    actual = free_gpus_at_the_end("Spread")
    if guess == actual:
        return passed(_("the nodes end with {free} GPUs free: job-7 took a whole node, and the six small jobs "
                        "(12 GPUs) fit on the other two, so no job waits.").format(free=actual))
    replay = _(_REPLAY_HINT)
    if any(n < 0 or n > 8 for n in guess):
        return failed(_("{answer!r}: a node has between 0 and 8 GPUs free.").format(answer=free), hint=replay)
    if guess == free_gpus_at_the_end("Spread", big_job_first=False):
        return failed(_("{answer!r} is the chapter's run, where job-7 arrives last and waits.").format(answer=free),
                      hint=_("now job-7 comes first: {replay}").format(replay=replay))
    if guess == free_gpus_at_the_end("Binpack"):
        return failed(_("{answer!r} is what binpacking leaves: it fills one node before the next.").format(
                          answer=free),
                      hint=_("this run spreads: {replay}").format(replay=replay))
    if sum(guess) != sum(actual):
        return failed(_("{answer!r} leaves {count} GPUs free in all.").format(answer=free, count=sum(guess)),
                      hint=_("count the GPUs the seven jobs ask for (the section 6 table) and whether any of them "
                             "waits; then {replay}").format(replay=replay))
    return failed(_("{answer!r} is not how the small jobs spread.").format(answer=free), hint=replay)
