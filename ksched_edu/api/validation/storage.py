"""Port of the storage checks of pkg/apis/core/validation/validation.go (v1.30):
ValidatePersistentVolumeClaim and ValidatePersistentVolume, the basics.

Deviations:
- Checked: metadata (name as a path segment), access modes (required,
  supported, ReadWriteOncePod alone), a claim's storage request, a volume's
  capacity and that it names exactly one volume type. The per-source checks
  (CSI driver names, local paths, ...), data sources and node affinity
  syntax are not checked. StorageClass, CSINode and CSIDriver are checked by
  their metadata only.
"""
from __future__ import annotations

from typing import Any

from ...anchors import plumbing, ports
from ..storage import (PersistentVolume, PersistentVolumeClaim, READ_ONLY_MANY, READ_WRITE_MANY, READ_WRITE_ONCE,
                       READ_WRITE_ONCE_POD, RESOURCE_STORAGE, VOLUME_MODE_BLOCK, VOLUME_MODE_FILESYSTEM)
from . import field
from .names import validate_path_segment_name
from .objectmeta import validate_object_meta

SUPPORTED_ACCESS_MODES = sorted([READ_WRITE_ONCE, READ_ONLY_MANY, READ_WRITE_MANY, READ_WRITE_ONCE_POD])
SUPPORTED_VOLUME_MODES = sorted([VOLUME_MODE_BLOCK, VOLUME_MODE_FILESYSTEM])


def _access_mode_errors(modes: list[str], path: str) -> field.ErrorList:
    errs: field.ErrorList = []
    found_rwop, found_other = False, False
    for mode in modes:
        if mode not in SUPPORTED_ACCESS_MODES:
            errs.append(field.not_supported(path, mode, SUPPORTED_ACCESS_MODES))
        if mode == READ_WRITE_ONCE_POD:
            found_rwop = True
        elif mode in SUPPORTED_ACCESS_MODES:
            found_other = True
    if found_rwop and found_other:
        errs.append(field.forbidden(path, "may not use ReadWriteOncePod with other access modes"))
    return errs


@ports("pkg/apis/core/validation/validation.go", "ValidatePersistentVolumeClaimSpec", 2282, 2352)
def validate_persistent_volume_claim_spec(pvc: PersistentVolumeClaim, path: str = "spec") -> field.ErrorList:
    spec = pvc.spec
    errs: field.ErrorList = []
    if not spec.access_modes:
        errs.append(field.required(f"{path}.accessModes", "at least 1 access mode is required"))
    errs += _access_mode_errors(spec.access_modes, f"{path}.accessModes")
    storage = spec.resources.requests.get(RESOURCE_STORAGE)
    if storage is None:
        errs.append(field.required(f"{path}.resources[{RESOURCE_STORAGE}]"))
    elif storage.sign() <= 0:
        errs.append(field.invalid(f"{path}.resources[{RESOURCE_STORAGE}]", str(storage), "must be greater than zero"))
    if spec.volume_mode is not None and spec.volume_mode not in SUPPORTED_VOLUME_MODES:
        errs.append(field.not_supported(f"{path}.volumeMode", spec.volume_mode, SUPPORTED_VOLUME_MODES))
    return errs


@ports("pkg/apis/core/validation/validation.go", "ValidatePersistentVolumeClaim", 2217, 2221)
def validate_persistent_volume_claim(pvc: PersistentVolumeClaim) -> field.ErrorList:
    errs = validate_object_meta(pvc.metadata, True, validate_path_segment_name)
    return errs + validate_persistent_volume_claim_spec(pvc)


@ports("pkg/apis/core/validation/validation.go", "ValidatePersistentVolumeSpec", 1790, 2085)
def validate_persistent_volume_spec(pv: PersistentVolume, path: str = "spec") -> field.ErrorList:
    spec = pv.spec
    errs: field.ErrorList = []
    if not spec.access_modes:
        errs.append(field.required(f"{path}.accessModes"))
    errs += _access_mode_errors(spec.access_modes, f"{path}.accessModes")
    if not spec.capacity:
        errs.append(field.required(f"{path}.capacity"))
    for name, q in spec.capacity.items():
        if q.sign() <= 0:
            errs.append(field.invalid(f"{path}.capacity[{name}]", str(q), "must be greater than zero"))
    kinds = list(spec.source)
    for extra in kinds[1:]:
        errs.append(field.forbidden(f"{path}.{extra}", "may not specify more than 1 volume type"))
    if not kinds:
        errs.append(field.required(path, "must specify a volume type"))
    return errs


@ports("pkg/apis/core/validation/validation.go", "ValidatePersistentVolume", 2087, 2092)
def validate_persistent_volume(pv: PersistentVolume) -> field.ErrorList:
    errs = validate_object_meta(pv.metadata, False, validate_path_segment_name)
    return errs + validate_persistent_volume_spec(pv)


@plumbing("dispatches to the storage kind's validation")
def storage_kind_errors(obj: Any) -> field.ErrorList:
    """The storage kinds' own validation (the registry strategy's Validate)."""
    if isinstance(obj, PersistentVolumeClaim):
        return validate_persistent_volume_claim(obj)
    if isinstance(obj, PersistentVolume):
        return validate_persistent_volume(obj)
    return validate_object_meta(obj.metadata, False, validate_path_segment_name)
