"""An in-memory API server: the store the scheduler watches and writes to.

What kube-apiserver does for the scheduler, and no more: it keeps objects by
kind and ``namespace/name`` with a ``resourceVersion``; it tells watchers of
every add, update and delete (in order, at once: the informers of a
simulation never lag), for every kind it stores (pods, nodes, the storage
kinds PersistentVolumeClaim, PersistentVolume, StorageClass, CSINode and
CSIDriver, ...); it serves the ``binding`` subresource, which sets a
pod's ``spec.nodeName``; it patches pod status (the PodScheduled condition
and ``nominatedNodeName``); and it deletes pods, after their grace period
when a clock is given.

``resource_versions`` chooses between two API servers. A real kube-apiserver
(the default) sets ``metadata.resourceVersion`` on create and bumps it on
every write, so the scheduler sees its own status writes come back as pod
updates. client-go's fake clientset, which answered the conformance cases,
never sets or changes it: the scheduler drops an update whose old and new
resourceVersion are equal (``updatePodInSchedulingQueue``), so its writes to a
pending pod (the PodScheduled condition, ``nominatedNodeName``) never reach
the queue's copy of the pod. The ``case`` command answers as that server does.

Deviations:
- Watch events are delivered synchronously, in write order; there is no
  informer resync and no watch latency.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..anchors import plumbing
from ..api.deepcopy import deep_copy
from ..api.podutil import get_pod_condition_from_list, update_pod_condition
from ..api.types import Pod, PodCondition
from ..util import PodStatusPatch

WatchHandler = Callable[[str, Optional[Any], Optional[Any]], None]  # (event, old, new)

NAMESPACED = {"Pod", "Service", "ReplicaSet", "StatefulSet", "ReplicationController", "PodDisruptionBudget",
              "PodGroup", "PersistentVolumeClaim"}


@plumbing("simulated API server")
class NotFoundError(KeyError):
    def __str__(self) -> str:
        kind, key = self.args
        return f"{kind.lower()}s \"{key.split('/')[-1]}\" not found"


@plumbing("simulated API server")
class ConflictError(Exception):
    pass


@plumbing("simulated API server")
@dataclass
class Write:
    """One write the server accepted, for the trace and for tests."""

    time: float
    verb: str  # create | update | delete | bind | status
    kind: str
    key: str
    detail: str = ""


@plumbing("simulated API server")
def object_key(obj: Any) -> str:
    return store_key(obj.kind, obj.metadata.namespace, obj.metadata.name)


@plumbing("simulated API server")
def store_key(kind: str, namespace: str, name: str) -> str:
    """``namespace/name`` for a namespaced kind, ``name`` otherwise (or when the namespace is empty)."""
    return f"{namespace}/{name}" if kind in NAMESPACED and namespace else name


@plumbing("simulated API server")
class APIServer:
    def __init__(self, clock: Any = None, *, resource_versions: bool = True) -> None:
        self.clock = clock
        # False: client-go's fake object tracker, which leaves metadata.resourceVersion as written.
        self.resource_versions = resource_versions
        self._store: dict[str, dict[str, Any]] = {}
        self._rv = itertools.count(1)
        self._watchers: dict[str, list[WatchHandler]] = {}
        self.writes: list[Write] = []
        self.write_counts: dict[str, int] = {}  # verb -> how many writes
        self.deleted: list[str] = []

    # --- watch ---------------------------------------------------------------------

    @plumbing("simulated API server")
    def watch(self, kind: str, handler: WatchHandler) -> None:
        self._watchers.setdefault(kind, []).append(handler)

    def _notify(self, kind: str, event: str, old: Any, new: Any) -> None:
        for handler in self._watchers.get(kind, []):
            handler(event, old, new)

    def _now(self) -> float:
        return self.clock.now if self.clock is not None else 0.0

    def _log(self, verb: str, kind: str, key: str, detail: str = "") -> None:
        self.writes.append(Write(self._now(), verb, kind, key, detail))
        self.write_counts[verb] = self.write_counts.get(verb, 0) + 1

    def _set_resource_version(self, obj: Any) -> None:
        """A real API server stamps every write with a new resourceVersion; the fake tracker does not."""
        if self.resource_versions:
            obj.metadata.resource_version = str(next(self._rv))

    # --- reads (the ObjectLister protocol) -------------------------------------------

    @plumbing("simulated API server")
    def list(self, kind: str, namespace: str = "") -> list[Any]:
        objs = self._store.get(kind, {}).values()
        return [o for o in objs if not namespace or o.metadata.namespace == namespace]

    @plumbing("simulated API server")
    def get(self, kind: str, namespace: str, name: str) -> Any:
        return self._store.get(kind, {}).get(store_key(kind, namespace, name))

    @plumbing("simulated API server")
    def get_pod(self, namespace: str, name: str) -> Optional[Pod]:
        return self.get("Pod", namespace, name)

    @staticmethod
    @plumbing("simulated API server")
    def copy_pod(pod: Pod) -> Pod:
        return deep_copy(pod)

    # --- writes ----------------------------------------------------------------------

    @plumbing("simulated API server")
    def create(self, obj: Any) -> Any:
        kind, key = obj.kind, object_key(obj)
        bucket = self._store.setdefault(kind, {})
        if key in bucket:
            raise ConflictError(f"{kind} {key} already exists")
        self._set_resource_version(obj)
        if not obj.metadata.creation_timestamp and self.clock is not None:
            obj.metadata.creation_timestamp = self._now()
        bucket[key] = obj
        self._log("create", kind, key)
        self._notify(kind, "add", None, obj)
        return obj

    @plumbing("simulated API server")
    def update(self, obj: Any) -> Any:
        kind, key = obj.kind, object_key(obj)
        bucket = self._store.get(kind, {})
        old = bucket.get(key)
        if old is None:
            raise NotFoundError(kind, key)
        self._set_resource_version(obj)
        bucket[key] = obj
        self._log("update", kind, key)
        self._notify(kind, "update", old, obj)
        return obj

    @plumbing("simulated API server")
    def delete(self, kind: str, namespace: str, name: str) -> Any:
        key = store_key(kind, namespace, name)
        obj = self._store.get(kind, {}).pop(key, None)
        if obj is None:
            raise NotFoundError(kind, key)
        self._log("delete", kind, key)
        if kind == "Pod":
            self.deleted.append(key)
        self._notify(kind, "delete", obj, None)
        return obj

    @plumbing("simulated API server")
    def delete_pod(self, pod: Pod, grace_period: Optional[float] = 0.0) -> None:
        """Delete a pod, at once or after its grace period on the clock.

        During the grace period the pod keeps its node and carries a deletionTimestamp,
        as a terminating pod does.
        """
        if not grace_period or self.clock is None:
            self.delete("Pod", pod.metadata.namespace, pod.metadata.name)
            return
        current = self.get_pod(pod.metadata.namespace, pod.metadata.name)
        if current is None:
            raise NotFoundError("Pod", pod.key)
        terminating = deep_copy(current)
        terminating.metadata.deletion_timestamp = self._now()
        self.update(terminating)
        self.clock.call_later(grace_period, lambda: self._finish_delete(pod), label=f"delete {pod.key}")

    def _finish_delete(self, pod: Pod) -> None:
        if self.get_pod(pod.metadata.namespace, pod.metadata.name) is not None:
            self.delete("Pod", pod.metadata.namespace, pod.metadata.name)

    # --- the subresources the scheduler uses -------------------------------------------

    @plumbing("simulated API server")
    def bind(self, pod: Pod, node_name: str) -> None:
        """The pods/binding subresource: set spec.nodeName on a pod that has none."""
        current = self.get_pod(pod.metadata.namespace, pod.metadata.name)
        if current is None:
            raise NotFoundError("Pod", pod.key)
        if current.spec.node_name:
            raise ConflictError(f"pod {pod.name} is already assigned to node \"{current.spec.node_name}\"")
        if self.get("Node", "", node_name) is None:
            raise NotFoundError("Node", node_name)
        bound = deep_copy(current)
        bound.spec.node_name = node_name
        _set_condition(bound, PodCondition("PodScheduled", "True"))
        self._log("bind", "Pod", pod.key, node_name)
        self.update(bound)

    @plumbing("simulated API server: the pods/status subresource, patched")
    def patch_pod_status(self, namespace: str, name: str, patch: PodStatusPatch) -> bool:
        """Apply a strategic merge patch to a pod's status; False when it changes nothing
        (an API server writes nothing then: no resourceVersion, no watch event)."""
        current = self.get_pod(namespace, name)
        if current is None:
            raise NotFoundError("Pod", store_key("Pod", namespace, name))
        updated = deep_copy(current)
        for item in patch.conditions:
            _, existing = get_pod_condition_from_list(updated.status.conditions, item["type"])
            if existing is None:
                updated.status.conditions.append(PodCondition(**item))
            else:
                for key, value in item.items():
                    setattr(existing, key, value)
        if patch.nominated_node_name is not None:
            updated.status.nominated_node_name = patch.nominated_node_name
        if updated.status == current.status:
            return False
        changed = next((c for c in updated.status.conditions
                        if any(i["type"] == c.type for i in patch.conditions)), None)
        detail = (changed.message or changed.reason) if changed is not None else \
            f"nominatedNodeName={updated.status.nominated_node_name}"
        self._log("status", "Pod", updated.key, detail)
        self.update(updated)
        return True

    @plumbing("simulated API server")
    def update_pod_status(self, namespace: str, name: str, condition: Optional[PodCondition],
                          nominated_node_name: Optional[str] = None) -> bool:
        """Patch a condition (when given) and nominatedNodeName (when given); False when unchanged."""
        current = self.get_pod(namespace, name)
        if current is None:
            return False
        changed_nnn = nominated_node_name is not None and current.status.nominated_node_name != nominated_node_name
        updated = deep_copy(current)
        changed_condition = condition is not None and _set_condition(updated, condition)
        if not changed_condition and not changed_nnn:
            return False
        if changed_nnn:
            updated.status.nominated_node_name = nominated_node_name or ""
        detail = (condition.message or condition.reason) if condition is not None else \
            f"nominatedNodeName={updated.status.nominated_node_name}"
        self._log("status", "Pod", updated.key, detail)
        self.update(updated)
        return True


def _set_condition(pod: Pod, condition: PodCondition) -> bool:
    """Upstream podutil.UpdatePodCondition on the pod's status: True when the condition changed."""
    return update_pod_condition(pod.status, condition)
