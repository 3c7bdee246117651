"""Checks for chapter 12 (storage: a claim through the scheduler).

``check_volume_reasons`` compares a prediction of VolumeBinding's Filter
verdict on each node (the binder's reasons, or none) for the pod ``report`` of
``data/clusters/ch12-quiz-volumes.yaml`` with the Filter events of its first
scheduling cycle. ``check_csi_placements`` compares a prediction of where
each pending pod of ``data/clusters/ch12-quiz-limits.yaml`` ends (a node, or
None when it stays pending) with the placements of a run. Both read what the
simulation recorded; neither recomputes a verdict. Both take values, never the
learner's code: nothing of the learner's runs, so nothing can loop (an endless
iterable given as a value is refused by its type).
"""
from __future__ import annotations

from typing import Any, Optional

from ksched_edu.exercises.core import failed, is_unanswered, passed, project_path
from ksched_edu.i18n import N_, _

QUIZ_VOLUMES = "data/clusters/ch12-quiz-volumes.yaml"
QUIZ_LIMITS = "data/clusters/ch12-quiz-limits.yaml"
REPORT = "default/report"
# Every claim of the limits quiz is bound already: a run settles well within this virtual time.
RUN_UNTIL = 60.0

# The binder's reasons (binder.go ConflictReason), as a learner may quote them.
BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind"
NODE_CONFLICT = "node(s) had volume node affinity conflict"
NOT_ENOUGH_SPACE = "node(s) did not have enough free storage"
PV_NOT_EXIST = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
KNOWN_REASONS = (NODE_CONFLICT, BIND_CONFLICT, NOT_ENOUGH_SPACE, PV_NOT_EXIST)

# Where the learner reads the rules (kubernetes v1.30.4, pkg/scheduler/framework/plugins/).
BINDER_GO = "volumebinding/binder.go"
CSI_GO = "nodevolumelimits/csi.go"
# The hints name the Go as {binder} and {csi}: BINDER_GO and CSI_GO.
REASONS_HINT = N_("for each node, list the reasons VolumeBinding's Filter gives ([] when it passes), as "
                  "FindPodVolumes computes them ({binder} L278-382): bound claims' volumes must admit the node "
                  "(node affinity, checkBoundClaims L865-897); each WaitForFirstConsumer claim needs a matching "
                  "static volume reachable from the node (findMatchingVolumes L901-937), or a class whose "
                  "provisioner and allowedTopologies admit it (checkVolumeProvisions L942-986)")


def _report_filter() -> dict[str, list[str]]:
    """VolumeBinding's Filter reasons per node in ``report``'s first cycle, read off the trace."""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import Recorder

    rec = Recorder()
    sim = Simulation(load_cluster(project_path(QUIZ_VOLUMES)), default_config(), seed=0, recorder=rec)
    sim.scheduler.schedule_one()
    return {e.node: list(e.reasons) for e in rec.plugin_events(cycle=1, point="Filter")
            if e.plugin == "VolumeBinding" and e.pod == REPORT and not e.dry_run}


def check_volume_reasons(predicted: Any) -> bool:
    """Does ``predicted`` (node -> list of reasons) match VolumeBinding's Filter verdicts for ``report``?"""
    if is_unanswered(predicted):
        return failed(_("no prediction yet."),
                      hint=_("set predicted = {'n1': [...], 'n2': [...], 'n3': [...], 'n4': [...]}."))
    if not isinstance(predicted, dict):
        return failed(_("predicted is a {type}, not a dict.").format(type=type(predicted).__name__),
                      hint=_("map each node name ('n1' ... 'n4') to a list of reason strings."))
    actual = _report_filter()
    missing = sorted(set(actual) - set(predicted))
    if missing:
        return failed(_("no prediction for {names}.").format(names=", ".join(missing)),
                      hint=_("predict all four nodes, n1 to n4."))
    extra = sorted(set(predicted) - set(actual))
    if extra:
        return failed(_("{names} is not a node of this cluster.").format(names=", ".join(map(str, extra))),
                      hint=_("the nodes are n1 to n4."))
    for node in sorted(actual):
        said = predicted[node]
        if isinstance(said, str) or not isinstance(said, (list, tuple)):
            return failed(_("the prediction for {node} is {said!r}, not a list.").format(node=node, said=said),
                          hint=_('write a list of reasons, e.g. [] or ["node(s) had volume node affinity conflict"].'))
        unknown = [r for r in said if r not in KNOWN_REASONS]
        if unknown:
            return failed(_("{reason!r} (for {node}) is not one of the binder's reasons.").format(reason=unknown[0],
                                                                                               node=node),
                          hint=_("copy the reasons exactly as section 1 lists them: {reasons}.").format(
                              reasons="; ".join(KNOWN_REASONS)))
    wrong = [node for node in sorted(actual) if sorted(predicted[node]) != sorted(actual[node])]
    if wrong:
        # Name a node to look at again, never what VolumeBinding answers there.
        return failed(_("{count} node(s) predicted wrong; among them {node}: VolumeBinding's reasons there "
                        "are not {said}.").format(count=len(wrong), node=wrong[0],
                                                  said=sorted(predicted[wrong[0]]) or "[]"),
                      hint=_(REASONS_HINT).format(binder=BINDER_GO))
    feasible = [n for n in sorted(actual) if not actual[n]]
    # Translators: joins the names of the nodes VolumeBinding lets through ("n3 and n4").
    nodes = _(" and ").join(feasible)
    return passed(_("all four verdicts right: VolumeBinding lets {nodes} through.").format(nodes=nodes))


LIMITS_HINT = N_("NodeVolumeLimits' Filter ({csi} L109-179) counts the distinct CSI volumes already on the "
                 "node plus the pod's new ones (a volume the node already has is not counted twice, L153-158) "
                 "against the CSINode's allocatable count; pods are scheduled in order a, b, c, d, e, and a refused "
                 "pod stays pending (None)")


def _limits_placements() -> dict[str, Optional[str]]:
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation

    sim = Simulation(load_cluster(project_path(QUIZ_LIMITS)), default_config(), seed=0)
    sim.run(until=RUN_UNTIL)
    return {p.pod: p.node for p in sim.placements()}


def check_csi_placements(predicted: Any) -> bool:
    """Does ``predicted`` (pod -> node or None) match where the limits quiz's pods end?"""
    if is_unanswered(predicted):
        return failed(_("no prediction yet."), hint=_("set predicted = {'default/a': 'n1' or 'n2' or None, ...}."))
    if not isinstance(predicted, dict):
        return failed(_("predicted is a {type}, not a dict.").format(type=type(predicted).__name__),
                      hint=_("map each pod ('default/a' ... 'default/e') to a node name or None."))
    actual = _limits_placements()
    missing = sorted(set(actual) - set(predicted))
    if missing:
        return failed(_("no prediction for {names}.").format(names=", ".join(missing)),
                      hint=_("predict all five pending pods, keyed 'default/a' ... 'default/e'."))
    extra = sorted(set(predicted) - set(actual))
    if extra:
        return failed(_("{names} is not a pending pod of this cluster.").format(names=", ".join(map(str, extra))),
                      hint=_("the pending pods are default/a ... default/e (old is already running)."))
    bad = [p for p in sorted(actual) if predicted[p] not in ("n1", "n2", None)]
    if bad:
        return failed(_("{answer!r} (for {pod}) is neither a node nor None.").format(answer=predicted[bad[0]],
                                                                                    pod=bad[0]),
                      hint=_("answer 'n1', 'n2' or None (the pod stays pending)."))
    wrong = [p for p in sorted(actual) if predicted[p] != actual[p]]
    if wrong:
        return failed(_("{count} of 5 pods predicted wrong (e.g. {pod}).").format(count=len(wrong), pod=wrong[0]),
                      hint=_(LIMITS_HINT).format(csi=CSI_GO))
    pending = [p for p in sorted(actual) if actual[p] is None]
    return passed(_("all five right: {pods} stay pending; the others bind.").format(pods=", ".join(pending)))
