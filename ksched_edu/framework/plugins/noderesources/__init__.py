"""Port of pkg/scheduler/framework/plugins/noderesources (v1.30): NodeResourcesFit and NodeResourcesBalancedAllocation."""
