"""Checks for chapter 04 (one scheduling cycle: filter, score, select).

``check_next_start_index`` compares a prediction of ``nextStartNodeIndex`` after
a cycle whose PreFilter narrowed the nodes with what the port's scheduler holds
after that cycle, on the chapter's 1,000-node cluster; ``check_normalized_scores``
compares a prediction with the normalized scores the trace recorded for a case
folder; ``check_filter_counts`` compares a prediction of one cycle's
``evaluated_nodes`` and ``feasible_nodes`` with what the trace recorded on the
chapter's 1,000-node cluster. None of them runs learner code: they compare
values, so each is bounded by the engine run it makes.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional

from ksched_edu.exercises.core import failed, is_unanswered, passed, project_path
from ksched_edu.i18n import N_, _

TAINT_CASE = "data/cases/score-taint-prefer-noschedule"

# Where the Go answers exercise 2 (pkg/scheduler/, v1.30.4).
TAINT_GO = N_("framework/plugins/tainttoleration/taint_toleration.go: Score (L140-154) counts with "
               "countIntolerableTaintsPreferNoSchedule (L125-137); NormalizeScore (L157-159) calls "
               "DefaultNormalizeScore(MaxNodeScore, true, scores) in framework/plugins/helper/normalize_score.go "
               "(L27-55)")


def check_normalized_scores(predicted: Any, plugin: str = "TaintToleration",
                            case_dir: str = TAINT_CASE) -> bool:
    """Does ``predicted`` ({node: score}) match the normalized scores ``plugin`` gave in the case?"""
    if is_unanswered(predicted) or not isinstance(predicted, dict):
        return failed(_("no prediction yet."),
                      hint=_("write a dict {node name: normalized score}, one entry per node."))
    actual = normalized_scores(case_dir, plugin)
    if not actual:
        return failed(_("{plugin} gave no score in {case_dir}.").format(plugin=plugin, case_dir=case_dir),
                      hint=_("check the plugin name and the case folder."))
    missing = sorted(set(actual) - set(predicted))
    if missing:
        return failed(_("no prediction for {nodes}.").format(nodes=", ".join(missing)),
                      hint=_("predict every feasible node's score."))
    extra = sorted(set(predicted) - set(actual))
    if extra:
        return failed(_("{nodes} was not scored.").format(nodes=", ".join(extra)),
                      hint=_("only feasible nodes are scored."))
    not_ints = sorted(n for n in actual if isinstance(predicted[n], bool) or not isinstance(predicted[n], int))
    if not_ints:
        return failed(_("the score of {nodes} is not a whole number.").format(nodes=", ".join(not_ints)),
                      hint=_("a normalized score is an int from 0 to 100 (framework.MaxNodeScore)."))
    wrong = {n: predicted[n] for n in actual if predicted[n] != actual[n]}
    if not wrong:
        shown = ", ".join(f"{n}={s}" for n, s in actual.items())
        return passed(_("{plugin} normalized scores: {scores}.").format(plugin=plugin, scores=shown))
    node = next(iter(wrong))
    return failed(_("{count} node(s) off, e.g. {node}: you said {score}.").format(
        count=len(wrong), node=node, score=wrong[node]), hint=_normalized_hint(predicted, plugin, case_dir))


def _normalized_hint(predicted: dict, plugin: str, case_dir: str) -> str:
    if plugin != "TaintToleration":
        return _("read {plugin}'s normalize_score: how does it map the raw scores onto 0..100?").format(plugin=plugin)
    raw = raw_scores(case_dir, plugin)
    every_taint = prefer_no_schedule_taints(case_dir, set(raw))
    if all(predicted[n] == s for n, s in _default_normalize(every_taint, reverse=True).items()):
        return _("a taint the pod tolerates is not counted: read which taints countIntolerableTaintsPreferNoSchedule "
                 "skips (taint_toleration.go L125-137).")
    if any(all(predicted[n] == s for n, s in _default_normalize(counts, reverse=False).items())
           for counts in (raw, every_taint)):
        return _("NormalizeScore passes reverse=true to DefaultNormalizeScore (taint_toleration.go L158): read what "
                 "normalize_score.go L48-50 then does to each score.")
    return _("work it out from the Go: {go}.").format(go=_(TAINT_GO))


def _default_normalize(scores: dict[str, int], reverse: bool) -> dict[str, int]:
    """DefaultNormalizeScore(100, reverse, scores) on {node: raw}: the port's helper, on a copy."""
    from ksched_edu.framework.interface import NodeScore
    from ksched_edu.framework.plugins.helper.normalize_score import default_normalize_score

    node_scores = [NodeScore(n, s) for n, s in scores.items()]
    default_normalize_score(100, reverse, node_scores)
    return {ns.name: ns.score for ns in node_scores}


def prefer_no_schedule_taints(case_dir: str, nodes: set[str]) -> dict[str, int]:
    """How many PreferNoSchedule taints each of ``nodes`` carries in the case, tolerated or not."""
    from ksched_edu.api.loader import load_cluster

    cluster = load_cluster(project_path(case_dir) / "cluster.yaml")
    return {n.metadata.name: sum(1 for t in n.spec.taints if t.effect == "PreferNoSchedule")
            for n in cluster.nodes if n.metadata.name in nodes}


def normalized_scores(case_dir: str, plugin: str) -> dict[str, Optional[int]]:
    """The normalized score ``plugin`` gave each node in the first cycle of a score-mode case (from the trace)."""
    return {node: normalized for node, (_raw, normalized) in _case_scores(case_dir, plugin).items()}


def raw_scores(case_dir: str, plugin: str) -> dict[str, int]:
    """The raw score ``plugin`` gave each node in the first cycle of a score-mode case (from the trace)."""
    return {node: raw for node, (raw, _normalized) in _case_scores(case_dir, plugin).items()}


@lru_cache(maxsize=None)
def _case_scores(case_dir: str, plugin: str) -> dict[str, tuple[int, int]]:
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import load_config
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import Recorder

    folder = project_path(case_dir)
    rec = Recorder()
    sim = Simulation(load_cluster(folder / "cluster.yaml"), load_config(folder / "config.yaml"), seed=0,
                     recorder=rec)
    sim.scheduler.schedule_one()
    return {e.node: (e.raw_score, e.normalized_score)
            for e in rec.plugin_events(cycle=1, point="Score") if e.plugin == plugin}


# --- how many nodes one cycle filters (section 2) --------------------------------------------

THOUSAND_NODES = ("data/clusters/nodes-1000.yaml", "data/workloads/burst-six-pods.yaml")
COUNTS_PERCENTAGE = 20


def tainted_thousand(config: Any, recorder: Any, extra: tuple = ()) -> Any:
    """The chapter's 1,000-node cluster: nodes-1000.yaml, every fourth node (node-3, node-7, ...)
    tainted ``dedicated=batch:NoSchedule``, and the six pods of burst-six-pods.yaml (and the
    manifests of ``extra``, loaded with them)."""
    from ksched_edu.api.types import Node, Taint
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.sim.workload import load_workload

    workload = load_workload([project_path(p) for p in THOUSAND_NODES] + list(extra))
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
        return failed(_("no prediction yet."), hint=_("set `evaluated` and `feasible` to whole numbers of nodes."))
    for value in (evaluated, feasible):
        if not isinstance(value, int) or isinstance(value, bool):
            return failed(_("{value!r} is not a whole number of nodes.").format(value=value),
                          hint=_("give two ints: whole numbers of nodes."))
    want_evaluated, want_feasible = first_cycle_counts(percentage)
    if (evaluated, feasible) == (want_evaluated, want_feasible):
        return passed(_("the first cycle filtered its way through {evaluated} nodes and kept "
                        "{feasible} feasible ones; the next cycle starts at index {evaluated}.").format(
            evaluated=want_evaluated, feasible=want_feasible))
    if feasible != want_feasible:
        return failed(_("feasible = {feasible} is not what the cycle kept.").format(feasible=feasible),
                      hint=_feasible_count_hint(feasible, percentage,
                                                num_feasible_nodes_to_find(None, None, 1000)))
    return failed(_("evaluated = {evaluated} is not what the cycle recorded.").format(evaluated=evaluated),
                  hint=_evaluated_hint(evaluated, want_evaluated, want_feasible))


def _feasible_count_hint(feasible: int, percentage: int, adaptive: int) -> str:
    if percentage and feasible == adaptive:
        return _("that is the adaptive default; this configuration sets percentageOfNodesToScore: {percentage}, "
                 "which numFeasibleNodesToFind uses instead (schedule_one.go L661-680).").format(percentage=percentage)
    if feasible in (750, 1000):
        return _("the search stops once numFeasibleNodesToFind nodes have passed the filters "
                 "(checkNode, schedule_one.go L614-621).")
    return _("feasible is numFeasibleNodesToFind(1000) with percentageOfNodesToScore: {percentage} "
             "(schedule_one.go L656-682).").format(percentage=percentage)


def _evaluated_hint(evaluated: int, want_evaluated: int, want_feasible: int) -> str:
    if evaluated == want_feasible:
        return _("the tainted nodes rejected on the way count too: evaluated = feasible + the nodes with a "
                 "failure status (schedule_one.go L435).")
    if evaluated == want_evaluated + 1:
        return _("the node that stops the search (one feasible node too many) is filtered but not counted "
                 "(checkNode, schedule_one.go L615-619): it is where the next cycle starts.")
    if evaluated >= 1000:
        return _("the search stops early; only the nodes before the stop are counted.")
    return _("count the tainted nodes (node-3, node-7, node-11, ...) the search meets, starting at node-0, "
             "before it has found all its feasible nodes.")


# --- exercise 1: where the next cycle starts after PreFilter narrowed the nodes -----------------

PINNED = "default/pinned"
# The nodes pinned's required node affinity names, one term each (matchFields on metadata.name).
PINNED_NODES = tuple(f"node-{i}" for i in range(10))
# Where the Go answers it (pkg/scheduler/schedule_one.go, v1.30.4).
START_INDEX_GO = N_("read findNodesThatFitPod (schedule_one.go L485-500) and findNodesThatPassFilters (L578-582, "
                    "with numFeasibleNodesToFind L656-682): which list is filtered, how many of its nodes end up "
                    "counted in processedNodes, and what is the sum taken modulo?")

_PINNED_POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: pinned
  namespace: default
  annotations:
    ksched-edu.io/at: "1s"
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
{terms}
  containers:
  - name: app
    image: busybox:1.36
    resources:
      requests: {{cpu: 250m, memory: 256Mi}}
"""


@dataclass(frozen=True)
class PinnedCycle:
    """What the port's scheduler did with ``default/pinned`` after the six pods of section 2."""

    before: int  # nextStartNodeIndex when pinned's cycle began
    after: int  # ... when it ended
    all_nodes: int  # nodes in the snapshot
    filtered: int  # nodes pinned's cycle filtered (the ones PreFilter left)
    feasible: int
    rejected: int
    step_before: int  # how far the cycle before pinned's moved the index (its evaluated nodes)


@lru_cache(maxsize=None)
def pinned_cycle() -> PinnedCycle:
    """Section 2's tainted 1,000 nodes and six pods, then ``default/pinned`` (at t=1 s), whose required
    node affinity on metadata.name lets NodeAffinity's PreFilter narrow the nodes to PINNED_NODES."""
    import tempfile
    from pathlib import Path

    from ksched_edu.config.loader import default_config
    from ksched_edu.trace import CycleEvent, Recorder

    with tempfile.TemporaryDirectory() as tmp:
        pinned = Path(tmp) / "pinned.yaml"
        # One term per node: the API server takes a single value for a metadata.name field selector.
        terms = "\n".join(f"        - matchFields: [{{key: metadata.name, operator: In, values: [{name}]}}]"
                          for name in PINNED_NODES)
        pinned.write_text(_PINNED_POD.format(terms=terms))
        rec = Recorder()
        sim = tainted_thousand(default_config(), rec, extra=(pinned,))
    sim.run(until=0.5)  # the six pods of section 2
    before = sim.scheduler.next_start_node_index
    sim.run()
    end = next(e for e in rec.of(CycleEvent) if e.pod == PINNED and e.kind != "start")
    filtered = {e.node for e in rec.plugin_events(cycle=end.cycle, point="Filter")}
    previous = next(e for e in rec.of(CycleEvent) if e.cycle == end.cycle - 1 and e.kind != "start")
    return PinnedCycle(before=before, after=sim.scheduler.next_start_node_index,
                       all_nodes=len(sim.api.list("Node")), filtered=len(filtered),
                       feasible=end.feasible_nodes, rejected=end.evaluated_nodes - end.feasible_nodes,
                       step_before=previous.evaluated_nodes)


def check_next_start_index(predicted: Any) -> bool:
    """Is ``predicted`` the scheduler's nextStartNodeIndex after default/pinned's cycle?"""
    if is_unanswered(predicted):
        return failed(_("no prediction yet."), hint=_("set `predicted` to a node index (a whole number)."))
    if isinstance(predicted, bool) or not isinstance(predicted, int):
        return failed(_("{predicted!r} is not a whole number.").format(predicted=predicted),
                      hint=_("set `predicted` to an int: an index into the list of nodes."))
    run = pinned_cycle()
    if predicted == run.after:
        return passed(_("{pod}'s cycle filtered the {filtered} nodes PreFilter left ({feasible} feasible, "
                        "{rejected} rejected): nextStartNodeIndex {before} -> {after}.").format(
            pod=PINNED, filtered=run.filtered, feasible=run.feasible, rejected=run.rejected, before=run.before,
            after=run.after))
    return failed(_("{predicted} is not where the next cycle starts.").format(predicted=predicted),
                  hint=_start_index_hint(predicted, run))


def _start_index_hint(predicted: int, run: PinnedCycle) -> str:
    from ksched_edu.schedule_one import num_feasible_nodes_to_find

    if predicted == run.before:
        return _("the index moves after every cycle, by processedNodes, whichever list was filtered "
                 "(schedule_one.go L497-500).")
    if not 0 <= predicted < run.all_nodes:
        return _("it is an index into the snapshot's node list (schedule_one.go L500): 0 <= index < number of nodes.")
    if predicted == (run.before + run.filtered) % run.filtered:
        return _("look at the modulo of L500: which list's length is it, the narrowed one or the snapshot's?")
    if predicted == (run.before + run.feasible) % run.all_nodes:
        return _("processedNodes (L499) counts the nodes with a failure status in the diagnosis too.")
    if predicted == (run.before + run.filtered + 1) % run.all_nodes:
        return _("no passing node is one too many here: numFeasibleNodesToFind gets the narrowed list's length "
                 "(L579), and under 100 nodes it returns them all (L657-659).")
    whole = num_feasible_nodes_to_find(None, None, run.all_nodes)
    if predicted in {(run.before + step) % run.all_nodes for step in (whole, whole + 1, run.step_before,
                                                                      run.step_before + 1)}:
        return _("numFeasibleNodesToFind is asked about the narrowed list (L578-579), not the whole cluster: "
                 "how many nodes did PreFilter leave?")
    return _(START_INDEX_GO)
