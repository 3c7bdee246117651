"""Port of k8s.io/apimachinery/pkg/api/validation/objectmeta.go and
apimachinery/pkg/apis/meta/v1/validation/validation.go (v1.30), the parts a create checks.

Every object's metadata is checked the same way: its name by a kind-specific
name function, its namespace (a DNS label) when the kind lives in one, its
label keys and values and its annotation keys. Label selectors (a PDB's, an
affinity term's, a spread constraint's) are checked here too.

Deviations:
- Labels and annotations are checked in the manifest's order (Go walks a map
  in random order, so with several bad keys upstream's order varies).
- generateName, finalizers, ownerReferences and managedFields are not read by
  the loader, so they are not checked.
"""
from __future__ import annotations

from typing import Callable, Optional

from ..types import LabelSelector, LabelSelectorRequirement, ObjectMeta
from . import field
from ...anchors import SCHEDULER_PLUGINS, ports
from .names import is_qualified_name, is_valid_label_value, validate_namespace_name

NameFunc = Callable[[str, bool], list[str]]

TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10)  # 256 kB
LABEL_SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go", "ValidateLabelName", 96, 102, repo=SCHEDULER_PLUGINS)
def validate_label_name(name: str, path: str) -> field.ErrorList:
    """Upstream ValidateLabelName: a label key is a qualified name."""
    return [field.invalid(path, name, msg) for msg in is_qualified_name(name)]


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go", "ValidateLabels", 105, 114, repo=SCHEDULER_PLUGINS)
def validate_labels(labels: dict[str, str], path: str) -> field.ErrorList:
    """Upstream ValidateLabels: every key a qualified name, every value a label value."""
    errs: field.ErrorList = []
    for key, value in labels.items():
        errs += validate_label_name(key, path)
        errs += [field.invalid(path, value, msg) for msg in is_valid_label_value(value)]
    return errs


@ports("vendor/k8s.io/apimachinery/pkg/api/validation/objectmeta.go", "ValidateAnnotations", 44, 56, repo=SCHEDULER_PLUGINS)
def validate_annotations(annotations: dict[str, str], path: str) -> field.ErrorList:
    """Upstream ValidateAnnotations: keys are qualified names (checked lower-cased)."""
    errs: field.ErrorList = []
    for key in annotations:
        errs += [field.invalid(path, key, msg) for msg in is_qualified_name(key.lower())]
    size = sum(len(k) + len(v) for k, v in annotations.items())
    if size > TOTAL_ANNOTATION_SIZE_LIMIT_B:
        errs.append(field.too_long(path, "", TOTAL_ANNOTATION_SIZE_LIMIT_B))
    return errs


@ports("vendor/k8s.io/apimachinery/pkg/api/validation/objectmeta.go", "ValidateObjectMetaAccessor", 155, 194, repo=SCHEDULER_PLUGINS)
def validate_object_meta(meta: ObjectMeta, requires_namespace: bool, name_fn: NameFunc,
                         path: str = "metadata") -> field.ErrorList:
    """Upstream ValidateObjectMetaAccessor, for an object being created."""
    errs: field.ErrorList = []
    if not meta.name:
        errs.append(field.required(f"{path}.name", "name or generateName is required"))
    else:
        errs += [field.invalid(f"{path}.name", meta.name, msg) for msg in name_fn(meta.name, False)]
    if requires_namespace:
        if not meta.namespace:
            errs.append(field.required(f"{path}.namespace"))
        else:
            errs += [field.invalid(f"{path}.namespace", meta.namespace, msg)
                     for msg in validate_namespace_name(meta.namespace, False)]
    elif meta.namespace:
        errs.append(field.forbidden(f"{path}.namespace", "not allowed on this type"))
    errs += validate_labels(meta.labels, f"{path}.labels")
    errs += validate_annotations(meta.annotations, f"{path}.annotations")
    return errs


# --- meta/v1/validation: label selectors ------------------------------------------------


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go", "ValidateLabelSelectorRequirement", 70, 93, repo=SCHEDULER_PLUGINS)
def validate_label_selector_requirement(req: LabelSelectorRequirement, path: str,
                                        allow_invalid_label_value: bool = False) -> field.ErrorList:
    """Upstream ValidateLabelSelectorRequirement."""
    errs: field.ErrorList = []
    if req.operator in ("In", "NotIn"):
        if not req.values:
            errs.append(field.required(f"{path}.values",
                                       "must be specified when `operator` is 'In' or 'NotIn'"))
    elif req.operator in ("Exists", "DoesNotExist"):
        if req.values:
            errs.append(field.forbidden(f"{path}.values",
                                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    else:
        errs.append(field.invalid(f"{path}.operator", req.operator, "not a valid selector operator"))
    errs += validate_label_name(req.key, f"{path}.key")
    if not allow_invalid_label_value:
        for i, value in enumerate(req.values):
            errs += [field.invalid(f"{path}.values[{i}]", value, msg) for msg in is_valid_label_value(value)]
    return errs


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go", "ValidateLabelSelector", 56, 66, repo=SCHEDULER_PLUGINS)
def validate_label_selector(selector: Optional[LabelSelector], path: str,
                            allow_invalid_label_value: bool = False) -> field.ErrorList:
    """Upstream ValidateLabelSelector; a nil selector is fine."""
    if selector is None:
        return []
    errs = validate_labels(selector.match_labels, f"{path}.matchLabels")
    for i, req in enumerate(selector.match_expressions):
        errs += validate_label_selector_requirement(req, f"{path}.matchExpressions[{i}]",
                                                    allow_invalid_label_value)
    return errs
