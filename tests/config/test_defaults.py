"""Defaulting of the v1 configuration.

Mirrors TestApplyFeatureGates and TestMergePlugins (v1/default_plugins_test.go),
TestSchedulerDefaults and TestPluginArgsDefaults (v1/defaults_test.go) and
TestCodecsDecodePluginConfig (scheme/scheme_test.go), on v1.30's behaviour.
"""
from __future__ import annotations

import pytest

from ksched_edu.api.types import TopologySpreadConstraint
from ksched_edu.config import load_config_data
from ksched_edu.config.default_plugins import (DEFAULT_MULTI_POINT, get_default_plugins,
                                               merge_plugins)
from ksched_edu.config.defaults import (default_plugin_args,
                                        set_defaults_kube_scheduler_configuration)
from ksched_edu.config.gofmt import Duration
from ksched_edu.config.types import (KubeSchedulerConfiguration, KubeSchedulerProfile, Plugin,
                                     PluginConfig, Plugins, PluginSet)
from ksched_edu.config.types_pluginargs import (DefaultPreemptionArgs, InterPodAffinityArgs,
                                                NodeAffinityArgs,
                                                NodeResourcesBalancedAllocationArgs,
                                                NodeResourcesFitArgs, PodTopologySpreadArgs,
                                                ResourceSpec, ScoringStrategy,
                                                UtilizationShapePoint, VolumeBindingArgs)

H = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def ps(*names: str, disabled: tuple[str, ...] = ()) -> PluginSet:
    """A plugin set from names; "Name:3" gives a weight."""
    def plugin(s: str) -> Plugin:
        name, _, w = s.partition(":")
        return Plugin(name, int(w) if w else 0)
    return PluginSet([plugin(n) for n in names], [Plugin(n) for n in disabled])


def default_plugin_configs() -> list[PluginConfig]:
    cpu_mem = [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]
    return [
        PluginConfig("DefaultPreemption", DefaultPreemptionArgs(10, 100)),
        PluginConfig("InterPodAffinity", InterPodAffinityArgs(1)),
        PluginConfig("NodeAffinity", NodeAffinityArgs()),
        PluginConfig("NodeResourcesBalancedAllocation",
                     NodeResourcesBalancedAllocationArgs(list(cpu_mem))),
        PluginConfig("NodeResourcesFit", NodeResourcesFitArgs(
            scoring_strategy=ScoringStrategy("LeastAllocated", list(cpu_mem)))),
        PluginConfig("PodTopologySpread", PodTopologySpreadArgs(defaulting_type="System")),
        PluginConfig("VolumeBinding", VolumeBindingArgs(bind_timeout_seconds=600)),
    ]


# --- default_plugins.go -----------------------------------------------------------


@pytest.mark.parametrize("gates,want_extra", [
    ({}, []),
    ({"DynamicResourceAllocation": True}, ["DynamicResources"]),
], ids=["Feature gates disabled", "DynamicResourceAllocation enabled"])
def test_apply_feature_gates(gates: dict, want_extra: list[str]) -> None:
    names = [p.name for p in get_default_plugins(gates).multi_point.enabled]
    want = [n for n, _ in DEFAULT_MULTI_POINT]
    if want_extra:
        want.insert(want.index("DefaultPreemption"), "DynamicResources")
    assert names == want


def test_default_multi_point_weights() -> None:
    weights = {p.name: p.weight for p in get_default_plugins().multi_point.enabled}
    assert weights == {
        "SchedulingGates": 0, "PrioritySort": 0, "NodeUnschedulable": 0, "NodeName": 0,
        "TaintToleration": 3, "NodeAffinity": 2, "NodePorts": 0, "NodeResourcesFit": 1,
        "VolumeRestrictions": 0, "EBSLimits": 0, "GCEPDLimits": 0, "NodeVolumeLimits": 0,
        "AzureDiskLimits": 0, "VolumeBinding": 0, "VolumeZone": 0, "PodTopologySpread": 2,
        "InterPodAffinity": 2, "DefaultPreemption": 0, "NodeResourcesBalancedAllocation": 1,
        "ImageLocality": 1, "DefaultBinder": 0}


MERGE_CASES = [
    ("AppendCustomPlugin",
     Plugins(filter=ps("CustomPlugin")), Plugins(filter=ps("DefaultPlugin1", "DefaultPlugin2")),
     Plugins(filter=ps("DefaultPlugin1", "DefaultPlugin2", "CustomPlugin"))),
    ("InsertAfterDefaultPlugins2",
     Plugins(filter=ps("CustomPlugin", "DefaultPlugin2", disabled=("DefaultPlugin2",))),
     Plugins(filter=ps("DefaultPlugin1", "DefaultPlugin2")),
     Plugins(filter=ps("DefaultPlugin1", "CustomPlugin", "DefaultPlugin2",
                       disabled=("DefaultPlugin2",)))),
    ("InsertBeforeAllPlugins",
     Plugins(filter=ps("CustomPlugin", "DefaultPlugin1", "DefaultPlugin2", disabled=("*",))),
     Plugins(filter=ps("DefaultPlugin1", "DefaultPlugin2")),
     Plugins(filter=ps("CustomPlugin", "DefaultPlugin1", "DefaultPlugin2", disabled=("*",)))),
    ("ReorderDefaultPlugins",
     Plugins(filter=ps("DefaultPlugin2", "DefaultPlugin1", disabled=("*",))),
     Plugins(filter=ps("DefaultPlugin1", "DefaultPlugin2")),
     Plugins(filter=ps("DefaultPlugin2", "DefaultPlugin1", disabled=("*",)))),
    ("ApplyNilCustomPlugin",
     None, Plugins(filter=ps("DefaultPlugin1", "DefaultPlugin2")),
     Plugins(filter=ps("DefaultPlugin1", "DefaultPlugin2"))),
    ("CustomPluginOverrideDefaultPlugin",
     Plugins(filter=ps("Plugin1:2", "Plugin3:3")),
     Plugins(filter=ps("Plugin1", "Plugin2", "Plugin3")),
     Plugins(filter=ps("Plugin1:2", "Plugin2", "Plugin3:3"))),
    ("OrderPreserveAfterOverride",
     Plugins(filter=ps("Plugin2:2", "Plugin1:1")),
     Plugins(filter=ps("Plugin1", "Plugin2", "Plugin3")),
     Plugins(filter=ps("Plugin1:1", "Plugin2:2", "Plugin3"))),
    ("RepeatedCustomPlugin",
     Plugins(filter=ps("Plugin1", "Plugin2:2", "Plugin3", "Plugin2:4")),
     Plugins(filter=ps("Plugin1", "Plugin2", "Plugin3")),
     Plugins(filter=ps("Plugin1", "Plugin2:4", "Plugin3", "Plugin2:2"))),
    ("Append custom MultiPoint plugin",
     Plugins(multi_point=ps("CustomPlugin")),
     Plugins(multi_point=ps("DefaultPlugin1", "DefaultPlugin2")),
     Plugins(multi_point=ps("DefaultPlugin1", "DefaultPlugin2", "CustomPlugin"))),
    ("Append disabled Multipoint plugins",
     Plugins(multi_point=ps("CustomPlugin", "CustomPlugin2", disabled=("DefaultPlugin2",)),
             score=ps(disabled=("CustomPlugin2",))),
     Plugins(multi_point=ps("DefaultPlugin1", "DefaultPlugin2")),
     Plugins(multi_point=ps("DefaultPlugin1", "CustomPlugin", "CustomPlugin2",
                            disabled=("DefaultPlugin2",)),
             score=ps(disabled=("CustomPlugin2",)))),
    ("override default MultiPoint plugins with custom value",
     Plugins(multi_point=ps("DefaultPlugin:5")), Plugins(multi_point=ps("DefaultPlugin")),
     Plugins(multi_point=ps("DefaultPlugin:5"))),
    ("disabled MultiPoint plugin in default set",
     Plugins(multi_point=ps("CustomPlugin")),
     Plugins(multi_point=ps("DefaultPlugin", disabled=("DefaultPlugin2",))),
     Plugins(multi_point=ps("DefaultPlugin", "CustomPlugin", disabled=("DefaultPlugin2",)))),
    ("disabled MultiPoint plugin in default set for specific extension point",
     Plugins(multi_point=ps("CustomPlugin")),
     Plugins(multi_point=ps("DefaultPlugin"), score=ps(disabled=("DefaultPlugin2",))),
     Plugins(multi_point=ps("DefaultPlugin", "CustomPlugin"),
             score=ps(disabled=("DefaultPlugin2",)))),
    ("multipoint with only disabled gets merged",
     Plugins(multi_point=ps(disabled=("DefaultPlugin",))),
     Plugins(multi_point=ps("DefaultPlugin")),
     Plugins(multi_point=ps(disabled=("DefaultPlugin",)))),
]


@pytest.mark.parametrize("name,custom,default,want", MERGE_CASES, ids=[c[0] for c in MERGE_CASES])
def test_merge_plugins(name: str, custom, default, want) -> None:
    assert merge_plugins(default, custom) == want


# --- defaults.go ---------------------------------------------------------------------


def defaulted(cfg: KubeSchedulerConfiguration) -> KubeSchedulerConfiguration:
    set_defaults_kube_scheduler_configuration(cfg)
    return cfg


def test_scheduler_defaults_empty_config() -> None:
    cfg = defaulted(KubeSchedulerConfiguration())
    assert cfg.parallelism == 16
    assert cfg.percentage_of_nodes_to_score == 0
    assert (cfg.pod_initial_backoff_seconds, cfg.pod_max_backoff_seconds) == (1, 10)
    assert cfg.enable_profiling is True and cfg.enable_contention_profiling is True
    le = cfg.leader_election
    assert (le.leader_elect, le.lease_duration, le.renew_deadline, le.retry_period) == (
        True, Duration(15_000_000_000), Duration(10_000_000_000), Duration(2_000_000_000))
    assert (le.resource_lock, le.resource_namespace, le.resource_name) == (
        "leases", "kube-system", "kube-scheduler")
    cc = cfg.client_connection
    assert (cc.qps, cc.burst, cc.content_type) == (50.0, 100, "application/vnd.kubernetes.protobuf")
    assert cfg.profiles == [KubeSchedulerProfile(
        scheduler_name="default-scheduler", plugins=get_default_plugins(),
        plugin_config=default_plugin_configs())]


@pytest.mark.parametrize("name,cfg,check", [
    ("no scheduler name", KubeSchedulerConfiguration(profiles=[KubeSchedulerProfile()]),
     lambda c: c.profiles[0].scheduler_name == "default-scheduler"),
    ("set non default parallelism", KubeSchedulerConfiguration(parallelism=8),
     lambda c: c.parallelism == 8),
    ("set non default global percentageOfNodesToScore",
     KubeSchedulerConfiguration(percentage_of_nodes_to_score=50),
     lambda c: c.percentage_of_nodes_to_score == 50
     and c.profiles[0].percentage_of_nodes_to_score is None),
    ("set non default profile percentageOfNodesToScore",
     KubeSchedulerConfiguration(profiles=[KubeSchedulerProfile(percentage_of_nodes_to_score=50)]),
     lambda c: c.percentage_of_nodes_to_score == 0
     and c.profiles[0].percentage_of_nodes_to_score == 50),
    ("set non default delayCacheUntilActive", KubeSchedulerConfiguration(delay_cache_until_active=True),
     lambda c: c.delay_cache_until_active is True and c.parallelism == 16),
    ("explicit zero backoff is kept", KubeSchedulerConfiguration(pod_initial_backoff_seconds=0),
     lambda c: c.pod_initial_backoff_seconds == 0 and c.pod_max_backoff_seconds == 10),
], ids=lambda v: v if isinstance(v, str) else "")
def test_scheduler_defaults(name: str, cfg: KubeSchedulerConfiguration, check) -> None:
    assert check(defaulted(cfg))


def test_scheduler_defaults_two_profiles() -> None:
    cfg = defaulted(KubeSchedulerConfiguration(parallelism=16, profiles=[
        KubeSchedulerProfile(plugin_config=[PluginConfig("FooPlugin")]),
        KubeSchedulerProfile(scheduler_name="custom-scheduler", plugins=Plugins(
            bind=ps("BarPlugin", disabled=("DefaultBinder",)))),
    ]))
    first, second = cfg.profiles
    # With two profiles nobody gets the default name.
    assert first.scheduler_name is None
    assert first.plugins == get_default_plugins()
    assert first.plugin_config == [PluginConfig("FooPlugin")] + default_plugin_configs()
    assert second.plugins == Plugins(multi_point=get_default_plugins().multi_point,
                                     bind=ps("BarPlugin", disabled=("DefaultBinder",)))
    assert second.plugin_config == default_plugin_configs()


def test_default_args_only_for_enabled_plugins() -> None:
    cfg = defaulted(KubeSchedulerConfiguration(profiles=[KubeSchedulerProfile(plugins=Plugins(
        multi_point=ps("PrioritySort", "NodeResourcesFit:3", "NodeAffinity:1", "DefaultBinder",
                       disabled=("*",))))]))
    assert [pc.name for pc in cfg.profiles[0].plugin_config] == ["NodeAffinity", "NodeResourcesFit"]


ARGS_DEFAULTS = [
    ("DefaultPreemptionArgs empty", DefaultPreemptionArgs(), DefaultPreemptionArgs(10, 100)),
    ("DefaultPreemptionArgs with value", DefaultPreemptionArgs(50), DefaultPreemptionArgs(50, 100)),
    ("InterPodAffinityArgs empty", InterPodAffinityArgs(), InterPodAffinityArgs(1)),
    ("InterPodAffinityArgs explicit 0", InterPodAffinityArgs(0), InterPodAffinityArgs(0)),
    ("InterPodAffinityArgs with value", InterPodAffinityArgs(5), InterPodAffinityArgs(5)),
    ("NodeResourcesBalancedAllocationArgs resources empty", NodeResourcesBalancedAllocationArgs(),
     NodeResourcesBalancedAllocationArgs([ResourceSpec("cpu", 1), ResourceSpec("memory", 1)])),
    ("NodeResourcesBalancedAllocationArgs with scalar resource",
     NodeResourcesBalancedAllocationArgs([ResourceSpec("scalar.io/scalar1", 1)]),
     NodeResourcesBalancedAllocationArgs([ResourceSpec("scalar.io/scalar1", 1)])),
    ("NodeResourcesBalancedAllocationArgs have resource no weight",
     NodeResourcesBalancedAllocationArgs([ResourceSpec("cpu"), ResourceSpec("scalar.io/scalar0"),
                                          ResourceSpec("scalar.io/scalar1", 1)]),
     NodeResourcesBalancedAllocationArgs([ResourceSpec("cpu", 1),
                                          ResourceSpec("scalar.io/scalar0", 1),
                                          ResourceSpec("scalar.io/scalar1", 1)])),
    ("PodTopologySpreadArgs resources empty", PodTopologySpreadArgs(),
     PodTopologySpreadArgs(defaulting_type="System")),
    ("PodTopologySpreadArgs resources with value",
     PodTopologySpreadArgs([TopologySpreadConstraint(2, "planet", "DoNotSchedule")]),
     PodTopologySpreadArgs([TopologySpreadConstraint(2, "planet", "DoNotSchedule")], "System")),
    ("NodeResourcesFitArgs not set", NodeResourcesFitArgs(),
     NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(
         "LeastAllocated", [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]))),
    ("NodeResourcesFitArgs Resources empty",
     NodeResourcesFitArgs(scoring_strategy=ScoringStrategy("MostAllocated")),
     NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(
         "MostAllocated", [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]))),
    ("NodeResourcesFitArgs a type-less strategy keeps its empty type",
     NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(resources=[ResourceSpec("cpu")])),
     NodeResourcesFitArgs(scoring_strategy=ScoringStrategy("", [ResourceSpec("cpu", 1)]))),
    ("VolumeBindingArgs empty, VolumeCapacityPriority disabled", VolumeBindingArgs(),
     VolumeBindingArgs(bind_timeout_seconds=600)),
    ("NodeAffinityArgs have no defaulter", NodeAffinityArgs(), NodeAffinityArgs()),
]


@pytest.mark.parametrize("name,args,want", ARGS_DEFAULTS, ids=[c[0] for c in ARGS_DEFAULTS])
def test_plugin_args_defaults(name: str, args: object, want: object) -> None:
    default_plugin_args(args)
    assert args == want


def test_volume_binding_shape_default_with_gate() -> None:
    args = VolumeBindingArgs()
    default_plugin_args(args, {"VolumeCapacityPriority": True})
    assert args.shape == [UtilizationShapePoint(0, 0), UtilizationShapePoint(100, 10)]


# --- scheme_test.go: decoding + defaulting of plugin args ---------------------------------


def test_codecs_decode_all_plugin_args_in_default_profile() -> None:
    cfg = load_config_data(H + """profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      minCandidateNodesPercentage: 50
      minCandidateNodesAbsolute: 500
  - name: InterPodAffinity
    args:
      hardPodAffinityWeight: 5
  - name: NodeResourcesFit
    args:
      ignoredResources: ["foo"]
  - name: PodTopologySpread
    args:
      defaultConstraints:
      - maxSkew: 1
        topologyKey: zone
        whenUnsatisfiable: ScheduleAnyway
      defaultingType: List
  - name: VolumeBinding
    args:
      bindTimeoutSeconds: 300
  - name: NodeResourcesBalancedAllocation
    args:
      resources:
        - name: cpu
        - name: memory
          weight: 0
""")
    got = {pc.name: pc.args for pc in cfg.profiles[0].plugin_config}
    assert got["DefaultPreemption"] == DefaultPreemptionArgs(50, 500)
    assert got["InterPodAffinity"] == InterPodAffinityArgs(5)
    assert got["NodeResourcesFit"] == NodeResourcesFitArgs(
        ignored_resources=["foo"], scoring_strategy=ScoringStrategy(
            "LeastAllocated", [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]))
    assert got["PodTopologySpread"] == PodTopologySpreadArgs(
        [TopologySpreadConstraint(1, "zone", "ScheduleAnyway")], "List")
    assert got["VolumeBinding"] == VolumeBindingArgs(bind_timeout_seconds=300)
    assert got["NodeResourcesBalancedAllocation"] == NodeResourcesBalancedAllocationArgs(
        [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)])
    # The one in-tree plugin with args that was not configured gets its defaults, appended.
    assert [pc.name for pc in cfg.profiles[0].plugin_config][-1] == "NodeAffinity"


def test_codecs_decode_empty_and_no_plugin_args() -> None:
    cfg = load_config_data(H + """profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
  - name: InterPodAffinity
    args:
  - name: NodeResourcesFit
  - name: OutOfTreePlugin
    args:
  - name: VolumeBinding
    args:
  - name: PodTopologySpread
  - name: NodeAffinity
  - name: NodeResourcesBalancedAllocation
""")
    got = [(pc.name, pc.args) for pc in cfg.profiles[0].plugin_config]
    want = {pc.name: pc.args for pc in default_plugin_configs()}
    assert [n for n, _ in got] == ["DefaultPreemption", "InterPodAffinity", "NodeResourcesFit",
                                   "OutOfTreePlugin", "VolumeBinding", "PodTopologySpread",
                                   "NodeAffinity", "NodeResourcesBalancedAllocation"]
    for name, args in got:
        assert args == want.get(name)  # OutOfTreePlugin: no args at all


def test_codecs_plugins_can_include_version_and_kind() -> None:
    cfg = load_config_data(H + """profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: DefaultPreemptionArgs
      minCandidateNodesPercentage: 50
""")
    assert cfg.profiles[0].plugin_config[0].args == DefaultPreemptionArgs(50, 100)


def test_codecs_profile_percentage() -> None:
    cfg = load_config_data(H + "percentageOfNodesToScore: 10\nprofiles:\n"
                               "- percentageOfNodesToScore: 20\n")
    assert cfg.percentage_of_nodes_to_score == 10
    assert cfg.profiles[0].percentage_of_nodes_to_score == 20
    assert cfg.profiles[0].scheduler_name == "default-scheduler"
