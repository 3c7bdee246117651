"""Port of the storage lookups the volume plugins make through client-go listers
(listers/core/v1 PersistentVolumeClaim and PersistentVolume, listers/storage/v1
StorageClass and CSINode) and of apimachinery's NotFound error text (v1.30).

The data model has no PersistentVolumeClaim, PersistentVolume, StorageClass or
CSINode objects yet, so every lookup misses: each ``get_*`` raises
:class:`NotFoundError` with the message an informer lister gives for an object
that does not exist, e.g. ``persistentvolumeclaim "data" not found``. The volume
plugins turn that error into the status upstream returns for a missing object.
This is the one place to change when those kinds join the data model.

Deviations:
- No objects: the functions never return. Upstream's plugin code that reads a
  claim, a volume or a storage class once found is not ported (see each
  plugin's ``Deviations``).
"""
from __future__ import annotations

from typing import NoReturn

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


@plumbing("stand-in for a client-go lister Get: the data model has no PersistentVolumeClaims yet")
def get_pvc(namespace: str, name: str) -> NoReturn:
    """``pvcLister.PersistentVolumeClaims(namespace).Get(name)``."""
    raise NotFoundError.of(PERSISTENT_VOLUME_CLAIM, name)


@plumbing("stand-in for a client-go lister Get: the data model has no PersistentVolumes yet")
def get_pv(name: str) -> NoReturn:
    """``pvLister.Get(name)``."""
    raise NotFoundError.of(PERSISTENT_VOLUME, name)


@plumbing("stand-in for a client-go lister Get: the data model has no StorageClasses yet")
def get_storage_class(name: str) -> NoReturn:
    """``scLister.Get(name)``."""
    raise NotFoundError.of(STORAGE_CLASS, name)


@plumbing("stand-in for a client-go lister Get: the data model has no CSINodes yet")
def get_csi_node(name: str) -> NoReturn:
    """``csiNodeLister.Get(name)``; the limit plugins go on without one."""
    raise NotFoundError.of(CSI_NODE, name)


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
