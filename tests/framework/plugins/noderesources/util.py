"""Shared fixtures for the noderesources tests (after noderesources/test_util.go and the
helpers at the top of fit_test.go, v1.30)."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Optional

from ksched_edu.api.quantity import Quantity
from ksched_edu.api.types import Container, Node, NodeStatus, ObjectMeta, Pod, PodSpec, ResourceRequirements
from ksched_edu.config.types_pluginargs import (LEAST_ALLOCATED, NodeResourcesBalancedAllocationArgs,
                                                NodeResourcesFitArgs, RequestedToCapacityRatioParam, ResourceSpec,
                                                ScoringStrategy, UtilizationShapePoint)

EXTENDED_RESOURCE_A = "example.com/aaa"
EXTENDED_RESOURCE_B = "example.com/bbb"
KUBERNETES_IO_RESOURCE_A = "kubernetes.io/something"
KUBERNETES_IO_RESOURCE_B = "subdomain.kubernetes.io/something"
HUGE_PAGE_RESOURCE_A = "hugepages-2Mi"

DEFAULT_RESOURCES = [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]
EXTENDED_RES = "abc.com/xyz"
EXTENDED_RESOURCE_SET = [ResourceSpec("cpu", 1), ResourceSpec("memory", 1), ResourceSpec(EXTENDED_RES, 1)]


def features(sidecars: bool = True, in_place: bool = False) -> SimpleNamespace:
    """Upstream plfeature.Features for the two gates NodeResourcesFit reads."""
    return SimpleNamespace(enable_sidecar_containers=sidecars, enable_in_place_pod_vertical_scaling=in_place)


def fit_args(strategy: str = LEAST_ALLOCATED, resources: Optional[list] = None, shape: Optional[list] = None,
             ignored_resources: tuple = (), ignored_resource_groups: tuple = ()) -> NodeResourcesFitArgs:
    rtcr = None
    if shape is not None:
        rtcr = RequestedToCapacityRatioParam([UtilizationShapePoint(u, s) for u, s in shape])
    return NodeResourcesFitArgs(
        ignored_resources=list(ignored_resources), ignored_resource_groups=list(ignored_resource_groups),
        scoring_strategy=ScoringStrategy(type=strategy,
                                         resources=list(DEFAULT_RESOURCES if resources is None else resources),
                                         requested_to_capacity_ratio=rtcr))


def balanced_args(resources: Optional[list] = None) -> NodeResourcesBalancedAllocationArgs:
    return NodeResourcesBalancedAllocationArgs(resources=list(DEFAULT_RESOURCES if resources is None else resources))


def usage(milli_cpu: int = 0, memory: int = 0, ephemeral_storage: int = 0, pods: int = 0,
          scalar: Optional[dict] = None) -> dict:
    """A framework.Resource as the requests of one container, zeros included."""
    rl = {"cpu": Quantity.from_milli(milli_cpu), "memory": Quantity.from_int(memory),
          "pods": Quantity.from_int(pods), "ephemeral-storage": Quantity.from_int(ephemeral_storage)}
    for name, v in (scalar or {}).items():
        rl[name] = Quantity.from_int(v)
    return rl


def new_resource_pod(*usages: dict) -> Pod:
    return Pod(metadata=ObjectMeta(), spec=PodSpec(containers=[
        Container(name=f"c{i}", resources=ResourceRequirements(requests=u)) for i, u in enumerate(usages)]))


def new_resource_init_pod(pod: Pod, *usages: dict) -> Pod:
    pod.spec.init_containers = new_resource_pod(*usages).spec.containers
    return pod


def new_resource_overhead_pod(pod: Pod, overhead: dict) -> Pod:
    pod.spec.overhead = {k: Quantity(v) for k, v in overhead.items()}
    return pod


def make_resources(milli_cpu: int, memory: int, pods: int, extended_a: int, storage: int, huge_page_a: int) -> dict:
    return {"cpu": Quantity.from_milli(milli_cpu), "memory": Quantity.from_int(memory),
            "pods": Quantity.from_int(pods), EXTENDED_RESOURCE_A: Quantity.from_int(extended_a),
            "ephemeral-storage": Quantity.from_int(storage), HUGE_PAGE_RESOURCE_A: Quantity.from_int(huge_page_a)}


def make_node(name: str, milli_cpu: int, memory: int, extended: Optional[dict] = None) -> Node:
    """noderesources/test_util.go makeNode: cpu in millicores, no pods capacity."""
    rl = {res: Quantity.from_int(q) for res, q in (extended or {}).items()}
    rl["cpu"] = Quantity.from_milli(milli_cpu)
    rl["memory"] = Quantity.from_int(memory)
    return Node(metadata=ObjectMeta(name=name), status=NodeStatus(capacity=dict(rl), allocatable=dict(rl)))
