"""Workloads: ordinary manifests that arrive and leave on the virtual clock.

A workload file is kubectl-style YAML whose objects carry annotations saying
when things happen (times are seconds, with an optional ``s``, ``m`` or ``h``):

``ksched-edu.io/at``
    when the object is created (default ``0``);
``ksched-edu.io/delete-at``
    when it is deleted (a node leaving, a pod finishing);
``ksched-edu.io/replicas`` and ``ksched-edu.io/every``
    on a pod or a node: create that many copies, named ``NAME-0``, ``NAME-1``,
    ..., ``every`` seconds apart (default ``0``), as a controller (or a node
    pool) would; a node copy's ``kubernetes.io/hostname`` label follows its name.

Objects without annotations are there from the start, so a cluster file is
also a (static) workload.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from ..anchors import plumbing
from ..api.errors import ManifestError
from ..api.loader import load_cluster
from ..api.types import Cluster, Node, Pod

AT = "ksched-edu.io/at"
DELETE_AT = "ksched-edu.io/delete-at"
REPLICAS = "ksched-edu.io/replicas"
EVERY = "ksched-edu.io/every"
HOSTNAME = "kubernetes.io/hostname"

_DURATION = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s|m|h)?\s*$")
_UNIT = {None: 1.0, "ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


@plumbing("simulation workload file")
def parse_seconds(text: str) -> float:
    """``"90"``, ``"90s"``, ``"1.5m"`` -> seconds; ValueError otherwise."""
    m = _DURATION.match(str(text))
    if not m:
        raise ValueError(f"invalid duration {text!r}: use seconds, e.g. \"30\", \"30s\", \"1.5m\"")
    return float(m.group(1)) * _UNIT[m.group(2)]


@plumbing("simulation workload file")
@dataclass(frozen=True)
class WorkloadEvent:
    at: float
    action: str  # "create" | "delete"
    obj: Any

    def __str__(self) -> str:
        meta = self.obj.metadata
        name = f"{meta.namespace}/{meta.name}" if meta.namespace else meta.name
        return f"t={self.at:g}s {self.action} {self.obj.kind} {name}"


@plumbing("simulation workload file")
@dataclass
class Workload:
    """The objects present at t=0 (a Cluster) and the timed events after that."""

    initial: Cluster
    events: list[WorkloadEvent]


def _annotation(obj: Any, key: str, file: str) -> Optional[str]:
    value = obj.metadata.annotations.get(key)
    if value is None:
        return None
    return str(value)


def _timing(obj: Any, key: str, file: str, label: str) -> Optional[float]:
    raw = _annotation(obj, key, file)
    if raw is None:
        return None
    try:
        return parse_seconds(raw)
    except ValueError as err:
        raise ManifestError(file, label, f"metadata.annotations[{key}]", str(err)) from None


@plumbing("simulation workload file")
def load_workload(paths: Union[str, Path, Sequence[Union[str, Path]]]) -> Workload:
    """Load manifests (a cluster and its workload, together) into a Workload.

    Loading them together lets workload pods name PriorityClasses of the cluster file.
    """
    files = [paths] if isinstance(paths, (str, Path)) else list(paths)
    cluster = load_cluster(files)
    origin = str(files[-1])
    initial = Cluster(warnings=cluster.warnings, extra=cluster.extra)
    events: list[WorkloadEvent] = []
    groups = [("nodes", cluster.nodes), ("storage_classes", cluster.storage_classes),
              ("csi_drivers", cluster.csi_drivers), ("csi_nodes", cluster.csi_nodes),
              ("persistent_volumes", cluster.persistent_volumes),
              ("persistent_volume_claims", cluster.persistent_volume_claims),
              ("priority_classes", cluster.priority_classes), ("pdbs", cluster.pdbs),
              ("pods", cluster.pods), ("services", cluster.services),
              ("replication_controllers", cluster.replication_controllers),
              ("replica_sets", cluster.replica_sets), ("stateful_sets", cluster.stateful_sets)]
    for attr, objs in groups:
        for obj in objs:
            label = f"{obj.kind} {obj.metadata.name}"
            at = _timing(obj, AT, origin, label)
            delete_at = _timing(obj, DELETE_AT, origin, label)
            copies = _replicas(obj, origin, label)
            every = _timing(obj, EVERY, origin, label) or 0.0
            for i, item in enumerate(copies):
                start = (at or 0.0) + i * every
                if at is None and len(copies) == 1:
                    getattr(initial, attr).append(item)
                else:
                    events.append(WorkloadEvent(start, "create", item))
                if delete_at is not None:
                    events.append(WorkloadEvent(max(delete_at + i * every, start), "delete", item))
    # Stable: events at one instant keep file order, creations before deletions of that instant.
    events.sort(key=lambda e: (e.at, e.action == "delete"))
    return Workload(initial, events)


def _replicas(obj: Any, file: str, label: str) -> list[Any]:
    raw = _annotation(obj, REPLICAS, file)
    if raw is None:
        return [obj]
    if not isinstance(obj, (Pod, Node)):
        raise ManifestError(file, label, f"metadata.annotations[{REPLICAS}]", "only pods and nodes can have replicas")
    if not raw.isdigit() or int(raw) < 1:
        raise ManifestError(file, label, f"metadata.annotations[{REPLICAS}]",
                            f"Invalid value: \"{raw}\": must be a whole number of at least 1")
    copies = []
    for i in range(int(raw)):
        item = copy.deepcopy(obj)
        item.metadata.name = f"{obj.metadata.name}-{i}"
        item.metadata.uid = f"{obj.metadata.uid}-{i}"
        if isinstance(item, Node) and HOSTNAME in item.metadata.labels:
            item.metadata.labels[HOSTNAME] = item.metadata.name
        copies.append(item)
    return copies
