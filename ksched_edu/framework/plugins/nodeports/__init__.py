"""Port of pkg/scheduler/framework/plugins/nodeports (v1.30)."""
