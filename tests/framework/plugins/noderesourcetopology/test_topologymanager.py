"""Mirrors nodeconfig/topologymanager_test.go (scheduler-plugins, commit 37b7888a):
TestConfigFromAttributes, TestConfigFromPolicies, TestConfigFromNRT."""
from __future__ import annotations

import pytest

from ksched_edu.api import noderesourcetopology as nrtapi
from ksched_edu.api.noderesourcetopology import AttributeInfo, NodeResourceTopology
from ksched_edu.api.types import ObjectMeta
from ksched_edu.framework.plugins.noderesourcetopology.nodeconfig.topologymanager import (
    TopologyManager, topology_manager_defaults, topology_manager_from_node_resource_topology)

SCOPE, POLICY = "topologyManagerScope", "topologyManagerPolicy"


def tm(policy: str = "", scope: str = "") -> TopologyManager:
    return TopologyManager(scope=scope, policy=policy)


@pytest.mark.parametrize("attrs,want", [
    (None, tm()),
    ([], tm()),
    ([AttributeInfo(SCOPE, "pod")], tm(scope="pod")),
    ([AttributeInfo(POLICY, "restricted")], tm(policy="restricted")),
    ([AttributeInfo(POLICY, "restricted"), AttributeInfo(SCOPE, "container")], tm("restricted", "container")),
    ([AttributeInfo(SCOPE, "pod"), AttributeInfo(POLICY, "single-numa-node")], tm("single-numa-node", "pod")),
    ([AttributeInfo(SCOPE, "Pod"), AttributeInfo(POLICY, "single-numa-node")], tm("single-numa-node")),
    ([AttributeInfo(SCOPE, "Container"), AttributeInfo(POLICY, "restricted")], tm("restricted")),
], ids=["nil", "empty", "no-policy", "no-scope", "complete-case-1", "complete-case-2", "error-case-1",
        "error-case-2"])
def test_config_from_attributes(attrs, want):
    got = tm()
    got.update_from_attributes(attrs or [])
    assert got == want


@pytest.mark.parametrize("policies,want", [
    (None, tm()),
    ([], tm()),
    ([nrtapi.SINGLE_NUMA_NODE_POD_LEVEL], tm("single-numa-node", "pod")),
    ([nrtapi.SINGLE_NUMA_NODE_CONTAINER_LEVEL], tm("single-numa-node", "container")),
    ([nrtapi.RESTRICTED_CONTAINER_LEVEL], tm("restricted", "container")),
    ([nrtapi.RESTRICTED_CONTAINER_LEVEL, nrtapi.SINGLE_NUMA_NODE_POD_LEVEL], tm("restricted", "container")),
    (["foobar"], tm()),
], ids=["nil", "empty", "single-numa-pod", "single-numa-container", "restricted-container", "skip-policies",
        "error-unknown-policy"])
def test_config_from_policies(policies, want):
    got = tm()
    got.update_from_policies("", policies or [])
    assert got == want


def nrt(policies=(), attributes=()) -> NodeResourceTopology:
    return NodeResourceTopology(metadata=ObjectMeta(), topology_policies=list(policies), attributes=list(attributes))


@pytest.mark.parametrize("obj,want", [
    (nrt(), topology_manager_defaults()),
    (nrt([nrtapi.BEST_EFFORT_POD_LEVEL]), tm("best-effort", "pod")),
    (nrt([nrtapi.RESTRICTED_CONTAINER_LEVEL, nrtapi.BEST_EFFORT_POD_LEVEL]), tm("restricted", "container")),
    (nrt(attributes=[AttributeInfo(POLICY, "restricted")]), tm("restricted", "container")),
    (nrt([nrtapi.BEST_EFFORT_POD_LEVEL], [AttributeInfo(SCOPE, "container")]), tm("best-effort", "container")),
    (nrt([nrtapi.BEST_EFFORT_POD_LEVEL], [AttributeInfo(SCOPE, "container"), AttributeInfo(POLICY, "restricted")]),
     tm("restricted", "container")),
], ids=["nil", "policies-single", "policies-ignore-after-first", "attributes-partial-policy-only",
        "attributes-overrides-policy-partial", "attributes-overrides-policy-full"])
def test_config_from_nrt(obj, want):
    assert topology_manager_from_node_resource_topology(obj) == want


def test_defaults_and_string():
    assert topology_manager_defaults() == tm("none", "container")
    assert str(tm("single-numa-node", "pod")) == 'policy="single-numa-node" scope="pod"'
