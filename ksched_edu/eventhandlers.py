"""Port of pkg/scheduler/eventhandlers.go (v1.30).

How watch events from the API server reach the scheduler: an assigned pod
(one with ``spec.nodeName``) goes to the cache; an unassigned pod that one of
our profiles serves goes to the scheduling queue; a node goes to the cache and
raises the cluster events (NodeAdd, NodeLabelChange, ...) that move waiting
pods back to activeQ or backoffQ. Pods naming a scheduler no profile serves
are ignored, as upstream ignores them.

Deviations:
- Informers are the API server's synchronous watch callbacks; the
  filtering handler's add/delete on a pod that turns from unassigned to
  assigned is reproduced in ``_on_pod``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from .anchors import ports
from .api.nodeaffinity import get_required_node_affinity
from .api.tolerations import find_matching_untolerated_taint
from .api.types import TAINT_NO_SCHEDULE, Node, Pod
from .framework.types import ClusterEvent, NodeInfo
from .internal.queue.events import (ASSIGNED_POD_DELETE, NODE_ADD, NODE_ALLOCATABLE_CHANGE, NODE_ANNOTATION_CHANGE,
                                    NODE_CONDITION_CHANGE, NODE_LABEL_CHANGE, NODE_SPEC_UNSCHEDULABLE_CHANGE,
                                    NODE_TAINT_CHANGE)

if TYPE_CHECKING:  # pragma: no cover
    from .scheduler import Scheduler

@ports("pkg/scheduler/eventhandlers.go", "assignedPod", 258, 260)
def assigned_pod(pod: Pod) -> bool:
    return bool(pod.spec.node_name)


@ports("pkg/scheduler/eventhandlers.go", "addAllEventHandlers", 287, 546)
def add_all_event_handlers(sched: "Scheduler") -> None:
    api = sched.client
    api.watch("Pod", lambda event, old, new: _on_pod(sched, event, old, new))
    api.watch("Node", lambda event, old, new: _on_node(sched, event, old, new))
    add_storage_event_handlers(sched)


# --- pods -----------------------------------------------------------------------------


@ports("pkg/scheduler/eventhandlers.go", "addAllEventHandlers", 287, 546)
def _on_pod(sched: "Scheduler", event: str, old: Optional[Pod], new: Optional[Pod]) -> None:
    """Route a pod event to the cache handler, the queue handler, or both.

    upstream: two FilteringResourceEventHandlers on one informer; when an update
    moves a pod across a filter, the side it leaves sees a delete and the side
    it enters sees an add.
    """
    responsible = lambda p: sched.responsible_for_pod(p)  # noqa: E731
    cache_side = _filtered(assigned_pod, add_pod_to_cache, update_pod_in_cache, delete_pod_from_cache)
    queue_side = _filtered(lambda p: not assigned_pod(p) and responsible(p), add_pod_to_scheduling_queue,
                           update_pod_in_scheduling_queue, delete_pod_from_scheduling_queue)
    for side in (cache_side, queue_side):
        side(sched, event, old, new)


@ports("pkg/scheduler/eventhandlers.go", "addAllEventHandlers", 287, 546)
def _filtered(accept: Callable[[Pod], bool], on_add: Callable, on_update: Callable, on_delete: Callable) -> Callable:
    def handle(sched: "Scheduler", event: str, old: Optional[Pod], new: Optional[Pod]) -> None:
        if event == "add" and accept(new):
            on_add(sched, new)
        elif event == "delete" and accept(old):
            on_delete(sched, old)
        elif event == "update":
            was, now = accept(old), accept(new)
            if was and now:
                on_update(sched, old, new)
            elif was:
                on_delete(sched, old)
            elif now:
                on_add(sched, new)
    return handle


@ports("pkg/scheduler/eventhandlers.go", "(*Scheduler).addPodToCache", 194, 208)
def add_pod_to_cache(sched: "Scheduler", pod: Pod) -> None:
    try:
        sched.cache.add_pod(pod)
    except Exception:  # upstream: logged ("Scheduler cache AddPod failed")
        pass
    sched.scheduling_queue.assigned_pod_added(pod)


@ports("pkg/scheduler/eventhandlers.go", "(*Scheduler).updatePodInCache", 210, 229)
def update_pod_in_cache(sched: "Scheduler", old: Pod, new: Pod) -> None:
    try:
        sched.cache.update_pod(old, new)
    except Exception:  # upstream: logged
        pass
    sched.scheduling_queue.assigned_pod_updated(old, new)


@ports("pkg/scheduler/eventhandlers.go", "(*Scheduler).deletePodFromCache", 231, 255)
def delete_pod_from_cache(sched: "Scheduler", pod: Pod) -> None:
    try:
        sched.cache.remove_pod(pod)
    except Exception:  # upstream: logged
        pass
    sched.scheduling_queue.move_all_to_active_or_backoff_queue(ASSIGNED_POD_DELETE, pod, None, None)


@ports("pkg/scheduler/eventhandlers.go", "(*Scheduler).addPodToSchedulingQueue", 125, 132)
def add_pod_to_scheduling_queue(sched: "Scheduler", pod: Pod) -> None:
    sched.scheduling_queue.add(pod)


@ports("pkg/scheduler/eventhandlers.go", "(*Scheduler).updatePodInSchedulingQueue", 134, 155)
def update_pod_in_scheduling_queue(sched: "Scheduler", old: Pod, new: Pod) -> None:
    if old.metadata.resource_version == new.metadata.resource_version:
        return
    if sched.cache.is_assumed_pod(new):
        return
    sched.scheduling_queue.update(old, new)


@ports("pkg/scheduler/eventhandlers.go", "(*Scheduler).deletePodFromSchedulingQueue", 157, 192)
def delete_pod_from_scheduling_queue(sched: "Scheduler", pod: Pod) -> None:
    sched.scheduling_queue.delete(pod)
    fwk = sched.framework_for_pod(pod)
    if fwk is not None and fwk.reject_waiting_pod(pod.uid):
        sched.scheduling_queue.move_all_to_active_or_backoff_queue(ASSIGNED_POD_DELETE, pod, None, None)


# --- nodes ------------------------------------------------------------------------------


@ports("pkg/scheduler/eventhandlers.go", "addAllEventHandlers", 287, 546)
def _on_node(sched: "Scheduler", event: str, old: Optional[Node], new: Optional[Node]) -> None:
    if event == "add":
        add_node_to_cache(sched, new)
    elif event == "update":
        update_node_in_cache(sched, old, new)
    elif event == "delete":
        delete_node_from_cache(sched, old)


@ports("pkg/scheduler/eventhandlers.go", "(*Scheduler).addNodeToCache", 67, 78)
def add_node_to_cache(sched: "Scheduler", node: Node) -> None:
    info = sched.cache.add_node(node)
    sched.scheduling_queue.move_all_to_active_or_backoff_queue(NODE_ADD, None, node, pre_check_for_node(info))


@ports("pkg/scheduler/eventhandlers.go", "(*Scheduler).updateNodeInCache", 80, 99)
def update_node_in_cache(sched: "Scheduler", old: Node, new: Node) -> None:
    info = sched.cache.update_node(old, new)
    for evt in node_scheduling_properties_change(new, old):
        sched.scheduling_queue.move_all_to_active_or_backoff_queue(evt, old, new, pre_check_for_node(info))


@ports("pkg/scheduler/eventhandlers.go", "(*Scheduler).deleteNodeFromCache", 101, 123)
def delete_node_from_cache(sched: "Scheduler", node: Node) -> None:
    try:
        sched.cache.remove_node(node)
    except Exception:  # upstream: logged ("Scheduler cache RemoveNode failed")
        pass


@ports("pkg/scheduler/eventhandlers.go", "nodeSchedulingPropertiesChange", 548, 571)
def node_scheduling_properties_change(new: Node, old: Node) -> list[ClusterEvent]:
    events = []
    if new.spec.unschedulable != old.spec.unschedulable and not new.spec.unschedulable:
        events.append(NODE_SPEC_UNSCHEDULABLE_CHANGE)
    if _quantities(old.status.allocatable) != _quantities(new.status.allocatable):
        events.append(NODE_ALLOCATABLE_CHANGE)
    if old.metadata.labels != new.metadata.labels:
        events.append(NODE_LABEL_CHANGE)
    if new.spec.taints != old.spec.taints:
        events.append(NODE_TAINT_CHANGE)
    if getattr(old.status, "conditions", None) != getattr(new.status, "conditions", None):
        events.append(NODE_CONDITION_CHANGE)
    if old.metadata.annotations != new.metadata.annotations:
        events.append(NODE_ANNOTATION_CHANGE)
    return events


@ports("pkg/scheduler/eventhandlers.go", "nodeAllocatableChanged", 573, 575)
def _quantities(rl: dict[str, Any]) -> dict[str, Any]:
    return {k: v.milli_value() for k, v in rl.items()}


@ports("pkg/scheduler/eventhandlers.go", "preCheckForNode", 604, 618)
def pre_check_for_node(info: NodeInfo) -> Callable[[Pod], bool]:
    """Upstream preCheckForNode: would the pod pass the basic admission checks on this node?"""
    def check(pod: Pod) -> bool:
        if admission_check(pod, info, include_all_failures=False):
            return False
        untolerated = find_matching_untolerated_taint(
            info.node().spec.taints, pod.spec.tolerations, lambda t: t.effect == TAINT_NO_SCHEDULE)
        return untolerated is None
    return check


@ports("pkg/scheduler/eventhandlers.go", "AdmissionCheck", 624, 655)
def admission_check(pod: Pod, info: NodeInfo, include_all_failures: bool) -> list[tuple[str, str]]:
    """Upstream AdmissionCheck: (plugin, reason) for each of the kubelet-like checks that fail."""
    from .framework.plugins.nodename import node_name
    from .framework.plugins.noderesources import fit
    from .framework.plugins.nodeports import node_ports

    results: list[tuple[str, str]] = []
    insufficient = fit.fits(pod, info)
    if insufficient:
        results += [(fit.NAME, r.reason) for r in insufficient]
        if not include_all_failures:
            return results
    matches, _ = get_required_node_affinity(pod).match(info.node())
    if not matches:
        results.append(("NodeAffinity", "node(s) didn't match Pod's node affinity/selector"))
        if not include_all_failures:
            return results
    if not node_name.fits(pod, info):
        results.append((node_name.NAME, node_name.ERR_REASON))
        if not include_all_failures:
            return results
    if not node_ports.fits(pod, info):
        results.append((node_ports.NAME, node_ports.ERR_REASON))
    return results


# --- storage kinds ------------------------------------------------------------------------

# API server kind -> (framework GVK, the short name upstream puts in the event labels).
STORAGE_GVKS = {
    "CSINode": ("storage.k8s.io/CSINode", "CSINode"),
    "CSIDriver": ("storage.k8s.io/CSIDriver", "CSIDriver"),
    "PersistentVolume": ("PersistentVolume", "Pv"),
    "PersistentVolumeClaim": ("PersistentVolumeClaim", "Pvc"),
}


@ports("pkg/scheduler/scheduler.go", "unionedGVKs", 525, 537)
def unioned_gvks(sched: "Scheduler") -> dict[str, Any]:
    """Every resource some plugin of some profile registered events for, with the union of their actions."""
    from .internal.queue.scheduling_queue import build_queueing_hint_map

    gvk_map: dict[str, Any] = {}
    for hints in build_queueing_hint_map(sched.profiles).values():
        for evt in hints:
            gvk_map[evt.resource] = gvk_map[evt.resource] | evt.action_type if evt.resource in gvk_map \
                else evt.action_type
    return gvk_map


@ports("pkg/scheduler/eventhandlers.go", "addAllEventHandlers", 287, 546)
def add_storage_event_handlers(sched: "Scheduler") -> None:
    """The informers of the storage kinds the plugins registered events for: each add, update or
    delete the plugins asked for moves unschedulable pods (buildEvtResHandler); a StorageClass add
    only when the class binds WaitForFirstConsumer (onStorageClassAdd)."""
    from .framework.types import STORAGE_CLASS, ActionType

    api = sched.client
    gvk_map = unioned_gvks(sched)
    for kind, (gvk, short) in STORAGE_GVKS.items():
        at = gvk_map.get(gvk)
        if at:
            api.watch(kind, _build_evt_res_handler(sched, at, gvk, short))
    at = gvk_map.get(STORAGE_CLASS)
    if at and at & ActionType.Add:
        api.watch("StorageClass", lambda event, old, new: on_storage_class_add(sched, new) if event == "add"
                  else None)
    if at and at & ActionType.Update:
        from .internal.queue.events import STORAGE_CLASS_UPDATE
        api.watch("StorageClass", lambda event, old, new: sched.scheduling_queue.move_all_to_active_or_backoff_queue(
            STORAGE_CLASS_UPDATE, old, new, None) if event == "update" else None)


@ports("pkg/scheduler/eventhandlers.go", "addAllEventHandlers", 287, 546)
def _build_evt_res_handler(sched: "Scheduler", at: Any, gvk: str, short: str) -> Callable:
    """Upstream buildEvtResHandler: one cluster event per action type the plugins registered."""
    from .framework.types import ActionType

    def handle(event: str, old: Any, new: Any) -> None:
        if event == "add" and at & ActionType.Add:
            evt = ClusterEvent(gvk, ActionType.Add, f"{short}Add")
            sched.scheduling_queue.move_all_to_active_or_backoff_queue(evt, None, new, None)
        elif event == "update" and at & ActionType.Update:
            evt = ClusterEvent(gvk, ActionType.Update, f"{short}Update")
            sched.scheduling_queue.move_all_to_active_or_backoff_queue(evt, old, new, None)
        elif event == "delete" and at & ActionType.Delete:
            evt = ClusterEvent(gvk, ActionType.Delete, f"{short}Delete")
            sched.scheduling_queue.move_all_to_active_or_backoff_queue(evt, old, None, None)
    return handle


@ports("pkg/scheduler/eventhandlers.go", "(*Scheduler).onStorageClassAdd", 48, 65)
def on_storage_class_add(sched: "Scheduler", sc: Any) -> None:
    """A new WaitForFirstConsumer class may let a pod with unbound immediate claims pass."""
    from .internal.queue.events import STORAGE_CLASS_ADD

    if sc.volume_binding_mode is not None and sc.volume_binding_mode == "WaitForFirstConsumer":
        sched.scheduling_queue.move_all_to_active_or_backoff_queue(STORAGE_CLASS_ADD, None, sc, None)
