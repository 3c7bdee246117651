"""Checks for chapter 00 (a tour: one pod, three nodes).

The first two checks run the teaching cluster (data/clusters/three-nodes.yaml)
in a Simulation with the learner's change and read where the pending pod
``default/web`` landed; the verdict comes from the placements the simulation
recorded. ``check_tour_upstream`` reads the upstream anchor of the Python
function the learner names (``ksched_edu.upstream``).
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from ksched_edu.exercises import core
from ksched_edu.exercises.core import failed, is_unanswered, passed, project_path, run_learner_simulation
from ksched_edu.i18n import _

TEACHING_CLUSTER = "data/clusters/three-nodes.yaml"
POD = "default/web"
NODES = ("n1", "n2", "n3")


def _place_web(change: Optional[Callable[[Any], None]] = None) -> tuple[Optional[str], Optional[str], bool]:
    """(node, message, ended) of default/web after running the teaching cluster, ``change`` applied to the pod.

    The run is bounded (wall clock and virtual clock); when it does not end, the
    node is None, ``ended`` False and the message says why.
    """
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import default_config
    from ksched_edu.sim.simulation import Simulation

    cluster = load_cluster(project_path(TEACHING_CLUSTER))
    web = next(p for p in cluster.pending_pods if p.key == POD)
    if change is not None:
        change(web)
    sim = Simulation(cluster, default_config(), seed=1)
    stopped = run_learner_simulation(sim, seconds=core.TIME_LIMIT_SECONDS)
    if stopped is not None:
        return None, stopped, False
    placement = next(p for p in sim.placements() if p.pod == POD)
    return placement.node, placement.message, True


def check_tour_cpu_request(cpu_request: Any) -> bool:
    """Does ``default/web`` land on n1 when its container requests ``cpu_request`` CPU?"""
    from ksched_edu.api.quantity import Quantity

    hint = _("write each node's total as a function of the request: NodeResourcesFit's LeastAllocated scores "
             "each resource as the share of allocatable left free and averages CPU and memory "
             "(noderesources/least_allocated.go L30-61), BalancedAllocation rewards CPU and memory fractions "
             "that stay close (noderesources/balanced_allocation.go L138-173), and section 5 has both nodes' "
             "numbers at 500m; remember that Filter runs first (noderesources/fit.go fitsRequest, L421-501)")
    if is_unanswered(cpu_request):
        return failed(_("cpu_request is not set yet."),
                      hint=_("set it to a CPU quantity string; {hint}").format(hint=hint))
    try:
        quantity = Quantity(str(cpu_request))
    except Exception as err:  # the Quantity parser's message says what is wrong
        return failed(_("{cpu_request!r} is not a quantity ({error}).").format(cpu_request=cpu_request, error=err),
                      hint=_("write it as a quantity string, such as \"750m\" or \"1\""))

    if quantity.milli_value() <= 0:
        return failed(_("{cpu_request!r} is not a positive amount of CPU.").format(cpu_request=cpu_request),
                      hint=hint)

    def change(pod: Any) -> None:
        pod.spec.containers[0].resources.requests["cpu"] = quantity

    node, message, ended = _place_web(change)
    if node == "n1":
        return passed(_("with {cpu_request} CPU, {pod} lands on n1.").format(cpu_request=cpu_request, pod=POD))
    if not ended:
        return failed(_("with {cpu_request} CPU, the run did not end: {reason}.").format(
            cpu_request=cpu_request, reason=message), hint=hint)
    if node is None:
        # Translators: {message} is the scheduler's own message ("0/3 nodes are available: ..."), in English.
        return failed(_("with {cpu_request} CPU, {pod} fits nowhere: {message}").format(
            cpu_request=cpu_request, pod=POD, message=message), hint=hint)
    return failed(_("with {cpu_request} CPU, {pod} still lands on {node}.").format(
        cpu_request=cpu_request, pod=POD, node=node), hint=hint)


def check_tour_prediction(winner: Any) -> bool:
    """Is ``winner`` where ``default/web`` lands once it tolerates the taint dedicated=batch:NoSchedule?"""
    from ksched_edu.api.types import Toleration

    def change(pod: Any) -> None:
        pod.spec.tolerations.append(Toleration(key="dedicated", operator="Equal", value="batch",
                                               effect="NoSchedule"))

    hint = _("with the toleration n2 passes every Filter; compare the three nodes' scores plugin by plugin: "
             "TaintToleration counts PreferNoSchedule taints only (tainttoleration/taint_toleration.go L125-154), "
             "and NodeResourcesFit's LeastAllocated compares fractions of each node, not amounts "
             "(noderesources/least_allocated.go L30-61)")
    if is_unanswered(winner):
        return failed(_("winner is not set yet."),
                      hint=_("set it to \"n1\", \"n2\" or \"n3\"; {hint}").format(hint=hint))
    if winner not in NODES:
        return failed(_("{winner!r} is not one of the nodes {nodes}.").format(winner=winner, nodes=", ".join(NODES)),
                      hint=hint)
    node, message, _ended = _place_web(change)
    if node is None:
        return failed(_("the run with the toleration did not end: {reason}.").format(reason=message), hint=hint)
    if winner == node:
        return passed(_("right: even when it may use n2, {pod} lands on {node}.").format(pod=POD, node=node))
    return failed(_("{pod} does not land on {winner}.").format(pod=POD, winner=winner), hint=hint)


# The Go function whose Python port the third exercise asks for.
PICKER_GO = "selectHost"


def check_tour_upstream(picker: Any) -> bool:
    """Is ``picker`` the Python function that ports the Go function choosing the winner among the scored nodes?"""
    from ksched_edu.anchors import Anchor, record_of

    hint = _("in SourceView(schedule_pod), beside schedulePod (schedule_one.go L390-438), the scheduling cycle "
             "scores the feasible nodes (prioritize_nodes) and then calls one more function to choose among them; "
             "import that function from ksched_edu.schedule_one and assign the function itself")
    if is_unanswered(picker):
        return failed(_("picker is not set yet."), hint=hint)
    if isinstance(picker, str):
        return failed(_("{picker!r} is a string.").format(picker=picker),
                      hint=_("give the Python function, not its name; {hint}").format(hint=hint))
    record = record_of(picker)
    if record is None:
        name = getattr(picker, "__qualname__", type(picker).__name__)
        return failed(_("{name} is not a function of ksched_edu with an upstream anchor.").format(name=name),
                      hint=hint)
    if not isinstance(record, Anchor):
        # Translators: {reason} is the function's plumbing note, in English.
        return failed(_("{python} has no Go counterpart ({reason}).").format(python=record.python,
                                                                              reason=record.reason), hint=hint)
    if record.go == PICKER_GO:
        return passed(_("{python} ports {go} ({path}#L{start}-L{end}): it picks the winner, breaking ties at "
                        "random.").format(python=record.python, go=record.go, path=record.path, start=record.start,
                                          end=record.end))
    return failed(_("{python} ports {go} ({path}), not the function that picks the winner.").format(
        python=record.python, go=record.go, path=record.path), hint=hint)
