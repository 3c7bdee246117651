"""Port of pkg/scheduler/framework/plugins/nodeunschedulable (v1.30)."""
