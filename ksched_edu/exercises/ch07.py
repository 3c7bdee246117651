"""Checks for chapter 07 (preemption).

``check_num_candidates`` compares a learner's counts with DefaultPreemption's
``calculate_num_candidates`` under other args than the defaults;
``check_dropped_by`` compares a prediction of the rule that dropped each
losing candidate of ``data/clusters/preemption.yaml``, once ``db-pdb`` allows
one disruption, with the rules the trace recorded; ``check_make_n2_win`` runs
the scenario after a learner's change and reads which node preemption
nominated.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from ksched_edu.exercises import core
from ksched_edu.exercises.core import call_answer, describe_exception, failed, is_unanswered, passed, project_path
from ksched_edu.i18n import _

SCENARIO = "data/clusters/preemption.yaml"
PREEMPTOR = "default/critical"
TARGET = "n2"


def _limit(seconds: Optional[float]) -> float:
    """``seconds``, or the module-wide limit as it is now (tests lower it)."""
    return core.TIME_LIMIT_SECONDS if seconds is None else seconds


def simulate(cluster: Any, seed: int = 1) -> Any:
    """Run ``cluster`` under the default configuration, traced; return the simulation."""
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import Recorder

    sim = Simulation(cluster, default_config(), seed=seed, recorder=Recorder())
    sim.run()
    return sim


def run_scenario(change: Optional[Callable[[Any], Any]] = None, seed: int = 1) -> tuple[Any, Any]:
    """Load the chapter's cluster, apply ``change`` to it, run it; return (simulation, cluster)."""
    from ksched_edu.api.loader import load_cluster

    cluster = load_cluster(project_path(SCENARIO))
    if change is not None:
        changed = change(cluster)
        cluster = changed if changed is not None else cluster
    return simulate(cluster, seed), cluster


def allow_one_disruption(cluster: Any) -> None:
    """Exercise 2's change: ``db-pdb`` allows one disruption (status.disruptionsAllowed: 1)."""
    for pdb in cluster.pdbs:
        if pdb.metadata.name == "db-pdb":
            pdb.status.disruptions_allowed = 1


def first_preemption(sim: Any) -> Any:
    """The preemptor's first PreemptionEvent that nominated a node (None if there is none)."""
    from ksched_edu.trace import PreemptionEvent

    return next((e for e in sim.recorder.of(PreemptionEvent) if e.pod == PREEMPTOR and e.nominated_node), None)


def dropped_by(event: Any) -> dict[str, str]:
    """Each losing candidate -> the first recorded rule that compared it and did not keep it."""
    out: dict[str, str] = {}
    for crit in event.criteria:
        for node, _score in crit.scores:
            if node not in crit.kept and node not in out:
                out[node] = crit.name
    return out


# --- exercise 1 -----------------------------------------------------------------------------

# Exercise 1's DefaultPreemptionArgs, and the node counts it asks about.
MIN_CANDIDATE_NODES_PERCENTAGE = 25
MIN_CANDIDATE_NODES_ABSOLUTE = 40
NUM_NODES_ASKED = (30, 100, 1000)
# Where to read (kubernetes v1.30.4, pkg/scheduler/framework/...).
_NUM_CANDIDATES_GO = "calculateNumCandidates, plugins/defaultpreemption/default_preemption.go L111-120"
_PICK_GO = "pickOneNodeForPreemption, preemption/preemption.go L454-540"


def check_num_candidates(predicted: Any) -> bool:
    """``predicted``: {number of nodes where preemption might help: candidates the dry run looks for},
    for 30, 100 and 1000 nodes, with minCandidateNodesPercentage 25 and minCandidateNodesAbsolute 40."""
    from ksched_edu.config import DefaultPreemptionArgs
    from ksched_edu.framework.plugins.defaultpreemption.default_preemption import new

    if is_unanswered(predicted) or not isinstance(predicted, dict) or not predicted:
        return failed(_("no prediction yet."), hint=_("write a dict {number of nodes: number of candidates}."))
    bad = [n for n in predicted if isinstance(n, bool) or not isinstance(n, int) or n <= 0]
    if bad:
        return failed(_("{key!r} is not a number of nodes.").format(key=bad[0]), hint=_("use positive ints as keys."))
    missing = [n for n in NUM_NODES_ASKED if n not in predicted]
    if missing:
        return failed(_("no answer for {counts} nodes.").format(counts=", ".join(map(str, missing))),
                      hint=_("answer for {counts} nodes.").format(counts=", ".join(map(str, NUM_NODES_ASKED))))
    plugin = new(DefaultPreemptionArgs(min_candidate_nodes_percentage=MIN_CANDIDATE_NODES_PERCENTAGE,
                                       min_candidate_nodes_absolute=MIN_CANDIDATE_NODES_ABSOLUTE), None)
    defaults = new(None, None)
    for num_nodes in sorted(predicted):
        want, got = plugin.calculate_num_candidates(num_nodes), predicted[num_nodes]
        if isinstance(got, bool) or not isinstance(got, (int, float)):
            return failed(_("for {count} nodes you said {said!r}.").format(count=num_nodes, said=got),
                          hint=_("write whole numbers of candidates."))
        if got != want:
            args = {"percentage": MIN_CANDIDATE_NODES_PERCENTAGE, "absolute": MIN_CANDIDATE_NODES_ABSOLUTE,
                    "go": _NUM_CANDIDATES_GO}
            if got == defaults.calculate_num_candidates(num_nodes):
                hint = _("that is the default args' answer; here the args are {percentage}% "
                         "and at least {absolute} ({go}).").format(**args)
            elif num_nodes * MIN_CANDIDATE_NODES_PERCENTAGE // 100 < MIN_CANDIDATE_NODES_ABSOLUTE:
                hint = _("here the percentage gives fewer than minCandidateNodesAbsolute ({absolute}), "
                         "which takes over, within a limit: read the two ifs of {go}.").format(**args)
            else:
                hint = _("{percentage}% of the nodes (minCandidateNodesPercentage, integer "
                         "division), but at least {absolute} ({go}).").format(**args)
            return failed(_("for {count} nodes you said {said!r}.").format(count=num_nodes, said=got), hint=hint)
    shown = ", ".join(_("{count} nodes -> {candidates}").format(count=n, candidates=predicted[n])
                      for n in sorted(predicted))
    return passed(_("with {percentage}% and at least {absolute}, the dry run looks for {shown} candidate(s).").format(
        percentage=MIN_CANDIDATE_NODES_PERCENTAGE, absolute=MIN_CANDIDATE_NODES_ABSOLUTE, shown=shown))


# --- exercise 2 -----------------------------------------------------------------------------


def check_dropped_by(predicted: Any) -> bool:
    """``predicted``: {losing candidate node: the rule of pickOneNodeForPreemption that dropped it},
    once db-pdb allows one disruption."""
    from ksched_edu.framework.preemption import CRITERION_MIN_PDB_VIOLATIONS

    if is_unanswered(predicted) or not isinstance(predicted, dict) or not predicted:
        return failed(_("no prediction yet."), hint=_("write a dict {node: rule}, e.g. {'n1': CRITERION_...}."))
    sim, _cluster = run_scenario(allow_one_disruption)
    event = first_preemption(sim)
    actual = dropped_by(event)
    if event.nominated_node in predicted:
        return failed(_("{node} was not dropped: it won.").format(node=event.nominated_node),
                      hint=_("leave out the nominated node; list only the candidates that lost."))
    missing = sorted(set(actual) - set(predicted))
    if missing:
        return failed(_("no rule for {nodes}.").format(nodes=", ".join(missing)),
                      hint=_("every losing candidate is dropped by some rule."))
    extra = sorted(set(predicted) - set(actual), key=str)
    if extra:
        return failed(_("{nodes} is no losing candidate.").format(nodes=", ".join(map(str, extra))),
                      hint=_("the candidates are the nodes in the chapter's candidates table; n5 was never one."))
    for node in sorted(actual):
        if predicted[node] != actual[node]:
            if node == "n1" and predicted[node] == CRITERION_MIN_PDB_VIOLATIONS:
                hint = _("with one disruption allowed, db-0 spends it and only db-1 would violate the PDB "
                         "(filterPodsWithPDBViolation, plugins/defaultpreemption/default_preemption.go L295-341); "
                         "violating pods are reprieved first (L215-221), so which db pod is n1's victim, and does "
                         "it violate?")
            else:
                hint = _("the rules run in order; a node leaves at the first rule where it is not best ({go}). "
                         "Use the CRITERION_* names from ksched_edu.framework.preemption.").format(go=_PICK_GO)
            return failed(_("{node} was not dropped by {rule!r}.").format(node=node, rule=predicted[node]), hint=hint)
    victims = {c.node: ", ".join(p.split("/")[1] for p in c.victims) for c in event.candidates}
    # Translators: separates the candidates in "n1 out at 'rule A'; n2 out at 'rule B'".
    separator = _("; ")
    drops = separator.join(_("{node} out at {rule!r}").format(node=n, rule=actual[n]) for n in sorted(actual))
    return passed(_("{drops}; {winner} wins ({rule}). n1's victim is now {victim}.").format(
        drops=drops, winner=event.nominated_node, rule=event.decided_by, victim=victims["n1"]))


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


def check_make_n2_win(change: Any, seconds: Optional[float] = None) -> bool:
    """``change(cluster)`` edits the loaded cluster so that preemption nominates n2 for default/critical.

    The nodes, which pod runs where, every pod's requests and the preemptor must stay as they are:
    only priorities (and PDBs) of the running pods may change. ``change`` runs within ``seconds``
    (default: the module's limit).
    """
    from ksched_edu.api.loader import load_cluster

    if is_unanswered(change) or not callable(change):
        return failed(_("no function yet."), hint=_("define `make_n2_win(cluster)` that edits the running pods."))
    limit = _limit(seconds)
    before = _shape(load_cluster(project_path(SCENARIO)))
    cluster = load_cluster(project_path(SCENARIO))
    ok, changed = call_answer(change, cluster, seconds=limit)
    if not ok:
        if isinstance(changed, NotImplementedError):
            return failed(_("make_n2_win is not written yet."), hint=_("change a running pod's spec.priority."))
        return failed(_("make_n2_win failed: {error}.").format(error=describe_exception(changed)),
                      hint=_("change fields of the objects in `cluster`; set pod.spec.priority to an int."))
    cluster = changed if changed is not None else cluster
    try:
        after = _shape(cluster)
    except Exception as err:  # a learner's change may leave anything behind
        return failed(_("the cluster after your change cannot be read: {error}.").format(error=describe_exception(err)),
                      hint=_("change fields of the objects in `cluster` and return nothing (or the cluster)."))
    for what, touched in (("nodes", _("your change touched the nodes.")),
                          ("running", _("your change touched which pods run where.")),
                          ("requests", _("your change touched the requests.")),
                          ("preemptor", _("your change touched the preemptor's priority."))):
        if before[what] != after[what]:
            return failed(touched, hint=_("change only the running pods' priorities."))
    ok, sim = call_answer(simulate, cluster, seconds=limit)
    if not ok:
        return failed(_("running the scenario after your change failed: {error}.").format(
                          error=describe_exception(sim)),
                      hint=_("change fields of the objects in `cluster`; set pod.spec.priority to an int."))
    event = first_preemption(sim)
    if event is None:
        return failed(_("default/critical did not preempt anything."),
                      hint=_("a victim needs a lower priority than the preemptor's 10000."))
    if event.nominated_node != TARGET:
        return failed(_("preemption still nominates {node} ({rule}).").format(node=event.nominated_node,
                                                                              rule=event.decided_by),
                      hint=_("the rules of {go} run in order, and the one named above decided: n2 must beat "
                             "the winner there or at an earlier rule. Which victims' priorities does each rule "
                             "compare? (Set spec.priority: the PriorityClass names were turned into numbers when "
                             "the file was loaded.)").format(go=_PICK_GO))
    placed = {p.pod: p.node for p in sim.placements()}
    return passed(_("preemption nominates {node} ({rule}), evicts {victims}, and default/critical runs on "
                    "{placed}.").format(node=TARGET, rule=event.decided_by, victims=", ".join(event.victims),
                                        placed=placed.get(PREEMPTOR)))
