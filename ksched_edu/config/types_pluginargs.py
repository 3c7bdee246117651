"""Port of pkg/scheduler/apis/config/types_pluginargs.go (v1.30).

The arguments of the in-tree plugins that take any: DefaultPreemption,
InterPodAffinity, NodeResourcesFit, PodTopologySpread,
NodeResourcesBalancedAllocation, VolumeBinding and NodeAffinity. A plugin's
constructor receives one of these (already defaulted) from its profile's
``pluginConfig``.

Deviations:
- A field that is a pointer in the v1 API (``minCandidateNodesPercentage``,
  ``hardPodAffinityWeight``, ``bindTimeoutSeconds``) is ``None`` until
  defaulting, which always fills it.
- ``VolumeBindingArgs.shape`` keeps ``None`` apart from ``[]``, because
  validation refuses any shape, even an empty one, while the
  VolumeCapacityPriority feature is off.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..anchors import ports
from ..api.types import (LabelSelector, LabelSelectorRequirement, NodeAffinity, NodeSelector,
                         NodeSelectorRequirement, NodeSelectorTerm, PreferredSchedulingTerm,
                         TopologySpreadConstraint)
from .gofmt import register_go_struct

# PodTopologySpreadConstraintsDefaulting
SYSTEM_DEFAULTING = "System"
LIST_DEFAULTING = "List"

# ScoringStrategyType
LEAST_ALLOCATED = "LeastAllocated"
MOST_ALLOCATED = "MostAllocated"
REQUESTED_TO_CAPACITY_RATIO = "RequestedToCapacityRatio"


@ports("pkg/scheduler/apis/config/types_pluginargs.go", "DefaultPreemptionArgs", 28, 44)
@dataclass
class DefaultPreemptionArgs:
    # Candidates to shortlist as a percentage of the nodes, in [0, 100]; default 10.
    min_candidate_nodes_percentage: Optional[int] = None
    # Absolute minimum of candidates; default 100.
    min_candidate_nodes_absolute: Optional[int] = None


@ports("pkg/scheduler/apis/config/types_pluginargs.go", "InterPodAffinityArgs", 49, 59)
@dataclass
class InterPodAffinityArgs:
    # Scoring weight of existing pods' hard affinity to the incoming pod; default 1.
    hard_pod_affinity_weight: Optional[int] = None
    ignore_preferred_terms_of_existing_pods: bool = False


@ports("pkg/scheduler/apis/config/types_pluginargs.go", "UtilizationShapePoint", 129, 134)
@dataclass
class UtilizationShapePoint:
    utilization: int = 0  # x axis, 0..100
    score: int = 0  # y axis, 0..10


@ports("pkg/scheduler/apis/config/types_pluginargs.go", "ResourceSpec", 137, 142)
@dataclass
class ResourceSpec:
    name: str = ""
    weight: int = 0


@ports("pkg/scheduler/apis/config/types_pluginargs.go", "RequestedToCapacityRatioParam", 215, 218)
@dataclass
class RequestedToCapacityRatioParam:
    shape: list[UtilizationShapePoint] = field(default_factory=list)


@ports("pkg/scheduler/apis/config/types_pluginargs.go", "ScoringStrategy", 200, 212)
@dataclass
class ScoringStrategy:
    type: str = ""
    resources: list[ResourceSpec] = field(default_factory=list)
    requested_to_capacity_ratio: Optional[RequestedToCapacityRatioParam] = None


@ports("pkg/scheduler/apis/config/types_pluginargs.go", "NodeResourcesFitArgs", 64, 78)
@dataclass
class NodeResourcesFitArgs:
    ignored_resources: list[str] = field(default_factory=list)
    # A group "example.com" ignores every resource named "example.com/...".
    ignored_resource_groups: list[str] = field(default_factory=list)
    scoring_strategy: Optional[ScoringStrategy] = None


@ports("pkg/scheduler/apis/config/types_pluginargs.go", "PodTopologySpreadArgs", 94, 115)
@dataclass
class PodTopologySpreadArgs:
    # Applied to pods that define no constraint; needs defaulting_type "List".
    default_constraints: list[TopologySpreadConstraint] = field(default_factory=list)
    defaulting_type: str = ""


@ports("pkg/scheduler/apis/config/types_pluginargs.go", "NodeResourcesBalancedAllocationArgs", 120, 126)
@dataclass
class NodeResourcesBalancedAllocationArgs:
    resources: list[ResourceSpec] = field(default_factory=list)


@ports("pkg/scheduler/apis/config/types_pluginargs.go", "VolumeBindingArgs", 147, 169)
@dataclass
class VolumeBindingArgs:
    bind_timeout_seconds: Optional[int] = None
    shape: Optional[list[UtilizationShapePoint]] = None


@ports("pkg/scheduler/apis/config/types_pluginargs.go", "NodeAffinityArgs", 174, 184)
@dataclass
class NodeAffinityArgs:
    # Applied to every pod on top of its own node affinity.
    added_affinity: Optional[NodeAffinity] = None


# Plugin name -> its args class: the kinds "<Plugin>Args" the v1 scheme registers.
ARGS_TYPES: dict[str, type] = {
    "DefaultPreemption": DefaultPreemptionArgs,
    "InterPodAffinity": InterPodAffinityArgs,
    "NodeResourcesBalancedAllocation": NodeResourcesBalancedAllocationArgs,
    "NodeResourcesFit": NodeResourcesFitArgs,
    "PodTopologySpread": PodTopologySpreadArgs,
    "VolumeBinding": VolumeBindingArgs,
    "NodeAffinity": NodeAffinityArgs,
}

# --- how these values print in Go (%#v) -------------------------------------

_TYPE_META = ("TypeMeta", "v1.TypeMeta", lambda _: _EmptyTypeMeta())


class _EmptyTypeMeta:
    """metav1.TypeMeta of an internal object: both fields empty after conversion."""


register_go_struct(_EmptyTypeMeta, "v1.TypeMeta", [
    ("Kind", "string", lambda _: ""), ("APIVersion", "string", lambda _: "")])
register_go_struct(DefaultPreemptionArgs, "config.DefaultPreemptionArgs", [
    _TYPE_META,
    ("MinCandidateNodesPercentage", "int32", lambda a: a.min_candidate_nodes_percentage or 0),
    ("MinCandidateNodesAbsolute", "int32", lambda a: a.min_candidate_nodes_absolute or 0)])
register_go_struct(InterPodAffinityArgs, "config.InterPodAffinityArgs", [
    _TYPE_META,
    ("HardPodAffinityWeight", "int32", lambda a: a.hard_pod_affinity_weight or 0),
    ("IgnorePreferredTermsOfExistingPods", "bool", "ignore_preferred_terms_of_existing_pods")])
register_go_struct(UtilizationShapePoint, "config.UtilizationShapePoint", [
    ("Utilization", "int32", "utilization"), ("Score", "int32", "score")])
register_go_struct(ResourceSpec, "config.ResourceSpec", [
    ("Name", "string", "name"), ("Weight", "int64", "weight")])
register_go_struct(RequestedToCapacityRatioParam, "config.RequestedToCapacityRatioParam", [
    ("Shape", "[]config.UtilizationShapePoint", "shape")])
register_go_struct(ScoringStrategy, "config.ScoringStrategy", [
    ("Type", "config.ScoringStrategyType", "type"),
    ("Resources", "[]config.ResourceSpec", "resources"),
    ("RequestedToCapacityRatio", "*config.RequestedToCapacityRatioParam",
     "requested_to_capacity_ratio")])
register_go_struct(NodeResourcesFitArgs, "config.NodeResourcesFitArgs", [
    _TYPE_META,
    ("IgnoredResources", "[]string", "ignored_resources"),
    ("IgnoredResourceGroups", "[]string", "ignored_resource_groups"),
    ("ScoringStrategy", "*config.ScoringStrategy", "scoring_strategy")])
register_go_struct(PodTopologySpreadArgs, "config.PodTopologySpreadArgs", [
    _TYPE_META,
    ("DefaultConstraints", "[]v1.TopologySpreadConstraint", "default_constraints"),
    ("DefaultingType", "config.PodTopologySpreadConstraintsDefaulting", "defaulting_type")])
register_go_struct(NodeResourcesBalancedAllocationArgs,
                   "config.NodeResourcesBalancedAllocationArgs", [
                       _TYPE_META, ("Resources", "[]config.ResourceSpec", "resources")])
register_go_struct(VolumeBindingArgs, "config.VolumeBindingArgs", [
    _TYPE_META,
    ("BindTimeoutSeconds", "int64", lambda a: a.bind_timeout_seconds or 0),
    ("Shape", "[]config.UtilizationShapePoint", "shape")])
register_go_struct(NodeAffinityArgs, "config.NodeAffinityArgs", [
    _TYPE_META, ("AddedAffinity", "*v1.NodeAffinity", "added_affinity")])

# core/v1 types that appear inside plugin args.
register_go_struct(LabelSelectorRequirement, "v1.LabelSelectorRequirement", [
    ("Key", "string", "key"), ("Operator", "v1.LabelSelectorOperator", "operator"),
    ("Values", "[]string", "values")])
register_go_struct(LabelSelector, "v1.LabelSelector", [
    ("MatchLabels", "map[string]string", "match_labels"),
    ("MatchExpressions", "[]v1.LabelSelectorRequirement", "match_expressions")])
register_go_struct(TopologySpreadConstraint, "v1.TopologySpreadConstraint", [
    ("MaxSkew", "int32", "max_skew"), ("TopologyKey", "string", "topology_key"),
    ("WhenUnsatisfiable", "v1.UnsatisfiableConstraintAction", "when_unsatisfiable"),
    ("LabelSelector", "*v1.LabelSelector", "label_selector"),
    ("MinDomains", "*int32", "min_domains"),
    ("NodeAffinityPolicy", "*v1.NodeInclusionPolicy", "node_affinity_policy"),
    ("NodeTaintsPolicy", "*v1.NodeInclusionPolicy", "node_taints_policy"),
    ("MatchLabelKeys", "[]string", "match_label_keys")])
register_go_struct(NodeSelectorRequirement, "v1.NodeSelectorRequirement", [
    ("Key", "string", "key"), ("Operator", "v1.NodeSelectorOperator", "operator"),
    ("Values", "[]string", "values")])
register_go_struct(NodeSelectorTerm, "v1.NodeSelectorTerm", [
    ("MatchExpressions", "[]v1.NodeSelectorRequirement", "match_expressions"),
    ("MatchFields", "[]v1.NodeSelectorRequirement", "match_fields")])
register_go_struct(NodeSelector, "v1.NodeSelector", [
    ("NodeSelectorTerms", "[]v1.NodeSelectorTerm", "node_selector_terms")])
register_go_struct(PreferredSchedulingTerm, "v1.PreferredSchedulingTerm", [
    ("Weight", "int32", "weight"), ("Preference", "v1.NodeSelectorTerm", "preference")])
register_go_struct(NodeAffinity, "v1.NodeAffinity", [
    ("RequiredDuringSchedulingIgnoredDuringExecution", "*v1.NodeSelector", "required"),
    ("PreferredDuringSchedulingIgnoredDuringExecution", "[]v1.PreferredSchedulingTerm",
     "preferred")])
