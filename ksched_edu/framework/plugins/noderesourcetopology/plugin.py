"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/plugin.go (commit 37b7888a).

NodeResourceTopologyMatch runs a simplified kubelet Topology Manager admit
check in the scheduler: it reads each node's NodeResourceTopology (free
resources per NUMA zone, the kubelet's policy and scope) and rejects nodes
where a ``single-numa-node`` kubelet would refuse the pod (filter.py), then
scores nodes by the NUMA zones the pod would use (score.py, least_numa.py).
Its methods live in the modules of their extension points, as upstream's
methods live in their files.

Deviations:
- Only the passthrough cache (no reserve cache, no resync) is ported; see pluginhelpers.py.
- ``args`` may be the decoded dataclass, the raw ``args`` mapping of the
  configuration, or None (no pluginConfig entry: the v1 defaults).
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import SCHEDULER_PLUGINS, ports
from ....config.field import to_aggregate
from ...types import NODE, POD, ActionType, ClusterEvent, ClusterEventWithHint
from .config import NodeResourceTopologyMatchArgs, decode_args, validate_node_resource_topology_match_args
from .filter import TopologyMatchFilter
from .pluginhelpers import init_node_topology_informer
from .postbind import TopologyMatchPostBind
from .reserve import TopologyMatchReserve
from .score import ResourceToWeightMap, ScoreStrategyFn, TopologyMatchScore, get_scoring_strategy_function

NAME = "NodeResourceTopologyMatch"

# Extension points: Filter, Score, Reserve, PostBind, EnqueueExtensions.

GROUP_NAME = "topology.node.k8s.io"  # noderesourcetopology-api pkg/apis/topology


@ports("pkg/noderesourcetopology/plugin.go", "TopologyMatch", 55, 60, repo=SCHEDULER_PLUGINS)
class TopologyMatch(TopologyMatchFilter, TopologyMatchScore, TopologyMatchReserve, TopologyMatchPostBind):
    def __init__(self, resource_to_weight_map: ResourceToWeightMap, nrt_cache: Any,
                 score_strategy_func: Optional[ScoreStrategyFn], score_strategy_type: str) -> None:
        self.resource_to_weight_map = resource_to_weight_map
        self.nrt_cache = nrt_cache
        self.score_strategy_func = score_strategy_func
        self.score_strategy_type = score_strategy_type

    @ports("pkg/noderesourcetopology/plugin.go", "(*TopologyMatch).Name", 69, 71, repo=SCHEDULER_PLUGINS)
    def name(self) -> str:
        return NAME

    @ports("pkg/noderesourcetopology/plugin.go", "(*TopologyMatch).EventsToRegister", 123, 133, repo=SCHEDULER_PLUGINS)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        """A pod leaving, a node added or resized, or a NodeResourceTopology written may help."""
        # upstream: a custom resource's events are named "<plural>.<version>.<group>".
        nrt_gvk = f"noderesourcetopologies.v1alpha2.{GROUP_NAME}"
        return [
            ClusterEventWithHint(ClusterEvent(POD, ActionType.Delete)),
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.UpdateNodeAllocatable)),
            ClusterEventWithHint(ClusterEvent(nrt_gvk, ActionType.Add | ActionType.Update)),
        ]


@ports("pkg/noderesourcetopology/plugin.go", "New", 74, 116, repo=SCHEDULER_PLUGINS)
def new(args: Any, handle: Any) -> TopologyMatch:
    """Upstream New: decode and validate the args, build the cache, pick the strategy."""
    if args is None or isinstance(args, dict):
        tcfg = decode_args(args)
    elif isinstance(args, NodeResourceTopologyMatchArgs):
        tcfg = args
    else:
        raise ValueError(f"want args to be of type NodeResourceTopologyMatchArgs, got {type(args).__name__}")

    agg = to_aggregate(validate_node_resource_topology_match_args(None, tcfg))
    if agg is not None:
        raise ValueError(str(agg))

    nrt_cache = init_node_topology_informer(tcfg, handle)

    assert tcfg.scoring_strategy is not None  # defaulted
    res_to_weight_map = ResourceToWeightMap()
    for resource in tcfg.scoring_strategy.resources:
        res_to_weight_map[resource.name] = resource.weight

    # Done here to catch a bad strategy as early as possible; Filter and Score
    # can only check what depends on the NodeResourceTopology objects.
    strategy = get_scoring_strategy_function(tcfg.scoring_strategy.type)

    return TopologyMatch(resource_to_weight_map=res_to_weight_map, nrt_cache=nrt_cache,
                         score_strategy_func=strategy, score_strategy_type=tcfg.scoring_strategy.type)
