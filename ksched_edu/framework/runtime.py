"""Port of pkg/scheduler/framework/runtime/framework.go and registry.go (v1.30).

The one mechanical runtime behind every profile: it builds the profile's
plugins from the registry with their args, sorts them into per-extension-point
lists (expanding ``multiPoint`` exactly as upstream), and runs each point the
same way: loop over the plugins, attach the plugin name to a failure, turn an
unexpected code into Error, and stop where upstream stops.

Deviations:
- No goroutines: Score runs node by node, then NormalizeScore plugin by
  plugin, then the weights; the result is the same as upstream's parallel
  loops (each writes its own slot).
- Permit waits are kept in ``waiting_pods``; the binding cycle (sim) resolves
  them on the virtual clock instead of blocking on a channel.
- Every call is reported to a trace recorder when one is enabled.
- Score values are kept as plain ints per plugin (NodeScore records are made for a
  plugin's NormalizeScore only), and a node's weighted scores are a PluginScores, which
  makes PluginScore records when read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

from .. import goint, metrics
from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from ..api.types import Pod
from ..trace import NULL_RECORDER, CycleContext, CycleStateEvent, PluginEvent, Recorder
from .cycle_state import CycleState
from .interface import (MAX_NODE_SCORE, MAX_TOTAL_SCORE, MIN_NODE_SCORE, BindPlugin, Code, EnqueueExtensions,
                        FilterPlugin, NodePluginScores, NodeScore, NodeToStatusMap, NominatingMode, PermitPlugin,
                        PluginScores,
                        PostBindPlugin, PostFilterPlugin, PostFilterResult, PreBindPlugin, PreEnqueuePlugin,
                        PreFilterPlugin, PreFilterResult, PreScorePlugin, QueueSortPlugin, ReservePlugin,
                        ScorePlugin, Status, code_of, is_success, merge_pre_filter_results, new_status)
from .types import ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo, PodInfo

# A factory builds a plugin from its args and the framework handle (upstream PluginFactory).
PluginFactory = Callable[[Any, "Framework"], Any]
Registry = dict[str, PluginFactory]

_SUCCESS = Code.Success

# Permit waits longer than this are cut to it (upstream maxTimeout).
MAX_PERMIT_TIMEOUT = 15 * 60.0


@plumbing("error type for a profile that fails to build")
class FrameworkError(Exception):
    """Building a profile failed; ``str()`` is upstream's error text."""


@ports("pkg/scheduler/framework/runtime/registry.go", "(Registry).Merge", 94, 101)
def merge_registries(a: Registry, b: Registry) -> Registry:
    """Upstream Registry.Merge: an out-of-tree registry may not shadow an in-tree name."""
    out = dict(a)
    for name, factory in b.items():
        if name in out:
            raise FrameworkError(f"a plugin named {name} already exists")
        out[name] = factory
    return out


# (config attribute, framework list, upstream interface name) in upstream getExtensionPoints order.
_EXTENSION_POINTS: list[tuple[str, str, type, str]] = [
    ("pre_filter", "pre_filter_plugins", PreFilterPlugin, "PreFilterPlugin"),
    ("filter", "filter_plugins", FilterPlugin, "FilterPlugin"),
    ("post_filter", "post_filter_plugins", PostFilterPlugin, "PostFilterPlugin"),
    ("reserve", "reserve_plugins", ReservePlugin, "ReservePlugin"),
    ("pre_score", "pre_score_plugins", PreScorePlugin, "PreScorePlugin"),
    ("score", "score_plugins", ScorePlugin, "ScorePlugin"),
    ("pre_bind", "pre_bind_plugins", PreBindPlugin, "PreBindPlugin"),
    ("bind", "bind_plugins", BindPlugin, "BindPlugin"),
    ("post_bind", "post_bind_plugins", PostBindPlugin, "PostBindPlugin"),
    ("permit", "permit_plugins", PermitPlugin, "PermitPlugin"),
    ("pre_enqueue", "pre_enqueue_plugins", PreEnqueuePlugin, "PreEnqueuePlugin"),
    ("queue_sort", "queue_sort_plugins", QueueSortPlugin, "QueueSortPlugin"),
]


@plumbing("Python stand-in for a Go interface type assertion")
def implements(plugin: Any, protocol: type) -> bool:
    """Whether a plugin implements an extension point (upstream's reflect Implements)."""
    return isinstance(plugin, protocol)


@ports("pkg/scheduler/framework/runtime/waiting_pods_map.go", "waitingPod", 73, 78)
@dataclass
class WaitingPod:
    """A pod held at Permit (upstream waiting_pods_map.go): the plugins still to allow it."""

    pod: Pod
    pending_plugins: dict[str, float]  # plugin -> deadline on the virtual clock
    since: float = 0.0  # when the pod started to wait
    status: Optional[Status] = None  # set once allowed by all or rejected by one
    timed_out: bool = False  # the rejection came from a plugin's timer running out
    # upstream: the binding goroutine blocks on a channel; here it is called back.
    on_resolve: Optional[Callable[[], None]] = None

    @ports("pkg/scheduler/framework/runtime/waiting_pods_map.go", "(*waitingPod).GetPendingPlugins", 116, 125)
    def get_pending_plugins(self) -> list[str]:
        return sorted(self.pending_plugins)

    @ports("pkg/scheduler/framework/runtime/waiting_pods_map.go", "(*waitingPod).Allow", 130, 149)
    def allow(self, plugin_name: str) -> None:
        self.pending_plugins.pop(plugin_name, None)
        if not self.pending_plugins and self.status is None:
            self._resolve(new_status(Code.Success))

    @ports("pkg/scheduler/framework/runtime/waiting_pods_map.go", "(*waitingPod).Reject", 152, 165)
    def reject(self, plugin_name: str, msg: str) -> None:
        if self.status is None:
            self._resolve(new_status(Code.Unschedulable, msg).with_plugin(plugin_name))

    def _resolve(self, status: Status) -> None:
        self.status = status
        if self.on_resolve is not None:
            self.on_resolve()


@ports("pkg/scheduler/framework/runtime/waiting_pods_map.go", "newWaitingPod", 83, 108)
def new_waiting_pod(pod: Pod, plugins_max_wait_time: dict[str, float], now: float) -> WaitingPod:
    """A pod waiting at Permit, with a deadline per plugin that asked it to wait.

    upstream: one time.AfterFunc per plugin rejects the pod when its wait runs out;
    here each deadline is a time on the virtual clock, which the binding cycle watches.
    """
    return WaitingPod(pod, {name: now + wait for name, wait in plugins_max_wait_time.items()}, since=now)


@ports("pkg/scheduler/framework/runtime/framework.go", "defaultEnqueueExtension", 608, 610)
@dataclass
class _DefaultEnqueueExtension:
    """A plugin that registers no events is woken by every event (upstream defaultEnqueueExtension)."""

    plugin_name: str

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*defaultEnqueueExtension).Name", 612, 612)
    def name(self) -> str:
        return self.plugin_name

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*defaultEnqueueExtension).EventsToRegister", 613, 619)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        return unroll_wildcard_resource()


@ports("pkg/scheduler/framework/types.go", "UnrollWildCardResource", 177, 193)
def unroll_wildcard_resource() -> list[ClusterEventWithHint]:
    from . import types as t

    kinds = [t.POD, t.NODE, t.PERSISTENT_VOLUME, t.PERSISTENT_VOLUME_CLAIM, t.CSI_NODE, t.CSI_DRIVER,
             t.CSI_STORAGE_CAPACITY, t.STORAGE_CLASS, "PodSchedulingContext", "ResourceClaim", "ResourceClass",
             "ResourceClaimParameters", "ResourceClassParameters"]
    return [ClusterEventWithHint(ClusterEvent(k, ActionType.All)) for k in kinds]


@ports("pkg/scheduler/framework/runtime/framework.go", "frameworkImpl", 52, 88)
class Framework:
    """One profile's plugins and the loops that run them (upstream frameworkImpl)."""

    @ports("pkg/scheduler/framework/runtime/framework.go", "NewFramework", 242, 376)
    def __init__(self, registry: Registry, profile: Any, *, snapshot_lister: Any = None, client: Any = None,
                 object_lister: Any = None, nominator: Any = None, recorder: Recorder = NULL_RECORDER,
                 parallelism: int = 16) -> None:
        self.registry = registry
        self.profile_name: str = profile.scheduler_name
        self.percentage_of_nodes_to_score: Optional[int] = profile.percentage_of_nodes_to_score
        self._snapshot_lister = snapshot_lister
        self._client = client
        self._object_lister = object_lister
        self.nominator = nominator
        self.recorder = recorder
        self.ctx = CycleContext(profile=self.profile_name)
        self.parallelism = parallelism
        self.score_plugin_weight: dict[str, int] = {}
        self.waiting_pods: dict[str, WaitingPod] = {}
        self.plugins_map: dict[str, Any] = {}
        self.enqueue_extensions: list[Any] = []
        for _, attr, _, _ in _EXTENSION_POINTS:
            setattr(self, attr, [])
        self._build(profile)

    # --- building ---------------------------------------------------------------

    @ports("pkg/scheduler/framework/runtime/framework.go", "NewFramework", 242, 376)
    def _build(self, profile: Any) -> None:
        plugins = profile.plugins
        needed = self._plugins_needed(plugins)
        plugin_config: dict[str, Any] = {}
        for pc in profile.plugin_config:
            if pc.name in plugin_config:
                raise FrameworkError(f"repeated config for plugin {pc.name}")
            plugin_config[pc.name] = pc.args
        # upstream: Go ranges over the registry map (random order); we use registry order.
        for name, factory in self.registry.items():
            if name not in needed:
                continue
            try:
                plugin = factory(plugin_config.get(name), self)
            except FrameworkError:
                raise
            except ValueError as err:
                raise FrameworkError(f"initializing plugin \"{name}\": {err}") from err
            self.plugins_map[name] = plugin
            self._fill_enqueue_extensions(plugin)

        for cfg_attr, attr, proto, iface in _EXTENSION_POINTS:
            self._update_plugin_list(attr, proto, iface, getattr(plugins, cfg_attr))
        if plugins.multi_point.enabled:
            self._expand_multi_point_plugins(plugins)

        if len(self.queue_sort_plugins) != 1:
            raise FrameworkError(
                f"only one queue sort plugin required for profile with scheduler name \"{self.profile_name}\","
                f" but got {len(self.queue_sort_plugins)}")
        if not self.bind_plugins:
            raise FrameworkError(
                f"at least one bind plugin is needed for profile with scheduler name \"{self.profile_name}\"")
        self._get_score_weights(list(plugins.score.enabled) + list(plugins.multi_point.enabled))
        for pl in self.score_plugins:
            if self.score_plugin_weight.get(pl.name(), 0) == 0:
                raise FrameworkError(f"score plugin \"{pl.name()}\" is not configured with weight")

    @staticmethod
    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).pluginsNeeded", 1601, 1621)
    def _plugins_needed(plugins: Any) -> set[str]:
        needed: set[str] = set()
        for cfg_attr, _, _, _ in _EXTENSION_POINTS:
            needed.update(p.name for p in getattr(plugins, cfg_attr).enabled)
        needed.update(p.name for p in plugins.multi_point.enabled)
        return needed

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).fillEnqueueExtensions", 589, 605)
    def _fill_enqueue_extensions(self, plugin: Any) -> None:
        kinds = (PreEnqueuePlugin, PreFilterPlugin, FilterPlugin, ReservePlugin, PermitPlugin)
        if not any(implements(plugin, k) for k in kinds):
            return
        if implements(plugin, EnqueueExtensions):
            self.enqueue_extensions.append(plugin)
        else:
            self.enqueue_extensions.append(_DefaultEnqueueExtension(plugin.name()))

    @ports("pkg/scheduler/framework/runtime/framework.go", "updatePluginList", 621, 645)
    def _update_plugin_list(self, attr: str, proto: type, iface: str, plugin_set: Any) -> None:
        seen: set[str] = set()
        for ep in plugin_set.enabled:
            plugin = self.plugins_map.get(ep.name)
            if plugin is None:
                raise FrameworkError(f"{iface} \"{ep.name}\" does not exist")
            if not implements(plugin, proto):
                raise FrameworkError(f"plugin \"{ep.name}\" does not extend {iface} plugin")
            if ep.name in seen:
                raise FrameworkError(f"plugin \"{ep.name}\" already registered as \"{iface}\"")
            seen.add(ep.name)
            getattr(self, attr).append(plugin)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).expandMultiPointPlugins", 492, 577)
    def _expand_multi_point_plugins(self, plugins: Any) -> None:
        """Upstream expandMultiPointPlugins: per point, overrides first, then multiPoint, then the rest."""
        for cfg_attr, attr, proto, iface in _EXTENSION_POINTS:
            plugin_set = getattr(plugins, cfg_attr)
            enabled = [p.name for p in plugin_set.enabled]
            disabled = {p.name for p in plugin_set.disabled}
            if "*" in disabled:
                continue
            multi: list[str] = []
            overrides: list[str] = []
            for ep in plugins.multi_point.enabled:
                plugin = self.plugins_map.get(ep.name)
                if plugin is None:
                    raise FrameworkError(f"{iface} \"{ep.name}\" does not exist")
                if not implements(plugin, proto) or ep.name in disabled:
                    continue
                if ep.name in enabled:
                    if ep.name not in overrides:
                        overrides.append(ep.name)
                    continue
                if ep.name in multi:
                    raise FrameworkError(f"plugin \"{ep.name}\" already registered as \"{iface}\"")
                multi.append(ep.name)
            rest = [n for n in enabled if n not in overrides]
            order = [n for n in enabled if n in overrides] + multi + rest
            setattr(self, attr, [self.plugins_map[n] for n in order])

    @ports("pkg/scheduler/framework/runtime/framework.go", "getScoreWeights", 430, 459)
    def _get_score_weights(self, plugin_list: list[Any]) -> None:
        total = 0
        for ep in plugin_list:
            plugin = self.plugins_map.get(ep.name)
            if plugin is None or not implements(plugin, ScorePlugin):
                continue
            if ep.name in self.score_plugin_weight:
                continue
            # A weight of 0 (or unset) means 1; plugins are disabled explicitly, not by weight.
            weight = int(ep.weight or 0) or 1
            self.score_plugin_weight[ep.name] = weight
            # upstream: int64 arithmetic, and nothing refuses a negative weight. A negative
            # weight makes the total negative, MaxTotalScore - total then wraps to a large
            # negative number, and the *next* Score plugin visited fails this check.
            # (weight is an int32, so weight * MaxNodeScore itself always fits.)
            if weight * MAX_NODE_SCORE > goint.wrap64(MAX_TOTAL_SCORE - total):
                raise FrameworkError("total score of Score plugins could overflow")
            total = goint.wrap64(total + weight * MAX_NODE_SCORE)

    # --- Handle -----------------------------------------------------------------

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).SnapshotSharedLister", 1514, 1516)
    def snapshot_shared_lister(self) -> Any:
        return self._snapshot_lister

    @ports("pkg/scheduler/framework/runtime/framework.go", "WithSnapshotSharedLister", 180, 184)
    def set_snapshot_shared_lister(self, lister: Any) -> None:
        self._snapshot_lister = lister

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).SharedInformerFactory", 1597, 1599)
    def object_lister(self) -> Any:
        return self._object_lister

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).ClientSet", 1582, 1584)
    def client(self) -> Any:
        return self._client

    @ports("pkg/scheduler/framework/interface.go", "PodNominator", 780, 790)
    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        if self.nominator is None:
            return []
        return self.nominator.nominated_pods_for_node(node_name)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).QueueSortFunc", 658, 671)
    def queue_sort_func(self) -> Callable[[Any, Any], bool]:
        return self.queue_sort_plugins[0].less

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).HasFilterPlugins", 1542, 1544)
    def has_filter_plugins(self) -> bool:
        return bool(self.filter_plugins)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).HasPostFilterPlugins", 1547, 1549)
    def has_post_filter_plugins(self) -> bool:
        return bool(self.post_filter_plugins)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).HasScorePlugins", 1552, 1554)
    def has_score_plugins(self) -> bool:
        return bool(self.score_plugins)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).ListPlugins", 1558, 1579)
    def list_plugins(self) -> dict[str, list[tuple[str, int]]]:
        """Each extension point's plugins in run order, with score weights (upstream ListPlugins)."""
        out: dict[str, list[tuple[str, int]]] = {}
        for cfg_attr, attr, _, _ in _EXTENSION_POINTS:
            names = [p.name() for p in getattr(self, attr)]
            if names:
                out[cfg_attr] = [(n, self.score_plugin_weight.get(n, 0) if cfg_attr == "score" else 0)
                                 for n in names]
        return out

    # --- tracing ----------------------------------------------------------------

    def _trace(self, point: str, plugin: str, status: Optional[Status], node: str = "", pod: Optional[Pod] = None,
               **scores: Optional[int]) -> None:
        if not self.recorder.enabled:
            return
        c = self.ctx
        self.recorder.record(PluginEvent(
            time=c.time, cycle=c.cycle, pod=pod.key if pod is not None else c.pod, profile=self.profile_name,
            point=point, plugin=plugin, node=node, code=str(code_of(status)),
            reasons=tuple(status.get_reasons()) if status is not None else (), dry_run=c.dry_run, **scores))

    def _trace_state(self, point: str, state: CycleState) -> None:
        if not self.recorder.enabled:
            return
        c = self.ctx
        entries = tuple((key, _summary(value)) for key, value in state.items())
        self.recorder.record(CycleStateEvent(c.time, c.cycle, c.pod, self.profile_name, point, entries))

    @plumbing("times extension points when the recorder asks (upstream: the metrics package)")
    def extension_point_timer(self) -> Optional[Any]:
        """The recorder when it asks for extension-point times (ExtensionPointTimer), else None.

        upstream: every Run*Plugins method observes its wall time in the
        framework_extension_point_duration_seconds histogram; here ``@metrics.observed``
        times PreFilter, Filter, PreScore, Score and schedulePod, only for such a recorder.
        """
        return self.recorder if getattr(self.recorder, "times_extension_points", False) else None

    # --- the extension points ------------------------------------------------------

    @ports("pkg/scheduler/internal/queue/scheduling_queue.go", "(*PriorityQueue).runPreEnqueuePlugins", 520, 545)
    def run_pre_enqueue_plugins(self, pod: Pod) -> Optional[Status]:
        for pl in self.pre_enqueue_plugins:
            s = pl.pre_enqueue(pod)
            self._trace("PreEnqueue", pl.name(), s, pod=pod)
            if not is_success(s):
                return s.with_plugin(pl.name())
        return None

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunPreFilterPlugins", 679, 736)
    @metrics.observed("PreFilter")
    def run_pre_filter_plugins(self, state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        skip_plugins: set[str] = set()
        try:
            result: Optional[PreFilterResult] = None
            plugins_with_nodes: list[str] = []
            return_status: Optional[Status] = None
            for pl in self.pre_filter_plugins:
                r, s = self.run_pre_filter_plugin(pl, state, pod)
                if s is not None and s.is_skip():
                    skip_plugins.add(pl.name())
                    continue
                if not is_success(s):
                    s.with_plugin(pl.name())
                    if s.code == Code.UnschedulableAndUnresolvable:
                        # No preemption in this cycle, so no need to run the other PreFilters.
                        return None, s
                    if s.code == Code.Unschedulable:
                        # Preemption comes later in this cycle, so every PreFilter runs.
                        return_status = s
                        continue
                    return None, Status.as_status(
                        f"running PreFilter plugin \"{pl.name()}\": {s.message()}").with_plugin(pl.name())
                if r is not None and not r.all_nodes():
                    plugins_with_nodes.append(pl.name())
                result = merge_pre_filter_results(result, r)
                if result is not None and not result.all_nodes() and not result.node_names:
                    msg = f"node(s) didn't satisfy plugin(s) [{' '.join(plugins_with_nodes)}] simultaneously"
                    if len(plugins_with_nodes) == 1:
                        msg = f"node(s) didn't satisfy plugin {plugins_with_nodes[0]}"
                    status = new_status(Code.UnschedulableAndUnresolvable, msg)
                    self._trace("PreFilter", "", status)  # the framework's own verdict, under plugin ""
                    return result, status
            return result, return_status
        finally:
            # upstream: a deferred assignment, so it happens on every return path.
            state.skip_filter_plugins = skip_plugins
            self._trace_state("PreFilter", state)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runPreFilterPlugin", 738, 746)
    def run_pre_filter_plugin(self, pl: Any, state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        if not self.recorder.enabled:
            return pl.pre_filter(state, pod)
        result, status = pl.pre_filter(state, pod)
        self._trace("PreFilter", pl.name(), status)  # upstream: the plugin's duration metric
        return result, status

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunPreFilterExtensionAddPod", 751, 781)
    def run_pre_filter_extension_add_pod(self, state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfo,
                                         node_info: NodeInfo) -> Optional[Status]:
        return self._run_pre_filter_extension("AddPod", state, pod_to_schedule, pod_info_to_add, node_info)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunPreFilterExtensionRemovePod", 796, 826)
    def run_pre_filter_extension_remove_pod(self, state: CycleState, pod_to_schedule: Pod,
                                            pod_info_to_remove: PodInfo, node_info: NodeInfo) -> Optional[Status]:
        return self._run_pre_filter_extension("RemovePod", state, pod_to_schedule, pod_info_to_remove, node_info)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunPreFilterExtensionAddPod", 751, 781)
    def _run_pre_filter_extension(self, which: str, state: CycleState, pod: Pod, info: PodInfo,
                                  node_info: NodeInfo) -> Optional[Status]:
        for pl in self.pre_filter_plugins:
            ext = pl.pre_filter_extensions()
            if ext is None or pl.name() in state.skip_filter_plugins:
                continue
            fn = ext.add_pod if which == "AddPod" else ext.remove_pod
            s = fn(state, pod, info, node_info)
            if not is_success(s):
                return Status.as_status(f"running {which} on PreFilter plugin \"{pl.name()}\": {s.message()}")
        return None

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunFilterPlugins", 842, 875)
    def run_filter_plugins(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        for pl in self.filter_plugins:
            if pl.name() in state.skip_filter_plugins:
                continue
            status = self.run_filter_plugin(pl, state, pod, node_info)
            if status is not None and not status.is_success():
                if not status.is_rejected():
                    # Filter plugins are not supposed to return anything but Success or Unschedulable.
                    status = Status.as_status(f"running \"{pl.name()}\" filter plugin: {status.message()}")
                status.with_plugin(pl.name())
                return status
        return None

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runFilterPlugin", 877, 885)
    def run_filter_plugin(self, pl: Any, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        if not self.recorder.enabled:
            return pl.filter(state, pod, node_info)
        status = pl.filter(state, pod, node_info)
        self._trace("Filter", pl.name(), status, node=node_info.name)  # upstream: the plugin's duration metric
        return status

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunFilterPluginsWithNominatedPods", 954, 999)
    def run_filter_plugins_with_nominated_pods(self, state: CycleState, pod: Pod,
                                               info: NodeInfo) -> Optional[Status]:
        """Upstream RunFilterPluginsWithNominatedPods: filter twice when nominated pods exist.

        The first pass adds the nominated pods of equal or higher priority to the node (so the
        pod does not take room they were promised); the second runs without them (so a
        nominated pod's affinity cannot be what makes this pod fit).
        """
        if self.nominator is None or not self.nominator.nominated_pods_for_node(info.name):
            # upstream: addNominatedPods adds nothing, so the first pass is the only one.
            return self.run_filter_plugins(state, pod, info)
        status: Optional[Status] = None
        pods_added = False
        for i in range(2):
            state_to_use, info_to_use = state, info
            if i == 0:
                try:
                    pods_added, state_to_use, info_to_use = self._add_nominated_pods(pod, state, info)
                except _AddPodError as err:
                    return Status.as_status(str(err))
            elif not pods_added or not is_success(status):
                break
            status = self.run_filter_plugins(state_to_use, pod, info_to_use)
            if not is_success(status) and not status.is_rejected():
                return status
        return status

    @ports("pkg/scheduler/framework/runtime/framework.go", "addNominatedPods", 1004, 1027)
    def _add_nominated_pods(self, pod: Pod, state: CycleState,
                            node_info: NodeInfo) -> tuple[bool, CycleState, NodeInfo]:
        nominated = self.nominated_pods_for_node(node_info.name) if self.nominator is not None else None
        if not nominated:
            return False, state, node_info
        info_out = node_info.snapshot()
        state_out = state.clone()
        added = False
        for pi in nominated:
            if pod_priority(pi.pod) >= pod_priority(pod) and pi.pod.uid != pod.uid:
                info_out.add_pod_info(pi)
                s = self.run_pre_filter_extension_add_pod(state_out, pod, pi, info_out)
                if not is_success(s):
                    raise _AddPodError(s.message())
                added = True
        return added, state_out, info_out

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunPostFilterPlugins", 889, 932)
    def run_post_filter_plugins(self, state: CycleState, pod: Pod,
                                filtered_node_status_map: NodeToStatusMap) -> tuple[Optional[PostFilterResult], Status]:
        # The last meaningful (non-noop) PostFilterResult.
        result: Optional[PostFilterResult] = None
        reasons: list[str] = []
        rejector_plugin = ""
        for pl in self.post_filter_plugins:
            r, s = self.run_post_filter_plugin(pl, state, pod, filtered_node_status_map)
            if is_success(s):
                return r, s  # type: ignore[return-value]
            elif s.code == Code.UnschedulableAndUnresolvable:
                return r, s.with_plugin(pl.name())
            elif not s.is_rejected():
                return None, Status.as_status(s.message()).with_plugin(pl.name())
            elif r is not None and r.mode() != NominatingMode.ModeNoop:
                result = r
            reasons.extend(s.get_reasons())
            if not rejector_plugin:
                rejector_plugin = pl.name()
        return result, new_status(Code.Unschedulable, *reasons).with_plugin(rejector_plugin)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runPostFilterPlugin", 934, 942)
    def run_post_filter_plugin(self, pl: Any, state: CycleState, pod: Pod,
                               filtered_node_status_map: NodeToStatusMap) -> tuple[Optional[PostFilterResult], Status]:
        if not self.recorder.enabled:
            return pl.post_filter(state, pod, filtered_node_status_map)
        r, s = pl.post_filter(state, pod, filtered_node_status_map)
        self._trace("PostFilter", pl.name(), s)  # upstream: the plugin's duration metric
        return r, s

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunPreScorePlugins", 1033, 1066)
    @metrics.observed("PreScore", nodes_arg=3)
    def run_pre_score_plugins(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Optional[Status]:
        skip_plugins: set[str] = set()
        try:
            for pl in self.pre_score_plugins:
                status = self.run_pre_score_plugin(pl, state, pod, nodes)
                if status is not None and status.is_skip():
                    skip_plugins.add(pl.name())
                    continue
                if not is_success(status):
                    return Status.as_status(f"running PreScore plugin \"{pl.name()}\": {status.message()}")
            return None
        finally:
            # upstream: a deferred assignment, so it happens on every return path.
            state.skip_score_plugins = skip_plugins
            self._trace_state("PreScore", state)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runPreScorePlugin", 1068, 1076)
    def run_pre_score_plugin(self, pl: Any, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Optional[Status]:
        if not self.recorder.enabled:
            return pl.pre_score(state, pod, nodes)
        status = pl.pre_score(state, pod, nodes)
        self._trace("PreScore", pl.name(), status)  # upstream: the plugin's duration metric
        return status

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunScorePlugins", 1082, 1188)
    @metrics.observed("Score", nodes_arg=3)
    def run_score_plugins(self, state: CycleState, pod: Pod,
                          nodes: list[NodeInfo]) -> tuple[list[NodePluginScores], Optional[Status]]:
        all_node_plugin_scores: list[NodePluginScores] = []
        plugins = [pl for pl in self.score_plugins if pl.name() not in state.skip_score_plugins]
        # upstream: a NodeScoreList per plugin, NodeScore{Name, Score} per node. Here each list
        # holds the scores alone, in node order: the names are those of ``nodes``.
        plugin_to_node_scores: dict[str, list[int]] = {pl.name(): [0] * len(nodes) for pl in plugins}

        # Run Score method for each node.
        # upstream: Parallelizer().Until over the nodes; each node's scores land in their own slot.
        for index, node_info in enumerate(nodes):
            node_name = node_info.name
            for pl in plugins:
                s, status = self.run_score_plugin(pl, state, pod, node_name)
                if status is not None and not status.is_success():
                    return [], Status.as_status(
                        f"running Score plugins: plugin \"{pl.name()}\" failed with: {status.message()}")
                plugin_to_node_scores[pl.name()][index] = s
        raw = self._scores_for_the_trace(plugin_to_node_scores)

        # Run NormalizeScore method for each ScorePlugin.
        for pl in plugins:
            if pl.score_extensions() is None:
                continue
            node_score_list = plugin_to_node_scores[pl.name()]
            status = self.run_score_extension(pl, state, pod, nodes, node_score_list)
            if not is_success(status):
                return [], Status.as_status(
                    f"running Normalize on Score plugins: plugin \"{pl.name()}\" failed with: {status.message()}")

        # Apply score weight for each ScorePlugin, and then build allNodePluginScores.
        for index, node_info in enumerate(nodes):
            node_plugin_scores = NodePluginScores(node_info.name, PluginScores(), 0)
            for pl in plugins:
                name = pl.name()
                weight = self.score_plugin_weight[name]
                score = plugin_to_node_scores[name][index]
                if score > MAX_NODE_SCORE or score < MIN_NODE_SCORE:
                    self._trace_scores(raw, plugin_to_node_scores, all_node_plugin_scores + [node_plugin_scores])
                    return [], Status.as_status(
                        f"applying score defaultWeights on Score plugins: plugin \"{name}\" returns an invalid "
                        f"score {score}, it should in the range of [{MIN_NODE_SCORE}, {MAX_NODE_SCORE}] after "
                        "normalizing")
                weighted_score = score * weight
                node_plugin_scores.scores.append_score(name, weighted_score)  # PluginScore{Name, Score}
                node_plugin_scores.total_score += weighted_score
            all_node_plugin_scores.append(node_plugin_scores)
        self._trace_scores(raw, plugin_to_node_scores, all_node_plugin_scores)
        return all_node_plugin_scores, None

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runScorePlugin", 1190, 1198)
    def run_score_plugin(self, pl: ScorePlugin, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        s, status = pl.score(state, pod, node_name)
        if type(s) is not int:  # a Python plugin's float: Go's int64 conversion truncates it
            s = int(s)
        return s, status

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runScoreExtension", 1200, 1208)
    def run_score_extension(self, pl: ScorePlugin, state: CycleState, pod: Pod, nodes: list[NodeInfo],
                            node_score_list: list[int]) -> Optional[Status]:
        """NormalizeScore on the plugin's NodeScore records, written back to its score list."""
        records = list(map(NodeScore, [n.name for n in nodes], node_score_list))
        status = pl.score_extensions().normalize_score(state, pod, records)
        node_score_list[:] = [ns.score for ns in records]
        return status

    def _scores_for_the_trace(self, plugin_to_node_scores: dict[str, list[int]]) -> Optional[dict[str, list[int]]]:
        """Each plugin's raw scores, before NormalizeScore rewrites them; None when not tracing."""
        if not self.recorder.enabled:
            return None
        return {name: list(scores) for name, scores in plugin_to_node_scores.items()}

    def _trace_scores(self, raw: Optional[dict[str, list[int]]], normalized: dict[str, list[int]],
                      all_node_plugin_scores: list[NodePluginScores]) -> None:
        """One Score event per node and plugin whose weight was applied, in that order."""
        if raw is None:
            return
        for index, node_plugin_scores in enumerate(all_node_plugin_scores):
            for plugin_score in node_plugin_scores.scores:
                name = plugin_score.name
                self._trace("Score", name, None, node=node_plugin_scores.name, raw_score=raw[name][index],
                            normalized_score=normalized[name][index], weighted_score=plugin_score.score)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunReservePluginsReserve", 1340, 1370)
    def run_reserve_plugins_reserve(self, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        for pl in self.reserve_plugins:
            status = self.run_reserve_plugin_reserve(pl, state, pod, node_name)
            if not is_success(status):
                if status.is_rejected():
                    status.with_plugin(pl.name())
                    return status
                return Status.as_status(f"running Reserve plugin \"{pl.name()}\": {status.message()}")
        return None

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runReservePluginReserve", 1372, 1380)
    def run_reserve_plugin_reserve(self, pl: Any, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        if not self.recorder.enabled:
            return pl.reserve(state, pod, node_name)
        status = pl.reserve(state, pod, node_name)
        self._trace("Reserve", pl.name(), status, node=node_name)  # upstream: the plugin's duration metric
        return status

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunReservePluginsUnreserve", 1384, 1406)
    def run_reserve_plugins_unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        # Unreserve runs in the reverse order of Reserve.
        for pl in reversed(self.reserve_plugins):
            self.run_reserve_plugin_unreserve(pl, state, pod, node_name)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runReservePluginUnreserve", 1408, 1416)
    def run_reserve_plugin_unreserve(self, pl: Any, state: CycleState, pod: Pod, node_name: str) -> None:
        pl.unreserve(state, pod, node_name)
        self._trace("Unreserve", pl.name(), None, node=node_name)  # upstream: the plugin's duration metric

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunPermitPlugins", 1424, 1471)
    def run_permit_plugins(self, state: CycleState, pod: Pod, node_name: str, now: float = 0.0) -> Optional[Status]:
        plugins_wait_time: dict[str, float] = {}
        status_code = Code.Success
        for pl in self.permit_plugins:
            status, timeout = self.run_permit_plugin(pl, state, pod, node_name)
            if not is_success(status):
                if status.is_rejected():
                    return status.with_plugin(pl.name())
                if status.is_wait():
                    if timeout > MAX_PERMIT_TIMEOUT:
                        timeout = MAX_PERMIT_TIMEOUT
                    plugins_wait_time[pl.name()] = timeout
                    status_code = Code.Wait
                else:
                    return Status.as_status(
                        f"running Permit plugin \"{pl.name()}\": {status.message()}").with_plugin(pl.name())
        if status_code == Code.Wait:
            waiting_pod = new_waiting_pod(pod, plugins_wait_time, now)
            self.waiting_pods[pod.uid] = waiting_pod  # upstream: f.waitingPods.add(waitingPod)
            msg = f"one or more plugins asked to wait and no plugin rejected pod \"{pod.name}\""
            return new_status(Code.Wait, msg)
        return None

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runPermitPlugin", 1473, 1481)
    def run_permit_plugin(self, pl: Any, state: CycleState, pod: Pod, node_name: str) -> tuple[Optional[Status], float]:
        if not self.recorder.enabled:
            return pl.permit(state, pod, node_name)
        status, timeout = pl.permit(state, pod, node_name)
        self._trace("Permit", pl.name(), status, node=node_name)  # upstream: the plugin's duration metric
        return status, timeout

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).GetWaitingPod", 1524, 1529)
    def get_waiting_pod(self, uid: str) -> Optional[WaitingPod]:
        return self.waiting_pods.get(uid)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).IterateOverWaitingPods", 1519, 1521)
    def iterate_over_waiting_pods(self, callback: Callable[[WaitingPod], None]) -> None:
        for wp in list(self.waiting_pods.values()):
            callback(wp)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RejectWaitingPod", 1533, 1539)
    def reject_waiting_pod(self, uid: str) -> bool:
        wp = self.waiting_pods.get(uid)
        if wp is None:
            return False
        wp.reject("", "removed")
        return True

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunPreBindPlugins", 1213, 1243)
    def run_pre_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        for pl in self.pre_bind_plugins:
            status = self.run_pre_bind_plugin(pl, state, pod, node_name)
            if not is_success(status):
                if status.is_rejected():
                    status.with_plugin(pl.name())
                    return status
                return Status.as_status(f"running PreBind plugin \"{pl.name()}\": {status.message()}")
        return None

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runPreBindPlugin", 1245, 1253)
    def run_pre_bind_plugin(self, pl: Any, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        if not self.recorder.enabled:
            return pl.pre_bind(state, pod, node_name)
        status = pl.pre_bind(state, pod, node_name)
        self._trace("PreBind", pl.name(), status, node=node_name)  # upstream: the plugin's duration metric
        return status

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunBindPlugins", 1256, 1292)
    def run_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        if not self.bind_plugins:
            return new_status(Code.Skip, "")
        status: Optional[Status] = None
        for bp in self.bind_plugins:
            status = self.run_bind_plugin(bp, state, pod, node_name)
            if status is not None and status.is_skip():
                continue
            if not is_success(status):
                if status.is_rejected():
                    status.with_plugin(bp.name())
                    return status
                return Status.as_status(f"running Bind plugin \"{bp.name()}\": {status.message()}")
            return status
        return status

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runBindPlugin", 1294, 1302)
    def run_bind_plugin(self, bp: Any, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        if not self.recorder.enabled:
            return bp.bind(state, pod, node_name)
        status = bp.bind(state, pod, node_name)
        self._trace("Bind", bp.name(), status, node=node_name)  # upstream: the plugin's duration metric
        return status

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).RunPostBindPlugins", 1305, 1323)
    def run_post_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> None:
        for pl in self.post_bind_plugins:
            self.run_post_bind_plugin(pl, state, pod, node_name)

    @ports("pkg/scheduler/framework/runtime/framework.go", "(*frameworkImpl).runPostBindPlugin", 1325, 1333)
    def run_post_bind_plugin(self, pl: Any, state: CycleState, pod: Pod, node_name: str) -> None:
        pl.post_bind(state, pod, node_name)
        self._trace("PostBind", pl.name(), None, node=node_name)  # upstream: the plugin's duration metric


class _AddPodError(Exception):
    pass


def _summary(value: object, limit: int = 160) -> str:
    """A one-line description of a CycleState value, for the trace.

    A value without its own ``__repr__`` is shown as ``Type(field=value, ...)``:
    the default repr holds a memory address, which would make traces differ run to run.
    """
    text = repr(value)
    if type(value).__repr__ is object.__repr__:
        names = getattr(value, "__dict__", None) or {
            n: getattr(value, n) for n in getattr(type(value), "__slots__", ()) if hasattr(value, n)}
        text = f"{type(value).__name__}({', '.join(f'{k}={v!r}' for k, v in names.items())})"
    text = " ".join(_ADDRESS.sub("", text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


# " at 0x7f..." in a default repr: never part of a trace.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@ports("vendor/k8s.io/component-helpers/scheduling/corev1/helpers.go", "PodPriority", 27, 35, repo=SCHEDULER_PLUGINS)
def pod_priority(pod: Pod) -> int:
    """Upstream corev1helpers.PodPriority: spec.priority, 0 when unset."""
    return pod.spec.priority if pod.spec.priority is not None else 0


@ports("pkg/scheduler/framework/types.go", "(ClusterEvent).Match", 173, 175)
def events_match(registered: ClusterEvent, event: ClusterEvent) -> bool:
    return registered.match(event)

