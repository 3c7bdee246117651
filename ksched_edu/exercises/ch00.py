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

TEACHING_CLUSTER = "data/clusters/three-nodes.yaml"
POD = "default/web"
NODES = ("n1", "n2", "n3")


def _place_web(change: Optional[Callable[[Any], None]] = None) -> tuple[Optional[str], Optional[str]]:
    """(node, message) of default/web after running the teaching cluster, ``change`` applied to the pod.

    The run is bounded (wall clock and virtual clock); when it does not end, the
    node is None and the message says why.
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
        return None, stopped
    placement = next(p for p in sim.placements() if p.pod == POD)
    return placement.node, placement.message


def check_tour_cpu_request(cpu_request: Any) -> bool:
    """Does ``default/web`` land on n1 when its container requests ``cpu_request`` CPU?"""
    from ksched_edu.api.quantity import Quantity

    hint = ("write each node's total as a function of the request: NodeResourcesFit's LeastAllocated scores "
            "each resource as the share of allocatable left free and averages CPU and memory "
            "(noderesources/least_allocated.go L30-61), BalancedAllocation rewards CPU and memory fractions "
            "that stay close (noderesources/balanced_allocation.go L138-173), and section 5 has both nodes' "
            "numbers at 500m; remember that Filter runs first (noderesources/fit.go fitsRequest, L421-501)")
    if is_unanswered(cpu_request):
        return failed("cpu_request is not set yet.", hint=f"set it to a CPU quantity string; {hint}")
    try:
        quantity = Quantity(str(cpu_request))
    except Exception as err:  # the Quantity parser's message says what is wrong
        return failed(f"{cpu_request!r} is not a quantity ({err}).",
                      hint="write it as a quantity string, such as \"750m\" or \"1\"")

    if quantity.milli_value() <= 0:
        return failed(f"{cpu_request!r} is not a positive amount of CPU.", hint=hint)

    def change(pod: Any) -> None:
        pod.spec.containers[0].resources.requests["cpu"] = quantity

    node, message = _place_web(change)
    if node == "n1":
        return passed(f"with {cpu_request} CPU, {POD} lands on n1.")
    if node is None and message is not None and message.startswith(("pods were still", "your code")):
        return failed(f"with {cpu_request} CPU, the run did not end: {message}.", hint=hint)
    if node is None:
        return failed(f"with {cpu_request} CPU, {POD} fits nowhere: {message}", hint=hint)
    return failed(f"with {cpu_request} CPU, {POD} still lands on {node}.", hint=hint)


def check_tour_prediction(winner: Any) -> bool:
    """Is ``winner`` where ``default/web`` lands once it tolerates the taint dedicated=batch:NoSchedule?"""
    from ksched_edu.api.types import Toleration

    def change(pod: Any) -> None:
        pod.spec.tolerations.append(Toleration(key="dedicated", operator="Equal", value="batch",
                                               effect="NoSchedule"))

    hint = ("with the toleration n2 passes every Filter; compare the three nodes' scores plugin by plugin: "
            "TaintToleration counts PreferNoSchedule taints only (tainttoleration/taint_toleration.go L125-154), "
            "and NodeResourcesFit's LeastAllocated compares fractions of each node, not amounts "
            "(noderesources/least_allocated.go L30-61)")
    if is_unanswered(winner):
        return failed("winner is not set yet.", hint=f"set it to \"n1\", \"n2\" or \"n3\"; {hint}")
    if winner not in NODES:
        return failed(f"{winner!r} is not one of the nodes {', '.join(NODES)}.", hint=hint)
    node, message = _place_web(change)
    if node is None:
        return failed(f"the run with the toleration did not end: {message}.", hint=hint)
    if winner == node:
        return passed(f"right: even when it may use n2, {POD} lands on {node}.")
    return failed(f"{POD} does not land on {winner}.", hint=hint)


# The Go function whose Python port the third exercise asks for.
PICKER_GO = "selectHost"


def check_tour_upstream(picker: Any) -> bool:
    """Is ``picker`` the Python function that ports the Go function choosing the winner among the scored nodes?"""
    from ksched_edu.anchors import Anchor, record_of

    hint = ("in SourceView(schedule_pod), beside schedulePod (schedule_one.go L390-438), the scheduling cycle "
            "scores the feasible nodes (prioritize_nodes) and then calls one more function to choose among them; "
            "import that function from ksched_edu.schedule_one and assign the function itself")
    if is_unanswered(picker):
        return failed("picker is not set yet.", hint=hint)
    if isinstance(picker, str):
        return failed(f"{picker!r} is a string.", hint=f"give the Python function, not its name; {hint}")
    record = record_of(picker)
    if record is None:
        name = getattr(picker, "__qualname__", type(picker).__name__)
        return failed(f"{name} is not a function of ksched_edu with an upstream anchor.", hint=hint)
    if not isinstance(record, Anchor):
        return failed(f"{record.python} has no Go counterpart ({record.reason}).", hint=hint)
    if record.go == PICKER_GO:
        return passed(f"{record.python} ports {record.go} ({record.path}#L{record.start}-L{record.end}): "
                      f"it picks the winner, breaking ties at random.")
    return failed(f"{record.python} ports {record.go} ({record.path}), not the function that picks the winner.",
                  hint=hint)
