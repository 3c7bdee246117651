"""Tests for ksched_edu.api.loader: kubectl-style YAML in, dataclasses out,
one-line ManifestErrors for bad input."""
from __future__ import annotations

import importlib.util
import logging
from pathlib import Path

import pytest
import yaml

from ksched_edu.api.errors import ManifestError
from ksched_edu.api.loader import load_cluster, load_objects
from ksched_edu.api.quantity import Quantity
from ksched_edu.api.types import Node, Pod, PriorityClass

ROOT = Path(__file__).resolve().parents[2]
CLUSTERS = ROOT / "data" / "clusters"
BAD = CLUSTERS / "bad"
CONFORMANCE = ROOT / "data" / "conformance" / "cases"

REGEX_MSG = ("quantities must match the regular expression "
             "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")

# --- every bad file gives exactly one line -------------------------------------------------

BAD_FILES = [
    ("malformed.yaml", "document 2: yaml: line 10: mapping values are not allowed here"),
    ("bad-quantity.yaml", f"Pod default/p: spec.containers[0].resources.requests.cpu: {REGEX_MSG}"),
    ("no-name.yaml",
     "Node in document 1: metadata.name: Required value: name or generateName is required"),
    ("negative-request.yaml", 'Pod "p" is invalid: spec.containers[0].resources.requests[memory]: '
                              'Invalid value: "-1Gi": must be greater than or equal to 0'),
    ("negative-capacity.yaml",  # allocatable defaults to the capacity, so both are refused
     'Node "n1" is invalid: [status.capacity.cpu: Invalid value: "-2": must be greater than or equal to 0, '
     'status.allocatable.cpu: Invalid value: "-2": must be greater than or equal to 0]'),
    ("not-a-mapping.yaml", "document 2: expected a map with apiVersion and kind, got a list"),
    ("missing-kind.yaml", "document 1: kind: Required value"),
    ("missing-api-version.yaml", "document 1: apiVersion: Required value"),
    ("wrong-api-version.yaml", 'PodDisruptionBudget default/guard: apiVersion: '
                               'no matches for kind "PodDisruptionBudget" in version "policy/v1beta1"'),
    ("containers-not-list.yaml", "Pod default/p: spec.containers: expected a list, got a map"),
    ("labels-not-strings.yaml", "Node n1: metadata.labels.tier: expected a string, got integer 1"),
    ("priority-not-int.yaml", 'Pod default/p: spec.priority: expected an integer, got string "high"'),
    ("bad-toleration-operator.yaml", 'Pod "p" is invalid: spec.tolerations[0].operator: '
                                     'Unsupported value: "Matches": supported values: "Equal", "Exists"'),
    # upstream ValidateNode reports a node's taints under metadata.taints
    ("bad-taint-effect.yaml", 'Node "n1" is invalid: metadata.taints[0].effect: Unsupported value: '
                              '"NoScheduleAtAll": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'),
    ("bad-node-selector-operator.yaml",
     'Pod "p" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution'
     '.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Equals": '
     "not a valid selector operator"),
    ("bad-label-selector-operator.yaml", 'PodDisruptionBudget.policy "guard" is invalid: '
                                         'spec.selector.matchExpressions[0].operator: '
                                         'Invalid value: "Equals": not a valid selector operator'),
    ("duplicate.yaml", 'Pod default/p: metadata.name: Duplicate value: "p": '
                       f"already defined in {BAD / 'duplicate.yaml'}, document 1"),
    ("container-no-name.yaml", 'Pod "p" is invalid: spec.containers[1].name: Required value'),
    ("no-containers.yaml", 'Pod "p" is invalid: spec.containers: Required value'),
    ("bad-timestamp.yaml", 'Pod default/p: metadata.creationTimestamp: Invalid value: "yesterday": '
                           'must be an RFC3339 time such as "2024-01-01T00:00:00Z"'),
    ("unknown-priority-class.yaml",
     "Pod default/p: spec.priorityClassName: no PriorityClass with name gold was found"),
    # refused by validation, with kube-apiserver's message (see test_validation.py)
    ("bad-pod-name.yaml",
     'Pod "Bad_Name!" is invalid: metadata.name: Invalid value: "Bad_Name!": a lowercase RFC 1123 subdomain '
     "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
     "alphanumeric character (e.g. 'example.com', regex used for validation is "
     "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
    ("bad-host-port.yaml",
     'Pod "web" is invalid: [spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 '
     'and 65535, inclusive, spec.containers[0].resources.requests: Invalid value: "2": must be less than or '
     "equal to cpu limit of 1]"),
    ("bad-priority-class.yaml",
     'PriorityClass.scheduling.k8s.io "system-urgent" is invalid: metadata.name: Forbidden: priority class '
     "names with 'system-' prefix are reserved for system use only. error: system-urgent is not a known "
     "system priority class"),
    ("bad-pdb.yaml", 'PodDisruptionBudget.policy "guard" is invalid: spec.minAvailable: Invalid value: -1: '
                     "must be greater than or equal to 0"),
    # strict field validation, as kubectl apply and kube-apiserver apply it (see test_strict.py)
    ("misspelled-requests.yaml",
     'Pod default/p: strict decoding error: unknown field "spec.containers[0].resources.requets"'),
    ("misspelled-capacity.yaml", 'Node n1: strict decoding error: unknown field "status.capacty"'),
    ("misspelled-node-selector.yaml", 'Pod default/p: strict decoding error: unknown field "spec.nodeSelectr"'),
    ("misspelled-toleration-operator.yaml",
     'Pod default/p: strict decoding error: unknown field "spec.tolerations[0].operater"'),
    ("misspelled-unschedulable.yaml", 'Node n1: strict decoding error: unknown field "spec.unschedulabel"'),
    ("duplicate-key.yaml",
     'Pod default/p: strict decoding error: duplicate field "spec.containers[0].resources.requests.cpu"'),
    ("probe-not-a-map.yaml", "Pod default/p: spec.containers[0].livenessProbe: expected a map, got integer 5"),
]


@pytest.mark.parametrize("name,message", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_file_gives_one_line(name: str, message: str) -> None:
    path = BAD / name
    with pytest.raises(ManifestError) as err:
        load_cluster(path)
    assert str(err.value) == f"{path}: {message}"
    assert "\n" not in str(err.value)


def test_every_bad_file_is_in_the_table() -> None:
    assert sorted(p.name for p in BAD.glob("*.yaml")) == sorted(b[0] for b in BAD_FILES)


def test_file_not_found() -> None:
    path = BAD / "no-such-file.yaml"
    with pytest.raises(ManifestError, match=r"no-such-file.yaml: no such file or directory$"):
        load_cluster(path)


POD = """apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c}]
"""

INLINE_ERRORS = [
    ("list item without a name",
     "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n"
     "- {apiVersion: v1, kind: Node, metadata: {}}\n",
     "Node in document 1, items[1]: metadata.name: Required value: name or generateName is required"),
    ("priority class value not an int",
     "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: hi}\nvalue: '10'\n",
     'PriorityClass hi: value: expected an integer, got string "10"'),
    ("empty taint effect",
     "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  taints: [{key: k}]\n",
     'Node "n1" is invalid: metadata.taints[0].effect: Required value'),
    ("bad when unsatisfiable",
     POD + "  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Maybe}]\n",
     'Pod "p" is invalid: spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": '
     'supported values: "DoNotSchedule", "ScheduleAnyway"'),
    ("bad start time",
     POD + "status: {startTime: '2024-01-01 00:00'}\n",
     'Pod default/p: status.startTime: Invalid value: "2024-01-01 00:00": '
     'must be an RFC3339 time such as "2024-01-01T00:00:00Z"'),
    ("node selector value not a string",
     POD + "  nodeSelector: {gpu: true}\n",
     "Pod default/p: spec.nodeSelector.gpu: expected a string, got boolean true"),
    ("overhead is a bad quantity",
     POD + "  overhead: {cpu: 1x}\n",
     f"Pod default/p: spec.overhead.cpu: {REGEX_MSG}"),
    ("init container limit is negative",
     POD + "  initContainers: [{name: i, resources: {limits: {cpu: -100m}}}]\n",
     'Pod "p" is invalid: [spec.initContainers[0].resources.limits[cpu]: Invalid value: "-100m": '
     "must be greater than or equal to 0, spec.initContainers[0].resources.requests[cpu]: "
     'Invalid value: "-100m": must be greater than or equal to 0]'),
    ("metadata is a list",
     "apiVersion: v1\nkind: Node\nmetadata: [n1]\n",
     "document 1: metadata: expected a map, got a list"),
]


@pytest.mark.parametrize("text,message", [(t, m) for _, t, m in INLINE_ERRORS],
                         ids=[c[0] for c in INLINE_ERRORS])
def test_inline_errors(text: str, message: str) -> None:
    with pytest.raises(ManifestError) as err:
        load_objects(text, "x.yaml")
    assert str(err.value) == f"x.yaml: {message}"


def test_nothing_half_loaded(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    good = tmp_path / "a.yaml"
    good.write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n---\n" + POD)
    bad = tmp_path / "b.yaml"
    bad.write_text(POD)  # the same pod again
    with caplog.at_level(logging.WARNING, logger="ksched_edu.api.loader"):
        with pytest.raises(ManifestError, match=r"b.yaml: Pod default/p: metadata.name: Duplicate"):
            load_cluster([good, bad])
    assert caplog.records == []  # no warning for a load that failed


# --- what a good manifest becomes ------------------------------------------------------

FULL_POD = """
apiVersion: v1
kind: Pod
metadata:
  name: full
  labels: {app: web}
  annotations: {note: hi}
  creationTimestamp: "2024-01-01T00:01:00Z"
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, uid: u1, controller: true}]
spec:
  nodeName: n1
  schedulerName: my-scheduler
  priorityClassName: high
  priority: 1000
  preemptionPolicy: Never
  nodeSelector: {disk: ssd}
  overhead: {cpu: 250m}
  terminationGracePeriodSeconds: 5
  volumes: [{name: data, emptyDir: {}}]
  tolerations:
  - {key: dedicated, operator: Equal, value: batch, effect: NoExecute, tolerationSeconds: 30}
  - {operator: Exists}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions: [{key: zone, operator: In, values: [a, b]}]
          matchFields: [{key: metadata.name, operator: NotIn, values: [n9]}]
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 7
        preference:
          matchExpressions: [{key: cpu, operator: Gt, values: ["4"]}]
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: db}}
        topologyKey: kubernetes.io/hostname
        namespaces: [prod]
        matchLabelKeys: [version]
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 3
        podAffinityTerm:
          labelSelector:
            matchExpressions: [{key: app, operator: Exists}]
          namespaceSelector: {}
          topologyKey: zone
          mismatchLabelKeys: [tenant]
  topologySpreadConstraints:
  - maxSkew: 2
    topologyKey: zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {matchLabels: {app: web}}
    minDomains: 3
    nodeAffinityPolicy: Ignore
    nodeTaintsPolicy: Honor
    matchLabelKeys: [pod-template-hash]
  initContainers:
  - name: sidecar
    restartPolicy: Always
    resources: {requests: {cpu: 100m}}
  containers:
  - name: c
    image: nginx:1.25
    ports:
    - {containerPort: 80, hostPort: 8080, hostIP: 10.0.0.1, protocol: UDP}
    - {containerPort: 443}
    resources:
      requests: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 1}
      limits: {cpu: 2, nvidia.com/gpu: 1}
status:
  phase: Running
  nominatedNodeName: n2
  startTime: 2024-01-01T00:02:00Z
  conditions: [{type: PodScheduled, status: "True"}]
"""


def test_every_pod_field_is_read() -> None:
    (pod,) = load_objects(FULL_POD, "full.yaml")
    assert isinstance(pod, Pod)
    m, spec, status = pod.metadata, pod.spec, pod.status
    assert (m.name, m.namespace, m.labels, m.annotations) == ("full", "", {"app": "web"}, {"note": "hi"})
    assert m.creation_timestamp == 1704067260.0
    assert (m.owner_references[0].kind, m.owner_references[0].controller) == ("ReplicaSet", True)
    assert (spec.node_name, spec.scheduler_name, spec.priority_class_name) == ("n1", "my-scheduler", "high")
    assert (spec.priority, spec.preemption_policy) == (1000, "Never")
    assert spec.node_selector == {"disk": "ssd"}
    assert spec.scheduling_gates == []  # a bound pod may not have gates; see test_scheduling_gates_are_read
    assert spec.overhead == {"cpu": Quantity("250m")}
    assert spec.termination_grace_period_seconds == 5
    assert spec.volumes == [{"name": "data", "emptyDir": {}}]
    t0, t1 = spec.tolerations
    assert (t0.key, t0.operator, t0.value, t0.effect, t0.toleration_seconds) == (
        "dedicated", "Equal", "batch", "NoExecute", 30)
    assert (t1.key, t1.operator, t1.effect) == ("", "Exists", "")

    na = spec.affinity.node_affinity
    term = na.required.node_selector_terms[0]
    assert (term.match_expressions[0].key, term.match_expressions[0].values) == ("zone", ["a", "b"])
    assert (term.match_fields[0].key, term.match_fields[0].operator) == ("metadata.name", "NotIn")
    assert (na.preferred[0].weight, na.preferred[0].preference.match_expressions[0].operator) == (7, "Gt")
    req = spec.affinity.pod_affinity.required[0]
    assert (req.topology_key, req.label_selector.match_labels, req.namespaces, req.match_label_keys) == (
        "kubernetes.io/hostname", {"app": "db"}, ["prod"], ["version"])
    pref = spec.affinity.pod_anti_affinity.preferred[0]
    assert pref.weight == 3
    assert pref.pod_affinity_term.label_selector.match_expressions[0].operator == "Exists"
    assert pref.pod_affinity_term.namespace_selector is not None  # {} selects every namespace
    assert pref.pod_affinity_term.mismatch_label_keys == ["tenant"]
    assert spec.affinity.pod_affinity.preferred == []

    tsc = spec.topology_spread_constraints[0]
    assert (tsc.max_skew, tsc.topology_key, tsc.when_unsatisfiable, tsc.min_domains) == (
        2, "zone", "DoNotSchedule", 3)
    assert (tsc.node_affinity_policy, tsc.node_taints_policy, tsc.match_label_keys) == (
        "Ignore", "Honor", ["pod-template-hash"])
    assert (spec.init_containers[0].name, spec.init_containers[0].restart_policy) == ("sidecar", "Always")

    c = spec.containers[0]
    assert c.image == "nginx:1.25"
    assert [(p.container_port, p.host_port, p.host_ip, p.protocol) for p in c.ports] == [
        (80, 8080, "10.0.0.1", "UDP"), (443, 0, "", "TCP")]
    assert c.resources.requests == {"cpu": Quantity("1"), "memory": Quantity("1Gi"),
                                    "nvidia.com/gpu": Quantity("1")}
    assert c.resources.limits == {"cpu": Quantity("2"), "nvidia.com/gpu": Quantity("1")}
    assert (status.phase, status.nominated_node_name) == ("Running", "n2")
    assert status.start_time == 1704067320.0  # an unquoted time, already parsed by YAML
    assert status.conditions[0].type == "PodScheduled"


def test_scheduling_gates_are_read() -> None:
    (pod,) = load_objects(POD + "  schedulingGates: [{name: wait-for-quota}]\n", "gated.yaml")
    assert pod.spec.scheduling_gates == ["wait-for-quota"]


OTHER_KINDS = """
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1, labels: {zone: a}}
  spec:
    unschedulable: true
    taints: [{key: gpu, value: "yes", effect: PreferNoSchedule}]
  status:
    capacity: {cpu: "4", memory: 8Gi, pods: "110"}
    images: [{names: ["nginx:1.25", "docker.io/nginx:1.25"], sizeBytes: 1000}]
- apiVersion: scheduling.k8s.io/v1
  kind: PriorityClass
  metadata: {name: high}
  value: 1000
  globalDefault: true
  preemptionPolicy: Never
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb, namespace: prod}
spec:
  minAvailable: 50%
  selector: {matchLabels: {app: web}}
status:
  disruptionsAllowed: 2
  currentHealthy: 3
  desiredHealthy: 1
  expectedPods: 3
  disruptedPods: {web-1: "2024-01-01T00:00:00Z"}
---
apiVersion: v1
kind: Service
metadata: {name: svc}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec: {selector: {matchLabels: {app: web}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ss}
spec: {selector: {matchExpressions: [{key: app, operator: In, values: [db]}]}}
---
apiVersion: v1
kind: ReplicationController
metadata: {name: rc}
spec: {selector: {app: old}}
---
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: PodGroup
metadata: {name: gang}
spec: {minMember: 3}
---
apiVersion: topology.node.k8s.io/v1alpha2
kind: NodeResourceTopology
metadata: {name: n1}
zones: []
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: prod}
"""


def test_other_kinds_and_skipped_ones(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "kinds.yaml"
    path.write_text(OTHER_KINDS)
    with caplog.at_level(logging.WARNING, logger="ksched_edu.api.loader"):
        cluster = load_cluster(path)

    (node,) = cluster.nodes
    assert isinstance(node, Node)
    assert node.spec.unschedulable
    assert (node.spec.taints[0].key, node.spec.taints[0].value, node.spec.taints[0].effect) == (
        "gpu", "yes", "PreferNoSchedule")
    assert node.status.images[0].names == ["nginx:1.25", "docker.io/nginx:1.25"]
    assert node.status.images[0].size_bytes == 1000
    (pc,) = cluster.priority_classes
    assert isinstance(pc, PriorityClass)
    assert (pc.value, pc.global_default, pc.preemption_policy) == (1000, True, "Never")
    (pdb,) = cluster.pdbs
    assert (pdb.metadata.namespace, pdb.spec.min_available, pdb.spec.max_unavailable) == ("prod", "50%", None)
    assert pdb.spec.selector.match_labels == {"app": "web"}
    assert (pdb.status.disruptions_allowed, pdb.status.current_healthy, pdb.status.desired_healthy,
            pdb.status.expected_pods) == (2, 3, 1, 3)
    assert pdb.status.disrupted_pods == {"web-1": 1704067200.0}
    assert cluster.services[0].selector == {"app": "web"}
    assert cluster.replica_sets[0].selector.match_labels == {"app": "web"}
    assert cluster.stateful_sets[0].selector.match_expressions[0].values == ["db"]
    assert cluster.replication_controllers[0].selector == {"app": "old"}
    assert cluster.extra["PodGroup"][0]["spec"] == {"minMember": 3}  # kept raw
    assert cluster.extra["NodeResourceTopology"][0]["metadata"]["name"] == "n1"

    assert cluster.warnings == [
        f"{path}: Deployment web: skipped: the scheduler does not read apps/v1 Deployment",
        f"{path}: ConfigMap prod/settings: skipped: the scheduler does not read v1 ConfigMap",
    ]
    assert [r.getMessage() for r in caplog.records] == cluster.warnings


def test_int_percent_and_max_unavailable() -> None:
    (pdb,) = load_objects("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p}\n"
                          "spec: {maxUnavailable: 1}\n")
    assert (pdb.spec.min_available, pdb.spec.max_unavailable) == (None, 1)


def test_load_objects_keeps_file_order_and_does_not_default() -> None:
    text = POD.replace("name: p", "name: b") + "---\n" + POD.replace("name: p", "name: a")
    objs = load_objects(text)
    assert [o.metadata.name for o in objs] == ["b", "a"]
    assert objs[0].metadata.namespace == "" and objs[0].spec.scheduler_name == ""


def test_load_a_directory_and_a_list_of_files(tmp_path: Path) -> None:
    (tmp_path / "1-node.yaml").write_text("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n")
    (tmp_path / "2-pod.yml").write_text(POD)
    (tmp_path / "notes.txt").write_text("not yaml")
    from_dir = load_cluster(tmp_path)
    from_list = load_cluster([tmp_path / "1-node.yaml", tmp_path / "2-pod.yml"])
    assert [n.name for n in from_dir.nodes] == [n.name for n in from_list.nodes] == ["n1"]
    assert [p.key for p in from_dir.pods] == [p.key for p in from_list.pods] == ["default/p"]


def test_duplicate_across_files(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(POD)
    (tmp_path / "b.yaml").write_text(POD.replace("{name: p}", "{name: p, namespace: default}"))
    with pytest.raises(ManifestError) as err:
        load_cluster(tmp_path)
    assert str(err.value) == (f"{tmp_path / 'b.yaml'}: Pod default/p: metadata.name: Duplicate value: "
                              f'"p": already defined in {tmp_path / "a.yaml"}, document 1')


def test_same_name_in_other_namespace_or_kind_is_fine() -> None:
    text = (POD + "---\n" + POD.replace("{name: p}", "{name: p, namespace: prod}")
            + "---\napiVersion: v1\nkind: Service\nmetadata: {name: p}\n")
    assert len(load_objects(text)) == 3


# --- the project's clusters and the conformance cases ---------------------------------------


def test_three_nodes_cluster() -> None:
    cluster = load_cluster(CLUSTERS / "three-nodes.yaml")
    assert [n.name for n in cluster.nodes] == ["n1", "n2", "n3"]
    zones = {n.labels["topology.kubernetes.io/zone"] for n in cluster.nodes}
    assert zones == {"zone-a", "zone-b"}
    assert [n.name for n in cluster.nodes if n.spec.taints] == ["n2"]
    assert len(cluster.running_pods) == 2
    (web,) = cluster.pending_pods
    assert web.key == "default/web"
    assert web.spec.containers[0].resources.requests == {"cpu": Quantity("500m"),
                                                         "memory": Quantity("512Mi")}
    assert all(n.status.allocatable == n.status.capacity for n in cluster.nodes)


def test_zones_100_cluster_matches_its_generator() -> None:
    path = CLUSTERS / "zones-100.yaml"
    spec = importlib.util.spec_from_file_location("make_zones_100", CLUSTERS / "make_zones_100.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    expected = [gen.node(i) for i in range(gen.NODES)]
    expected += [gen.running_pod(j) for j in range(gen.RUNNING_PODS)] + [gen.pending_pod()]
    assert list(yaml.safe_load_all(path.read_text())) == expected

    cluster = load_cluster(path)
    assert len(cluster.nodes) == 100
    assert {n.labels["topology.kubernetes.io/zone"] for n in cluster.nodes} == {"zone-a", "zone-b", "zone-c"}
    assert [p.key for p in cluster.pending_pods] == ["default/web"]


CASES = sorted(CONFORMANCE.glob("*/cluster.yaml"))


@pytest.mark.parametrize("path", CASES, ids=[p.parent.name for p in CASES])
def test_conformance_cluster_loads(path: Path) -> None:
    # The reference harness built its clusters with client-go's fake clientset, which does not
    # validate; a few cases hold objects kube-apiserver would refuse (see the test below).
    cluster = load_cluster(path, validate=path.parent.name not in REFUSED_BY_THE_API_SERVER)
    assert cluster.nodes
    assert cluster.warnings == []
    for pod in cluster.pods:
        assert pod.spec.priority is not None
        assert pod.spec.scheduler_name


NON_OVERCOMMITABLE = ("spec.containers[0].resources.limits: Required value: "
                      "Limit must be set for non overcommitable resources")
# Cases whose cluster holds an object kube-apiserver's validation refuses: an extended
# resource requested without a limit, or a node field selector with two values.
REFUSED_BY_THE_API_SERVER = {
    "rand-run-s007": f'Pod "p4" is invalid: {NON_OVERCOMMITABLE}',
    "rand-run-s020": f'Pod "p4" is invalid: {NON_OVERCOMMITABLE}',
    "rand-score-s018": f'Pod "p" is invalid: {NON_OVERCOMMITABLE}',
    "rand-score-s028": f'Pod "p" is invalid: {NON_OVERCOMMITABLE}',
    "run-gpu-pack": f'Pod "t0" is invalid: {NON_OVERCOMMITABLE}',
    "score-balanced-allocation-resources-arg": f'Pod "p" is invalid: {NON_OVERCOMMITABLE}',
    "score-fit-extended-gpu-insufficient": f'Pod "r1" is invalid: {NON_OVERCOMMITABLE}',
    "score-nodeaffinity-matchfields":
        'Pod "p" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution'
        ".nodeSelectorTerms[0].matchFields[0].values: Required value: must be only one value when "
        "`operator` is 'In' or 'NotIn' for node field selector",
}


@pytest.mark.parametrize("name,message", sorted(REFUSED_BY_THE_API_SERVER.items()))
def test_conformance_cluster_refused_by_validation(name: str, message: str) -> None:
    path = CONFORMANCE / name / "cluster.yaml"
    if not path.exists():
        pytest.skip(f"no conformance case {name}")
    with pytest.raises(ManifestError) as err:
        load_cluster(path)
    assert str(err.value) == f"{path}: {message}"
