"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/least_numa.go (commit 37b7888a).

The LeastNUMANodes scoring strategy: prefer the node where the pod (scope
``pod``) or its neediest container (scope ``container``, containers placed in
the Topology Manager's order, each taking its share) needs the fewest NUMA
nodes, with a bonus when the chosen NUMA nodes are as close to each other as
any set of that size can be. Each NUMA node needed costs 100/8 = 12 points;
the bonus is half of that.

Deviations:
- Average distances are rounded to float32 as upstream computes them, so
  that ties between combinations fall the same way.
"""
from __future__ import annotations

from typing import Optional

from ....anchors import SCHEDULER_PLUGINS, ports
from ....api.noderesourcetopology import Zone
from ....api.quantity import Quantity
from ....api.types import Pod, ResourceList
from ...interface import MAX_NODE_SCORE, MIN_NODE_SCORE, Status
from .bitmask import BitMask, new_empty_bit_mask
from .filter import HIGHEST_NUMA_ID
from .gonum_stat import combinations, float32
from .numaresources import NUMANodeList, is_resource_set_suitable, subtract_from_numas
from .pluginhelpers import create_numa_node_list, only_non_numa_resources
from .qos import get_pod_qos
from .util import get_pod_effective_request

# The largest ACPI SLIT distance, meaning unknown.
MAX_DISTANCE_VALUE = 255


@ports("pkg/noderesourcetopology/least_numa.go", "leastNUMAContainerScopeScore", 37, 76, repo=SCHEDULER_PLUGINS)
def least_numa_container_scope_score(pod: Pod, zones: list[Zone]) -> tuple[int, Optional[Status]]:
    nodes = create_numa_node_list(zones)
    qos = get_pod_qos(pod)

    max_numa_nodes_count = 0
    all_containers_min_avg_distance = True
    # the Topology Manager asks for hints container by container, init containers first
    for container in list(pod.spec.init_containers) + list(pod.spec.containers):
        requests = container.resources.requests
        if only_non_numa_resources(nodes, requests):
            continue
        numa_nodes, is_min_avg_distance = numa_nodes_required(qos, nodes, requests)
        if numa_nodes is None:
            # the resource filters ran before, so this should not happen
            return MIN_NODE_SCORE, None
        if not is_min_avg_distance:
            all_containers_min_avg_distance = False
        max_numa_nodes_count = max(max_numa_nodes_count, numa_nodes.count())
        # the next containers must not count on what this one took
        subtract_from_numas(requests, nodes, *numa_nodes.get_bits())

    if max_numa_nodes_count == 0:
        return MAX_NODE_SCORE, None
    return normalize_score(max_numa_nodes_count, all_containers_min_avg_distance), None


@ports("pkg/noderesourcetopology/least_numa.go", "leastNUMAPodScopeScore", 78, 97, repo=SCHEDULER_PLUGINS)
def least_numa_pod_scope_score(pod: Pod, zones: list[Zone]) -> tuple[int, Optional[Status]]:
    nodes = create_numa_node_list(zones)
    qos = get_pod_qos(pod)

    resources = get_pod_effective_request(pod)
    if only_non_numa_resources(nodes, resources):
        return MAX_NODE_SCORE, None

    numa_nodes, is_min_avg_distance = numa_nodes_required(qos, nodes, resources)
    if numa_nodes is None:
        # the resource filters ran before, so this should not happen
        return MIN_NODE_SCORE, None
    return normalize_score(numa_nodes.count(), is_min_avg_distance), None


@ports("pkg/noderesourcetopology/least_numa.go", "normalizeScore", 99, 108, repo=SCHEDULER_PLUGINS)
def normalize_score(numa_nodes_count: int, is_min_avg_distance: bool) -> int:
    numa_node_score = MAX_NODE_SCORE // HIGHEST_NUMA_ID
    score = MAX_NODE_SCORE - numa_nodes_count * numa_node_score
    if is_min_avg_distance:
        # the NUMA nodes are as close as they can be: a little more favourable
        return score + numa_node_score // 2
    return score


@ports("pkg/noderesourcetopology/least_numa.go", "minAvgDistanceInCombinations", 110, 122, repo=SCHEDULER_PLUGINS)
def min_avg_distance_in_combinations(numa_nodes: NUMANodeList, numa_nodes_combination: list[list[int]]) -> float:
    min_distance = float(MAX_DISTANCE_VALUE)
    for combination in numa_nodes_combination:
        avg_distance = nodes_avg_distance(numa_nodes, *combination)
        if avg_distance < min_distance:
            min_distance = avg_distance
    return min_distance


@ports("pkg/noderesourcetopology/least_numa.go", "nodesAvgDistance", 124, 146, repo=SCHEDULER_PLUGINS)
def nodes_avg_distance(numa_nodes: NUMANodeList, *nodes: int) -> float:
    """The mean distance over every ordered pair (self pairs included) of the nodes at these positions."""
    if not nodes:
        return float(MAX_DISTANCE_VALUE)
    accu = 0
    for node1 in nodes:
        for node2 in nodes:
            # a missing cost counts as the unknown distance
            accu += numa_nodes[node1].costs.get(numa_nodes[node2].numa_id, MAX_DISTANCE_VALUE)
    return float32(float32(accu) / float32(len(nodes) * len(nodes)))


@ports("pkg/noderesourcetopology/least_numa.go", "combineResources", 148, 162, repo=SCHEDULER_PLUGINS)
def combine_resources(numa_nodes: NUMANodeList, combination: list[int]) -> ResourceList:
    resources: ResourceList = {}
    for node_index in combination:
        for resource, quantity in numa_nodes[node_index].resources.items():
            resources[resource] = resources[resource] + quantity if resource in resources else quantity
    return resources


@ports("pkg/noderesourcetopology/least_numa.go", "numaNodesRequired", 167, 182, repo=SCHEDULER_PLUGINS)
def numa_nodes_required(qos: str, numa_nodes: NUMANodeList, resources: ResourceList) -> tuple[Optional[BitMask], bool]:
    """The fewest NUMA nodes (as a mask of ids) that hold ``resources``, or None; and whether
    they are at the smallest average distance a set of that size can have."""
    for bitmask_len in range(1, len(numa_nodes) + 1):
        numa_nodes_combination = combinations(len(numa_nodes), bitmask_len)
        suitable_combination, is_min_distance = find_suitable_combination(qos, numa_nodes, resources,
                                                                          numa_nodes_combination)
        if suitable_combination is not None:
            bm = new_empty_bit_mask()
            for node_idx in suitable_combination:
                bm.add(numa_nodes[node_idx].numa_id)
            return bm, is_min_distance
    return None, False


@ports("pkg/noderesourcetopology/least_numa.go", "findSuitableCombination", 187, 216, repo=SCHEDULER_PLUGINS)
def find_suitable_combination(qos: str, numa_nodes: NUMANodeList, resources: ResourceList,
                              numa_nodes_combination: list[list[int]]) -> tuple[Optional[list[int]], bool]:
    """The closest combination that holds ``resources`` (the first at the minimal distance wins)."""
    min_avg_distance = min_avg_distance_in_combinations(numa_nodes, numa_nodes_combination)
    min_distance_combination: Optional[list[int]] = None
    min_distance = 256.0  # above any distance
    for combination in numa_nodes_combination:
        if not is_valid_combine_resources(numa_nodes, resources, combination):
            continue
        combination_resources = combine_resources(numa_nodes, combination)
        if check_resources_fit(qos, resources, combination_resources):
            distance = nodes_avg_distance(numa_nodes, *combination)
            if distance == min_avg_distance:
                return combination, True
            # combinations come in increasing order: the first of equal distance stays
            if distance < min_distance:
                min_distance = distance
                min_distance_combination = combination
    return min_distance_combination, False


@ports("pkg/noderesourcetopology/least_numa.go", "checkResourcesFit", 218, 230, repo=SCHEDULER_PLUGINS)
def check_resources_fit(qos: str, resources: ResourceList, combination_resources: ResourceList) -> bool:
    for resource, quantity in resources.items():
        if quantity.is_zero():
            continue
        if not is_resource_set_suitable(qos, resource, quantity,
                                        combination_resources.get(resource, Quantity.zero())):
            return False
    return True


@ports("pkg/noderesourcetopology/least_numa.go", "isValidCombineResources", 232, 241, repo=SCHEDULER_PLUGINS)
def is_valid_combine_resources(numa_nodes: NUMANodeList, resources: ResourceList, combination: list[int]) -> bool:
    """Every NUMA node of the combination reports every requested resource."""
    for node_index in combination:
        for resource_name in resources:
            if resource_name not in numa_nodes[node_index].resources:
                return False
    return True
