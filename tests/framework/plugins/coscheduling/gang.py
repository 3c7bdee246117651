"""Helpers for the Coscheduling tests, after scheduler-plugins' test/util (podgroup_wrapper.go, fake.go)."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Optional

from ksched_edu.api.podgroup import PodGroup, PodGroupSpec
from ksched_edu.api.types import ObjectMeta, Pod
from ksched_edu.framework.runtime import WaitingPod
from tests.builders import resource_list
from tests.fakes import FakeHandle, FakeObjectLister


def make_pod_group(name: str, namespace: str, min_member: int = 0, *, created: float = 0.0,
                   min_resources: Optional[dict[str, str]] = None,
                   timeout: Optional[int] = None) -> PodGroup:
    """Upstream tu.MakePodGroup().Name(..).Namespace(..).MinMember(..).Time(..).MinResources(..).Obj()."""
    return PodGroup(metadata=ObjectMeta(name=name, namespace=namespace, creation_timestamp=created),
                    spec=PodGroupSpec(min_member=min_member,
                                      min_resources=resource_list(min_resources) if min_resources else None,
                                      schedule_timeout_seconds=timeout))


class Clock:
    """A settable clock for the manager's caches."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now


class _ClockClient:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock


class GangHandle(FakeHandle):
    """FakeHandle plus the Permit waiting pods of the framework and a client carrying a clock."""

    def __init__(self, pods: Iterable[Pod] = (), nodes: Iterable[Any] = (), objects: Iterable[Any] = (),
                 clock: Optional[Clock] = None) -> None:
        super().__init__(pods=pods, nodes=nodes, objects=objects)
        self.clock = clock or Clock()
        self.waiting: dict[str, WaitingPod] = {}
        self._clock_client = _ClockClient(self.clock)

    def client(self) -> Any:
        return self._clock_client

    def wait(self, pod: Pod, plugin: str = "Coscheduling", deadline: float = 60.0) -> WaitingPod:
        wp = WaitingPod(pod, {plugin: deadline})
        self.waiting[pod.uid] = wp
        return wp

    def iterate_over_waiting_pods(self, callback: Callable[[WaitingPod], None]) -> None:
        for wp in list(self.waiting.values()):
            callback(wp)


def lister(objects: Iterable[Any] = ()) -> FakeObjectLister:
    return FakeObjectLister(objects)
