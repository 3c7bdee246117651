"""Port of pkg/scheduler/framework/plugins/volumebinding/binder.go (v1.30): the
scheduler's volume binder.

For a pod's PersistentVolumeClaims it tells, per node, whether the bound
claims' volumes are reachable (their node affinity), which available volumes
the unbound WaitForFirstConsumer claims would bind to (``FindMatchingVolume``)
and which claims would be provisioned instead (the StorageClass's provisioner
and allowed topologies, CSI storage capacity). Reserve assumes the chosen
bindings in its caches; PreBind writes them to the API server and waits for
the PV controller to finish binding.

Deviations:
- ``BindPodVolumes`` polls ``checkBindings`` every second of *virtual* time
  (upstream ``wait.PollUntilContextTimeout`` on the wall clock): the binder's
  ``sleep`` hook, set by the scheduler, suspends the pod's binding cycle on the
  virtual clock while other pods are scheduled and a simulated PV controller
  (``ksched_edu/sim/storage_controller.py``) completes the binding. Without the
  hook (the binder called on its own), nothing can change between two checks:
  one check decides, and a binding not complete fails at once with upstream's
  ``binding volumes: context deadline exceeded``.
- CSIStorageCapacity objects are not modelled: a CSIDriver with
  ``storageCapacity: true`` finds no capacity, so its claims do not fit.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ....anchors import K8S, SCHEDULER_PLUGINS, plumbing, ports
from ....api.pv_helpers import (check_node_affinity, find_matching_volume, get_bind_volume_to_claim,
                                is_delay_binding_mode)
from ....api.storage import (ANN_BIND_COMPLETED, ANN_SELECTED_NODE, NOT_SUPPORTED_PROVISIONER, RESOURCE_STORAGE,
                             get_persistent_volume_claim_class)
from ....api.quantity import Quantity
from ....api.types import Node, Pod
from ..nodevolumelimits.csi_translation import (get_in_tree_plugin_name_from_spec, is_pv_migratable,
                                                translate_in_tree_pv_to_csi)
from ..nodevolumelimits.utils import (AWS_EBS_IN_TREE_PLUGIN_NAME, AZURE_DISK_IN_TREE_PLUGIN_NAME,
                                      CINDER_IN_TREE_PLUGIN_NAME, CSI_MIGRATION_PORTWORX, CSI_MIGRATION_RBD,
                                      GCE_PD_IN_TREE_PLUGIN_NAME, MIGRATED_PLUGINS_ANNOTATION_KEY,
                                      PORTWORX_VOLUME_PLUGIN_NAME, RBD_VOLUME_PLUGIN_NAME)
from ..storage_listers import NotFoundError, StorageListers, claim_name, ephemeral_claim_name, volume_is_for_pod
from .assume_cache import AssumeCacheNotFoundError, PVAssumeCache, PVCAssumeCache

# ConflictReason: why a node does not fit the pod's volumes.
ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind"
ERR_REASON_NODE_CONFLICT = "node(s) had volume node affinity conflict"
ERR_REASON_NOT_ENOUGH_SPACE = "node(s) did not have enough free storage"
ERR_REASON_PV_NOT_EXIST = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"

LABEL_HOSTNAME = "kubernetes.io/hostname"
# BindPodVolumes polls checkBindings this often (upstream: time.Second).
BIND_POLL_INTERVAL_SECONDS = 1.0
# The error of a poll whose time ran out (Go's context.DeadlineExceeded).
ERR_DEADLINE_EXCEEDED = "context deadline exceeded"
_ZERO = Quantity("0")


@ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "BindingInfo", 74, 80)
@dataclass
class BindingInfo:
    """A claim and the volume chosen for it."""

    pvc: Any
    pv: Any

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*BindingInfo).StorageClassName", 83, 85)
    def storage_class_name(self) -> str:
        return self.pv.spec.storage_class_name

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*BindingInfo).StorageResource", 94, 102)
    def storage_resource(self) -> "StorageResource":
        """The claim's requested storage and the volume's capacity (both required fields)."""
        from .scorer import StorageResource

        requested = self.pvc.spec.resources.requests.get(RESOURCE_STORAGE, _ZERO)
        capacity = self.pv.spec.capacity.get(RESOURCE_STORAGE, _ZERO)
        return StorageResource(requested.value(), capacity.value())


@ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "PodVolumes", 105, 111)
@dataclass
class PodVolumes:
    """The bindings and provisionings found for one node (None when there are none)."""

    static_bindings: Optional[list[BindingInfo]] = None
    dynamic_provisions: Optional[list[Any]] = None


@ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "PodVolumeClaims", 202, 211)
@dataclass
class PodVolumeClaims:
    bound_claims: list[Any] = field(default_factory=list)
    unbound_claims_delay_binding: list[Any] = field(default_factory=list)
    unbound_claims_immediate: list[Any] = field(default_factory=list)
    # storage class -> the volumes of that class (for the delayed-binding claims).
    unbound_volumes_delay_binding: dict[str, list[Any]] = field(default_factory=dict)


@plumbing("Go's error return of a binder method")
class BinderError(Exception):
    pass


@ports("pkg/apis/core/v1/helper/helpers.go", "MatchTopologySelectorTerms", 267, 288)
def match_topology_selector_terms(terms: list[Any], labels: dict[str, str]) -> bool:
    """No terms match every node; otherwise any term whose keys all carry one of its values."""
    if not terms:
        return True
    for term in terms:
        if not term.match_label_expressions:
            continue  # an empty term selects nothing
        if all(e.values and labels.get(e.key) in e.values for e in term.match_label_expressions):
            return True
    return False


@ports("pkg/volume/util/util.go", "GetLocalPersistentVolumeNodeNames", 593, 614, repo=K8S)
def get_local_persistent_volume_node_names(pv: Any) -> list[str]:
    """The hosts a volume's node affinity pins it to (``kubernetes.io/hostname In``), sorted."""
    if pv is None or pv.spec.node_affinity is None or pv.spec.node_affinity.required is None:
        return []
    result: set[str] = set()
    for term in pv.spec.node_affinity.required.node_selector_terms:
        nodes: Optional[set[str]] = None
        for expr in term.match_expressions:
            if expr.key == LABEL_HOSTNAME and expr.operator == "In":
                nodes = set(expr.values) if nodes is None else nodes & set(expr.values)
        result |= nodes or set()
    return sorted(result)


def _pod_name(pod: Pod) -> str:
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


def _pvc_name(pvc: Any) -> str:
    return f"{pvc.metadata.namespace}/{pvc.metadata.name}"


@ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "isCSIMigrationOnForPlugin", 1089, 1105)
def is_csi_migration_on_for_plugin(plugin_name: str) -> bool:
    if plugin_name in (AWS_EBS_IN_TREE_PLUGIN_NAME, GCE_PD_IN_TREE_PLUGIN_NAME, AZURE_DISK_IN_TREE_PLUGIN_NAME,
                       CINDER_IN_TREE_PLUGIN_NAME):
        return True
    if plugin_name == PORTWORX_VOLUME_PLUGIN_NAME:
        return CSI_MIGRATION_PORTWORX
    if plugin_name == RBD_VOLUME_PLUGIN_NAME:
        return CSI_MIGRATION_RBD
    return False


@ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "isPluginMigratedToCSIOnNode", 1108, 1128)
def is_plugin_migrated_to_csi_on_node(plugin_name: str, csi_node: Any) -> bool:
    if csi_node is None:
        return False
    annotations = csi_node.metadata.annotations
    if not annotations:
        return False
    mpa = annotations.get(MIGRATED_PLUGINS_ANNOTATION_KEY, "")
    return plugin_name in (set(mpa.split(",")) if mpa else set())


def _storage_request(pvc: Any) -> Quantity:
    return pvc.spec.resources.requests.get(RESOURCE_STORAGE, _ZERO)


@ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "volumeBinder", 213, 231)
class VolumeBinder:
    """Upstream volumeBinder, reading the informer cache through ``object_lister``."""

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "NewVolumeBinder", 246, 273)
    def __init__(self, client: Any, object_lister: Any, bind_timeout_seconds: int = 600) -> None:
        self.client = client
        self.listers = StorageListers(object_lister)
        self.object_lister = object_lister
        self.pvc_cache = PVCAssumeCache(object_lister)
        self.pv_cache = PVAssumeCache(object_lister)
        self.bind_timeout_seconds = bind_timeout_seconds
        # Suspends the binding cycle for that many seconds of virtual time; False when it cannot
        # (set by the scheduler; None when the binder runs on its own).
        self.sleep: Optional[Callable[[float], bool]] = None

    # --- FindPodVolumes -------------------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).FindPodVolumes", 278, 382)
    def find_pod_volumes(self, pod: Pod, claims: PodVolumeClaims, node: Node) -> tuple[PodVolumes, list[str]]:
        """The pod's volumes on ``node`` and the reasons the node does not fit them.

        Raises BinderError for an error (the reasons are then not computed).
        """
        pod_volumes = PodVolumes()
        unbound_volumes_satisfied = True
        bound_volumes_satisfied = True
        sufficient_storage = True
        bound_pvs_found = True
        static_bindings: list[BindingInfo] = []
        dynamic_provisions: list[Any] = []

        def result() -> tuple[PodVolumes, list[str]]:
            # upstream: the deferred functions, in the reverse order of their defer.
            pod_volumes.static_bindings = static_bindings or None
            pod_volumes.dynamic_provisions = dynamic_provisions or None
            reasons = []
            if not bound_volumes_satisfied:
                reasons.append(ERR_REASON_NODE_CONFLICT)
            if not unbound_volumes_satisfied:
                reasons.append(ERR_REASON_BIND_CONFLICT)
            if not sufficient_storage:
                reasons.append(ERR_REASON_NOT_ENOUGH_SPACE)
            if not bound_pvs_found:
                reasons.append(ERR_REASON_PV_NOT_EXIST)
            return pod_volumes, reasons

        # The node affinity of the bound claims' volumes.
        if claims.bound_claims:
            bound_volumes_satisfied, bound_pvs_found = self.check_bound_claims(claims.bound_claims, node, pod)

        # Volumes to bind, or to provision, for the unbound claims.
        if claims.unbound_claims_delay_binding:
            claims_to_find_matching: list[Any] = []
            claims_to_provision: list[Any] = []
            for claim in claims.unbound_claims_delay_binding:
                selected_node = claim.metadata.annotations.get(ANN_SELECTED_NODE)
                if selected_node is not None:
                    if selected_node != node.metadata.name:
                        # Fast path: another node was selected for this claim.
                        unbound_volumes_satisfied = False
                        return result()
                    claims_to_provision.append(claim)
                else:
                    claims_to_find_matching.append(claim)

            if claims_to_find_matching:
                unbound_volumes_satisfied, found, unbound_claims = self.find_matching_volumes(
                    pod, claims_to_find_matching, claims.unbound_volumes_delay_binding, node)
                static_bindings = found
                claims_to_provision += unbound_claims

            if claims_to_provision:
                unbound_volumes_satisfied, sufficient_storage, provisions = self.check_volume_provisions(
                    pod, claims_to_provision, node)
                dynamic_provisions = provisions or []
        return result()

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).GetEligibleNodes", 390, 431)
    def get_eligible_nodes(self, bound_claims: list[Any]) -> Optional[set[str]]:
        """The nodes the bound claims' local volumes pin the pod to, or None for no restriction."""
        if not bound_claims:
            return None
        eligible: Optional[set[str]] = None
        errs = False
        for pvc in bound_claims:
            try:
                pv = self.pv_cache.get_pv(pvc.spec.volume_name)
            except LookupError:
                errs = True
                continue
            node_names = get_local_persistent_volume_node_names(pv)
            if node_names:
                # Two volumes pinned to different hosts leave no node at all.
                eligible = set(node_names) if eligible is None else eligible & set(node_names)
        if errs:
            return None
        return eligible

    # --- Reserve / Unreserve ----------------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).AssumePodVolumes", 438, 498)
    def assume_pod_volumes(self, assumed_pod: Pod, node_name: str, pod_volumes: PodVolumes) -> bool:
        """Assume the node's bindings and provisionings in the caches; True when all were bound already.

        Raises ValueError or LookupError (the assume cache's errors).
        """
        if self.are_pod_volumes_bound(assumed_pod):
            return True

        new_bindings: list[BindingInfo] = []
        for binding in pod_volumes.static_bindings or []:
            new_pv, dirty = get_bind_volume_to_claim(binding.pv, binding.pvc)
            if dirty:
                try:
                    self.pv_cache.assume(new_pv)
                except (ValueError, LookupError):
                    self.revert_assumed_pvs(new_bindings)
                    raise
            new_bindings.append(BindingInfo(pv=new_pv, pvc=binding.pvc))

        new_provisioned_pvcs: list[Any] = []
        for claim in pod_volumes.dynamic_provisions or []:
            # The claims may be the informer's objects: change a copy.
            claim_clone = copy.deepcopy(claim)
            claim_clone.metadata.annotations[ANN_SELECTED_NODE] = node_name
            try:
                self.pvc_cache.assume(claim_clone)
            except (ValueError, LookupError):
                self.revert_assumed_pvs(new_bindings)
                self.revert_assumed_pvcs(new_provisioned_pvcs)
                raise
            new_provisioned_pvcs.append(claim_clone)

        pod_volumes.static_bindings = new_bindings
        pod_volumes.dynamic_provisions = new_provisioned_pvcs
        return False

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).RevertAssumedPodVolumes", 501, 504)
    def revert_assumed_pod_volumes(self, pod_volumes: PodVolumes) -> None:
        self.revert_assumed_pvs(pod_volumes.static_bindings or [])
        self.revert_assumed_pvcs(pod_volumes.dynamic_provisions or [])

    # --- PreBind ------------------------------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).BindPodVolumes", 509, 536)
    def bind_pod_volumes(self, assumed_pod: Pod, pod_volumes: PodVolumes) -> None:
        """Write the bindings and provisionings, then wait for them to complete. Raises BinderError."""
        bindings = pod_volumes.static_bindings
        claims_to_provision = pod_volumes.dynamic_provisions
        self.bind_api_update(assumed_pod, bindings, claims_to_provision)
        try:
            poll_until_timeout(self.sleep, BIND_POLL_INTERVAL_SECONDS, self.bind_timeout_seconds,
                               lambda: self.check_bindings(assumed_pod, bindings, claims_to_provision))
        except BinderError as err:
            raise BinderError(f"binding volumes: {err}") from None

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).bindAPIUpdate", 547, 609)
    def bind_api_update(self, pod: Pod, bindings: Optional[list[BindingInfo]],
                        claims_to_provision: Optional[list[Any]]) -> None:
        pod_name = _pod_name(pod)
        if bindings is None:
            raise BinderError(f'failed to get cached bindings for pod "{pod_name}"')
        if claims_to_provision is None:
            raise BinderError(f'failed to get cached claims to provision for pod "{pod_name}"')
        last_processed_binding = 0
        last_processed_provisioning = 0
        try:
            # Pre-bind the volumes; the PV controller does the rest.
            for binding in bindings:
                binding.pv = self.client.update(copy.deepcopy(binding.pv))
                last_processed_binding += 1
            # Write the claims' selected node; the provisioner does the rest.
            for i, claim in enumerate(claims_to_provision):
                claims_to_provision[i] = self.client.update(copy.deepcopy(claim))
                last_processed_provisioning += 1
        except Exception as err:
            raise BinderError(str(err)) from None
        finally:
            # Revert the assumed objects not written.
            if last_processed_binding < len(bindings):
                self.revert_assumed_pvs(bindings[last_processed_binding:])
            if last_processed_provisioning < len(claims_to_provision):
                self.revert_assumed_pvcs(claims_to_provision[last_processed_provisioning:])

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).checkBindings", 625, 752)
    def check_bindings(self, pod: Pod, bindings: Optional[list[BindingInfo]],
                       claims_to_provision: Optional[list[Any]]) -> bool:
        """True when every written binding and provisioning is complete; BinderError to retry scheduling."""
        pod_name = _pod_name(pod)
        if bindings is None:
            raise BinderError(f'failed to get cached bindings for pod "{pod_name}"')
        if claims_to_provision is None:
            raise BinderError(f'failed to get cached claims to provision for pod "{pod_name}"')
        node = self.object_lister.get("Node", "", pod.spec.node_name) if self.object_lister is not None else None
        if node is None:
            raise BinderError(f'failed to get node "{pod.spec.node_name}": nodes "{pod.spec.node_name}" not found')
        csi_node = self._csi_node(node.metadata.name)
        if self.object_lister.get("Pod", pod.metadata.namespace, pod.metadata.name) is None:
            raise BinderError(f'pod does not exist any more: pods "{pod.metadata.name}" not found')

        for binding in bindings:
            try:
                pv = self.pv_cache.get_api_pv(binding.pv.metadata.name)
                pvc = self.pvc_cache.get_api_pvc(_pvc_name(binding.pvc))
            except LookupError as err:
                raise BinderError(f"failed to check binding: {err}") from None
            # Wait for the informer to deliver the written volume.
            if _compare_resource_version(binding.pv, pv) > 0:
                return False
            pv = self.try_translate_pv_to_csi(pv, csi_node)
            why = check_node_affinity(pv, node.metadata.labels)
            if why is not None:
                raise BinderError(f'pv "{pv.metadata.name}" node affinity doesn\'t match node '
                                  f'"{node.metadata.name}": {why}')
            if pv.spec.claim_ref is None or pv.spec.claim_ref.uid == "":
                raise BinderError(f'ClaimRef got reset for pv "{pv.metadata.name}"')
            if not self.is_pvc_fully_bound(pvc):
                return False

        for claim in claims_to_provision:
            try:
                pvc = self.pvc_cache.get_api_pvc(_pvc_name(claim))
            except LookupError as err:
                raise BinderError(f"failed to check provisioning pvc: {err}") from None
            if _compare_resource_version(claim, pvc) > 0:
                return False
            selected_node = pvc.metadata.annotations.get(ANN_SELECTED_NODE, "")
            if selected_node != pod.spec.node_name:
                # The provisioner drops the annotation when provisioning failed.
                raise BinderError(f'provisioning failed for PVC "{pvc.metadata.name}"')
            if pvc.spec.volume_name != "":
                try:
                    pv = self.pv_cache.get_api_pv(pvc.spec.volume_name)
                except AssumeCacheNotFoundError:
                    return False  # the volume may not have reached the informer yet
                pv = self.try_translate_pv_to_csi(pv, csi_node)
                why = check_node_affinity(pv, node.metadata.labels)
                if why is not None:
                    raise BinderError(f'pv "{pv.metadata.name}" node affinity doesn\'t match node '
                                      f'"{node.metadata.name}": {why}')
            if not self.is_pvc_fully_bound(pvc):
                return False
        return True

    # --- claims ---------------------------------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).isVolumeBound", 754, 777)
    def is_volume_bound(self, pod: Pod, vol: dict) -> tuple[bool, Any]:
        """(bound, claim) of a pod volume; (True, None) for a volume without a claim. Raises BinderError."""
        pvc_name = claim_name(vol)
        is_ephemeral = False
        if pvc_name is None:
            if vol.get("ephemeral") is None:
                return True, None
            pvc_name = ephemeral_claim_name(pod.metadata.name, vol)
            is_ephemeral = True
        bound, pvc = self.is_pvc_bound(pod.metadata.namespace, pvc_name)
        # ... and an ephemeral volume's claim must be owned by the pod.
        if is_ephemeral and pvc is not None:
            msg = volume_is_for_pod(pod, pvc)
            if msg is not None:
                raise BinderError(msg)
        return bound, pvc

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).isPVCBound", 779, 803)
    def is_pvc_bound(self, namespace: str, pvc_name: str) -> tuple[bool, Any]:
        pvc_key = f"{namespace}/{pvc_name}"
        try:
            pvc = self.pvc_cache.get_pvc(pvc_key)
        except LookupError as err:
            raise BinderError(f'error getting PVC "{pvc_key}": {err}') from None
        return self.is_pvc_fully_bound(pvc), pvc

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).isPVCFullyBound", 805, 807)
    def is_pvc_fully_bound(self, pvc: Any) -> bool:
        return pvc.spec.volume_name != "" and ANN_BIND_COMPLETED in pvc.metadata.annotations

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).arePodVolumesBound", 810, 818)
    def are_pod_volumes_bound(self, pod: Pod) -> bool:
        for vol in pod.spec.volumes:
            try:
                bound, _ = self.is_volume_bound(pod, vol)
            except BinderError:
                bound = False
            if not bound:
                return False
        return True

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).GetPodVolumeClaims", 822, 863)
    def get_pod_volume_claims(self, pod: Pod) -> PodVolumeClaims:
        """The pod's claims: bound, unbound delayed (WaitForFirstConsumer) and unbound immediate.

        Raises BinderError (or ValueError for a class without a binding mode).
        """
        claims = PodVolumeClaims()
        for vol in pod.spec.volumes:
            volume_bound, pvc = self.is_volume_bound(pod, vol)
            if pvc is None:
                continue
            if volume_bound:
                claims.bound_claims.append(pvc)
                continue
            delay_binding_mode = is_delay_binding_mode(pvc, self.listers)
            # A pre-bound claim counts as an unbound immediate one.
            if delay_binding_mode and pvc.spec.volume_name == "":
                claims.unbound_claims_delay_binding.append(pvc)
            else:
                claims.unbound_claims_immediate.append(pvc)

        for pvc in claims.unbound_claims_delay_binding:
            storage_class_name = get_persistent_volume_claim_class(pvc)
            claims.unbound_volumes_delay_binding[storage_class_name] = self.pv_cache.list_pvs(storage_class_name)
        return claims

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).checkBoundClaims", 865, 897)
    def check_bound_claims(self, claims: list[Any], node: Node, pod: Pod) -> tuple[bool, bool]:
        """(every bound volume admits the node, every bound volume exists)."""
        csi_node = self._csi_node(node.metadata.name)
        for pvc in claims:
            pv_name = pvc.spec.volume_name
            try:
                pv = self.pv_cache.get_pv(pv_name)
            except AssumeCacheNotFoundError:
                return True, False
            pv = self.try_translate_pv_to_csi(pv, csi_node)  # BinderError: the Filter's error
            if check_node_affinity(pv, node.metadata.labels) is not None:
                return False, True
        return True, True

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).findMatchingVolumes", 901, 937)
    def find_matching_volumes(self, pod: Pod, claims_to_bind: list[Any],
                              unbound_volumes_delay_binding: dict[str, list[Any]],
                              node: Node) -> tuple[bool, list[BindingInfo], list[Any]]:
        """(every claim found a volume, the bindings, the claims left to provision)."""
        # Smallest requests first, so each gets the smallest volume that fits
        # (a stable sort; Go's sort.Sort is not stable).
        claims_to_bind.sort(key=lambda c: _storage_request(c).amount)
        chosen_pvs: dict[str, Any] = {}
        found_matches = True
        bindings: list[BindingInfo] = []
        unbound_claims: list[Any] = []
        for pvc in claims_to_bind:
            storage_class_name = get_persistent_volume_claim_class(pvc)
            pvs = unbound_volumes_delay_binding.get(storage_class_name, [])
            pv = find_matching_volume(pvc, pvs, node, chosen_pvs, True)
            if pv is None:
                unbound_claims.append(pvc)
                found_matches = False
                continue
            # A chosen volume is not chosen again.
            chosen_pvs[pv.metadata.name] = pv
            bindings.append(BindingInfo(pvc=pvc, pv=pv))
        return found_matches, bindings, unbound_claims

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).checkVolumeProvisions", 942, 986)
    def check_volume_provisions(self, pod: Pod, claims_to_provision: list[Any],
                                node: Node) -> tuple[bool, bool, Optional[list[Any]]]:
        """(provisioning possible on the node, enough storage, the claims to provision). Raises BinderError."""
        dynamic_provisions: list[Any] = []
        for claim in claims_to_provision:
            pvc_name = _pvc_name(claim)
            class_name = get_persistent_volume_claim_class(claim)
            if class_name == "":
                raise BinderError(f'no class for claim "{pvc_name}"')
            try:
                cls = self.listers.get_storage_class(class_name)
            except NotFoundError:
                raise BinderError(f'failed to find storage class "{class_name}"') from None
            provisioner = cls.provisioner
            if provisioner == "" or provisioner == NOT_SUPPORTED_PROVISIONER:
                return False, True, None
            # The class's allowed topologies must admit the node.
            if not match_topology_selector_terms(cls.allowed_topologies, node.metadata.labels):
                return False, True, None
            if not self.has_enough_capacity(provisioner, claim, cls, node):
                return True, False, None
            dynamic_provisions.append(claim)
        return True, True, dynamic_provisions

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).revertAssumedPVs", 988, 992)
    def revert_assumed_pvs(self, bindings: list[BindingInfo]) -> None:
        for binding in bindings:
            self.pv_cache.restore(binding.pv.metadata.name)

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).revertAssumedPVCs", 994, 998)
    def revert_assumed_pvcs(self, claims: list[Any]) -> None:
        for claim in claims:
            self.pvc_cache.restore(_pvc_name(claim))

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).hasEnoughCapacity", 1002, 1046)
    def has_enough_capacity(self, provisioner: str, claim: Any, storage_class: Any, node: Node) -> bool:
        """Storage capacity tracking: only for a CSI driver that opts in with ``storageCapacity``."""
        if RESOURCE_STORAGE not in claim.spec.resources.requests:
            return True  # nothing to check
        try:
            driver = self.listers.get_csi_driver(provisioner)
        except NotFoundError:
            # Not a CSI driver, or one without capacity tracking.
            return True
        if not driver.spec.storage_capacity:
            return True
        # upstream: the CSIStorageCapacity objects, which this project does not model: none fits.
        return False

    @ports("pkg/scheduler/framework/plugins/volumebinding/binder.go", "(*volumeBinder).tryTranslatePVToCSI", 1131, 1155)
    def try_translate_pv_to_csi(self, pv: Any, csi_node: Any) -> Any:
        """The volume as its CSI driver sees it, when its in-tree plugin migrated on the node."""
        if not is_pv_migratable(pv):
            return pv
        try:
            plugin_name = get_in_tree_plugin_name_from_spec(pv, None)
        except ValueError as err:
            raise BinderError(f"could not get plugin name from pv: {err}") from None
        if not is_csi_migration_on_for_plugin(plugin_name):
            return pv
        if not is_plugin_migrated_to_csi_on_node(plugin_name, csi_node):
            return pv
        try:
            return translate_in_tree_pv_to_csi(pv)
        except ValueError as err:
            raise BinderError(f"could not translate pv: {err}") from None

    def _csi_node(self, name: str) -> Any:
        try:
            return self.listers.get_csi_node(name)
        except NotFoundError:
            return None  # upstream: logged; CSINode objects are optional


@ports("vendor/k8s.io/apimachinery/pkg/util/wait/poll.go", "PollUntilContextTimeout", 45, 49, repo=SCHEDULER_PLUGINS)
def poll_until_timeout(sleep: Optional[Callable[[float], bool]], interval: float, timeout: float,
                       condition: Callable[[], bool]) -> None:
    """Check ``condition`` every ``interval`` seconds (not at once) until it holds or ``timeout`` passed.

    Raises BinderError("context deadline exceeded") when the time runs out; an error of
    ``condition`` ends the poll at once. ``sleep(seconds)`` waits on the virtual clock.
    """
    # upstream: loopConditionUntilContext selects between the ticker and the deadline; when
    # both are due at the same instant, the deadline is taken here (no check at t = timeout).
    elapsed = 0.0
    while True:
        step = min(interval, timeout - elapsed)
        if step <= 0:
            raise BinderError(ERR_DEADLINE_EXCEEDED)
        if sleep is None or not sleep(step):
            # Nobody can complete a binding meanwhile: one check decides.
            if condition():
                return
            raise BinderError(ERR_DEADLINE_EXCEEDED)
        elapsed += step
        if elapsed >= timeout:
            raise BinderError(ERR_DEADLINE_EXCEEDED)
        if condition():
            return


@plumbing("storage.APIObjectVersioner.CompareResourceVersion")
def _compare_resource_version(lhs: Any, rhs: Any) -> int:
    """-1, 0 or 1 comparing two objects' resourceVersions (unparsable ones as 0)."""
    def version(obj: Any) -> int:
        try:
            return int(obj.metadata.resource_version)
        except ValueError:
            return 0
    a, b = version(lhs), version(rhs)
    return (a > b) - (a < b)
