"""A simulated PV controller and external provisioner: what completes the bindings the scheduler starts.

In a cluster, kube-controller-manager's PersistentVolume controller
(``pkg/controller/volume/persistentvolume``) binds claims to volumes, and an
external provisioner (a CSI driver's sidecar) creates volumes for claims whose
StorageClass names it. The scheduler only *starts* a binding: VolumeBinding's
PreBind writes a volume's ``claimRef`` (a static binding) or a claim's
``volume.kubernetes.io/selected-node`` annotation (a provisioning), then polls
until the controller has finished. This module is a small model of those two
controllers, enough for the scheduler's side of the story; it is not a port.

What it does, watching the API server (``ksched_edu/sim/apiserver.py``), each
action recorded as a ``StorageEvent`` (``ksched_edu/trace.py``):

- A claim of an ``Immediate`` class (or of no class) is bound at once to the
  smallest Available volume that fits it (``FindMatchingVolume`` without a
  node, as the controller's ``syncUnboundClaim`` does); when none fits and its
  class has a provisioner, a volume is provisioned for it.
- A volume whose ``claimRef`` names a claim that is not bound yet (the
  scheduler's PreBind, or a volume the provisioner just created) is bound to
  that claim: the claim gets ``spec.volumeName``, the annotations
  ``pv.kubernetes.io/bind-completed`` and ``pv.kubernetes.io/bound-by-controller``
  and phase Bound; the volume gets phase Bound.
- A ``WaitForFirstConsumer`` claim annotated with a selected node gets a volume
  ``provision_delay_seconds`` later, created on that node's topology (see
  ``provisioned_node_affinity``), which is then bound to it.

Deviations (simplifications of the two controllers):
- Every write is a timer on the virtual clock (``bind_delay_seconds`` after the
  watch event, ``provision_delay_seconds`` for a provisioning): the controller
  never writes inside another writer's call, as a separate process would not.
- Any provisioner name but ``kubernetes.io/no-provisioner`` is served; there is
  no CSIDriver check, no capacity limit, no failed provisioning to retry, no
  reclaim of released volumes and no claim or volume deletion handling.
- Writes are not checked against resourceVersion (the simulated API server has
  no optimistic concurrency); the controller reads the current object before
  each write.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Optional

from ..anchors import plumbing
from ..api.pv_helpers import find_matching_volume, is_volume_bound_to_claim
from ..api.storage import (ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE, CLAIM_BOUND,
                           NOT_SUPPORTED_PROVISIONER, RECLAIM_DELETE, RESOURCE_STORAGE, VOLUME_AVAILABLE,
                           VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER, VOLUME_BOUND, CSIPersistentVolumeSource,
                           ObjectReference, PersistentVolume, PersistentVolumeSpec, VolumeNodeAffinity,
                           get_persistent_volume_claim_class)
from ..api.types import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, ObjectMeta
from ..trace import NULL_RECORDER, Recorder, StorageEvent

# The annotation an external provisioner puts on the volumes it creates.
ANN_PROVISIONED_BY = "pv.kubernetes.io/provisioned-by"
# The zone label used when neither the CSI driver nor the class names topology keys.
LABEL_TOPOLOGY_ZONE = "topology.kubernetes.io/zone"


@plumbing("a simulated PV controller and provisioner: its delays on the virtual clock")
@dataclass
class StorageControllerOptions:
    """How long the simulated controllers take.

    ``provision_delay_seconds``: from a claim's selected-node annotation (or an Immediate
    claim with no volume to bind) to its volume's creation. ``bind_delay_seconds``: from a
    watch event to the binding it causes.
    """

    provision_delay_seconds: float = 5.0
    bind_delay_seconds: float = 0.0


@plumbing("a simulated PV controller and provisioner: binds claims, creates volumes on the virtual clock")
class StorageController:
    """Watches claims and volumes on ``api`` and binds or provisions them on ``clock``."""

    def __init__(self, api: Any, clock: Any, options: Optional[StorageControllerOptions] = None, *,
                 recorder: Recorder = NULL_RECORDER) -> None:
        self.api = api
        self.clock = clock
        self.options = options or StorageControllerOptions()
        self.recorder = recorder
        # What the controller did or saw, in order (also recorded as StorageEvents when tracing),
        # each with the number of API writes before it (to place it among them in a timeline).
        self.events: list[StorageEvent] = []
        self.write_marks: list[int] = []
        self._sync_pending: set[str] = set()
        self._provision_pending: set[str] = set()
        self._failed: set[str] = set()
        # True while the controller writes (its own writes are not the scheduler's pre-binding).
        self._writing = False
        api.watch("PersistentVolumeClaim", self._on_claim)
        api.watch("PersistentVolume", self._on_volume)
        for claim in api.list("PersistentVolumeClaim"):
            self._queue_claim(claim.metadata.namespace, claim.metadata.name)

    # --- watch handlers: each queues a sync on the clock ------------------------------------

    def _on_claim(self, event: str, old: Any, new: Any) -> None:
        if new is None:
            return
        node = new.metadata.annotations.get(ANN_SELECTED_NODE)
        if node and (old is None or old.metadata.annotations.get(ANN_SELECTED_NODE) != node) \
                and not new.spec.volume_name:
            self._record("selected-node", new, "", node, "a volume is to be provisioned for the node")
        self._queue_claim(new.metadata.namespace, new.metadata.name)

    def _on_volume(self, event: str, old: Any, new: Any) -> None:
        if new is None:
            return
        ref = new.spec.claim_ref
        if (event == "update" and not self._writing and ref is not None and ref.name and old is not None
                and old.spec.claim_ref is None):
            claim = self.api.get("PersistentVolumeClaim", ref.namespace, ref.name)
            if claim is not None and not claim.spec.volume_name:
                self._record("pre-bound", claim, new.metadata.name, "", "the volume names the claim")
        if ref is not None and ref.name:
            self._queue_claim(ref.namespace, ref.name)
        elif event == "add":
            # A new volume may fit a claim that found none.
            for claim in self.api.list("PersistentVolumeClaim"):
                if not claim.spec.volume_name:
                    self._queue_claim(claim.metadata.namespace, claim.metadata.name)

    def _queue_claim(self, namespace: str, name: str) -> None:
        key = f"{namespace}/{name}"
        if key in self._sync_pending:
            return
        self._sync_pending.add(key)
        self.clock.call_later(self.options.bind_delay_seconds, lambda: self._sync(namespace, name),
                              label=f"pv controller sync {key}")

    def _sync(self, namespace: str, name: str) -> None:
        self._sync_pending.discard(f"{namespace}/{name}")
        claim = self.api.get("PersistentVolumeClaim", namespace, name)
        if claim is not None:
            self.sync_claim(claim)

    # --- the PV controller ----------------------------------------------------------------

    @plumbing("a simulated PV controller: one claim's sync (a simplified syncClaim)")
    def sync_claim(self, claim: Any) -> None:
        """Bind, provision or leave the claim, by its state now."""
        if claim.metadata.deletion_timestamp is not None:
            return
        if claim.spec.volume_name:
            pv = self.api.get("PersistentVolume", "", claim.spec.volume_name)
            if pv is None:
                return  # a claim bound to a volume that does not exist (yet): it waits
            if ANN_BIND_COMPLETED in claim.metadata.annotations and claim.status.phase == CLAIM_BOUND:
                if is_volume_bound_to_claim(pv, claim) and pv.status.phase != VOLUME_BOUND:
                    self._write_volume_bound(pv, claim)
                return
            if pv.spec.claim_ref is None or is_volume_bound_to_claim(pv, claim):
                self.bind(claim, pv)
            return
        # An unbound claim: a volume may already name it (the scheduler's PreBind, the provisioner).
        for pv in sorted(self.api.list("PersistentVolume"), key=lambda v: v.metadata.name):
            if is_volume_bound_to_claim(pv, claim) and pv.metadata.deletion_timestamp is None:
                self.bind(claim, pv)
                return
        storage_class = self._storage_class(claim)
        if storage_class is not None and storage_class.volume_binding_mode == VOLUME_BINDING_WAIT_FOR_FIRST_CONSUMER:
            node = claim.metadata.annotations.get(ANN_SELECTED_NODE)
            if node:
                self._queue_provision(claim, node)
            return  # waits for the scheduler to pick a node
        class_name = get_persistent_volume_claim_class(claim)
        volumes = [v for v in self.api.list("PersistentVolume")
                   if v.spec.storage_class_name == class_name]
        volumes.sort(key=lambda v: v.metadata.name)
        pv = find_matching_volume(claim, volumes, None, {}, False)
        if pv is not None:
            self.bind(claim, pv)
        elif storage_class is not None and storage_class.provisioner not in ("", NOT_SUPPORTED_PROVISIONER):
            self._queue_provision(claim, "")
        # else: the claim waits for a volume to be created by hand

    @plumbing("a simulated PV controller: binds a claim and a volume to each other")
    def bind(self, claim: Any, pv: Any) -> None:
        """The volume's claimRef and phase Bound, then the claim's volumeName, annotations and phase."""
        bound_by_controller = not claim.spec.volume_name
        self._write_volume_bound(pv, claim)
        new_claim = copy.deepcopy(claim)
        new_claim.spec.volume_name = pv.metadata.name
        new_claim.metadata.annotations[ANN_BIND_COMPLETED] = "yes"
        if bound_by_controller:
            new_claim.metadata.annotations[ANN_BOUND_BY_CONTROLLER] = "yes"
        new_claim.status.phase = CLAIM_BOUND
        new_claim.status.access_modes = list(pv.spec.access_modes)
        new_claim.status.capacity = dict(pv.spec.capacity)
        self.api.update(new_claim)
        self._record("bind", claim, pv.metadata.name, claim.metadata.annotations.get(ANN_SELECTED_NODE, ""))

    def _write_volume_bound(self, pv: Any, claim: Any) -> None:
        ref = pv.spec.claim_ref
        sets_ref = ref is None or ref.uid != claim.metadata.uid or ref.name != claim.metadata.name
        if not sets_ref and pv.status.phase == VOLUME_BOUND:
            return
        new_pv = copy.deepcopy(pv)
        if sets_ref:
            new_pv.spec.claim_ref = _claim_ref(claim)
            new_pv.metadata.annotations.setdefault(ANN_BOUND_BY_CONTROLLER, "yes")
        new_pv.status.phase = VOLUME_BOUND
        self._writing = True
        try:
            self.api.update(new_pv)
        finally:
            self._writing = False

    # --- the provisioner --------------------------------------------------------------------

    def _queue_provision(self, claim: Any, node: str) -> None:
        key = claim_key(claim)
        if key in self._provision_pending:
            return
        self._provision_pending.add(key)
        namespace, name = claim.metadata.namespace, claim.metadata.name
        self.clock.call_later(self.options.provision_delay_seconds, lambda: self._provision(namespace, name, node),
                              label=f"provision {key}")

    def _provision(self, namespace: str, name: str, node: str) -> None:
        self._provision_pending.discard(f"{namespace}/{name}")
        claim = self.api.get("PersistentVolumeClaim", namespace, name)
        if claim is None or claim.spec.volume_name or claim.metadata.deletion_timestamp is not None:
            return
        if node and claim.metadata.annotations.get(ANN_SELECTED_NODE) != node:
            return  # the scheduler gave the claim up (or chose another node) meanwhile
        self.provision(claim, node)

    @plumbing("a simulated external provisioner: creates a volume for a claim, on the selected node's topology")
    def provision(self, claim: Any, node_name: str) -> Optional[PersistentVolume]:
        """Create the claim's volume (pre-bound to it by claimRef); None when it cannot be provisioned."""
        storage_class = self._storage_class(claim)
        provisioner = storage_class.provisioner if storage_class is not None else ""
        if not provisioner or provisioner == NOT_SUPPORTED_PROVISIONER:
            self._fail(claim, node_name, f'storageclass "{get_persistent_volume_claim_class(claim)}" '
                                         f'has no provisioner to create a volume')
            return None
        node = self.api.get("Node", "", node_name) if node_name else None
        if node_name and node is None:
            self._fail(claim, node_name, f'node "{node_name}" not found')
            return None
        name = f"pvc-{claim.metadata.uid}" if claim.metadata.uid else f"pvc-{claim.metadata.namespace}-{claim.metadata.name}"
        existing = self.api.get("PersistentVolume", "", name)
        if existing is not None:
            return existing
        csi_node = self.api.get("CSINode", "", node_name) if node_name else None
        request = claim.spec.resources.requests.get(RESOURCE_STORAGE)
        pv = PersistentVolume(
            ObjectMeta(name=name, annotations={ANN_PROVISIONED_BY: provisioner}),
            PersistentVolumeSpec(
                capacity={RESOURCE_STORAGE: request} if request is not None else {},
                source={"csi": {"driver": provisioner, "volumeHandle": name}},
                csi=CSIPersistentVolumeSource(driver=provisioner, volume_handle=name),
                access_modes=list(claim.spec.access_modes), claim_ref=_claim_ref(claim),
                persistent_volume_reclaim_policy=storage_class.reclaim_policy or RECLAIM_DELETE,
                storage_class_name=storage_class.metadata.name, volume_mode=claim.spec.volume_mode,
                node_affinity=provisioned_node_affinity(storage_class, node, csi_node)))
        pv.status.phase = VOLUME_AVAILABLE
        self.api.create(pv)
        self._record("provision", claim, name, node_name)
        return pv

    def _fail(self, claim: Any, node: str, message: str) -> None:
        key = claim_key(claim)
        if key not in self._failed:
            self._failed.add(key)
            self._record("provision-failed", claim, "", node, message)

    # --- reading ------------------------------------------------------------------------------

    def _storage_class(self, claim: Any) -> Any:
        name = get_persistent_volume_claim_class(claim)
        return self.api.get("StorageClass", "", name) if name else None

    def _record(self, action: str, claim: Any, volume: str, node: str, message: str = "") -> None:
        event = StorageEvent(self.clock.now, action, claim_key(claim), volume, node, message)
        self.events.append(event)
        self.write_marks.append(len(self.api.writes))
        if self.recorder.enabled:
            self.recorder.record(event)


@plumbing("a simulated external provisioner: the topology of a provisioned volume")
def provisioned_node_affinity(storage_class: Any, node: Any, csi_node: Any) -> Optional[VolumeNodeAffinity]:
    """Where a new volume can be reached from, as one node selector term.

    With a selected node (WaitForFirstConsumer), the node's own values for, in this
    order: the topology keys its CSINode lists for the class's provisioner (what a
    CSI driver reports as the volume's accessible topology); else the keys of the
    class's allowedTopologies term that admits the node; else its
    ``topology.kubernetes.io/zone`` label. Without a node (Immediate): the class's
    first allowedTopologies term as it stands. None when none of these applies.
    """
    if node is None:
        if not storage_class.allowed_topologies:
            return None
        term = storage_class.allowed_topologies[0]
        return _affinity([NodeSelectorRequirement(e.key, "In", list(e.values))
                          for e in term.match_label_expressions])
    labels = node.metadata.labels
    keys: list[str] = []
    if csi_node is not None:
        driver = next((d for d in csi_node.spec.drivers if d.name == storage_class.provisioner), None)
        if driver is not None:
            keys = list(driver.topology_keys)
    if not keys:
        for term in storage_class.allowed_topologies:
            if all(labels.get(e.key) in e.values for e in term.match_label_expressions):
                keys = [e.key for e in term.match_label_expressions]
                break
    if not keys and LABEL_TOPOLOGY_ZONE in labels:
        keys = [LABEL_TOPOLOGY_ZONE]
    return _affinity([NodeSelectorRequirement(k, "In", [labels[k]]) for k in keys if k in labels])


def _affinity(requirements: list[NodeSelectorRequirement]) -> Optional[VolumeNodeAffinity]:
    if not requirements:
        return None
    return VolumeNodeAffinity(NodeSelector([NodeSelectorTerm(match_expressions=requirements)]))


def _claim_ref(claim: Any) -> ObjectReference:
    return ObjectReference(kind="PersistentVolumeClaim", namespace=claim.metadata.namespace,
                           name=claim.metadata.name, uid=claim.metadata.uid, api_version="v1",
                           resource_version=claim.metadata.resource_version)


@plumbing("a simulated PV controller: names a claim in its events")
def claim_key(claim: Any) -> str:
    return f"{claim.metadata.namespace}/{claim.metadata.name}"
