"""Port of the nominator in pkg/scheduler/internal/queue/scheduling_queue.go (v1.30).

The nominator remembers which pods were nominated to which node: a preemptor
waits for its victims to leave, and meanwhile later pods must not take the
room it was promised. It keys pods by UID because the nominated node it holds
may differ from ``status.nominatedNodeName`` on the pod object it was given.

Deviations:
- No lock, so upstream's ``...Unlocked`` twins are the public methods.
- The pod lister is a callable ``(namespace, name) -> Pod | None``.
"""
from __future__ import annotations

from typing import Callable, Optional

from ...anchors import ports
from ...api.deepcopy import deep_copy
from ...api.types import Pod
from ...framework.interface import NominatingInfo, NominatingMode
from ...framework.types import PodInfo

PodLister = Callable[[str, str], Optional[Pod]]


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "NominatedNodeName", 139, 141)
def nominated_node_name(pod: Optional[Pod]) -> str:
    """Upstream NominatedNodeName: the pod's ``status.nominatedNodeName``."""
    return pod.status.nominated_node_name if pod is not None else ""


@ports("pkg/scheduler/framework/interface.go", "(*NominatingInfo).Mode", 772, 777)
def _mode(nominating_info: Optional[NominatingInfo]) -> NominatingMode:
    # upstream: (*NominatingInfo).Mode() is ModeNoop on a nil receiver.
    return nominating_info.mode() if nominating_info is not None else NominatingMode.ModeNoop


@ports("pkg/scheduler/internal/queue/scheduling_queue.go", "nominator", 1449, 1461)
class Nominator:
    """Pods nominated to run on nodes (upstream nominator)."""

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "newPodNominator", 1556, 1562)
    def __init__(self, pod_lister: Optional[PodLister] = None) -> None:
        # Used to check that a pod is still alive and unbound before nominating it.
        self.pod_lister = pod_lister
        # node name -> the pods nominated to it (in activeQ or unschedulablePods).
        self.nominated_pods: dict[str, list[PodInfo]] = {}
        # pod UID -> the node it is nominated to.
        self.nominated_pod_to_node: dict[str, str] = {}

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*nominator).addNominatedPodUnlocked", 1463, 1499)
    def add_nominated_pod(self, pi: PodInfo, nominating_info: Optional[NominatingInfo] = None) -> None:
        """Record that ``pi`` waits for room on a node (upstream AddNominatedPod)."""
        # Delete first, so that a pod is never stored twice.
        self._delete(pi.pod)

        mode = _mode(nominating_info)
        if mode == NominatingMode.ModeOverride:
            node_name = nominating_info.nominated_node_name  # type: ignore[union-attr]
        elif mode == NominatingMode.ModeNoop:
            if not pi.pod.status.nominated_node_name:
                return
            node_name = pi.pod.status.nominated_node_name
        else:  # pragma: no cover - there are only two modes
            node_name = ""

        if self.pod_lister is not None:
            # A pod that was deleted or bound meanwhile is not nominated.
            updated = self.pod_lister(pi.pod.namespace, pi.pod.name)
            if updated is None or updated.spec.node_name:
                return

        self.nominated_pod_to_node[pi.pod.uid] = node_name
        pods = self.nominated_pods.setdefault(node_name, [])
        if any(npi.pod.uid == pi.pod.uid for npi in pods):
            return
        pods.append(pi)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*nominator).delete", 1501, 1516)
    def _delete(self, pod: Pod) -> None:
        nnn = self.nominated_pod_to_node.get(pod.uid)
        if nnn is None:
            return
        pods = self.nominated_pods.get(nnn, [])
        for i, np in enumerate(pods):
            if np.pod.uid == pod.uid:
                del pods[i]
                if not pods:
                    del self.nominated_pods[nnn]
                break
        del self.nominated_pod_to_node[pod.uid]

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*nominator).DeleteNominatedPodIfExists", 1294, 1298)
    def delete_nominated_pod_if_exists(self, pod: Pod) -> None:
        self._delete(pod)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*nominator).updateNominatedPodUnlocked", 1525, 1547)
    def update_nominated_pod(self, old_pod: Optional[Pod], new_pod_info: PodInfo) -> None:
        """Swap in the new pod object, keeping an in-memory nomination the update does not mention."""
        nominating_info: Optional[NominatingInfo] = None
        # Only when neither version names a nominated node do we keep the one we hold:
        # an update that adds, changes or removes the name wins.
        if old_pod is not None and not nominated_node_name(old_pod) and not nominated_node_name(new_pod_info.pod):
            nnn = self.nominated_pod_to_node.get(old_pod.uid)
            if nnn is not None:
                nominating_info = NominatingInfo(nnn, NominatingMode.ModeOverride)
        # Update even when the node did not change, so the pod object is the new one.
        if old_pod is not None:
            self._delete(old_pod)
        self.add_nominated_pod(new_pod_info, nominating_info)

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*nominator).NominatedPodsForNode", 1316, 1325)
    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        """Copies of the pods nominated to ``node_name``, safe for the caller to change."""
        nominated = self.nominated_pods.get(node_name)
        if not nominated:  # every Filter pass asks, of every node; most have none
            return []
        return [deep_copy(pi) for pi in nominated]
