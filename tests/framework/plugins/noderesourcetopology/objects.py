"""Shared fixtures for the noderesourcetopology tests, after objects.go and the helpers of
filter_test.go and score_test.go (scheduler-plugins, commit 37b7888a)."""
from __future__ import annotations

from typing import Mapping, Optional

from ksched_edu.api.noderesourcetopology import CostInfo, NodeResourceTopology, ResourceInfo, Zone
from ksched_edu.api.quantity import Quantity
from ksched_edu.api.types import Container, Node, NodeStatus, ObjectMeta, Pod, PodSpec, ResourceRequirements
from ksched_edu.framework.plugins.noderesourcetopology.cache.passthrough import new_passthrough
from ksched_edu.framework.plugins.noderesourcetopology.plugin import TopologyMatch
from ksched_edu.framework.plugins.noderesourcetopology.score import ResourceToWeightMap
from ksched_edu.framework.types import NodeInfo
from tests.fakes import FakeObjectLister

CPU = "cpu"
MEMORY = "memory"
EXTENDED = "namespace/extended"
HUGEPAGES_2MI = "hugepages-2Mi"
NIC_RESOURCE_NAME = "vendor/nic1"
NOT_EXISTING_NIC_RESOURCE_NAME = "vendor/notexistingnic"
CONTAINER_NAME = "container1"
NIC_RESOURCE_NAME_NO_NUMA = "vendor.com/old-nic-model"
GPU = "gpu"

Res = Mapping[str, str]


def res_info(name: str, capacity: str, available: str) -> ResourceInfo:
    """Upstream MakeTopologyResInfo: allocatable is left at zero."""
    return ResourceInfo(name=name, capacity=Quantity(capacity), available=Quantity(available))


def zone(name: str, *resources: ResourceInfo, costs: Optional[Mapping[str, int]] = None) -> Zone:
    return Zone(name=name, type="Node", resources=list(resources),
                costs=[CostInfo(n, v) for n, v in (costs or {}).items()])


def make_nrt(name: str, zones: list[Zone], policies: Optional[list[str]] = None) -> NodeResourceTopology:
    return NodeResourceTopology(metadata=ObjectMeta(name=name), topology_policies=list(policies or []),
                                zones=zones)


def resource_list_from_zones(zones: list[Zone]) -> dict[str, Quantity]:
    """Upstream makeResourceListFromZones: what the zones have available, summed."""
    result: dict[str, Quantity] = {}
    for z in zones:
        for r in z.resources:
            result[r.name] = r.available + result[r.name] if r.name in result else r.available
    return result


def node_from_nrt(nrt: NodeResourceTopology, extra: Optional[Res] = None) -> Node:
    """A node whose capacity and allocatable are its zones' sums (plus ``extra``)."""
    res = resource_list_from_zones(nrt.zones)
    res.update({k: Quantity(v) for k, v in (extra or {}).items()})
    return Node(metadata=ObjectMeta(name=nrt.metadata.name), status=NodeStatus(capacity=res, allocatable=dict(res)))


def node_info_of(node: Node) -> NodeInfo:
    ni = NodeInfo()
    ni.set_node(node)
    return ni


def rl(res: Res) -> dict[str, Quantity]:
    return {k: Quantity(v) for k, v in res.items()}


def container(res: Res, limits: Optional[Res] = None, name: str = "") -> Container:
    """Requests ``res``; limits ``limits`` (default: the same)."""
    return Container(name=name, resources=ResourceRequirements(
        requests=rl(res), limits=rl(res if limits is None else limits)))


def pod_by_resource_list(res: Res) -> Pod:
    """Upstream makePodByResourceList: one container, requests = limits."""
    return Pod(metadata=ObjectMeta(), spec=PodSpec(containers=[container(res)]))


def pod_by_resource_lists(*res: Res) -> Pod:
    return Pod(metadata=ObjectMeta(), spec=PodSpec(containers=[container(r) for r in res]))


def pod_with_req(res: Res) -> Pod:
    """Upstream makePodWithReqByResourceList: requests only."""
    c = Container(name="", resources=ResourceRequirements(requests=rl(res)))
    return Pod(metadata=ObjectMeta(), spec=PodSpec(containers=[c]))


def pod_with_req_and_limit(req: Res, lim: Res) -> Pod:
    return Pod(metadata=ObjectMeta(), spec=PodSpec(containers=[container(req, lim)]))


def pod_with_many_containers(res: Res, count: int) -> Pod:
    return Pod(metadata=ObjectMeta(), spec=PodSpec(containers=[container(res) for _ in range(count)]))


def pod_multi(name: str, init: list[Res], containers: list[Res]) -> Pod:
    """Upstream makePod + withMultiInitContainers + withMultiContainers (names cnt-1, cnt-2, ...)."""
    return Pod(metadata=ObjectMeta(name=name), spec=PodSpec(
        init_containers=[container(r, name=f"cnt-{i + 1}") for i, r in enumerate(init)],
        containers=[container(r, name=f"cnt-{i + 1}") for i, r in enumerate(containers)]))


def topology_match(nrts: list[NodeResourceTopology], strategy=None, strategy_type: str = "",
                   weights: Optional[Mapping[str, int]] = None) -> TopologyMatch:
    """A plugin over a passthrough cache that reads ``nrts`` (upstream: a fake client holding them)."""
    return TopologyMatch(resource_to_weight_map=ResourceToWeightMap(weights or {}),
                         nrt_cache=new_passthrough(FakeObjectLister(nrts)),
                         score_strategy_func=strategy, score_strategy_type=strategy_type)
