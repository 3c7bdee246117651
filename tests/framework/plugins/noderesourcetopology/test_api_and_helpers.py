"""The NodeResourceTopology type (noderesourcetopology-api v1alpha2: parsing as the CRD schema checks
it, helper/numanode), the NUMA node list built from its zones (pluginhelpers.go), and the kubelet
helpers the plugin calls: QoS class (qos.go), the pod's effective request (pkg/util/resource.go),
the bitmask."""
from __future__ import annotations

import copy

import pytest

from ksched_edu.api.errors import ManifestError
from ksched_edu.api.noderesourcetopology import id_to_name, name_to_id, parse_node_resource_topology
from ksched_edu.api.quantity import Quantity
from ksched_edu.api.types import ObjectMeta, Pod, PodSpec
from ksched_edu.framework.plugins.noderesourcetopology.bitmask import new_bit_mask, new_empty_bit_mask
from ksched_edu.framework.plugins.noderesourcetopology.pluginhelpers import create_numa_node_list
from ksched_edu.framework.plugins.noderesourcetopology.qos import compute_pod_qos
from ksched_edu.framework.plugins.noderesourcetopology.util import get_pod_effective_request

from .objects import CPU, MEMORY, container, res_info, rl, zone

RAW = {
    "apiVersion": "topology.node.k8s.io/v1alpha2",
    "kind": "NodeResourceTopology",
    "metadata": {"name": "n1"},
    "topologyPolicies": ["SingleNUMANodePodLevel"],
    "zones": [
        {"name": "node-0", "type": "Node",
         "costs": [{"name": "node-0", "value": 10}, {"name": "node-1", "value": 20}],
         "resources": [{"name": "cpu", "capacity": "8", "allocatable": "8", "available": "5"},
                       {"name": "memory", "capacity": "16Gi", "allocatable": "16Gi", "available": 17179869184}]},
        {"name": "socket-0", "type": "Socket"},
    ],
    "attributes": [{"name": "topologyManagerPolicy", "value": "single-numa-node"}],
}


def test_parse_node_resource_topology():
    nrt = parse_node_resource_topology(copy.deepcopy(RAW))
    assert nrt.kind == "NodeResourceTopology" and nrt.metadata.name == "n1"
    assert nrt.topology_policies == ["SingleNUMANodePodLevel"]
    z0 = nrt.zones[0]
    assert (z0.name, z0.type, [(c.name, c.value) for c in z0.costs]) == ("node-0", "Node", [("node-0", 10),
                                                                                          ("node-1", 20)])
    assert [(r.name, r.capacity, r.available) for r in z0.resources] == [
        ("cpu", Quantity("8"), Quantity("5")), ("memory", Quantity("16Gi"), Quantity("16Gi"))]
    assert nrt.zones[1].resources == [] and nrt.zones[1].type == "Socket"
    assert [(a.name, a.value) for a in nrt.attributes] == [("topologyManagerPolicy", "single-numa-node")]


def _without(path: list, key: str) -> dict:
    raw = copy.deepcopy(RAW)
    target = raw
    for step in path:
        target = target[step]
    del target[key]
    return raw


@pytest.mark.parametrize("raw,want", [
    (_without([], "zones"), "NodeResourceTopology n1: zones: Required value"),
    (_without(["zones", 0], "type"), "NodeResourceTopology n1: zones[0].type: Required value"),
    (_without(["zones", 0, "resources", 1], "available"),
     "NodeResourceTopology n1: zones[0].resources[1].available: Required value"),
    (_without(["zones", 0, "costs", 0], "value"), "NodeResourceTopology n1: zones[0].costs[0].value: Required value"),
    (_without(["attributes", 0], "value"), "NodeResourceTopology n1: attributes[0].value: Required value"),
    (_without([], "metadata"), "NodeResourceTopology: metadata.name: Required value"),
    ({**RAW, "zones": {"node-0": {}}}, "NodeResourceTopology n1: zones: expected a list, got a map"),
    ({**RAW, "zones": [{"name": "node-0", "type": "Node", "resources": [
        {"name": "cpu", "capacity": "8", "allocatable": "8", "available": "lots"}]}]},
     "NodeResourceTopology n1: zones[0].resources[0].available: quantities must match"),
    ({**RAW, "zones": [{"name": "node-0", "type": "Node", "costs": [{"name": "node-0", "value": "10"}]}]},
     "NodeResourceTopology n1: zones[0].costs[0].value: expected an integer, got string"),
], ids=["no zones", "zone without type", "resource without available", "cost without value",
        "attribute without value", "no name", "zones not a list", "bad quantity", "cost not an integer"])
def test_parse_refuses_what_the_crd_refuses(raw, want):
    with pytest.raises(ManifestError) as err:
        parse_node_resource_topology(raw, "cluster.yaml")
    assert str(err.value).startswith("cluster.yaml: " + want)


@pytest.mark.parametrize("name,want", [("node-0", 0), ("node-12", 12), ("node-+3", 3)])
def test_name_to_id(name, want):
    assert name_to_id(name) == want
    assert id_to_name(want) == f"node-{want}"


@pytest.mark.parametrize("name", ["socket-0", "node-", "node-x", "node--1", "node- 1", "node-1_0"])
def test_name_to_id_refuses(name):
    with pytest.raises(ValueError):
        name_to_id(name)


def test_create_numa_node_list():
    zones = [
        zone("node-1", res_info(CPU, "8", "2"), costs={"node-0": 21, "node-1": 10, "socket-0": 1}),
        zone("socket-0", res_info(CPU, "16", "16")),
        zone("node-0", res_info(CPU, "8", "6"), res_info(MEMORY, "4Gi", "1Gi"), costs={"node-0": 10, "node-1": 21}),
        zone("node-75", res_info(CPU, "8", "8")),
        zone("node-bad", res_info(CPU, "8", "8")),
    ]
    zones[1].type = "Socket"
    nodes = create_numa_node_list(zones)
    assert [(n.numa_id, n.resources, n.costs) for n in nodes] == [
        (1, rl({CPU: "2"}), {0: 21, 1: 10}),
        (0, rl({CPU: "6", MEMORY: "1Gi"}), {0: 10, 1: 21}),
    ]


def _pod(init=(), containers=()):
    return Pod(metadata=ObjectMeta(), spec=PodSpec(init_containers=list(init), containers=list(containers)))


@pytest.mark.parametrize("pod,want", [
    (_pod(), "BestEffort"),
    (_pod(containers=[container({CPU: "1", MEMORY: "1Gi"})]), "Guaranteed"),
    (_pod(containers=[container({CPU: "1"})]), "Burstable"),
    (_pod(containers=[container({CPU: "1", MEMORY: "1Gi"}, {CPU: "2", MEMORY: "1Gi"})]), "Burstable"),
    (_pod(init=[container({CPU: "1"})], containers=[container({CPU: "1", MEMORY: "1Gi"})]), "Burstable"),
    (_pod(containers=[container({"vendor/nic": "1"})]), "BestEffort"),
    (_pod(containers=[container({CPU: "1", MEMORY: "1Gi", "vendor/nic": "2"})]), "Guaranteed"),
], ids=["no requests", "requests equal limits", "cpu only", "requests below limits",
        "init container without memory limit", "devices only", "guaranteed with devices"])
def test_compute_pod_qos(pod, want):
    assert compute_pod_qos(pod) == want


def test_get_pod_effective_request():
    pod = _pod(init=[container({CPU: "6", MEMORY: "1Gi"}), container({CPU: "2", MEMORY: "4Gi"})],
               containers=[container({CPU: "2", MEMORY: "1Gi"}), container({CPU: "1", MEMORY: "1Gi", "x/y": "1"})])
    assert get_pod_effective_request(pod) == rl({CPU: "6", MEMORY: "4Gi", "x/y": "1"})


def test_bitmask():
    mask = new_empty_bit_mask()
    mask.fill()
    mask.and_(new_bit_mask(3, 1, 7))
    assert (mask.get_bits(), mask.count(), str(mask)) == ([1, 3, 7], 3, "10001010")
    assert new_bit_mask(0, 1).is_narrower_than(new_bit_mask(0, 1, 2))
    assert new_bit_mask(0, 1).is_narrower_than(new_bit_mask(0, 2))
    with pytest.raises(ValueError):
        new_bit_mask(64)
