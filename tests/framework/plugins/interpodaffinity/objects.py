"""Objects shared by the InterPodAffinity tests (what filtering_test.go
and scoring_test.go share: createPodWithAffinityTerms, the team namespaces)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ksched_edu.api.types import (Affinity, LabelSelector, LabelSelectorRequirement, Node, ObjectMeta, Pod,
                                  PodAffinity, PodAffinityTerm, PodSpec, WeightedPodAffinityTerm)
from ksched_edu.framework.interface import Code, Status
from ksched_edu.framework.plugins.interpodaffinity import new
from tests.fakes import FakeHandle


@dataclass
class Namespace:
    """A v1 Namespace, as the object lister serves it."""

    metadata: ObjectMeta
    kind = "Namespace"


def namespace(name: str, labels: Optional[dict[str, str]] = None) -> Namespace:
    return Namespace(ObjectMeta(name=name, labels=dict(labels or {})))


NS_LABEL_T1 = {"team": "team1"}
NS_LABEL_T2 = {"team": "team2"}
NAMESPACES = [
    namespace("subteam1.team1", NS_LABEL_T1),
    namespace("subteam2.team1", NS_LABEL_T1),
    namespace("subteam1.team2", NS_LABEL_T2),
    namespace("subteam2.team2", NS_LABEL_T2),
]


def req(key: str, op: str, *values: str) -> LabelSelectorRequirement:
    return LabelSelectorRequirement(key, op, list(values))


def term(topology_key: str, *reqs: LabelSelectorRequirement, namespaces: tuple[str, ...] = (),
         ns_selector: Optional[LabelSelector] = None) -> PodAffinityTerm:
    return PodAffinityTerm(topology_key=topology_key, label_selector=LabelSelector(match_expressions=list(reqs)),
                           namespaces=list(namespaces), namespace_selector=ns_selector)


def weighted(weight: int, t: PodAffinityTerm) -> WeightedPodAffinityTerm:
    return WeightedPodAffinityTerm(weight=weight, pod_affinity_term=t)


def pod(name: str = "", namespace: str = "", node: str = "", labels: Optional[dict[str, str]] = None,
        affinity: Optional[Affinity] = None) -> Pod:
    return Pod(ObjectMeta(name=name, namespace=namespace, labels=dict(labels or {})),
               PodSpec(node_name=node, affinity=affinity))


def create_pod_with_affinity_terms(namespace: str, node_name: str, labels: dict[str, str],
                                   affinity: Optional[list[PodAffinityTerm]],
                                   anti_affinity: Optional[list[PodAffinityTerm]], name: str = "") -> Pod:
    """Upstream createPodWithAffinityTerms: both PodAffinity and PodAntiAffinity set."""
    return pod(name, namespace, node_name, labels,
               Affinity(pod_affinity=PodAffinity(required=list(affinity or [])),
                        pod_anti_affinity=PodAffinity(required=list(anti_affinity or []))))


def node(name: str, labels: Optional[dict[str, str]] = None) -> Node:
    return Node(ObjectMeta(name=name, labels=dict(labels or {})))


def setup_plugin(pods: list[Pod], nodes: list[Node], args=None, namespaces=()):
    """Upstream plugintesting.SetupPluginWithInformers over NewSnapshot(pods, nodes)."""
    handle = FakeHandle(pods=pods, nodes=nodes, objects=namespaces)
    return new(args, handle), handle.snapshot


def assert_status(got: Optional[Status], code: Code, *reasons: str) -> None:
    """``code`` Success means a nil status."""
    if code == Code.Success:
        assert got is None, f"want success, got {got.code.name}: {got.get_reasons()}"
        return
    assert got is not None, f"want {code.name}, got success"
    assert (got.code, got.get_reasons()) == (code, list(reasons))
