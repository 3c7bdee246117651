"""Port of pkg/scheduler/framework/plugins/interpodaffinity (v1.30): the
InterPodAffinity plugin (plugin.go, filtering.go, scoring.go)."""
from .plugin import NAME, InterPodAffinity, new

__all__ = ["NAME", "InterPodAffinity", "new"]
