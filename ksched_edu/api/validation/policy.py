"""Port of pkg/apis/policy/validation/validation.go (v1.30), ValidatePodDisruptionBudget, with
ValidatePositiveIntOrPercent and IsNotMoreThan100Percent of pkg/apis/apps/validation.

A PodDisruptionBudget sets minAvailable or maxUnavailable, not both; each is
a non-negative integer or a percentage of at most 100%; its selector must be
a valid label selector. Its metadata is checked afterwards, as the generic
registry does for every kind: a name that fits in a URL path, a namespace
that is a DNS label.
"""
from __future__ import annotations

from typing import Optional, Union

from ..types import PodDisruptionBudget, PodDisruptionBudgetSpec
from . import field
from .field import GO_POINTER, GoValue, go_quote
from .names import is_valid_percent
from .objectmeta import validate_label_selector

IntOrString = Union[int, str]
IS_NEGATIVE_ERROR_MSG = "must be greater than or equal to 0"


def _go_int_or_string(v: IntOrString) -> GoValue:
    if isinstance(v, str):
        return GoValue(f"intstr.IntOrString{{Type:1, IntVal:0, StrVal:{go_quote(v)}}}")
    return GoValue(f'intstr.IntOrString{{Type:0, IntVal:{v}, StrVal:""}}')


def _go_pointer(v: object, type_name: str) -> str:
    return f"(*{type_name})({'nil' if v is None else GO_POINTER})"


def _go_spec(spec: PodDisruptionBudgetSpec) -> GoValue:
    return GoValue("policy.PodDisruptionBudgetSpec{"
                   f"MinAvailable:{_go_pointer(spec.min_available, 'intstr.IntOrString')}, "
                   f"Selector:{_go_pointer(spec.selector, 'v1.LabelSelector')}, "
                   f"MaxUnavailable:{_go_pointer(spec.max_unavailable, 'intstr.IntOrString')}, "
                   "UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}")


def validate_positive_int_or_percent(v: IntOrString, path: str) -> field.ErrorList:
    """Upstream ValidatePositiveIntOrPercent: a percentage, or an integer >= 0."""
    if isinstance(v, str):
        return [field.invalid(path, _go_int_or_string(v), msg) for msg in is_valid_percent(v)]
    if v < 0:
        return [field.invalid(path, v, IS_NEGATIVE_ERROR_MSG)]
    return []


def _percent_value(v: IntOrString) -> Optional[int]:
    if not isinstance(v, str) or is_valid_percent(v):
        return None
    return int(v[:-1])


def is_not_more_than_100_percent(v: IntOrString, path: str) -> field.ErrorList:
    value = _percent_value(v)
    if value is None or value <= 100:
        return []
    return [field.invalid(path, _go_int_or_string(v), "must not be greater than 100%")]


def validate_pdb_spec(spec: PodDisruptionBudgetSpec, path: str = "spec") -> field.ErrorList:
    """Upstream ValidatePodDisruptionBudgetSpec."""
    errs: field.ErrorList = []
    if spec.min_available is not None and spec.max_unavailable is not None:
        errs.append(field.invalid(path, _go_spec(spec), "minAvailable and maxUnavailable cannot be both set"))
    for name, v in (("minAvailable", spec.min_available), ("maxUnavailable", spec.max_unavailable)):
        if v is not None:
            errs += validate_positive_int_or_percent(v, f"{path}.{name}")
            errs += is_not_more_than_100_percent(v, f"{path}.{name}")
    errs += validate_label_selector(spec.selector, f"{path}.selector")
    return errs


def validate_pdb(pdb: PodDisruptionBudget) -> field.ErrorList:
    """Upstream ValidatePodDisruptionBudget (the spec; the metadata is checked by the caller)."""
    return validate_pdb_spec(pdb.spec)
