"""The storage kinds: decoding from manifests, the v1 defaults an API server applies
(pkg/apis/core/v1/defaults.go, pkg/apis/storage/v1/defaults.go) and the basics of
ValidatePersistentVolumeClaim / ValidatePersistentVolume (pkg/apis/core/validation)."""
from __future__ import annotations

import textwrap

import pytest

from ksched_edu.api.errors import InvalidObjectError, ManifestError
from ksched_edu.api.loader import load_cluster, load_objects
from ksched_edu.api.quantity import Quantity
from ksched_edu.api.storage import (PersistentVolume, PersistentVolumeClaim, StorageClass,
                                    get_persistent_volume_claim_class, get_persistent_volume_class)

CLUSTER = textwrap.dedent("""\
    apiVersion: storage.k8s.io/v1
    kind: StorageClass
    metadata: {name: local}
    provisioner: kubernetes.io/no-provisioner
    allowedTopologies:
    - matchLabelExpressions:
      - {key: topology.kubernetes.io/zone, values: [zone-a]}
    ---
    apiVersion: storage.k8s.io/v1
    kind: CSIDriver
    metadata: {name: csi.example.com}
    spec: {}
    ---
    apiVersion: storage.k8s.io/v1
    kind: CSINode
    metadata:
      name: n1
      annotations: {storage.alpha.kubernetes.io/migrated-plugins: kubernetes.io/aws-ebs}
    spec:
      drivers:
      - {name: csi.example.com, nodeID: n1, allocatable: {count: 3}, topologyKeys: [zone]}
      - {name: other.example.com, nodeID: n1}
    ---
    apiVersion: v1
    kind: PersistentVolume
    metadata: {name: pv-1, labels: {topology.kubernetes.io/zone: zone-a}}
    spec:
      accessModes: [ReadWriteOnce]
      capacity: {storage: 10Gi}
      claimRef: {kind: PersistentVolumeClaim, namespace: default, name: data}
      csi: {driver: csi.example.com, volumeHandle: h-1}
      nodeAffinity:
        required:
          nodeSelectorTerms:
          - matchExpressions:
            - {key: kubernetes.io/hostname, operator: In, values: [n1]}
      storageClassName: local
    ---
    apiVersion: v1
    kind: PersistentVolumeClaim
    metadata:
      name: data
      annotations: {pv.kubernetes.io/bind-completed: "yes"}
    spec:
      accessModes: [ReadWriteOncePod]
      resources: {requests: {storage: 5Gi}}
      storageClassName: ""
      volumeName: pv-1
    """)


@pytest.fixture
def cluster(tmp_path):
    path = tmp_path / "cluster.yaml"
    path.write_text(CLUSTER)
    return load_cluster(path)


def test_storage_kinds_load_with_their_defaults(cluster):
    (sc,) = cluster.storage_classes
    assert (sc.provisioner, sc.reclaim_policy, sc.volume_binding_mode) == (
        "kubernetes.io/no-provisioner", "Delete", "Immediate")
    assert sc.allowed_topologies[0].match_label_expressions[0].values == ["zone-a"]
    (driver,) = cluster.csi_drivers
    s = driver.spec
    assert (s.attach_required, s.pod_info_on_mount, s.storage_capacity, s.fs_group_policy, s.requires_republish,
            s.volume_lifecycle_modes) == (True, False, False, "ReadWriteOnceWithFSType", False, ["Persistent"])
    (csi_node,) = cluster.csi_nodes
    assert [(d.name, d.allocatable.count if d.allocatable else None) for d in csi_node.spec.drivers] == [
        ("csi.example.com", 3), ("other.example.com", None)]
    (pv,) = cluster.persistent_volumes
    assert (pv.status.phase, pv.spec.persistent_volume_reclaim_policy, pv.spec.volume_mode) == (
        "Pending", "Retain", "Filesystem")
    assert (pv.spec.csi.driver, pv.spec.csi.volume_handle) == ("csi.example.com", "h-1")
    assert pv.spec.capacity == {"storage": Quantity("10Gi")}
    assert pv.spec.node_affinity.required.node_selector_terms[0].match_expressions[0].values == ["n1"]
    assert pv.spec.claim_ref.name == "data"
    (claim,) = cluster.persistent_volume_claims
    assert (claim.metadata.namespace, claim.status.phase, claim.spec.volume_mode) == (
        "default", "Pending", "Filesystem")
    assert claim.spec.storage_class_name == ""  # explicitly no class, not absent
    assert claim.metadata.uid and pv.metadata.uid
    assert cluster.warnings == []


def test_class_helpers_read_the_beta_annotation_first(cluster):
    claim = cluster.persistent_volume_claims[0]
    assert get_persistent_volume_claim_class(claim) == ""
    claim.spec.storage_class_name = None
    assert get_persistent_volume_claim_class(claim) == ""
    claim.metadata.annotations["volume.beta.kubernetes.io/storage-class"] = "beta"
    assert get_persistent_volume_claim_class(claim) == "beta"
    pv = cluster.persistent_volumes[0]
    assert get_persistent_volume_class(pv) == "local"


def _refused(text: str) -> str:
    with pytest.raises(InvalidObjectError) as e:
        load_objects(textwrap.dedent(text), "f.yaml")
    return e.value.message if hasattr(e.value, "message") else str(e.value)


@pytest.mark.parametrize("doc,want", [
    ("""\
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: data}
        spec: {resources: {requests: {storage: 1Gi}}}
        """, 'PersistentVolumeClaim "data" is invalid: spec.accessModes: Required value: '
             'at least 1 access mode is required'),
    ("""\
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: data}
        spec: {accessModes: [ReadWriteOnce]}
        """, 'PersistentVolumeClaim "data" is invalid: spec.resources[storage]: Required value'),
    ("""\
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: data}
        spec: {accessModes: [ReadWriteOncePod, ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
        """, 'PersistentVolumeClaim "data" is invalid: spec.accessModes: Forbidden: '
             'may not use ReadWriteOncePod with other access modes'),
    ("""\
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: data}
        spec: {accessModes: [Sometimes], resources: {requests: {storage: 1Gi}}}
        """, 'PersistentVolumeClaim "data" is invalid: spec.accessModes: Unsupported value: "Sometimes": '
             'supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"'),
    ("""\
        apiVersion: v1
        kind: PersistentVolume
        metadata: {name: pv}
        spec: {accessModes: [ReadWriteOnce], capacity: {storage: 1Gi}}
        """, 'PersistentVolume "pv" is invalid: spec: Required value: must specify a volume type'),
    ("""\
        apiVersion: v1
        kind: PersistentVolume
        metadata: {name: pv}
        spec: {capacity: {storage: 1Gi}, local: {path: /mnt}}
        """, 'PersistentVolume "pv" is invalid: spec.accessModes: Required value'),
])
def test_validation_refuses_what_kube_apiserver_refuses(doc, want):
    assert want in _refused(doc)


def test_a_pvc_is_namespaced_and_named_so_in_errors(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(textwrap.dedent("""\
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: data}
        spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: [1]}}}
        """))
    with pytest.raises(ManifestError) as e:
        load_cluster(path)
    assert "PersistentVolumeClaim default/data" in str(e.value)


def test_validate_false_accepts_what_the_fake_clientset_accepts(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\n")
    claim = load_cluster(path, validate=False).persistent_volume_claims[0]
    assert isinstance(claim, PersistentVolumeClaim)
    assert isinstance(load_objects("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\n"
                                   "provisioner: p\n")[0], StorageClass)
    assert not isinstance(claim, PersistentVolume)
