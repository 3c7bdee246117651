"""Port of pkg/scheduler/framework/plugins/imagelocality (v1.30)."""
