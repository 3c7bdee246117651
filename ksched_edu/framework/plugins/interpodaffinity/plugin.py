"""Port of pkg/scheduler/framework/plugins/interpodaffinity/plugin.go (v1.30).

InterPodAffinity keeps pods together with, or apart from, pods that are already
running, per topology domain (a node label such as a zone or a hostname): its
Filter enforces required (anti-)affinity, in both directions, and its Score
favours the nodes where preferred terms hold. This module holds the plugin
itself, its arguments and the namespace helpers; filtering.py and scoring.py
hold the extension points.

Deviations:
- Namespaces come from ``handle.object_lister()`` (kind ``"Namespace"``), which
  may serve none: then every namespace has no labels, as upstream does for a
  namespace it cannot get.
- ``matchLabelKeys`` / ``mismatchLabelKeys`` are not read: in v1.30 the
  MatchLabelKeysInPodAffinity gate is alpha and off, and when on it is the API
  server, not the scheduler, that merges them into the label selector.
- ``args=None`` means the v1-defaulted arguments (``hardPodAffinityWeight: 1``).
"""
from __future__ import annotations

from typing import Any

from ....anchors import ports
from ....api.labels import NOTHING
from ....config.defaults import set_defaults_inter_pod_affinity_args
from ....config.field import to_aggregate
from ....config.types_pluginargs import InterPodAffinityArgs
from ....config.validation_pluginargs import validate_inter_pod_affinity_args
from ...types import NODE, POD, ActionType, AffinityTerm, ClusterEvent, ClusterEventWithHint
from ..names import INTER_POD_AFFINITY
from .filtering import FilteringMixin
from .scoring import ScoringMixin

NAME = INTER_POD_AFFINITY

# Extension points: PreFilter (+AddPod/RemovePod), Filter, PreScore, Score (+NormalizeScore),
# EnqueueExtensions. Reasons live in filtering.py.


@ports("pkg/scheduler/framework/plugins/interpodaffinity/plugin.go", "InterPodAffinity", 44, 49)
class InterPodAffinity(FilteringMixin, ScoringMixin):
    def __init__(self, args: Any, handle: Any) -> None:
        self.args = args
        self.shared_lister = handle.snapshot_shared_lister()
        # upstream: a Namespace informer lister; here the handle's object lister.
        self.ns_lister = handle.object_lister()

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/plugin.go", "(*InterPodAffinity).Name", 52, 54)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/plugin.go", "(*InterPodAffinity).EventsToRegister", 58, 79)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return [
            # Any pod change may matter: a deleted pod may release an anti-affinity
            # constraint, an added pod may satisfy an affinity one, a label change either.
            ClusterEventWithHint(ClusterEvent(POD, ActionType.All)),
            # A new node, or new labels, may create a matching topology domain.
            # UpdateNodeTaint is there because a node added while not ready only
            # shows up to the queue through its taint update.
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.UpdateNodeLabel
                                              | ActionType.UpdateNodeTaint)),
        ]

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/plugin.go", "(*InterPodAffinity).mergeAffinityTermNamespacesIfNotEmpty", 118, 131)
    def merge_affinity_term_namespaces_if_not_empty(self, at: AffinityTerm) -> None:
        """Unroll an incoming pod's namespaceSelector into its namespaces.

        Afterwards the selector is Nothing (or was Empty, meaning every namespace),
        so matching this term never needs an existing pod's namespace labels.
        """
        if at.namespace_selector.empty():
            return
        names = {ns.metadata.name for ns in self.ns_lister.list("Namespace")
                 if at.namespace_selector.matches(ns.metadata.labels)}
        at.namespaces = frozenset(at.namespaces | names)
        at.namespace_selector = NOTHING

    @ports("pkg/scheduler/framework/plugins/interpodaffinity/plugin.go", "GetNamespaceLabelsSnapshot", 135, 143)
    def get_namespace_labels_snapshot(self, ns: str) -> dict[str, str]:
        """Upstream GetNamespaceLabelsSnapshot: a copy of the namespace's labels,
        empty when the namespace is not known."""
        pod_ns = self.ns_lister.get("Namespace", "", ns)
        if pod_ns is not None:
            return dict(pod_ns.metadata.labels)
        return {}


@ports("pkg/scheduler/framework/plugins/interpodaffinity/plugin.go", "New", 82, 101)
def new(args: Any, handle: Any) -> InterPodAffinity:
    """Upstream New."""
    if handle.snapshot_shared_lister() is None:
        raise ValueError("SnapshotSharedlister is nil")
    if args is None:
        args = InterPodAffinityArgs()
        set_defaults_inter_pod_affinity_args(args)
    errs = validate_inter_pod_affinity_args(None, args)
    if errs:
        raise ValueError(str(to_aggregate(errs)))
    return InterPodAffinity(args, handle)
