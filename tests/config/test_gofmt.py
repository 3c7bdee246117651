"""Go's value formatting as it appears in kube-scheduler's messages (fmt %#v, %q, Duration)."""
from __future__ import annotations

import pytest

from ksched_edu.api.types import (LabelSelector, NodeAffinity, NodeSelector,
                                  NodeSelectorRequirement, NodeSelectorTerm,
                                  TopologySpreadConstraint)
from ksched_edu.config.field import new_path
from ksched_edu.config.gofmt import (Duration, GoValue, error_value, format_duration,
                                     format_float_g, go_json, go_quote, sharp_v)
from ksched_edu.config.types import Plugin, PluginConfig, PluginSet
from ksched_edu.config.types_pluginargs import (InterPodAffinityArgs, NodeAffinityArgs,
                                                NodeResourcesFitArgs, PodTopologySpreadArgs,
                                                ResourceSpec, ScoringStrategy,
                                                UtilizationShapePoint)

P = "0xc000010000"

SHARP_V = [
    ("plugin set from the walkthrough",
     PluginSet([Plugin("Coscheduling")]),
     'config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:"Coscheduling", Weight:0}}, '
     'Disabled:[]config.Plugin(nil)}'),
    ("plugin set with weights and disabled",
     PluginSet([Plugin("A", 3), Plugin("B", 1)], [Plugin("*")]),
     'config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:"A", Weight:3}, '
     'config.Plugin{Name:"B", Weight:1}}, Disabled:[]config.Plugin{config.Plugin{Name:"*", '
     'Weight:0}}}'),
    ("field path", new_path("profiles").index(0).child("schedulerName"),
     f'field.Path{{name:"schedulerName", index:"", parent:(*field.Path)({P})}}'),
    ("root field path", new_path("profiles"),
     'field.Path{name:"profiles", index:"", parent:(*field.Path)(nil)}'),
    ("shape", GoValue([UtilizationShapePoint(0, 0), UtilizationShapePoint(100, 10)],
                      "[]config.UtilizationShapePoint"),
     "[]config.UtilizationShapePoint{config.UtilizationShapePoint{Utilization:0, Score:0}, "
     "config.UtilizationShapePoint{Utilization:100, Score:10}}"),
    ("nil slice of strings", GoValue(None, "[]string"), "[]string(nil)"),
    ("strings", GoValue(["a", "b"], "[]string"), '[]string{"a", "b"}'),
    ("args with a nested pointer",
     NodeResourcesFitArgs(scoring_strategy=ScoringStrategy("LeastAllocated",
                                                           [ResourceSpec("cpu", 1)])),
     'config.NodeResourcesFitArgs{TypeMeta:v1.TypeMeta{Kind:"", APIVersion:""}, '
     'IgnoredResources:[]string(nil), IgnoredResourceGroups:[]string(nil), '
     f'ScoringStrategy:(*config.ScoringStrategy)({P})}}'),
    ("scoring strategy", ScoringStrategy("MostAllocated", [ResourceSpec("cpu", 1)]),
     'config.ScoringStrategy{Type:"MostAllocated", Resources:[]config.ResourceSpec{'
     'config.ResourceSpec{Name:"cpu", Weight:1}}, '
     'RequestedToCapacityRatio:(*config.RequestedToCapacityRatioParam)(nil)}'),
    ("inter pod affinity args", InterPodAffinityArgs(1, True),
     'config.InterPodAffinityArgs{TypeMeta:v1.TypeMeta{Kind:"", APIVersion:""}, '
     'HardPodAffinityWeight:1, IgnorePreferredTermsOfExistingPods:true}'),
    ("spread args with a constraint",
     PodTopologySpreadArgs([TopologySpreadConstraint(1, "zone", "DoNotSchedule",
                                                     label_selector=LabelSelector({"a": "b"}))],
                           "List"),
     'config.PodTopologySpreadArgs{TypeMeta:v1.TypeMeta{Kind:"", APIVersion:""}, '
     'DefaultConstraints:[]v1.TopologySpreadConstraint{v1.TopologySpreadConstraint{MaxSkew:1, '
     'TopologyKey:"zone", WhenUnsatisfiable:"DoNotSchedule", '
     f'LabelSelector:(*v1.LabelSelector)({P}), MinDomains:(*int32)(nil), '
     'NodeAffinityPolicy:(*v1.NodeInclusionPolicy)(nil), '
     'NodeTaintsPolicy:(*v1.NodeInclusionPolicy)(nil), MatchLabelKeys:[]string(nil)}}, '
     'DefaultingType:"List"}'),
    ("label selector map", LabelSelector({"b": "2", "a": "1"}),
     'v1.LabelSelector{MatchLabels:map[string]string{"a":"1", "b":"2"}, '
     'MatchExpressions:[]v1.LabelSelectorRequirement(nil)}'),
    ("node affinity", NodeAffinity(required=NodeSelector([NodeSelectorTerm(
        [NodeSelectorRequirement("k", "In", ["v"])])])),
     f'v1.NodeAffinity{{RequiredDuringSchedulingIgnoredDuringExecution:(*v1.NodeSelector)({P}), '
     'PreferredDuringSchedulingIgnoredDuringExecution:[]v1.PreferredSchedulingTerm(nil)}'),
    ("plugin config with typed args", PluginConfig("NodeAffinity", NodeAffinityArgs()),
     f'config.PluginConfig{{Name:"NodeAffinity", Args:(*config.NodeAffinityArgs)({P})}}'),
    ("plugin config with raw args", PluginConfig("X", {"a": 1}),
     f'config.PluginConfig{{Name:"X", Args:(*runtime.Unknown)({P})}}'),
    ("plugin config without args", PluginConfig("X"),
     'config.PluginConfig{Name:"X", Args:runtime.Object(nil)}'),
    ("pointer at the top", GoValue(ScoringStrategy("x"), "*config.ScoringStrategy"),
     '&config.ScoringStrategy{Type:"x", Resources:[]config.ResourceSpec(nil), '
     'RequestedToCapacityRatio:(*config.RequestedToCapacityRatioParam)(nil)}'),
    ("bytes", GoValue(b'{"a":1}', "[]uint8"), "[]uint8{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d}"),
]


@pytest.mark.parametrize("name,value,want", SHARP_V, ids=[c[0] for c in SHARP_V])
def test_sharp_v(name: str, value: object, want: str) -> None:
    assert sharp_v(value) == want


ERROR_VALUES = [
    ("int", 120, "120"),
    ("negative int", -5, "-5"),
    ("bool", True, "true"),
    ("string is quoted", "Cheapest", '"Cheapest"'),
    ("named string type prints as a string", GoValue("System",
                                                     "config.PodTopologySpreadConstraintsDefaulting"),
     '"System"'),
    ("nil", None, "null"),
    ("a Stringer prints its String()", Duration(10_000_000_000), "10s"),
    ("a pointer is dereferenced", GoValue(ScoringStrategy("x"), "*config.ScoringStrategy"),
     'config.ScoringStrategy{Type:"x", Resources:[]config.ResourceSpec(nil), '
     'RequestedToCapacityRatio:(*config.RequestedToCapacityRatioParam)(nil)}'),
    ("raw args print as runtime.Unknown", GoValue({"b": 1}, "runtime.Object"),
     'runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, '
     'Raw:[]uint8{0x7b, 0x22, 0x62, 0x22, 0x3a, 0x31, 0x7d}, ContentEncoding:"", '
     'ContentType:"application/json"}'),
    ("typed args behind runtime.Object", GoValue(InterPodAffinityArgs(1), "runtime.Object"),
     'config.InterPodAffinityArgs{TypeMeta:v1.TypeMeta{Kind:"", APIVersion:""}, '
     'HardPodAffinityWeight:1, IgnorePreferredTermsOfExistingPods:false}'),
]


@pytest.mark.parametrize("name,value,want", ERROR_VALUES, ids=[c[0] for c in ERROR_VALUES])
def test_error_value(name: str, value: object, want: str) -> None:
    assert error_value(value) == want


@pytest.mark.parametrize("s,want", [
    ("plain", '"plain"'),
    ('say "hi"', '"say \\"hi\\""'),
    ("back\\slash", '"back\\\\slash"'),
    ("tab\tnewline\n", '"tab\\tnewline\\n"'),
    ("\x01", '"\\x01"'),
    ("é", '"é"'),
    ("\u00a0", '"\\u00a0"'),
])
def test_go_quote(s: str, want: str) -> None:
    assert go_quote(s) == want


@pytest.mark.parametrize("ns,want", [
    (0, "0s"), (1, "1ns"), (1500, "1.5µs"), (1_500_000, "1.5ms"), (2_000_000_000, "2s"),
    (15_000_000_000, "15s"), (90_000_000_000, "1m30s"), (3_600_000_000_000, "1h0m0s"),
    (3_723_500_000_000, "1h2m3.5s"), (-2_000_000_000, "-2s"),
])
def test_format_duration(ns: int, want: str) -> None:
    assert format_duration(ns) == want


@pytest.mark.parametrize("f,want", [
    (1.5, "1.5"), (2.0, "2"), (0.05, "0.05"), (100000.0, "100000"), (1e6, "1e+06"),
    (1.25e-5, "1.25e-05"), (-3.0, "-3"),
])
def test_format_float(f: float, want: str) -> None:
    assert format_float_g(f) == want


@pytest.mark.parametrize("value,want", [
    ({"b": [1, 2.0, "x"], "a": None}, '{"a":null,"b":[1,2,"x"]}'),
    ({"s": "<&>"}, '{"s":"\\u003c\\u0026\\u003e"}'),
    (1e21, "1e+21"), (1.5, "1.5"), (True, "true"),
])
def test_go_json(value: object, want: str) -> None:
    assert go_json(value) == want
