"""Port of pkg/apis/scheduling/validation/validation.go (v1.30), with IsKnownSystemPriorityClass
of pkg/apis/scheduling/v1/helpers.go and the create check of plugin/pkg/admission/priority.

A user's PriorityClass may not claim a ``system-`` name nor a value above
HighestUserDefinablePriority (one billion); the two system classes must keep
their value and globalDefault. Only one class may be the global default: the
Priority admission plugin refuses a second one.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from ..types import PriorityClass
from . import field
from .core import validate_preemption_policy
from .field import go_quote
from .names import name_is_dns_subdomain
from .objectmeta import validate_object_meta

HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000
SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY
SYSTEM_PRIORITY_CLASS_PREFIX = "system-"
# name -> (value, globalDefault), in upstream's order
SYSTEM_PRIORITY_CLASSES = {
    "system-node-critical": (SYSTEM_CRITICAL_PRIORITY + 1000, False),
    "system-cluster-critical": (SYSTEM_CRITICAL_PRIORITY, False),
}
PRIORITY_CLASS_RESOURCE = "priorityclasses.scheduling.k8s.io"


def is_known_system_priority_class(name: str, value: int, global_default: bool) -> Optional[str]:
    """Upstream IsKnownSystemPriorityClass: None when it is one, else the error text."""
    if name not in SYSTEM_PRIORITY_CLASSES:
        return f"{name} is not a known system priority class"
    want_value, want_default = SYSTEM_PRIORITY_CLASSES[name]
    if value != want_value:
        return f"value of {name} PriorityClass must be {want_value}"
    if global_default != want_default:
        return f"globalDefault of {name} PriorityClass must be {str(want_default).lower()}"
    return None


def validate_priority_class(pc: PriorityClass) -> field.ErrorList:
    """Upstream ValidatePriorityClass."""
    meta = dataclasses.replace(pc.metadata, namespace="")  # cluster-scoped: cleared on create
    errs = validate_object_meta(meta, False, name_is_dns_subdomain)
    if pc.metadata.name.startswith(SYSTEM_PRIORITY_CLASS_PREFIX):
        problem = is_known_system_priority_class(pc.metadata.name, pc.value, pc.global_default)
        if problem is not None:
            errs.append(field.forbidden("metadata.name", f"priority class names with '{SYSTEM_PRIORITY_CLASS_PREFIX}' "
                                                         f"prefix are reserved for system use only. error: {problem}"))
    elif pc.value > HIGHEST_USER_DEFINABLE_PRIORITY:
        errs.append(field.forbidden("value", "maximum allowed value of a user defined priority is "
                                             f"{HIGHEST_USER_DEFINABLE_PRIORITY}"))
    if pc.preemption_policy is not None:
        errs += validate_preemption_policy(pc.preemption_policy, "preemptionPolicy")
    return errs


def admit_priority_class(pc: PriorityClass, existing_default: Optional[PriorityClass]) -> Optional[str]:
    """The Priority admission plugin on a PriorityClass create: the Forbidden
    message when a second global default arrives, else None."""
    if pc.global_default and existing_default is not None:
        return (f"{PRIORITY_CLASS_RESOURCE} {go_quote(pc.metadata.name)} is forbidden: PriorityClass "
                f"{existing_default.metadata.name} is already marked as default. Only one default can exist")
    return None
