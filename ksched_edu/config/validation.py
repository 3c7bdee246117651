"""Port of pkg/scheduler/apis/config/validation/validation.go (v1.30).

Checks a defaulted configuration and reports every problem at once, in
upstream's order: client connection and leader election, parallelism, each
profile (scheduler name, percentage, plugin args), duplicate scheduler
names, the queue sort shared by all profiles, the global percentage, the
backoffs, the extenders. Note what is *not* checked: plugin weights (a score
weight of 101 is accepted; only an int64 overflow of the total is refused,
when the framework is built) and NodeResourcesFit's args (checked by the
plugin's constructor, see :mod:`ksched_edu.config.validation_pluginargs`).

Deviations:
- Returns the flattened list of errors; :func:`to_aggregate` formats them.
"""
from __future__ import annotations

from typing import Callable, Optional

from ..anchors import SCHEDULER_PLUGINS, ports
from . import field
from .errors import Aggregate
from .field import FieldError, Path, new_path
from .gofmt import GoValue
from .name_validation import is_extended_resource_name, is_qualified_name
from .types import Extender, KubeSchedulerConfiguration, KubeSchedulerProfile, PluginSet
from .types_pluginargs import (DefaultPreemptionArgs, InterPodAffinityArgs, NodeAffinityArgs,
                               NodeResourcesBalancedAllocationArgs, NodeResourcesFitArgs,
                               PodTopologySpreadArgs, VolumeBindingArgs)
from .validation_pluginargs import (validate_default_preemption_args,
                                    validate_inter_pod_affinity_args, validate_node_affinity_args,
                                    validate_node_resources_balanced_allocation_args,
                                    validate_node_resources_fit_args,
                                    validate_pod_topology_spread_args,
                                    validate_volume_binding_args)

# pluginConfig name -> (expected args type, validator). The NodeResourcesFit
# entry is keyed "NodeResourcesFitArgs" upstream, so it never matches a
# plugin name: those args are only validated when the plugin is built.
_ARGS_VALIDATORS: dict[str, tuple[type, Callable[[Optional[Path], object], list[FieldError]]]] = {
    "DefaultPreemption": (DefaultPreemptionArgs, validate_default_preemption_args),
    "InterPodAffinity": (InterPodAffinityArgs, validate_inter_pod_affinity_args),
    "NodeAffinity": (NodeAffinityArgs, validate_node_affinity_args),
    "NodeResourcesBalancedAllocation": (NodeResourcesBalancedAllocationArgs,
                                        validate_node_resources_balanced_allocation_args),
    "NodeResourcesFitArgs": (NodeResourcesFitArgs, validate_node_resources_fit_args),
    "PodTopologySpread": (PodTopologySpreadArgs, validate_pod_topology_spread_args),
    "VolumeBinding": (VolumeBindingArgs, validate_volume_binding_args),
}

# Plugins removed or deprecated per config version; v1 lists none.
_INVALID_PLUGINS_BY_VERSION: list[tuple[str, list[str]]] = [
    ("kubescheduler.config.k8s.io/v1", []),
]


@ports("pkg/scheduler/apis/config/validation/validation.go", "ValidateKubeSchedulerConfiguration", 36, 82)
def validate_kube_scheduler_configuration(cc: KubeSchedulerConfiguration) -> list[BaseException]:
    """All problems of a defaulted configuration, flattened; empty when it is valid."""
    errs: list[Optional[BaseException]] = []
    errs.extend(_validate_client_connection(cc, new_path("clientConnection")))
    errs.extend(_validate_leader_election(cc, new_path("leaderElection")))
    le = cc.leader_election
    if le.leader_elect and le.resource_lock != "leases":
        errs.append(field.invalid(new_path("leaderElection").child("resourceLock"),
                                  le.resource_lock, 'resourceLock value must be "leases"'))

    profiles_path = new_path("profiles")
    parallelism = cc.parallelism or 0
    if parallelism <= 0:
        errs.append(field.invalid(new_path("parallelism"), parallelism,
                                  "should be an integer value greater than zero"))

    if not cc.profiles:
        errs.append(field.required(profiles_path, ""))
    else:
        existing: dict[str, int] = {}
        for i, profile in enumerate(cc.profiles):
            path = profiles_path.index(i)
            errs.extend(_validate_kube_scheduler_profile(path, cc.api_version, profile))
            name = profile.scheduler_name or ""
            if name in existing:
                errs.append(field.duplicate(path.child("schedulerName"),
                                            profiles_path.index(existing[name]).child("schedulerName")))
            existing[name] = i
        errs.extend(_validate_common_queue_sort(profiles_path, cc.profiles))

    errs.append(_validate_percentage_of_nodes_to_score(new_path("percentageOfNodesToScore"),
                                                       cc.percentage_of_nodes_to_score))
    initial = cc.pod_initial_backoff_seconds or 0
    maximum = cc.pod_max_backoff_seconds or 0
    if initial <= 0:
        errs.append(field.invalid(new_path("podInitialBackoffSeconds"), initial,
                                  "must be greater than 0"))
    if maximum < initial:
        errs.append(field.invalid(new_path("podMaxBackoffSeconds"), maximum,
                                  "must be greater than or equal to PodInitialBackoffSeconds"))
    errs.extend(_validate_extenders(new_path("extenders"), cc.extenders))
    return field.flatten_errors(errs)


@ports("pkg/scheduler/apis/config/validation/validation.go", "ValidateKubeSchedulerConfiguration", 36, 82)
def to_aggregate(errs: list[BaseException]) -> Optional[Aggregate]:
    """The error kube-scheduler reports for these problems (``Flatten(NewAggregate(errs))``)."""
    return Aggregate(errs) if errs else None


@ports("vendor/k8s.io/component-base/config/validation/validation.go", "ValidateClientConnectionConfiguration", 25, 31, repo=SCHEDULER_PLUGINS)
def _validate_client_connection(cc: KubeSchedulerConfiguration, path: Path) -> list[FieldError]:
    """component-base ValidateClientConnectionConfiguration."""
    if cc.client_connection.burst < 0:
        return [field.invalid(path.child("burst"), cc.client_connection.burst,
                              "must be non-negative")]
    return []


@ports("vendor/k8s.io/component-base/config/validation/validation.go", "ValidateLeaderElectionConfiguration", 34, 61, repo=SCHEDULER_PLUGINS)
def _validate_leader_election(cc: KubeSchedulerConfiguration, path: Path) -> list[FieldError]:
    """component-base ValidateLeaderElectionConfiguration."""
    le = cc.leader_election
    errs: list[FieldError] = []
    if not le.leader_elect:
        return errs
    if le.lease_duration.nanoseconds <= 0:
        errs.append(field.invalid(path.child("leaseDuration"), le.lease_duration,
                                  "must be greater than zero"))
    if le.renew_deadline.nanoseconds <= 0:
        errs.append(field.invalid(path.child("renewDeadline"), le.renew_deadline,
                                  "must be greater than zero"))
    if le.retry_period.nanoseconds <= 0:
        errs.append(field.invalid(path.child("retryPeriod"), le.retry_period,
                                  "must be greater than zero"))
    if le.lease_duration.nanoseconds <= le.renew_deadline.nanoseconds:
        errs.append(field.invalid(path.child("leaseDuration"), le.renew_deadline,
                                  "LeaseDuration must be greater than RenewDeadline"))
    if not le.resource_lock:
        errs.append(field.invalid(path.child("resourceLock"), le.resource_lock,
                                  "resourceLock is required"))
    if not le.resource_namespace:
        errs.append(field.invalid(path.child("resourceNamespace"), le.resource_namespace,
                                  "resourceNamespace is required"))
    if not le.resource_name:
        errs.append(field.invalid(path.child("resourceName"), le.resource_name,
                                  "resourceName is required"))
    return errs


@ports("pkg/scheduler/apis/config/validation/validation.go", "validatePercentageOfNodesToScore", 84, 91)
def _validate_percentage_of_nodes_to_score(path: Path, value: Optional[int]) -> Optional[FieldError]:
    if value is not None and (value < 0 or value > 100):
        return field.invalid(path, value, "not in valid range [0-100]")
    return None


@ports("pkg/scheduler/apis/config/validation/validation.go", "isPluginInvalid", 110, 122)
def _is_plugin_invalid(api_version: str, name: str) -> tuple[bool, str]:
    for version, plugins in _INVALID_PLUGINS_BY_VERSION:
        if name in plugins:
            return True, version
        if api_version == version:
            break
    return False, ""


@ports("pkg/scheduler/apis/config/validation/validation.go", "validateKubeSchedulerProfile", 134, 142)
def _validate_kube_scheduler_profile(path: Path, api_version: str,
                                     profile: KubeSchedulerProfile) -> list[BaseException]:
    errs: list[BaseException] = []
    if not profile.scheduler_name:
        errs.append(field.required(path.child("schedulerName"), ""))
    err = _validate_percentage_of_nodes_to_score(path.child("percentageOfNodesToScore"),
                                                 profile.percentage_of_nodes_to_score)
    if err is not None:
        errs.append(err)
    errs.extend(_validate_plugin_config(path, api_version, profile))
    return errs


@ports("pkg/scheduler/apis/config/validation/validation.go", "validatePluginConfig", 144, 207)
def _validate_plugin_config(path: Path, api_version: str,
                            profile: KubeSchedulerProfile) -> list[BaseException]:
    errs: list[BaseException] = []
    if profile.plugins is not None:
        # upstream walks a map of the twelve points; v1 removed no plugin, so
        # this loop finds nothing.
        for point, ps in (("preEnqueue", profile.plugins.pre_enqueue),
                          ("queueSort", profile.plugins.queue_sort),
                          ("preFilter", profile.plugins.pre_filter),
                          ("filter", profile.plugins.filter),
                          ("postFilter", profile.plugins.post_filter),
                          ("preScore", profile.plugins.pre_score),
                          ("score", profile.plugins.score),
                          ("reserve", profile.plugins.reserve),
                          ("permit", profile.plugins.permit),
                          ("preBind", profile.plugins.pre_bind),
                          ("bind", profile.plugins.bind),
                          ("postBind", profile.plugins.post_bind)):
            for i, plugin in enumerate(ps.enabled):
                invalid, version = _is_plugin_invalid(api_version, plugin.name)
                if invalid:
                    errs.append(field.invalid(
                        path.child("plugins").child(point).child("enabled").index(i), plugin.name,
                        f'was invalid in version "{version}" (KubeSchedulerConfiguration is '
                        f'version "{api_version}")'))

    seen: set[str] = set()
    for i, pc in enumerate(profile.plugin_config):
        pc_path = path.child("pluginConfig").index(i)
        if pc.name in seen:
            errs.append(field.duplicate(pc_path, pc.name))
        else:
            seen.add(pc.name)
        invalid, version = _is_plugin_invalid(api_version, pc.name)
        if invalid:
            errs.append(field.invalid(pc_path, pc.name,
                                      f'was invalid in version "{version}" (KubeSchedulerConfiguration'
                                      f' is version "{api_version}")'))
        elif pc.name in _ARGS_VALIDATORS:
            args_type, validate = _ARGS_VALIDATORS[pc.name]
            if not isinstance(pc.args, args_type):
                # Type mismatch: the args are not validated.
                errs.append(field.invalid(pc_path.child("args"), GoValue(pc.args, "runtime.Object"),
                                          "has to match plugin args"))
            else:
                errs.extend(validate(pc_path.child("args"), pc.args))
    return errs


def _plugin_sets_equal(a: PluginSet, b: PluginSet) -> bool:
    """apiequality.Semantic.DeepEqual of two plugin sets (nil and empty lists are equal)."""
    return ([(p.name, p.weight) for p in a.enabled] == [(p.name, p.weight) for p in b.enabled]
            and [(p.name, p.weight) for p in a.disabled] == [(p.name, p.weight) for p in b.disabled])


@ports("pkg/scheduler/apis/config/validation/validation.go", "validateCommonQueueSort", 209, 244)
def _validate_common_queue_sort(path: Path, profiles: list[KubeSchedulerProfile]) -> list[FieldError]:
    errs: list[FieldError] = []
    canon = PluginSet()
    queue_sort_name = ""
    queue_sort_args: object = None
    first = profiles[0]
    if first.plugins is not None:
        canon = first.plugins.queue_sort
        if canon.enabled:
            queue_sort_name = canon.enabled[0].name
        length = len(canon.enabled)
        if length > 1:
            errs.append(field.invalid(path.index(0).child("plugins", "queueSort", "Enabled"), length,
                                      "only one queue sort plugin can be enabled"))
    for pc in first.plugin_config:
        if queue_sort_name and pc.name == queue_sort_name:
            queue_sort_args = pc.args
    for i in range(1, len(profiles)):
        curr = profiles[i].plugins.queue_sort if profiles[i].plugins is not None else PluginSet()
        if not _plugin_sets_equal(canon, curr):
            errs.append(field.invalid(path.index(i).child("plugins", "queueSort"), curr,
                                      "queueSort must be the same for all profiles"))
        for pc in profiles[i].plugin_config:
            if pc.name == queue_sort_name and queue_sort_args != pc.args:
                errs.append(field.invalid(path.index(i).child("pluginConfig", "args"),
                                          GoValue(pc.args, "runtime.Object"),
                                          "queueSort must be the same for all profiles"))
    return errs


@ports("pkg/scheduler/apis/config/validation/validation.go", "validateExtenders", 247, 275)
def _validate_extenders(path: Path, extenders: list[Extender]) -> list[FieldError]:
    errs: list[FieldError] = []
    binders = 0
    managed: set[str] = set()
    for i, extender in enumerate(extenders):
        p = path.index(i)
        if extender.prioritize_verb and extender.weight <= 0:
            errs.append(field.invalid(p.child("weight"), extender.weight,
                                      "must have a positive weight applied to it"))
        if extender.bind_verb:
            binders += 1
        for j, resource in enumerate(extender.managed_resources):
            mp = p.child("managedResources").index(j)
            errs.extend(_validate_extended_resource_name(mp.child("name"), resource.name))
            if resource.name in managed:
                errs.append(field.invalid(mp.child("name"), resource.name,
                                          "duplicate extender managed resource name"))
            managed.add(resource.name)
    if binders > 1:
        errs.append(field.invalid(path, f"found {binders} extenders implementing bind",
                                  "only one extender can implement bind"))
    return errs


@ports("pkg/scheduler/apis/config/validation/validation.go", "validateExtendedResourceName", 279, 291)
def _validate_extended_resource_name(path: Path, name: str) -> list[FieldError]:
    errs = [field.invalid(path, GoValue(name, "v1.ResourceName"), msg)
            for msg in is_qualified_name(name)]
    if errs:
        return errs
    if not is_extended_resource_name(name):
        errs.append(field.invalid(path, name, "is an invalid extended resource name"))
    return errs
