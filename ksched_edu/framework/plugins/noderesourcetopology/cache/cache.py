"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/cache/cache.go (commit 37b7888a).

What the plugin asks of its NodeResourceTopology cache: a copy of a node's
object for this scheduling cycle, and notes on what it reserved, bound or
found overbooked (which only the caching implementations act on).
"""
from __future__ import annotations

from typing import Optional, Protocol

from .....anchors import SCHEDULER_PLUGINS, ports
from .....api.noderesourcetopology import NodeResourceTopology
from .....api.types import Pod


@ports("pkg/noderesourcetopology/cache/cache.go", "Interface", 27, 69, repo=SCHEDULER_PLUGINS)
class Interface(Protocol):
    @ports("pkg/noderesourcetopology/cache/cache.go", "Interface", 27, 69, repo=SCHEDULER_PLUGINS)
    def get_cached_nrt_copy(self, node_name: str, pod: Pod) -> tuple[Optional[NodeResourceTopology], bool]:
        """The node's object (None when there is none) and whether the data is fresh."""
        ...

    @ports("pkg/noderesourcetopology/cache/cache.go", "Interface", 27, 69, repo=SCHEDULER_PLUGINS)
    def node_maybe_over_reserved(self, node_name: str, pod: Pod) -> None: ...

    @ports("pkg/noderesourcetopology/cache/cache.go", "Interface", 27, 69, repo=SCHEDULER_PLUGINS)
    def node_has_foreign_pods(self, node_name: str, pod: Pod) -> None: ...

    @ports("pkg/noderesourcetopology/cache/cache.go", "Interface", 27, 69, repo=SCHEDULER_PLUGINS)
    def reserve_node_resources(self, node_name: str, pod: Pod) -> None: ...

    @ports("pkg/noderesourcetopology/cache/cache.go", "Interface", 27, 69, repo=SCHEDULER_PLUGINS)
    def unreserve_node_resources(self, node_name: str, pod: Pod) -> None: ...

    @ports("pkg/noderesourcetopology/cache/cache.go", "Interface", 27, 69, repo=SCHEDULER_PLUGINS)
    def post_bind(self, node_name: str, pod: Pod) -> None: ...
