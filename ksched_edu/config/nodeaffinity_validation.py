"""Port of the parse-time checks of k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go (v1.30).

NewNodeSelector and NewPreferredSchedulingTerms turn node selector terms
into label and field selectors and report every term that cannot be parsed:
an unknown operator, an empty ``In`` list, a non-integer ``Gt``, a
``matchFields`` entry that is not ``In``/``NotIn`` with one value. The
NodeAffinityArgs validation calls them with the args' path; this module
keeps only that reporting side (matching nodes is the plugin's business).

Deviations:
- Returns the list of errors instead of a parsed selector.
"""
from __future__ import annotations

from typing import Optional

from ..anchors import SCHEDULER_PLUGINS, ports
from ..api.types import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, PreferredSchedulingTerm
from . import field
from .field import FieldError, Path
from .gofmt import GoValue
from .name_validation import validate_requirement

VALID_SELECTOR_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"]
VALID_FIELD_SELECTOR_OPERATORS = ["In", "NotIn"]
# NodeSelectorOperator -> labels selection.Operator
_SELECTION_OPS = {"In": "in", "NotIn": "notin", "Exists": "exists", "DoesNotExist": "!",
                  "Gt": "gt", "Lt": "lt"}


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "isEmptyNodeSelectorTerm", 152, 154, repo=SCHEDULER_PLUGINS)
def _is_empty_term(term: NodeSelectorTerm) -> bool:
    return not term.match_expressions and not term.match_fields


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "NewNodeSelector", 40, 52, repo=SCHEDULER_PLUGINS)
def node_selector_errors(ns: NodeSelector, path: Optional[Path]) -> list[FieldError]:
    """The errors NewNodeSelector(ns, WithPath(path)) returns, flattened."""
    errs: list[FieldError] = []
    terms_path = field.child(path, "nodeSelectorTerms")
    for i, term in enumerate(ns.node_selector_terms):
        if _is_empty_term(term):
            continue
        errs.extend(_term_errors(term, terms_path.index(i)))
    return errs


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "NewPreferredSchedulingTerms", 112, 135, repo=SCHEDULER_PLUGINS)
def preferred_scheduling_terms_errors(terms: list[PreferredSchedulingTerm],
                                      path: Optional[Path]) -> list[FieldError]:
    """The errors NewPreferredSchedulingTerms(terms, WithPath(path)) returns, flattened."""
    errs: list[FieldError] = []
    for i, term in enumerate(terms):
        if term.weight == 0 or _is_empty_term(term.preference):
            continue
        errs.extend(_term_errors(term.preference, field.index(path, i)))
    return errs


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "newNodeSelectorTerm", 170, 188, repo=SCHEDULER_PLUGINS)
def _term_errors(term: NodeSelectorTerm, path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    if term.match_expressions:
        errs.extend(_requirements_as_selector_errors(term.match_expressions,
                                                     path.child("matchExpressions")))
    if term.match_fields:
        errs.extend(_requirements_as_field_selector_errors(term.match_fields,
                                                           path.child("matchFields")))
    return errs


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "nodeSelectorRequirementsAsSelector", 214, 251, repo=SCHEDULER_PLUGINS)
def _requirements_as_selector_errors(nsm: list[NodeSelectorRequirement],
                                     path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, expr in enumerate(nsm):
        p = path.index(i)
        op = _SELECTION_OPS.get(expr.operator)
        if op is None:
            errs.append(field.not_supported(p.child("operator"),
                                            GoValue(expr.operator, "v1.NodeSelectorOperator"),
                                            VALID_SELECTOR_OPERATORS))
            continue
        errs.extend(validate_requirement(expr.key, op, expr.values, p))
    return errs


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go", "nodeSelectorRequirementsAsFieldSelector", 260, 293, repo=SCHEDULER_PLUGINS)
def _requirements_as_field_selector_errors(nsr: list[NodeSelectorRequirement],
                                           path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, expr in enumerate(nsr):
        p = path.index(i)
        if expr.operator in ("In", "NotIn"):
            if len(expr.values) != 1:
                errs.append(field.invalid(p.child("values"), GoValue(expr.values, "[]string"),
                                          "must have one element"))
        else:
            errs.append(field.not_supported(p.child("operator"),
                                            GoValue(expr.operator, "v1.NodeSelectorOperator"),
                                            VALID_FIELD_SELECTOR_OPERATORS))
    return errs
