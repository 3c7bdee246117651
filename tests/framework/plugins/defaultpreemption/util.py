"""Shared fixtures for the preemption tests (after the helpers of default_preemption_test.go, v1.30).

``build`` makes a real Framework with PrioritySort, DefaultBinder,
DefaultPreemption and the Filter plugins a case names, over a snapshot of the
given pods and nodes and an in-memory API server that holds the same objects
(so evictions and status patches can be checked).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional

from ksched_edu.api.types import (LabelSelector, ObjectMeta, Pod, PodDisruptionBudget, PodDisruptionBudgetSpec,
                                  PodDisruptionBudgetStatus)
from ksched_edu.config.types import KubeSchedulerProfile, Plugin, PluginConfig, Plugins, PluginSet
from ksched_edu.config.types_pluginargs import DefaultPreemptionArgs
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, Status, new_status
from ksched_edu.framework.plugins.defaultbinder import default_binder
from ksched_edu.framework.plugins.defaultpreemption import default_preemption
from ksched_edu.framework.plugins.defaultpreemption.default_preemption import DefaultPreemption
from ksched_edu.framework.plugins.interpodaffinity import plugin as interpodaffinity
from ksched_edu.framework.plugins.noderesources import fit
from ksched_edu.framework.plugins.podtopologyspread import plugin as podtopologyspread
from ksched_edu.framework.plugins.queuesort import priority_sort
from ksched_edu.framework.runtime import Framework
from ksched_edu.framework.types import PodInfo
from ksched_edu.internal.cache.snapshot import Snapshot
from ksched_edu.sim.apiserver import APIServer
from ksched_edu.trace import NULL_RECORDER, Recorder
from tests.builders import make_node
from tests.framework.plugins.noderesources.util import fit_args

NEG_PRIORITY, LOW_PRIORITY, MID_PRIORITY, HIGH_PRIORITY, VERY_HIGH_PRIORITY = -100, 0, 100, 1000, 10000

SMALL_RES = {"cpu": "100m", "memory": "100"}
MEDIUM_RES = {"cpu": "200m", "memory": "200"}
LARGE_RES = {"cpu": "300m", "memory": "300"}
VERY_LARGE_RES = {"cpu": "500m", "memory": "500"}

# Start times (seconds): upstream's epochTime .. epochTime6 are 0..6 nanoseconds after the epoch.
EPOCH_TIME, EPOCH_TIME1, EPOCH_TIME2, EPOCH_TIME3, EPOCH_TIME4, EPOCH_TIME5, EPOCH_TIME6 = (
    0.0, 1e-9, 2e-9, 3e-9, 4e-9, 5e-9, 6e-9)

LABEL_KEY_IS_VIOLATING_PDB = "test.kubernetes.io/is-violating-pdb"
LABEL_VALUE_VIOLATING_PDB = "violating"
LABEL_VALUE_NON_VIOLATING_PDB = "non-violating"

MAX_INT32 = 2**31 - 1


class ErrorOnLabelPlugin:
    """Upstream TestPlugin: AddPod/RemovePod fail on nodes labelled error=true."""

    def name(self) -> str:
        return "test-plugin"

    def pre_filter(self, state, pod):
        return None, None

    def pre_filter_extensions(self):
        return self

    def add_pod(self, state, pod_to_schedule, pod_info_to_add, node_info) -> Optional[Status]:
        if node_info.node().labels.get("error") == "true":
            return Status.as_status(f"failed to add pod: {pod_to_schedule.name}")
        return None

    def remove_pod(self, state, pod_to_schedule, pod_info_to_remove, node_info) -> Optional[Status]:
        if node_info.node().labels.get("error") == "true":
            return Status.as_status(f"failed to remove pod: {pod_to_schedule.name}")
        return None

    def filter(self, state, pod, node_info) -> Optional[Status]:
        return None


@dataclass
class FakeFilterPlugin:
    """Upstream tf.FakeFilterPlugin: counts its calls and returns a code per node."""

    failed_node_return_code_map: dict[str, Code] = field(default_factory=dict)
    num_filter_called: int = 0

    def name(self) -> str:
        return "FakeFilter"

    def filter(self, state, pod, node_info) -> Optional[Status]:
        self.num_filter_called += 1
        code = self.failed_node_return_code_map.get(node_info.name, Code.Success)
        if code == Code.Success:
            return None
        return new_status(code, f"injecting failure for pod {pod.name}")


class TrueFilterPlugin:
    def name(self) -> str:
        return "TrueFilter"

    def filter(self, state, pod, node_info):
        return None


class FalseFilterPlugin:
    def name(self) -> str:
        return "FalseFilter"

    def filter(self, state, pod, node_info):
        return new_status(Code.Unschedulable, "injecting failure for pod " + pod.name)


class MatchFilterPlugin:
    """Upstream tf.MatchFilterPlugin: the pod fits only the node named as the pod."""

    def name(self) -> str:
        return "MatchFilter"

    def filter(self, state, pod, node_info):
        if pod.name == node_info.name:
            return None
        return new_status(Code.Unschedulable, "injecting failure for pod " + pod.name)


@dataclass
class PluginSpec:
    """A plugin to register: its name, factory and the extension points it is enabled at."""

    name: str
    factory: Callable[[Any, Any], Any]
    points: tuple[str, ...]


def _fit_factory(args: Any, handle: Any) -> Any:
    return fit.new(fit_args(), handle)


NODE_RESOURCES_FIT = PluginSpec("NodeResourcesFit", _fit_factory, ("pre_filter", "filter"))
INTER_POD_AFFINITY = PluginSpec("InterPodAffinity", interpodaffinity.new, ("pre_filter", "filter"))
POD_TOPOLOGY_SPREAD = PluginSpec("PodTopologySpread", podtopologyspread.new, ("pre_filter", "filter"))
TEST_PLUGIN = PluginSpec("test-plugin", lambda a, h: ErrorOnLabelPlugin(), ("pre_filter",))


def plugin_spec(plugin: Any, points: tuple[str, ...] = ("filter",)) -> PluginSpec:
    return PluginSpec(plugin.name(), lambda a, h, p=plugin: p, points)


@dataclass
class FakeNominator:
    nominated: dict[str, list[PodInfo]] = field(default_factory=dict)

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return list(self.nominated.get(node_name, []))


@dataclass
class Env:
    fwk: Framework
    client: APIServer
    snapshot: Snapshot
    plugin: DefaultPreemption

    def state_for(self, pod: Pod) -> CycleState:
        """A CycleState filled by the PreFilter plugins, as the scheduling cycle leaves it."""
        state = CycleState()
        _, status = self.fwk.run_pre_filter_plugins(state, pod)
        assert status is None or status.is_success(), status
        return state


def build(pods: Iterable[Pod], nodes: Iterable[Any], plugins: Iterable[PluginSpec] = (NODE_RESOURCES_FIT,), *,
          pending: Iterable[Pod] = (), pdbs: Iterable[PodDisruptionBudget] = (),
          args: Optional[DefaultPreemptionArgs] = None, nominator: Any = None,
          recorder: Recorder = NULL_RECORDER, client: Optional[APIServer] = None) -> Env:
    pods, nodes, plugins = list(pods), list(nodes), list(plugins)
    client = client or APIServer()
    for obj in [*nodes, *pods, *pending, *pdbs]:
        client.create(copy.deepcopy(obj))
    snapshot = Snapshot.from_objects(pods, nodes)
    registry: dict[str, Any] = {p.name: p.factory for p in plugins}
    registry["PrioritySort"] = priority_sort.new
    registry["DefaultBinder"] = default_binder.new
    registry["DefaultPreemption"] = default_preemption.new
    cfg = Plugins(queue_sort=PluginSet([Plugin("PrioritySort")]), bind=PluginSet([Plugin("DefaultBinder")]),
                  post_filter=PluginSet([Plugin("DefaultPreemption")]))
    for p in plugins:
        for point in p.points:
            getattr(cfg, point).enabled.append(Plugin(p.name))
    profile = KubeSchedulerProfile("default-scheduler", None, cfg, [PluginConfig("DefaultPreemption", args)])
    fwk = Framework(registry, profile, snapshot_lister=snapshot, client=client, object_lister=client,
                    nominator=nominator, recorder=recorder)
    return Env(fwk, client, snapshot, fwk.plugins_map["DefaultPreemption"])


def make_nodes(names: Iterable[str], res: Optional[dict] = None) -> list[Any]:
    """Nodes named "host/zone/region" get the labels hostname, zone and region (as upstream's tests)."""
    out = []
    for full in names:
        parts = full.split("/")
        w = make_node().name(parts[0]).capacity(res if res is not None else VERY_LARGE_RES)
        for key, value in zip(("hostname", "zone", "region"), parts):
            w.label(key, value)
        out.append(w.obj())
    return out


def make_pdb(name: str = "", namespace: str = "", match_labels: Optional[dict[str, str]] = None,
             disruptions_allowed: int = 0, disrupted_pods: Optional[dict[str, float]] = None) -> PodDisruptionBudget:
    selector = LabelSelector(match_labels=dict(match_labels)) if match_labels is not None else None
    return PodDisruptionBudget(metadata=ObjectMeta(name=name, namespace=namespace),
                               spec=PodDisruptionBudgetSpec(selector=selector),
                               status=PodDisruptionBudgetStatus(disruptions_allowed=disruptions_allowed,
                                                                disrupted_pods=dict(disrupted_pods or {})))


class FixedOffsets:
    """Stands in for the plugin's random source: randrange returns the given offsets in turn."""

    def __init__(self, *offsets: int) -> None:
        self.offsets = list(offsets)

    def randrange(self, n: int) -> int:
        return self.offsets.pop(0) % n if self.offsets else 0
