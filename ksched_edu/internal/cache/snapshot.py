"""Port of pkg/scheduler/internal/cache/snapshot.go (v1.30).

A Snapshot is the frozen view of the cluster that one scheduling cycle reads:
a map from node name to NodeInfo, the list of NodeInfos in the node tree's
order (zones interleaved), and the shorter lists of nodes that hold pods with
(anti-)affinity, which InterPodAffinity walks instead of every node.

Deviations:
- ``Snapshot.from_objects`` (upstream NewSnapshot) keeps the nodes in the order
  given, where upstream walks a Go map (random order).
"""
from __future__ import annotations

from typing import Iterable, Optional

from ...anchors import plumbing, ports
from ...api.types import Node, Pod
from ...framework.types import ImageStateSummary, NodeInfo


@plumbing("Python exception for the error upstream's (*Snapshot).Get returns")
class NodeInfoNotFoundError(KeyError):
    def __str__(self) -> str:
        return f'nodeinfo not found for node name "{self.args[0]}"'


@ports("pkg/scheduler/internal/cache/snapshot.go", "Snapshot", 29, 43)
class Snapshot:
    @ports("pkg/scheduler/internal/cache/snapshot.go", "NewEmptySnapshot", 48, 53)
    def __init__(self) -> None:
        self.node_info_map: dict[str, NodeInfo] = {}
        self.node_info_list: list[NodeInfo] = []
        self.have_pods_with_affinity_node_info_list: list[NodeInfo] = []
        self.have_pods_with_required_anti_affinity_node_info_list: list[NodeInfo] = []
        self.used_pvc_set: set[str] = set()
        self.generation = 0

    @classmethod
    @ports("pkg/scheduler/internal/cache/snapshot.go", "NewSnapshot", 56, 79)
    def from_objects(cls, pods: Iterable[Pod], nodes: Iterable[Node]) -> "Snapshot":
        """Upstream NewSnapshot: build NodeInfos straight from pods and nodes."""
        pods, nodes = list(pods), list(nodes)
        s = cls()
        infos: dict[str, NodeInfo] = {}
        for pod in pods:
            infos.setdefault(pod.spec.node_name, NodeInfo()).add_pod(pod)
        existence = create_image_existence_map(nodes)
        for node in nodes:
            info = infos.setdefault(node.metadata.name, NodeInfo())
            info.set_node(node)
            info.image_states = get_node_image_states(node, existence)
        s.node_info_map = infos
        s.node_info_list = [infos[n.metadata.name] for n in nodes]
        s.rebuild_affinity_lists()
        s.used_pvc_set = {f"{p.metadata.namespace}/{v['persistentVolumeClaim']['claimName']}"
                          for p in pods if p.spec.node_name
                          for v in p.spec.volumes if isinstance(v, dict) and v.get("persistentVolumeClaim")}
        return s

    @ports("pkg/scheduler/internal/cache/cache.go", "(*cacheImpl).updateNodeInfoSnapshotList", 281, 321)
    def rebuild_affinity_lists(self) -> None:
        self.have_pods_with_affinity_node_info_list = [n for n in self.node_info_list if n.pods_with_affinity]
        self.have_pods_with_required_anti_affinity_node_info_list = [
            n for n in self.node_info_list if n.pods_with_required_anti_affinity]

    # SharedLister
    @ports("pkg/scheduler/internal/cache/snapshot.go", "(*Snapshot).NodeInfos", 158, 160)
    def node_infos(self) -> "Snapshot":
        return self

    @ports("pkg/scheduler/internal/cache/snapshot.go", "(*Snapshot).StorageInfos", 163, 165)
    def storage_infos(self) -> "Snapshot":
        return self

    @ports("pkg/scheduler/internal/cache/snapshot.go", "(*Snapshot).NumNodes", 168, 170)
    def num_nodes(self) -> int:
        return len(self.node_info_list)

    # NodeInfoLister
    @ports("pkg/scheduler/internal/cache/snapshot.go", "(*Snapshot).List", 173, 175)
    def list(self) -> list[NodeInfo]:
        return self.node_info_list

    @ports("pkg/scheduler/internal/cache/snapshot.go", "(*Snapshot).HavePodsWithAffinityList", 178, 180)
    def have_pods_with_affinity_list(self) -> list[NodeInfo]:
        return self.have_pods_with_affinity_node_info_list

    @ports("pkg/scheduler/internal/cache/snapshot.go", "(*Snapshot).HavePodsWithRequiredAntiAffinityList", 184, 186)
    def have_pods_with_required_anti_affinity_list(self) -> list[NodeInfo]:
        return self.have_pods_with_required_anti_affinity_node_info_list

    @ports("pkg/scheduler/internal/cache/snapshot.go", "(*Snapshot).Get", 189, 194)
    def get(self, node_name: str) -> NodeInfo:
        try:
            info = self.node_info_map[node_name]
        except KeyError:
            raise NodeInfoNotFoundError(node_name) from None
        if info._node is None:  # info.node(), read directly: Score calls this per node
            raise NodeInfoNotFoundError(node_name)
        return info

    # StorageInfoLister
    @ports("pkg/scheduler/internal/cache/snapshot.go", "(*Snapshot).IsPVCUsedByPods", 196, 198)
    def is_pvc_used_by_pods(self, key: str) -> bool:
        return key in self.used_pvc_set


@ports("pkg/scheduler/internal/cache/snapshot.go", "createImageExistenceMap", 141, 155)
def create_image_existence_map(nodes: Iterable[Node]) -> dict[str, set[str]]:
    existence: dict[str, set[str]] = {}
    for node in nodes:
        for image in node.status.images:
            for name in image.names:
                existence.setdefault(name, set()).add(node.metadata.name)
    return existence


@ports("pkg/scheduler/internal/cache/snapshot.go", "getNodeImageStates", 126, 138)
def get_node_image_states(node: Node, existence: dict[str, set[str]]) -> dict[str, ImageStateSummary]:
    states: dict[str, ImageStateSummary] = {}
    for image in node.status.images:
        for name in image.names:
            states[name] = ImageStateSummary(image.size_bytes, len(existence.get(name, ())))
    return states
