"""Port of github.com/k8stopologyawareschedwg/noderesourcetopology-api pkg/apis/topology/v1alpha2
(types.go and helper/numanode/numanode.go, as vendored by scheduler-plugins at 37b7888a).

A NodeResourceTopology (``topology.node.k8s.io/v1alpha2``, cluster-scoped,
named after its node) tells a topology-aware scheduler what each NUMA zone of
a node still has: per-zone ``capacity``/``allocatable``/``available`` of every
resource, the distances (``costs``) between zones, and the kubelet's Topology
Manager policy and scope (top-level ``attributes``, or the deprecated
``topologyPolicies``). :func:`parse_node_resource_topology` reads the raw
mapping the loader keeps in ``Cluster.extra["NodeResourceTopology"]``.

Deviations:
- The checks are those of the CustomResourceDefinition's schema
  (manifests/noderesourcetopology/crd.yaml): required fields, strings,
  integers and quantities; a bad object raises ManifestError naming the
  object and the field.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from .errors import ManifestError, required
from .quantity import Quantity, QuantityError
from .types import ObjectMeta

KIND = "NodeResourceTopology"
API_VERSION = "topology.node.k8s.io/v1alpha2"

# TopologyManagerPolicy values of the deprecated ``topologyPolicies`` field (types.go).
SINGLE_NUMA_NODE_CONTAINER_LEVEL = "SingleNUMANodeContainerLevel"
SINGLE_NUMA_NODE_POD_LEVEL = "SingleNUMANodePodLevel"
RESTRICTED = "Restricted"
RESTRICTED_CONTAINER_LEVEL = "RestrictedContainerLevel"
RESTRICTED_POD_LEVEL = "RestrictedPodLevel"
BEST_EFFORT = "BestEffort"
BEST_EFFORT_CONTAINER_LEVEL = "BestEffortContainerLevel"
BEST_EFFORT_POD_LEVEL = "BestEffortPodLevel"
NONE = "None"


@ports("vendor/github.com/k8stopologyawareschedwg/noderesourcetopology-api/pkg/apis/topology/v1alpha2/types.go", "ResourceInfo", 74, 88, repo=SCHEDULER_PLUGINS)
@dataclass
class ResourceInfo:
    """One resource of a zone: what the zone has, may give, and has left."""

    name: str
    capacity: Quantity = field(default_factory=Quantity.zero)
    allocatable: Quantity = field(default_factory=Quantity.zero)
    available: Quantity = field(default_factory=Quantity.zero)


@ports("vendor/github.com/k8stopologyawareschedwg/noderesourcetopology-api/pkg/apis/topology/v1alpha2/types.go", "CostInfo", 96, 99, repo=SCHEDULER_PLUGINS)
@dataclass
class CostInfo:
    """The distance from the zone that holds this entry to the zone ``name``."""

    name: str
    value: int


@ports("vendor/github.com/k8stopologyawareschedwg/noderesourcetopology-api/pkg/apis/topology/v1alpha2/types.go", "AttributeInfo", 107, 110, repo=SCHEDULER_PLUGINS)
@dataclass
class AttributeInfo:
    name: str
    value: str


@ports("vendor/github.com/k8stopologyawareschedwg/noderesourcetopology-api/pkg/apis/topology/v1alpha2/types.go", "Zone", 59, 66, repo=SCHEDULER_PLUGINS)
@dataclass
class Zone:
    name: str
    type: str  # "Node" for a NUMA node
    parent: str = ""
    costs: list[CostInfo] = field(default_factory=list)
    attributes: list[AttributeInfo] = field(default_factory=list)
    resources: list[ResourceInfo] = field(default_factory=list)


@ports("vendor/github.com/k8stopologyawareschedwg/noderesourcetopology-api/pkg/apis/topology/v1alpha2/types.go", "NodeResourceTopology", 46, 55, repo=SCHEDULER_PLUGINS)
@dataclass
class NodeResourceTopology:
    metadata: ObjectMeta
    topology_policies: list[str] = field(default_factory=list)  # deprecated
    zones: list[Zone] = field(default_factory=list)
    attributes: list[AttributeInfo] = field(default_factory=list)
    kind = KIND


# --- helper/numanode -----------------------------------------------------------------

CANONICAL_PREFIX = "node-"
_GO_ATOI = re.compile(r"^[+-]?[0-9]+$")


@ports("vendor/github.com/k8stopologyawareschedwg/noderesourcetopology-api/pkg/apis/topology/v1alpha2/helper/numanode/numanode.go", "IDToName", 30, 35, repo=SCHEDULER_PLUGINS)
def id_to_name(numa_id: int) -> str:
    """Upstream numanode.IDToName: NUMA cell 3 is zone "node-3"."""
    if numa_id < 0:
        raise ValueError(f"invalid NUMA id range numaID: {numa_id}")
    return f"{CANONICAL_PREFIX}{numa_id}"


@ports("vendor/github.com/k8stopologyawareschedwg/noderesourcetopology-api/pkg/apis/topology/v1alpha2/helper/numanode/numanode.go", "NameToID", 39, 52, repo=SCHEDULER_PLUGINS)
def name_to_id(node: str) -> int:
    """Upstream numanode.NameToID: the cell id of a zone named "node-X"; ValueError otherwise."""
    if not node.startswith(CANONICAL_PREFIX):
        raise ValueError(f'invalid format for name "{node}": bad prefix')
    text = node[len(CANONICAL_PREFIX):]
    if not _GO_ATOI.match(text):  # strconv.Atoi: an optional sign and decimal digits only
        raise ValueError(f'invalid format for name "{node}": strconv.Atoi: parsing "{text}": invalid syntax')
    numa_id = int(text)
    if numa_id < 0:
        raise ValueError(f'invalid format for name "{node}": bad NUMA id: {numa_id}')
    return numa_id


# --- parsing the raw object ----------------------------------------------------------


def _kind_of(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    return "a map" if isinstance(v, dict) else "a list" if isinstance(v, list) else type(v).__name__


class _Fields:
    """Reads one raw object; every error names the file, the object and the field."""

    def __init__(self, file: str, label: str) -> None:
        self.file, self.label = file, label

    def fail(self, path: str, message: str) -> ManifestError:
        return ManifestError(self.file, self.label, path, message)

    def as_map(self, v: Any, path: str) -> dict:
        if v is None:
            return {}
        if not isinstance(v, dict):
            raise self.fail(path, f"expected a map, got {_kind_of(v)}")
        return v

    def as_list(self, v: Any, path: str) -> list:
        if v is None:
            return []
        if not isinstance(v, list):
            raise self.fail(path, f"expected a list, got {_kind_of(v)}")
        return v

    def need(self, m: dict, key: str, path: str) -> Any:
        if m.get(key) is None:
            raise self.fail(f"{path}.{key}" if path else key, required())
        return m[key]

    def as_str(self, v: Any, path: str) -> str:
        if v is None:
            return ""
        if not isinstance(v, str):
            raise self.fail(path, f"expected a string, got {_kind_of(v)}")
        return v

    def as_int(self, v: Any, path: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(path, f"expected an integer, got {_kind_of(v)}")
        return v

    def quantity(self, v: Any, path: str) -> Quantity:
        if isinstance(v, (dict, list, bool)) or v is None:
            raise self.fail(path, f"expected a quantity, got {_kind_of(v)}")
        try:
            return Quantity(v)
        except QuantityError as e:
            raise self.fail(path, str(e)) from None


def _attributes(f: _Fields, v: Any, path: str) -> list[AttributeInfo]:
    out = []
    for i, a in enumerate(f.as_list(v, path)):
        p = f"{path}[{i}]"
        a = f.as_map(a, p)
        out.append(AttributeInfo(name=f.as_str(f.need(a, "name", p), f"{p}.name"),
                                 value=f.as_str(f.need(a, "value", p), f"{p}.value")))
    return out


def _zone(f: _Fields, v: Any, path: str) -> Zone:
    z = f.as_map(v, path)
    costs = []
    for i, c in enumerate(f.as_list(z.get("costs"), f"{path}.costs")):
        p = f"{path}.costs[{i}]"
        c = f.as_map(c, p)
        costs.append(CostInfo(name=f.as_str(f.need(c, "name", p), f"{p}.name"),
                              value=f.as_int(f.need(c, "value", p), f"{p}.value")))
    resources = []
    for i, r in enumerate(f.as_list(z.get("resources"), f"{path}.resources")):
        p = f"{path}.resources[{i}]"
        r = f.as_map(r, p)
        resources.append(ResourceInfo(
            name=f.as_str(f.need(r, "name", p), f"{p}.name"),
            capacity=f.quantity(f.need(r, "capacity", p), f"{p}.capacity"),
            allocatable=f.quantity(f.need(r, "allocatable", p), f"{p}.allocatable"),
            available=f.quantity(f.need(r, "available", p), f"{p}.available")))
    return Zone(name=f.as_str(f.need(z, "name", path), f"{path}.name"),
                type=f.as_str(f.need(z, "type", path), f"{path}.type"),
                parent=f.as_str(z.get("parent"), f"{path}.parent"),
                costs=costs,
                attributes=_attributes(f, z.get("attributes"), f"{path}.attributes"),
                resources=resources)


@plumbing("decodes a NodeResourceTopology from its raw mapping")
def parse_node_resource_topology(raw: dict, file: str = "") -> NodeResourceTopology:
    """A NodeResourceTopology from its raw mapping (as ``kubectl get -o yaml`` shows it).

    Raises ManifestError, naming ``file``, the object and the field, for what
    the API server (with the CRD installed) would refuse.
    """
    meta_raw = raw.get("metadata") if isinstance(raw, dict) else None
    name = meta_raw.get("name", "") if isinstance(meta_raw, dict) else ""
    f = _Fields(file, f"{KIND} {name}" if isinstance(name, str) and name else KIND)
    raw = f.as_map(raw, "")
    meta = f.as_map(raw.get("metadata"), "metadata")
    name = f.as_str(meta.get("name"), "metadata.name")
    if not name:
        raise f.fail("metadata.name", required("name or generateName is required"))
    labels = f.as_map(meta.get("labels"), "metadata.labels")
    annotations = f.as_map(meta.get("annotations"), "metadata.annotations")
    zones = [_zone(f, z, f"zones[{i}]") for i, z in enumerate(f.as_list(f.need(raw, "zones", ""), "zones"))]
    return NodeResourceTopology(
        metadata=ObjectMeta(name=name,
                            labels={str(k): f.as_str(v, f"metadata.labels.{k}") for k, v in labels.items()},
                            annotations={str(k): f.as_str(v, f"metadata.annotations.{k}")
                                         for k, v in annotations.items()},
                            uid=f.as_str(meta.get("uid"), "metadata.uid"),
                            resource_version=f.as_str(meta.get("resourceVersion"), "metadata.resourceVersion")),
        topology_policies=[f.as_str(p, f"topologyPolicies[{i}]")
                           for i, p in enumerate(f.as_list(raw.get("topologyPolicies"), "topologyPolicies"))],
        zones=zones,
        attributes=_attributes(f, raw.get("attributes"), "attributes"))

