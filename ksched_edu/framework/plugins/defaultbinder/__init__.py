"""Port of pkg/scheduler/framework/plugins/defaultbinder (v1.30)."""
