"""The plugin's construction (plugin.go New, apis/config defaults and validation_plugingargs_test.go's
TestValidateNodeResourceTopologyMatchArgs), its events, its registration, and a scenario through
the whole scheduler."""
from __future__ import annotations

import json

import pytest

from ksched_edu.config.types_pluginargs import ResourceSpec
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.noderesourcetopology.cache.passthrough import Passthrough
from ksched_edu.framework.plugins.noderesourcetopology.config import (LEAST_ALLOCATED, MOST_ALLOCATED,
                                                                      NodeResourceTopologyMatchArgs, ScoringStrategy,
                                                                      decode_args,
                                                                      validate_node_resource_topology_match_args)
from ksched_edu.framework.plugins.noderesourcetopology.least_allocated import least_allocated_score_strategy
from ksched_edu.framework.plugins.noderesourcetopology.most_allocated import most_allocated_score_strategy
from ksched_edu.framework.plugins.noderesourcetopology.plugin import NAME, new
from ksched_edu.framework.plugins.registry import OUT_OF_TREE_PLUGINS, new_registry_with_out_of_tree
from ksched_edu.framework.types import NODE, POD, ActionType
from tests.fakes import FakeHandle

from .objects import CPU, MEMORY, pod_by_resource_list


@pytest.mark.parametrize("strategy,want", [
    (MOST_ALLOCATED, None),
    ("not existent", 'scoringStrategy.type: Invalid value: "not existent": invalid ScoringStrategyType'),
], ids=["correct config", "incorrect config, wrong ScoringStrategy type"])
def test_validate_node_resource_topology_match_args(strategy, want):
    errs = validate_node_resource_topology_match_args(None, NodeResourceTopologyMatchArgs(
        scoring_strategy=ScoringStrategy(type=strategy)))
    assert [str(e) for e in errs] == ([] if want is None else [want])


def test_defaults_without_args():
    args = decode_args(None)
    assert args.scoring_strategy == ScoringStrategy(type=LEAST_ALLOCATED,
                                                    resources=[ResourceSpec("cpu", 1), ResourceSpec("memory", 1)])
    assert (args.cache.foreign_pods_detect, args.cache.resync_method, args.cache.informer_mode) == \
        ("All", "Autodetect", "Dedicated")
    assert args.cache_resync_period_seconds is None and not args.discard_reserved_nodes


def test_defaults_fill_weights_and_resources():
    args = decode_args({"scoringStrategy": {"type": "MostAllocated", "resources": [{"name": "nvidia.com/gpu"}]}})
    assert args.scoring_strategy.resources == [ResourceSpec("nvidia.com/gpu", 1)]
    args = decode_args({"scoringStrategy": {"type": "BalancedAllocation"}})
    assert [r.name for r in args.scoring_strategy.resources] == ["cpu", "memory"]


@pytest.mark.parametrize("raw,want", [
    ({"scoringStrategy": {"type": "MostRequested"}},
     'scoringStrategy.type: Invalid value: "MostRequested": invalid ScoringStrategyType'),
    ({"scoringStrategy": {"resources": [{"name": "cpu", "weight": 2}]}},
     'scoringStrategy.type: Invalid value: "": invalid ScoringStrategyType'),
    ({"scoringStrategy": {"type": "LeastAllocated", "weights": {}}}, 'unknown field "weights"'),
    ({"scoringStrategy": {"type": 3}}, "scoringStrategy.type: expected a string"),
    ({"cacheResyncPeriodSeconds": 5}, "the OverReserve cache is not ported"),
    ({"discardReservedNodes": True}, "the DiscardReserved cache is not ported"),
], ids=["unknown strategy", "strategy without type", "unknown field", "wrong type", "reserve cache",
        "discard reserved"])
def test_new_refuses_bad_args(raw, want):
    with pytest.raises(ValueError) as err:
        new(raw, FakeHandle())
    assert want in str(err.value)


def test_new_builds_passthrough_plugin():
    pl = new({"scoringStrategy": {"type": "MostAllocated", "resources": [{"name": "cpu", "weight": 3}]}},
             FakeHandle())
    assert pl.name() == NAME == "NodeResourceTopologyMatch"
    assert isinstance(pl.nrt_cache, Passthrough)
    assert pl.score_strategy_func is most_allocated_score_strategy
    assert pl.resource_to_weight_map == {"cpu": 3}
    assert pl.score_extensions() is None
    default = new(None, FakeHandle())
    assert default.score_strategy_func is least_allocated_score_strategy
    assert default.score_strategy_type == LEAST_ALLOCATED
    assert new({"scoringStrategy": {"type": "LeastNUMANodes"}}, FakeHandle()).score_strategy_func is None


def test_reserve_and_post_bind_change_nothing():
    pl = new(None, FakeHandle())
    pod = pod_by_resource_list({CPU: "1", MEMORY: "1Gi"})
    status = pl.reserve(CycleState(), pod, "n1")
    assert status is not None and status.code == Code.Success
    assert pl.unreserve(CycleState(), pod, "n1") is None
    assert pl.post_bind(CycleState(), pod, "n1") is None


def test_events_to_register():
    events = [(e.event.resource, e.event.action_type) for e in new(None, FakeHandle()).events_to_register()]
    assert events == [(POD, ActionType.Delete), (NODE, ActionType.Add | ActionType.UpdateNodeAllocatable),
                      ("noderesourcetopologies.v1alpha2.topology.node.k8s.io", ActionType.Add | ActionType.Update)]


def test_registered_out_of_tree():
    assert OUT_OF_TREE_PLUGINS[NAME] == "noderesourcetopology.plugin:new"
    assert new_registry_with_out_of_tree()[NAME] is new


# --- through the whole scheduler (the case command) -------------------------------------------

CLUSTER = """
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {capacity: {cpu: '16', memory: 32Gi, pods: '110'}}
---
apiVersion: topology.node.k8s.io/v1alpha2
kind: NodeResourceTopology
metadata: {name: n1}
zones:
- name: node-0
  type: Node
  resources:
  - {name: cpu, capacity: '8', allocatable: '8', available: '3'}
  - {name: memory, capacity: 16Gi, allocatable: 16Gi, available: 16Gi}
- name: node-1
  type: Node
  resources:
  - {name: cpu, capacity: '8', allocatable: '8', available: '3'}
  - {name: memory, capacity: 16Gi, allocatable: 16Gi, available: 16Gi}
attributes:
- {name: topologyManagerPolicy, value: single-numa-node}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {capacity: {cpu: '16', memory: 32Gi, pods: '110'}}
---
apiVersion: topology.node.k8s.io/v1alpha2
kind: NodeResourceTopology
metadata: {name: n2}
zones:
- name: node-0
  type: Node
  resources:
  - {name: cpu, capacity: '8', allocatable: '8', available: '6'}
  - {name: memory, capacity: 16Gi, allocatable: 16Gi, available: 16Gi}
attributes:
- {name: topologyManagerPolicy, value: single-numa-node}
---
apiVersion: v1
kind: Node
metadata: {name: n3}
status: {capacity: {cpu: '16', memory: 32Gi, pods: '110'}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - name: a
    image: pause
    resources:
      limits: {cpu: '4', memory: 1Gi}
"""

CONFIG = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled:
      - name: NodeResourceTopologyMatch
    score:
      disabled:
      - name: '*'
      enabled:
      - name: NodeResourceTopologyMatch
"""


def _case(tmp_path, cluster: str, config: str = CONFIG) -> dict:
    from ksched_edu.case import answer_case

    (tmp_path / "cluster.yaml").write_text(cluster)
    (tmp_path / "config.yaml").write_text(config)
    (tmp_path / "case.yaml").write_text("mode: score\npod: default/p\n")
    return json.loads(json.dumps(answer_case(str(tmp_path))))


def test_case_command_filters_and_scores_by_numa_zone(tmp_path):
    out = _case(tmp_path, CLUSTER)
    nrt = {n: f["plugins"][NAME] for n, f in out["filter"].items()}
    # n1: 4 CPUs fit in no single zone (3 + 3); n2: one zone of 6; n3: no NodeResourceTopology
    assert nrt == {"n1": {"code": "Unschedulable", "reasons": ["cannot align container"]},
                   "n2": {"code": "Success", "reasons": []},
                   "n3": {"code": "Success", "reasons": []}}
    # LeastAllocated on n2's zone: cpu (6-4)*100/6 = 33, memory (16-1)*100/16 = 93 -> 63; n3: no data -> 0
    assert out["scores"] == {"n2": {"plugins": {NAME: 63}, "total": 63},
                             "n3": {"plugins": {NAME: 0}, "total": 0}}
    assert out["best"] == ["n2"]


def test_case_command_reports_bad_args_as_config_error(tmp_path):
    config = CONFIG + """  pluginConfig:
  - name: NodeResourceTopologyMatch
    args:
      scoringStrategy:
        type: MostRequested
"""
    out = _case(tmp_path, CLUSTER, config)
    assert out["configError"] == (
        'initializing profiles: creating profile for scheduler name default-scheduler: initializing plugin '
        '"NodeResourceTopologyMatch": scoringStrategy.type: Invalid value: "MostRequested": '
        'invalid ScoringStrategyType')


def test_case_command_reports_a_bad_nrt(tmp_path):
    out = _case(tmp_path, CLUSTER.replace("available: '6'", "available: 'six'"))
    assert out["error"].startswith(str(tmp_path / "cluster.yaml") + ": NodeResourceTopology n2: "
                                   "zones[0].resources[0].available: quantities must match")
