"""Port of k8s.io/component-helpers/storage/volume (v0.30.4): pv_helpers.go and
CheckNodeAffinity of helpers.go, the volume matching the scheduler's volume
binder shares with the PV controller.

:func:`find_matching_volume` picks the smallest available volume that fits a
claim (class, size, access modes, volume mode, selector, node affinity), or
the volume the claim is pre-bound to.
"""
from __future__ import annotations

import copy
from typing import Any, Optional

from ..anchors import SCHEDULER_PLUGINS, ports
from .labels import selector_from_label_selector
from .nodeaffinity import new_lazy_error_node_selector
from .storage import (ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE, RESOURCE_STORAGE, VOLUME_AVAILABLE,
                      VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER, VOLUME_MODE_FILESYSTEM, ObjectReference,
                      PersistentVolume, PersistentVolumeClaim, get_persistent_volume_claim_class,
                      get_persistent_volume_class)
from .types import NodeSelector, Node, ObjectMeta
from .quantity import Quantity

_ZERO = Quantity("0")


@ports("vendor/k8s.io/component-helpers/storage/volume/helpers.go", "CheckNodeAffinity", 68, 84, repo=SCHEDULER_PLUGINS)
def check_node_affinity(pv: PersistentVolume, node_labels: dict[str, str]) -> Optional[str]:
    """None when the volume's required node affinity admits a node with these labels, else why not."""
    if pv.spec.node_affinity is None:
        return None
    required = pv.spec.node_affinity.required
    if required is not None:
        node = Node(metadata=ObjectMeta(labels=dict(node_labels)))
        matches, err = new_lazy_error_node_selector(NodeSelector(required.node_selector_terms)).match(node)
        if err is not None:
            return str(err)
        if not matches:
            return "no matching NodeSelectorTerms"
    return None


@ports("vendor/k8s.io/component-helpers/storage/volume/pv_helpers.go", "IsDelayBindingProvisioning", 85, 92, repo=SCHEDULER_PLUGINS)
def is_delay_binding_provisioning(claim: PersistentVolumeClaim) -> bool:
    return ANN_SELECTED_NODE in claim.metadata.annotations


@ports("vendor/k8s.io/component-helpers/storage/volume/pv_helpers.go", "IsDelayBindingMode", 95, 114, repo=SCHEDULER_PLUGINS)
def is_delay_binding_mode(claim: PersistentVolumeClaim, class_lister: Any) -> bool:
    """Does the claim's class bind WaitForFirstConsumer? A missing class is not delayed.

    ``class_lister`` has ``get_storage_class(name)`` raising a NotFound LookupError.
    Raises ValueError for a class without a binding mode.
    """
    class_name = get_persistent_volume_claim_class(claim)
    if not class_name:
        return False
    try:
        cls = class_lister.get_storage_class(class_name)
    except LookupError:
        return False
    if cls.volume_binding_mode is None:
        raise ValueError(f'VolumeBindingMode not set for StorageClass "{class_name}"')
    return cls.volume_binding_mode == VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER


@ports("vendor/k8s.io/component-helpers/storage/volume/pv_helpers.go", "GetBindVolumeToClaim", 119, 153, repo=SCHEDULER_PLUGINS)
def get_bind_volume_to_claim(volume: PersistentVolume,
                             claim: PersistentVolumeClaim) -> tuple[PersistentVolume, bool]:
    """A copy of ``volume`` bound to ``claim`` (claimRef, bound-by-controller) and whether it changed."""
    dirty = False
    should_set_bound_by_controller = not is_volume_bound_to_claim(volume, claim)
    volume_clone = copy.deepcopy(volume)
    ref = volume.spec.claim_ref
    if (ref is None or ref.name != claim.metadata.name or ref.namespace != claim.metadata.namespace
            or ref.uid != claim.metadata.uid):
        volume_clone.spec.claim_ref = ObjectReference(
            kind="PersistentVolumeClaim", namespace=claim.metadata.namespace, name=claim.metadata.name,
            uid=claim.metadata.uid, api_version="v1", resource_version=claim.metadata.resource_version)
        dirty = True
    if should_set_bound_by_controller and ANN_BOUND_BY_CONTROLLER not in volume_clone.metadata.annotations:
        volume_clone.metadata.annotations[ANN_BOUND_BY_CONTROLLER] = "yes"
        dirty = True
    return volume_clone, dirty


@ports("vendor/k8s.io/component-helpers/storage/volume/pv_helpers.go", "IsVolumeBoundToClaim", 158, 169, repo=SCHEDULER_PLUGINS)
def is_volume_bound_to_claim(volume: PersistentVolume, claim: PersistentVolumeClaim) -> bool:
    ref = volume.spec.claim_ref
    if ref is None:
        return False
    if claim.metadata.name != ref.name or claim.metadata.namespace != ref.namespace:
        return False
    if ref.uid != "" and claim.metadata.uid != ref.uid:
        return False
    return True


def _storage(resources: dict[str, Quantity]) -> Quantity:
    return resources.get(RESOURCE_STORAGE, _ZERO)


@ports("vendor/k8s.io/component-helpers/storage/volume/pv_helpers.go", "FindMatchingVolume", 185, 306, repo=SCHEDULER_PLUGINS)
def find_matching_volume(claim: PersistentVolumeClaim, volumes: list[PersistentVolume], node: Optional[Node],
                         excluded_volumes: dict[str, PersistentVolume],
                         delay_binding: bool) -> Optional[PersistentVolume]:
    """The volume the claim is pre-bound to, or the smallest available one that fits it.

    With a node, only volumes whose node affinity admits it (and whose access
    modes cover the claim's) qualify. The first of equally small volumes wins.
    """
    smallest_volume: Optional[PersistentVolume] = None
    smallest_volume_qty: Optional[Quantity] = None
    requested_qty = _storage(claim.spec.resources.requests)
    requested_class = get_persistent_volume_claim_class(claim)

    selector = None
    if claim.spec.selector is not None:
        selector = selector_from_label_selector(claim.spec.selector)

    for volume in volumes:
        if volume.metadata.name in excluded_volumes:
            continue
        if volume.spec.claim_ref is not None and not is_volume_bound_to_claim(volume, claim):
            continue

        volume_qty = _storage(volume.spec.capacity)
        if volume_qty.cmp(requested_qty) < 0:
            continue
        # A volume of another volume mode never fits, not even a pre-bound one.
        if check_volume_mode_mismatches(claim, volume):
            continue
        # A volume being deleted is not a candidate.
        if volume.metadata.deletion_timestamp is not None:
            continue

        node_affinity_valid = True
        if node is not None and check_node_affinity(volume, node.metadata.labels) is not None:
            node_affinity_valid = False

        if is_volume_bound_to_claim(volume, claim):
            # The claim is pre-bound to this volume: it is the match, or none is.
            if not node_affinity_valid:
                return None
            return volume

        if node is None and delay_binding:
            # Delayed binding: only pre-bound volumes match before a node is chosen.
            continue

        # Filter the remaining volumes.
        if volume.status.phase != VOLUME_AVAILABLE:
            continue
        if selector is not None and not selector.matches(volume.metadata.labels):
            continue
        if get_persistent_volume_class(volume) != requested_class:
            continue
        if not node_affinity_valid:
            continue
        if node is not None and not check_access_modes(claim, volume):
            continue

        if smallest_volume is None or smallest_volume_qty.cmp(volume_qty) > 0:
            smallest_volume = volume
            smallest_volume_qty = volume_qty
    return smallest_volume


@ports("vendor/k8s.io/component-helpers/storage/volume/pv_helpers.go", "CheckVolumeModeMismatches", 310, 322, repo=SCHEDULER_PLUGINS)
def check_volume_mode_mismatches(claim: PersistentVolumeClaim, volume: PersistentVolume) -> bool:
    requested = claim.spec.volume_mode or VOLUME_MODE_FILESYSTEM
    offered = volume.spec.volume_mode or VOLUME_MODE_FILESYSTEM
    return requested != offered


@ports("vendor/k8s.io/component-helpers/storage/volume/pv_helpers.go", "CheckAccessModes", 325, 338, repo=SCHEDULER_PLUGINS)
def check_access_modes(claim: PersistentVolumeClaim, volume: PersistentVolume) -> bool:
    """Does the volume offer every access mode the claim asks for?"""
    offered = set(volume.spec.access_modes)
    return all(mode in offered for mode in claim.spec.access_modes)
