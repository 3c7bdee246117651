"""Port of pkg/scheduler/framework/plugins/nodename (v1.30)."""
