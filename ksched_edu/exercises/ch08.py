"""Checks for chapter 08 (GPU topology: NVLink, PCIe, NUMA, and the GPUTopology plugin).

``check_best_pair`` schedules a 2-GPU job on a DGX-1 whose GPUs 0 and 2 are
taken and reads, from the trace, which GPUs GPUTopology reserved; ``check_fast_links_only`` runs a
learner's pod annotations through GPUTopology's Filter on every node of the
GPU lab; ``check_idle_gpus`` counts, from the trace of the spreading run with
job-7 asking for 4 GPUs instead of 8, the GPUs left idle at the end.
"""
from __future__ import annotations

from typing import Any

from ksched_edu.exercises import core
from ksched_edu.exercises.core import call_answer, describe_exception, failed, is_unanswered, passed, project_path

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
    _, rec = _run(apply_defaults(Cluster(nodes=[node], pods=[_held_pod(), _gpu_pod("pair", 2, {})])))
    return reserved_gpus(rec, "default/pair")


def check_best_pair(answer: Any) -> bool:
    """Which two GPUs does GPUTopology give a 2-GPU job on a DGX-1 whose GPUs 0 and 2 are taken?"""
    if is_unanswered(answer):
        return failed("no answer yet.", hint="set `answer` to a pair of GPU ids, e.g. (0, 1).")
    try:
        guess = tuple(sorted(int(g) for g in answer))
    except (TypeError, ValueError):
        return failed(f"{answer!r} is not a pair of GPU ids.", hint="write two whole numbers, e.g. (0, 1).")
    if len(guess) != 2:
        return failed(f"{answer!r} does not name two GPUs.", hint="the job asks for nvidia.com/gpu: 2.")
    from ksched_edu.gpu.catalog import TopologyCatalog

    top = TopologyCatalog().get("dgx-1-v100")
    if min(guess) < 0 or max(guess) >= len(top.gpus) or guess[0] == guess[1]:
        return failed(f"{answer!r} is not two different GPUs of a DGX-1.", hint="GPU ids run from 0 to 7.")
    taken = [g for g in guess if g in HELD_GPUS]
    if taken:
        return failed(f"GPU{taken[0]} is taken by the notebook pod.",
                      hint="the job gets two of the free GPUs 1, 3, 4, 5, 6 and 7.")
    actual = best_pair_reserved()
    if guess == actual:
        return passed(f"GPUTopology reserved GPUs {actual[0]} and {actual[1]}: NV2 (two NVLinks, 50 GB/s) on one "
                      "NUMA node, the lowest such pair among the free GPUs.")
    theirs, ours = top.link(*guess).label, top.link(*actual).label
    numa = len({top.gpus[g].numa_node for g in guess})
    if theirs == ours and numa > 1:
        return failed(f"GPU{guess[0]}-GPU{guess[1]} is {theirs} too, but it spans {numa} NUMA nodes.",
                      hint="between pairs with the same links, the search prefers fewer NUMA nodes "
                           "(see the CPU Affinity column of the matrix).")
    if theirs == ours:
        return failed(f"GPU{guess[0]}-GPU{guess[1]} is {theirs} too, as fast as the plugin's pair.",
                      hint="among equally good pairs (same links, same NUMA node count) the lowest ids win.")
    return failed(f"GPU{guess[0]}-GPU{guess[1]} is joined by {theirs}; the plugin found a faster pair.",
                  hint="look for NV2 among the free GPUs' rows of the matrix: the search wants the fastest "
                       "slowest link.")


def _constraint_hint(annotations: dict[Any, Any]) -> str:
    """'unknown constraint "nvlnk": did you mean nvlink? ' for a misspelled constraint, else ""."""
    import difflib

    from ksched_edu.gpu.plugins.gpu_topology import CONSTRAINT_ANNOTATION, CONSTRAINTS

    words = [w.strip() for w in str(annotations.get(CONSTRAINT_ANNOTATION, "")).split(",") if w.strip()]
    for word in words:
        if word not in CONSTRAINTS:
            close = difflib.get_close_matches(word, CONSTRAINTS, n=1, cutoff=0.6)
            if close:
                return f"unknown constraint \"{word}\": did you mean {close[0]}? "
            return f"unknown constraint \"{word}\" (want one of {', '.join(CONSTRAINTS)}); "
    return ""


def check_fast_links_only(annotations: Any, seconds: Any = None) -> bool:
    """Do these annotations make a 4-GPU job feasible on the GPU lab's NVSwitch nodes, and only there?"""
    from ksched_edu.gpu.plugins.gpu_topology import NAME

    if is_unanswered(annotations) or not isinstance(annotations, dict) or not annotations:
        return failed("no annotations yet.",
                      hint="set `annotations` to a dict such as {\"gpu.ksched-edu.io/constraint\": \"nvlink\"}.")

    from ksched_edu.gpu.plugins.gpu_topology import unknown_annotation_messages

    unknown = unknown_annotation_messages({str(k): str(v) for k, v in annotations.items()})
    if unknown:
        return failed("GPUTopology ignores an annotation key it does not know, so the pod would set no condition "
                      "on its GPUs.", hint=f"{unknown[0]}.")

    def schedule() -> Any:
        pod = _gpu_pod("fast", 4, {str(k): str(v) for k, v in annotations.items()})
        return _run(_cluster_with(LAB, pod))[1]

    ok, rec = call_answer(schedule, seconds=_limit(seconds))
    if not ok:
        return failed(f"a pod with these annotations could not be scheduled: {describe_exception(rec)}",
                      hint="keys and values are strings, e.g. {\"gpu.ksched-edu.io/min-bandwidth\": \"100\"}.")
    pre = [e for e in rec.plugin_events(cycle=1, point="PreFilter") if e.plugin == NAME]
    if pre and pre[0].code != "Success":
        return failed(f"GPUTopology refused the pod at PreFilter: {'; '.join(pre[0].reasons)}",
                      hint=_constraint_hint(annotations) + "the keys are gpu.ksched-edu.io/constraint "
                           "and gpu.ksched-edu.io/min-bandwidth.")
    filters = {e.node: e for e in rec.plugin_events(cycle=1, point="Filter") if e.plugin == NAME}
    feasible = sorted(n for n, e in filters.items() if e.code == "Success")
    want = sorted(NVSWITCH_NODES)
    if feasible == want:
        return passed(f"only {', '.join(want)} pass GPUTopology's Filter; the others say: "
                      + "; ".join(sorted({r for e in filters.values() for r in e.reasons})))
    extra = [n for n in feasible if n not in want]
    missing = [n for n in want if n not in feasible]
    if extra:
        return failed(f"{', '.join(extra)} also pass(es) the Filter.",
                      hint="NVLink alone lets the DGX-1 quad in (some of its pairs are NV1, 25 GB/s): ask for a "
                           "minimum bandwidth between every pair instead.")
    return failed(f"{', '.join(missing)} should pass but is rejected: "
                  f"{'; '.join(r for n in missing for r in filters[n].reasons)}",
                  hint="an A100 pair is NV12 (300 GB/s), an H100 pair NV18 (450 GB/s): stay at or below 300.")


# Exercise 3: job-7 asks for this many GPUs instead of 8.
SMALLER_BIG_JOB = 4


def idle_gpus_while_waiting(strategy: str = "Spread", big_job_gpus: Any = None) -> int:
    """GPUs held by nobody at the end of the packing run (the trace's last allocations).

    ``big_job_gpus``, when given, replaces job-7's request for 8 GPUs.
    """
    from ksched_edu.api.quantity import Quantity
    from ksched_edu.gpu.ledger import replay

    cluster = _cluster_with(PACKING)
    if big_job_gpus is not None:
        job = next(p for p in cluster.pods if p.key == BIG_JOB)
        for container in job.spec.containers:
            for amounts in (container.resources.requests, container.resources.limits):
                if "nvidia.com/gpu" in amounts:
                    amounts["nvidia.com/gpu"] = Quantity(str(big_job_gpus))
    sim, rec = _run(cluster, strategy)
    steps = replay(rec.events)
    held = sum(len(slots) for slots in steps[-1][1].values()) if steps else 0
    total = sum(int(n.status.capacity["nvidia.com/gpu"].value()) for n in sim.cluster.nodes)
    return total - held


def check_idle_gpus(predicted: Any) -> bool:
    """If job-7 asked for 4 GPUs instead of 8, how many GPUs would sit idle at the end of the spreading run?"""
    if is_unanswered(predicted):
        return failed("no prediction yet.", hint="set `predicted` to a whole number of GPUs.")
    if isinstance(predicted, bool) or not isinstance(predicted, (int, float)):
        return failed(f"{predicted!r} is not a number of GPUs.", hint="set `predicted` to a whole number, like 5.")
    actual = idle_gpus_while_waiting("Spread", SMALLER_BIG_JOB)
    if predicted == actual:
        return passed(f"{actual} GPUs are idle: spreading had left 4 GPUs free on every node, so job-7's "
                      f"{SMALLER_BIG_JOB} GPUs fit on one of them.")
    if predicted == idle_gpus_while_waiting("Spread"):
        return failed(f"{predicted} is the chapter's run, where job-7 waits for 8 GPUs.",
                      hint="read the Spread panel of section 6's figure: how many GPUs does each node have free "
                           "when job-7 arrives, and do 4 fit on one node?")
    return failed(f"{predicted} is not the number of idle GPUs.",
                  hint="3 nodes of 8 GPUs; the jobs ask for 2+1+4+1+2+2 GPUs, and job-7 now for 4: does it fit "
                       "on one node?")
