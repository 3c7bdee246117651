"""Storage objects for the volume plugins' tests, after the helpers of upstream's tests
(volumebinding/test_utils.go makePV/makePVC, the volume_zone and csi test fixtures)."""
from __future__ import annotations

from typing import Any, Iterable, Optional

from ksched_edu.api.quantity import Quantity
from ksched_edu.api.storage import (ANN_BIND_COMPLETED, CLAIM_BOUND, CSIDriver, CSIDriverSpec, CSINode, CSINodeDriver,
                                    CSINodeSpec, CSIPersistentVolumeSource, ObjectReference, PersistentVolume,
                                    PersistentVolumeClaim, PersistentVolumeClaimSpec, PersistentVolumeSpec,
                                    READ_WRITE_ONCE, StorageClass, TopologySelectorLabelRequirement,
                                    TopologySelectorTerm, VolumeNodeAffinity, VolumeNodeResources,
                                    VolumeResourceRequirements, set_defaults_storage_object)
from ksched_edu.api.types import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, ObjectMeta

WAIT = "WaitForFirstConsumer"
IMMEDIATE = "Immediate"


def storage_class(name: str, mode: str = WAIT, provisioner: str = "kubernetes.io/no-provisioner",
                  topologies: Optional[dict[str, list[str]]] = None) -> StorageClass:
    terms = []
    if topologies:
        terms = [TopologySelectorTerm([TopologySelectorLabelRequirement(k, list(v)) for k, v in topologies.items()])]
    sc = StorageClass(ObjectMeta(name=name), provisioner=provisioner, volume_binding_mode=mode,
                      allowed_topologies=terms)
    set_defaults_storage_object(sc)
    return sc


def pvc(name: str, class_name: Optional[str] = None, *, bound_pv: str = "", bind_completed: bool = True,
        storage: str = "1Gi", phase: str = "", modes: Iterable[str] = (READ_WRITE_ONCE,),
        annotations: Optional[dict[str, str]] = None, namespace: str = "default",
        deleting: bool = False, rv: str = "") -> PersistentVolumeClaim:
    """upstream makePVC(name, class) with withBoundPV / withRequestStorage / withPhase."""
    ann = dict(annotations or {})
    if bound_pv and bind_completed:
        ann[ANN_BIND_COMPLETED] = "yes"
    claim = PersistentVolumeClaim(
        ObjectMeta(name=name, namespace=namespace, annotations=ann, resource_version=rv,
                   deletion_timestamp=1.0 if deleting else None),
        PersistentVolumeClaimSpec(access_modes=list(modes), storage_class_name=class_name, volume_name=bound_pv,
                                  resources=VolumeResourceRequirements(requests={"storage": Quantity(storage)})))
    claim.status.phase = phase or (CLAIM_BOUND if bound_pv else "")
    set_defaults_storage_object(claim)
    return claim


def pv(name: str, class_name: str = "", *, phase: str = "Available", capacity: str = "1Gi",
       affinity: Optional[dict[str, list[str]]] = None, claim: Optional[str] = None,
       labels: Optional[dict[str, str]] = None, source: Optional[dict[str, Any]] = None,
       csi: Optional[tuple[str, str]] = None, modes: Iterable[str] = (READ_WRITE_ONCE,),
       rv: str = "") -> PersistentVolume:
    """upstream makePV(name, class) with withPhase / withCapacity / withNodeAffinity / withClaimRef."""
    node_affinity = None
    if affinity is not None:
        exprs = [NodeSelectorRequirement(k, "In", list(v)) for k, v in affinity.items()]
        node_affinity = VolumeNodeAffinity(NodeSelector([NodeSelectorTerm(match_expressions=exprs)]))
    src = dict(source or {"local": {"path": "/mnt"}})
    csi_src = None
    if csi is not None:
        src = {"csi": {"driver": csi[0], "volumeHandle": csi[1]}}
        csi_src = CSIPersistentVolumeSource(driver=csi[0], volume_handle=csi[1])
    volume = PersistentVolume(
        ObjectMeta(name=name, labels=dict(labels or {}), resource_version=rv),
        PersistentVolumeSpec(capacity={"storage": Quantity(capacity)}, source=src, csi=csi_src,
                             access_modes=list(modes), storage_class_name=class_name, node_affinity=node_affinity,
                             claim_ref=None if claim is None else ObjectReference(
                                 kind="PersistentVolumeClaim", namespace="default", name=claim)))
    volume.status.phase = phase
    set_defaults_storage_object(volume)
    return volume


def csi_node(name: str, drivers: dict[str, Optional[int]], migrated: str = "") -> CSINode:
    """A CSINode with one driver per entry (name -> allocatable count, None for no limit)."""
    node = CSINode(ObjectMeta(name=name), CSINodeSpec([
        CSINodeDriver(d, node_id=name, allocatable=None if c is None else VolumeNodeResources(c))
        for d, c in drivers.items()]))
    if migrated:
        node.metadata.annotations["storage.alpha.kubernetes.io/migrated-plugins"] = migrated
    set_defaults_storage_object(node)
    return node


def csi_driver(name: str, storage_capacity: bool = False) -> CSIDriver:
    d = CSIDriver(ObjectMeta(name=name), CSIDriverSpec(storage_capacity=storage_capacity))
    set_defaults_storage_object(d)
    return d
