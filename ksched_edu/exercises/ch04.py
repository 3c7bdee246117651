"""Checks for chapter 04 (one scheduling cycle: filter, score, select).

``check_num_feasible_nodes`` compares a learner's count with the port's
``num_feasible_nodes_to_find``; ``check_normalized_scores`` compares a
prediction with the normalized scores the trace recorded for a case folder;
``check_filter_counts`` compares a prediction of one cycle's
``evaluated_nodes`` and ``feasible_nodes`` with what the trace recorded on the
chapter's 1,000-node cluster. None of them runs learner code: they compare
values, so each is bounded by the engine run it makes.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Optional

from ksched_edu.exercises.core import failed, is_unanswered, passed, project_path

TAINT_CASE = "data/cases/score-taint-prefer-noschedule"


def check_num_feasible_nodes(num_nodes: int, answer: Any, percentage: int = 0) -> bool:
    """Is ``answer`` how many feasible nodes the scheduler looks for in a cluster of ``num_nodes``?

    ``percentage`` is ``percentageOfNodesToScore`` (0: unset, the adaptive default).
    """
    from ksched_edu.schedule_one import num_feasible_nodes_to_find

    if is_unanswered(answer):
        return failed("no answer yet.", hint="set `answer` to a whole number of nodes.")
    if not isinstance(answer, int) or isinstance(answer, bool):
        return failed(f"{answer!r} is not a whole number of nodes.", hint="give an int, e.g. 230.")
    want = num_feasible_nodes_to_find(percentage or None, None, num_nodes)
    if answer == want:
        return passed(f"in a cluster of {num_nodes} nodes the scheduler stops after {want} feasible nodes.")
    return failed(f"{answer} is not what the scheduler uses for {num_nodes} nodes.",
                  hint=_feasible_hint(num_nodes, answer, percentage))


def _feasible_hint(num_nodes: int, answer: int, percentage: int) -> str:
    if num_nodes < 100:
        return "clusters under 100 nodes (minFeasibleNodesToFind) are searched whole."
    if answer == num_nodes:
        return "from 100 nodes on, only a percentage of the nodes is searched."
    if answer < 100:
        return "the result is never below minFeasibleNodesToFind = 100."
    if percentage == 0 and answer == num_nodes * 50 // 100:
        return "the adaptive percentage is 50 minus one point per 125 nodes (integer division)."
    if percentage == 0:
        return "adaptive percentage = 50 - nodes // 125, at least 5; then nodes * percentage // 100."
    return f"with percentageOfNodesToScore={percentage}: nodes * {percentage} // 100, at least 100."


def check_normalized_scores(predicted: Any, plugin: str = "TaintToleration",
                            case_dir: str = TAINT_CASE) -> bool:
    """Does ``predicted`` ({node: score}) match the normalized scores ``plugin`` gave in the case?"""
    if is_unanswered(predicted) or not isinstance(predicted, dict):
        return failed("no prediction yet.", hint="write a dict {node name: normalized score}, e.g. {'n1': 0, ...}.")
    actual = normalized_scores(case_dir, plugin)
    if not actual:
        return failed(f"{plugin} gave no score in {case_dir}.", hint="check the plugin name and the case folder.")
    missing = sorted(set(actual) - set(predicted))
    if missing:
        return failed(f"no prediction for {', '.join(missing)}.", hint="predict every feasible node's score.")
    extra = sorted(set(predicted) - set(actual))
    if extra:
        return failed(f"{', '.join(extra)} was not scored.", hint="only feasible nodes are scored.")
    wrong = {n: predicted[n] for n in actual if predicted[n] != actual[n]}
    if not wrong:
        shown = ", ".join(f"{n}={s}" for n, s in actual.items())
        return passed(f"{plugin} normalized scores: {shown}.")
    node = next(iter(wrong))
    hint = ("TaintToleration counts intolerable PreferNoSchedule taints (raw), then normalizes reversed: "
            "100 - 100 * raw // max raw, so the node with the fewest gets 100."
            if plugin == "TaintToleration" else
            f"read {plugin}'s normalize_score: how does it map the raw scores onto 0..100?")
    return failed(f"{len(wrong)} node(s) off, e.g. {node}: you said {wrong[node]}.", hint=hint)


def normalized_scores(case_dir: str, plugin: str) -> dict[str, Optional[int]]:
    """The normalized score ``plugin`` gave each node in the first cycle of a score-mode case (from the trace)."""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import load_config
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import Recorder

    folder = project_path(case_dir)
    rec = Recorder()
    sim = Simulation(load_cluster(folder / "cluster.yaml"), load_config(folder / "config.yaml"), seed=0,
                     recorder=rec)
    sim.scheduler.schedule_one()
    return {e.node: e.normalized_score for e in rec.plugin_events(cycle=1, point="Score") if e.plugin == plugin}


# --- how many nodes one cycle filters (section 2) --------------------------------------------

THOUSAND_NODES = ("data/clusters/nodes-1000.yaml", "data/workloads/burst-six-pods.yaml")
COUNTS_PERCENTAGE = 20


def tainted_thousand(config: Any, recorder: Any) -> Any:
    """The chapter's 1,000-node cluster: nodes-1000.yaml, every fourth node (node-3, node-7, ...)
    tainted ``dedicated=batch:NoSchedule``, and the six pods of burst-six-pods.yaml."""
    from ksched_edu.api.types import Node, Taint
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.sim.workload import load_workload

    workload = load_workload([project_path(p) for p in THOUSAND_NODES])
    for event in workload.events:
        if isinstance(event.obj, Node) and int(event.obj.metadata.name.split("-")[1]) % 4 == 3:
            event.obj.spec.taints.append(Taint(key="dedicated", value="batch", effect="NoSchedule"))
    return Simulation.from_workload(workload, config, seed=1, recorder=recorder)


@lru_cache(maxsize=None)
def first_cycle_counts(percentage: int = COUNTS_PERCENTAGE) -> tuple[int, int]:
    """(evaluated, feasible) that the trace records for the first cycle on the tainted 1,000 nodes,
    with ``percentageOfNodesToScore: percentage`` (0: the adaptive default). The same run gives the
    same counts, so they are kept once computed."""
    from ksched_edu.config.loader import load_config_data
    from ksched_edu.trace import CycleEvent, Recorder

    config = load_config_data("apiVersion: kubescheduler.config.k8s.io/v1\n"
                              "kind: KubeSchedulerConfiguration\n"
                              f"percentageOfNodesToScore: {percentage}\n")
    rec = Recorder()
    sim = tainted_thousand(config, rec)
    sim.run()
    end = next(e for e in rec.of(CycleEvent) if e.cycle == 1 and e.kind != "start")
    return end.evaluated_nodes, end.feasible_nodes


def check_filter_counts(evaluated: Any, feasible: Any, percentage: int = COUNTS_PERCENTAGE) -> bool:
    """Are (``evaluated``, ``feasible``) the counts the first cycle records on the tainted 1,000 nodes?"""
    from ksched_edu.schedule_one import num_feasible_nodes_to_find

    if is_unanswered(evaluated) or is_unanswered(feasible):
        return failed("no prediction yet.", hint="set `evaluated` and `feasible` to whole numbers of nodes.")
    for value in (evaluated, feasible):
        if not isinstance(value, int) or isinstance(value, bool):
            return failed(f"{value!r} is not a whole number of nodes.", hint="give two ints, e.g. 300 and 200.")
    want_evaluated, want_feasible = first_cycle_counts(percentage)
    if (evaluated, feasible) == (want_evaluated, want_feasible):
        return passed(f"the first cycle filtered its way through {want_evaluated} nodes and kept "
                      f"{want_feasible} feasible ones; the next cycle starts at index {want_evaluated}.")
    if feasible != want_feasible:
        return failed(f"feasible = {feasible} is not what the cycle kept.",
                      hint=_feasible_count_hint(feasible, percentage,
                                                num_feasible_nodes_to_find(None, None, 1000)))
    return failed(f"evaluated = {evaluated} is not what the cycle recorded.",
                  hint=_evaluated_hint(evaluated, want_evaluated, want_feasible))


def _feasible_count_hint(feasible: int, percentage: int, adaptive: int) -> str:
    if percentage and feasible == adaptive:
        return (f"that is the adaptive default; this profile sets percentageOfNodesToScore: {percentage}, "
                f"so numFeasibleNodesToFind is 1000 * {percentage} // 100.")
    if feasible in (750, 1000):
        return "the search stops once numFeasibleNodesToFind nodes have passed the filters."
    return f"feasible is numFeasibleNodesToFind(1000) with percentageOfNodesToScore: {percentage}."


def _evaluated_hint(evaluated: int, want_evaluated: int, want_feasible: int) -> str:
    if evaluated == want_feasible:
        return "the tainted nodes rejected on the way count too: evaluated = feasible + rejected."
    if evaluated == want_evaluated + 1:
        return ("the node that stops the search (one feasible node too many) is filtered but not counted: "
                "it is where the next cycle starts.")
    if evaluated >= 1000:
        return "the search stops early; only the nodes before the stop are counted."
    return ("count the tainted nodes (node-3, node-7, node-11, ...) the search meets, starting at node-0, "
            "before it has found all its feasible nodes.")
