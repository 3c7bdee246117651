"""Mirrors filter_test.go (scheduler-plugins, commit 37b7888a): TestNodeResourceTopology,
TestNodeResourceTopologyMultiContainerPodScope, TestNodeResourceTopologyMultiContainerContainerScope;
plus the Filter's early exits."""
from __future__ import annotations

import pytest

from ksched_edu.api.noderesourcetopology import (SINGLE_NUMA_NODE_CONTAINER_LEVEL, SINGLE_NUMA_NODE_POD_LEVEL,
                                                 AttributeInfo)
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.noderesourcetopology.filter import resources_available_in_any_numa_nodes
from ksched_edu.framework.plugins.noderesourcetopology.numaresources import NUMANode
from ksched_edu.framework.types import NodeInfo

from .objects import (CONTAINER_NAME, CPU, EXTENDED, HUGEPAGES_2MI, MEMORY, NIC_RESOURCE_NAME,
                      NIC_RESOURCE_NAME_NO_NUMA, NOT_EXISTING_NIC_RESOURCE_NAME, make_nrt, node_from_nrt, node_info_of,
                      pod_by_resource_list, pod_multi, pod_with_many_containers, pod_with_req, pod_with_req_and_limit,
                      res_info, rl, topology_match, zone)

NIC = NIC_RESOURCE_NAME

NODE_TOPOLOGIES = [
    make_nrt("node1", [
        zone("node-0", res_info(CPU, "20", "4"), res_info(MEMORY, "8Gi", "8Gi"), res_info(NIC, "30", "10")),
        zone("node-1", res_info(CPU, "30", "8"), res_info(MEMORY, "8Gi", "8Gi"), res_info(NIC, "30", "10")),
    ], [SINGLE_NUMA_NODE_CONTAINER_LEVEL]),
    make_nrt("node2", [
        zone("node-0", res_info(CPU, "20", "2"), res_info(MEMORY, "8Gi", "4Gi"),
             res_info(HUGEPAGES_2MI, "128Mi", "128Mi"), res_info(NIC, "30", "5")),
        zone("node-1", res_info(CPU, "30", "4"), res_info(MEMORY, "8Gi", "4Gi"),
             res_info(HUGEPAGES_2MI, "128Mi", "128Mi"), res_info(NIC, "30", "2")),
    ], [SINGLE_NUMA_NODE_CONTAINER_LEVEL]),
    make_nrt("node3", [
        zone("node-0", res_info(CPU, "20", "2"), res_info(MEMORY, "8Gi", "4Gi"), res_info(NIC, "30", "5")),
        zone("node-1", res_info(CPU, "30", "4"), res_info(MEMORY, "8Gi", "4Gi"), res_info(NIC, "30", "2")),
    ], [SINGLE_NUMA_NODE_POD_LEVEL]),
    make_nrt("badly_formed_node", [
        zone("node-0", res_info(CPU, "20", "2"), res_info(MEMORY, "8Gi", "4Gi"), res_info(NIC, "30", "5")),
        zone("node-75", res_info(CPU, "30", "4"), res_info(MEMORY, "8Gi", "4Gi"), res_info(NIC, "30", "2")),
    ], [SINGLE_NUMA_NODE_POD_LEVEL]),
    make_nrt("extended", [
        zone("node-0", res_info(CPU, "20", "4"), res_info(MEMORY, "8Gi", "8Gi"), res_info(NIC, "30", "10")),
        zone("node-1", res_info(CPU, "30", "8"), res_info(MEMORY, "8Gi", "8Gi"), res_info(NIC, "30", "10")),
    ], [SINGLE_NUMA_NODE_CONTAINER_LEVEL]),
]
NODE_EXTRA = {1: {NIC_RESOURCE_NAME_NO_NUMA: "4"}, 4: {EXTENDED: "1"}}
NODES = [node_from_nrt(nrt, NODE_EXTRA.get(i)) for i, nrt in enumerate(NODE_TOPOLOGIES)]

ALIGN_POD = (Code.Unschedulable, ["cannot align pod"])
ALIGN_CONTAINER = (Code.Unschedulable, ["cannot align container"])
ALIGN_INIT = (Code.Unschedulable, ["cannot align init container"])
FIT = None

# (name, pod, node index, want (code, reasons) or None)
NODE_RESOURCE_TOPOLOGY_CASES = [
    ("Guaranteed QoS, pod with extended resource fit",
     pod_by_resource_list({CPU: "2", MEMORY: "2Gi", EXTENDED: "1", NIC: "3"}), 4, FIT),
    ("Guaranteed QoS, pod with extended resource no devices; pod fit",
     pod_by_resource_list({CPU: "2", MEMORY: "2Gi", EXTENDED: "1"}), 4, FIT),
    ("Best effort QoS, pod fit", pod_with_req({}), 0, FIT),
    ("Best effort QoS requesting devices, Pod Scope Topology policy; pod fit",
     pod_by_resource_list({NIC: "5"}), 2, FIT),
    ("Best effort QoS requesting devices, Pod Scope Topology policy; pod doesn't fit",
     pod_by_resource_list({NIC: "20"}), 2, ALIGN_POD),
    ("Best effort QoS requesting devices, Container Scope Topology policy; pod fit",
     pod_by_resource_list({NIC: "5"}), 1, FIT),
    ("Best effort QoS requesting devices, Container Scope Topology policy; pod doesn't fit",
     pod_by_resource_list({NIC: "20"}), 0, ALIGN_CONTAINER),
    ("Best effort QoS requesting devices and extended resources, Container Scope Topology policy; pod doesn't fit",
     pod_by_resource_list({EXTENDED: "1", NIC: "10"}), 4, FIT),
    ("Best effort QoS, requesting CPU, memory (enough on NUMA) and devices (not enough), Container Scope "
     "Topology policy; pod doesn't fit",
     pod_with_req_and_limit({CPU: "3", MEMORY: "3Gi", NIC: "11"}, {CPU: "4", MEMORY: "4Gi", NIC: "11"}), 1,
     ALIGN_CONTAINER),
    ("Best effort QoS, requesting CPU, memory (enough on NUMA) and devices (not enough), Pod Scope Topology "
     "policy; pod doesn't fit",
     pod_with_req_and_limit({CPU: "1", MEMORY: "1Gi", NIC: "6"}, {CPU: "2", MEMORY: "2Gi", NIC: "6"}), 2,
     ALIGN_POD),
    ("Best effort QoS requesting CPU, memory (enough on NUMA) and devices, Pod Scope Topology policy; pod fit",
     pod_with_req_and_limit({CPU: "1", MEMORY: "1Gi", NIC: "5"}, {CPU: "2", MEMORY: "2Gi", NIC: "5"}), 2, FIT),
    ("Best effort QoS requesting CPU, memory (not enough on NUMA) and devices, Pod Scope Topology policy; pod fit",
     pod_with_req_and_limit({CPU: "19", MEMORY: "5Gi", NIC: "5"}, {CPU: "20", MEMORY: "6Gi", NIC: "5"}), 2, FIT),
    ("Best effort QoS requesting CPU, memory (enough on NUMA) and devices, Container Scope Topology policy; pod fit",
     pod_with_req_and_limit({CPU: "3", MEMORY: "3Gi", NIC: "5"}, {CPU: "4", MEMORY: "4Gi", NIC: "5"}), 1, FIT),
    ("Best effort QoS requesting CPU, memory (not enough on NUMA) and devices, Container Scope Topology policy; "
     "pod fit",
     pod_with_req_and_limit({CPU: "5", MEMORY: "5Gi", NIC: "5"}, {CPU: "6", MEMORY: "6Gi", NIC: "5"}), 1, FIT),
    ("Guaranteed QoS, minimal, pod fit", pod_by_resource_list({CPU: "2", MEMORY: "2Gi"}), 0, FIT),
    ("Guaranteed QoS, minimal, saturating zone, pod fit", pod_by_resource_list({CPU: "8", MEMORY: "8Gi"}), 0, FIT),
    ("Guaranteed QoS, zero quantity of unavailable resource, pod fit",
     pod_by_resource_list({CPU: "2", MEMORY: "2Gi", HUGEPAGES_2MI: "0", NIC: "3"}), 0, FIT),
    ("Guaranteed QoS, pod fit", pod_by_resource_list({CPU: "2", MEMORY: "2Gi", NIC: "3"}), 1, FIT),
    ("Guaranteed QoS, hugepages, pod fit",
     pod_by_resource_list({CPU: "2", MEMORY: "2Gi", HUGEPAGES_2MI: "64Mi", NIC: "3"}), 1, FIT),
    ("Burstable QoS, pod fit", pod_by_resource_list({CPU: "4", NIC: "3"}), 1, FIT),
    ("Burstable QoS, requesting CPU and devices (not enough), Container Scope Topology policy; pod doesn't fit",
     pod_by_resource_list({CPU: "4", NIC: "11"}), 1, ALIGN_CONTAINER),
    ("Burstable QoS, requesting CPU and devices (not enough), Pod Scope Topology policy; pod doesn't fit",
     pod_by_resource_list({CPU: "2", NIC: "6"}), 2, ALIGN_POD),
    ("Burstable QoS requesting CPU (enough on NUMA) and devices, Pod Scope Topology policy; pod fit",
     pod_by_resource_list({CPU: "2", NIC: "5"}), 2, FIT),
    ("BurstableQoS requesting CPU (not enough on NUMA) and devices, Pod Scope Topology policy; pod fit",
     pod_by_resource_list({CPU: "20", NIC: "5"}), 2, FIT),
    ("Burstable QoS requesting CPU (enough on NUMA) and devices, Container Scope Topology policy; pod fit",
     pod_by_resource_list({CPU: "2", NIC: "5"}), 1, FIT),
    ("Burstable QoS requesting CPU (not enough on NUMA) and devices, Container Scope Topology policy; pod fit",
     pod_by_resource_list({CPU: "4", NIC: "5"}), 1, FIT),
    ("Burstable QoS, requesting memory (enough on NUMA) and devices (not enough), Container Scope Topology "
     "policy; pod doesn't fit",
     pod_by_resource_list({MEMORY: "2Gi", NIC: "11"}), 1, ALIGN_CONTAINER),
    ("Burstable QoS, requesting memory (enough on NUMA) and devices (not enough), Pod Scope Topology policy; "
     "pod doesn't fit",
     pod_by_resource_list({MEMORY: "2Gi", NIC: "6"}), 2, ALIGN_POD),
    ("Burstable QoS requesting memory (enough on NUMA) and devices, Pod Scope Topology policy; pod fit",
     pod_by_resource_list({MEMORY: "2Gi", NIC: "5"}), 2, FIT),
    ("Burstable QoS requesting memory (not enough on NUMA) and devices, Pod Scope Topology policy; pod fit",
     pod_by_resource_list({MEMORY: "5Gi", NIC: "5"}), 2, FIT),
    ("Burstable QoS requesting memory (enough on NUMA) and devices, Container Scope Topology policy; pod fit",
     pod_by_resource_list({MEMORY: "4Gi", NIC: "5"}), 1, FIT),
    ("Burstable QoS requesting memory (not enough on NUMA) and devices, Container Scope Topology policy; pod fit",
     pod_by_resource_list({MEMORY: "5Gi", NIC: "5"}), 1, FIT),
    ("Burstable QoS, requesting CPU, memory (enough on NUMA) and devices (not enough), Container Scope Topology "
     "policy; pod doesn't fit",
     pod_with_req({CPU: "4", MEMORY: "4Gi", NIC: "11"}), 1, ALIGN_CONTAINER),
    ("Burstable QoS, requesting CPU, memory (enough on NUMA) and devices (not enough), Pod Scope Topology policy; "
     "pod doesn't fit",
     pod_with_req({CPU: "2", MEMORY: "2Gi", NIC: "6"}), 2, ALIGN_POD),
    ("Burstable QoS requesting CPU, memory (enough on NUMA) and devices, Pod Scope Topology policy; pod fit",
     pod_with_req({CPU: "2", MEMORY: "2Gi", NIC: "5"}), 2, FIT),
    ("Burstable QoS requesting CPU, memory (not enough on NUMA) and devices, Pod Scope Topology policy; pod fit",
     pod_with_req({CPU: "20", MEMORY: "5Gi", NIC: "5"}), 2, FIT),
    ("Burstable QoS requesting CPU, memory (enough on NUMA) and devices, Container Scope Topology policy; pod fit",
     pod_with_req({CPU: "4", MEMORY: "4Gi", NIC: "5"}), 1, FIT),
    ("Burstable QoS requesting CPU, memory (not enough on NUMA) and devices, Container Scope Topology policy; "
     "pod fit",
     pod_with_req({CPU: "5", MEMORY: "5Gi", NIC: "5"}), 1, FIT),
    ("Burstable QoS with extended resources, pod fit",
     pod_by_resource_list({EXTENDED: "1", CPU: "4", NIC: "3"}), 4, FIT),
    ("Guaranteed QoS, hugepages, pod doesn't fit",
     pod_by_resource_list({CPU: "2", MEMORY: "2Gi", HUGEPAGES_2MI: "256Mi", NIC: "3"}), 1, ALIGN_CONTAINER),
    ("Guaranteed QoS, pod doesn't fit", pod_by_resource_list({CPU: "9", MEMORY: "1Gi", NIC: "3"}), 0,
     ALIGN_CONTAINER),
    ("Guaranteed QoS, pod fit (zero request of an unknown device)",
     pod_by_resource_list({CPU: "2", MEMORY: "1Gi", NOT_EXISTING_NIC_RESOURCE_NAME: "0"}), 0, FIT),
    ("Guaranteed QoS Topology Scope, pod doesn't fit",
     pod_with_many_containers({CPU: "3", MEMORY: "1Gi", NOT_EXISTING_NIC_RESOURCE_NAME: "0"}, 3), 2, ALIGN_POD),
    ("Guaranteed QoS Topology Scope, minimal, pod fit", pod_by_resource_list({CPU: "1", MEMORY: "1Gi"}), 2, FIT),
    ("Guaranteed QoS TopologyScope, minimal, saturating zone, pod fit",
     pod_by_resource_list({CPU: "2", MEMORY: "4Gi"}), 3, FIT),
    ("Guaranteed QoS Topology Scope, pod fit",
     pod_with_many_containers({CPU: "1", MEMORY: "1Gi", NOT_EXISTING_NIC_RESOURCE_NAME: "0"}, 3), 2, FIT),
    ("Guaranteed QoS Topology Scope, invalid node",
     pod_with_many_containers({CPU: "1", MEMORY: "1Gi", NOT_EXISTING_NIC_RESOURCE_NAME: "0"}, 3), 3, ALIGN_POD),
    ("Guaranteed QoS, hugepages, non-NUMA affine NIC, pod fit",
     pod_by_resource_list({CPU: "2", MEMORY: "2Gi", HUGEPAGES_2MI: "64Mi", NIC_RESOURCE_NAME_NO_NUMA: "3"}), 1, FIT),
    ("Guaranteed QoS, ephemeral-storage (non-NUMA), pod fit",
     pod_by_resource_list({CPU: "2", MEMORY: "2Gi", "ephemeral-storage": "100Mi"}), 1, FIT),
]


def check(status, want):
    if want is None:
        assert status is None
    else:
        assert status is not None
        assert (status.code, status.reasons) == want


@pytest.mark.parametrize("pod,node_idx,want", [c[1:] for c in NODE_RESOURCE_TOPOLOGY_CASES],
                         ids=[c[0] for c in NODE_RESOURCE_TOPOLOGY_CASES])
def test_node_resource_topology(pod, node_idx, want):
    tm = topology_match(NODE_TOPOLOGIES)
    if pod.spec.containers:
        pod.spec.containers[0].name = CONTAINER_NAME
    check(tm.filter(CycleState(), pod, node_info_of(NODES[node_idx])), want)


HOST0 = make_nrt("host0", [
    zone("node-0", res_info(CPU, "32", "30"), res_info(MEMORY, "64Gi", "60Gi"),
         res_info(HUGEPAGES_2MI, "384Mi", "384Mi"), res_info(NIC, "16", "16")),
    zone("node-1", res_info(CPU, "32", "32"), res_info(MEMORY, "64Gi", "64Gi"),
         res_info(HUGEPAGES_2MI, "512Mi", "512Mi"), res_info(NIC, "32", "32")),
], [SINGLE_NUMA_NODE_POD_LEVEL])

MULTI_CONTAINER_POD_SCOPE_CASES = [
    ("gu pod fits only on a numa node",
     [{CPU: "2", MEMORY: "2Gi"}, {CPU: "4", MEMORY: "8Gi"},
      {CPU: "26", MEMORY: "26Gi", HUGEPAGES_2MI: "512Mi", NIC: "26"}], FIT),
    ("gu pod does not fit - not enough CPUs available on any NUMA node",
     [{CPU: "2", MEMORY: "2Gi"}, {CPU: "8", MEMORY: "8Gi"},
      {CPU: "26", MEMORY: "26Gi", HUGEPAGES_2MI: "52Mi", NIC: "26"}], ALIGN_POD),
    ("gu pod does not fit - not enough memory available on any NUMA node",
     [{CPU: "2", MEMORY: "4Gi"}, {CPU: "4", MEMORY: "16Gi"},
      {CPU: "26", MEMORY: "52Gi", HUGEPAGES_2MI: "52Mi", NIC: "26"}], ALIGN_POD),
    ("gu pod does not fit - not enough Hugepages available on any NUMA node",
     [{CPU: "2", MEMORY: "2Gi"}, {CPU: "4", MEMORY: "8Gi"},
      {CPU: "26", MEMORY: "32Gi", HUGEPAGES_2MI: "3328Mi", NIC: "26"}], ALIGN_POD),
    ("gu pod does not fit - not enough devices available on any NUMA node",
     [{CPU: "2", MEMORY: "2Gi"}, {CPU: "4", MEMORY: "8Gi"},
      {CPU: "26", MEMORY: "26Gi", HUGEPAGES_2MI: "52Mi", NIC: "52"}], ALIGN_POD),
]


@pytest.mark.parametrize("containers,want", [c[1:] for c in MULTI_CONTAINER_POD_SCOPE_CASES],
                         ids=[c[0] for c in MULTI_CONTAINER_POD_SCOPE_CASES])
def test_node_resource_topology_multi_container_pod_scope(containers, want):
    tm = topology_match([HOST0])
    pod = pod_multi("testpod", [], containers)
    pod.spec.containers[0].name = CONTAINER_NAME
    check(tm.filter(CycleState(), pod, node_info_of(node_from_nrt(HOST0))), want)


HOST0_CONTAINER_SCOPE = make_nrt("host0", HOST0.zones, [SINGLE_NUMA_NODE_CONTAINER_LEVEL])

# (description, init container requests, container requests, want)
MULTI_CONTAINER_CONTAINER_SCOPE_CASES = [
    ("[1][tier3] single container with good allocation - fit", [], [{CPU: "2", MEMORY: "4G"}], FIT),
    ("[2][tier3] single container with cpu over allocation - fit", [], [{CPU: "40", MEMORY: "4G"}], ALIGN_CONTAINER),
    ("[2][tier3] single container with memory over allocation - fit", [], [{CPU: "2", MEMORY: "100G"}],
     ALIGN_CONTAINER),
    ("[2][tier3] single container with cpu and memory over allocation - fit", [], [{CPU: "40", MEMORY: "100G"}],
     ALIGN_CONTAINER),
    ("[4][tier2] multi-containers with good allocation, spread across NUMAs - fit", [],
     [{CPU: "20", MEMORY: "40G"}, {CPU: "20", MEMORY: "40G"}], FIT),
    ("[4][tier1] multi containers with good devices and hugepages allocation, spread across NUMAs - fit", [],
     [{CPU: "2", MEMORY: "6G", HUGEPAGES_2MI: "500Mi", NIC: "16"},
      {CPU: "2", MEMORY: "6G", HUGEPAGES_2MI: "50Mi", NIC: "8"}], FIT),
    ("[7][tier1] init container with cpu over allocation, multi-containers with good allocation - not fit",
     [{CPU: "40", MEMORY: "40G"}], [{CPU: "1", MEMORY: "4G"}, {CPU: "1", MEMORY: "4G"}], ALIGN_INIT),
    ("[7][tier1] init container with memory over allocation, multi-containers with good allocation - not fit",
     [{CPU: "4", MEMORY: "70G"}], [{CPU: "1", MEMORY: "4G"}, {CPU: "1", MEMORY: "4G"}], ALIGN_INIT),
    ("[11][tier1] init container with good allocation, multi-containers spread across NUMAs - fit",
     [{CPU: "4", MEMORY: "10G"}], [{CPU: "20", MEMORY: "40G"}, {CPU: "20", MEMORY: "40G"}], FIT),
    ("[17][tier1] multi init containers with good allocation, multi-containers spread across NUMAs - fit",
     [{CPU: "4", MEMORY: "10G"}] * 3,
     [{CPU: "20", MEMORY: "40G"}, {CPU: "20", MEMORY: "40G"}, {CPU: "6", MEMORY: "10G"}], FIT),
    ("[24][tier1] multi init containers with good allocation, multi-containers with over cpu allocation - not fit",
     [{CPU: "30", MEMORY: "10G"}] * 2,
     [{CPU: "20", MEMORY: "40G"}, {CPU: "20", MEMORY: "40G"}, {CPU: "20", MEMORY: "6G"}], ALIGN_CONTAINER),
    ("[27][tier1] multi init containers with good allocation, container with cpu over allocation - not fit",
     [{CPU: "30", MEMORY: "10G"}] * 2, [{CPU: "35", MEMORY: "40G"}], ALIGN_CONTAINER),
    ("[28][tier1] multi init containers with good allocation, multi-containers with good allocation - fit",
     [{CPU: "30", MEMORY: "10G"}] * 2, [{CPU: "20", MEMORY: "40G"}, {CPU: "20", MEMORY: "40G"}], FIT),
    ("[29][tier1] multi init containers when sum of their cpus requests (together) is over allocatable, "
     "multi-containers with good allocation - fit",
     [{CPU: "30", MEMORY: "10G"}] * 3,
     [{CPU: "20", MEMORY: "40G"}, {CPU: "20", MEMORY: "40G"}, {CPU: "2", MEMORY: "6G"}], FIT),
    ("[29][tier1] multi init containers when sum of their memory requests (together) is over allocatable, "
     "multi-containers with good allocation - fit",
     [{CPU: "3", MEMORY: "50G"}] * 3,
     [{CPU: "20", MEMORY: "40G"}, {CPU: "20", MEMORY: "40G"}, {CPU: "2", MEMORY: "6G"}], FIT),
    ("[32][tier1] multi init containers with over cpu allocation - not fit",
     [{CPU: "40", MEMORY: "50G"}, {CPU: "3", MEMORY: "50G"}, {CPU: "3", MEMORY: "50G"}],
     [{CPU: "20", MEMORY: "40G"}, {CPU: "2", MEMORY: "6G"}], ALIGN_INIT),
    ("[32][tier1] multi init containers with over memory allocation - not fit",
     [{CPU: "20", MEMORY: "50G"}, {CPU: "40", MEMORY: "50G"}, {CPU: "3", MEMORY: "50G"}],
     [{CPU: "20", MEMORY: "40G"}, {CPU: "2", MEMORY: "6G"}], ALIGN_INIT),
]


@pytest.mark.parametrize("init,containers,want", [c[1:] for c in MULTI_CONTAINER_CONTAINER_SCOPE_CASES],
                         ids=[c[0] for c in MULTI_CONTAINER_CONTAINER_SCOPE_CASES])
def test_node_resource_topology_multi_container_container_scope(init, containers, want):
    tm = topology_match([HOST0_CONTAINER_SCOPE])
    pod = pod_multi("testpod", init, containers)
    check(tm.filter(CycleState(), pod, node_info_of(node_from_nrt(HOST0_CONTAINER_SCOPE))), want)


# --- the Filter's own exits ------------------------------------------------------------------


def test_filter_without_node_is_an_error():
    tm = topology_match(NODE_TOPOLOGIES)
    check(tm.filter(CycleState(), pod_by_resource_list({CPU: "1", MEMORY: "1Gi"}), NodeInfo()),
          (Code.Error, ["node not found"]))


def test_filter_node_without_nrt_fits():
    tm = topology_match([])
    check(tm.filter(CycleState(), pod_by_resource_list({CPU: "99", MEMORY: "1Gi"}), node_info_of(NODES[0])), FIT)


@pytest.mark.parametrize("attributes,want", [
    ([AttributeInfo("topologyManagerPolicy", "restricted")], FIT),
    ([AttributeInfo("topologyManagerPolicy", "best-effort")], FIT),
    ([AttributeInfo("topologyManagerPolicy", "single-numa-node")], ALIGN_CONTAINER),
    ([AttributeInfo("topologyManagerPolicy", "single-numa-node"), AttributeInfo("topologyManagerScope", "pod")],
     ALIGN_POD),
], ids=["restricted is not checked", "best-effort is not checked", "single-numa-node container scope by default",
        "single-numa-node pod scope"])
def test_filter_policy_from_attributes(attributes, want):
    nrt = make_nrt("node1", NODE_TOPOLOGIES[0].zones)
    nrt.attributes = attributes
    tm = topology_match([nrt])
    check(tm.filter(CycleState(), pod_by_resource_list({CPU: "9", MEMORY: "1Gi"}), node_info_of(NODES[0])), want)


def test_resources_available_picks_lowest_numa_id():
    nodes = [NUMANode(0, rl({CPU: "1", MEMORY: "1Gi"})), NUMANode(1, rl({CPU: "4", MEMORY: "4Gi"})),
             NUMANode(2, rl({CPU: "4", MEMORY: "4Gi"}))]
    info = node_info_of(node_from_nrt(make_nrt("n", [zone("node-0", res_info(CPU, "9", "9"),
                                                          res_info(MEMORY, "9Gi", "9Gi"))])))
    assert resources_available_in_any_numa_nodes(nodes, rl({CPU: "2", MEMORY: "2Gi"}), "Guaranteed", info) == (1, True)
    assert resources_available_in_any_numa_nodes(nodes, rl({CPU: "5"}), "Guaranteed", info) == (8, False)
    # a resource the node does not have at all: early verdict
    assert resources_available_in_any_numa_nodes(nodes, rl({"vendor/x": "1"}), "Guaranteed", info) == (8, False)
    # nothing requested: every NUMA node qualifies, the lowest (0) is chosen
    assert resources_available_in_any_numa_nodes(nodes, {}, "Guaranteed", info) == (0, True)
