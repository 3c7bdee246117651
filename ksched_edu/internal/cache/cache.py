"""Port of pkg/scheduler/internal/cache/cache.go and interface.go (v1.30).

The scheduler's cache: every node's NodeInfo with the pods bound (or assumed)
on it. ``assume_pod`` books a pod on its chosen node before the binding
cycle finishes, so the next cycle already sees the room taken (optimistic
binding); ``forget_pod`` undoes it when binding fails; the API server's
confirmation (``add_pod``) turns an assumed pod into a bound one.
``update_snapshot`` copies only the NodeInfos that changed since the last
snapshot, walking nodes from the most recently changed.

Deviations:
- The most-recently-updated linked list is an ``OrderedDict`` (moved to the end
  on change, walked in reverse); same order, same early stop.
- The assumed-pod expiry (ttl) is driven by the virtual clock via
  ``cleanup_assumed_pods(now)``; with ttl 0 (the default) assumed pods never expire.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Optional

from ...anchors import plumbing, ports
from ...api.types import Node, Pod
from ...framework.types import ImageStateSummary, NodeInfo, get_pod_key
from .node_tree import NodeTree
from .snapshot import Snapshot


@plumbing("Python exception for the errors upstream's cache methods return")
class CacheError(Exception):
    pass


@ports("pkg/scheduler/internal/cache/cache.go", "podState", 78, 85)
@dataclass
class _PodState:
    pod: Pod
    deadline: Optional[float] = None
    binding_finished: bool = False


@ports("pkg/scheduler/internal/cache/cache.go", "cacheImpl", 57, 76)
class Cache:
    @ports("pkg/scheduler/internal/cache/cache.go", "newCache", 87, 100)
    def __init__(self, ttl: float = 0.0) -> None:
        self.ttl = ttl
        self.assumed_pods: set[str] = set()
        self.pod_states: dict[str, _PodState] = {}
        # node name -> NodeInfo, ordered from least to most recently updated.
        self.nodes: "OrderedDict[str, NodeInfo]" = OrderedDict()
        self.node_tree = NodeTree()
        self.image_states: dict[str, ImageStateSummary] = {}

    # --- the most-recently-updated order -----------------------------------------

    @ports("pkg/scheduler/internal/cache/cache.go", "newNodeInfoListItem", 103, 107)
    def _node_info(self, name: str) -> NodeInfo:
        info = self.nodes.get(name)
        if info is None:
            info = self.nodes[name] = NodeInfo()
        return info

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).moveNodeInfoToHead", 112, 135)
    def _move_to_head(self, name: str) -> None:
        if name in self.nodes:
            self.nodes.move_to_end(name)

    # --- snapshot -----------------------------------------------------------------

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).UpdateSnapshot", 185, 279)
    def update_snapshot(self, snapshot: Snapshot) -> None:
        """Bring ``snapshot`` up to date, copying only NodeInfos newer than it."""
        update_all = update_affinity = update_anti = update_pvc = False
        for name in reversed(self.nodes):
            info = self.nodes[name]
            if info.generation <= snapshot.generation:
                break
            node = info.node()
            if node is None:
                continue
            existing = snapshot.node_info_map.get(node.metadata.name)
            clone = info.snapshot()
            if existing is None:
                update_all = True
                existing = snapshot.node_info_map[node.metadata.name] = NodeInfo()
            if bool(existing.pods_with_affinity) != bool(clone.pods_with_affinity):
                update_affinity = True
            if bool(existing.pods_with_required_anti_affinity) != bool(clone.pods_with_required_anti_affinity):
                update_anti = True
            if set(existing.pvc_ref_counts) != set(clone.pvc_ref_counts):
                update_pvc = True
            # upstream: *existing = *clone, so the snapshot's list sees the new state too.
            existing.overwrite_from(clone)
        if self.nodes:
            snapshot.generation = self.nodes[next(reversed(self.nodes))].generation
        if len(snapshot.node_info_map) > self.node_tree.num_nodes:
            self._remove_deleted_nodes_from_snapshot(snapshot)
            update_all = True
        if update_all or update_affinity or update_anti or update_pvc:
            self._update_node_info_snapshot_list(snapshot, update_all)
        if len(snapshot.node_info_list) != self.node_tree.num_nodes:
            self._update_node_info_snapshot_list(snapshot, True)
            raise CacheError(
                f"snapshot state is not consistent, length of NodeInfoList={len(snapshot.node_info_list)} not "
                f"equal to length of nodes in tree={self.node_tree.num_nodes} , length of NodeInfoMap="
                f"{len(snapshot.node_info_map)}, length of nodes in cache={len(self.nodes)}, trying to recover")

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).updateNodeInfoSnapshotList", 281, 321)
    def _update_node_info_snapshot_list(self, snapshot: Snapshot, update_all: bool) -> None:
        if update_all:
            snapshot.node_info_list = [snapshot.node_info_map[n] for n in self.node_tree.list()
                                       if n in snapshot.node_info_map]
        snapshot.rebuild_affinity_lists()
        snapshot.used_pvc_set = {k for info in snapshot.node_info_list for k in info.pvc_ref_counts}

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).removeDeletedNodesFromSnapshot", 324, 335)
    def _remove_deleted_nodes_from_snapshot(self, snapshot: Snapshot) -> None:
        to_delete = len(snapshot.node_info_map) - self.node_tree.num_nodes
        for name in list(snapshot.node_info_map):
            if to_delete <= 0:
                break
            info = self.nodes.get(name)
            if info is None or info.node() is None:
                del snapshot.node_info_map[name]
                to_delete -= 1

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).NodeCount", 339, 343)
    def node_count(self) -> int:
        return len(self.nodes)

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).PodCount", 347, 358)
    def pod_count(self) -> int:
        return sum(len(info.pods) for info in self.nodes.values())

    # --- pods ---------------------------------------------------------------------

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).AssumePod", 360, 373)
    def assume_pod(self, pod: Pod) -> None:
        key = get_pod_key(pod)
        if key in self.pod_states:
            raise CacheError(f"pod {pod.key} is in the cache, so can't be assumed")
        self._add_pod(pod, assume=True)

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).finishBinding", 380, 401)
    def finish_binding(self, pod: Pod, now: float = 0.0) -> None:
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is not None and key in self.assumed_pods:
            state.deadline = None if self.ttl == 0 else now + self.ttl
            state.binding_finished = True

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).ForgetPod", 403, 422)
    def forget_pod(self, pod: Pod) -> None:
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is not None and state.pod.spec.node_name != pod.spec.node_name:
            raise CacheError(f"pod {pod.key} was assumed on {pod.spec.node_name} but assigned to "
                             f"{state.pod.spec.node_name}")
        if state is not None and key in self.assumed_pods:
            self._remove_pod(pod)
            return
        raise CacheError(f"pod {pod.key} wasn't assumed so cannot be forgotten")

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).addPod", 425, 445)
    def _add_pod(self, pod: Pod, assume: bool) -> None:
        key = get_pod_key(pod)
        self._node_info(pod.spec.node_name).add_pod(pod)
        self._move_to_head(pod.spec.node_name)
        self.pod_states[key] = _PodState(pod)
        if assume:
            self.assumed_pods.add(key)

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).updatePod", 448, 453)
    def _update_pod(self, old: Pod, new: Pod) -> None:
        self._remove_pod(old)
        self._add_pod(new, assume=False)

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).removePod", 459, 482)
    def _remove_pod(self, pod: Pod) -> None:
        key = get_pod_key(pod)
        info = self.nodes.get(pod.spec.node_name)
        if info is not None:
            info.remove_pod(pod)
            if not info.pods and info.node() is None:
                del self.nodes[pod.spec.node_name]
            else:
                self._move_to_head(pod.spec.node_name)
        self.pod_states.pop(key, None)
        self.assumed_pods.discard(key)

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).AddPod", 484, 515)
    def add_pod(self, pod: Pod) -> None:
        """A bound pod arrived from the API server (confirms an assumed pod)."""
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is not None and key in self.assumed_pods:
            self._update_pod(state.pod, pod)
        elif state is None:
            self._add_pod(pod, assume=False)
        else:
            raise CacheError(f"pod {pod.key} was already in added state")

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).UpdatePod", 517, 543)
    def update_pod(self, old: Pod, new: Pod) -> None:
        key = get_pod_key(old)
        state = self.pod_states.get(key)
        if state is None:
            raise CacheError(f"pod {old.key} is not added to scheduler cache, so cannot be updated")
        if key in self.assumed_pods:
            raise CacheError(f"assumed pod {old.key} should not be updated")
        self._update_pod(state.pod, new)

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).RemovePod", 545, 568)
    def remove_pod(self, pod: Pod) -> None:
        key = get_pod_key(pod)
        state = self.pod_states.get(key)
        if state is None:
            raise CacheError(f"pod {pod.key} is not found in scheduler cache, so cannot be removed from it")
        self._remove_pod(state.pod)

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).IsAssumedPod", 570, 580)
    def is_assumed_pod(self, pod: Pod) -> bool:
        return get_pod_key(pod) in self.assumed_pods

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).GetPod", 584, 599)
    def get_pod(self, pod: Pod) -> Pod:
        state = self.pod_states.get(get_pod_key(pod))
        if state is None:
            raise CacheError(f"pod {pod.key} does not exist in scheduler cache")
        return state.pod

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).cleanupAssumedPods", 729, 752)
    def cleanup_assumed_pods(self, now: float) -> None:
        for key in list(self.assumed_pods):
            state = self.pod_states[key]
            if state.binding_finished and self.ttl != 0 and state.deadline is not None and now > state.deadline:
                self._remove_pod(state.pod)

    # --- nodes --------------------------------------------------------------------

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).AddNode", 601, 618)
    def add_node(self, node: Node) -> NodeInfo:
        name = node.metadata.name
        if name in self.nodes:
            self._remove_node_image_states(self.nodes[name].node())
        info = self._node_info(name)
        self._move_to_head(name)
        self.node_tree.add_node(node)
        self._add_node_image_states(node, info)
        info.set_node(node)
        return info.snapshot()

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).UpdateNode", 620, 637)
    def update_node(self, old: Node, new: Node) -> NodeInfo:
        name = new.metadata.name
        if name not in self.nodes:
            self.node_tree.add_node(new)
        else:
            self._remove_node_image_states(self.nodes[name].node())
        info = self._node_info(name)
        self._move_to_head(name)
        self.node_tree.update_node(old, new)
        self._add_node_image_states(new, info)
        info.set_node(new)
        return info.snapshot()

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).RemoveNode", 645, 668)
    def remove_node(self, node: Node) -> None:
        name = node.metadata.name
        info = self.nodes.get(name)
        if info is None:
            raise CacheError(f"node {name} is not found")
        info.remove_node()
        if not info.pods:
            del self.nodes[name]
        else:
            self._move_to_head(name)
        self.node_tree.remove_node(node)
        self._remove_node_image_states(node)

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).addNodeImageStates", 672, 695)
    def _add_node_image_states(self, node: Node, info: NodeInfo) -> None:
        summaries: dict[str, ImageStateSummary] = {}
        for image in node.status.images:
            for name in image.names:
                state = self.image_states.get(name)
                if state is None:
                    state = self.image_states[name] = ImageStateSummary(image.size_bytes, nodes={node.metadata.name})
                else:
                    state.nodes.add(node.metadata.name)
                summaries.setdefault(name, state)
        info.image_states = summaries

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).removeNodeImageStates", 700, 719)
    def _remove_node_image_states(self, node: Optional[Node]) -> None:
        if node is None:
            return
        for image in node.status.images:
            for name in image.names:
                state = self.image_states.get(name)
                if state is not None:
                    state.nodes.discard(node.metadata.name)
                    if not state.nodes:
                        del self.image_states[name]

