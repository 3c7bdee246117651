"""Port of pkg/scheduler/framework/plugins/defaultpreemption (v1.30)."""
