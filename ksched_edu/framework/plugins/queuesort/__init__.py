"""Port of pkg/scheduler/framework/plugins/queuesort (v1.30)."""
