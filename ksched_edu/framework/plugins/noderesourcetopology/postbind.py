"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/postbind.go (commit 37b7888a).

PostBind tells the cache a pod is bound (informational; the passthrough
cache ignores it).
"""
from __future__ import annotations

from typing import Any

from ....anchors import SCHEDULER_PLUGINS, plumbing, ports
from ....api.types import Pod
from ...cycle_state import CycleState


@plumbing("holds the TopologyMatch method of postbind.go as one Python mixin")
class TopologyMatchPostBind:
    """The PostBind method of TopologyMatch (plugin.py)."""

    nrt_cache: Any

    @ports("pkg/noderesourcetopology/postbind.go", "(*TopologyMatch).PostBind", 28, 34, repo=SCHEDULER_PLUGINS)
    def post_bind(self, state: CycleState, pod: Pod, node_name: str) -> None:
        self.nrt_cache.post_bind(node_name, pod)
