"""Mirrors numaresources_test.go (scheduler-plugins, commit 37b7888a): TestIsHostLevelResource,
TestIsNUMAAffineResource, TestSubtractResourcesFromNUMANodeList, TestSubstractNUMA; and
pluginhelpers_test.go's TestOnlyNonNUMAResources, exclusive_test.go's TestIncludeNonNative and
TestAreExclusiveForPod."""
from __future__ import annotations

import pytest

from ksched_edu.api.types import ObjectMeta, Pod, PodSpec
from ksched_edu.framework.plugins.noderesourcetopology.numaresources import (
    NUMANode, ResourceAccountingError, deep_copy_numa_node_list, equal_resource_list, is_host_level_resource,
    is_numa_affine_resource, subtract_from_numas, subtract_resources_from_numa_node_list)
from ksched_edu.framework.plugins.noderesourcetopology.pluginhelpers import only_non_numa_resources
from ksched_edu.framework.plugins.noderesourcetopology.qos import POD_QOS_BURSTABLE, POD_QOS_GUARANTEED
from ksched_edu.framework.plugins.noderesourcetopology.resourcerequests.exclusive import (are_exclusive_for_pod,
                                                                                         include_non_native)

from .objects import CPU, MEMORY, container, rl

RESOURCES = ["cpu", "memory", "hugepages-1Gi", "storage", "ephemeral-storage", "vendor.io/fastest-nic",
             "awesome.com/gpu-for-ai"]


@pytest.mark.parametrize("resource,want", list(zip(RESOURCES, [False, False, False, True, True, True, True])),
                         ids=RESOURCES)
def test_is_host_level_resource(resource, want):
    assert is_host_level_resource(resource) == want


@pytest.mark.parametrize("resource,want", list(zip(RESOURCES, [True, True, True, False, False, False, False])),
                         ids=RESOURCES)
def test_is_numa_affine_resource(resource, want):
    assert is_numa_affine_resource(resource) == want


GU, BU = POD_QOS_GUARANTEED, POD_QOS_BURSTABLE
GPU, NIC = "vendor.io/gpu", "vendor.io/nic"

# (name, NUMA 0 resources, numa id, qos, container request, want NUMA 0 resources, want error)
SUBTRACT_CASES = [
    ("empty from empty", {}, 0, GU, {}, {}, None),
    ("inconsistent numaID", {}, 2, GU, {}, {}, None),
    ("empty from minimal", {CPU: "2", MEMORY: "4Gi"}, 0, GU, {}, {CPU: "2", MEMORY: "4Gi"}, None),
    ("remove core resources (GU qos)", {CPU: "8", MEMORY: "16Gi"}, 0, GU, {CPU: "2", MEMORY: "4Gi"},
     {CPU: "6", MEMORY: "12Gi"}, None),
    ("remove only devices resources (BU qos)", {CPU: "8", MEMORY: "16Gi", GPU: "4"}, 0, BU,
     {CPU: "2", MEMORY: "4Gi", GPU: "2"}, {CPU: "8", MEMORY: "16Gi", GPU: "2"}, None),
    ("skip hostlevel resources (GU qos)", {CPU: "8", MEMORY: "16Gi", NIC: "4"}, 0, GU,
     {CPU: "6", MEMORY: "12Gi", NIC: "2", "ephemeral-storage": "1Gi"}, {CPU: "2", MEMORY: "4Gi", NIC: "2"}, None),
    ("remove excessive core resources (GU qos)", {CPU: "8", MEMORY: "16Gi"}, 0, GU, {CPU: "10", MEMORY: "20Gi"},
     None, 'resource "cpu" request 10 exceeds NUMA 0 availability 8'),
    ("require missing resources (GU qos, device)", {CPU: "8", MEMORY: "16Gi"}, 0, GU,
     {CPU: "4", MEMORY: "8Gi", GPU: "2"}, {CPU: "4", MEMORY: "8Gi"}, None),
    ("require missing resources (GU qos, core)", {CPU: "8", MEMORY: "16Gi"}, 0, GU,
     {CPU: "4", MEMORY: "8Gi", "hugepages-1Gi": "2Gi"}, {CPU: "4", MEMORY: "8Gi"}, None),
]


@pytest.mark.parametrize("have,numa_id,qos,requests,want,want_err", [c[1:] for c in SUBTRACT_CASES],
                         ids=[c[0] for c in SUBTRACT_CASES])
def test_subtract_resources_from_numa_node_list(have, numa_id, qos, requests, want, want_err):
    original = [NUMANode(0, rl(have))]
    nodes = deep_copy_numa_node_list(original)
    if want_err is not None:
        with pytest.raises(ResourceAccountingError) as err:
            subtract_resources_from_numa_node_list(nodes, numa_id, qos, rl(requests))
        assert str(err.value) == want_err
        return
    subtract_resources_from_numa_node_list(nodes, numa_id, qos, rl(requests))
    assert nodes[0].equal(NUMANode(0, rl(want)))
    assert original[0].equal(NUMANode(0, rl(have)))  # the copy was changed, not the original


@pytest.mark.parametrize("numa_nodes,nodes,requests,want", [
    ([{CPU: "8", MEMORY: "10Gi"}], [0], {CPU: "2", MEMORY: "2Gi"}, [{CPU: "6", MEMORY: "8Gi"}]),
    ([{CPU: "8", MEMORY: "10Gi"}, {CPU: "8", MEMORY: "10Gi"}], [0, 1], {CPU: "12", MEMORY: "2Gi"},
     [{CPU: "0", MEMORY: "8Gi"}, {CPU: "4", MEMORY: "10Gi"}]),
], ids=["simple", "substract resources from 2 NUMA nodes"])
def test_substract_numa(numa_nodes, nodes, requests, want):
    numa = [NUMANode(i, rl(r)) for i, r in enumerate(numa_nodes)]
    subtract_from_numas(rl(requests), numa, *nodes)
    for got, expected in zip(numa, want):
        assert equal_resource_list(got.resources, rl(expected))


ONLY_NON_NUMA_NODES = [NUMANode(0, rl({CPU: "8", MEMORY: "10Gi", "gpu": "1"})),
                       NUMANode(1, rl({CPU: "8", MEMORY: "10Gi", "nic": "1"}))]


@pytest.mark.parametrize("resources,want", [
    ({"resource1": "1", "resource2": "1"}, True),
    ({CPU: "1"}, False),
    ({CPU: "1", MEMORY: "1"}, False),
    ({"gpu": "1"}, False),
    ({"nic": "1"}, False),
    ({"nic": "1", "gpu": "1"}, False),
], ids=["all resources missing in NUMANodeList", "resource is present in both NUMA nodes",
        "more than resource is present in both NUMA nodes", "resource is present only in NUMA node 0",
        "resource is present only in NUMA node 1", "two distinct resources from different NUMA nodes"])
def test_only_non_numa_resources(resources, want):
    assert only_non_numa_resources(ONLY_NON_NUMA_NODES, rl(resources)) == want


FPGA = "veryfast.io/fpga"


def _pod(init=(), containers=()):
    return Pod(metadata=ObjectMeta(name="pod", namespace="default"),
               spec=PodSpec(init_containers=[container(r, name="cnt") for r in init],
                            containers=[container(r, name="cnt") for r in containers]))


# (name, pod, want non-native, want exclusive)
EXCLUSIVE_CASES = [
    ("no containers", _pod(), False, False),
    ("single-container-gu-no-devs", _pod(containers=[{CPU: "4", MEMORY: "2Gi"}]), False, True),
    ("single-initcontainer-gu-no-devs", _pod(init=[{CPU: "4", MEMORY: "2Gi"}]), False, True),
    ("single-container-devs-only", _pod(containers=[{FPGA: "1"}]), True, True),
    ("single-initcontainer-devs-only", _pod(init=[{FPGA: "1"}]), True, True),
    ("single-container-gu-core-and-devs", _pod(containers=[{CPU: "8", MEMORY: "16Gi", FPGA: "1"}]), True, True),
    ("single-container-nongu-cpus-and-devs", _pod(containers=[{CPU: "8", FPGA: "1"}]), True, True),
    ("single-container-nongu-cpus-only", _pod(containers=[{CPU: "8"}]), False, False),
]


@pytest.mark.parametrize("pod,want_non_native,want_exclusive", [c[1:] for c in EXCLUSIVE_CASES],
                         ids=[c[0] for c in EXCLUSIVE_CASES])
def test_include_non_native_and_are_exclusive_for_pod(pod, want_non_native, want_exclusive):
    assert include_non_native(pod) == want_non_native
    assert are_exclusive_for_pod(pod) == want_exclusive
