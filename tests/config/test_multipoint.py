"""Per-extension-point plugin lists after MultiPoint expansion.

Mirrors TestNewFrameworkMultiPointExpansion (runtime/framework_test.go) with
its fake plugins, then checks the lists v1.30 builds for the default profile
and for the configurations of the conformance cases, and the errors
NewFramework raises while building them.
"""
from __future__ import annotations

import pytest

from ksched_edu.config import (FrameworkConfigError, default_config, enabled_plugins,
                               list_plugins, load_config_data)
from ksched_edu.config.types import KubeSchedulerProfile, Plugin, Plugins, PluginSet

H = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"

# The fake registry of framework_test.go: which points each fake plugin implements.
TEST_PLUGIN = "test-plugin"
SCORE_PLUGIN_1 = "score-plugin-1"
SCORE_PLUGIN_2 = "score-plugin-2"
SCORE_WITH_NORMALIZE_PLUGIN_1 = "score-with-normalize-plugin-1"
QUEUE_SORT_PLUGIN = "no-op-queue-sort-plugin"
BIND_PLUGIN = "bind-plugin"
FAKE_REGISTRY = {
    TEST_PLUGIN: frozenset({"queueSort", "preFilter", "filter", "postFilter", "preScore", "score",
                            "reserve", "permit", "preBind", "bind", "postBind"}),
    SCORE_PLUGIN_1: frozenset({"preScore", "score"}),
    SCORE_PLUGIN_2: frozenset({"preScore", "score"}),
    SCORE_WITH_NORMALIZE_PLUGIN_1: frozenset({"score"}),
    QUEUE_SORT_PLUGIN: frozenset({"queueSort"}),
    BIND_PLUGIN: frozenset({"bind"}),
}


def ps(*names: str, disabled: tuple[str, ...] = ()) -> PluginSet:
    def plugin(s: str) -> Plugin:
        name, _, w = s.partition(":")
        return Plugin(name, int(w) if w else 0)
    return PluginSet([plugin(n) for n in names], [Plugin(n) for n in disabled])


T, S1, S2, SN = TEST_PLUGIN, SCORE_PLUGIN_1, SCORE_PLUGIN_2, SCORE_WITH_NORMALIZE_PLUGIN_1
ALL_T = dict(queue_sort=ps(T), pre_filter=ps(T), filter=ps(T), post_filter=ps(T), reserve=ps(T),
             permit=ps(T), pre_bind=ps(T), bind=ps(T), post_bind=ps(T))

EXPANSION = [
    ("plugin expansion",
     Plugins(multi_point=ps(f"{T}:5")),
     Plugins(**ALL_T, pre_score=ps(T), score=ps(f"{T}:5"))),
    ("disable MultiPoint plugin at some extension points",
     Plugins(multi_point=ps(T), pre_score=ps(disabled=(T,)), score=ps(disabled=(T,))),
     Plugins(**ALL_T)),
    ("Multiple MultiPoint plugins",
     Plugins(multi_point=ps(T, S1)),
     Plugins(**ALL_T, pre_score=ps(T, S1), score=ps(f"{T}:1", f"{S1}:1"))),
    ("disable MultiPoint extension",
     Plugins(multi_point=ps(T, S1), pre_score=ps(disabled=("*",))),
     Plugins(**ALL_T, score=ps(f"{T}:1", f"{S1}:1"))),
    ("Reorder MultiPoint plugins (specified extension takes precedence)",
     Plugins(multi_point=ps(SN, T, S1), score=ps(S1, T)),
     Plugins(**ALL_T, pre_score=ps(T, S1), score=ps(f"{S1}:1", f"{T}:1", f"{SN}:1"))),
    ("Reorder MultiPoint plugins (specified extension only takes precedence when it exists in "
     "MultiPoint)",
     Plugins(multi_point=ps(T, S1), score=ps(SN, S1, T)),
     Plugins(**ALL_T, pre_score=ps(T, S1), score=ps(f"{S1}:1", f"{T}:1", f"{SN}:1"))),
    ("Override MultiPoint plugins weights",
     Plugins(multi_point=ps(T, S1), score=ps(f"{S1}:5", f"{T}:3")),
     Plugins(**ALL_T, pre_score=ps(T, S1), score=ps(f"{S1}:5", f"{T}:3"))),
    ("disable and enable MultiPoint plugins with '*'",
     Plugins(multi_point=ps(QUEUE_SORT_PLUGIN, BIND_PLUGIN, S1, disabled=("*",))),
     Plugins(queue_sort=ps(QUEUE_SORT_PLUGIN), pre_score=ps(S1), score=ps(f"{S1}:1"),
             bind=ps(BIND_PLUGIN))),
    ("disable and enable MultiPoint plugin by name",
     Plugins(multi_point=ps(BIND_PLUGIN, QUEUE_SORT_PLUGIN, S1, disabled=(S1,))),
     Plugins(queue_sort=ps(QUEUE_SORT_PLUGIN), pre_score=ps(S1), score=ps(f"{S1}:1"),
             bind=ps(BIND_PLUGIN))),
    ("Override MultiPoint plugins weights and avoid a plugin being loaded multiple times",
     Plugins(multi_point=ps(T, S1), score=ps(f"{S1}:5", f"{S2}:5", f"{T}:3")),
     Plugins(**ALL_T, pre_score=ps(T, S1), score=ps(f"{S1}:5", f"{T}:3", f"{S2}:5"))),
]


@pytest.mark.parametrize("name,plugins,want", EXPANSION, ids=[c[0] for c in EXPANSION])
def test_new_framework_multi_point_expansion(name: str, plugins: Plugins, want: Plugins) -> None:
    assert list_plugins(plugins, FAKE_REGISTRY) == want


def test_expect_already_registered_error() -> None:
    with pytest.raises(FrameworkConfigError) as info:
        list_plugins(Plugins(multi_point=ps(T, T)), FAKE_REGISTRY)
    assert str(info.value) == 'plugin "test-plugin" already registered as "PreFilterPlugin"'


# --- the v1.30 default profile --------------------------------------------------------------

FILTERS = ["NodeAffinity", "NodePorts", "NodeResourcesFit", "VolumeRestrictions", "EBSLimits",
           "GCEPDLimits", "NodeVolumeLimits", "AzureDiskLimits", "VolumeBinding", "VolumeZone",
           "PodTopologySpread", "InterPodAffinity"]
DEFAULT_LISTS = {
    "preEnqueue": [("SchedulingGates", 0)],
    "queueSort": [("PrioritySort", 0)],
    "preFilter": [(n, 0) for n in FILTERS],
    "filter": [(n, 0) for n in ["NodeUnschedulable", "NodeName", "TaintToleration"] + FILTERS],
    "postFilter": [("DefaultPreemption", 0)],
    "preScore": [(n, 0) for n in ["TaintToleration", "NodeAffinity", "NodeResourcesFit",
                                  "VolumeBinding", "PodTopologySpread", "InterPodAffinity",
                                  "NodeResourcesBalancedAllocation"]],
    "score": [("TaintToleration", 3), ("NodeAffinity", 2), ("NodeResourcesFit", 1),
              ("VolumeBinding", 1), ("PodTopologySpread", 2), ("InterPodAffinity", 2),
              ("NodeResourcesBalancedAllocation", 1), ("ImageLocality", 1)],
    "reserve": [("VolumeBinding", 0)],
    "permit": [],
    "preBind": [("VolumeBinding", 0)],
    "bind": [("DefaultBinder", 0)],
    "postBind": [],
}


@pytest.mark.parametrize("point", list(DEFAULT_LISTS))
def test_default_profile(point: str) -> None:
    assert enabled_plugins(default_config().profiles[0], point) == DEFAULT_LISTS[point]


def test_python_point_names_are_accepted() -> None:
    profile = default_config().profiles[0]
    assert enabled_plugins(profile, "pre_filter") == enabled_plugins(profile, "preFilter")


def profile_of(yaml_profiles: str) -> KubeSchedulerProfile:
    return load_config_data(H + "profiles:\n" + yaml_profiles).profiles[0]


def names(profile: KubeSchedulerProfile, point: str) -> list[str]:
    return [n for n, _ in enabled_plugins(profile, point)]


DEFAULT_FILTERS = [n for n, _ in DEFAULT_LISTS["filter"]]
DEFAULT_SCORES = DEFAULT_LISTS["score"]

CONFIGS = [
    ("config-multipoint-minimal",
     "- schedulerName: default-scheduler\n  plugins:\n    multiPoint:\n      enabled:\n"
     "      - name: PrioritySort\n      - name: NodeResourcesFit\n        weight: 3\n"
     "      - name: NodeAffinity\n        weight: 1\n      - name: DefaultBinder\n"
     "      disabled:\n      - name: '*'\n",
     {"preEnqueue": [], "queueSort": [("PrioritySort", 0)],
      "preFilter": [("NodeResourcesFit", 0), ("NodeAffinity", 0)],
      "filter": [("NodeResourcesFit", 0), ("NodeAffinity", 0)],
      "postFilter": [], "preScore": [("NodeResourcesFit", 0), ("NodeAffinity", 0)],
      "score": [("NodeResourcesFit", 3), ("NodeAffinity", 1)], "reserve": [],
      "bind": [("DefaultBinder", 0)]}),
    ("config-custom-weights",
     "- schedulerName: default-scheduler\n  plugins:\n    score:\n      enabled:\n"
     "      - name: NodeResourcesBalancedAllocation\n        weight: 5\n"
     "      - name: NodeAffinity\n        weight: 7\n      - name: ImageLocality\n"
     "        weight: 0\n",
     {"score": [("NodeResourcesBalancedAllocation", 5), ("NodeAffinity", 7), ("ImageLocality", 1),
                ("TaintToleration", 3), ("NodeResourcesFit", 1), ("VolumeBinding", 1),
                ("PodTopologySpread", 2), ("InterPodAffinity", 2)],
      "preScore": DEFAULT_LISTS["preScore"]}),
    ("config-disable-star-enable-one-score",
     "- schedulerName: default-scheduler\n  plugins:\n    score:\n      disabled:\n"
     "      - name: '*'\n      enabled:\n      - name: NodeResourcesFit\n        weight: 2\n",
     {"score": [("NodeResourcesFit", 2)], "preScore": DEFAULT_LISTS["preScore"],
      "filter": DEFAULT_LISTS["filter"]}),
    ("config-score-disable-one",
     "- schedulerName: default-scheduler\n  plugins:\n    score:\n      disabled:\n"
     "      - name: TaintToleration\n      - name: NodeResourcesBalancedAllocation\n",
     {"score": [s for s in DEFAULT_SCORES
                if s[0] not in ("TaintToleration", "NodeResourcesBalancedAllocation")],
      # Disabling a score plugin leaves its PreScore running.
      "preScore": DEFAULT_LISTS["preScore"]}),
    ("config-disable-taint-filter",
     "- schedulerName: default-scheduler\n  plugins:\n    filter:\n      disabled:\n"
     "      - name: TaintToleration\n",
     {"filter": [f for f in DEFAULT_LISTS["filter"] if f[0] != "TaintToleration"],
      "score": DEFAULT_SCORES}),
    ("config-weight-101-accepted",
     "- schedulerName: default-scheduler\n  plugins:\n    score:\n      enabled:\n"
     "      - name: NodeResourcesFit\n        weight: 101\n",
     {"score": [("NodeResourcesFit", 101)] + [s for s in DEFAULT_SCORES
                                              if s[0] != "NodeResourcesFit"]}),
    ("run-preempt-disabled-by-config",
     "- schedulerName: default-scheduler\n  plugins:\n    postFilter:\n      disabled:\n"
     "      - name: DefaultPreemption\n",
     {"postFilter": [], "filter": DEFAULT_LISTS["filter"]}),
    ("cosched-gang-and-plain-pods",
     "- schedulerName: default-scheduler\n  plugins:\n    multiPoint:\n      enabled:\n"
     "      - name: Coscheduling\n      disabled:\n      - name: PrioritySort\n",
     {"queueSort": [("Coscheduling", 0)],
      "preFilter": DEFAULT_LISTS["preFilter"] + [("Coscheduling", 0)],
      "postFilter": [("DefaultPreemption", 0), ("Coscheduling", 0)],
      "reserve": [("VolumeBinding", 0), ("Coscheduling", 0)],
      "permit": [("Coscheduling", 0)], "score": DEFAULT_SCORES}),
    ("nrt-score-weights-gpu-most",
     "- schedulerName: default-scheduler\n  plugins:\n    multiPoint:\n      enabled:\n"
     "      - name: NodeResourceTopologyMatch\n    score:\n      disabled:\n      - name: '*'\n"
     "      enabled:\n      - name: NodeResourceTopologyMatch\n",
     {"score": [("NodeResourceTopologyMatch", 1)],
      "filter": DEFAULT_LISTS["filter"] + [("NodeResourceTopologyMatch", 0)],
      "reserve": [("VolumeBinding", 0), ("NodeResourceTopologyMatch", 0)],
      "postBind": [("NodeResourceTopologyMatch", 0)]}),
    ("nrt-score-per-point-weight",
     "- schedulerName: default-scheduler\n  plugins:\n    filter:\n      enabled:\n"
     "      - name: NodeResourceTopologyMatch\n    score:\n      enabled:\n"
     "      - name: NodeResourceTopologyMatch\n        weight: 3\n",
     {"filter": DEFAULT_LISTS["filter"] + [("NodeResourceTopologyMatch", 0)],
      "score": DEFAULT_SCORES + [("NodeResourceTopologyMatch", 3)],
      "reserve": [("VolumeBinding", 0)]}),
    ("a point's own entry moves a MultiPoint plugin to the front",
     "- plugins:\n    filter:\n      enabled:\n      - name: NodeName\n      - name: NodePorts\n",
     {"filter": [("NodeName", 0), ("NodePorts", 0)] + [
         f for f in DEFAULT_LISTS["filter"] if f[0] not in ("NodeName", "NodePorts")]}),
    ("a disabled-and-re-enabled MultiPoint plugin goes to the end",
     "- plugins:\n    multiPoint:\n      enabled:\n      - name: NodeName\n"
     "      disabled:\n      - name: NodeName\n",
     {"filter": [f for f in DEFAULT_LISTS["filter"] if f[0] != "NodeName"] + [("NodeName", 0)]}),
]


@pytest.mark.parametrize("name,yaml_profiles,want", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_configured_profiles(name: str, yaml_profiles: str, want: dict) -> None:
    profile = profile_of(yaml_profiles)
    for point, expected in want.items():
        assert enabled_plugins(profile, point) == expected, point


ERRORS = [
    ("config-invalid-unknown-plugin",
     "- plugins:\n    score:\n      enabled:\n      - name: NoSuchPlugin\n        weight: 1\n",
     'ScorePlugin "NoSuchPlugin" does not exist'),
    ("unknown MultiPoint plugin", "- plugins:\n    multiPoint:\n      enabled:\n"
                                  "      - name: NoSuchPlugin\n",
     'PreFilterPlugin "NoSuchPlugin" does not exist'),
    ("plugin at a point it does not implement",
     "- plugins:\n    filter:\n      enabled:\n      - name: ImageLocality\n",
     'plugin "ImageLocality" does not extend FilterPlugin plugin'),
    ("the first bad entry of a point is reported",
     "- plugins:\n    score:\n      enabled:\n      - name: Foo\n      - name: ImageLocality\n"
     "      - name: ImageLocality\n      disabled:\n      - name: '*'\n",
     'ScorePlugin "Foo" does not exist'),
    ("duplicated score plugin", "- plugins:\n    score:\n      enabled:\n"
                                "      - name: ImageLocality\n      - name: ImageLocality\n",
     'plugin "ImageLocality" already registered as "ScorePlugin"'),
    ("no queue sort", "- schedulerName: s\n  plugins:\n    multiPoint:\n      disabled:\n"
                      "      - name: PrioritySort\n",
     'only one queue sort plugin required for profile with scheduler name "s", but got 0'),
    ("no binder", "- schedulerName: s\n  plugins:\n    bind:\n      disabled:\n      - name: '*'\n",
     'at least one bind plugin is needed for profile with scheduler name "s"'),
]


@pytest.mark.parametrize("name,yaml_profiles,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_framework_errors(name: str, yaml_profiles: str, message: str) -> None:
    with pytest.raises(FrameworkConfigError) as info:
        enabled_plugins(profile_of(yaml_profiles), "score")
    assert str(info.value) == message


def test_score_weight_overflow() -> None:
    plugins = Plugins(queue_sort=ps(QUEUE_SORT_PLUGIN), bind=ps(BIND_PLUGIN),
                      score=ps(f"{S1}:{2**62}", f"{S2}:{2**62}"))
    with pytest.raises(FrameworkConfigError) as info:
        list_plugins(plugins, FAKE_REGISTRY)
    assert str(info.value) == "total score of Score plugins could overflow"


def test_two_profiles_each_expand() -> None:
    cfg = load_config_data(H + "profiles:\n- schedulerName: default-scheduler\n"
                               "- schedulerName: lean\n  plugins:\n    score:\n      disabled:\n"
                               "      - name: '*'\n      enabled:\n      - name: NodeResourcesFit\n")
    assert enabled_plugins(cfg.profiles[0], "score") == DEFAULT_SCORES
    assert enabled_plugins(cfg.profiles[1], "score") == [("NodeResourcesFit", 1)]
