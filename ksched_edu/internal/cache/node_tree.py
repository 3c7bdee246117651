"""Port of pkg/scheduler/internal/cache/node_tree.go (v1.30).

The node tree groups node names by zone and lists them round-robin across
zones (a node of zone a, then of zone b, ...), so that when the scheduler stops
filtering early (percentageOfNodesToScore) the nodes it looked at are spread
over the zones.

Deviations:
- ``get_zone_key`` ports k8s.io/component-helpers/node/topology GetZoneKey.
"""
from __future__ import annotations

from typing import Optional

from ...anchors import SCHEDULER_PLUGINS, ports
from ...api.types import Node

LABEL_TOPOLOGY_ZONE = "topology.kubernetes.io/zone"
LABEL_TOPOLOGY_REGION = "topology.kubernetes.io/region"
LABEL_FAILURE_DOMAIN_BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"
LABEL_FAILURE_DOMAIN_BETA_REGION = "failure-domain.beta.kubernetes.io/region"


@ports("vendor/k8s.io/component-helpers/node/topology/helpers.go", "GetZoneKey", 31, 58, repo=SCHEDULER_PLUGINS)
def get_zone_key(node: Node) -> str:
    """"region:\\x00:zone" from the node's labels; "" when it has neither."""
    labels = node.metadata.labels
    zone = labels.get(LABEL_TOPOLOGY_ZONE) or labels.get(LABEL_FAILURE_DOMAIN_BETA_ZONE, "")
    region = labels.get(LABEL_TOPOLOGY_REGION) or labels.get(LABEL_FAILURE_DOMAIN_BETA_REGION, "")
    if not region and not zone:
        return ""
    return f"{region}:\x00:{zone}"


@ports("pkg/scheduler/internal/cache/node_tree.go", "nodeTree", 32, 36)
class NodeTree:
    @ports("pkg/scheduler/internal/cache/node_tree.go", "newNodeTree", 39, 47)
    def __init__(self, nodes: Optional[list[Node]] = None) -> None:
        self.tree: dict[str, list[str]] = {}
        self.zones: list[str] = []
        self.num_nodes = 0
        for n in nodes or []:
            self.add_node(n)

    @ports("pkg/scheduler/internal/cache/node_tree.go", "(*nodeTree).addNode", 51, 67)
    def add_node(self, node: Node) -> None:
        zone = get_zone_key(node)
        names = self.tree.get(zone)
        if names is None:
            self.zones.append(zone)
            self.tree[zone] = [node.metadata.name]
        elif node.metadata.name in names:
            return
        else:
            names.append(node.metadata.name)
        self.num_nodes += 1

    @ports("pkg/scheduler/internal/cache/node_tree.go", "(*nodeTree).removeNode", 70, 87)
    def remove_node(self, node: Node) -> None:
        zone = get_zone_key(node)
        names = self.tree.get(zone, [])
        if node.metadata.name not in names:
            raise KeyError(f"node {node.metadata.name!r} in group {zone!r} was not found")
        names.remove(node.metadata.name)
        if not names:
            del self.tree[zone]
            self.zones.remove(zone)
        self.num_nodes -= 1

    @ports("pkg/scheduler/internal/cache/node_tree.go", "(*nodeTree).updateNode", 102, 115)
    def update_node(self, old: Optional[Node], new: Node) -> None:
        old_zone = get_zone_key(old) if old is not None else ""
        if old is not None and old_zone == get_zone_key(new):
            return
        if old is not None:
            try:
                self.remove_node(old)
            except KeyError:
                pass  # upstream ignores whether the old node existed
        self.add_node(new)

    @ports("pkg/scheduler/internal/cache/node_tree.go", "(*nodeTree).list", 119, 143)
    def list(self) -> list[str]:
        """Node names, one zone after another, round-robin (upstream nodeTree.list)."""
        out: list[str] = []
        index = 0
        while len(out) < self.num_nodes:
            for zone in self.zones:
                names = self.tree[zone]
                if index < len(names):
                    out.append(names[index])
            index += 1
        return out
