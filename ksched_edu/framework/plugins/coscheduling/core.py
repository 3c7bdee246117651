"""Port of pkg/coscheduling/core/core.go of kubernetes-sigs/scheduler-plugins (commit 37b7888a).

The PodGroupManager keeps the group-level bookkeeping behind the Coscheduling
plugin: it finds a pod's PodGroup, counts the group's members that already
hold a node (assumed or bound), checks at PreFilter that the group has enough
members and that the cluster could hold its ``minResources``, decides at
Permit whether the quorum is reached, and remembers for a while which groups
passed the resource check (``permitted_pg``) and which failed recently
(``backed_off_pg``).

Deviations:
- The two go-cache stores are :class:`ExpiringCache` on the simulation's
  virtual clock: an item expires when the clock passes its deadline.
- The controller-runtime client and the pod informer's lister are the
  framework's object lister (the API server): ``get("PodGroup", ns, name)`` and
  ``list("Pod", ns)``, filtered by the group label.
- Errors are returned as their message text (None for success), not as Go errors.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from ....anchors import SCHEDULER_PLUGINS, plumbing, ports
from ....api.podgroup import KIND as POD_GROUP_KIND
from ....api.podgroup import POD_GROUP_LABEL, PodGroup
from ....api.quantity import DECIMAL_SI
from ....api.types import Pod
from ...cycle_state import CycleState, StateNotFoundError
from ...interface import PODS_TO_ACTIVATE_KEY
from ...types import NodeInfo, Resource
from .util import GoAmount, format_resource_list, get_pod_group_full_name, get_pod_group_label, resource_list

# What Permit decides for a pod (upstream core.Status).
POD_GROUP_NOT_SPECIFIED = "PodGroup not specified"
POD_GROUP_NOT_FOUND = "PodGroup not found"
SUCCESS = "Success"
WAIT = "Wait"

PERMIT_STATE_KEY = "PermitCoscheduling"

# go-cache's special durations: 0 means the cache's default, -1 never expires.
DEFAULT_EXPIRATION = 0.0
NO_EXPIRATION = -1.0
# The default expirations of the two stores (upstream gocache.New(3s, ...) and gocache.New(10s, ...)).
PERMITTED_PG_EXPIRATION = 3.0
BACKED_OFF_PG_EXPIRATION = 10.0


@ports("pkg/coscheduling/core/core.go", "PermitState", 55, 57, repo=SCHEDULER_PLUGINS)
@dataclass
class PermitState:
    """Written at Permit by the first member to wait: ask to move its siblings to activeQ."""

    activate: bool = False

    @ports("pkg/coscheduling/core/core.go", "(*PermitState).Clone", 59, 61, repo=SCHEDULER_PLUGINS)
    def clone(self) -> "PermitState":
        return PermitState(self.activate)


@plumbing("the part of the third-party go-cache library the manager uses, on the virtual clock")
class ExpiringCache:
    """The part of github.com/patrickmn/go-cache the manager uses, on a given clock."""

    def __init__(self, default_expiration: float, now: Callable[[], float]) -> None:
        self.default_expiration = default_expiration
        self.now = now
        self._items: dict[str, tuple[Any, Optional[float]]] = {}  # key -> (value, deadline or None)

    @plumbing("go-cache Add, on the virtual clock")
    def add(self, key: str, value: Any, duration: float) -> bool:
        """Store ``value`` unless a live item has the key already (then False, nothing changes)."""
        if self.get(key)[1]:
            return False
        if duration == DEFAULT_EXPIRATION:
            duration = self.default_expiration
        deadline = self.now() + duration if duration > 0 else None
        self._items[key] = (value, deadline)
        return True

    @plumbing("go-cache Get, on the virtual clock")
    def get(self, key: str) -> tuple[Any, bool]:
        item = self._items.get(key)
        if item is None:
            return None, False
        value, deadline = item
        if deadline is not None and self.now() > deadline:
            return None, False
        return value, True

    @plumbing("go-cache Delete")
    def delete(self, key: str) -> None:
        self._items.pop(key, None)


@ports("pkg/coscheduling/core/core.go", "PodGroupManager", 76, 91, repo=SCHEDULER_PLUGINS)
class PodGroupManager:
    """Upstream PodGroupManager: the group checks of PreFilter and Permit."""

    def __init__(self, client: Any, snapshot_shared_lister: Any, schedule_timeout: float, pod_lister: Any,
                 now: Callable[[], float] = lambda: 0.0) -> None:
        self.client = client  # get("PodGroup", namespace, name)
        self.snapshot_shared_lister = snapshot_shared_lister
        # Seconds: the default for the group's wait, and how long a passed resource check is kept.
        self.schedule_timeout = schedule_timeout
        self.pod_lister = pod_lister  # list("Pod", namespace)
        self.permitted_pg = ExpiringCache(PERMITTED_PG_EXPIRATION, now)
        self.backed_off_pg = ExpiringCache(BACKED_OFF_PG_EXPIRATION, now)

    @ports("pkg/coscheduling/core/core.go", "(*PodGroupManager).BackoffPodGroup", 106, 111, repo=SCHEDULER_PLUGINS)
    def backoff_pod_group(self, pg_name: str, backoff: float) -> None:
        if backoff == 0:
            return
        self.backed_off_pg.add(pg_name, None, backoff)

    @plumbing("the pod lister's label-selector List, which upstream writes inline at each use")
    def list_group_pods(self, namespace: str, group: str) -> list[Pod]:
        """The pod lister's pods in ``namespace`` whose group label is ``group``."""
        return [p for p in self.pod_lister.list("Pod", namespace)
                if POD_GROUP_LABEL in p.metadata.labels and p.metadata.labels[POD_GROUP_LABEL] == group]

    @ports("pkg/coscheduling/core/core.go", "(*PodGroupManager).ActivateSiblings", 115, 155, repo=SCHEDULER_PLUGINS)
    def activate_siblings(self, pod: Pod, state: CycleState) -> None:
        """Put the pod's siblings in the cycle's pods-to-activate, when Permit asked for it."""
        pg_name = get_pod_group_label(pod)
        if not pg_name:
            return
        try:
            s = state.read(PERMIT_STATE_KEY)
        except StateNotFoundError:
            return
        if not isinstance(s, PermitState) or not s.activate:
            return
        pods = self.list_group_pods(pod.metadata.namespace, pg_name)
        for i, p in enumerate(pods):
            if p.metadata.uid == pod.metadata.uid:
                del pods[i]
                break
        if pods:
            try:
                to_activate = state.read(PODS_TO_ACTIVATE_KEY)
            except StateNotFoundError:
                return
            pods_map = getattr(to_activate, "map", None)
            if isinstance(pods_map, dict):
                for p in pods:
                    pods_map[get_namespaced_name(p)] = p

    @ports("pkg/coscheduling/core/core.go", "(*PodGroupManager).PreFilter", 161, 210, repo=SCHEDULER_PLUGINS)
    def pre_filter(self, pod: Pod) -> Optional[str]:
        """Why the pod's group cannot be scheduled now, or None.

        A group that failed recently, a group with fewer pods than minMember, and a
        group whose minResources the cluster cannot hold are refused.
        """
        pg_full_name, pg = self.get_pod_group(pod)
        if pg is None:
            return None
        if self.backed_off_pg.get(pg_full_name)[1]:
            return f"podGroup {pg_full_name} failed recently"
        pods = self.list_group_pods(pod.metadata.namespace, get_pod_group_label(pod))
        if len(pods) < pg.spec.min_member:
            return (f"pre-filter pod {pod.metadata.name} cannot find enough sibling pods, "
                    f"current pods number: {len(pods)}, minMember of group: {pg.spec.min_member}")
        if pg.spec.min_resources is None:
            return None
        # The check only looks at resources: a group that passes may still fail
        # Filter (affinity, taints, ...).
        if self.permitted_pg.get(pg_full_name)[1]:
            return None
        nodes = self.snapshot_shared_lister.node_infos().list()
        min_resources = {name: GoAmount.of(q) for name, q in pg.spec.min_resources.items()}
        min_resources["pods"] = GoAmount(pg.spec.min_member, 0, DECIMAL_SI)
        err = check_cluster_resource(nodes, min_resources, pg_full_name)
        if err is not None:
            return err
        self.permitted_pg.add(pg_full_name, pg_full_name, self.schedule_timeout)
        return None

    @ports("pkg/coscheduling/core/core.go", "(*PodGroupManager).Permit", 213, 243, repo=SCHEDULER_PLUGINS)
    def permit(self, state: CycleState, pod: Pod) -> str:
        """SUCCESS when this pod completes the quorum, WAIT otherwise (or why there is no group)."""
        pg_full_name, pg = self.get_pod_group(pod)
        if not pg_full_name:
            return POD_GROUP_NOT_SPECIFIED
        if pg is None:
            # A pod naming a group that does not exist is denied.
            return POD_GROUP_NOT_FOUND
        assigned = self.calculate_assigned_pods(pg.metadata.name, pg.metadata.namespace)
        # The snapshot counts the members already assumed or bound; this pod is not among them yet.
        if assigned + 1 >= pg.spec.min_member:
            return SUCCESS
        if assigned == 0:
            # The first member to wait (the group's resources passed PreFilter, or new
            # members arrived) is the one that asks to activate its siblings.
            state.write(PERMIT_STATE_KEY, PermitState(activate=True))
        return WAIT

    @ports("pkg/coscheduling/core/core.go", "(*PodGroupManager).GetCreationTimestamp", 246, 256, repo=SCHEDULER_PLUGINS)
    def get_creation_timestamp(self, pod: Pod, ts: float) -> float:
        """The creation time of the pod's group, or ``ts`` when it has none (or it is not found)."""
        pg_name = get_pod_group_label(pod)
        if not pg_name:
            return ts
        pg = self.client.get(POD_GROUP_KIND, pod.metadata.namespace, pg_name)
        if pg is None:
            return ts
        return pg.metadata.creation_timestamp

    @ports("pkg/coscheduling/core/core.go", "(*PodGroupManager).DeletePermittedPodGroup", 259, 261, repo=SCHEDULER_PLUGINS)
    def delete_permitted_pod_group(self, pg_full_name: str) -> None:
        self.permitted_pg.delete(pg_full_name)

    @ports("pkg/coscheduling/core/core.go", "(*PodGroupManager).GetPodGroup", 264, 274, repo=SCHEDULER_PLUGINS)
    def get_pod_group(self, pod: Pod) -> tuple[str, Optional[PodGroup]]:
        """(``namespace/group``, the PodGroup or None); ("", None) for a pod in no group."""
        pg_name = get_pod_group_label(pod)
        if not pg_name:
            return "", None
        full_name = f"{pod.metadata.namespace}/{pg_name}"
        return full_name, self.client.get(POD_GROUP_KIND, pod.metadata.namespace, pg_name)

    @ports("pkg/coscheduling/core/core.go", "(*PodGroupManager).CalculateAssignedPods", 277, 294, repo=SCHEDULER_PLUGINS)
    def calculate_assigned_pods(self, pod_group_name: str, namespace: str) -> int:
        """How many of the group's pods hold a node in the snapshot (assumed or bound)."""
        count = 0
        for node_info in self.snapshot_shared_lister.node_infos().list():
            for pi in node_info.pods:
                p = pi.pod
                if (get_pod_group_label(p) == pod_group_name and p.metadata.namespace == namespace
                        and p.spec.node_name):
                    count += 1
        return count


@ports("pkg/coscheduling/core/core.go", "CheckClusterResource", 298, 318, repo=SCHEDULER_PLUGINS)
def check_cluster_resource(node_list: list[NodeInfo], resource_request: dict[str, GoAmount],
                           desired_pod_group_name: str) -> Optional[str]:
    """None when the nodes' free resources add up to ``resource_request``, else the gap.

    The group's own pods do not count as using a node: their room is theirs.
    ``resource_request`` is consumed as it is covered, node by node.
    """
    for info in node_list:
        if info is None or info.node() is None:
            continue
        node_resource = resource_list(get_node_resource(info, desired_pod_group_name))
        for name in list(resource_request):
            quant = resource_request[name].sub(node_resource.get(name, GoAmount(0)))
            if quant.sign() <= 0:
                del resource_request[name]
                continue
            resource_request[name] = quant
        if not resource_request:
            return None
    return f"resource gap: {format_resource_list(resource_request)}"


@ports("pkg/coscheduling/core/core.go", "GetNamespacedName", 321, 323, repo=SCHEDULER_PLUGINS)
def get_namespaced_name(obj: Any) -> str:
    return f"{obj.metadata.namespace}/{obj.metadata.name}"


@ports("pkg/coscheduling/core/core.go", "getNodeResource", 325, 359, repo=SCHEDULER_PLUGINS)
def get_node_resource(info: NodeInfo, desired_pod_group_name: str) -> Resource:
    """What is left on the node once the desired group's own pods are taken off it."""
    node_clone = info.snapshot()
    for pi in info.pods:
        if pi is None or pi.pod is None:
            continue
        if get_pod_group_full_name(pi.pod) != desired_pod_group_name:
            continue
        try:
            node_clone.remove_pod(pi.pod)
        except KeyError:  # upstream: RemovePod's error is ignored
            pass
    allocatable, requested = node_clone.allocatable, node_clone.requested
    left = Resource(
        milli_cpu=allocatable.milli_cpu - requested.milli_cpu,
        memory=allocatable.memory - requested.memory,
        ephemeral_storage=allocatable.ephemeral_storage - requested.ephemeral_storage,
        allowed_pod_number=allocatable.allowed_pod_number - len(node_clone.pods))
    for name, allocatable_ex in allocatable.scalar_resources.items():
        left.scalar_resources[name] = allocatable_ex - requested.scalar_resources.get(name, 0)
    return left
