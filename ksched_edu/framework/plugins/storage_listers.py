"""Port of the storage lookups the volume plugins make through client-go listers
(listers/core/v1 PersistentVolumeClaim and PersistentVolume, listers/storage/v1
StorageClass, CSINode and CSIDriver) and of apimachinery's NotFound error text (v1.30).

The listers read the informer cache: the objects the API server stores
(:mod:`ksched_edu.sim.apiserver`), which a plugin reaches through its
handle's object lister. A lookup that misses raises :class:`NotFoundError`
with the message an informer lister gives for an object that does not exist,
e.g. ``persistentvolumeclaim "data" not found``; the volume plugins turn that
error into the status upstream returns for a missing object.
"""
from __future__ import annotations

from typing import Any, Optional

from ...anchors import SCHEDULER_PLUGINS, plumbing, ports


@ports("vendor/k8s.io/apimachinery/pkg/api/errors/errors.go", "StatusError", 35, 37, repo=SCHEDULER_PLUGINS)
class NotFoundError(LookupError):
    """Upstream ``apierrors.NewNotFound``: ``apierrors.IsNotFound(err)`` is
    ``isinstance(err, NotFoundError)``; wrapping keeps the type."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @classmethod
    @ports("vendor/k8s.io/apimachinery/pkg/api/errors/errors.go", "NewNotFound", 144, 156, repo=SCHEDULER_PLUGINS)
    def of(cls, qualified_resource: str, name: str) -> "NotFoundError":
        # Go: fmt.Sprintf("%s %q not found", qualifiedResource.String(), name).
        return cls(f'{qualified_resource} "{name}" not found')

    @plumbing("Go's fmt.Errorf with %w, which keeps the NotFound type")
    def wrap(self, prefix: str) -> "NotFoundError":
        """Upstream ``fmt.Errorf(prefix + "%w", err)``: still a NotFound error."""
        return NotFoundError(prefix + self.message)

    def __str__(self) -> str:
        return self.message


# The qualified resources of the listers (group "" for core, else resource.group).
PERSISTENT_VOLUME_CLAIM = "persistentvolumeclaim"
PERSISTENT_VOLUME = "persistentvolume"
STORAGE_CLASS = "storageclass.storage.k8s.io"
CSI_NODE = "csinode.storage.k8s.io"


CSI_DRIVER = "csidriver.storage.k8s.io"

_RESOURCES = {
    "PersistentVolumeClaim": PERSISTENT_VOLUME_CLAIM,
    "PersistentVolume": PERSISTENT_VOLUME,
    "StorageClass": STORAGE_CLASS,
    "CSINode": CSI_NODE,
    "CSIDriver": CSI_DRIVER,
}


@ports("vendor/k8s.io/client-go/listers/core/v1/persistentvolumeclaim.go", "PersistentVolumeClaimLister", 30, 37, repo=SCHEDULER_PLUGINS)
class StorageListers:
    """The storage listers of the scheduler's shared informer factory, over the
    informer cache (the API server's store, which the simulation's informers
    mirror without lag).

    Each ``get_*`` returns the stored object or raises :class:`NotFoundError`
    with the lister's message, e.g. ``persistentvolumeclaim "data" not found``.
    """

    def __init__(self, object_lister: Any) -> None:
        self.object_lister = object_lister

    def _get(self, kind: str, namespace: str, name: str) -> Any:
        obj = self.object_lister.get(kind, namespace, name) if self.object_lister is not None else None
        if obj is None:
            raise NotFoundError.of(_RESOURCES[kind], name)
        return obj

    @ports("vendor/k8s.io/client-go/listers/core/v1/persistentvolumeclaim.go", "(persistentVolumeClaimNamespaceLister).Get", 90, 99, repo=SCHEDULER_PLUGINS)
    def get_pvc(self, namespace: str, name: str) -> Any:
        """``pvcLister.PersistentVolumeClaims(namespace).Get(name)``."""
        return self._get("PersistentVolumeClaim", namespace, name)

    @ports("vendor/k8s.io/client-go/listers/core/v1/persistentvolume.go", "(*persistentVolumeLister).Get", 59, 68, repo=SCHEDULER_PLUGINS)
    def get_pv(self, name: str) -> Any:
        """``pvLister.Get(name)``."""
        return self._get("PersistentVolume", "", name)

    @ports("vendor/k8s.io/client-go/listers/storage/v1/storageclass.go", "(*storageClassLister).Get", 59, 68, repo=SCHEDULER_PLUGINS)
    def get_storage_class(self, name: str) -> Any:
        """``scLister.Get(name)``."""
        return self._get("StorageClass", "", name)

    @ports("vendor/k8s.io/client-go/listers/storage/v1/csinode.go", "(*cSINodeLister).Get", 59, 68, repo=SCHEDULER_PLUGINS)
    def get_csi_node(self, name: str) -> Any:
        """``csiNodeLister.Get(name)``."""
        return self._get("CSINode", "", name)

    @ports("vendor/k8s.io/client-go/listers/storage/v1/csidriver.go", "(*cSIDriverLister).Get", 59, 68, repo=SCHEDULER_PLUGINS)
    def get_csi_driver(self, name: str) -> Any:
        """``csiDriverLister.Get(name)``."""
        return self._get("CSIDriver", "", name)

    @plumbing("an informer cache List, in creation order")
    def list(self, kind: str) -> list[Any]:
        return list(self.object_lister.list(kind)) if self.object_lister is not None else []


@plumbing("reads a volume's persistentVolumeClaim.claimName, a field access upstream writes inline")
def claim_name(volume: dict) -> str | None:
    """The claim a pod volume names (``persistentVolumeClaim.claimName``), or None
    when the volume is not a PersistentVolumeClaim volume."""
    pvc = volume.get("persistentVolumeClaim")
    if pvc is None:
        return None
    return (pvc or {}).get("claimName", "")


@ports("vendor/k8s.io/component-helpers/storage/ephemeral/ephemeral.go", "VolumeClaimName", 41, 43, repo=SCHEDULER_PLUGINS)
def ephemeral_claim_name(pod_name: str, volume: dict) -> str:
    """Upstream ephemeral.VolumeClaimName: ``<pod name>-<volume name>``."""
    return f"{pod_name}-{volume.get('name', '')}"


@ports("vendor/k8s.io/component-helpers/storage/ephemeral/ephemeral.go", "VolumeIsForPod", 49, 57, repo=SCHEDULER_PLUGINS)
def volume_is_for_pod(pod: Any, pvc: Any) -> Optional[str]:
    """Upstream ephemeral.VolumeIsForPod: the error text when the claim of a generic
    ephemeral volume is not controlled by the pod, else None."""
    controlled = any(ref.controller and ref.uid == pod.metadata.uid for ref in pvc.metadata.owner_references)
    if pvc.metadata.namespace != pod.metadata.namespace or not controlled:
        return (f"PVC {pvc.metadata.namespace}/{pvc.metadata.name} was not created for pod "
                f"{pod.metadata.namespace}/{pod.metadata.name} (pod is not owner)")
    return None
