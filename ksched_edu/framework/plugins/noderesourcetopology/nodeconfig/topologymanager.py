"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/nodeconfig/topologymanager.go (commit 37b7888a).

The kubelet Topology Manager settings of a node, read off its
NodeResourceTopology: first the deprecated ``topologyPolicies`` (one value
such as ``SingleNUMANodePodLevel`` names both policy and scope), then the
``topologyManagerPolicy``/``topologyManagerScope`` attributes, which win.
Unknown values are ignored; the default is policy ``none``, scope ``container``.
"""
from __future__ import annotations

from dataclasses import dataclass

from .....anchors import SCHEDULER_PLUGINS, ports
from .....api import noderesourcetopology as nrtapi
from .....api.noderesourcetopology import AttributeInfo, NodeResourceTopology
from ..kubeletconfig import (BEST_EFFORT_TOPOLOGY_MANAGER_POLICY, CONTAINER_TOPOLOGY_MANAGER_SCOPE,
                             NONE_TOPOLOGY_MANAGER_POLICY, POD_TOPOLOGY_MANAGER_SCOPE,
                             RESTRICTED_TOPOLOGY_MANAGER_POLICY, SINGLE_NUMA_NODE_TOPOLOGY_MANAGER_POLICY)

ATTRIBUTE_SCOPE = "topologyManagerScope"
ATTRIBUTE_POLICY = "topologyManagerPolicy"

# deprecated topologyPolicies value -> (policy, scope)
_FROM_POLICIES: dict[str, tuple[str, str]] = {
    nrtapi.SINGLE_NUMA_NODE_POD_LEVEL: (SINGLE_NUMA_NODE_TOPOLOGY_MANAGER_POLICY, POD_TOPOLOGY_MANAGER_SCOPE),
    nrtapi.SINGLE_NUMA_NODE_CONTAINER_LEVEL: (SINGLE_NUMA_NODE_TOPOLOGY_MANAGER_POLICY,
                                              CONTAINER_TOPOLOGY_MANAGER_SCOPE),
    nrtapi.BEST_EFFORT_POD_LEVEL: (BEST_EFFORT_TOPOLOGY_MANAGER_POLICY, POD_TOPOLOGY_MANAGER_SCOPE),
    nrtapi.BEST_EFFORT_CONTAINER_LEVEL: (BEST_EFFORT_TOPOLOGY_MANAGER_POLICY, CONTAINER_TOPOLOGY_MANAGER_SCOPE),
    nrtapi.RESTRICTED_POD_LEVEL: (RESTRICTED_TOPOLOGY_MANAGER_POLICY, POD_TOPOLOGY_MANAGER_SCOPE),
    nrtapi.RESTRICTED_CONTAINER_LEVEL: (RESTRICTED_TOPOLOGY_MANAGER_POLICY, CONTAINER_TOPOLOGY_MANAGER_SCOPE),
}


@ports("pkg/noderesourcetopology/nodeconfig/topologymanager.go", "IsValidScope", 35, 40, repo=SCHEDULER_PLUGINS)
def is_valid_scope(scope: str) -> bool:
    return scope in (CONTAINER_TOPOLOGY_MANAGER_SCOPE, POD_TOPOLOGY_MANAGER_SCOPE)


@ports("pkg/noderesourcetopology/nodeconfig/topologymanager.go", "IsValidPolicy", 42, 48, repo=SCHEDULER_PLUGINS)
def is_valid_policy(policy: str) -> bool:
    return policy in (NONE_TOPOLOGY_MANAGER_POLICY, BEST_EFFORT_TOPOLOGY_MANAGER_POLICY,
                      RESTRICTED_TOPOLOGY_MANAGER_POLICY, SINGLE_NUMA_NODE_TOPOLOGY_MANAGER_POLICY)


@ports("pkg/noderesourcetopology/nodeconfig/topologymanager.go", "TopologyManager", 50, 53, repo=SCHEDULER_PLUGINS)
@dataclass
class TopologyManager:
    scope: str = ""
    policy: str = ""

    @ports("pkg/noderesourcetopology/nodeconfig/topologymanager.go", "(TopologyManager).String", 72, 74, repo=SCHEDULER_PLUGINS)
    def __str__(self) -> str:
        return f'policy="{self.policy}" scope="{self.scope}"'

    @ports("pkg/noderesourcetopology/nodeconfig/topologymanager.go", "(TopologyManager).Equal", 76, 84, repo=SCHEDULER_PLUGINS)
    def equal(self, other: "TopologyManager") -> bool:
        return self.scope == other.scope and self.policy == other.policy

    @ports("pkg/noderesourcetopology/nodeconfig/topologymanager.go", "(*TopologyManager).updateFromAttributes", 86, 98, repo=SCHEDULER_PLUGINS)
    def update_from_attributes(self, attrs: list[AttributeInfo]) -> None:
        for attr in attrs:
            if attr.name == ATTRIBUTE_SCOPE and is_valid_scope(attr.value):
                self.scope = attr.value
                continue
            if attr.name == ATTRIBUTE_POLICY and is_valid_policy(attr.value):
                self.policy = attr.value
                continue

    @ports("pkg/noderesourcetopology/nodeconfig/topologymanager.go", "(*TopologyManager).updateFromPolicies", 100, 132, repo=SCHEDULER_PLUGINS)
    def update_from_policies(self, node_name: str, topology_policies: list[str]) -> None:
        """Only the first deprecated policy counts; an unknown one changes nothing."""
        if not topology_policies:
            return
        known = _FROM_POLICIES.get(topology_policies[0])
        if known is not None:
            self.policy, self.scope = known


@ports("pkg/noderesourcetopology/nodeconfig/topologymanager.go", "TopologyManagerDefaults", 55, 60, repo=SCHEDULER_PLUGINS)
def topology_manager_defaults() -> TopologyManager:
    return TopologyManager(scope=CONTAINER_TOPOLOGY_MANAGER_SCOPE, policy=NONE_TOPOLOGY_MANAGER_POLICY)


@ports("pkg/noderesourcetopology/nodeconfig/topologymanager.go", "TopologyManagerFromNodeResourceTopology", 62, 70, repo=SCHEDULER_PLUGINS)
def topology_manager_from_node_resource_topology(node_topology: NodeResourceTopology) -> TopologyManager:
    conf = topology_manager_defaults()
    # the deprecated field first, so that the attributes (the preferred source) win
    conf.update_from_policies(node_topology.metadata.name, node_topology.topology_policies)
    conf.update_from_attributes(node_topology.attributes)
    return conf
