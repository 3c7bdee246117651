"""Test doubles, after pkg/scheduler/testing/framework (fake_listers.go, framework_helpers.go).

``FakeHandle`` lends a plugin under test a snapshot built from pods and nodes,
an object lister over Services, ReplicaSets and the like, and a recording
client, so a plugin can be tested without a scheduler around it.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from ksched_edu.api.types import Node, Pod
from ksched_edu.framework.types import PodInfo
from ksched_edu.internal.cache.snapshot import Snapshot


class FakeObjectLister:
    def __init__(self, objects: Iterable[Any] = ()) -> None:
        self.objects = list(objects)

    def list(self, kind: str, namespace: str = "") -> list[Any]:
        return [o for o in self.objects if o.kind == kind
                and (not namespace or o.metadata.namespace == namespace)]

    def get(self, kind: str, namespace: str, name: str) -> Any:
        for o in self.list(kind, namespace):
            if o.metadata.name == name:
                return o
        return None


class FakeClient:
    """Records what plugins ask of the API server."""

    def __init__(self) -> None:
        self.bindings: list[tuple[str, str]] = []
        self.deleted: list[str] = []

    def bind(self, pod: Pod, node_name: str) -> None:
        self.bindings.append((pod.key, node_name))

    def delete_pod(self, pod: Pod) -> None:
        self.deleted.append(pod.key)


class FakeHandle:
    def __init__(self, pods: Iterable[Pod] = (), nodes: Iterable[Node] = (), objects: Iterable[Any] = (),
                 snapshot: Optional[Snapshot] = None) -> None:
        self.snapshot = snapshot or Snapshot.from_objects(list(pods), list(nodes))
        self.objects = FakeObjectLister(objects)
        self.fake_client = FakeClient()
        self.nominated: dict[str, list[PodInfo]] = {}

    def snapshot_shared_lister(self) -> Snapshot:
        return self.snapshot

    def object_lister(self) -> FakeObjectLister:
        return self.objects

    def client(self) -> FakeClient:
        return self.fake_client

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return list(self.nominated.get(node_name, []))
