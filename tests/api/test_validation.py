"""Tests for ksched_edu.api.validation: kube-apiserver's create-time checks, table-driven
like upstream's validation_test.go files, each table naming the upstream test it mirrors."""
from __future__ import annotations

from pathlib import Path

import pytest

from ksched_edu.api.errors import ForbiddenObjectError, InvalidObjectError, ManifestError
from ksched_edu.api.loader import load_cluster, load_objects
from ksched_edu.api.quantity import Quantity
from ksched_edu.api.types import (
    ContainerPort,
    LabelSelector,
    LabelSelectorRequirement,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    ObjectMeta,
    Pod,
    PodDisruptionBudgetSpec,
    ResourceRequirements,
    Taint,
    Toleration,
    TopologySpreadConstraint,
)
from ksched_edu.api.validation import names
from ksched_edu.api.validation.core import (
    ValidationOptions,
    validate_container_ports,
    validate_node_selector,
    validate_node_taints,
    validate_resource_requirements,
    validate_tolerations,
    validate_topology_spread_constraints,
)
from ksched_edu.api.validation.field import aggregate_message, new_invalid_message
from ksched_edu.api.validation.objectmeta import validate_label_selector, validate_labels, validate_object_meta
from ksched_edu.api.validation.policy import validate_pdb_spec
from ksched_edu.api.validation.quantity import go_quantity

ROOT = Path(__file__).resolve().parents[2]
BAD = ROOT / "data" / "clusters" / "bad"

SUBDOMAIN_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                 "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
                 "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
LABEL_MSG = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
             "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
             "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
NAME_PART_MSG = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                 "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
                 "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
LABEL_VALUE_MSG = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
                   "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',"
                   "  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")


def test_messages_are_upstreams_text() -> None:
    assert names.is_dns1123_subdomain("Bad_Name!") == [SUBDOMAIN_MSG]
    # upstream RegexError joins its examples with "', " and " or ", hence the double space
    assert "(e.g. 'my-name',  or '123-abc', regex" in LABEL_MSG
    assert "(e.g. 'MyValue',  or 'my_value',  or '12345', regex" in LABEL_VALUE_MSG


# --- apimachinery util/validation: TestIsQualifiedName, TestIsDNS1123Subdomain, ... ----------

QUALIFIED_GOOD = ["simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple",
                  "now-with-dashes/simple", "now-with-dashes/now-with-dashes", "now.with.dots/simple",
                  "now-with.dashes-and.dots/simple", "1-num.2-num/3-num", "1234/5678", "1.2.3.4/5678",
                  "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123", "requests.storage-foo",
                  "a" * 63, "a" * 253 + "/" + "a" * 63]
QUALIFIED_BAD = ["nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash",
                 "Example.com/abc", "example_com/abc", "example.com/", "/simple", "a" * 64,
                 "a" * 254 + "/abc"]


@pytest.mark.parametrize("value", QUALIFIED_GOOD)
def test_is_qualified_name_good(value: str) -> None:  # upstream TestIsQualifiedName
    assert names.is_qualified_name(value) == []


@pytest.mark.parametrize("value", QUALIFIED_BAD)
def test_is_qualified_name_bad(value: str) -> None:
    assert names.is_qualified_name(value) != []


IS_QUALIFIED_NAME_MESSAGES = [  # upstream TestIsQualifiedName, messages
    ("", ["name part must be non-empty", NAME_PART_MSG]),
    ("example.com/", ["name part must be non-empty", NAME_PART_MSG]),
    ("/simple", ["prefix part must be non-empty"]),
    ("a" * 64, ["name part must be no more than 63 characters"]),
    ("only/one/slash", ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must "
                        "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
                        "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an "
                        "optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]),
    ("Example.com/abc", ["prefix part " + SUBDOMAIN_MSG]),
]


@pytest.mark.parametrize("value,want", IS_QUALIFIED_NAME_MESSAGES)
def test_is_qualified_name_messages(value: str, want: list[str]) -> None:
    assert names.is_qualified_name(value) == want


@pytest.mark.parametrize("value,want", [  # upstream TestIsDNS1123Label, TestIsDNS1123Subdomain, TestIsValidLabelValue
    (names.is_dns1123_label("a.b"), ["must not contain dots"]),
    (names.is_dns1123_label("A"), [LABEL_MSG]),
    (names.is_dns1123_label("a" * 64), ["must be no more than 63 characters"]),
    (names.is_dns1123_label("-" * 64), ["must be no more than 63 characters", LABEL_MSG]),
    (names.is_dns1123_subdomain("a" * 254), ["must be no more than 253 characters"]),
    (names.is_dns1123_subdomain("a..b"), [SUBDOMAIN_MSG]),
    (names.is_valid_label_value("-x"), [LABEL_VALUE_MSG]),
    (names.is_valid_label_value(""), []),
    (names.is_valid_port_num(65536), ["must be between 1 and 65535, inclusive"]),
    (names.is_valid_percent("5"), ["a valid percent string must be a numeric string followed by an ending '%' "
                                   "(e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]),
    (names.validate_path_segment_name(".."), ["may not be '..'"]),
    (names.validate_path_segment_name("a/b%"), ["may not contain '/'", "may not contain '%'"]),
])
def test_string_checks(value: list[str], want: list[str]) -> None:
    assert value == want


# --- apimachinery field errors and errors.NewInvalid ----------------------------------------


def test_aggregate_and_new_invalid() -> None:
    from ksched_edu.api.validation import field
    a = field.required("spec.containers")
    b = field.invalid("metadata.name", "X", "bad")
    assert aggregate_message([a]) == "spec.containers: Required value"
    assert aggregate_message([a, b, a]) == '[spec.containers: Required value, metadata.name: Invalid value: "X": bad]'
    assert new_invalid_message("PodDisruptionBudget.policy", "g", [a]) == (
        'PodDisruptionBudget.policy "g" is invalid: spec.containers: Required value')
    assert field.not_supported("p", 70000, ["TCP"]).error_body() == 'Unsupported value: 70000: supported values: "TCP"'


# --- ObjectMeta: TestValidateObjectMetaNamespaces, TestValidateLabels, TestValidateAnnotations ---


@pytest.mark.parametrize("meta,requires_ns,want", [
    (ObjectMeta(name="Bad_Name!", namespace="default"), True,
     [f'metadata.name: Invalid value: "Bad_Name!": {SUBDOMAIN_MSG}']),
    (ObjectMeta(name="p", namespace="Bad.NS"), True, [f'metadata.namespace: Invalid value: "Bad.NS": {LABEL_MSG}']),
    (ObjectMeta(name="p", namespace="a.b"), True, ['metadata.namespace: Invalid value: "a.b": must not contain dots']),
    (ObjectMeta(name="p"), True, ["metadata.namespace: Required value"]),
    (ObjectMeta(name=""), False, ["metadata.name: Required value: name or generateName is required"]),
    (ObjectMeta(name="n", namespace="x"), False, ["metadata.namespace: Forbidden: not allowed on this type"]),
    (ObjectMeta(name="n", labels={"bad key": "v"}), False,
     [f'metadata.labels: Invalid value: "bad key": {NAME_PART_MSG}']),
    (ObjectMeta(name="n", labels={"k": "bad value"}), False,
     [f'metadata.labels: Invalid value: "bad value": {LABEL_VALUE_MSG}']),
    (ObjectMeta(name="n", annotations={"a/b/c": "x", "OK.example.com/Fine": "y"}), False,
     ['metadata.annotations: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '
      "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
      "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional "
      "DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]),
])
def test_validate_object_meta(meta: ObjectMeta, requires_ns: bool, want: list[str]) -> None:
    errs = validate_object_meta(meta, requires_ns, names.name_is_dns_subdomain)
    assert [str(e) for e in errs] == want


# --- label selectors: TestValidateLabelSelector --------------------------------------------


@pytest.mark.parametrize("selector,want", [
    (LabelSelector(match_expressions=[LabelSelectorRequirement("app", "In", [])]),
     ["s.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"]),
    (LabelSelector(match_expressions=[LabelSelectorRequirement("app", "Exists", ["x"])]),
     ["s.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or "
      "'DoesNotExist'"]),
    (LabelSelector(match_expressions=[LabelSelectorRequirement("app", "Equals", ["x"])]),
     ['s.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator']),
    (LabelSelector(match_expressions=[LabelSelectorRequirement("app", "In", ["no good"])]),
     [f's.matchExpressions[0].values[0]: Invalid value: "no good": {LABEL_VALUE_MSG}']),
    (LabelSelector(match_labels={"-k": "v"}), [f's.matchLabels: Invalid value: "-k": {NAME_PART_MSG}']),
    (None, []),
])
def test_validate_label_selector(selector: LabelSelector, want: list[str]) -> None:
    assert [str(e) for e in validate_label_selector(selector, "s")] == want


def test_validate_labels_order_follows_the_manifest() -> None:
    errs = validate_labels({"ok": "-bad", "-bad": "ok"}, "l")
    assert [e.bad_value for e in errs] == ["-bad", "-bad"]


# --- TestValidateContainerPorts ---------------------------------------------------------------


@pytest.mark.parametrize("ports,want", [
    ([ContainerPort(80, host_port=70000)],
     ["p[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive"]),
    ([ContainerPort(0)], ["p[0].containerPort: Required value"]),
    ([ContainerPort(65536)], ["p[0].containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive"]),
    ([ContainerPort(80, protocol="HTTP")],
     ['p[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']),
    ([ContainerPort(80, protocol="")], ["p[0].protocol: Required value"]),
    ([ContainerPort(80, host_port=8080)], []),
])
def test_validate_container_ports(ports: list[ContainerPort], want: list[str]) -> None:
    assert [str(e) for e in validate_container_ports(ports, "p")] == want


# --- TestValidateResourceRequirements -----------------------------------------------------------


def _rr(requests: dict[str, str], limits: dict[str, str]) -> ResourceRequirements:
    return ResourceRequirements(requests={k: Quantity(v) for k, v in requests.items()},
                                limits={k: Quantity(v) for k, v in limits.items()})


@pytest.mark.parametrize("req,want", [
    (_rr({"cpu": "-1"}, {}), ['r.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0']),
    (_rr({"memory": "2Gi"}, {"memory": "1Gi"}),
     ['r.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi']),
    (_rr({"example.com/foo": "1"}, {}),
     ["r.limits: Required value: Limit must be set for non overcommitable resources"]),
    (_rr({"example.com/foo": "1"}, {"example.com/foo": "2"}),
     ['r.requests: Invalid value: "1": must be equal to example.com/foo limit of 2']),
    (_rr({"example.com/foo": "500m"}, {"example.com/foo": "500m"}),
     ['r.limits[example.com/foo]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, '
      'd:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: must be an integer',
      'r.requests[example.com/foo]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, '
      'scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: must be an '
      'integer']),
    (_rr({"gpu": "1"}, {}),
     ['r.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'r.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers']),
    (_rr({"pods": "1"}, {}), ['r.requests[pods]: Invalid value: "pods": must be a standard resource for containers']),
    (_rr({"hugepages-2Mi": "2Mi"}, {"hugepages-2Mi": "2Mi"}), ["r: Forbidden: HugePages require cpu or memory"]),
    (_rr({"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "2"}, {"nvidia.com/gpu": "2", "cpu": "2"}), []),
])
def test_validate_resource_requirements(req: ResourceRequirements, want: list[str]) -> None:
    assert [str(e) for e in validate_resource_requirements(req, "r", ValidationOptions())] == want


@pytest.mark.parametrize("text,value,scale,s,string", [  # resource.Quantity as the API server holds it
    ("500m", 500, -3, "500m", "500m"),
    ("0.5", 5, -1, "", "500m"),
    ("1500m", 1500, -3, "1500m", "1500m"),
    ("1000m", 1000, -3, "", "1"),
    ("100u", 1, -3, "", "1m"),
    ("2Gi", 2147483648, 0, "2Gi", "2Gi"),
])
def test_go_quantity(text: str, value: int, scale: int, s: str, string: str) -> None:
    g = go_quantity(Quantity(text), text)
    assert (g.value, g.scale, g.s, g.string()) == (value, scale, s, string)


# --- TestValidateTolerations --------------------------------------------------------------------


@pytest.mark.parametrize("tol,want", [
    (Toleration(key="", operator="Equal"),
     ['t[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means '
      '"match all values and all keys"']),
    (Toleration(key="k", operator="Matches"),
     ['t[0].operator: Unsupported value: "Matches": supported values: "Equal", "Exists"']),
    (Toleration(key="k", operator="Exists", value="v"),
     ['t[0].operator: Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"", '
      "TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'"]),
    (Toleration(key="k", operator="Equal", value="v", effect="NoSchedule", toleration_seconds=5),
     ['t[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set']),
    (Toleration(key="k", operator="Equal", effect="Never"),
     ['t[0].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"']),
    (Toleration(key="bad key", operator="Exists"), [f't[0].key: Invalid value: "bad key": {NAME_PART_MSG}']),
    (Toleration(key="k", operator="Equal", value="-v"), [f't[0].operator: Invalid value: "-v": {LABEL_VALUE_MSG}']),
    (Toleration(operator="Exists"), []),
])
def test_validate_tolerations(tol: Toleration, want: list[str]) -> None:
    assert [str(e) for e in validate_tolerations([tol], "t")] == want


# --- TestValidateTaints (validateNodeTaints) ---------------------------------------------------


@pytest.mark.parametrize("taints,want", [
    ([Taint(key="", effect="NoSchedule")], ['t[0].key: Invalid value: "": name part must be non-empty',
                                            f't[0].key: Invalid value: "": {NAME_PART_MSG}']),
    ([Taint(key="k", effect="")], ["t[0].effect: Required value"]),
    ([Taint(key="k", effect="NoScheduleNoAdmit")],
     ['t[0].effect: Unsupported value: "NoScheduleNoAdmit": supported values: "NoSchedule", '
      '"PreferNoSchedule", "NoExecute"']),
    ([Taint(key="k", effect="NoSchedule"), Taint(key="k", value="x", effect="NoSchedule")],
     ['t[1]: Duplicate value: core.Taint{Key:"k", Value:"x", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: '
      "taints must be unique by key and effect pair"]),
    ([Taint(key="k", effect="NoSchedule"), Taint(key="k", effect="NoExecute")], []),
    ([Taint(key="k", value="bad value", effect="NoSchedule")],
     [f't[0].value: Invalid value: "bad value": {LABEL_VALUE_MSG}']),
])
def test_validate_node_taints(taints: list[Taint], want: list[str]) -> None:
    assert [str(e) for e in validate_node_taints(taints, "t")] == want


# --- TestValidateNodeSelector ------------------------------------------------------------------


def _term(*exprs: NodeSelectorRequirement, fields: tuple = ()) -> NodeSelectorTerm:
    return NodeSelectorTerm(match_expressions=list(exprs), match_fields=list(fields))


@pytest.mark.parametrize("selector,want", [
    (NodeSelector([]), ["n.nodeSelectorTerms: Required value: must have at least one node selector term"]),
    (NodeSelector([_term(NodeSelectorRequirement("k", "In", []))]),
     ["n.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is "
      "'In' or 'NotIn'"]),
    (NodeSelector([_term(NodeSelectorRequirement("k", "Exists", ["x"]))]),
     ["n.nodeSelectorTerms[0].matchExpressions[0].values: Forbidden: may not be specified when `operator` is "
      "'Exists' or 'DoesNotExist'"]),
    (NodeSelector([_term(NodeSelectorRequirement("k", "Gt", ["1", "2"]))]),
     ["n.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified single value when "
      "`operator` is 'Lt' or 'Gt'"]),
    (NodeSelector([_term(NodeSelectorRequirement("k", "Equals", ["x"]))]),
     ['n.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator']),
    (NodeSelector([_term(fields=(NodeSelectorRequirement("metadata.name", "In", ["a", "b"]),))]),
     ["n.nodeSelectorTerms[0].matchFields[0].values: Required value: must be only one value when `operator` is "
      "'In' or 'NotIn' for node field selector"]),
    (NodeSelector([_term(fields=(NodeSelectorRequirement("metadata.labels", "In", ["a"]),))]),
     ['n.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "metadata.labels": not a valid field selector key']),
    (NodeSelector([_term(NodeSelectorRequirement("k", "Lt", ["3"]))]), []),
])
def test_validate_node_selector(selector: NodeSelector, want: list[str]) -> None:
    assert [str(e) for e in validate_node_selector(selector, "n")] == want


# --- TestValidateTopologySpreadConstraints ---------------------------------------------------


def _tsc(**kw) -> TopologySpreadConstraint:
    base = dict(max_skew=1, topology_key="zone", when_unsatisfiable="DoNotSchedule")
    base.update(kw)
    return TopologySpreadConstraint(**base)


@pytest.mark.parametrize("constraints,want", [
    ([_tsc(max_skew=0)], ["c[0].maxSkew: Invalid value: 0: must be greater than zero"]),
    ([_tsc(topology_key="")], ["c[0].topologyKey: Required value: can not be empty"]),
    ([_tsc(when_unsatisfiable="N/A")],
     ['c[0].whenUnsatisfiable: Unsupported value: "N/A": supported values: "DoNotSchedule", "ScheduleAnyway"']),
    ([_tsc(), _tsc()], ['c[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"']),
    ([_tsc(min_domains=-1)], ["c[0].minDomains: Invalid value: -1: must be greater than zero"]),
    ([_tsc(min_domains=3, when_unsatisfiable="ScheduleAnyway")],
     ["c[0].minDomains: Invalid value: 3: can only use minDomains if whenUnsatisfiable=DoNotSchedule, "
      "not ScheduleAnyway"]),
    ([_tsc(node_affinity_policy="Sometimes")],
     ['c[0].nodeAffinityPolicy: Unsupported value: "Sometimes": supported values: "Honor", "Ignore"']),
    ([_tsc(match_label_keys=["app"])],
     ["c[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"]),
    ([_tsc(match_label_keys=["app"], label_selector=LabelSelector(match_labels={"app": "web"}))],
     ['c[0].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector']),
    ([_tsc(label_selector=LabelSelector(match_expressions=[LabelSelectorRequirement("app", "In", [])]))],
     ["c[0].labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is "
      "'In' or 'NotIn'"]),
    ([_tsc(), _tsc(when_unsatisfiable="ScheduleAnyway")], []),
])
def test_validate_topology_spread_constraints(constraints: list, want: list[str]) -> None:
    assert [str(e) for e in validate_topology_spread_constraints(constraints, "c")] == want


# --- TestValidatePodDisruptionBudgetSpec -------------------------------------------------------


@pytest.mark.parametrize("spec,want", [
    (PodDisruptionBudgetSpec(min_available=1, max_unavailable=1),
     ["spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000000000), "
      "Selector:(*v1.LabelSelector)(nil), MaxUnavailable:(*intstr.IntOrString)(0xc000000000), "
      "UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and "
      "maxUnavailable cannot be both set"]),
    (PodDisruptionBudgetSpec(min_available=-1), ["spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"]),
    (PodDisruptionBudgetSpec(max_unavailable="50"),
     ['spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"50"}: a valid percent '
      "string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for "
      "validation is '[0-9]+%')"]),
    (PodDisruptionBudgetSpec(min_available="110%"),
     ['spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}: must not be '
      "greater than 100%"]),
    (PodDisruptionBudgetSpec(min_available="50%", selector=LabelSelector(match_labels={"app": "web"})), []),
])
def test_validate_pdb_spec(spec: PodDisruptionBudgetSpec, want: list[str]) -> None:
    assert [str(e) for e in validate_pdb_spec(spec)] == want


# --- through the loader: the API server's whole message -----------------------------------


def _pod(spec: str, name: str = "p", meta: str = "") -> str:
    return f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name!r}\n{meta}spec:\n{spec}"


CONTAINER = "  containers:\n  - name: c\n    image: nginx\n"

LOADER_CASES = [  # every kind of bad object, with kube-apiserver's exact answer
    ("pod name", _pod(CONTAINER, name="Bad_Name!"),
     f'Pod "Bad_Name!" is invalid: metadata.name: Invalid value: "Bad_Name!": {SUBDOMAIN_MSG}'),
    ("namespace", _pod(CONTAINER, meta="  namespace: Team_A\n"),
     f'Pod "p" is invalid: metadata.namespace: Invalid value: "Team_A": {LABEL_MSG}'),
    ("label value", _pod(CONTAINER, meta="  labels: {app: -web}\n"),
     f'Pod "p" is invalid: metadata.labels: Invalid value: "-web": {LABEL_VALUE_MSG}'),
    ("annotation key", _pod(CONTAINER, meta="  annotations: {'-note': x}\n"),
     f'Pod "p" is invalid: metadata.annotations: Invalid value: "-note": {NAME_PART_MSG}'),
    ("container name", _pod("  containers:\n  - name: Web\n"),
     f'Pod "p" is invalid: spec.containers[0].name: Invalid value: "Web": {LABEL_MSG}'),
    ("duplicate container", _pod("  containers: [{name: c}, {name: c}]\n"),
     'Pod "p" is invalid: spec.containers[1].name: Duplicate value: "c"'),
    ("host port", _pod("  containers:\n  - name: c\n    ports: [{containerPort: 80, hostPort: 70000}]\n"),
     'Pod "p" is invalid: spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and '
     "65535, inclusive"),
    ("host port conflict", _pod("  containers:\n  - name: a\n    ports: [{containerPort: 80, hostPort: 8080}]\n"
                                "  - name: b\n    ports: [{containerPort: 81, hostPort: 8080}]\n"),
     'Pod "p" is invalid: spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"'),
    ("negative request", _pod("  containers:\n  - name: c\n    resources: {requests: {cpu: -1}}\n"),
     'Pod "p" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "-1": '
     "must be greater than or equal to 0"),
    ("request above limit", _pod("  containers:\n  - name: c\n    resources: {requests: {cpu: '2'}, "
                                 "limits: {cpu: 500m}}\n"),
     'Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or '
     "equal to cpu limit of 500m"),
    ("fractional gpu", _pod("  containers:\n  - name: c\n    resources: {limits: {nvidia.com/gpu: 0.5}}\n"),
     'Pod "p" is invalid: [spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: '
     'resource.Quantity{i:resource.int64Amount{value:5, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, '
     's:"", Format:"DecimalSI"}: must be an integer, spec.containers[0].resources.requests[nvidia.com/gpu]: '
     'Invalid value: resource.Quantity{i:resource.int64Amount{value:5, scale:-1}, '
     'd:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}: must be an integer]'),
    ("gpu request without limit", _pod("  containers:\n  - name: c\n    resources: {requests: {nvidia.com/gpu: 1}}\n"),
     'Pod "p" is invalid: spec.containers[0].resources.limits: Required value: Limit must be set for non '
     "overcommitable resources"),
    ("toleration", _pod(CONTAINER + "  tolerations: [{operator: Exists, value: v, key: k}]\n"),
     'Pod "p" is invalid: spec.tolerations[0].operator: Invalid value: core.Toleration{Key:"k", '
     'Operator:"Exists", Value:"v", Effect:"", TolerationSeconds:(*int64)(nil)}: value must be empty when '
     "`operator` is 'Exists'"),
    ("node affinity", _pod(CONTAINER + "  affinity:\n    nodeAffinity:\n"
                           "      requiredDuringSchedulingIgnoredDuringExecution:\n"
                           "        nodeSelectorTerms: [{matchExpressions: [{key: cpu, operator: Gt, values: []}]}]\n"),
     'Pod "p" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution'
     ".nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified single value when "
     "`operator` is 'Lt' or 'Gt'"),
    ("pod anti-affinity", _pod(CONTAINER + "  affinity:\n    podAntiAffinity:\n"
                               "      preferredDuringSchedulingIgnoredDuringExecution:\n"
                               "      - weight: 0\n        podAffinityTerm:\n"
                               "          labelSelector: {matchLabels: {app: web}}\n"),
     'Pod "p" is invalid: [spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]'
     ".weight: Invalid value: 0: must be in the range 1-100, spec.affinity.podAntiAffinity"
     ".preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Required value: can "
     "not be empty, spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]"
     '.podAffinityTerm.topologyKey: Invalid value: "": name part must be non-empty, spec.affinity'
     ".podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: "
     f'Invalid value: "": {NAME_PART_MSG}]'),
    ("spread constraint", _pod(CONTAINER + "  topologySpreadConstraints:\n  - {maxSkew: 0, topologyKey: zone, "
                               "whenUnsatisfiable: DoNotSchedule}\n"),
     'Pod "p" is invalid: spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero'),
    ("priority class name", _pod(CONTAINER + "  priority: 5\n  priorityClassName: Gold\n"),
     f'Pod "p" is invalid: spec.priorityClassName: Invalid value: "Gold": {SUBDOMAIN_MSG}'),
    ("node name", "apiVersion: v1\nkind: Node\nmetadata: {name: Node_1}\n",
     f'Node "Node_1" is invalid: metadata.name: Invalid value: "Node_1": {SUBDOMAIN_MSG}'),
    ("node taints", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  taints:\n"
                    "  - {key: k, effect: NoSchedule}\n  - {key: k, effect: NoSchedule}\n",
     'Node "n1" is invalid: metadata.taints[1]: Duplicate value: core.Taint{Key:"k", Value:"", '
     'Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair'),
    ("node gpus", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  capacity: {nvidia.com/gpu: 1500m}\n",
     'Node "n1" is invalid: [status.capacity.nvidia.com/gpu: Invalid value: resource.Quantity{i:resource.'
     'int64Amount{value:1500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1500m", '
     'Format:"DecimalSI"}: must be an integer, status.allocatable.nvidia.com/gpu: Invalid value: resource.'
     'Quantity{i:resource.int64Amount{value:1500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, '
     's:"1500m", Format:"DecimalSI"}: must be an integer]'),
    ("priority class value", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: huge}\n"
                             "value: 1000000001\n",
     'PriorityClass.scheduling.k8s.io "huge" is invalid: value: Forbidden: maximum allowed value of a user '
     "defined priority is 1000000000"),
    ("system priority class", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
                              "metadata: {name: system-important}\nvalue: 10\n",
     'PriorityClass.scheduling.k8s.io "system-important" is invalid: metadata.name: Forbidden: priority class '
     "names with 'system-' prefix are reserved for system use only. error: system-important is not a known "
     "system priority class"),
    ("system class value", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
                           "metadata: {name: system-node-critical}\nvalue: 10\n",
     'PriorityClass.scheduling.k8s.io "system-node-critical" is invalid: metadata.name: Forbidden: priority '
     "class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical "
     "PriorityClass must be 2000001000"),
    ("priority class preemption", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: hi}\n"
                                  "value: 10\npreemptionPolicy: Sometimes\n",
     'PriorityClass.scheduling.k8s.io "hi" is invalid: preemptionPolicy: Unsupported value: "Sometimes": '
     'supported values: "PreemptLowerPriority", "Never"'),
    ("pdb both set", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: g}\n"
                     "spec: {minAvailable: 1, maxUnavailable: 1}\n",
     'PodDisruptionBudget.policy "g" is invalid: spec: Invalid value: policy.PodDisruptionBudgetSpec{'
     "MinAvailable:(*intstr.IntOrString)(0xc000000000), Selector:(*v1.LabelSelector)(nil), "
     "MaxUnavailable:(*intstr.IntOrString)(0xc000000000), UnhealthyPodEvictionPolicy:"
     "(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set"),
    ("pdb percent", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: g}\n"
                    "spec: {maxUnavailable: 150%}\n",
     'PodDisruptionBudget.policy "g" is invalid: spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, '
     'IntVal:0, StrVal:"150%"}: must not be greater than 100%'),
    ("pdb name", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: a/b}\nspec: {minAvailable: 1}\n",
     'PodDisruptionBudget.policy "a/b" is invalid: metadata.name: Invalid value: "a/b": may not contain \'/\''),
]


@pytest.mark.parametrize("text,message", [(t, m) for _, t, m in LOADER_CASES], ids=[c[0] for c in LOADER_CASES])
def test_loader_refuses_with_the_api_servers_message(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(InvalidObjectError) as err:
        load_cluster(path)
    assert str(err.value) == f"{path}: {message}"
    assert err.value.status_message == message and "\n" not in str(err.value)
    assert isinstance(err.value, ManifestError)  # callers that catch ManifestError keep working
    with pytest.raises(InvalidObjectError):
        load_objects(text, "c.yaml")


def test_invalid_object_error_names_the_object(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(_pod(CONTAINER, name="Bad_Name!", meta="  namespace: team\n"))
    with pytest.raises(InvalidObjectError) as err:
        load_cluster(path)
    e = err.value
    assert (e.file, e.kind, e.name, e.namespace, e.object) == (str(path), "Pod", "Bad_Name!", "team",
                                                                "Pod team/Bad_Name!")
    assert [x.field for x in e.errors] == ["metadata.name"] and e.field == "metadata.name"


def test_second_global_default_priority_class_is_forbidden(tmp_path: Path) -> None:
    path = tmp_path / "pc.yaml"
    pc = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {{name: {}}}\nvalue: 1\nglobalDefault: true\n"
    path.write_text(pc.format("first") + "---\n" + pc.format("second"))
    with pytest.raises(ForbiddenObjectError) as err:
        load_cluster(path)
    assert str(err.value) == (f'{path}: priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass '
                              "first is already marked as default. Only one default can exist")


def test_validation_runs_after_defaulting(tmp_path: Path) -> None:
    # requests are copied from limits first, so a limit alone satisfies an extended resource
    path = tmp_path / "ok.yaml"
    path.write_text(_pod("  containers:\n  - name: c\n    resources: {limits: {nvidia.com/gpu: 2}}\n"
                         "    ports: [{containerPort: 80, protocol: ''}]\n"))
    (pod,) = load_cluster(path).pods
    assert pod.spec.containers[0].resources.requests == {"nvidia.com/gpu": Quantity("2")}


def test_validate_false_skips_validation(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(_pod(CONTAINER, name="Bad_Name!"))
    assert [p.name for p in load_cluster(path, validate=False).pods] == ["Bad_Name!"]


def test_nothing_half_loaded_on_a_refused_object(tmp_path: Path) -> None:
    good, bad = tmp_path / "a.yaml", tmp_path / "b.yaml"
    good.write_text("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n")
    bad.write_text("apiVersion: v1\nkind: Node\nmetadata: {name: N2}\n")
    with pytest.raises(InvalidObjectError, match=r"b\.yaml: Node \"N2\" is invalid"):
        load_cluster([good, bad])


BAD_FILES = {  # data/clusters/bad files refused by validation
    "bad-pod-name.yaml": f'Pod "Bad_Name!" is invalid: metadata.name: Invalid value: "Bad_Name!": {SUBDOMAIN_MSG}',
    "bad-host-port.yaml": 'Pod "web" is invalid: [spec.containers[0].ports[0].hostPort: Invalid value: 70000: '
                          "must be between 1 and 65535, inclusive, spec.containers[0].resources.requests: "
                          'Invalid value: "2": must be less than or equal to cpu limit of 1]',
    "bad-priority-class.yaml": 'PriorityClass.scheduling.k8s.io "system-urgent" is invalid: metadata.name: '
                               "Forbidden: priority class names with 'system-' prefix are reserved for system "
                               "use only. error: system-urgent is not a known system priority class",
    "bad-pdb.yaml": 'PodDisruptionBudget.policy "guard" is invalid: spec.minAvailable: Invalid value: -1: '
                    "must be greater than or equal to 0",
}


@pytest.mark.parametrize("name,message", sorted(BAD_FILES.items()))
def test_bad_cluster_files(name: str, message: str) -> None:
    path = BAD / name
    with pytest.raises(InvalidObjectError) as err:
        load_cluster(path)
    assert str(err.value) == f"{path}: {message}"
