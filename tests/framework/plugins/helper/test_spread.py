"""Mirrors pkg/scheduler/framework/plugins/helper/spread_test.go (v1.30): TestGetPodServices, and the
default selector cases (TestDefaultSelector) that PodTopologySpread's system defaulting relies on."""
from __future__ import annotations

import pytest

from ksched_edu.api.types import (LabelSelector, ObjectMeta, OwnerReference, ReplicaSet, ReplicationController,
                                  Service, StatefulSet)
from ksched_edu.framework.plugins.helper.spread import default_selector, get_pod_services
from tests.builders import make_label_selector, make_pod
from tests.fakes import FakeObjectLister

SERVICES = [Service(ObjectMeta(name=f"service-{i}", namespace="test"), selector={"app": f"test-{i}"})
            for i in range(3)]
PODS = [make_pod().name(f"test-pod-{i}").namespace("test").label("app", f"test-{i}").label("label", f"label-{i}")
        .obj() for i in range(5)]


@pytest.mark.parametrize("i,want", [(0, [SERVICES[0]]), (1, [SERVICES[1]]), (2, [SERVICES[2]]), (3, []), (4, [])],
                         ids=[f"GetPodServices for pod-{i}" for i in range(5)])
def test_get_pod_services(i, want):
    assert get_pod_services(FakeObjectLister(SERVICES), PODS[i]) == want


def owned(pod, kind, name, api_version):
    pod.metadata.owner_references = [OwnerReference(api_version=api_version, kind=kind, name=name, controller=True)]
    return pod


def web_pod():
    return make_pod().name("p").namespace("default").label("app", "web").label("tier", "front").obj()


LABELS = {"app": "web", "tier": "front"}

DEFAULT_SELECTOR_CASES = [
    ("no services, no owner", web_pod(), [], None),
    ("one matching service", web_pod(), [Service(ObjectMeta(name="s", namespace="default"), {"app": "web"})],
     [({"app": "web"}, True), ({"app": "db"}, False)]),
    ("service in another namespace does not count", web_pod(),
     [Service(ObjectMeta(name="s", namespace="other"), {"app": "web"})], None),
    ("service with empty selector selects nothing", web_pod(), [Service(ObjectMeta(name="s", namespace="default"))],
     None),
    ("two services merge", web_pod(),
     [Service(ObjectMeta(name="s1", namespace="default"), {"app": "web"}),
      Service(ObjectMeta(name="s2", namespace="default"), {"tier": "front"})],
     [({"app": "web", "tier": "front"}, True), ({"app": "web"}, False)]),
    ("replication controller owner", owned(web_pod(), "ReplicationController", "rc", "v1"),
     [ReplicationController(ObjectMeta(name="rc", namespace="default"), {"tier": "front"})],
     [({"tier": "front"}, True), ({"app": "web"}, False)]),
    ("replica set owner", owned(web_pod(), "ReplicaSet", "rs", "apps/v1"),
     [ReplicaSet(ObjectMeta(name="rs", namespace="default"), make_label_selector().exists("app").obj())],
     [({"app": "x"}, True), ({"tier": "front"}, False)]),
    ("stateful set owner, with a service", owned(web_pod(), "StatefulSet", "ss", "apps/v1"),
     [StatefulSet(ObjectMeta(name="ss", namespace="default"), make_label_selector().label("tier", "front").obj()),
      Service(ObjectMeta(name="s", namespace="default"), {"app": "web"})],
     [({"app": "web", "tier": "front"}, True), ({"app": "web"}, False)]),
    ("replica set owner with the wrong apiVersion is not a known controller",
     owned(web_pod(), "ReplicaSet", "rs", "extensions/v1beta1"),
     [ReplicaSet(ObjectMeta(name="rs", namespace="default"), make_label_selector().exists("app").obj())], None),
    ("missing replica set", owned(web_pod(), "ReplicaSet", "gone", "apps/v1"), [], None),
    ("replica set with a nil selector adds nothing", owned(web_pod(), "ReplicaSet", "rs", "apps/v1"),
     [ReplicaSet(ObjectMeta(name="rs", namespace="default"), None)], None),
    ("replica set with an empty selector adds nothing", owned(web_pod(), "ReplicaSet", "rs", "apps/v1"),
     [ReplicaSet(ObjectMeta(name="rs", namespace="default"), LabelSelector())], None),
]


@pytest.mark.parametrize("pod,objects,checks", [c[1:] for c in DEFAULT_SELECTOR_CASES],
                         ids=[c[0] for c in DEFAULT_SELECTOR_CASES])
def test_default_selector(pod, objects, checks):
    sel = default_selector(pod, FakeObjectLister(objects))
    if checks is None:
        assert sel.empty()
        return
    assert not sel.empty()
    for labels, want in checks:
        assert sel.matches(labels) is want, labels
