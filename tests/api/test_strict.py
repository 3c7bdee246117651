"""Strict field validation of manifests (ksched_edu.api.strict), as kubectl apply and
kube-apiserver apply it: a field the API type lacks, or a key written twice, refuses the
object with one line naming the file, the object and the field path; fields the API has,
read by the scheduler or not, are accepted."""
from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ksched_edu.api import StrictDecodingError
from ksched_edu.api.errors import ManifestError
from ksched_edu.api.loader import KINDS as LOADER_KINDS
from ksched_edu.api.loader import RAW_KINDS, load_cluster, load_objects
from ksched_edu.api.strict import KINDS, TYPES, strict_errors

ROOT = Path(__file__).resolve().parents[2]
DUMP = ROOT / "data" / "clusters" / "kubectl-get-o-yaml.yaml"

POD = """apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.9
"""

# name, manifest, the one line after "<string>: "
REFUSED = [
    ("misspelled request", POD + "    resources: {requets: {cpu: '1'}}\n",
     'Pod default/p: strict decoding error: unknown field "spec.containers[0].resources.requets"'),
    ("misspelled limit", POD + "    resources: {limts: {cpu: '1'}}\n",
     'Pod default/p: strict decoding error: unknown field "spec.containers[0].resources.limts"'),
    ("misspelled metadata field", POD.replace("namespace: default}", "namespace: default, lables: {a: b}}"),
     'Pod default/p: strict decoding error: unknown field "metadata.lables"'),
    ("misspelled affinity", POD + "  affinity: {nodeAffinty: {}}\n",
     'Pod default/p: strict decoding error: unknown field "spec.affinity.nodeAffinty"'),
    ("deep in node affinity",
     POD + "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
           "        nodeSelectorTerms:\n        - matchExpresions: [{key: a, operator: Exists}]\n",
     'Pod default/p: strict decoding error: unknown field "spec.affinity.nodeAffinity.'
     'requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpresions"'),
    ("several unknown fields, keys in sorted order",
     POD + "  zzz: 1\n  aaa: 2\n    ".rstrip() + "\n",
     'Pod default/p: strict decoding error: unknown field "spec.aaa", unknown field "spec.zzz"'),
    ("a top-level field", POD + "extra: 1\n", 'Pod default/p: strict decoding error: unknown field "extra"'),
    ("a node taint", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  taints: [{key: k, efect: NoSchedule}]\n",
     'Node n1: strict decoding error: unknown field "spec.taints[0].efect"'),
    ("a priority class", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: hi}\nvalue: 10\n"
                         "premptionPolicy: Never\n",
     'PriorityClass hi: strict decoding error: unknown field "premptionPolicy"'),
    ("a PDB", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: g}\n"
              "spec: {minAvailable: 1, selectr: {}}\n",
     'PodDisruptionBudget default/g: strict decoding error: unknown field "spec.selectr"'),
    ("a claim", "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\n"
                "spec: {accessModes: [ReadWriteOnce], storageClass: fast, resources: {requests: {storage: 1Gi}}}\n",
     'PersistentVolumeClaim default/data: strict decoding error: unknown field "spec.storageClass"'),
    ("a storage class", "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\n"
                        "provisioner: x\nvolumeBindingMod: WaitForFirstConsumer\n",
     'StorageClass fast: strict decoding error: unknown field "volumeBindingMod"'),
    ("a PodGroup", "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\nmetadata: {name: gang}\n"
                   "spec: {minMembers: 3}\n",
     'PodGroup default/gang: strict decoding error: unknown field "spec.minMembers"'),
    ("a NodeResourceTopology zone", "apiVersion: topology.node.k8s.io/v1alpha2\nkind: NodeResourceTopology\n"
                                    "metadata: {name: n1}\nzones:\n- {name: node-0, type: Node, resource: []}\n",
     'NodeResourceTopology n1: strict decoding error: unknown field "zones[0].resource"'),
    ("a List's own field", "apiVersion: v1\nkind: List\nitem: []\n",
     'List in document 1: strict decoding error: unknown field "item"'),
    ("an item of a List", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n"
                          "  metadata: {name: n1}\n  spec: {unschedulabel: true}\n",
     'Node n1: strict decoding error: unknown field "spec.unschedulabel"'),
    ("a duplicated label", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels:\n    zone: a\n    zone: b\n",
     'Node n1: strict decoding error: duplicate field "metadata.labels.zone"'),
    ("a duplicated spec", POD + "spec: {}\n",
     'Pod default/p: strict decoding error: duplicate field "spec"'),
    ("duplicated and unknown together", POD + "    resources: {requests: {cpu: '1', cpu: '2'}, limts: {}}\n",
     'Pod default/p: strict decoding error: unknown field "spec.containers[0].resources.limts", '
     'duplicate field "spec.containers[0].resources.requests.cpu"'),
    ("an object field given a number", POD + "    readinessProbe: 3\n",
     "Pod default/p: spec.containers[0].readinessProbe: expected a map, got integer 3"),
    ("a list field given a map", POD + "  volumes: {data: {}}\n",
     "Pod default/p: spec.volumes: expected a list, got a map"),
]


@pytest.mark.parametrize("name,text,want", REFUSED, ids=[r[0] for r in REFUSED])
def test_strict_refuses(name: str, text: str, want: str) -> None:
    with pytest.raises(ManifestError) as err:
        load_objects(text)
    assert str(err.value) == f"<string>: {want}"
    assert "\n" not in str(err.value)


def test_the_error_is_typed_and_names_every_field() -> None:
    text = POD + "  nodeSelectr: {a: b}\n  tolerations: [{key: k, operater: Exists}]\n"
    with pytest.raises(StrictDecodingError) as err:
        load_objects(text, "pod.yaml")
    e = err.value
    assert (e.file, e.object, e.field) == ("pod.yaml", "Pod default/p", "spec.nodeSelectr")
    assert e.fields == ["spec.nodeSelectr", "spec.tolerations[0].operater"]
    assert e.errors == ['unknown field "spec.nodeSelectr"', 'unknown field "spec.tolerations[0].operater"']


ACCEPTED = [
    ("a kubectl get -o yaml List with managedFields, status, volumes and probes", DUMP.read_text()),
    ("a pod's volumes, probes, env and security context",
     POD + "    env: [{name: A, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]\n"
           "    startupProbe: {exec: {command: [true]}}\n    securityContext: {runAsUser: 1000}\n"
           "  volumes: [{name: v, emptyDir: {sizeLimit: 1Gi}}]\n  securityContext: {fsGroup: 2000}\n"
           "  schedulingGates: []\n  overhead: {cpu: 10m}\n"),
    ("a pod's status with conditions", POD + "status:\n  phase: Pending\n  conditions:\n"
                                             "  - {type: PodScheduled, status: 'False', reason: Unschedulable}\n"),
    ("a node's daemonEndpoints (a capitalised JSON name)",
     "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  daemonEndpoints: {kubeletEndpoint: {Port: 10250}}\n"),
    ("a skipped kind is not checked", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicaz: 1}\n"),
]


@pytest.mark.parametrize("name,text", ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_strict_accepts_the_fields_the_api_has(name: str, text: str) -> None:
    load_objects(text)


def test_not_strict_drops_unknown_fields_and_keeps_the_last_key() -> None:
    text = POD + "    resources: {requets: {cpu: '3'}, requests: {cpu: '1', cpu: '2'}}\n  nodeSelectr: {a: b}\n"
    (pod,) = load_objects(text, strict=False)
    assert str(pod.spec.containers[0].resources.requests["cpu"]) == "2"
    assert pod.spec.node_selector == {}


def test_a_refused_file_loads_nothing(tmp_path: Path) -> None:
    good = tmp_path / "a-good.yaml"
    good.write_text(DUMP.read_text())
    bad = tmp_path / "b-bad.yaml"
    bad.write_text(POD + "  nodeSelectr: {a: b}\n")
    with pytest.raises(StrictDecodingError, match=r"b-bad\.yaml: Pod default/p: strict decoding error"):
        load_cluster(tmp_path)
    assert len(load_cluster(tmp_path, strict=False).pods) == 2


def test_every_loaded_kind_has_a_field_table() -> None:
    for kind in list(LOADER_KINDS) + list(RAW_KINDS) + ["List"]:
        type_name = KINDS[kind]
        assert {"apiVersion", "kind", "metadata"} <= set(TYPES[type_name]), kind
    for name, fields in TYPES.items():  # every type a field names is in the table
        for shape in fields.values():
            assert shape.lstrip("[]{}") in TYPES or shape == "", (name, shape)


# --- every misspelling of a field anywhere is refused, naming its path ----------------------


def _typed_maps(value: dict, type_name: str, path: str, out: list) -> None:
    """Every (path, mapping, type) of an object whose keys the table checks."""
    out.append((path, value, type_name))
    for key, child in value.items():
        shape = TYPES[type_name].get(key, "")
        child_path = f"{path}.{key}" if path else key
        if not shape or child is None:
            continue
        if shape.startswith("[]"):
            for i, item in enumerate(child):
                _typed_maps(item, shape[2:], f"{child_path}[{i}]", out)
        elif shape.startswith("{}"):
            for k, item in child.items():
                _typed_maps(item, shape[2:], f"{child_path}.{k}", out)
        else:
            _typed_maps(child, shape, child_path, out)


def _dump_objects() -> list[dict]:
    return yaml.safe_load(DUMP.read_text())["items"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_misspelled_field_anywhere_is_refused_with_its_path(data) -> None:
    objects = _dump_objects()
    obj = copy.deepcopy(data.draw(st.sampled_from(objects)))
    maps: list = []
    _typed_maps(obj, KINDS[obj["kind"]], "", maps)
    path, mapping, type_name = data.draw(st.sampled_from([m for m in maps if m[1]]))
    key = data.draw(st.sampled_from(sorted(mapping)))
    if (path, key) in {("", "apiVersion"), ("", "kind"), ("", "metadata"), ("metadata", "name"),
                       ("metadata", "namespace")}:
        return  # without them the object has no kind or name: refused before its fields are read
    typo = data.draw(st.sampled_from([key + "s", key[:-1], key[0].swapcase() + key[1:], "x" + key]))
    if typo in TYPES[type_name] or not typo:
        return  # the typo is another real field (e.g. "port" -> "ports")
    mapping[typo] = mapping.pop(key)
    where = f"{path}.{typo}" if path else typo
    assert f'unknown field "{where}"' in strict_errors(obj["kind"], obj)
    with pytest.raises(StrictDecodingError) as err:
        load_objects(yaml.safe_dump(obj))
    assert where in err.value.fields


# --- the command line ------------------------------------------------------------------------


def test_cli_refuses_a_misspelled_field_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "cluster.yaml"
    bad.write_text(POD + "    resources: {requets: {cpu: '3'}}\n")
    for command in ("schedule", "simulate"):
        run = subprocess.run([sys.executable, "-m", "ksched_edu", command, "--cluster", str(bad)],
                             capture_output=True, text=True, cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert run.returncode == 2, command
        assert run.stderr == (f'{bad}: Pod default/p: strict decoding error: unknown field '
                              '"spec.containers[0].resources.requets"\n'), command
        assert run.stdout == "", command
