"""Port of pkg/scheduler/framework/plugins/tainttoleration (v1.30)."""
