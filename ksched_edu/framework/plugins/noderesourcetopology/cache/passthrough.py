"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/cache/passthrough.go (commit 37b7888a).

The cache that caches nothing: every call reads the node's
NodeResourceTopology from the API server, exactly as the node's agent last
wrote it, and ignores reservations. A node without an object gets ``None``,
which the plugin treats as "no topology constraint here".

Deviations:
- The object is read through the framework's object lister (the API server's
  store) rather than a controller-runtime client; it is returned as stored,
  not copied, and the plugin only reads it.
"""
from __future__ import annotations

from typing import Any, Optional

from .....anchors import SCHEDULER_PLUGINS, ports
from .....api.noderesourcetopology import KIND, NodeResourceTopology
from .....api.types import Pod


@ports("pkg/noderesourcetopology/cache/passthrough.go", "Passthrough", 31, 34, repo=SCHEDULER_PLUGINS)
class Passthrough:
    def __init__(self, client: Any) -> None:
        self.client = client  # anything with get(kind, namespace, name)

    @ports("pkg/noderesourcetopology/cache/passthrough.go", "(Passthrough).GetCachedNRTCopy", 43, 51, repo=SCHEDULER_PLUGINS)
    def get_cached_nrt_copy(self, node_name: str, pod: Pod) -> tuple[Optional[NodeResourceTopology], bool]:
        # upstream: a failed Get (not found included) is logged and answers (nil, true).
        return self.client.get(KIND, "", node_name), True

    @ports("pkg/noderesourcetopology/cache/passthrough.go", "(Passthrough).NodeMaybeOverReserved", 53, 53, repo=SCHEDULER_PLUGINS)
    def node_maybe_over_reserved(self, node_name: str, pod: Pod) -> None:
        pass

    @ports("pkg/noderesourcetopology/cache/passthrough.go", "(Passthrough).NodeHasForeignPods", 54, 54, repo=SCHEDULER_PLUGINS)
    def node_has_foreign_pods(self, node_name: str, pod: Pod) -> None:
        pass

    @ports("pkg/noderesourcetopology/cache/passthrough.go", "(Passthrough).ReserveNodeResources", 55, 55, repo=SCHEDULER_PLUGINS)
    def reserve_node_resources(self, node_name: str, pod: Pod) -> None:
        pass

    @ports("pkg/noderesourcetopology/cache/passthrough.go", "(Passthrough).UnreserveNodeResources", 56, 56, repo=SCHEDULER_PLUGINS)
    def unreserve_node_resources(self, node_name: str, pod: Pod) -> None:
        pass

    @ports("pkg/noderesourcetopology/cache/passthrough.go", "(Passthrough).PostBind", 57, 57, repo=SCHEDULER_PLUGINS)
    def post_bind(self, node_name: str, pod: Pod) -> None:
        pass


@ports("pkg/noderesourcetopology/cache/passthrough.go", "NewPassthrough", 36, 41, repo=SCHEDULER_PLUGINS)
def new_passthrough(client: Any) -> Passthrough:
    return Passthrough(client)
