"""Port of pkg/scheduler/apis/config/validation/validation_pluginargs.go (v1.30).

One validator per in-tree plugin that takes arguments. Configuration
validation calls them with the args' path
(``profiles[0].pluginConfig[0].args``); a plugin's constructor calls its own
with ``path=None`` so that messages start at the field
(``scoringStrategy.type: ...``). NodeResourcesFit's args are checked only by
its constructor: upstream's table keys that validator as
``"NodeResourcesFitArgs"``, a name no pluginConfig entry carries.

Deviations:
- Each validator returns a ``list[FieldError]`` (empty when valid) instead
  of an ``error``; :func:`ksched_edu.config.field.to_aggregate` prints the
  list as upstream prints the error.
"""
from __future__ import annotations

from typing import Mapping, Optional

from ..anchors import ports
from . import features, field
from .field import FieldError, Path
from .gofmt import GoValue
from .name_validation import validate_label_name
from .nodeaffinity_validation import node_selector_errors, preferred_scheduling_terms_errors
from .types import MAX_CUSTOM_PRIORITY_SCORE
from .types_pluginargs import (LEAST_ALLOCATED, LIST_DEFAULTING, MOST_ALLOCATED,
                               REQUESTED_TO_CAPACITY_RATIO, SYSTEM_DEFAULTING,
                               DefaultPreemptionArgs, InterPodAffinityArgs, NodeAffinityArgs,
                               NodeResourcesBalancedAllocationArgs, NodeResourcesFitArgs,
                               PodTopologySpreadArgs, ResourceSpec, UtilizationShapePoint,
                               VolumeBindingArgs)

# Sorted, as upstream's sets.List prints them.
SUPPORTED_SCORING_STRATEGY_TYPES = sorted([LEAST_ALLOCATED, MOST_ALLOCATED,
                                           REQUESTED_TO_CAPACITY_RATIO])


# --- DefaultPreemption ---------------------------------------------------------


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "ValidateDefaultPreemptionArgs", 42, 58)
def validate_default_preemption_args(path: Optional[Path],
                                     args: DefaultPreemptionArgs) -> list[FieldError]:
    errs: list[FieldError] = []
    percentage_path = field.child(path, "minCandidateNodesPercentage")
    absolute_path = field.child(path, "minCandidateNodesAbsolute")
    pct = args.min_candidate_nodes_percentage or 0
    absolute = args.min_candidate_nodes_absolute or 0
    if pct < 0 or pct > 100:
        errs.append(field.invalid(percentage_path, pct, "not in valid range [0, 100]"))
    if absolute < 0:
        errs.append(field.invalid(absolute_path, absolute, "not in valid range [0, inf)"))
    if pct == 0 and absolute == 0:
        errs.append(field.invalid(percentage_path, pct,
                                  "cannot be zero at the same time as minCandidateNodesAbsolute"))
        errs.append(field.invalid(absolute_path, absolute,
                                  "cannot be zero at the same time as minCandidateNodesPercentage"))
    return errs


# --- InterPodAffinity ------------------------------------------------------------


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "ValidateInterPodAffinityArgs", 79, 81)
def validate_inter_pod_affinity_args(path: Optional[Path],
                                     args: InterPodAffinityArgs) -> list[FieldError]:
    min_weight, max_weight = 0, 100
    w = args.hard_pod_affinity_weight or 0
    if w < min_weight or w > max_weight:
        return [field.invalid(field.child(path, "hardPodAffinityWeight"), w,
                              f"not in valid range [{min_weight}, {max_weight}]")]
    return []


# --- PodTopologySpread ------------------------------------------------------------


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "ValidatePodTopologySpreadArgs", 100, 129)
def validate_pod_topology_spread_args(path: Optional[Path],
                                      args: PodTopologySpreadArgs) -> list[FieldError]:
    """Mirrors the pod-spec validation of spread constraints, plus "no labelSelector"."""
    errs: list[FieldError] = []
    err = _validate_defaulting_type(field.child(path, "defaultingType"), args.defaulting_type,
                                    args.default_constraints)
    if err is not None:
        errs.append(err)
    constraints_path = field.child(path, "defaultConstraints")
    for i, c in enumerate(args.default_constraints):
        p = constraints_path.index(i)
        if c.max_skew <= 0:
            errs.append(field.invalid(p.child("maxSkew"), c.max_skew,
                                      "not in valid range (0, inf)"))
        errs.extend(_validate_topology_key(p.child("topologyKey"), c.topology_key))
        err = _validate_when_unsatisfiable(p.child("whenUnsatisfiable"), c.when_unsatisfiable)
        if err is not None:
            errs.append(err)
        if c.label_selector is not None:
            errs.append(field.forbidden(p.child("labelSelector"),
                                        "constraint must not define a selector, as they deduced "
                                        "for each pod"))
        err = _validate_constraint_not_repeat(constraints_path, args.default_constraints, i)
        if err is not None:
            errs.append(err)
    return errs


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "validateDefaultingType", 131, 139)
def _validate_defaulting_type(p: Path, v: str, constraints: list) -> Optional[FieldError]:
    value = GoValue(v, "config.PodTopologySpreadConstraintsDefaulting")
    if v not in (SYSTEM_DEFAULTING, LIST_DEFAULTING):
        return field.not_supported(p, value, [SYSTEM_DEFAULTING, LIST_DEFAULTING])
    if v == SYSTEM_DEFAULTING and constraints:
        return field.invalid(p, value, "when .defaultConstraints are not empty")
    return None


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "validateTopologyKey", 141, 149)
def _validate_topology_key(p: Path, v: str) -> list[FieldError]:
    if not v:
        return [field.required(p, "can not be empty")]
    return validate_label_name(v, p)


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "validateWhenUnsatisfiable", 151, 161)
def _validate_when_unsatisfiable(p: Path, v: str) -> Optional[FieldError]:
    supported = sorted(["DoNotSchedule", "ScheduleAnyway"])
    if not v:
        return field.required(p, "can not be empty")
    if v not in supported:
        return field.not_supported(p, GoValue(v, "v1.UnsatisfiableConstraintAction"), supported)
    return None


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "validateConstraintNotRepeat", 163, 172)
def _validate_constraint_not_repeat(path: Path, constraints: list, idx: int) -> Optional[FieldError]:
    c = constraints[idx]
    for other in constraints[:idx]:
        if c.topology_key == other.topology_key and c.when_unsatisfiable == other.when_unsatisfiable:
            return field.duplicate(path.index(idx), f"{{{c.topology_key}, {c.when_unsatisfiable}}}")
    return None


# --- shapes and resources -----------------------------------------------------------


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "validateFunctionShape", 174, 209)
def _validate_function_shape(shape: list[UtilizationShapePoint], path: Path) -> list[FieldError]:
    min_utilization, max_utilization = 0, 100
    min_score, max_score = 0, MAX_CUSTOM_PRIORITY_SCORE
    if not shape:
        return [field.required(path, "at least one point must be specified")]
    errs: list[FieldError] = []
    for i in range(1, len(shape)):
        if shape[i - 1].utilization >= shape[i].utilization:
            errs.append(field.invalid(path.index(i).child("utilization"), shape[i].utilization,
                                      "utilization values must be sorted in increasing order"))
            break
    for i, point in enumerate(shape):
        if point.utilization < min_utilization or point.utilization > max_utilization:
            errs.append(field.invalid(path.index(i).child("utilization"), point.utilization,
                                      f"not in valid range [{min_utilization}, {max_utilization}]"))
        if point.score < min_score or point.score > max_score:
            errs.append(field.invalid(path.index(i).child("score"), point.score,
                                      f"not in valid range [{min_score}, {max_score}]"))
    return errs


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "validateResources", 211, 220)
def _validate_resources(resources: list[ResourceSpec], p: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, r in enumerate(resources):
        if r.weight <= 0 or r.weight > 100:
            errs.append(field.invalid(p.index(i).child("weight"), r.weight,
                                      f"resource weight of {r.name} not in valid range (0, 100]"))
    return errs


# --- NodeResourcesBalancedAllocation ------------------------------------------------


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "ValidateNodeResourcesBalancedAllocationArgs", 223, 237)
def validate_node_resources_balanced_allocation_args(
        path: Optional[Path], args: NodeResourcesBalancedAllocationArgs) -> list[FieldError]:
    errs: list[FieldError] = []
    seen: set[str] = set()
    resources_path = field.child(path, "resources")
    for i, r in enumerate(args.resources):
        if r.name in seen:
            errs.append(field.duplicate(resources_path.index(i).child("name"), r.name))
        else:
            seen.add(r.name)
        if r.weight != 1:
            errs.append(field.invalid(resources_path.index(i).child("weight"), r.weight, "must be 1"))
    return errs


# --- NodeAffinity ------------------------------------------------------------------------


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "ValidateNodeAffinityArgs", 240, 260)
def validate_node_affinity_args(path: Optional[Path], args: NodeAffinityArgs) -> list[FieldError]:
    if args.added_affinity is None:
        return []
    affinity = args.added_affinity
    errs: list[FieldError] = []
    if affinity.required is not None:
        errs.extend(node_selector_errors(
            affinity.required,
            field.child(path, "addedAffinity", "requiredDuringSchedulingIgnoredDuringExecution")))
    if affinity.preferred:
        errs.extend(preferred_scheduling_terms_errors(
            affinity.preferred,
            field.child(path, "addedAffinity", "preferredDuringSchedulingIgnoredDuringExecution")))
    return errs


# --- VolumeBinding ---------------------------------------------------------------------------


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "ValidateVolumeBindingArgs", 268, 272)
def validate_volume_binding_args(path: Optional[Path], args: VolumeBindingArgs,
                                 gates: Optional[Mapping[str, bool]] = None) -> list[FieldError]:
    return validate_volume_binding_args_with_options(
        path, args,
        allow_volume_capacity_priority=features.enabled(features.VOLUME_CAPACITY_PRIORITY, gates))


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "ValidateVolumeBindingArgsWithOptions", 275, 291)
def validate_volume_binding_args_with_options(path: Optional[Path], args: VolumeBindingArgs,
                                              allow_volume_capacity_priority: bool
                                              ) -> list[FieldError]:
    errs: list[FieldError] = []
    timeout = args.bind_timeout_seconds or 0
    if timeout < 0:
        errs.append(field.invalid(field.child(path, "bindTimeoutSeconds"), timeout,
                                  "invalid BindTimeoutSeconds, should not be a negative value"))
    if allow_volume_capacity_priority:
        errs.extend(_validate_function_shape(args.shape or [], field.child(path, "shape")))
    elif args.shape is not None:
        # Refused while the feature is off, so that it cannot silently take
        # effect when the feature is turned on later.
        errs.append(field.invalid(field.child(path, "shape"),
                                  GoValue(args.shape, "[]config.UtilizationShapePoint"),
                                  "unexpected field `shape`, remove it or turn on the feature gate "
                                  "VolumeCapacityPriority"))
    return errs


# --- NodeResourcesFit ------------------------------------------------------------------------


@ports("pkg/scheduler/apis/config/validation/validation_pluginargs.go", "ValidateNodeResourcesFitArgs", 293, 329)
def validate_node_resources_fit_args(path: Optional[Path],
                                     args: NodeResourcesFitArgs) -> list[FieldError]:
    errs: list[FieldError] = []
    res_path = field.child(path, "ignoredResources")
    for i, res in enumerate(args.ignored_resources):
        errs.extend(validate_label_name(res, res_path.index(i)))
    group_path = field.child(path, "ignoredResourceGroups")
    for i, group in enumerate(args.ignored_resource_groups):
        p = group_path.index(i)
        if "/" in group:
            errs.append(field.invalid(p, group, "resource group name can't contain '/'"))
        errs.extend(validate_label_name(group, p))
    strategy_path = field.child(path, "scoringStrategy")
    strategy = args.scoring_strategy
    if strategy is not None:
        if strategy.type not in SUPPORTED_SCORING_STRATEGY_TYPES:
            errs.append(field.not_supported(strategy_path.child("type"),
                                            GoValue(strategy.type, "config.ScoringStrategyType"),
                                            SUPPORTED_SCORING_STRATEGY_TYPES))
        errs.extend(_validate_resources(strategy.resources, strategy_path.child("resources")))
        if strategy.requested_to_capacity_ratio is not None:
            errs.extend(_validate_function_shape(strategy.requested_to_capacity_ratio.shape,
                                                 strategy_path.child("shape")))
    return errs
