"""Checks for chapter 01 (architecture: from an API event to a plugin call).

``check_unschedulable_flush_times`` compares predicted virtual times with the
moves the queue recorded for a pod that fits nowhere;
``check_node_tree_order`` compares a learner's node order with the order the
port's NodeTree (internal/cache/node_tree.py) lists the nodes of
:data:`TREE_NODES`; ``check_non_zero_cpu`` compares two predicted NodeInfo
aggregates with those of a NodeInfo built from :func:`besteffort_neighbours`.
"""
from __future__ import annotations

from typing import Any

from ksched_edu.exercises import core
from ksched_edu.exercises.core import failed, is_unanswered, passed, project_path, run_learner_simulation
from ksched_edu.i18n import _

# (name, zone) in the order the nodes are created.
TREE_NODES = (("x1", "zone-a"), ("x2", "zone-a"), ("y1", "zone-b"), ("x3", "zone-a"), ("z1", "zone-c"),
              ("y2", "zone-b"))


def tree_nodes() -> list[Any]:
    """The nodes of :data:`TREE_NODES` as Node objects, in creation order."""
    from ksched_edu.api.types import Node, ObjectMeta

    return [Node(ObjectMeta(name=name, labels={"topology.kubernetes.io/zone": zone})) for name, zone in TREE_NODES]


def check_node_tree_order(order: Any) -> bool:
    """Is ``order`` the order the scheduler walks the nodes of TREE_NODES?"""
    from ksched_edu.internal.cache.node_tree import NodeTree

    hint = _("read the node tree's addNode and list (pkg/scheduler/internal/cache/node_tree.go L51-67 and "
             "L119-143): in which order does it keep the zones, and what does each pass of list take from each zone?")
    if is_unanswered(order):
        return failed(_("order is not set yet."),
                      hint=_("set it to a list of the six node names; {hint}").format(hint=hint))
    expected = NodeTree(tree_nodes()).list()
    answer = list(order) if isinstance(order, (list, tuple)) else None
    if answer is None or sorted(map(str, answer)) != sorted(expected):
        return failed(_("{order!r} is not a list of the six nodes {nodes}.").format(
            order=order, nodes=", ".join(sorted(expected))), hint=hint)
    if answer == expected:
        return passed(_("the scheduler walks {nodes}.").format(nodes=", ".join(expected)))
    wrong = next(i for i, (a, b) in enumerate(zip(answer, expected)) if a != b)
    return failed(_("position {position} should hold {expected}, not {answer}.").format(
        position=wrong, expected=expected[wrong], answer=answer[wrong]), hint=hint)


def besteffort_neighbours() -> list[Any]:
    """Two pods on one node: web (500m CPU, 512Mi) and a BestEffort pod without any request."""
    from ksched_edu.api.quantity import Quantity
    from ksched_edu.api.types import Container, ObjectMeta, Pod, PodSpec, ResourceRequirements

    web = Pod(ObjectMeta(name="web", namespace="default", uid="web"),
              PodSpec(containers=[Container("nginx", resources=ResourceRequirements(
                  requests={"cpu": Quantity("500m"), "memory": Quantity("512Mi")}))]))
    sidecar = Pod(ObjectMeta(name="debug", namespace="default", uid="debug"),
                  PodSpec(containers=[Container("busybox")]))
    return [web, sidecar]


def check_non_zero_cpu(requested_milli_cpu: Any, non_zero_milli_cpu: Any) -> bool:
    """Are these NodeInfo.requested.milli_cpu and NodeInfo.non_zero_requested.milli_cpu for web + debug?"""
    from ksched_edu.framework.types import NodeInfo

    info = NodeInfo(*besteffort_neighbours())
    hint = _("`requested` adds up what the containers ask for; `non_zero_requested` first gives a container "
             "without a CPU request a default: read GetNonzeroRequests and the defaults above it "
             "(pkg/scheduler/util/pod_resources.go L33-46), and NodeInfo.update, which adds both sums "
             "(pkg/scheduler/framework/types.go L846-865)")
    if is_unanswered(requested_milli_cpu) or is_unanswered(non_zero_milli_cpu):
        return failed(_("both numbers must be set."), hint=hint)
    got = (requested_milli_cpu, non_zero_milli_cpu)
    want = (info.requested.milli_cpu, info.non_zero_requested.milli_cpu)
    if got == want:
        return passed(_("requested {requested}m, non-zero requested {non_zero}m: the BestEffort pod counts for "
                        "{difference}m when NodeResourcesFit scores nodes (BalancedAllocation and Filter "
                        "read `requested`).").format(requested=want[0], non_zero=want[1],
                                                     difference=want[1] - want[0]))
    if got[0] != want[0]:
        return failed(_("requested.milli_cpu is not {value}.").format(value=got[0]), hint=hint)
    return failed(_("non_zero_requested.milli_cpu is not {value}.").format(value=got[1]), hint=hint)


# The flush exercise: the teaching cluster, default/web asking for more CPU than any node has.
FLUSH_CLUSTER = "data/clusters/three-nodes.yaml"
FLUSH_POD = "default/web"
FLUSH_CPU = "16"
FLUSH_UNTIL = 700.0


def unschedulable_timeout_moves(until: float = FLUSH_UNTIL) -> list[float]:
    """Virtual times at which a flush moved ``default/web`` (16 CPUs: fits nowhere) out of unschedulablePods."""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.api.quantity import Quantity
    from ksched_edu.config.loader import default_config
    from ksched_edu.internal.queue.events import UNSCHEDULABLE_TIMEOUT
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import QueueEvent, Recorder

    cluster = load_cluster(project_path(FLUSH_CLUSTER))
    web = next(p for p in cluster.pending_pods if p.key == FLUSH_POD)
    web.spec.containers[0].resources.requests["cpu"] = Quantity(FLUSH_CPU)
    rec = Recorder()
    sim = Simulation(cluster, default_config(), seed=1, recorder=rec)
    stopped = run_learner_simulation(sim, until=until, seconds=core.TIME_LIMIT_SECONDS)
    if stopped is not None:
        raise RuntimeError(stopped)
    return [e.time for e in rec.of(QueueEvent)
            if e.pod == FLUSH_POD and e.action == "move" and e.event == UNSCHEDULABLE_TIMEOUT.label]


def check_unschedulable_flush_times(times: Any) -> bool:
    """Are ``times`` the virtual times (up to 700 s) at which the flush moves default/web out of unschedulablePods?"""
    hint = _("read three places in pkg/scheduler/internal/queue/scheduling_queue.go: when the flush runs "
             "((*PriorityQueue).Run, L393-400: wait.Until every 30 s, and when is its first call?), the test it "
             "makes on each pod (flushUnschedulablePodsLeftover, L863-879: which comparison, against which "
             "timestamp?), and where that timestamp is set again (addUnschedulableWithoutQueueingHint, "
             "L742-743); then follow the pod from its first failure at t=0.001")
    if is_unanswered(times):
        return failed(_("times is not set yet."),
                      hint=_("set it to a list of numbers (seconds); {hint}").format(hint=hint))
    if not isinstance(times, (list, tuple)) or not all(
            isinstance(t, (int, float)) and not isinstance(t, bool) for t in times):
        return failed(_("{times!r} is not a list of numbers.").format(times=times),
                      hint=_("write e.g. [100, 200]; {hint}").format(hint=hint))
    try:
        want = unschedulable_timeout_moves()
    except RuntimeError as err:
        return failed(_("the simulation did not end: {reason}.").format(reason=err), hint=_("run the check again"))
    got = sorted(float(t) for t in times)
    if len(got) == len(want) and all(abs(a - b) < 1e-6 for a, b in zip(got, want)):
        shown = ", ".join(f"{t:g}" for t in want)
        return passed(_("the flush moved {pod} back to activeQ at t={times} s.").format(pod=FLUSH_POD, times=shown))
    if len(got) != len(want):
        return failed(_("{predicted} move(s) predicted; the queue recorded {recorded} up to t={until:g} s.").format(
            predicted=len(got), recorded=len(want), until=FLUSH_UNTIL), hint=hint)
    wrong = next(i for i, (a, b) in enumerate(zip(got, want)) if abs(a - b) >= 1e-6)
    return failed(_("move {number} did not happen at t={time:g} s.").format(number=wrong + 1, time=got[wrong]),
                  hint=hint)
