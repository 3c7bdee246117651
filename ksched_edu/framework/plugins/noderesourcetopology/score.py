"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/score.go (commit 37b7888a).

The Score of NodeResourceTopologyMatch. A non-Guaranteed pod gets 100
everywhere (nothing of it is NUMA-pinned); a node without a
NodeResourceTopology gets 0. Otherwise the configured strategy scores each
NUMA zone and the node keeps the lowest non-zero zone score (pod scope: the
pod's effective request; container scope: the mean over the init and app
containers, each against the untouched zones). Those strategies apply to
``single-numa-node`` nodes only; LeastNUMANodes (least_numa.py) scores any
node by its scope.

Deviations:
- No logging; upstream's per-zone score array, kept only for its log line,
  is not built (it is indexed by NUMA id and would panic on ids >= the zone count).
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from ....anchors import SCHEDULER_PLUGINS, plumbing, ports
from ....api.noderesourcetopology import Zone
from ....api.types import Pod, ResourceList
from ...cycle_state import CycleState
from ...interface import MAX_NODE_SCORE, Status
from . import config as apiconfig
from .balanced_allocation import balanced_allocation_score_strategy
from .gonum_stat import go_int64, mean
from .kubeletconfig import (CONTAINER_TOPOLOGY_MANAGER_SCOPE, POD_TOPOLOGY_MANAGER_SCOPE,
                            SINGLE_NUMA_NODE_TOPOLOGY_MANAGER_POLICY)
from .least_allocated import least_allocated_score_strategy
from .least_numa import least_numa_container_scope_score, least_numa_pod_scope_score
from .most_allocated import most_allocated_score_strategy
from .nodeconfig.topologymanager import TopologyManager, topology_manager_from_node_resource_topology
from .numaresources import NUMANodeList
from .pluginhelpers import create_numa_node_list
from .qos import POD_QOS_GUARANTEED, get_pod_qos
from .util import get_pod_effective_request

DEFAULT_WEIGHT = 1


@ports("pkg/noderesourcetopology/score.go", "resourceToWeightMap", 47, 47, repo=SCHEDULER_PLUGINS)
class ResourceToWeightMap(dict[str, int]):
    """Resource name -> weight, from ``scoringStrategy.resources``."""

    @ports("pkg/noderesourcetopology/score.go", "(resourceToWeightMap).weight", 50, 61, repo=SCHEDULER_PLUGINS)
    def weight(self, r: str) -> int:
        """The configured weight, or 1 for a resource not listed (or weighted below 1)."""
        w = self.get(r)
        if w is None or w < 1:
            return DEFAULT_WEIGHT
        return w


ScoreStrategyFn = Callable[[ResourceList, ResourceList, ResourceToWeightMap], int]
ScoringFn = Callable[[Pod, list[Zone]], tuple[int, Optional[Status]]]


@ports("pkg/noderesourcetopology/score.go", "scoreForEachNUMANode", 102, 116, repo=SCHEDULER_PLUGINS)
def score_for_each_numa_node(requested: ResourceList, numa_list: NUMANodeList, score: ScoreStrategyFn,
                             resource_to_weight_map: ResourceToWeightMap) -> int:
    """The lowest non-zero zone score (0 if every zone scores 0).

    A zone scoring 0 cannot hold the request, and the kubelet would not use it.
    """
    min_score = 0
    for numa in numa_list:
        numa_score = score(requested, numa.resources, resource_to_weight_map)
        if min_score == 0 or (numa_score != 0 and numa_score < min_score):
            min_score = numa_score
    return min_score


@ports("pkg/noderesourcetopology/score.go", "getScoringStrategyFunction", 118, 132, repo=SCHEDULER_PLUGINS)
def get_scoring_strategy_function(strategy: str) -> Optional[ScoreStrategyFn]:
    """The per-zone scorer of a strategy; None for LeastNUMANodes (scored apart)."""
    if strategy == apiconfig.MOST_ALLOCATED:
        return most_allocated_score_strategy
    if strategy == apiconfig.LEAST_ALLOCATED:
        return least_allocated_score_strategy
    if strategy == apiconfig.BALANCED_ALLOCATION:
        return balanced_allocation_score_strategy
    if strategy == apiconfig.LEAST_NUMA_NODES:
        return None  # handled down the flow; just not an error
    raise ValueError("illegal scoring strategy found")


@ports("pkg/noderesourcetopology/score.go", "podScopeScore", 134, 144, repo=SCHEDULER_PLUGINS)
def pod_scope_score(pod: Pod, zones: list[Zone], scorer_fn: ScoreStrategyFn,
                    resource_to_weight_map: ResourceToWeightMap) -> tuple[int, Optional[Status]]:
    """Scope ``pod``: the pod's effective request against each zone."""
    resources = get_pod_effective_request(pod)
    allocatable_per_numa = create_numa_node_list(zones)
    final_score = score_for_each_numa_node(resources, allocatable_per_numa, scorer_fn, resource_to_weight_map)
    return final_score, None


@ports("pkg/noderesourcetopology/score.go", "containerScopeScore", 146, 160, repo=SCHEDULER_PLUGINS)
def container_scope_score(pod: Pod, zones: list[Zone], scorer_fn: ScoreStrategyFn,
                          resource_to_weight_map: ResourceToWeightMap) -> tuple[int, Optional[Status]]:
    """Scope ``container``: the mean of every container's score, init containers first."""
    containers = list(pod.spec.init_containers) + list(pod.spec.containers)
    allocatable_per_numa = create_numa_node_list(zones)
    cont_score = [float(score_for_each_numa_node(c.resources.requests, allocatable_per_numa, scorer_fn,
                                                 resource_to_weight_map))
                  for c in containers]
    return go_int64(mean(cont_score)), None


@plumbing("holds the TopologyMatch methods of score.go as one Python mixin")
class TopologyMatchScore:
    """The Score methods of TopologyMatch (plugin.py)."""

    nrt_cache: Any
    score_strategy_type: str
    score_strategy_func: Optional[ScoreStrategyFn]
    resource_to_weight_map: ResourceToWeightMap

    @ports("pkg/noderesourcetopology/score.go", "(*TopologyMatch).Score", 63, 94, repo=SCHEDULER_PLUGINS)
    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        # a non-Guaranteed pod is not NUMA-pinned: every node is a good fit
        if get_pod_qos(pod) != POD_QOS_GUARANTEED:
            return MAX_NODE_SCORE, None

        node_topology, ok = self.nrt_cache.get_cached_nrt_copy(node_name, pod)
        if not ok:
            return 0, None
        if node_topology is None:
            return 0, None

        handler = self.scoring_handler_from_topology_manager_config(
            topology_manager_from_node_resource_topology(node_topology))
        if handler is None:
            return 0, None
        return handler(pod, node_topology.zones)

    @ports("pkg/noderesourcetopology/score.go", "(*TopologyMatch).ScoreExtensions", 96, 98, repo=SCHEDULER_PLUGINS)
    def score_extensions(self) -> None:
        return None

    @ports("pkg/noderesourcetopology/score.go", "(*TopologyMatch).scoringHandlerFromTopologyManagerConfig", 162, 186, repo=SCHEDULER_PLUGINS)
    def scoring_handler_from_topology_manager_config(self, conf: TopologyManager) -> Optional[ScoringFn]:
        if self.score_strategy_type == apiconfig.LEAST_NUMA_NODES:
            if conf.scope == POD_TOPOLOGY_MANAGER_SCOPE:
                return least_numa_pod_scope_score
            if conf.scope == CONTAINER_TOPOLOGY_MANAGER_SCOPE:
                return least_numa_container_scope_score
            return None  # cannot happen
        if conf.policy != SINGLE_NUMA_NODE_TOPOLOGY_MANAGER_POLICY:
            return None
        scorer = self.score_strategy_func
        weights = self.resource_to_weight_map
        if conf.scope == POD_TOPOLOGY_MANAGER_SCOPE:
            return lambda pod, zones: pod_scope_score(pod, zones, scorer, weights)  # type: ignore[arg-type]
        if conf.scope == CONTAINER_TOPOLOGY_MANAGER_SCOPE:
            return lambda pod, zones: container_scope_score(pod, zones, scorer, weights)  # type: ignore[arg-type]
        return None  # cannot happen
