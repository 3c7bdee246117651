"""Tests of framework/runtime.py, mirroring runtime/framework_test.go (v1.30).

A fake plugin with injectable codes (upstream's TestPlugin) drives the runtime's
rules: which plugin runs, where it stops, which codes become Error, how weights
apply and in which order Unreserve runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import pytest

from ksched_edu.config.types import KubeSchedulerProfile, Plugin, PluginConfig, Plugins, PluginSet
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, NodeScore, PreFilterResult, Status, new_status
from ksched_edu.framework.runtime import Framework, FrameworkError
from ksched_edu.framework.types import NodeInfo
from tests.builders import make_node, make_pod

pytestmark = pytest.mark.ch03


@dataclass
class FakePlugin:
    """Every extension point, each returning an injected code (upstream TestPlugin)."""

    plugin_name: str
    pre_filter_code: Code = Code.Success
    pre_filter_nodes: Optional[set[str]] = None
    filter_code: Code = Code.Success
    pre_score_code: Code = Code.Success
    score_value: int = 1
    score_code: Code = Code.Success
    normalize: Optional[int] = None
    reserve_code: Code = Code.Success
    permit_code: Code = Code.Success
    bind_code: Code = Code.Success
    calls: list[str] = field(default_factory=list)

    def name(self) -> str:
        return self.plugin_name

    def _status(self, code: Code, what: str) -> Optional[Status]:
        self.calls.append(what)
        return None if code == Code.Success else new_status(code, f"injected {what} status")

    def pre_filter(self, state, pod):
        result = PreFilterResult(set(self.pre_filter_nodes)) if self.pre_filter_nodes is not None else None
        return result, self._status(self.pre_filter_code, "PreFilter")

    def pre_filter_extensions(self):
        return None

    def filter(self, state, pod, node_info):
        return self._status(self.filter_code, "Filter")

    def pre_score(self, state, pod, nodes):
        return self._status(self.pre_score_code, "PreScore")

    def score(self, state, pod, node_name):
        return self.score_value, self._status(self.score_code, "Score")

    def score_extensions(self):
        return self if self.normalize is not None else None

    def normalize_score(self, state, pod, scores: list[NodeScore]):
        for s in scores:
            s.score = self.normalize
        return None

    def reserve(self, state, pod, node_name):
        return self._status(self.reserve_code, "Reserve")

    def unreserve(self, state, pod, node_name):
        self.calls.append("Unreserve")

    def permit(self, state, pod, node_name):
        return self._status(self.permit_code, "Permit"), 10.0

    def bind(self, state, pod, node_name):
        return self._status(self.bind_code, "Bind")


class FakeQueueSort:
    def name(self) -> str:
        return "QueueSort"

    def less(self, a, b):
        return False


class FakeBinder:
    def name(self) -> str:
        return "Binder"

    def bind(self, state, pod, node_name):
        return None


def build(plugins: list[FakePlugin], points: dict[str, list[tuple[str, int]]],
          multi_point: list[tuple[str, int]] = ()) -> Framework:
    registry = {p.plugin_name: (lambda args, h, p=p: p) for p in plugins}
    registry["QueueSort"] = lambda args, h: FakeQueueSort()
    registry["Binder"] = lambda args, h: FakeBinder()
    cfg = Plugins(queue_sort=PluginSet([Plugin("QueueSort")]), bind=PluginSet([Plugin("Binder")]),
                  multi_point=PluginSet([Plugin(n, w) for n, w in multi_point]))
    for point, enabled in points.items():
        getattr(cfg, point).enabled = [Plugin(n, w) for n, w in enabled]
    return Framework(registry, KubeSchedulerProfile("default-scheduler", None, cfg, []))


POD = make_pod().name("p").obj()


def node_info(name: str) -> NodeInfo:
    info = NodeInfo()
    info.set_node(make_node().name(name).obj())
    return info


# --- TestRunPreFilterPlugins ---------------------------------------------------------

@pytest.mark.parametrize("name,codes,want_code,want_plugin,want_skips", [
    ("all PreFilter plugins returned success", [Code.Success, Code.Success], None, "", set()),
    ("one PreFilter plugin returned Unschedulable, the other returned success",
     [Code.Unschedulable, Code.Success], Code.Unschedulable, "p0", set()),
    ("one PreFilter plugin returned UnschedulableAndUnresolvable and stops the rest",
     [Code.UnschedulableAndUnresolvable, Code.Success], Code.UnschedulableAndUnresolvable, "p0", set()),
    ("one PreFilter plugin returned Error", [Code.Error, Code.Success], Code.Error, "p0", set()),
    ("the first PreFilter plugin returned Skip", [Code.Skip, Code.Success], None, "", {"p0"}),
    ("all PreFilter plugins returned Skip", [Code.Skip, Code.Skip], None, "", {"p0", "p1"}),
])
def test_run_pre_filter_plugins(name, codes, want_code, want_plugin, want_skips):
    plugins = [FakePlugin(f"p{i}", pre_filter_code=c) for i, c in enumerate(codes)]
    fwk = build(plugins, {"pre_filter": [(p.plugin_name, 0) for p in plugins],
                          "filter": [(p.plugin_name, 0) for p in plugins]})
    state = CycleState()
    _, status = fwk.run_pre_filter_plugins(state, POD)
    assert (status.code if status else None) == want_code
    assert (status.plugin if status else "") == want_plugin
    if want_code == Code.UnschedulableAndUnresolvable:
        assert plugins[1].calls == []
    if want_code == Code.Error:
        assert status.message() == 'running PreFilter plugin "p0": injected PreFilter status'
    assert state.skip_filter_plugins == want_skips


def test_pre_filter_results_that_exclude_every_node():
    """Mirrors "nodes filtered out by all PreFilter plugins" and its message."""
    plugins = [FakePlugin("p0", pre_filter_nodes={"n1"}), FakePlugin("p1", pre_filter_nodes={"n2"})]
    fwk = build(plugins, {"pre_filter": [("p0", 0), ("p1", 0)]})
    result, status = fwk.run_pre_filter_plugins(CycleState(), POD)
    assert status.code == Code.UnschedulableAndUnresolvable
    assert status.message() == "node(s) didn't satisfy plugin(s) [p0 p1] simultaneously"
    assert result.node_names == set()


def test_pre_filter_result_narrows_to_intersection():
    plugins = [FakePlugin("p0", pre_filter_nodes={"n1", "n2"}), FakePlugin("p1", pre_filter_nodes={"n2", "n3"})]
    fwk = build(plugins, {"pre_filter": [("p0", 0), ("p1", 0)]})
    result, status = fwk.run_pre_filter_plugins(CycleState(), POD)
    assert status is None and result.node_names == {"n2"}


# --- TestFilterPlugins ----------------------------------------------------------------

@pytest.mark.parametrize("name,codes,want_code,want_plugin,ran", [
    ("SuccessFilter", [Code.Success], None, "", 1),
    ("ErrorFilter", [Code.Error], Code.Error, "p0", 1),
    ("UnschedulableFilter", [Code.Unschedulable], Code.Unschedulable, "p0", 1),
    ("UnschedulableAndUnresolvableFilter", [Code.UnschedulableAndUnresolvable],
     Code.UnschedulableAndUnresolvable, "p0", 1),
    ("SuccessSuccessFilter", [Code.Success, Code.Success], None, "", 2),
    ("ErrorSuccessFilter stops at the first failure", [Code.Error, Code.Success], Code.Error, "p0", 1),
    ("SuccessErrorFilter", [Code.Success, Code.Error], Code.Error, "p1", 2),
    ("UnschedulableSuccessFilter stops at the first failure", [Code.Unschedulable, Code.Success],
     Code.Unschedulable, "p0", 1),
])
def test_run_filter_plugins(name, codes, want_code, want_plugin, ran):
    plugins = [FakePlugin(f"p{i}", filter_code=c) for i, c in enumerate(codes)]
    fwk = build(plugins, {"filter": [(p.plugin_name, 0) for p in plugins]})
    status = fwk.run_filter_plugins(CycleState(), POD, node_info("n1"))
    assert (status.code if status else None) == want_code
    assert (status.plugin if status else "") == want_plugin
    assert sum(len(p.calls) for p in plugins) == ran
    if want_code == Code.Error:
        assert status.message() == f'running "{want_plugin}" filter plugin: injected Filter status'


def test_filter_skipped_after_pre_filter_skip():
    plugin = FakePlugin("p0", pre_filter_code=Code.Skip, filter_code=Code.Unschedulable)
    fwk = build([plugin], {"pre_filter": [("p0", 0)], "filter": [("p0", 0)]})
    state = CycleState()
    fwk.run_pre_filter_plugins(state, POD)
    assert fwk.run_filter_plugins(state, POD, node_info("n1")) is None


# --- TestRunScorePlugins ---------------------------------------------------------------

@pytest.mark.parametrize("name,plugins,weights,want", [
    ("single Score plugin", [FakePlugin("p0", score_value=1)], [1], {"n1": [1], "n2": [1]}),
    ("single Score plugin with weight", [FakePlugin("p0", score_value=100)], [3], {"n1": [300], "n2": [300]}),
    ("single ScoreWithNormalize plugin", [FakePlugin("p0", score_value=10, normalize=5)], [3],
     {"n1": [15], "n2": [15]}),
    ("2 Score plugins, 2 NormalizeScore plugins",
     [FakePlugin("p0", score_value=1, normalize=2), FakePlugin("p1", score_value=3, normalize=4)], [1, 3],
     {"n1": [2, 12], "n2": [2, 12]}),
])
def test_run_score_plugins(name, plugins, weights, want):
    fwk = build(plugins, {"score": [(p.plugin_name, w) for p, w in zip(plugins, weights)]})
    nodes = [node_info("n1"), node_info("n2")]
    result, status = fwk.run_score_plugins(CycleState(), POD, nodes)
    assert status is None
    assert {ns.name: [s.score for s in ns.scores] for ns in result} == want
    assert all(ns.total_score == sum(want[ns.name]) for ns in result)


@pytest.mark.parametrize("name,score_value,weight,want", [
    # Not upstream cases (Go's Score returns an int64): a Python plugin's float counts as
    # Go's int64() conversion of it, truncated toward zero, before the weight applies.
    ("float score truncated", 50.9, 1, 50),
    ("float score truncated, then weighted", 50.9, 3, 150),
    ("bool score counts as 0 or 1", True, 2, 2),
])
def test_run_score_plugins_python_scores(name, score_value, weight, want):
    fwk = build([FakePlugin("p0", score_value=score_value)], {"score": [("p0", weight)]})
    result, status = fwk.run_score_plugins(CycleState(), POD, [node_info("n1"), node_info("n2")])
    assert status is None
    assert [[(s.score, type(s.score)) for s in ns.scores] for ns in result] == [[(want, int)]] * 2
    assert [(ns.total_score, type(ns.total_score)) for ns in result] == [(want, int)] * 2


@pytest.mark.parametrize("name,plugin,want", [
    ("Score plugin return error", FakePlugin("p0", score_code=Code.Error),
     'running Score plugins: plugin "p0" failed with: injected Score status'),
    ("Score plugin returns score greater than MaxNodeScore", FakePlugin("p0", score_value=101),
     'applying score defaultWeights on Score plugins: plugin "p0" returns an invalid score 101, '
     "it should in the range of [0, 100] after normalizing"),
    ("Score plugin returns score less than MinNodeScore", FakePlugin("p0", score_value=-1),
     'applying score defaultWeights on Score plugins: plugin "p0" returns an invalid score -1, '
     "it should in the range of [0, 100] after normalizing"),
    ("ScoreWithNormalize plugin returns score greater than MaxNodeScore", FakePlugin("p0", normalize=101),
     'applying score defaultWeights on Score plugins: plugin "p0" returns an invalid score 101, '
     "it should in the range of [0, 100] after normalizing"),
])
def test_run_score_plugins_errors(name, plugin, want):
    fwk = build([plugin], {"score": [("p0", 1)]})
    _, status = fwk.run_score_plugins(CycleState(), POD, [node_info("n1")])
    assert status.code == Code.Error and status.message() == want


def test_pre_score_skip_removes_the_score_plugin():
    plugins = [FakePlugin("p0", pre_score_code=Code.Skip, score_value=7), FakePlugin("p1", score_value=9)]
    fwk = build(plugins, {"pre_score": [("p0", 0), ("p1", 0)], "score": [("p0", 1), ("p1", 1)]})
    state = CycleState()
    assert fwk.run_pre_score_plugins(state, POD, [node_info("n1")]) is None
    result, _ = fwk.run_score_plugins(state, POD, [node_info("n1")])
    assert [s.name for s in result[0].scores] == ["p1"]


# --- Reserve / Permit / Bind -------------------------------------------------------------

def test_unreserve_runs_in_reverse_order():
    order: list[str] = []

    class Tracking(FakePlugin):
        def unreserve(self, state, pod, node_name):
            order.append(self.plugin_name)

    plugins = [Tracking("a"), Tracking("b"), Tracking("c")]
    fwk = build(plugins, {"reserve": [("a", 0), ("b", 0), ("c", 0)]})
    fwk.run_reserve_plugins_unreserve(CycleState(), POD, "n1")
    assert order == ["c", "b", "a"]


@pytest.mark.parametrize("name,codes,want", [
    ("all Permit plugins allow", [Code.Success, Code.Success], None),
    ("one Permit plugin rejects", [Code.Unschedulable, Code.Success], Code.Unschedulable),
    ("one Permit plugin asks to wait", [Code.Wait, Code.Success], Code.Wait),
    ("one Permit plugin errors", [Code.Error], Code.Error),
])
def test_run_permit_plugins(name, codes, want):
    plugins = [FakePlugin(f"p{i}", permit_code=c) for i, c in enumerate(codes)]
    fwk = build(plugins, {"permit": [(p.plugin_name, 0) for p in plugins]})
    status = fwk.run_permit_plugins(CycleState(), POD, "n1")
    assert (status.code if status else None) == want
    if want == Code.Wait:
        assert status.message() == 'one or more plugins asked to wait and no plugin rejected pod "p"'
        assert fwk.get_waiting_pod(POD.uid) is not None


def test_bind_skip_passes_to_the_next_binder():
    plugins = [FakePlugin("b0", bind_code=Code.Skip), FakePlugin("b1")]
    fwk = build(plugins, {"bind": [("b0", 0), ("b1", 0)]})
    assert fwk.run_bind_plugins(CycleState(), POD, "n1") is None
    assert plugins[1].calls == ["Bind"]


# --- TestNewFramework: building, multiPoint expansion, errors ------------------------------

def test_multi_point_expansion_puts_explicit_points_first():
    """Mirrors TestNewFrameworkMultiPointExpansion "Override MultiPoint plugins"."""
    plugins = [FakePlugin("a"), FakePlugin("b"), FakePlugin("c")]
    fwk = build(plugins, {"score": [("c", 5)]}, multi_point=[("a", 1), ("b", 2), ("c", 3)])
    assert [p.name() for p in fwk.score_plugins] == ["c", "a", "b"]
    assert fwk.score_plugin_weight == {"c": 5, "a": 1, "b": 2}
    assert [p.name() for p in fwk.filter_plugins] == ["a", "b", "c"]


def test_unknown_plugin_is_refused_with_upstream_message():
    with pytest.raises(FrameworkError, match='^ScorePlugin "NoSuchPlugin" does not exist$'):
        build([], {"score": [("NoSuchPlugin", 1)]})


def test_repeated_plugin_config_is_refused():
    registry = {"QueueSort": lambda a, h: FakeQueueSort(), "Binder": lambda a, h: FakeBinder()}
    cfg = Plugins(queue_sort=PluginSet([Plugin("QueueSort")]), bind=PluginSet([Plugin("Binder")]))
    profile = KubeSchedulerProfile("default-scheduler", None, cfg, [PluginConfig("X"), PluginConfig("X")])
    with pytest.raises(FrameworkError, match="^repeated config for plugin X$"):
        Framework(registry, profile)


def test_a_profile_needs_one_queue_sort_and_a_binder():
    registry = {"Binder": lambda a, h: FakeBinder()}
    cfg = Plugins(bind=PluginSet([Plugin("Binder")]))
    with pytest.raises(FrameworkError, match="only one queue sort plugin required for profile with scheduler "
                                             'name "default-scheduler", but got 0'):
        Framework(registry, KubeSchedulerProfile("default-scheduler", None, cfg, []))


# --- getScoreWeights: int64 arithmetic, wrapping as Go does ------------------------------

MAX_WEIGHT = 2**31 - 1  # Plugin.Weight is an int32


@pytest.mark.parametrize("name,score,multi_point,want_err,want_weights", [
    ("weights in range", [("a", 3)], [("b", 2), ("c", 0)], False, {"a": 3, "b": 2, "c": 1}),
    # A negative weight is not refused by itself: the total goes negative, MaxTotalScore - total
    # wraps below zero, and the next Score plugin visited fails the check.
    ("negative weight in Score.Enabled followed by another plugin", [("a", -1), ("b", 1)], [], True, None),
    ("negative weight in Score.Enabled followed by a MultiPoint plugin", [("a", -1)], [("b", 1)], True, None),
    ("negative weight in MultiPoint followed by another plugin", [], [("a", -5), ("b", 1)], True, None),
    ("negative weight on the last plugin visited is accepted", [("a", 1)], [("b", 2), ("c", -5)], False,
     {"a": 1, "b": 2, "c": -5}),
    ("a MultiPoint weight repeated in Score.Enabled is visited once, in Score's place",
     [("c", -5)], [("a", 1), ("c", 1)], True, None),
    ("the most negative int32 weight, alone", [("a", -(2**31))], [], False, {"a": -(2**31)}),
    ("two negative weights: the wrapped bound is below any weight", [("a", -1), ("b", -(2**31))], [], True, None),
    ("largest int32 weights stay far below MaxInt64", [(f"p{i}", MAX_WEIGHT) for i in range(40)], [], False,
     None),
])
def test_get_score_weights(name, score, multi_point, want_err, want_weights):
    """Mirrors getScoreWeights in runtime/framework.go (TestNewFrameworkErrors, score weight cases)."""
    names = {n for n, _ in score} | {n for n, _ in multi_point}
    plugins = [FakePlugin(n) for n in sorted(names)]
    if want_err:
        with pytest.raises(FrameworkError, match="^total score of Score plugins could overflow$"):
            build(plugins, {"score": score}, multi_point=multi_point)
        return
    fwk = build(plugins, {"score": score}, multi_point=multi_point)
    if want_weights is not None:
        assert fwk.score_plugin_weight == want_weights


def test_negative_weight_scores_negatively():
    """A negative weight accepted by getScoreWeights flows into RunScorePlugins's int64 sum."""
    plugins = [FakePlugin("a", score_value=10), FakePlugin("b", score_value=100)]
    fwk = build(plugins, {"score": [("a", 2), ("b", -3)]})
    result, status = fwk.run_score_plugins(CycleState(), POD, [node_info("n1")])
    assert status is None
    assert [s.score for s in result[0].scores] == [20, -300] and result[0].total_score == -280
