"""Port of k8s.io/component-helpers/scheduling/corev1/helpers.go (v1.30), with the
toleration and taint methods of k8s.io/api core/v1 toleration.go and taint.go.

These helpers answer "does this pod tolerate that node taint?". TaintToleration's
Filter asks for the first NoSchedule/NoExecute taint no toleration covers, its
Score counts the PreferNoSchedule taints left untolerated.

Deviations:
- Go methods on Toleration/Taint become free functions taking the object first
  (``t.ToleratesTaint(taint)`` -> ``toleration_tolerates_taint(t, taint)``).
- ``find_matching_untolerated_taint`` returns ``Taint | None`` instead of
  ``(Taint, bool)``; ``None`` means every filtered taint is tolerated.
- GetAvoidPodsFromNodeAnnotations is not ported (no in-tree plugin reads it in v1.30).
"""
from __future__ import annotations

from typing import Callable, Iterable, Optional, Sequence

from ..anchors import SCHEDULER_PLUGINS, ports
from .nodeaffinity import NodeAffinityParseError, new_lazy_error_node_selector
from .types import Node, NodeSelector, Pod, Taint, Toleration

TOLERATION_OP_EQUAL = "Equal"
TOLERATION_OP_EXISTS = "Exists"

TaintsFilterFunc = Callable[[Taint], bool]


# --- core/v1 toleration.go -------------------------------------------------------


@ports("vendor/k8s.io/api/core/v1/toleration.go", "(*Toleration).MatchToleration", 22, 27, repo=SCHEDULER_PLUGINS)
def toleration_match_toleration(t: Toleration, other: Toleration) -> bool:
    """Two tolerations are the same when key, effect, operator and value agree."""
    return (
        t.key == other.key
        and t.effect == other.effect
        and t.operator == other.operator
        and t.value == other.value
    )


@ports("vendor/k8s.io/api/core/v1/toleration.go", "(*Toleration).ToleratesTaint", 38, 57, repo=SCHEDULER_PLUGINS)
def toleration_tolerates_taint(t: Toleration, taint: Taint) -> bool:
    """Whether toleration ``t`` tolerates ``taint``.

    An empty effect matches every effect; an empty key matches every key (the
    operator must then be Exists); Exists matches any value; Equal (or an empty
    operator) needs equal values; any other operator tolerates nothing.
    """
    if t.effect and t.effect != taint.effect:
        return False
    if t.key and t.key != taint.key:
        return False
    if t.operator in ("", TOLERATION_OP_EQUAL):
        return t.value == taint.value
    if t.operator == TOLERATION_OP_EXISTS:
        return True
    return False


# --- core/v1 taint.go ------------------------------------------------------------


@ports("vendor/k8s.io/api/core/v1/taint.go", "(*Taint).MatchTaint", 23, 25, repo=SCHEDULER_PLUGINS)
def taint_match_taint(t: Taint, other: Taint) -> bool:
    """Taints are unique by key and effect."""
    return t.key == other.key and t.effect == other.effect


@ports("vendor/k8s.io/api/core/v1/taint.go", "(*Taint).ToString", 28, 39, repo=SCHEDULER_PLUGINS)
def taint_to_string(t: Taint) -> str:
    """``key=value:effect``, ``key=value:``, ``key:effect`` or ``key``."""
    if not t.effect:
        if not t.value:
            return t.key
        return f"{t.key}={t.value}:"
    if not t.value:
        return f"{t.key}:{t.effect}"
    return f"{t.key}={t.value}:{t.effect}"


# --- component-helpers scheduling/corev1/helpers.go ------------------------------


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/helpers.go", "PodPriority", 27, 35, repo=SCHEDULER_PLUGINS)
def pod_priority(pod: Pod) -> int:
    """The pod's priority; a pod without one has the static default 0."""
    if pod.spec.priority is not None:
        return pod.spec.priority
    return 0


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/helpers.go", "TolerationsTolerateTaint", 63, 70, repo=SCHEDULER_PLUGINS)
def tolerations_tolerate_taint(tolerations: Iterable[Toleration], taint: Taint) -> bool:
    """Whether any toleration in the list tolerates ``taint``."""
    return any(toleration_tolerates_taint(t, taint) for t in tolerations)


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/helpers.go", "getFilteredTaints", 89, 101, repo=SCHEDULER_PLUGINS)
def get_filtered_taints(
    taints: Sequence[Taint], inclusion_filter: Optional[TaintsFilterFunc]
) -> list[Taint]:
    """The taints for which ``inclusion_filter`` holds (all of them when it is None)."""
    if inclusion_filter is None:
        return list(taints)
    return [taint for taint in taints if inclusion_filter(taint)]


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/helpers.go", "FindMatchingUntoleratedTaint", 78, 86, repo=SCHEDULER_PLUGINS)
def find_matching_untolerated_taint(
    taints: Sequence[Taint],
    tolerations: Sequence[Toleration],
    inclusion_filter: Optional[TaintsFilterFunc] = None,
) -> Optional[Taint]:
    """The first filtered taint that no toleration tolerates, or None."""
    for taint in get_filtered_taints(taints, inclusion_filter):
        if not tolerations_tolerate_taint(tolerations, taint):
            return taint
    return None


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/helpers.go", "MatchNodeSelectorTerms", 39, 47, repo=SCHEDULER_PLUGINS)
def match_node_selector_terms(
    node: Optional[Node], node_selector: NodeSelector
) -> tuple[bool, Optional[NodeAffinityParseError]]:
    """Whether ``node`` matches the ORed terms of ``node_selector``.

    A None node, or a nil/empty term, matches nothing. Parse errors come back
    as the second item, and only when no term matched.
    """
    if node is None:
        return False, None
    return new_lazy_error_node_selector(node_selector).match(node)
