"""Tests for ksched_edu.api.defaults: the API server's v1 defaults and the
Priority admission plugin (mirrors pkg/apis/core/v1/defaults_test.go and
plugin/pkg/admission/priority/admission_test.go, in the parts the scheduler reads)."""
from __future__ import annotations

from typing import Optional

import pytest

from ksched_edu.api.defaults import (
    admit_pod_priority,
    apply_defaults,
    object_uid,
    set_defaults_node,
    set_defaults_pod,
)
from ksched_edu.api.errors import ManifestError
from ksched_edu.api.loader import load_objects
from ksched_edu.api.quantity import Quantity
from ksched_edu.api.types import (
    Cluster,
    ObjectMeta,
    PodDisruptionBudget,
    PriorityClass,
    Service,
    Toleration,
)
from tests.builders import make_container, make_node, make_pod


def q(s: str) -> Quantity:
    return Quantity(s)


# --- SetDefaults_Pod: requests from limits -------------------------------------------------

REQUESTS_FROM_LIMITS = [
    # (name, requests, limits, defaulted requests)
    ("limits only: requests copied", {}, {"cpu": "1", "memory": "1Gi"}, {"cpu": "1", "memory": "1Gi"}),
    ("request given: kept", {"cpu": "500m"}, {"cpu": "1", "memory": "1Gi"}, {"cpu": "500m", "memory": "1Gi"}),
    ("no limits: nothing copied", {"cpu": "500m"}, {}, {"cpu": "500m"}),
    ("extended resource copied", {}, {"nvidia.com/gpu": "2"}, {"nvidia.com/gpu": "2"}),
]


@pytest.mark.parametrize("requests,limits,expected", [c[1:] for c in REQUESTS_FROM_LIMITS],
                         ids=[c[0] for c in REQUESTS_FROM_LIMITS])
@pytest.mark.parametrize("init", [False, True], ids=["containers", "initContainers"])
def test_requests_default_to_limits(requests: dict, limits: dict, expected: dict, init: bool) -> None:
    c = make_container().name("c").obj()
    c.resources.requests = {k: q(v) for k, v in requests.items()}
    c.resources.limits = {k: q(v) for k, v in limits.items()}
    pod = make_pod().name("p").obj()
    if init:
        pod.spec.init_containers = [c]
        pod.spec.containers = [make_container().name("main").obj()]
    else:
        pod.spec.containers = [c]
    set_defaults_pod(pod)
    assert c.resources.requests == {k: q(v) for k, v in expected.items()}
    assert c.resources.limits == {k: q(v) for k, v in limits.items()}


def test_pod_spec_defaults() -> None:
    pod = make_pod().name("p").req(cpu="1").obj()
    pod.spec.tolerations = [Toleration(key="k", operator="", value="v")]
    set_defaults_pod(pod)
    assert pod.metadata.namespace == "default"
    assert pod.spec.scheduler_name == "default-scheduler"
    assert pod.spec.termination_grace_period_seconds == 30
    assert pod.spec.tolerations[0].operator == "Equal"  # an empty operator means Equal


def test_pod_spec_defaults_keep_given_values() -> None:
    pod = (make_pod().name("p").namespace("prod").scheduler_name("mine").zero_termination_grace_period()
           .toleration("k").obj())
    set_defaults_pod(pod)
    assert (pod.metadata.namespace, pod.spec.scheduler_name) == ("prod", "mine")
    assert pod.spec.termination_grace_period_seconds == 0
    assert pod.spec.tolerations[0].operator == "Exists"


# --- SetDefaults_NodeStatus -----------------------------------------------------------------


def test_node_allocatable_defaults_to_capacity() -> None:
    node = make_node().name("n1").capacity(cpu="4", memory="8Gi").obj()
    node.status.allocatable = {}
    set_defaults_node(node)
    assert node.status.allocatable == {"pods": q("32"), "cpu": q("4"), "memory": q("8Gi")}
    assert node.metadata.namespace == ""  # nodes live in no namespace


def test_node_allocatable_given_is_kept() -> None:
    node = make_node().name("n1").capacity(cpu="4").obj()
    node.status.allocatable = {"cpu": q("3500m")}
    set_defaults_node(node)
    assert node.status.allocatable == {"cpu": q("3500m")}


# --- Priority admission ------------------------------------------------------------------------


def pc(name: str, value: int, global_default: bool = False, policy: Optional[str] = None) -> PriorityClass:
    return PriorityClass(ObjectMeta(name=name), value=value, global_default=global_default,
                         preemption_policy=policy)


LOW = pc("low", 10)
HIGH_NEVER = pc("high-never", 1000, policy="Never")
DEFAULT_100 = pc("default-100", 100, global_default=True)
DEFAULT_50 = pc("default-50", 50, global_default=True)

ADMISSION = [
    # (name, classes, class name on the pod, priority on the pod, priority, class name, policy)
    ("pod without priority class and no default class gets 0", [LOW], "", None,
     0, "", "PreemptLowerPriority"),
    ("pod without priority class gets the global default", [LOW, DEFAULT_100], "", None,
     100, "default-100", "PreemptLowerPriority"),
    ("two global defaults: the lowest value wins", [DEFAULT_100, DEFAULT_50], "", None,
     50, "default-50", "PreemptLowerPriority"),
    ("pod with priority class", [LOW, DEFAULT_100], "low", None, 10, "low", "PreemptLowerPriority"),
    ("pod with a never-preempting priority class", [HIGH_NEVER], "high-never", None,
     1000, "high-never", "Never"),
    ("pod with system-node-critical", [], "system-node-critical", None,
     2000001000, "system-node-critical", "PreemptLowerPriority"),
    ("pod with system-cluster-critical", [], "system-cluster-critical", None,
     2000000000, "system-cluster-critical", "PreemptLowerPriority"),
    ("pod with priority given is left as it is", [DEFAULT_100, HIGH_NEVER], "high-never", 7,
     7, "high-never", "PreemptLowerPriority"),
]


@pytest.mark.parametrize("classes,class_name,given,priority,want_class,policy",
                         [c[1:] for c in ADMISSION], ids=[c[0] for c in ADMISSION])
def test_priority_admission(classes: list, class_name: str, given: Optional[int], priority: int,
                            want_class: str, policy: str) -> None:
    pod = make_pod().name("p").req(cpu="1").priority_class_name(class_name).obj()
    pod.spec.priority = given
    cluster = Cluster(pods=[pod], priority_classes=[
        PriorityClass(ObjectMeta(name=c.metadata.name), c.value, c.global_default, c.preemption_policy)
        for c in classes])
    apply_defaults(cluster)
    assert pod.spec.priority == priority
    assert pod.spec.priority_class_name == want_class
    assert pod.spec.preemption_policy == policy


def test_unknown_priority_class_is_refused() -> None:
    pod = make_pod().name("p").namespace("ns").priority_class_name("gold").obj()
    with pytest.raises(ManifestError) as err:
        admit_pod_priority(pod, [LOW])
    assert str(err.value) == "Pod ns/p: spec.priorityClassName: no PriorityClass with name gold was found"


def test_pod_policy_that_disagrees_with_its_class_is_refused() -> None:
    pod = make_pod().name("p").namespace("ns").priority_class_name("high-never").obj()
    pod.spec.preemption_policy = "PreemptLowerPriority"
    with pytest.raises(ManifestError) as err:
        admit_pod_priority(pod, [HIGH_NEVER])
    assert str(err.value) == (
        "Pod ns/p: spec.preemptionPolicy: the string value of PreemptionPolicy (PreemptLowerPriority) "
        "must not be provided in pod spec; priority admission controller computed Never "
        "from the given PriorityClass name")


def test_priority_class_preemption_policy_defaults() -> None:
    cluster = Cluster(priority_classes=[pc("a", 1), pc("b", 2, policy="Never")])
    apply_defaults(cluster)
    assert [c.preemption_policy for c in cluster.priority_classes] == ["PreemptLowerPriority", "Never"]


# --- metadata, and what stays nil ----------------------------------------------------------------


def test_namespaces_and_uids() -> None:
    cluster = Cluster(
        nodes=[make_node().name("n1").obj()],
        pods=[make_pod().name("p").req(cpu="1").obj(), make_pod().name("q").uid("given").req(cpu="1").obj()],
        services=[Service(ObjectMeta(name="svc"))],
        pdbs=[PodDisruptionBudget(ObjectMeta(name="pdb", namespace="prod"))],
        priority_classes=[pc("low", 10)])
    apply_defaults(cluster)
    assert [p.metadata.namespace for p in cluster.pods] == ["default", "default"]
    assert cluster.services[0].metadata.namespace == "default"
    assert cluster.pdbs[0].metadata.namespace == "prod"
    assert cluster.nodes[0].metadata.namespace == "" and cluster.priority_classes[0].metadata.namespace == ""
    assert cluster.pods[0].metadata.uid == object_uid("Pod", "default", "p")
    assert cluster.pods[1].metadata.uid == "given"
    assert cluster.nodes[0].metadata.uid == object_uid("Node", "", "n1")
    assert len({cluster.pods[0].metadata.uid, cluster.nodes[0].metadata.uid,
                cluster.services[0].metadata.uid}) == 3


def test_defaulting_is_deterministic_and_idempotent() -> None:
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
            "  - {name: c, resources: {limits: {cpu: '1'}}}\n")
    a, b = Cluster(pods=load_objects(text)), Cluster(pods=load_objects(text))
    apply_defaults(a)
    apply_defaults(b)
    assert a == b
    apply_defaults(a)
    assert a == b


def test_spread_and_pdb_fields_stay_nil() -> None:
    text = """
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c}]
  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb}
spec: {}
"""
    pod, pdb = load_objects(text)
    cluster = Cluster(pods=[pod], pdbs=[pdb])
    apply_defaults(cluster)
    tsc = pod.spec.topology_spread_constraints[0]
    assert (tsc.node_affinity_policy, tsc.node_taints_policy, tsc.min_domains, tsc.label_selector) == (
        None, None, None, None)
    assert (pdb.spec.selector, pdb.spec.min_available, pdb.spec.max_unavailable) == (None, None, None)
    assert pdb.status.disruptions_allowed == 0
