"""Checks for chapter 04 (one scheduling cycle: filter, score, select).

``check_num_feasible_nodes`` compares a learner's count with the port's
``num_feasible_nodes_to_find``; ``check_normalized_scores`` compares a
prediction with the normalized scores the trace recorded for a case folder.
"""
from __future__ import annotations

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
