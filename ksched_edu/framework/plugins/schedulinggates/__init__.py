"""Port of pkg/scheduler/framework/plugins/schedulinggates (v1.30)."""
