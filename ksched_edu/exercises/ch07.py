"""Checks for chapter 07 (preemption).

``check_num_candidates`` compares a learner's counts with DefaultPreemption's
``calculate_num_candidates``; ``check_dropped_by`` compares a prediction of
the rule that dropped each losing candidate of ``data/clusters/preemption.yaml``
with the rules the trace recorded; ``check_make_n2_win`` runs the scenario
after a learner's change and reads which node preemption nominated.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from ksched_edu.exercises.core import call_answer, failed, is_unanswered, passed, project_path

SCENARIO = "data/clusters/preemption.yaml"
PREEMPTOR = "default/critical"
TARGET = "n2"


def run_scenario(change: Optional[Callable[[Any], Any]] = None, seed: int = 1) -> tuple[Any, Any]:
    """Load the chapter's cluster, apply ``change`` to it, run it; return (simulation, cluster)."""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import Recorder

    cluster = load_cluster(project_path(SCENARIO))
    if change is not None:
        changed = change(cluster)
        cluster = changed if changed is not None else cluster
    sim = Simulation(cluster, default_config(), seed=seed, recorder=Recorder())
    sim.run()
    return sim, cluster


def first_preemption(sim: Any) -> Any:
    """The preemptor's first PreemptionEvent that nominated a node (None if there is none)."""
    from ksched_edu.trace import PreemptionEvent

    return next((e for e in sim.recorder.of(PreemptionEvent) if e.pod == PREEMPTOR and e.nominated_node), None)


def dropped_by(event: Any) -> dict[str, str]:
    """Each losing candidate -> the first recorded rule that compared it and did not keep it."""
    out: dict[str, str] = {}
    for crit in event.criteria:
        for node, _ in crit.scores:
            if node not in crit.kept and node not in out:
                out[node] = crit.name
    return out


# --- exercise 1 -----------------------------------------------------------------------------


def check_num_candidates(predicted: Any) -> bool:
    """``predicted``: {number of nodes where preemption might help: candidates the dry run looks for}."""
    from ksched_edu.framework.plugins.defaultpreemption.default_preemption import new

    if is_unanswered(predicted) or not isinstance(predicted, dict) or not predicted:
        return failed("no prediction yet.", hint="write a dict {number of nodes: number of candidates}.")
    plugin = new(None, None)
    for num_nodes in sorted(predicted, key=str):
        if not isinstance(num_nodes, int) or num_nodes <= 0:
            return failed(f"{num_nodes!r} is not a number of nodes.", hint="use positive ints as keys.")
        want, got = plugin.calculate_num_candidates(num_nodes), predicted[num_nodes]
        if got != want:
            if num_nodes <= 100:
                hint = "at least minCandidateNodesAbsolute (100) candidates, but never more than the nodes."
            else:
                hint = "10% of the nodes (minCandidateNodesPercentage), but at least 100."
            return failed(f"for {num_nodes} nodes you said {got!r}.", hint=hint)
    shown = ", ".join(f"{n} nodes -> {predicted[n]}" for n in sorted(predicted))
    return passed(f"the dry run looks for {shown} candidate(s).")


# --- exercise 2 -----------------------------------------------------------------------------


def check_dropped_by(predicted: Any) -> bool:
    """``predicted``: {losing candidate node: the rule of pickOneNodeForPreemption that dropped it}."""
    if is_unanswered(predicted) or not isinstance(predicted, dict) or not predicted:
        return failed("no prediction yet.", hint="write a dict {node: rule}, e.g. {'n1': CRITERION_...}.")
    sim, _ = run_scenario()
    event = first_preemption(sim)
    actual = dropped_by(event)
    if event.nominated_node in predicted:
        return failed(f"{event.nominated_node} was not dropped: it won.",
                      hint="leave out the nominated node; list only the candidates that lost.")
    missing = sorted(set(actual) - set(predicted))
    if missing:
        return failed(f"no rule for {', '.join(missing)}.", hint="every losing candidate is dropped by some rule.")
    extra = sorted(set(predicted) - set(actual))
    if extra:
        return failed(f"{', '.join(extra)} is no losing candidate.",
                      hint="the candidates are the nodes in the explorer's table; n5 was never one.")
    for node in sorted(actual):
        if predicted[node] != actual[node]:
            return failed(f"{node} was not dropped by {predicted[node]!r}.",
                          hint="the rules run in order; a node leaves at the first rule where it is not best. "
                               "Use the CRITERION_* names from ksched_edu.framework.preemption.")
    return passed("; ".join(f"{n} out at {actual[n]!r}" for n in sorted(actual))
                  + f"; {event.nominated_node} wins ({event.decided_by}).")


# --- exercise 3 -----------------------------------------------------------------------------


def _shape(cluster: Any) -> dict[str, Any]:
    """What a change may not touch: the nodes, which pods run where, the preemptor's priority and requests."""
    pending = next((p for p in cluster.pending_pods if p.key == PREEMPTOR), None)
    return {
        "nodes": sorted((n.metadata.name, tuple(sorted((k, str(v)) for k, v in n.status.allocatable.items())))
                        for n in cluster.nodes),
        "running": sorted((p.key, p.spec.node_name) for p in cluster.running_pods),
        "requests": sorted((p.key, tuple(sorted((k, str(v)) for c in p.spec.containers
                                                for k, v in c.resources.requests.items())))
                           for p in cluster.pods),
        "preemptor": None if pending is None else (pending.spec.priority, pending.spec.preemption_policy),
    }


def check_make_n2_win(change: Any) -> bool:
    """``change(cluster)`` edits the loaded cluster so that preemption nominates n2 for default/critical.

    The nodes, which pod runs where, every pod's requests and the preemptor must stay as they are:
    only priorities (and PDBs) of the running pods may change.
    """
    from ksched_edu.api.loader import load_cluster

    if is_unanswered(change) or not callable(change):
        return failed("no function yet.", hint="define `make_n2_win(cluster)` that edits the running pods.")
    before = _shape(load_cluster(project_path(SCENARIO)))
    ok, outcome = call_answer(run_scenario, change)
    if not ok:
        if isinstance(outcome, NotImplementedError):
            return failed("make_n2_win is not written yet.", hint="change a running pod's spec.priority.")
        return failed(f"running the scenario after your change failed: {outcome!r}.",
                      hint="change fields of the objects in `cluster`; set pod.spec.priority to an int.")
    sim, cluster = outcome
    after = _shape(cluster)
    for what, why in (("nodes", "the nodes"), ("running", "which pods run where"), ("requests", "the requests"),
                      ("preemptor", "the preemptor's priority")):
        if before[what] != after[what]:
            return failed(f"your change touched {why}.", hint="change only the running pods' priorities.")
    event = first_preemption(sim)
    if event is None:
        return failed("default/critical did not preempt anything.",
                      hint="a victim needs a lower priority than the preemptor's 10000.")
    if event.nominated_node != TARGET:
        return failed(f"preemption still nominates {event.nominated_node} ({event.decided_by}).",
                      hint="n3 beats n2 at the rule 'lowest highest-priority victim' or later: make n3's victim "
                           "more important than n2's victims (set spec.priority: the PriorityClass names were "
                           "turned into numbers when the file was loaded).")
    placed = {p.pod: p.node for p in sim.placements()}
    return passed(f"preemption nominates {TARGET} ({event.decided_by}), evicts {', '.join(event.victims)}, "
                  f"and default/critical runs on {placed.get(PREEMPTOR)}.")
