"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology (commit 37b7888a).

The out-of-tree NodeResourceTopologyMatch plugin: filters and scores nodes
by the free resources of their NUMA zones, as each node's
NodeResourceTopology object reports them, so that a pod lands where the
kubelet's Topology Manager will admit it. Start with plugin.py.
"""
