"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/cache/cache.go (commit 37b7888a).

What the plugin asks of its NodeResourceTopology cache: a copy of a node's
object for this scheduling cycle, and notes on what it reserved, bound or
found overbooked (which only the caching implementations act on).
"""
from __future__ import annotations

from typing import Optional, Protocol

from .....api.noderesourcetopology import NodeResourceTopology
from .....api.types import Pod


class Interface(Protocol):
    def get_cached_nrt_copy(self, node_name: str, pod: Pod) -> tuple[Optional[NodeResourceTopology], bool]:
        """The node's object (None when there is none) and whether the data is fresh."""
        ...

    def node_maybe_over_reserved(self, node_name: str, pod: Pod) -> None: ...

    def node_has_foreign_pods(self, node_name: str, pod: Pod) -> None: ...

    def reserve_node_resources(self, node_name: str, pod: Pod) -> None: ...

    def unreserve_node_resources(self, node_name: str, pod: Pod) -> None: ...

    def post_bind(self, node_name: str, pod: Pod) -> None: ...
