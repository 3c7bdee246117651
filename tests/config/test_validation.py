"""Validation of the configuration and of each plugin's args.

Mirrors validation_pluginargs_test.go (TestValidateDefaultPreemptionArgs,
TestValidateInterPodAffinityArgs, TestValidatePodTopologySpreadArgs,
TestValidateNodeResourcesBalancedAllocationArgs, TestValidateNodeAffinityArgs,
TestValidateVolumeBindingArgs, TestValidateFitArgs and the scoring-strategy
tables) and validation_test.go (TestValidateKubeSchedulerConfigurationV1),
with the full v1.30 messages. Validators are called as a plugin constructor
calls them: with no path.
"""
from __future__ import annotations

import pytest

from ksched_edu.api.types import (LabelSelector, NodeAffinity, NodeSelector,
                                  NodeSelectorRequirement, NodeSelectorTerm,
                                  PreferredSchedulingTerm, TopologySpreadConstraint)
from ksched_edu.config import (default_config, to_aggregate, validate_default_preemption_args,
                               validate_inter_pod_affinity_args,
                               validate_kube_scheduler_configuration, validate_node_affinity_args,
                               validate_node_resources_balanced_allocation_args,
                               validate_node_resources_fit_args, validate_pod_topology_spread_args,
                               validate_volume_binding_args)
from ksched_edu.config.types import KubeSchedulerProfile, Plugin, PluginConfig, PluginSet
from ksched_edu.config.types_pluginargs import (DefaultPreemptionArgs, InterPodAffinityArgs,
                                                NodeAffinityArgs,
                                                NodeResourcesBalancedAllocationArgs,
                                                NodeResourcesFitArgs, PodTopologySpreadArgs,
                                                RequestedToCapacityRatioParam, ResourceSpec,
                                                ScoringStrategy, UtilizationShapePoint,
                                                VolumeBindingArgs)
from ksched_edu.config.validation import to_aggregate as config_aggregate


def message(errs: list) -> str:
    agg = to_aggregate(errs)
    return "" if agg is None else str(agg)


QUALIFIED = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
             "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
             "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")

DEFAULT_PREEMPTION = [
    ("valid args (default)", DefaultPreemptionArgs(10, 100), ""),
    ("negative minCandidateNodesPercentage", DefaultPreemptionArgs(-1, 100),
     "minCandidateNodesPercentage: Invalid value: -1: not in valid range [0, 100]"),
    ("minCandidateNodesPercentage over 100", DefaultPreemptionArgs(900, 100),
     "minCandidateNodesPercentage: Invalid value: 900: not in valid range [0, 100]"),
    ("negative minCandidateNodesAbsolute", DefaultPreemptionArgs(20, -1),
     "minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)"),
    ("all zero", DefaultPreemptionArgs(0, 0),
     "[minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as "
     "minCandidateNodesAbsolute, minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at "
     "the same time as minCandidateNodesPercentage]"),
    ("both negative", DefaultPreemptionArgs(-1, -1),
     "[minCandidateNodesPercentage: Invalid value: -1: not in valid range [0, 100], "
     "minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)]"),
]


@pytest.mark.parametrize("name,args,want", DEFAULT_PREEMPTION, ids=[c[0] for c in DEFAULT_PREEMPTION])
def test_validate_default_preemption_args(name: str, args, want: str) -> None:
    assert message(validate_default_preemption_args(None, args)) == want


@pytest.mark.parametrize("name,args,want", [
    ("valid args", InterPodAffinityArgs(10), ""),
    ("hardPodAffinityWeight less than min", InterPodAffinityArgs(-1),
     "hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]"),
    ("hardPodAffinityWeight more than max", InterPodAffinityArgs(101),
     "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_validate_inter_pod_affinity_args(name: str, args, want: str) -> None:
    assert message(validate_inter_pod_affinity_args(None, args)) == want


def tsc(skew: int, key: str, when: str, **kw) -> TopologySpreadConstraint:
    return TopologySpreadConstraint(skew, key, when, **kw)


SPREAD = [
    ("valid config", PodTopologySpreadArgs([tsc(1, "node", "DoNotSchedule"),
                                            tsc(2, "zone", "ScheduleAnyway")], "List"), ""),
    ("maxSkew less than zero", PodTopologySpreadArgs([tsc(-1, "node", "DoNotSchedule")], "List"),
     "defaultConstraints[0].maxSkew: Invalid value: -1: not in valid range (0, inf)"),
    ("empty topology key", PodTopologySpreadArgs([tsc(1, "", "DoNotSchedule")], "List"),
     "defaultConstraints[0].topologyKey: Required value: can not be empty"),
    ("invalid topology key", PodTopologySpreadArgs([tsc(1, "-bad", "DoNotSchedule")], "List"),
     f'defaultConstraints[0].topologyKey: Invalid value: "-bad": name part {QUALIFIED}'),
    ("whenUnsatisfiable is empty", PodTopologySpreadArgs([tsc(1, "node", "")], "List"),
     "defaultConstraints[0].whenUnsatisfiable: Required value: can not be empty"),
    ("whenUnsatisfiable contains unsupported action",
     PodTopologySpreadArgs([tsc(1, "node", "unknown action")], "List"),
     'defaultConstraints[0].whenUnsatisfiable: Unsupported value: "unknown action": supported '
     'values: "DoNotSchedule", "ScheduleAnyway"'),
    ("duplicated constraints", PodTopologySpreadArgs([tsc(1, "node", "DoNotSchedule"),
                                                      tsc(2, "node", "DoNotSchedule")], "List"),
     'defaultConstraints[1]: Duplicate value: "{node, DoNotSchedule}"'),
    ("label selector present",
     PodTopologySpreadArgs([tsc(1, "key", "DoNotSchedule",
                                label_selector=LabelSelector({"a": "b"}))], "List"),
     "defaultConstraints[0].labelSelector: Forbidden: constraint must not define a selector, as "
     "they deduced for each pod"),
    ("list default constraints, no constraints", PodTopologySpreadArgs([], "List"), ""),
    ("system default constraints", PodTopologySpreadArgs([], "System"), ""),
    ("wrong constraints", PodTopologySpreadArgs([], "unknown"),
     'defaultingType: Unsupported value: "unknown": supported values: "System", "List"'),
    ("system default constraints, but has constraints",
     PodTopologySpreadArgs([tsc(1, "key", "DoNotSchedule")], "System"),
     'defaultingType: Invalid value: "System": when .defaultConstraints are not empty'),
]


@pytest.mark.parametrize("name,args,want", SPREAD, ids=[c[0] for c in SPREAD])
def test_validate_pod_topology_spread_args(name: str, args, want: str) -> None:
    assert message(validate_pod_topology_spread_args(None, args)) == want


@pytest.mark.parametrize("name,args,want", [
    ("valid config", NodeResourcesBalancedAllocationArgs([ResourceSpec("cpu", 1),
                                                          ResourceSpec("memory", 1)]), ""),
    ("invalid config", NodeResourcesBalancedAllocationArgs([ResourceSpec("cpu", 2),
                                                            ResourceSpec("memory", 1)]),
     "resources[0].weight: Invalid value: 2: must be 1"),
    ("repeated resources", NodeResourcesBalancedAllocationArgs([ResourceSpec("cpu", 1),
                                                                ResourceSpec("cpu", 1)]),
     'resources[1].name: Duplicate value: "cpu"'),
], ids=lambda v: v if isinstance(v, str) else "")
def test_validate_node_resources_balanced_allocation_args(name: str, args, want: str) -> None:
    assert message(validate_node_resources_balanced_allocation_args(None, args)) == want


def nsr(key: str, op: str, *values: str) -> NodeSelectorRequirement:
    return NodeSelectorRequirement(key, op, list(values))


AFFINITY = [
    ("empty", NodeAffinityArgs(), ""),
    ("valid added affinity", NodeAffinityArgs(NodeAffinity(
        required=NodeSelector([NodeSelectorTerm([nsr("label-1", "In", "label-1-val")])]),
        preferred=[PreferredSchedulingTerm(1, NodeSelectorTerm(
            match_fields=[nsr("metadata.name", "In", "node-1")]))])), ""),
    ("invalid added affinity", NodeAffinityArgs(NodeAffinity(
        required=NodeSelector([NodeSelectorTerm([nsr("invalid/label/key", "In", "label-1-val")])]),
        preferred=[PreferredSchedulingTerm(1, NodeSelectorTerm(
            match_fields=[nsr("metadata.name", "In", "node-1", "node-2")]))])),
     '[addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].'
     'matchExpressions[0].key: Invalid value: "invalid/label/key": a qualified name '
     f"{QUALIFIED} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName'), "
     'addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchFields[0].values: '
     'Invalid value: []string{"node-1", "node-2"}: must have one element]'),
    ("Gt needs one integer", NodeAffinityArgs(NodeAffinity(
        required=NodeSelector([NodeSelectorTerm([nsr("k", "Gt", "x")])]))),
     "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]."
     'matchExpressions[0].values[0]: Invalid value: "x": for \'Gt\', \'Lt\' operators, the value '
     "must be an integer"),
    ("Exists takes no values", NodeAffinityArgs(NodeAffinity(
        required=NodeSelector([NodeSelectorTerm([nsr("k", "Exists", "v")])]))),
     "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]."
     'matchExpressions[0].values: Invalid value: []string{"v"}: values set must be empty for '
     "exists and does not exist"),
    ("empty terms and zero-weight preferences are skipped", NodeAffinityArgs(NodeAffinity(
        required=NodeSelector([NodeSelectorTerm()]),
        preferred=[PreferredSchedulingTerm(0, NodeSelectorTerm([nsr("k", "Bad")]))])), ""),
]


@pytest.mark.parametrize("name,args,want", AFFINITY, ids=[c[0] for c in AFFINITY])
def test_validate_node_affinity_args(name: str, args, want: str) -> None:
    assert message(validate_node_affinity_args(None, args)) == want


VOLUME_BINDING = [
    ("zero is a valid config", VolumeBindingArgs(0), {}, ""),
    ("positive value is valid config", VolumeBindingArgs(10), {}, ""),
    ("negative value is invalid config ", VolumeBindingArgs(-10), {},
     "bindTimeoutSeconds: Invalid value: -10: invalid BindTimeoutSeconds, should not be a "
     "negative value"),
    ("[VolumeCapacityPriority=off] shape should be nil when the feature is off",
     VolumeBindingArgs(10, None), {}, ""),
    ("[VolumeCapacityPriority=off] error if the shape is not nil when the feature is off",
     VolumeBindingArgs(10, [UtilizationShapePoint(1, 1), UtilizationShapePoint(3, 3)]), {},
     "shape: Invalid value: []config.UtilizationShapePoint{config.UtilizationShapePoint"
     "{Utilization:1, Score:1}, config.UtilizationShapePoint{Utilization:3, Score:3}}: "
     "unexpected field `shape`, remove it or turn on the feature gate VolumeCapacityPriority"),
    ("[VolumeCapacityPriority=on] shape should not be empty", VolumeBindingArgs(10, []),
     {"VolumeCapacityPriority": True}, "shape: Required value: at least one point must be specified"),
    ("[VolumeCapacityPriority=on] shape points must be sorted in increasing order",
     VolumeBindingArgs(10, [UtilizationShapePoint(3, 3), UtilizationShapePoint(1, 1)]),
     {"VolumeCapacityPriority": True},
     "shape[1].utilization: Invalid value: 1: utilization values must be sorted in increasing order"),
    ("[VolumeCapacityPriority=on] shape point: invalid utilization and score",
     VolumeBindingArgs(10, [UtilizationShapePoint(-1, 1), UtilizationShapePoint(10, -1),
                            UtilizationShapePoint(20, 11), UtilizationShapePoint(101, 1)]),
     {"VolumeCapacityPriority": True},
     "[shape[0].utilization: Invalid value: -1: not in valid range [0, 100], shape[1].score: "
     "Invalid value: -1: not in valid range [0, 10], shape[2].score: Invalid value: 11: not in "
     "valid range [0, 10], shape[3].utilization: Invalid value: 101: not in valid range [0, 100]]"),
]


@pytest.mark.parametrize("name,args,gates,want", VOLUME_BINDING, ids=[c[0] for c in VOLUME_BINDING])
def test_validate_volume_binding_args(name: str, args, gates: dict, want: str) -> None:
    assert message(validate_volume_binding_args(None, args, gates)) == want


def fit(strategy_type: str = "LeastAllocated", resources=None, shape=None, **kw) -> NodeResourcesFitArgs:
    rtcr = RequestedToCapacityRatioParam(shape) if shape is not None else None
    return NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(
        strategy_type, resources if resources is not None else [ResourceSpec("cpu", 1)], rtcr),
        **kw)


FIT = [
    ("IgnoredResources: too long value", fit(ignored_resources=["longvalue" + "a" * 64]),
     'ignoredResources[0]: Invalid value: "longvalue' + "a" * 64 + '": name part must be no '
     "more than 63 characters"),
    ("IgnoredResources: name is empty", fit(ignored_resources=["example.com/"]),
     '[ignoredResources[0]: Invalid value: "example.com/": name part must be non-empty, '
     f'ignoredResources[0]: Invalid value: "example.com/": name part {QUALIFIED}]'),
    ("IgnoredResources: valid args", fit(ignored_resources=["example.com"]), ""),
    ("IgnoredResourceGroups: valid args ", fit(ignored_resource_groups=["example.com"]), ""),
    ("IgnoredResourceGroups: name cannot be contain slash",
     fit(ignored_resource_groups=["example.com/aa"]),
     "ignoredResourceGroups[0]: Invalid value: \"example.com/aa\": resource group name can't "
     "contain '/'"),
    ("config-invalid-bad-strategy", fit("Cheapest"),
     'scoringStrategy.type: Unsupported value: "Cheapest": supported values: "LeastAllocated", '
     '"MostAllocated", "RequestedToCapacityRatio"'),
    ("config-invalid-rtcr-shape",
     fit("RequestedToCapacityRatio", shape=[UtilizationShapePoint(0, 0),
                                            UtilizationShapePoint(120, 11)]),
     "[scoringStrategy.shape[1].utilization: Invalid value: 120: not in valid range [0, 100], "
     "scoringStrategy.shape[1].score: Invalid value: 11: not in valid range [0, 10]]"),
    ("weight less than min", fit(resources=[ResourceSpec("cpu", 0)]),
     "scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid "
     "range (0, 100]"),
    ("weight greater than max", fit("MostAllocated", [ResourceSpec("cpu", 101)]),
     "scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in "
     "valid range (0, 100]"),
    ("no shapes", fit("RequestedToCapacityRatio", shape=[]),
     "scoringStrategy.shape: Required value: at least one point must be specified"),
    ("duplicated utilization values",
     fit("RequestedToCapacityRatio", shape=[UtilizationShapePoint(10, 3),
                                            UtilizationShapePoint(10, 3)]),
     "scoringStrategy.shape[1].utilization: Invalid value: 10: utilization values must be sorted "
     "in increasing order"),
    ("valid shapes", fit("RequestedToCapacityRatio", shape=[UtilizationShapePoint(30, 3)]), ""),
    ("a strategy without a type", fit(""),
     'scoringStrategy.type: Unsupported value: "": supported values: "LeastAllocated", '
     '"MostAllocated", "RequestedToCapacityRatio"'),
]


@pytest.mark.parametrize("name,args,want", FIT, ids=[c[0] for c in FIT])
def test_validate_fit_args(name: str, args, want: str) -> None:
    assert message(validate_node_resources_fit_args(None, args)) == want


def test_validators_prefix_a_given_path() -> None:
    from ksched_edu.config import new_path
    path = new_path("profiles").index(0).child("pluginConfig").index(2).child("args")
    assert message(validate_inter_pod_affinity_args(path, InterPodAffinityArgs(101))) == (
        "profiles[0].pluginConfig[2].args.hardPodAffinityWeight: Invalid value: 101: not in "
        "valid range [0, 100]")


# --- validation.go on whole configurations --------------------------------------------------


def valid():
    return default_config()


def with_(mutate):
    cfg = valid()
    mutate(cfg)
    return cfg


def _second_profile(cfg, name="other", **kw):
    extra = default_config().profiles[0]
    extra.scheduler_name = name
    for k, v in kw.items():
        setattr(extra, k, v)
    cfg.profiles.append(extra)


def _pc(cfg, name):
    return next(pc for pc in cfg.profiles[0].plugin_config if pc.name == name)


CONFIGS = [
    ("default config", valid(), ""),
    ("bad-parallelism-invalid-value", with_(lambda c: setattr(c, "parallelism", 0)),
     "parallelism: Invalid value: 0: should be an integer value greater than zero"),
    ("bad-percentage-of-nodes-to-score", with_(lambda c: setattr(c, "percentage_of_nodes_to_score",
                                                                 110)),
     "percentageOfNodesToScore: Invalid value: 110: not in valid range [0-100]"),
    ("negative-pod-initial-backoff-seconds",
     with_(lambda c: setattr(c, "pod_initial_backoff_seconds", -1)),
     "podInitialBackoffSeconds: Invalid value: -1: must be greater than 0"),
    ("pod-max-backoff-seconds-less-than-initial",
     with_(lambda c: (setattr(c, "pod_initial_backoff_seconds", 3),
                      setattr(c, "pod_max_backoff_seconds", 1))),
     "podMaxBackoffSeconds: Invalid value: 1: must be greater than or equal to "
     "PodInitialBackoffSeconds"),
    ("scheduler-name-not-set", with_(lambda c: setattr(c.profiles[0], "scheduler_name", "")),
     "profiles[0].schedulerName: Required value"),
    ("repeated-scheduler-name", with_(lambda c: _second_profile(c, "default-scheduler")),
     'profiles[1].schedulerName: Duplicate value: field.Path{name:"schedulerName", index:"", '
     'parent:(*field.Path)(0xc000010000)}'),
    ("different-queue-sort", with_(lambda c: _second_profile(
        c, plugins=__import__("ksched_edu.config.types", fromlist=["Plugins"]).Plugins(
            queue_sort=PluginSet([Plugin("CustomSort")])))),
     'profiles[1].plugins.queueSort: Invalid value: config.PluginSet{Enabled:[]config.Plugin'
     '{config.Plugin{Name:"CustomSort", Weight:0}}, Disabled:[]config.Plugin(nil)}: queueSort '
     'must be the same for all profiles'),
    ("one-empty-queue-sort", with_(lambda c: _second_profile(c, plugins=None)), ""),
    ("bad-default-preemption-args", with_(lambda c: setattr(_pc(c, "DefaultPreemption"), "args",
                                                            DefaultPreemptionArgs(-1, 100))),
     "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: -1: not in "
     "valid range [0, 100]"),
    ("bad-volume-binding-args", with_(lambda c: setattr(_pc(c, "VolumeBinding"), "args",
                                                        VolumeBindingArgs(-1))),
     "profiles[0].pluginConfig[6].args.bindTimeoutSeconds: Invalid value: -1: invalid "
     "BindTimeoutSeconds, should not be a negative value"),
    # NodeResourcesFit's args are left to the plugin's constructor.
    ("bad-node-resources-fit-args-pass", with_(lambda c: setattr(_pc(c, "NodeResourcesFit"),
                                                                 "args", fit("Cheapest"))), ""),
    ("args of the wrong type", with_(lambda c: setattr(_pc(c, "InterPodAffinity"), "args",
                                                       DefaultPreemptionArgs(1, 1))),
     "profiles[0].pluginConfig[1].args: Invalid value: config.DefaultPreemptionArgs{TypeMeta:"
     'v1.TypeMeta{Kind:"", APIVersion:""}, MinCandidateNodesPercentage:1, '
     "MinCandidateNodesAbsolute:1}: has to match plugin args"),
    ("duplicated-plugin-config", with_(lambda c: c.profiles[0].plugin_config.append(
        PluginConfig("InterPodAffinity", InterPodAffinityArgs(1)))),
     'profiles[0].pluginConfig[7]: Duplicate value: "InterPodAffinity"'),
    ("mismatch-queue-sort-args", with_(lambda c: (
        setattr(c.profiles[0], "plugins", __import__("ksched_edu.config.types",
                                                     fromlist=["Plugins"]).Plugins(
            queue_sort=PluginSet([Plugin("Coscheduling")]))),
        c.profiles[0].plugin_config.append(PluginConfig("Coscheduling", {"a": 1})),
        _second_profile(c, plugins=c.profiles[0].plugins,
                        plugin_config=[PluginConfig("Coscheduling", {"a": 2})]))),
     'profiles[1].pluginConfig.args: Invalid value: runtime.Unknown{TypeMeta:runtime.TypeMeta'
     '{APIVersion:"", Kind:""}, Raw:[]uint8{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x32, 0x7d}, '
     'ContentEncoding:"", ContentType:"application/json"}: queueSort must be the same for all '
     'profiles'),
    ("extender-negative-weight", with_(lambda c: c.extenders.append(__import__(
        "ksched_edu.config.types", fromlist=["Extender"]).Extender(
            url_prefix="http://a", prioritize_verb="p", weight=-2))),
     "extenders[0].weight: Invalid value: -2: must have a positive weight applied to it"),
]


@pytest.mark.parametrize("name,cfg,want", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_validate_kube_scheduler_configuration(name: str, cfg, want: str) -> None:
    agg = config_aggregate(validate_kube_scheduler_configuration(cfg))
    assert ("" if agg is None else str(agg)) == want


def test_profile_without_plugins_is_valid() -> None:
    cfg = valid()
    cfg.profiles = [KubeSchedulerProfile(scheduler_name="x")]
    assert validate_kube_scheduler_configuration(cfg) == []
