"""Port of pkg/scheduler/framework/plugins/podtopologyspread/common.go (v1.30).

What the filtering and scoring halves of PodTopologySpread share: the parsed
form of a pod's ``topologySpreadConstraints`` (selector parsed, ``minDomains`` and
the node inclusion policies defaulted), the default constraints built from the
Services and controllers that select the pod, and the pod-counting helpers.

Deviations:
- The plugin's methods that live in common.go are a mixin class,
  :class:`CommonMixin`, which :class:`plugin.PodTopologySpread` inherits.
- ``metav1.LabelSelectorAsSelector`` never fails here (the loader validates
  selectors), so ``filter_topology_spread_constraints`` returns no error.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple, Optional, Sequence

from ....anchors import plumbing, ports
from ....api.labels import Selector, selector_from_label_selector, selector_from_set
from ....api.nodeaffinity import RequiredNodeAffinity
from ....api.tolerations import find_matching_untolerated_taint
from ....api.types import Node, Pod, TopologySpreadConstraint
from ...types import PodInfo
from ..helper.spread import default_selector
from ..helper.taint import do_not_schedule_taints_filter_func

# core/v1 NodeInclusionPolicy and UnsatisfiableConstraintAction values.
NODE_INCLUSION_POLICY_IGNORE = "Ignore"
NODE_INCLUSION_POLICY_HONOR = "Honor"
DO_NOT_SCHEDULE = "DoNotSchedule"
SCHEDULE_ANYWAY = "ScheduleAnyway"

# Well-known node labels (core/v1 well_known_labels.go).
LABEL_HOSTNAME = "kubernetes.io/hostname"
LABEL_TOPOLOGY_ZONE = "topology.kubernetes.io/zone"


@plumbing("Python exception for a failed cycle-state read (Go returns an error value)")
class StateError(Exception):
    """Reading the cycle state failed (upstream returns a wrapped error)."""


@ports("pkg/scheduler/framework/plugins/podtopologyspread/common.go", "topologyPair", 30, 33)
class TopologyPair(NamedTuple):
    key: str
    value: str


@ports("pkg/scheduler/framework/plugins/podtopologyspread/common.go", "topologySpreadConstraint", 38, 45)
@dataclass
class TopologySpreadConstraintInternal:
    """A pod's spread constraint with its selector parsed and its defaults applied
    (upstream topologySpreadConstraint)."""

    max_skew: int
    topology_key: str
    selector: Selector
    min_domains: int = 1
    node_affinity_policy: str = NODE_INCLUSION_POLICY_HONOR
    node_taints_policy: str = NODE_INCLUSION_POLICY_IGNORE

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/common.go", "(*topologySpreadConstraint).matchNodeInclusionPolicies", 47, 61)
    def match_node_inclusion_policies(self, pod: Pod, node: Node, require: RequiredNodeAffinity) -> bool:
        """Whether ``node`` counts as a domain member under the two inclusion policies."""
        if self.node_affinity_policy == NODE_INCLUSION_POLICY_HONOR:
            # Parse errors are ignored for backwards compatibility.
            matched, _ = require.match(node)
            if not matched:
                return False
        if self.node_taints_policy == NODE_INCLUSION_POLICY_HONOR:
            untolerated = find_matching_untolerated_taint(node.spec.taints, pod.spec.tolerations,
                                                          do_not_schedule_taints_filter_func())
            if untolerated is not None:
                return False
        return True


@ports("pkg/scheduler/framework/plugins/podtopologyspread/common.go", "nodeLabelsMatchSpreadConstraints", 82, 89)
def node_labels_match_spread_constraints(node_labels: Mapping[str, str],
                                         constraints: Sequence[TopologySpreadConstraintInternal]) -> bool:
    """Whether the node carries every constraint's topology key."""
    return all(c.topology_key in node_labels for c in constraints)


@ports("pkg/scheduler/framework/plugins/podtopologyspread/common.go", "mergeLabelSetWithSelector", 134, 147)
def merge_label_set_with_selector(match_labels: Mapping[str, str], s: Selector) -> Selector:
    """A selector for ``match_labels`` ANDed with the requirements of ``s``."""
    if s.nothing:
        # upstream: Nothing() has no selectable requirements; it stays Nothing.
        return s
    merged = selector_from_set(match_labels)
    return Selector(merged.requirements + s.requirements)


@ports("pkg/scheduler/framework/plugins/podtopologyspread/common.go", "countPodsMatchSelector", 149, 164)
def count_pods_match_selector(pod_infos: Sequence[PodInfo], selector: Selector, ns: str) -> int:
    """How many pods in namespace ``ns`` the selector matches, terminating pods excluded."""
    if selector.empty():
        return 0
    count = 0
    for p in pod_infos:
        # Terminating pods do not count (kubernetes#87621).
        if p.pod.metadata.deletion_timestamp is not None or p.pod.metadata.namespace != ns:
            continue
        if selector.matches(p.pod.metadata.labels):
            count += 1
    return count


@ports("pkg/scheduler/framework/plugins/podtopologyspread/common.go", "podLabelsMatchSpreadConstraints", 167, 174)
def pod_labels_match_spread_constraints(constraints: Sequence[TopologySpreadConstraintInternal],
                                        labels: Mapping[str, str]) -> bool:
    """Whether any constraint's selector matches ``labels``."""
    return any(c.selector.matches(labels) for c in constraints)


@plumbing("groups the PodTopologySpread methods of common.go into one Python mixin")
class CommonMixin:
    """The methods of PodTopologySpread that live in common.go."""

    default_constraints: list[TopologySpreadConstraint]
    object_lister: Any
    enable_node_inclusion_policy_in_pod_topology_spread: bool
    enable_match_label_keys_in_pod_topology_spread: bool

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/common.go", "(*PodTopologySpread).buildDefaultConstraints", 66, 79)
    def build_default_constraints(self, p: Pod, action: str) -> Optional[list[TopologySpreadConstraintInternal]]:
        """The default constraints for ``action``, selecting what the pod's
        Services and controllers select; None when there are none or nothing selects it."""
        constraints = self.filter_topology_spread_constraints(self.default_constraints, p.metadata.labels, action)
        if not constraints:
            return None
        selector = default_selector(p, self.object_lister)
        if selector.empty():
            return None
        for c in constraints:
            c.selector = selector
        return constraints

    @ports("pkg/scheduler/framework/plugins/podtopologyspread/common.go", "(*PodTopologySpread).filterTopologySpreadConstraints", 91, 132)
    def filter_topology_spread_constraints(self, constraints: Sequence[TopologySpreadConstraint],
                                           pod_labels: Mapping[str, str],
                                           action: str) -> list[TopologySpreadConstraintInternal]:
        """Parse the constraints whose ``whenUnsatisfiable`` is ``action``."""
        result: list[TopologySpreadConstraintInternal] = []
        for c in constraints:
            if c.when_unsatisfiable != action:
                continue
            selector = selector_from_label_selector(c.label_selector)
            if self.enable_match_label_keys_in_pod_topology_spread and c.match_label_keys:
                match_labels = {k: pod_labels[k] for k in c.match_label_keys if k in pod_labels}
                if match_labels:
                    selector = merge_label_set_with_selector(match_labels, selector)
            tsc = TopologySpreadConstraintInternal(
                max_skew=c.max_skew,
                topology_key=c.topology_key,
                selector=selector,
                # A nil minDomains means 1; nil policies mean Honor (affinity) and Ignore (taints).
                min_domains=c.min_domains if c.min_domains is not None else 1,
                node_affinity_policy=NODE_INCLUSION_POLICY_HONOR,
                node_taints_policy=NODE_INCLUSION_POLICY_IGNORE,
            )
            if self.enable_node_inclusion_policy_in_pod_topology_spread:
                if c.node_affinity_policy is not None:
                    tsc.node_affinity_policy = c.node_affinity_policy
                if c.node_taints_policy is not None:
                    tsc.node_taints_policy = c.node_taints_policy
            result.append(tsc)
        return result
