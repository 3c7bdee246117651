"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/reserve.go (commit 37b7888a).

Reserve and Unreserve tell the cache which node a pod was assumed on, so a
caching implementation can count it against that node until the node's
agent reports fresh data. The passthrough cache ignores both.
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import SCHEDULER_PLUGINS, plumbing, ports
from ....api.types import Pod
from ...cycle_state import CycleState
from ...interface import Code, Status, new_status


@plumbing("holds the TopologyMatch methods of reserve.go as one Python mixin")
class TopologyMatchReserve:
    """The Reserve methods of TopologyMatch (plugin.py)."""

    nrt_cache: Any

    @ports("pkg/noderesourcetopology/reserve.go", "(*TopologyMatch).Reserve", 28, 37, repo=SCHEDULER_PLUGINS)
    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        self.nrt_cache.reserve_node_resources(node_name, pod)
        return new_status(Code.Success, "")  # can't fail

    @ports("pkg/noderesourcetopology/reserve.go", "(*TopologyMatch).Unreserve", 39, 46, repo=SCHEDULER_PLUGINS)
    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        self.nrt_cache.unreserve_node_resources(node_name, pod)
