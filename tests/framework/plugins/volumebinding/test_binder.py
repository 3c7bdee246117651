"""Mirrors binder_test.go in pkg/scheduler/framework/plugins/volumebinding (v1.30):
TestFindPodVolumesWithoutProvisioning, TestFindPodVolumesWithProvisioning,
TestCheckVolumeProvisions (allowed topologies, no provisioner, missing class),
TestGetEligibleNodes, and TestAssumePodVolumes' pre-bound and already-bound rows;
plus rows of FindMatchingVolume (component-helpers pv_helpers_test.go)."""
from __future__ import annotations

import pytest

from ksched_edu.api.pv_helpers import check_node_affinity, find_matching_volume
from ksched_edu.api.storage import ANN_SELECTED_NODE
from ksched_edu.framework.plugins.volumebinding.binder import (ERR_REASON_BIND_CONFLICT, ERR_REASON_NODE_CONFLICT,
                                                               ERR_REASON_NOT_ENOUGH_SPACE, ERR_REASON_PV_NOT_EXIST,
                                                               BinderError, VolumeBinder,
                                                               get_local_persistent_volume_node_names,
                                                               match_topology_selector_terms)
from tests.builders import make_node, make_pod
from tests.fakes import FakeObjectLister
from tests.framework.plugins.storage_objects import IMMEDIATE, WAIT, csi_driver, pv, pvc, storage_class

HOST = "kubernetes.io/hostname"
NODE1 = make_node().name("node1").label("nodeKey", "node1").label(HOST, "node1").obj()
NODE2 = make_node().name("node2").label("nodeKey", "node2").label(HOST, "node2").obj()

WAIT_CLASS = storage_class("waitClass", WAIT, provisioner="kubernetes.io/no-provisioner")
IMMEDIATE_CLASS = storage_class("immediateClass", IMMEDIATE)
WAIT_CLASS_WITH_PROVISIONER = storage_class("waitClassWithProvisioner", WAIT, provisioner="test-provisioner",
                                            topologies={"nodeKey": ["node1"]})
TOPO_MISMATCH_CLASS = storage_class("topoMismatch", WAIT, provisioner="test-provisioner",
                                    topologies={"nodeKey": ["node3"]})
CLASSES = [WAIT_CLASS, IMMEDIATE_CLASS, WAIT_CLASS_WITH_PROVISIONER, TOPO_MISMATCH_CLASS]


def _binder(*objects):
    return VolumeBinder(None, FakeObjectLister([*CLASSES, *objects]))


def _pod(*claims):
    w = make_pod().name("test-pod").namespace("default")
    for c in claims:
        w = w.pvc(c)
    return w.obj()


def _find(binder, pod, node):
    claims = binder.get_pod_volume_claims(pod)
    return binder.find_pod_volumes(pod, claims, node)


# name, claims, volumes, node, want reasons, want static binding (claim -> volume)
WITHOUT_PROVISIONING = [
    ("no-volumes", [], [], NODE1, [], {}),
    ("no-pvcs", [], [], NODE1, [], {}),
    ("pvc-not-found", [], [], NODE1, "error", {}),
    ("bound-pvc", [pvc("boundPVC", "waitClass", bound_pv="pvBound")],
     [pv("pvBound", "waitClass", phase="Bound", claim="boundPVC", affinity={"nodeKey": ["node1"]})],
     NODE1, [], {}),
    ("bound-pvc,pv-not-exists", [pvc("boundPVC", "waitClass", bound_pv="pvBound")], [], NODE1,
     [ERR_REASON_PV_NOT_EXIST], {}),
    ("unbound-pvc,pv-same-node", [pvc("unboundPVC", "waitClass")],
     [pv("pvNode2", "waitClass", affinity={"nodeKey": ["node2"]}),
      pv("pvNode1a", "waitClass", affinity={"nodeKey": ["node1"]}),
      pv("pvNode1b", "waitClass", affinity={"nodeKey": ["node1"]}, capacity="10Gi")],
     NODE1, [], {"unboundPVC": "pvNode1a"}),
    ("unbound-pvc,pv-different-node", [pvc("unboundPVC", "waitClass")],
     [pv("pvNode2", "waitClass", affinity={"nodeKey": ["node2"]})], NODE1, [ERR_REASON_BIND_CONFLICT], {}),
    ("two-unbound-pvcs", [pvc("unboundPVC", "waitClass"), pvc("unboundPVC2", "waitClass", storage="5Gi")],
     [pv("pvNode1a", "waitClass", affinity={"nodeKey": ["node1"]}),
      pv("pvNode1b", "waitClass", affinity={"nodeKey": ["node1"]}, capacity="10Gi")],
     NODE1, [], {"unboundPVC": "pvNode1a", "unboundPVC2": "pvNode1b"}),
    ("two-unbound-pvcs,order-by-size", [pvc("unboundPVC2", "waitClass", storage="5Gi"),
                                        pvc("unboundPVC", "waitClass")],
     [pv("pvNode1a", "waitClass", affinity={"nodeKey": ["node1"]}),
      pv("pvNode1b", "waitClass", affinity={"nodeKey": ["node1"]}, capacity="10Gi")],
     NODE1, [], {"unboundPVC": "pvNode1a", "unboundPVC2": "pvNode1b"}),
    ("two-unbound-pvcs,partial-match", [pvc("unboundPVC", "waitClass"), pvc("unboundPVC2", "waitClass")],
     [pv("pvNode1a", "waitClass", affinity={"nodeKey": ["node1"]})], NODE1, [ERR_REASON_BIND_CONFLICT], {}),
    ("one-bound,one-unbound", [pvc("unboundPVC", "waitClass"), pvc("boundPVC", "waitClass", bound_pv="pvBound")],
     [pv("pvBound", "waitClass", phase="Bound", claim="boundPVC", affinity={"nodeKey": ["node1"]}),
      pv("pvNode1a", "waitClass", affinity={"nodeKey": ["node1"]})],
     NODE1, [], {"unboundPVC": "pvNode1a"}),
    ("one-bound,one-unbound,no-match", [pvc("unboundPVC", "waitClass"),
                                        pvc("boundPVC", "waitClass", bound_pv="pvBound")],
     [pv("pvBound", "waitClass", phase="Bound", claim="boundPVC", affinity={"nodeKey": ["node1"]}),
      pv("pvNode2", "waitClass", affinity={"nodeKey": ["node2"]})],
     NODE1, [ERR_REASON_BIND_CONFLICT], {}),
    ("one-prebound,one-unbound", [pvc("unboundPVC", "waitClass"), pvc("preboundPVC", "waitClass",
                                                                       bound_pv="pvNode1a", bind_completed=False)],
     [pv("pvNode1a", "waitClass", affinity={"nodeKey": ["node1"]}, claim="preboundPVC"),
      pv("pvNode1b", "waitClass", affinity={"nodeKey": ["node1"]})],
     NODE1, "immediate", {}),
    ("immediate-bound-pvc", [pvc("immediateBoundPVC", "immediateClass", bound_pv="pvBoundImmediate")],
     [pv("pvBoundImmediate", "immediateClass", phase="Bound", claim="immediateBoundPVC",
         affinity={"nodeKey": ["node1"]})], NODE1, [], {}),
    ("immediate-bound-pvc-wrong-node", [pvc("immediateBoundPVC", "immediateClass", bound_pv="pvBoundImmediate")],
     [pv("pvBoundImmediate", "immediateClass", phase="Bound", claim="immediateBoundPVC",
         affinity={"nodeKey": ["node2"]})], NODE1, [ERR_REASON_NODE_CONFLICT], {}),
    ("immediate-unbound-pvc", [pvc("immediateUnboundPVC", "immediateClass")], [], NODE1, "immediate", {}),
]


@pytest.mark.parametrize("name,claims,volumes,node,want,want_bindings", WITHOUT_PROVISIONING,
                         ids=[r[0] for r in WITHOUT_PROVISIONING])
def test_find_pod_volumes_without_provisioning(name, claims, volumes, node, want, want_bindings):
    binder = _binder(*claims, *volumes)
    names = [c.metadata.name for c in claims] or (["unboundPVC"] if name == "pvc-not-found" else [])
    pod = _pod(*names)
    if want == "error":
        with pytest.raises(BinderError, match='error getting PVC "default/unboundPVC"'):
            binder.get_pod_volume_claims(pod)
        return
    claims_of_pod = binder.get_pod_volume_claims(pod)
    if want == "immediate":
        assert claims_of_pod.unbound_claims_immediate
        return
    pod_volumes, reasons = binder.find_pod_volumes(pod, claims_of_pod, node)
    assert reasons == want
    got = {b.pvc.metadata.name: b.pv.metadata.name for b in pod_volumes.static_bindings or []}
    assert got == (want_bindings if not reasons else got)


# name, claims, volumes, node, want reasons, want provisions
WITH_PROVISIONING = [
    ("one-provisioned", [pvc("provisionedPVC", "waitClassWithProvisioner")], [], NODE1, [], ["provisionedPVC"]),
    ("two-unbound-pvcs,one-matched,one-provisioned",
     [pvc("unboundPVC", "waitClass"), pvc("provisionedPVC", "waitClassWithProvisioner")],
     [pv("pvNode1a", "waitClass", affinity={"nodeKey": ["node1"]})], NODE1, [], ["provisionedPVC"]),
    ("one-bound,one-provisioned",
     [pvc("boundPVC", "waitClass", bound_pv="pvBound"), pvc("provisionedPVC", "waitClassWithProvisioner")],
     [pv("pvBound", "waitClass", phase="Bound", claim="boundPVC", affinity={"nodeKey": ["node1"]})],
     NODE1, [], ["provisionedPVC"]),
    ("one-binding,one-selected-node",
     [pvc("boundPVC", "waitClass", bound_pv="pvBound"),
      pvc("selectedNodePVC", "waitClassWithProvisioner", annotations={ANN_SELECTED_NODE: "node1"})],
     [pv("pvBound", "waitClass", phase="Bound", claim="boundPVC", affinity={"nodeKey": ["node1"]})],
     NODE1, [], ["selectedNodePVC"]),
    ("selected-node-elsewhere",
     [pvc("selectedNodePVC", "waitClassWithProvisioner", annotations={ANN_SELECTED_NODE: "node2"})],
     [], NODE1, [ERR_REASON_BIND_CONFLICT], []),
    ("immediate-unbound-pvc", [pvc("immediateUnboundPVC", "immediateClass")], [], NODE1, "immediate", []),
    ("one-immediate-bound,one-provisioned",
     [pvc("immediateBoundPVC", "immediateClass", bound_pv="pvBoundImmediate"),
      pvc("provisionedPVC", "waitClassWithProvisioner")],
     [pv("pvBoundImmediate", "immediateClass", phase="Bound", claim="immediateBoundPVC",
         affinity={"nodeKey": ["node1"]})], NODE1, [], ["provisionedPVC"]),
    ("invalid-provisioner", [pvc("noProvisionerPVC", "waitClass")], [], NODE1, [ERR_REASON_BIND_CONFLICT], []),
    ("volume-topology-unsatisfied", [pvc("topoMismatchPVC", "topoMismatch")], [], NODE1,
     [ERR_REASON_BIND_CONFLICT], []),
]


@pytest.mark.parametrize("name,claims,volumes,node,want,want_provisions", WITH_PROVISIONING,
                         ids=[r[0] for r in WITH_PROVISIONING])
def test_find_pod_volumes_with_provisioning(name, claims, volumes, node, want, want_provisions):
    binder = _binder(*claims, *volumes)
    pod = _pod(*[c.metadata.name for c in claims])
    claims_of_pod = binder.get_pod_volume_claims(pod)
    if want == "immediate":
        assert claims_of_pod.unbound_claims_immediate
        return
    pod_volumes, reasons = binder.find_pod_volumes(pod, claims_of_pod, node)
    assert reasons == want
    assert [c.metadata.name for c in pod_volumes.dynamic_provisions or []] == want_provisions


def test_check_volume_provisions_without_a_class_is_an_error():
    binder = _binder()
    with pytest.raises(BinderError, match='no class for claim "default/noClass"'):
        binder.check_volume_provisions(_pod(), [pvc("noClass", "")], NODE1)
    with pytest.raises(BinderError, match='failed to find storage class "missing"'):
        binder.check_volume_provisions(_pod(), [pvc("c", "missing")], NODE1)


def test_storage_capacity_tracking_without_capacities_means_not_enough_space():
    cls = storage_class("tracked", WAIT, provisioner="csi.tracked")
    binder = _binder(cls, csi_driver("csi.tracked", storage_capacity=True), pvc("c", "tracked"))
    pod = _pod("c")
    _, reasons = binder.find_pod_volumes(pod, binder.get_pod_volume_claims(pod), NODE1)
    assert reasons == [ERR_REASON_NOT_ENOUGH_SPACE]


@pytest.mark.parametrize("terms,labels,want", [
    ({}, {}, True),
    ({"zone": ["a"]}, {"zone": "a"}, True),
    ({"zone": ["a"]}, {"zone": "b"}, False),
    ({"zone": ["a"], "region": ["r"]}, {"zone": "a"}, False),
])
def test_match_topology_selector_terms(terms, labels, want):
    cls = storage_class("x", WAIT, provisioner="p", topologies=terms or None)
    assert match_topology_selector_terms(cls.allowed_topologies, labels) is want


# TestGetEligibleNodes
@pytest.mark.parametrize("name,claims,volumes,want", [
    ("no-bound-claims", [], [], None),
    ("no-matching-pv", [pvc("c1", "waitClass", bound_pv="pv-missing")], [], None),
    ("two-bound-claims-same-node",
     [pvc("c1", "waitClass", bound_pv="pv-1"), pvc("c2", "waitClass", bound_pv="pv-2")],
     [pv("pv-1", "waitClass", affinity={HOST: ["node1", "node2"]}), pv("pv-2", "waitClass", affinity={HOST: ["node1"]})],
     {"node1"}),
    ("two-bound-claims-disjoint",
     [pvc("c1", "waitClass", bound_pv="pv-1"), pvc("c2", "waitClass", bound_pv="pv-2")],
     [pv("pv-1", "waitClass", affinity={HOST: ["node1"]}), pv("pv-2", "waitClass", affinity={HOST: ["node2"]})],
     set()),
    ("zonal-volume-does-not-narrow", [pvc("c1", "waitClass", bound_pv="pv-1")],
     [pv("pv-1", "waitClass", affinity={"topology.kubernetes.io/zone": ["z"]})], None),
])
def test_get_eligible_nodes(name, claims, volumes, want):
    binder = _binder(*claims, *volumes)
    assert binder.get_eligible_nodes(claims) == want


def test_local_volume_node_names_intersect_within_a_term():
    volume = pv("pv", affinity={HOST: ["b", "a"]})
    assert get_local_persistent_volume_node_names(volume) == ["a", "b"]
    assert get_local_persistent_volume_node_names(pv("pv")) == []


# TestAssumePodVolumes: already bound, and the parse error of the fake clientset's empty resourceVersion.
def test_assume_pod_volumes_all_bound():
    claim = pvc("boundPVC", "waitClass", bound_pv="pvBound")
    binder = _binder(claim, pv("pvBound", "waitClass", phase="Bound", claim="boundPVC"))
    pod = _pod("boundPVC")
    claims = binder.get_pod_volume_claims(pod)
    pod_volumes, _ = binder.find_pod_volumes(pod, claims, NODE1)
    assert binder.assume_pod_volumes(pod, "node1", pod_volumes) is True


# FindMatchingVolume (component-helpers/storage/volume pv_helpers_test.go)
@pytest.mark.parametrize("name,claim,want", [
    ("successful-match-smallest", pvc("c", "waitClass", storage="1Gi"), "small"),
    ("successful-match-larger", pvc("c", "waitClass", storage="5Gi"), "large"),
    ("failed-too-big", pvc("c", "waitClass", storage="100Gi"), None),
    ("failed-class-mismatch", pvc("c", "other", storage="1Gi"), None),
    ("failed-access-mode", pvc("c", "waitClass", modes=("ReadWriteMany",)), None),
])
def test_find_matching_volume(name, claim, want):
    volumes = [pv("large", "waitClass", capacity="10Gi"), pv("small", "waitClass", capacity="1Gi"),
               pv("bound-elsewhere", "waitClass", capacity="1Gi", claim="someone-else"),
               pv("released", "waitClass", capacity="1Gi", phase="Released")]
    got = find_matching_volume(claim, volumes, NODE1, {}, True)
    assert (got.metadata.name if got else None) == want


def test_find_matching_volume_prefers_the_pre_bound_volume():
    claim = pvc("c", "waitClass")
    volumes = [pv("small", "waitClass"), pv("pre", "waitClass", capacity="10Gi", claim="c")]
    assert find_matching_volume(claim, volumes, NODE1, {}, True).metadata.name == "pre"
    # ... but none when the pre-bound volume does not admit the node.
    volumes[1] = pv("pre", "waitClass", capacity="10Gi", claim="c", affinity={"nodeKey": ["node2"]})
    assert find_matching_volume(claim, volumes, NODE1, {}, True) is None


def test_check_node_affinity():
    assert check_node_affinity(pv("p", affinity={"nodeKey": ["node1"]}), NODE1.metadata.labels) is None
    assert check_node_affinity(pv("p", affinity={"nodeKey": ["node2"]}),
                               NODE1.metadata.labels) == "no matching NodeSelectorTerms"
    assert check_node_affinity(pv("p"), {}) is None


# TestCheckBoundClaims / tryTranslatePVToCSI: a bound in-tree volume on a node whose CSINode says
# its plugin migrated is checked as its CSI driver sees it, with the driver's topology key.
def test_bound_in_tree_volume_is_checked_as_translated_to_csi():
    from tests.framework.plugins.storage_objects import csi_node
    zone, ebs_zone = "topology.kubernetes.io/zone", "topology.ebs.csi.aws.com/zone"
    claim = pvc("c", "", bound_pv="ebs")
    volume = pv("ebs", phase="Bound", claim="c", affinity={zone: ["us-east-1a"]},
                source={"awsElasticBlockStore": {"volumeID": "vol-1"}})
    node_gce_only = make_node().name("n1").label(zone, "us-east-1a").obj()
    node_with_csi_label = make_node().name("n2").label(zone, "us-east-1a").label(ebs_zone, "us-east-1a").obj()
    migrated = [csi_node("n1", {"ebs.csi.aws.com": 5}, migrated="kubernetes.io/aws-ebs"),
                csi_node("n2", {"ebs.csi.aws.com": 5}, migrated="kubernetes.io/aws-ebs")]
    pod = _pod("c")
    binder = _binder(claim, volume, *migrated)
    claims = binder.get_pod_volume_claims(pod)
    assert binder.find_pod_volumes(pod, claims, node_gce_only)[1] == [ERR_REASON_NODE_CONFLICT]
    assert binder.find_pod_volumes(pod, claims, node_with_csi_label)[1] == []
    # Without the migrated-plugins annotation the volume is checked as written.
    binder = _binder(claim, volume, csi_node("n1", {"ebs.csi.aws.com": 5}))
    assert binder.find_pod_volumes(pod, binder.get_pod_volume_claims(pod), node_gce_only)[1] == []


def test_translate_topology_adds_the_zone_from_the_labels():
    from ksched_edu.framework.plugins.nodevolumelimits.csi_translation import translate_in_tree_pv_to_csi
    volume = pv("g", labels={"failure-domain.beta.kubernetes.io/zone": "us-central1-a__us-central1-b"},
                source={"gcePersistentDisk": {"pdName": "d"}})
    translated = translate_in_tree_pv_to_csi(volume)
    (term,) = translated.spec.node_affinity.required.node_selector_terms
    assert [(r.key, r.values) for r in term.match_expressions] == [
        ("topology.gke.io/zone", ["us-central1-a", "us-central1-b"])]
    assert volume.spec.node_affinity is None  # the informer's object is untouched
