"""Port of pkg/apis/core/validation/validation.go (v1.30), the checks of a Pod and a
Node create on the fields kube-scheduler reads.

:func:`validate_pod_create` and :func:`validate_node` return upstream's field
errors, in upstream's order, for an object that has already been defaulted
(requests copied from limits, the namespace filled in), exactly as
kube-apiserver validates after defaulting. Resource names, quantities and the
request/limit rules come from ValidateResourceRequirements and the helpers
of pkg/apis/core/helper.

Deviations:
- Only what the loader reads is checked: names, labels, annotations,
  containers (name, ports, resources, restartPolicy), nodeSelector, affinity,
  tolerations, scheduling gates, topology spread constraints, nodeName,
  priorityClassName, preemptionPolicy, overhead; and a node's taints and
  resources. Volumes, probes, env, security contexts are not read, so not
  checked; an empty ``image`` is accepted (the manifests of this project
  leave it out where the scheduler does not care).
- Pod (anti-)affinity ``matchLabelKeys``/``mismatchLabelKeys`` are not
  checked: in v1.30 their feature gate is off and the API server drops them.
- A toleration with no operator reads as ``Equal`` (the loader's defaulting),
  so the "operator must be Exists" error shows ``"Equal"`` where upstream
  shows ``""``.
- Maps (resources, labels) are walked in the manifest's order.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field as dc_field
from typing import Callable, Optional

from ..quantity import Quantity, QuantityError
from ..types import (
    Affinity,
    Container,
    ContainerPort,
    Node,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    PodSpec,
    ResourceRequirements,
    Taint,
    Toleration,
    TopologySpreadConstraint,
)
from . import field
from ...anchors import ports
from .field import GO_POINTER, GoValue, go_quote
from .names import (
    is_dns1123_label,
    is_qualified_name,
    is_valid_label_value,
    is_valid_port_num,
    validate_namespace_name,
    validate_node_name,
    validate_pod_name,
    validate_priority_class_name,
)
from .objectmeta import validate_label_name, validate_label_selector, validate_labels, validate_object_meta
from .quantity import go_quantity

IS_NEGATIVE_ERROR_MSG = "must be greater than or equal to 0"
IS_NOT_INTEGER_ERROR_MSG = "must be an integer"
IS_NOT_POSITIVE_ERROR_MSG = "must be greater than zero"

SUPPORTED_PORT_PROTOCOLS = ("SCTP", "TCP", "UDP")  # sets.List: sorted
TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
SUPPORTED_SCHEDULE_ACTIONS = ("DoNotSchedule", "ScheduleAnyway")
SUPPORTED_NODE_INCLUSION_POLICIES = ("Honor", "Ignore")
PREEMPTION_POLICIES = ("PreemptLowerPriority", "Never")

# pkg/apis/core/helper: resource name families.
RESOURCE_HUGE_PAGES_PREFIX = "hugepages-"
RESOURCE_REQUESTS_HUGE_PAGES_PREFIX = "requests.hugepages-"
RESOURCE_DEFAULT_NAMESPACE_PREFIX = "kubernetes.io/"
DEFAULT_RESOURCE_REQUESTS_PREFIX = "requests."
STANDARD_CONTAINER_RESOURCES = frozenset({"cpu", "memory", "ephemeral-storage"})
STANDARD_RESOURCES = frozenset({
    "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
    "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
    "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
    "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports",
    "services.loadbalancers",
})
INTEGER_RESOURCES = frozenset({
    "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
    "persistentvolumeclaims", "services.nodeports", "services.loadbalancers",
})


@ports("pkg/apis/core/validation/validation.go", "PodValidationOptions", 4005, 4025)
@dataclass
class ValidationOptions:
    """Upstream PodValidationOptions, plus how to find the text a quantity was written as."""

    allow_invalid_label_value_in_selector: bool = False
    quantity_text: Callable[[Quantity], Optional[str]] = dc_field(default=lambda q: None)


# --- pkg/apis/core/helper --------------------------------------------------------------


@ports("pkg/apis/core/helper/helpers.go", "IsHugePageResourceName", 37, 39)
def is_huge_page_resource_name(name: str) -> bool:
    return name.startswith(RESOURCE_HUGE_PAGES_PREFIX)


@ports("pkg/apis/core/helper/helpers.go", "IsNativeResource", 187, 190)
def is_native_resource(name: str) -> bool:
    return "/" not in name or RESOURCE_DEFAULT_NAMESPACE_PREFIX in name


@ports("pkg/apis/core/helper/helpers.go", "IsExtendedResourceName", 172, 182)
def is_extended_resource_name(name: str) -> bool:
    if is_native_resource(name) or name.startswith(DEFAULT_RESOURCE_REQUESTS_PREFIX):
        return False
    return not is_qualified_name(DEFAULT_RESOURCE_REQUESTS_PREFIX + name)


@ports("pkg/apis/core/helper/helpers.go", "IsOvercommitAllowed", 194, 197)
def is_overcommit_allowed(name: str) -> bool:
    return is_native_resource(name) and not is_huge_page_resource_name(name)


@ports("pkg/apis/core/helper/helpers.go", "IsStandardContainerResourceName", 163, 165)
def is_standard_container_resource_name(name: str) -> bool:
    return name in STANDARD_CONTAINER_RESOURCES or is_huge_page_resource_name(name)


@ports("pkg/apis/core/helper/helpers.go", "IsStandardResourceName", 262, 264)
def is_standard_resource_name(name: str) -> bool:
    return (name in STANDARD_RESOURCES or name.startswith(RESOURCE_HUGE_PAGES_PREFIX)
            or name.startswith(RESOURCE_REQUESTS_HUGE_PAGES_PREFIX))


@ports("pkg/apis/core/helper/helpers.go", "IsIntegerResourceName", 279, 281)
def is_integer_resource_name(name: str) -> bool:
    return name in INTEGER_RESOURCES or is_extended_resource_name(name)


# --- resources ---------------------------------------------------------------------------


@ports("pkg/apis/core/validation/validation.go", "validateResourceName", 6317, 6333)
def validate_resource_name(name: str, path: str) -> field.ErrorList:
    errs = [field.invalid(path, name, msg) for msg in is_qualified_name(name)]
    if errs:
        return errs
    if "/" not in name and not is_standard_resource_name(name):
        return [field.invalid(path, name, "must be a standard resource type or fully qualified")]
    return []


@ports("pkg/apis/core/validation/validation.go", "validateContainerResourceName", 6337, 6350)
def validate_container_resource_name(name: str, path: str) -> field.ErrorList:
    errs = validate_resource_name(name, path)
    if "/" not in name:
        if not is_standard_container_resource_name(name):
            errs.append(field.invalid(path, name, "must be a standard resource for containers"))
    elif not is_native_resource(name) and not is_extended_resource_name(name):
        errs.append(field.invalid(path, name, "doesn't follow extended resource name standard"))
    return errs


@ports("pkg/apis/core/validation/validation.go", "ValidateNonnegativeQuantity", 334, 340)
def validate_nonnegative_quantity(q: Quantity, path: str, opts: ValidationOptions) -> field.ErrorList:
    if q.sign() < 0:
        return [field.invalid(path, go_quantity(q, opts.quantity_text(q)).string(), IS_NEGATIVE_ERROR_MSG)]
    return []


@ports("pkg/apis/core/validation/validation.go", "ValidateResourceQuantityValue", 6960, 6969)
def validate_resource_quantity_value(name: str, q: Quantity, path: str,
                                     opts: ValidationOptions) -> field.ErrorList:
    """Upstream ValidateResourceQuantityValue: non-negative, whole for integer resources."""
    errs = validate_nonnegative_quantity(q, path, opts)
    if is_integer_resource_name(name) and q.milli_value() % 1000 != 0:
        errs.append(field.invalid(path, GoValue(go_quantity(q, opts.quantity_text(q)).go_repr()),
                                  IS_NOT_INTEGER_ERROR_MSG))
    return errs


def _huge_page_error(name: str, q: Quantity, opts: ValidationOptions) -> Optional[str]:
    """Upstream validateResourceQuantityHugePageValue."""
    try:
        page = Quantity(name[len(RESOURCE_HUGE_PAGES_PREFIX):])
    except QuantityError:
        page = None
    divisible = (page is not None and page.sign() > 0 and page.milli_value() % 1000 == 0
                 and q.value() % page.value() == 0)
    if divisible:
        return None
    return f"{go_quantity(q, opts.quantity_text(q)).string()} is not positive integer multiple of {name}"


@ports("pkg/apis/core/validation/validation.go", "ValidateResourceRequirements", 6700, 6766)
def validate_resource_requirements(req: ResourceRequirements, path: str,
                                   opts: ValidationOptions) -> field.ErrorList:
    """Upstream ValidateResourceRequirements."""
    errs: field.ErrorList = []
    lim_path, req_path = f"{path}.limits", f"{path}.requests"
    cpu_or_memory, huge_pages = False, False
    text = lambda q: go_quantity(q, opts.quantity_text(q)).string()  # noqa: E731
    for name, q in req.limits.items():
        p = f"{lim_path}[{name}]"
        errs += validate_container_resource_name(name, p)
        errs += validate_resource_quantity_value(name, q, p, opts)
        if is_huge_page_resource_name(name):
            huge_pages = True
            if (msg := _huge_page_error(name, q, opts)) is not None:
                errs.append(field.invalid(p, text(q), msg))
        cpu_or_memory = cpu_or_memory or name in ("cpu", "memory")
    for name, q in req.requests.items():
        p = f"{req_path}[{name}]"
        errs += validate_container_resource_name(name, p)
        errs += validate_resource_quantity_value(name, q, p, opts)
        limit = req.limits.get(name)
        if limit is not None:
            if q.cmp(limit) != 0 and not is_overcommit_allowed(name):
                errs.append(field.invalid(req_path, text(q), f"must be equal to {name} limit of {text(limit)}"))
            elif q.cmp(limit) > 0:
                errs.append(field.invalid(req_path, text(q),
                                          f"must be less than or equal to {name} limit of {text(limit)}"))
        elif not is_overcommit_allowed(name):
            errs.append(field.required(lim_path, "Limit must be set for non overcommitable resources"))
        if is_huge_page_resource_name(name):
            huge_pages = True
            if (msg := _huge_page_error(name, q, opts)) is not None:
                errs.append(field.invalid(p, text(q), msg))
        cpu_or_memory = cpu_or_memory or name in ("cpu", "memory")
    if huge_pages and not cpu_or_memory:
        errs.append(field.forbidden(path, "HugePages require cpu or memory"))
    return errs


# --- containers --------------------------------------------------------------------------


@ports("pkg/apis/core/validation/validation.go", "validateContainerPorts", 2539, 2575)
def validate_container_ports(ports: list[ContainerPort], path: str) -> field.ErrorList:
    """Upstream validateContainerPorts (port names are not read, so not checked)."""
    errs: field.ErrorList = []
    for i, port in enumerate(ports):
        p = f"{path}[{i}]"
        if port.container_port == 0:
            errs.append(field.required(f"{p}.containerPort"))
        else:
            errs += [field.invalid(f"{p}.containerPort", port.container_port, msg)
                     for msg in is_valid_port_num(port.container_port)]
        if port.host_port != 0:
            errs += [field.invalid(f"{p}.hostPort", port.host_port, msg) for msg in is_valid_port_num(port.host_port)]
        if not port.protocol:
            errs.append(field.required(f"{p}.protocol"))
        elif port.protocol not in SUPPORTED_PORT_PROTOCOLS:
            errs.append(field.not_supported(f"{p}.protocol", port.protocol, SUPPORTED_PORT_PROTOCOLS))
    return errs


def _validate_container_common(c: Container, path: str, opts: ValidationOptions) -> field.ErrorList:
    """Upstream validateContainerCommon: name, ports, resources."""
    errs: field.ErrorList = []
    if not c.name:
        errs.append(field.required(f"{path}.name"))
    else:
        errs += [field.invalid(f"{path}.name", c.name, msg) for msg in is_dns1123_label(c.name)]
    errs += validate_container_ports(c.ports, f"{path}.ports")
    errs += validate_resource_requirements(c.resources, f"{path}.resources", opts)
    return errs


@ports("pkg/apis/core/validation/validation.go", "AccumulateUniqueHostPorts", 3196, 3217)
def accumulate_unique_host_ports(containers: list[Container], seen: set[str], path: str) -> field.ErrorList:
    """Upstream AccumulateUniqueHostPorts: protocol/hostIP/hostPort is used once."""
    errs: field.ErrorList = []
    for ci, c in enumerate(containers):
        for pi, port in enumerate(c.ports):
            if port.host_port == 0:
                continue
            key = f"{port.protocol}/{port.host_ip}/{port.host_port}"
            if key in seen:
                errs.append(field.duplicate(f"{path}[{ci}].ports[{pi}].hostPort", key))
            else:
                seen.add(key)
    return errs


@ports("pkg/apis/core/validation/validation.go", "validateContainers", 3613, 3657)
def validate_containers(containers: list[Container], path: str, opts: ValidationOptions) -> field.ErrorList:
    """Upstream validateContainers (the regular containers)."""
    if not containers:
        return [field.required(path)]
    errs: field.ErrorList = []
    names: set[str] = set()
    for i, c in enumerate(containers):
        p = f"{path}[{i}]"
        errs += _validate_container_common(c, p, opts)
        if c.name in names:
            errs.append(field.duplicate(f"{p}.name", c.name))
        else:
            names.add(c.name)
        if c.restart_policy is not None:
            errs.append(field.forbidden(f"{p}.restartPolicy", "may not be set for non-init containers"))
    errs += accumulate_unique_host_ports(containers, set(), path)
    return errs


@ports("pkg/apis/core/validation/validation.go", "validateInitContainers", 3475, 3537)
def validate_init_containers(init: list[Container], regular: list[Container], path: str,
                             opts: ValidationOptions) -> field.ErrorList:
    """Upstream validateInitContainers."""
    errs: field.ErrorList = []
    names = {c.name for c in regular}
    for i, c in enumerate(init):
        p = f"{path}[{i}]"
        errs += _validate_container_common(c, p, opts)
        if c.restart_policy is not None and c.restart_policy != "Always":
            errs.append(field.not_supported(f"{p}.restartPolicy", c.restart_policy, ["Always"]))
        if c.name in names:
            errs.append(field.duplicate(f"{p}.name", c.name))
        elif c.name:
            names.add(c.name)
        # init containers run one by one, so each is checked on its own
        errs += accumulate_unique_host_ports([c], set(), path)
    return errs


# --- tolerations and taints --------------------------------------------------------------


@ports("pkg/apis/core/validation/validation.go", "validateTaintEffect", 3858, 3879)
def validate_taint_effect(effect: str, allow_empty: bool, path: str) -> field.ErrorList:
    if not allow_empty and not effect:
        return [field.required(path)]
    if effect not in TAINT_EFFECTS:
        return [field.not_supported(path, effect, TAINT_EFFECTS)]
    return []


def _go_toleration(t: Toleration) -> GoValue:
    seconds = "(*int64)(nil)" if t.toleration_seconds is None else f"(*int64)({GO_POINTER})"
    return GoValue(f"core.Toleration{{Key:{go_quote(t.key)}, Operator:{go_quote(t.operator)}, "
                   f"Value:{go_quote(t.value)}, Effect:{go_quote(t.effect)}, TolerationSeconds:{seconds}}}")


@ports("pkg/apis/core/validation/validation.go", "ValidateTolerations", 3939, 3981)
def validate_tolerations(tolerations: list[Toleration], path: str) -> field.ErrorList:
    """Upstream ValidateTolerations."""
    errs: field.ErrorList = []
    for i, t in enumerate(tolerations):
        p = f"{path}[{i}]"
        if t.key:
            errs += validate_label_name(t.key, f"{p}.key")
        if not t.key and t.operator != "Exists":
            errs.append(field.invalid(f"{p}.operator", t.operator,
                                      "operator must be Exists when `key` is empty, which means "
                                      "\"match all values and all keys\""))
        if t.toleration_seconds is not None and t.effect != "NoExecute":
            errs.append(field.invalid(f"{p}.effect", t.effect,
                                      "effect must be 'NoExecute' when `tolerationSeconds` is set"))
        if t.operator in ("Equal", ""):
            if msgs := is_valid_label_value(t.value):
                errs.append(field.invalid(f"{p}.operator", t.value, ";".join(msgs)))
        elif t.operator == "Exists":
            if t.value:
                errs.append(field.invalid(f"{p}.operator", _go_toleration(t),
                                          "value must be empty when `operator` is 'Exists'"))
        else:
            errs.append(field.not_supported(f"{p}.operator", t.operator, ["Equal", "Exists"]))
        if t.effect:
            errs += validate_taint_effect(t.effect, True, f"{p}.effect")
    return errs


def _go_taint(t: Taint) -> GoValue:
    return GoValue(f"core.Taint{{Key:{go_quote(t.key)}, Value:{go_quote(t.value)}, "
                   f"Effect:{go_quote(t.effect)}, TimeAdded:(*v1.Time)(nil)}}")


@ports("pkg/apis/core/validation/validation.go", "validateNodeTaints", 6023, 6054)
def validate_node_taints(taints: list[Taint], path: str) -> field.ErrorList:
    """Upstream validateNodeTaints: valid key, value and effect; unique by key and effect."""
    errs: field.ErrorList = []
    seen: set[tuple[str, str]] = set()
    for i, t in enumerate(taints):
        p = f"{path}[{i}]"
        errs += validate_label_name(t.key, f"{p}.key")
        if msgs := is_valid_label_value(t.value):
            errs.append(field.invalid(f"{p}.value", t.value, ";".join(msgs)))
        errs += validate_taint_effect(t.effect, False, f"{p}.effect")
        if (t.effect, t.key) in seen:
            errs.append(field.duplicate(p, _go_taint(t), "taints must be unique by key and effect pair"))
            continue
        seen.add((t.effect, t.key))
    return errs


# --- node affinity -----------------------------------------------------------------------


@ports("pkg/apis/core/validation/validation.go", "ValidateNodeSelectorRequirement", 4368, 4391)
def validate_node_selector_requirement(req: NodeSelectorRequirement, path: str) -> field.ErrorList:
    errs: field.ErrorList = []
    if req.operator in ("In", "NotIn"):
        if not req.values:
            errs.append(field.required(f"{path}.values", "must be specified when `operator` is 'In' or 'NotIn'"))
    elif req.operator in ("Exists", "DoesNotExist"):
        if req.values:
            errs.append(field.forbidden(f"{path}.values",
                                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    elif req.operator in ("Gt", "Lt"):
        if len(req.values) != 1:
            errs.append(field.required(f"{path}.values",
                                       "must be specified single value when `operator` is 'Lt' or 'Gt'"))
    else:
        errs.append(field.invalid(f"{path}.operator", req.operator, "not a valid selector operator"))
    errs += validate_label_name(req.key, f"{path}.key")
    return errs


@ports("pkg/apis/core/validation/validation.go", "ValidateNodeFieldSelectorRequirement", 4398, 4422)
def validate_node_field_selector_requirement(req: NodeSelectorRequirement, path: str) -> field.ErrorList:
    errs: field.ErrorList = []
    if req.operator in ("In", "NotIn"):
        if len(req.values) != 1:
            errs.append(field.required(f"{path}.values",
                                       "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
    else:
        errs.append(field.invalid(f"{path}.operator", req.operator, "not a valid selector operator"))
    if req.key != "metadata.name":
        errs.append(field.invalid(f"{path}.key", req.key, "not a valid field selector key"))
    else:
        for i, v in enumerate(req.values):
            errs += [field.invalid(f"{path}.values[{i}]", v, msg) for msg in validate_node_name(v, False)]
    return errs


@ports("pkg/apis/core/validation/validation.go", "ValidateNodeSelectorTerm", 4425, 4437)
def validate_node_selector_term(term: NodeSelectorTerm, path: str) -> field.ErrorList:
    errs: field.ErrorList = []
    for j, req in enumerate(term.match_expressions):
        errs += validate_node_selector_requirement(req, f"{path}.matchExpressions[{j}]")
    for j, req in enumerate(term.match_fields):
        errs += validate_node_field_selector_requirement(req, f"{path}.matchFields[{j}]")
    return errs


@ports("pkg/apis/core/validation/validation.go", "ValidateNodeSelector", 4440, 4453)
def validate_node_selector(selector: NodeSelector, path: str) -> field.ErrorList:
    terms_path = f"{path}.nodeSelectorTerms"
    if not selector.node_selector_terms:
        return [field.required(terms_path, "must have at least one node selector term")]
    errs: field.ErrorList = []
    for i, term in enumerate(selector.node_selector_terms):
        errs += validate_node_selector_term(term, f"{terms_path}[{i}]")
    return errs


def _weight_error(weight: int, path: str) -> field.ErrorList:
    if weight <= 0 or weight > 100:
        return [field.invalid(path, weight, "must be in the range 1-100")]
    return []


# --- pod affinity ------------------------------------------------------------------------


@ports("pkg/apis/core/validation/validation.go", "validatePodAffinityTerm", 4556, 4570)
def validate_pod_affinity_term(term: PodAffinityTerm, path: str, allow_invalid: bool) -> field.ErrorList:
    """Upstream validatePodAffinityTerm."""
    errs = validate_label_selector(term.label_selector, f"{path}.labelSelector", allow_invalid)
    errs += validate_label_selector(term.namespace_selector, f"{path}.namespaceSelector", allow_invalid)
    for name in term.namespaces:
        errs += [field.invalid(f"{path}.namespace", name, msg) for msg in validate_namespace_name(name, False)]
    if not term.topology_key:
        errs.append(field.required(f"{path}.topologyKey", "can not be empty"))
    errs += validate_label_name(term.topology_key, f"{path}.topologyKey")
    return errs


def _validate_pod_affinity(pa: PodAffinity, path: str, allow_invalid: bool) -> field.ErrorList:
    """Upstream validatePodAffinity and validatePodAntiAffinity (the same checks)."""
    errs: field.ErrorList = []
    req_path = f"{path}.requiredDuringSchedulingIgnoredDuringExecution"
    for i, term in enumerate(pa.required):
        errs += validate_pod_affinity_term(term, f"{req_path}[{i}]", allow_invalid)
    pref_path = f"{path}.preferredDuringSchedulingIgnoredDuringExecution"
    for j, weighted in enumerate(pa.preferred):
        errs += _weight_error(weighted.weight, f"{pref_path}[{j}].weight")
        errs += validate_pod_affinity_term(weighted.pod_affinity_term, f"{pref_path}[{j}].podAffinityTerm",
                                           allow_invalid)
    return errs


@ports("pkg/apis/core/validation/validation.go", "validateAffinity", 3840, 3856)
def validate_affinity(affinity: Optional[Affinity], path: str, opts: ValidationOptions) -> field.ErrorList:
    """Upstream validateAffinity."""
    errs: field.ErrorList = []
    if affinity is None:
        return errs
    na = affinity.node_affinity
    if na is not None:
        na_path = f"{path}.nodeAffinity"
        if na.required is not None:
            errs += validate_node_selector(na.required, f"{na_path}.requiredDuringSchedulingIgnoredDuringExecution")
        pref_path = f"{na_path}.preferredDuringSchedulingIgnoredDuringExecution"
        for i, term in enumerate(na.preferred):
            errs += _weight_error(term.weight, f"{pref_path}[{i}].weight")
            errs += validate_node_selector_term(term.preference, f"{pref_path}[{i}].preference")
    allow = opts.allow_invalid_label_value_in_selector
    if affinity.pod_affinity is not None:
        errs += _validate_pod_affinity(affinity.pod_affinity, f"{path}.podAffinity", allow)
    if affinity.pod_anti_affinity is not None:
        errs += _validate_pod_affinity(affinity.pod_anti_affinity, f"{path}.podAntiAffinity", allow)
    return errs


# --- topology spread constraints ---------------------------------------------------------


def _validate_min_domains(min_domains: Optional[int], action: str, path: str) -> field.ErrorList:
    if min_domains is None:
        return []
    errs: field.ErrorList = []
    if min_domains <= 0:
        errs.append(field.invalid(path, min_domains, IS_NOT_POSITIVE_ERROR_MSG))
    if action != "DoNotSchedule":
        errs.append(field.invalid(path, min_domains,
                                  f"can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"))
    return errs


def _validate_match_label_keys(c: TopologySpreadConstraint, path: str) -> field.ErrorList:
    """Upstream validateMatchLabelKeysInTopologySpread."""
    if not c.match_label_keys:
        return []
    errs: field.ErrorList = []
    selector_keys: set[str] = set()
    if c.label_selector is not None:
        selector_keys.update(c.label_selector.match_labels)
        selector_keys.update(e.key for e in c.label_selector.match_expressions)
    else:
        errs.append(field.forbidden(path, "must not be specified when labelSelector is not set"))
    for i, key in enumerate(c.match_label_keys):
        errs += validate_label_name(key, f"{path}[{i}]")
        if key in selector_keys:
            errs.append(field.invalid(f"{path}[{i}]", key, "exists in both matchLabelKeys and labelSelector"))
    return errs


@ports("pkg/apis/core/validation/validation.go", "validateTopologySpreadConstraints", 7546, 7578)
def validate_topology_spread_constraints(constraints: list[TopologySpreadConstraint],
                                         path: str) -> field.ErrorList:
    """Upstream validateTopologySpreadConstraints."""
    errs: field.ErrorList = []
    for i, c in enumerate(constraints):
        p = f"{path}[{i}]"
        if c.max_skew <= 0:
            errs.append(field.invalid(f"{p}.maxSkew", c.max_skew, IS_NOT_POSITIVE_ERROR_MSG))
        if not c.topology_key:
            errs.append(field.required(f"{p}.topologyKey", "can not be empty"))
        if c.when_unsatisfiable not in SUPPORTED_SCHEDULE_ACTIONS:
            errs.append(field.not_supported(f"{p}.whenUnsatisfiable", c.when_unsatisfiable,
                                            SUPPORTED_SCHEDULE_ACTIONS))
        for rest in constraints[i + 1:]:
            if (c.topology_key, c.when_unsatisfiable) == (rest.topology_key, rest.when_unsatisfiable):
                errs.append(field.duplicate(f"{p}.{{topologyKey, whenUnsatisfiable}}",
                                            f"{{{c.topology_key}, {c.when_unsatisfiable}}}"))
                break
        errs += _validate_min_domains(c.min_domains, c.when_unsatisfiable, f"{p}.minDomains")
        for name, policy in (("nodeAffinityPolicy", c.node_affinity_policy),
                             ("nodeTaintsPolicy", c.node_taints_policy)):
            if policy is not None and policy not in SUPPORTED_NODE_INCLUSION_POLICIES:
                errs.append(field.not_supported(f"{p}.{name}", policy, SUPPORTED_NODE_INCLUSION_POLICIES))
        errs += _validate_match_label_keys(c, f"{p}.matchLabelKeys")
        errs += validate_label_selector(c.label_selector, f"{p}.labelSelector")
    return errs


# --- the pod -----------------------------------------------------------------------------


@ports("pkg/apis/core/validation/validation.go", "ValidatePreemptionPolicy", 3674, 3685)
def validate_preemption_policy(policy: str, path: str) -> field.ErrorList:
    """Upstream ValidatePreemptionPolicy."""
    if policy in PREEMPTION_POLICIES:
        return []
    if not policy:
        return [field.required(path)]
    return [field.not_supported(path, policy, PREEMPTION_POLICIES)]


@ports("pkg/apis/core/validation/validation.go", "validateSchedulingGates", 3729, 3741)
def validate_scheduling_gates(gates: list[str], path: str) -> field.ErrorList:
    errs: field.ErrorList = []
    seen: set[str] = set()
    for i, name in enumerate(gates):
        errs += [field.invalid(f"{path}[{i}]", name, msg) for msg in is_qualified_name(name)]
        if name in seen:
            errs.append(field.duplicate(f"{path}[{i}]", name))
        seen.add(name)
    return errs


@ports("pkg/apis/core/validation/validation.go", "ValidatePodSpec", 4160, 4258)
def validate_pod_spec(spec: PodSpec, path: str, opts: ValidationOptions) -> field.ErrorList:
    """Upstream ValidatePodSpec, in its order, for the fields the loader reads."""
    errs = validate_containers(spec.containers, f"{path}.containers", opts)
    errs += validate_init_containers(spec.init_containers, spec.containers, f"{path}.initContainers", opts)
    errs += validate_labels(spec.node_selector, f"{path}.nodeSelector")
    errs += validate_affinity(spec.affinity, f"{path}.affinity", opts)
    errs += validate_scheduling_gates(spec.scheduling_gates, f"{path}.schedulingGates")
    errs += validate_topology_spread_constraints(spec.topology_spread_constraints,
                                                 f"{path}.topologySpreadConstraints")
    if spec.node_name:
        errs += [field.invalid(f"{path}.nodeName", spec.node_name, msg)
                 for msg in validate_node_name(spec.node_name, False)]
    if spec.tolerations:
        errs += validate_tolerations(spec.tolerations, f"{path}.tolerations")
    if spec.priority_class_name:
        errs += [field.invalid(f"{path}.priorityClassName", spec.priority_class_name, msg)
                 for msg in validate_priority_class_name(spec.priority_class_name, False)]
    if spec.preemption_policy is not None:
        errs += validate_preemption_policy(spec.preemption_policy, f"{path}.preemptionPolicy")
    if spec.overhead:
        errs += validate_resource_requirements(ResourceRequirements(limits=spec.overhead), f"{path}.overhead", opts)
    return errs


def _validate_images(containers: list[Container], path: str) -> field.ErrorList:
    """Upstream validateContainersOnlyForPod: no whitespace around an image name."""
    return [field.invalid(f"{path}[{i}].image", c.image, "must not have leading or trailing whitespace")
            for i, c in enumerate(containers) if c.image != c.image.strip()]


@ports("pkg/apis/core/validation/validation.go", "ValidatePodCreate", 4978, 4994)
def validate_pod_create(pod: Pod, opts: Optional[ValidationOptions] = None) -> field.ErrorList:
    """Upstream ValidatePodCreate: metadata, spec, then the create-only rules."""
    opts = opts or ValidationOptions()
    errs = validate_object_meta(pod.metadata, True, validate_pod_name)
    errs += validate_pod_spec(pod.spec, "spec", opts)
    errs += _validate_images(pod.spec.containers, "spec.containers")
    errs += _validate_images(pod.spec.init_containers, "spec.initContainers")
    if pod.spec.node_name and pod.spec.scheduling_gates:
        errs.append(field.forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared"))
    return errs


# --- the node ----------------------------------------------------------------------------


@ports("pkg/apis/core/validation/validation.go", "ValidateNodeResources", 6119, 6134)
def validate_node_resources(node: Node, opts: ValidationOptions) -> field.ErrorList:
    """Upstream ValidateNodeResources: capacity and allocatable amounts."""
    errs: field.ErrorList = []
    for part, resources in (("capacity", node.status.capacity), ("allocatable", node.status.allocatable)):
        for name, q in resources.items():
            errs += validate_resource_quantity_value(name, q, f"status.{part}.{name}", opts)
    return errs


@ports("pkg/apis/core/validation/validation.go", "ValidateNode", 6070, 6116)
def validate_node(node: Node, opts: Optional[ValidationOptions] = None) -> field.ErrorList:
    """Upstream ValidateNode. Its taints are reported under ``metadata.taints``, as upstream does."""
    opts = opts or ValidationOptions()
    # upstream: a namespace sent with a cluster-scoped object is cleared before validation
    errs = validate_object_meta(dataclasses.replace(node.metadata, namespace=""), False, validate_node_name)
    if node.spec.taints:
        errs += validate_node_taints(node.spec.taints, "metadata.taints")
    errs += validate_node_resources(node, opts)
    return errs
