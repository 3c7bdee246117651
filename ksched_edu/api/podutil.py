"""Port of pkg/api/v1/pod/util.go (v1.30), in part: a pod's status conditions.

``update_pod_condition`` is how the scheduler (and the API server's status writes here)
set the PodScheduled or DisruptionTarget condition: it reports whether anything changed,
which decides whether a status patch is sent at all.

Deviations:
- The port's PodCondition has no timestamps (lastProbeTime, lastTransitionTime), so a
  condition is unchanged when its status, reason and message are.
"""
from __future__ import annotations

from typing import Optional

from ..anchors import SCHEDULER_PLUGINS, ports
from .types import PodCondition, PodStatus


@ports("vendor/k8s.io/kubernetes/pkg/api/v1/pod/util.go", "GetPodConditionFromList", 358, 368, repo=SCHEDULER_PLUGINS)
def get_pod_condition_from_list(conditions: list[PodCondition],
                                condition_type: str) -> tuple[int, Optional[PodCondition]]:
    """The index and the condition of that type, or (-1, None)."""
    for i, c in enumerate(conditions):
        if c.type == condition_type:
            return i, c
    return -1, None


@ports("vendor/k8s.io/kubernetes/pkg/api/v1/pod/util.go", "UpdatePodCondition", 373, 397, repo=SCHEDULER_PLUGINS)
def update_pod_condition(status: PodStatus, condition: PodCondition) -> bool:
    """Add the condition or replace the one of its type; True when it changed or was added."""
    index, old = get_pod_condition_from_list(status.conditions, condition.type)
    if old is None:
        status.conditions.append(condition)
        return True
    is_equal = (condition.status == old.status and condition.reason == old.reason
                and condition.message == old.message)
    status.conditions[index] = condition
    return not is_equal
