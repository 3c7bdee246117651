"""Port of k8s.io/apiserver/pkg/registry/rest/create.go (v1.30), BeforeCreate, for the kinds
kube-scheduler reads.

:func:`validate_object` runs what the API server runs on a create after
defaulting: the kind's validation (pkg/apis/*/validation), then the generic
registry's metadata check, then the Priority admission plugin's check of a
PriorityClass. It raises :class:`~ksched_edu.api.errors.InvalidObjectError`
with the API server's message, or returns when the object would be accepted.
The checks live in ``names`` (apimachinery util/validation), ``objectmeta``,
``core`` (Pod, Node), ``scheduling`` (PriorityClass) and ``policy`` (PDB).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Optional

from ..defaults import NAMESPACED_KINDS, default_priority_class, object_label
from ..errors import ForbiddenObjectError, InvalidObjectError
from ..types import PriorityClass, Service
from . import field
from ...anchors import SCHEDULER_PLUGINS, plumbing, ports
from .core import ValidationOptions, validate_node, validate_pod_create
from .names import (
    name_is_dns1035_label,
    name_is_dns_subdomain,
    validate_path_segment_name,
)
from .objectmeta import validate_labels, validate_object_meta
from .policy import validate_pdb
from .scheduling import admit_priority_class, validate_priority_class
from .storage import storage_kind_errors
from ..storage import NAMESPACED, STORAGE_KINDS, label_of

__all__ = ["ValidationOptions", "validate_object", "validate_objects", "group_kind"]

# kind -> GroupKind.String(), as NewInvalid prints it
GROUP_KINDS = {
    "Pod": "Pod", "Node": "Node", "Service": "Service", "ReplicationController": "ReplicationController",
    "PriorityClass": "PriorityClass.scheduling.k8s.io", "PodDisruptionBudget": "PodDisruptionBudget.policy",
    "ReplicaSet": "ReplicaSet.apps", "StatefulSet": "StatefulSet.apps",
    "PersistentVolumeClaim": "PersistentVolumeClaim", "PersistentVolume": "PersistentVolume",
    "StorageClass": "StorageClass.storage.k8s.io", "CSINode": "CSINode.storage.k8s.io",
    "CSIDriver": "CSIDriver.storage.k8s.io",
}


@plumbing("group/kind names for error messages")
def group_kind(kind: str) -> str:
    return GROUP_KINDS.get(kind, kind)


def _validate_service(svc: Service) -> field.ErrorList:
    """Upstream ValidateService, the parts the loader reads: the name and the selector."""
    errs = validate_object_meta(svc.metadata, True, name_is_dns1035_label)
    return errs + validate_labels(svc.selector, "spec.selector")


@plumbing("dispatches to the kind's validation")
def kind_errors(obj: Any, opts: ValidationOptions) -> field.ErrorList:
    """The kind's own validation (the registry strategy's Validate)."""
    kind = obj.kind
    if kind == "Pod":
        return validate_pod_create(obj, opts)
    if kind == "Node":
        return validate_node(obj, opts)
    if kind == "PriorityClass":
        return validate_priority_class(obj)
    if kind == "PodDisruptionBudget":
        return validate_pdb(obj)
    if kind == "Service":
        return _validate_service(obj)
    if kind in STORAGE_KINDS:
        return storage_kind_errors(obj)
    # ReplicationController, ReplicaSet, StatefulSet: only their metadata is read
    return validate_object_meta(obj.metadata, kind in NAMESPACED_KINDS, name_is_dns_subdomain)


@ports("vendor/k8s.io/apimachinery/pkg/api/validation/objectmeta.go", "ValidateObjectMetaAccessor", 155, 194, repo=SCHEDULER_PLUGINS)
def generic_meta_errors(obj: Any) -> field.ErrorList:
    """The generic registry's ValidateObjectMetaAccessor (BeforeCreate), after the kind's."""
    namespaced = obj.kind in NAMESPACED
    meta = obj.metadata if namespaced else dataclasses.replace(obj.metadata, namespace="")
    return validate_object_meta(meta, namespaced, validate_path_segment_name)


def _refuse(obj: Any, errs: field.ErrorList) -> InvalidObjectError:
    meta = obj.metadata
    message = field.new_invalid_message(group_kind(obj.kind), meta.name, errs)
    return InvalidObjectError("", label_of(obj.kind, meta.namespace, meta.name), obj.kind,
                              meta.name, meta.namespace, errs, message)


@plumbing("the simulated API server's create-time checks")
def validate_object(obj: Any, opts: Optional[ValidationOptions] = None,
                    default_class: Optional[PriorityClass] = None) -> None:
    """Raise what kube-apiserver answers a create of ``obj`` (already defaulted) with, if anything.

    ``default_class`` is the global-default PriorityClass created before this one, if any.
    """
    opts = opts or ValidationOptions()
    for check in (lambda: kind_errors(obj, opts), lambda: generic_meta_errors(obj)):
        errs = check()
        if errs:
            raise _refuse(obj, errs)
    if isinstance(obj, PriorityClass):
        message = admit_priority_class(obj, default_class)
        if message is not None:
            raise ForbiddenObjectError("", object_label("PriorityClass", "", obj.metadata.name),
                                       "PriorityClass", obj.metadata.name, message)


@plumbing("validates a loaded manifest set in creation order")
def validate_objects(objects: Iterable[Any], opts: Optional[ValidationOptions] = None) -> None:
    """Validate objects in the order they would be created; stop at the first refused."""
    classes: list[PriorityClass] = []
    for obj in objects:
        if not hasattr(obj, "kind") or not hasattr(obj, "metadata"):
            continue  # a raw kind (PodGroup, NodeResourceTopology)
        validate_object(obj, opts, default_priority_class(classes))
        if isinstance(obj, PriorityClass):
            classes.append(obj)

