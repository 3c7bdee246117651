"""Port of pkg/scheduler/framework/plugins/podtopologyspread (v1.30): the
PodTopologySpread plugin (common.py, filtering.py, scoring.py, plugin.py)."""
