"""Port of pkg/scheduler/apis/config/v1/defaults.go (v1.30).

Fills what a configuration file left out: parallelism 16, one
``default-scheduler`` profile when there is none, the default plugins merged
into every profile, default arguments for every in-tree plugin that takes
some and has none configured, adaptive percentageOfNodesToScore (0), the
backoffs (1s initial, 10s max), and the component-base settings.

Deviations:
- Runs on the internal types (see :mod:`ksched_edu.config.types`), so a
  "nil pointer" is ``None``.
- The feature gates come from an optional mapping (v1.30 defaults otherwise).
"""
from __future__ import annotations

from typing import Mapping, Optional

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from . import features
from .default_plugins import get_default_plugins, merge_plugins
from .gofmt import Duration
from .types import (DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE, MAX_CUSTOM_PRIORITY_SCORE,
                    KubeSchedulerConfiguration, KubeSchedulerProfile, LeaderElectionConfiguration,
                    PluginConfig, Plugins)
from .types_pluginargs import (ARGS_TYPES, LEAST_ALLOCATED, SYSTEM_DEFAULTING, DefaultPreemptionArgs,
                               InterPodAffinityArgs, NodeAffinityArgs,
                               NodeResourcesBalancedAllocationArgs, NodeResourcesFitArgs,
                               PodTopologySpreadArgs, ResourceSpec, ScoringStrategy,
                               UtilizationShapePoint, VolumeBindingArgs)

DEFAULT_SCHEDULER_NAME = "default-scheduler"
SCHEDULER_DEFAULT_LOCK_OBJECT_NAMESPACE = "kube-system"
SCHEDULER_DEFAULT_LOCK_OBJECT_NAME = "kube-scheduler"
_SECOND = 1_000_000_000


@plumbing("a fresh copy of the defaultResourceSpec variable")
def default_resource_spec() -> list[ResourceSpec]:
    return [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]


@ports("pkg/scheduler/apis/config/v1/defaults.go", "pluginsNames", 41, 67)
def plugins_names(p: Optional[Plugins]) -> list[str]:
    """Sorted names enabled at any extension point, MultiPoint included."""
    if p is None:
        return []
    points = (p.multi_point, p.pre_filter, p.filter, p.post_filter, p.reserve, p.pre_score,
              p.score, p.pre_bind, p.bind, p.post_bind, p.permit, p.pre_enqueue, p.queue_sort)
    return sorted({pl.name for ps in points for pl in ps.enabled})


@ports("pkg/scheduler/apis/config/v1/defaults.go", "setDefaults_KubeSchedulerProfile", 69, 102)
def set_defaults_kube_scheduler_profile(prof: KubeSchedulerProfile,
                                        gates: Optional[Mapping[str, bool]] = None) -> None:
    prof.plugins = merge_plugins(get_default_plugins(gates), prof.plugins)
    existing = set()
    for pc in prof.plugin_config:
        existing.add(pc.name)
        if pc.args is None or isinstance(pc.args, dict):
            continue  # out-of-tree (runtime.Unknown) or no args: nothing to default
        default_plugin_args(pc.args, gates)
    # Default args for every enabled in-tree plugin that has none configured.
    for name in plugins_names(prof.plugins):
        if name in existing or name not in ARGS_TYPES:
            continue  # configured already, or out-of-tree / takes no args
        args = ARGS_TYPES[name]()
        default_plugin_args(args, gates)
        prof.plugin_config.append(PluginConfig(name=name, args=args))


@ports("pkg/scheduler/apis/config/v1/defaults.go", "SetDefaults_KubeSchedulerConfiguration", 105, 174)
def set_defaults_kube_scheduler_configuration(obj: KubeSchedulerConfiguration,
                                              gates: Optional[Mapping[str, bool]] = None) -> None:
    if obj.parallelism is None:
        obj.parallelism = 16
    if not obj.profiles:
        obj.profiles.append(KubeSchedulerProfile())
    # A default scheduler name only when there is a single profile; validation
    # makes sure every profile has a unique, non-empty one.
    if len(obj.profiles) == 1 and obj.profiles[0].scheduler_name is None:
        obj.profiles[0].scheduler_name = DEFAULT_SCHEDULER_NAME
    for prof in obj.profiles:
        set_defaults_kube_scheduler_profile(prof, gates)
    if obj.percentage_of_nodes_to_score is None:
        obj.percentage_of_nodes_to_score = DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE

    le = obj.leader_election
    if not le.resource_lock:
        le.resource_lock = "leases"
    if not le.resource_namespace:
        le.resource_namespace = SCHEDULER_DEFAULT_LOCK_OBJECT_NAMESPACE
    if not le.resource_name:
        le.resource_name = SCHEDULER_DEFAULT_LOCK_OBJECT_NAME
    cc = obj.client_connection
    if not cc.content_type:
        cc.content_type = "application/vnd.kubernetes.protobuf"
    if cc.qps == 0.0:
        cc.qps = 50.0
    if cc.burst == 0:
        cc.burst = 100
    recommended_default_leader_election_configuration(le)

    if obj.pod_initial_backoff_seconds is None:
        obj.pod_initial_backoff_seconds = 1
    if obj.pod_max_backoff_seconds is None:
        obj.pod_max_backoff_seconds = 10
    if obj.enable_profiling is None:
        obj.enable_profiling = True
    if obj.enable_profiling and obj.enable_contention_profiling is None:
        obj.enable_contention_profiling = True


@ports("vendor/k8s.io/component-base/config/v1alpha1/defaults.go", "RecommendedDefaultLeaderElectionConfiguration", 35, 54, repo=SCHEDULER_PLUGINS)
def recommended_default_leader_election_configuration(obj: LeaderElectionConfiguration) -> None:
    """component-base config/v1alpha1 RecommendedDefaultLeaderElectionConfiguration."""
    if obj.lease_duration == Duration():
        obj.lease_duration = Duration(15 * _SECOND)
    if obj.renew_deadline == Duration():
        obj.renew_deadline = Duration(10 * _SECOND)
    if obj.retry_period == Duration():
        obj.retry_period = Duration(2 * _SECOND)
    if obj.resource_lock == "":
        obj.resource_lock = "endpoints"
    if obj.leader_elect is None:
        obj.leader_elect = True


# --- plugin args ---------------------------------------------------------------


@ports("pkg/scheduler/apis/config/v1/defaults.go", "SetDefaults_DefaultPreemptionArgs", 176, 183)
def set_defaults_default_preemption_args(obj: DefaultPreemptionArgs) -> None:
    if obj.min_candidate_nodes_percentage is None:
        obj.min_candidate_nodes_percentage = 10
    if obj.min_candidate_nodes_absolute is None:
        obj.min_candidate_nodes_absolute = 100


@ports("pkg/scheduler/apis/config/v1/defaults.go", "SetDefaults_InterPodAffinityArgs", 185, 189)
def set_defaults_inter_pod_affinity_args(obj: InterPodAffinityArgs) -> None:
    if obj.hard_pod_affinity_weight is None:
        obj.hard_pod_affinity_weight = 1


@ports("pkg/scheduler/apis/config/v1/defaults.go", "SetDefaults_VolumeBindingArgs", 191, 207)
def set_defaults_volume_binding_args(obj: VolumeBindingArgs,
                                     gates: Optional[Mapping[str, bool]] = None) -> None:
    if obj.bind_timeout_seconds is None:
        obj.bind_timeout_seconds = 600
    if not obj.shape and features.enabled(features.VOLUME_CAPACITY_PRIORITY, gates):
        obj.shape = [UtilizationShapePoint(0, 0),
                     UtilizationShapePoint(100, MAX_CUSTOM_PRIORITY_SCORE)]


@ports("pkg/scheduler/apis/config/v1/defaults.go", "SetDefaults_NodeResourcesBalancedAllocationArgs", 209, 220)
def set_defaults_node_resources_balanced_allocation_args(
        obj: NodeResourcesBalancedAllocationArgs) -> None:
    if not obj.resources:
        obj.resources = default_resource_spec()
        return
    # An unset weight, or an explicit 0, becomes the default weight 1.
    for r in obj.resources:
        if r.weight == 0:
            r.weight = 1


@ports("pkg/scheduler/apis/config/v1/defaults.go", "SetDefaults_PodTopologySpreadArgs", 222, 226)
def set_defaults_pod_topology_spread_args(obj: PodTopologySpreadArgs) -> None:
    if obj.defaulting_type == "":
        obj.defaulting_type = SYSTEM_DEFAULTING


@ports("pkg/scheduler/apis/config/v1/defaults.go", "SetDefaults_NodeResourcesFitArgs", 228, 244)
def set_defaults_node_resources_fit_args(obj: NodeResourcesFitArgs) -> None:
    if obj.scoring_strategy is None:
        obj.scoring_strategy = ScoringStrategy(type=LEAST_ALLOCATED,
                                               resources=default_resource_spec())
    if not obj.scoring_strategy.resources:
        obj.scoring_strategy.resources = default_resource_spec()
    for r in obj.scoring_strategy.resources:
        if r.weight == 0:
            r.weight = 1


@ports("pkg/scheduler/apis/config/v1/zz_generated.defaults.go", "RegisterDefaults", 32, 45)
def default_plugin_args(args: object, gates: Optional[Mapping[str, bool]] = None) -> None:
    """The scheme's Default(args): run the defaulter registered for the args' type."""
    if isinstance(args, DefaultPreemptionArgs):
        set_defaults_default_preemption_args(args)
    elif isinstance(args, InterPodAffinityArgs):
        set_defaults_inter_pod_affinity_args(args)
    elif isinstance(args, VolumeBindingArgs):
        set_defaults_volume_binding_args(args, gates)
    elif isinstance(args, NodeResourcesBalancedAllocationArgs):
        set_defaults_node_resources_balanced_allocation_args(args)
    elif isinstance(args, PodTopologySpreadArgs):
        set_defaults_pod_topology_spread_args(args)
    elif isinstance(args, NodeResourcesFitArgs):
        set_defaults_node_resources_fit_args(args)
    elif isinstance(args, NodeAffinityArgs):
        pass  # no defaulter registered upstream
