"""Port of the Topology Manager constants of k8s.io/kubernetes/pkg/kubelet/apis/config/types.go (v1.30).

The kubelet's ``--topology-manager-policy`` and ``--topology-manager-scope``
values, as a NodeResourceTopology reports them in its attributes.
"""
from __future__ import annotations

NONE_TOPOLOGY_MANAGER_POLICY = "none"
BEST_EFFORT_TOPOLOGY_MANAGER_POLICY = "best-effort"
RESTRICTED_TOPOLOGY_MANAGER_POLICY = "restricted"
SINGLE_NUMA_NODE_TOPOLOGY_MANAGER_POLICY = "single-numa-node"

CONTAINER_TOPOLOGY_MANAGER_SCOPE = "container"
POD_TOPOLOGY_MANAGER_SCOPE = "pod"
