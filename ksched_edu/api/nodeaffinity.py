"""Port of k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go (v1.30).

Turns a pod's ``nodeSelector`` and node affinity into matchers over a Node: a
NodeSelector is a list of ORed terms, each term ANDs label requirements
(``matchExpressions``, with In/NotIn/Exists/DoesNotExist/Gt/Lt) and field
requirements (``matchFields``, only ``metadata.name`` with In/NotIn and one value).
Parsing is lazy where upstream is lazy: a term that fails to parse simply never
matches, and its errors are reported only when no other term matched.

Deviations:
- Go's ``(value, error)`` pairs stay pairs; an error is a :class:`NodeAffinityParseError`
  whose ``str()`` is upstream's aggregated message (``[a, b]`` for several errors).
- ``new_node_selector`` / ``new_preferred_scheduling_terms`` raise that error
  instead of returning it.
- The label and field selectors are small private classes here: the shared
  ``ksched_edu.api.labels`` selector has no Gt/Lt and no parse errors.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from .types import Node, NodeSelector as V1NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod, \
    PreferredSchedulingTerm

# core/v1 NodeSelectorOperator values.
NODE_SELECTOR_OP_IN = "In"
NODE_SELECTOR_OP_NOT_IN = "NotIn"
NODE_SELECTOR_OP_EXISTS = "Exists"
NODE_SELECTOR_OP_DOES_NOT_EXIST = "DoesNotExist"
NODE_SELECTOR_OP_GT = "Gt"
NODE_SELECTOR_OP_LT = "Lt"

# metav1.ObjectNameField: the only node field a matchFields requirement can name.
OBJECT_NAME_FIELD = "metadata.name"

VALID_SELECTOR_OPERATORS = [NODE_SELECTOR_OP_IN, NODE_SELECTOR_OP_NOT_IN, NODE_SELECTOR_OP_EXISTS,
                            NODE_SELECTOR_OP_DOES_NOT_EXIST, NODE_SELECTOR_OP_GT, NODE_SELECTOR_OP_LT]
VALID_FIELD_SELECTOR_OPERATORS = [NODE_SELECTOR_OP_IN, NODE_SELECTOR_OP_NOT_IN]

# labels.NewRequirement lists these when an operator is unknown (selection.Operator values).
_VALID_REQUIREMENT_OPERATORS = ["in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"]


# --- errors (apimachinery util/validation/field and util/errors, the parts used here) ---


def _go_quote(s: str) -> str:
    """Go's %q for the plain strings these messages carry."""
    return json.dumps(s, ensure_ascii=False)


def _go_value(value: Any) -> str:
    """How field.Error prints a bad value: %q for strings, %#v for []string."""
    if isinstance(value, str):
        return _go_quote(value)
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]string(nil)"
        return "[]string{" + ", ".join(_go_quote(v) for v in value) + "}"
    return str(value)


@ports("vendor/k8s.io/apimachinery/pkg/util/validation/field/errors.go", "Error", 31, 36, repo=SCHEDULER_PLUGINS)
@dataclass(frozen=True)
class FieldError:
    """One field-level error (upstream field.Error): ``<path>: <Type>: <value>: <detail>``."""

    type: str  # "Invalid value" or "Unsupported value"
    field: str
    bad_value: Any
    detail: str = ""

    def __str__(self) -> str:
        body = f"{self.type}: {_go_value(self.bad_value)}"
        if self.detail:
            body += f": {self.detail}"
        return f"{self.field}: {body}"


def _invalid(path: str, value: Any, detail: str) -> FieldError:
    return FieldError("Invalid value", path, value, detail)


def _not_supported(path: str, value: Any, valid: Sequence[str]) -> FieldError:
    detail = "supported values: " + ", ".join(_go_quote(v) for v in valid) if valid else ""
    return FieldError("Unsupported value", path, value, detail)


@plumbing("Python exception carrying the aggregated parse errors")
class NodeAffinityParseError(ValueError):
    """Aggregated parse errors (upstream errors.Flatten(errors.NewAggregate(errs)))."""

    def __init__(self, errors: Sequence[Any]) -> None:
        # An aggregate prints each distinct message once, in order of first appearance.
        msgs: list[str] = []
        for e in errors:
            if str(e) not in msgs:
                msgs.append(str(e))
        self.errors = list(errors)
        super().__init__(msgs[0] if len(msgs) == 1 else "[" + ", ".join(msgs) + "]")


def _aggregate(errors: Sequence[Any]) -> Optional[NodeAffinityParseError]:
    return NodeAffinityParseError(errors) if errors else None


def _child(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _index(path: str, i: int) -> str:
    return f"{path}[{i}]"


# Label keys and values are checked as apimachinery's util/validation does (shared with
# the API server's object validation).
from .validation.names import is_qualified_name, is_valid_label_value  # noqa: E402,F401


_INT64_RE = re.compile(r"[+-]?[0-9]+")


@plumbing("Go's strconv.ParseInt semantics")
def parse_int64(s: str) -> Optional[int]:
    """Go's strconv.ParseInt(s, 10, 64); None where Go returns an error."""
    if not _INT64_RE.fullmatch(s):
        return None
    v = int(s)
    if v < -(2**63) or v > 2**63 - 1:
        return None
    return v


# --- selectors ----------------------------------------------------------------------


@ports("vendor/k8s.io/apimachinery/pkg/labels/selector.go", "Requirement", 141, 148, repo=SCHEDULER_PLUGINS)
@dataclass(frozen=True)
class LabelRequirement:
    """A parsed matchExpressions entry (upstream labels.Requirement), Gt/Lt included."""

    key: str
    operator: str  # a NodeSelectorOperator
    values: tuple[str, ...] = ()

    @ports("vendor/k8s.io/apimachinery/pkg/labels/selector.go", "(*Requirement).Matches", 223, 267, repo=SCHEDULER_PLUGINS)
    def matches(self, labels: Mapping[str, str]) -> bool:
        op = self.operator
        if op == NODE_SELECTOR_OP_IN:
            return self.key in labels and labels[self.key] in self.values
        if op == NODE_SELECTOR_OP_NOT_IN:
            return self.key not in labels or labels[self.key] not in self.values
        if op == NODE_SELECTOR_OP_EXISTS:
            return self.key in labels
        if op == NODE_SELECTOR_OP_DOES_NOT_EXIST:
            return self.key not in labels
        if op in (NODE_SELECTOR_OP_GT, NODE_SELECTOR_OP_LT):
            if self.key not in labels:
                return False
            label_value = parse_int64(labels[self.key])
            if label_value is None or len(self.values) != 1:
                return False
            wanted = parse_int64(self.values[0])
            if wanted is None:
                return False
            return label_value > wanted if op == NODE_SELECTOR_OP_GT else label_value < wanted
        return False


@ports("vendor/k8s.io/apimachinery/pkg/labels/selector.go", "NewRequirement", 161, 201, repo=SCHEDULER_PLUGINS)
def new_requirement(key: str, op: str, values: Sequence[str], path: str) -> tuple[LabelRequirement, list[FieldError]]:
    """Upstream labels.NewRequirement: the requirement and the errors found validating it."""
    errs: list[FieldError] = []
    key_errs = is_qualified_name(key)
    if key_errs:
        errs.append(_invalid(_child(path, "key"), key, "; ".join(key_errs)))
    value_path = _child(path, "values")
    if op in (NODE_SELECTOR_OP_IN, NODE_SELECTOR_OP_NOT_IN):
        if not values:
            errs.append(_invalid(value_path, list(values), "for 'in', 'notin' operators, values set can't be empty"))
    elif op in (NODE_SELECTOR_OP_EXISTS, NODE_SELECTOR_OP_DOES_NOT_EXIST):
        if values:
            errs.append(_invalid(value_path, list(values), "values set must be empty for exists and does not exist"))
    elif op in (NODE_SELECTOR_OP_GT, NODE_SELECTOR_OP_LT):
        if len(values) != 1:
            errs.append(_invalid(value_path, list(values),
                                 "for 'Gt', 'Lt' operators, exactly one value is required"))
        for i, v in enumerate(values):
            if parse_int64(v) is None:
                errs.append(_invalid(_index(value_path, i), v,
                                     "for 'Gt', 'Lt' operators, the value must be an integer"))
    for i, v in enumerate(values):
        value_errs = is_valid_label_value(v)
        if value_errs:
            errs.append(_invalid(f"{_index(value_path, i)}[{key}]", v, "; ".join(value_errs)))
    return LabelRequirement(key, op, tuple(values)), errs


@ports("vendor/k8s.io/apimachinery/pkg/fields/selector.go", "hasTerm", 80, 82, repo=SCHEDULER_PLUGINS)
@dataclass(frozen=True)
class FieldRequirement:
    """``key = value`` or ``key != value`` on the node's fields (upstream fields.Selector)."""

    key: str
    value: str
    equal: bool

    @ports("vendor/k8s.io/apimachinery/pkg/fields/selector.go", "(*hasTerm).Matches", 84, 86, repo=SCHEDULER_PLUGINS)
    def matches(self, fields: Mapping[str, str]) -> bool:
        # upstream: fields.Set.Get returns "" for a missing field.
        got = fields.get(self.key, "")
        return got == self.value if self.equal else got != self.value


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "nodeSelectorRequirementsAsSelector", 214, 251, repo=SCHEDULER_PLUGINS)
def node_selector_requirements_as_selector(
    nsm: Sequence[NodeSelectorRequirement], path: str
) -> tuple[Optional[list[LabelRequirement]], list[FieldError]]:
    """matchExpressions -> label requirements (ANDed), or the errors found."""
    if not nsm:
        return [], []  # upstream: labels.Nothing(); never reached, callers check emptiness.
    errs: list[FieldError] = []
    reqs: list[LabelRequirement] = []
    for i, expr in enumerate(nsm):
        p = _index(path, i)
        if expr.operator not in VALID_SELECTOR_OPERATORS:
            errs.append(_not_supported(_child(p, "operator"), expr.operator, VALID_SELECTOR_OPERATORS))
            continue
        req, req_errs = new_requirement(expr.key, expr.operator, expr.values, p)
        if req_errs:
            errs.extend(req_errs)
        else:
            reqs.append(req)
    if errs:
        return None, errs
    return reqs, []


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "nodeSelectorRequirementsAsFieldSelector", 260, 293, repo=SCHEDULER_PLUGINS)
def node_selector_requirements_as_field_selector(
    nsr: Sequence[NodeSelectorRequirement], path: str
) -> tuple[Optional[list[FieldRequirement]], list[FieldError]]:
    """matchFields -> field requirements (ANDed), or the errors found."""
    if not nsr:
        return [], []
    errs: list[FieldError] = []
    selectors: list[FieldRequirement] = []
    for i, expr in enumerate(nsr):
        p = _index(path, i)
        if expr.operator in (NODE_SELECTOR_OP_IN, NODE_SELECTOR_OP_NOT_IN):
            if len(expr.values) != 1:
                errs.append(_invalid(_child(p, "values"), list(expr.values), "must have one element"))
            else:
                selectors.append(FieldRequirement(expr.key, expr.values[0], expr.operator == NODE_SELECTOR_OP_IN))
        else:
            errs.append(_not_supported(_child(p, "operator"), expr.operator, VALID_FIELD_SELECTOR_OPERATORS))
    if errs:
        return None, errs
    return selectors, []


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "isEmptyNodeSelectorTerm", 152, 154, repo=SCHEDULER_PLUGINS)
def is_empty_node_selector_term(term: NodeSelectorTerm) -> bool:
    return not term.match_expressions and not term.match_fields


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "extractNodeFields", 156, 162, repo=SCHEDULER_PLUGINS)
def extract_node_fields(node: Node) -> dict[str, str]:
    return {OBJECT_NAME_FIELD: node.metadata.name} if node.metadata.name else {}


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "nodeSelectorTerm", 164, 168, repo=SCHEDULER_PLUGINS)
@dataclass
class ParsedNodeSelectorTerm:
    """One parsed term (upstream nodeSelectorTerm); None selectors mean "not given"."""

    match_labels: Optional[list[LabelRequirement]] = None
    match_fields: Optional[list[FieldRequirement]] = None
    parse_errs: list[FieldError] = field(default_factory=list)

    @ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "(*nodeSelectorTerm).match", 190, 201, repo=SCHEDULER_PLUGINS)
    def match(self, node_labels: Mapping[str, str], node_fields: Mapping[str, str]) -> tuple[bool, list[FieldError]]:
        if self.parse_errs:
            return False, self.parse_errs
        if self.match_labels is not None and not all(r.matches(node_labels) for r in self.match_labels):
            return False, []
        if (self.match_fields is not None and node_fields
                and not all(r.matches(node_fields) for r in self.match_fields)):
            return False, []
        return True, []


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "newNodeSelectorTerm", 170, 188, repo=SCHEDULER_PLUGINS)
def new_node_selector_term(term: NodeSelectorTerm, path: str) -> ParsedNodeSelectorTerm:
    parsed = ParsedNodeSelectorTerm()
    if term.match_expressions:
        parsed.match_labels, errs = node_selector_requirements_as_selector(
            term.match_expressions, _child(path, "matchExpressions"))
        parsed.parse_errs.extend(errs)
    if term.match_fields:
        parsed.match_fields, errs = node_selector_requirements_as_field_selector(
            term.match_fields, _child(path, "matchFields"))
        parsed.parse_errs.extend(errs)
    return parsed


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "LazyErrorNodeSelector", 35, 37, repo=SCHEDULER_PLUGINS)
class LazyErrorNodeSelector:
    """A NodeSelector that reports parse errors only when no term matches."""

    def __init__(self, terms: list[ParsedNodeSelectorTerm]) -> None:
        self.terms = terms

    @ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "(*LazyErrorNodeSelector).Match", 84, 103, repo=SCHEDULER_PLUGINS)
    def match(self, node: Optional[Node]) -> tuple[bool, Optional[NodeAffinityParseError]]:
        """Whether any term matches the node; the parse errors if none did."""
        if node is None:
            return False, None
        node_labels = node.metadata.labels
        node_fields = extract_node_fields(node)
        errs: list[FieldError] = []
        for term in self.terms:
            matched, term_errs = term.match(node_labels, node_fields)
            if term_errs:
                errs.extend(term_errs)
                continue
            if matched:
                return True, None
        return False, _aggregate(errs)


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "NewLazyErrorNodeSelector", 56, 71, repo=SCHEDULER_PLUGINS)
def new_lazy_error_node_selector(ns: V1NodeSelector, path: str = "") -> LazyErrorNodeSelector:
    """Parse every non-empty term; an empty term selects nothing and is dropped."""
    terms_path = _child(path, "nodeSelectorTerms")
    parsed = [new_node_selector_term(term, _index(terms_path, i))
              for i, term in enumerate(ns.node_selector_terms)
              if not is_empty_node_selector_term(term)]
    return LazyErrorNodeSelector(parsed)


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "NodeSelector", 29, 31, repo=SCHEDULER_PLUGINS)
class NodeSelector:
    """A NodeSelector known to parse cleanly (upstream nodeaffinity.NodeSelector)."""

    def __init__(self, lazy: LazyErrorNodeSelector) -> None:
        self.lazy = lazy

    @ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "(*NodeSelector).Match", 75, 79, repo=SCHEDULER_PLUGINS)
    def match(self, node: Optional[Node]) -> bool:
        matched, _ = self.lazy.match(node)
        return matched


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "NewNodeSelector", 40, 52, repo=SCHEDULER_PLUGINS)
def new_node_selector(ns: V1NodeSelector, path: str = "") -> NodeSelector:
    """Parse ``ns``; raise :class:`NodeAffinityParseError` with every term's errors."""
    lazy = new_lazy_error_node_selector(ns, path)
    errs = [e for term in lazy.terms for e in term.parse_errs]
    if errs:
        raise NodeAffinityParseError(errs)
    return NodeSelector(lazy)


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "preferredSchedulingTerm", 295, 298, repo=SCHEDULER_PLUGINS)
@dataclass
class ParsedPreferredSchedulingTerm:
    term: ParsedNodeSelectorTerm
    weight: int


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "PreferredSchedulingTerms", 106, 108, repo=SCHEDULER_PLUGINS)
class PreferredSchedulingTerms:
    """Parsed preferred terms; a node scores the sum of the weights of the terms it matches."""

    def __init__(self, terms: list[ParsedPreferredSchedulingTerm]) -> None:
        self.terms = terms

    @ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "(*PreferredSchedulingTerms).Score", 139, 150, repo=SCHEDULER_PLUGINS)
    def score(self, node: Node) -> int:
        node_labels = node.metadata.labels
        node_fields = extract_node_fields(node)
        total = 0
        for t in self.terms:
            matched, _ = t.term.match(node_labels, node_fields)
            if matched:
                total += t.weight
        return total


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "NewPreferredSchedulingTerms", 112, 135, repo=SCHEDULER_PLUGINS)
def new_preferred_scheduling_terms(terms: Sequence[PreferredSchedulingTerm], path: str = "") -> PreferredSchedulingTerms:
    """Parse the terms, skipping weight-0 and empty ones; raise on any parse error."""
    errs: list[FieldError] = []
    parsed: list[ParsedPreferredSchedulingTerm] = []
    for i, term in enumerate(terms):
        if term.weight == 0 or is_empty_node_selector_term(term.preference):
            continue
        pt = new_node_selector_term(term.preference, _index(path, i))
        if pt.parse_errs:
            errs.extend(pt.parse_errs)
        else:
            parsed.append(ParsedPreferredSchedulingTerm(pt, int(term.weight)))
    if errs:
        raise NodeAffinityParseError(errs)
    return PreferredSchedulingTerms(parsed)


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "RequiredNodeAffinity", 300, 303, repo=SCHEDULER_PLUGINS)
@dataclass
class RequiredNodeAffinity:
    """A pod's ``nodeSelector`` (as a label set) and required node affinity, together."""

    label_selector: Optional[dict[str, str]] = None
    node_selector: Optional[LazyErrorNodeSelector] = None

    @ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "(RequiredNodeAffinity).Match", 323, 333, repo=SCHEDULER_PLUGINS)
    def match(self, node: Node) -> tuple[bool, Optional[NodeAffinityParseError]]:
        """Both must hold; parse errors of the affinity come back as the second item."""
        if self.label_selector is not None:
            labels = node.metadata.labels
            if not all(labels.get(k) == v and k in labels for k, v in self.label_selector.items()):
                return False, None
        if self.node_selector is not None:
            return self.node_selector.match(node)
        return True, None


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "GetRequiredNodeAffinity", 306, 319, repo=SCHEDULER_PLUGINS)
def get_required_node_affinity(pod: Pod) -> RequiredNodeAffinity:
    """Parse the pod's ``nodeSelector`` and ``requiredDuringSchedulingIgnoredDuringExecution``."""
    selector = dict(pod.spec.node_selector) if pod.spec.node_selector else None
    affinity = None
    aff = pod.spec.affinity
    if aff is not None and aff.node_affinity is not None and aff.node_affinity.required is not None:
        # Lazy errors, for backwards compatibility with how parse errors were reported.
        affinity = new_lazy_error_node_selector(aff.node_affinity.required)
    return RequiredNodeAffinity(selector, affinity)
