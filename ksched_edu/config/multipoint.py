"""Port of the plugin-list part of pkg/scheduler/framework/runtime/framework.go (v1.30).

When NewFramework builds a profile it turns the merged configuration into
one ordered plugin list per extension point: ``updatePluginList`` fills each
point from its own ``enabled`` list, then ``expandMultiPointPlugins`` adds
every MultiPoint plugin at each point it implements, and ``getScoreWeights``
gives each score plugin its weight. This module is that computation as
pure functions of the configuration and of "which points does each
registered plugin implement", so the runtime, the notebooks and the tests
all read the same lists.

The expansion rules, per extension point (skipped entirely when the point
disables ``"*"``):

1. plugins enabled at the point itself that MultiPoint also names
   ("overrides") come first, in the point's own order;
2. then the other MultiPoint plugins that implement the point and are not
   disabled there, in MultiPoint order;
3. then the rest of the point's own plugins, in its order.

A score weight is the weight given at ``score`` if the plugin is listed
there, else its MultiPoint weight; 0 means 1.

Deviations:
- Plugins are names, not instances; ``implements`` maps every plugin the
  registry knows to the extension points its type implements (default:
  :data:`DEFAULT_EXTENSION_POINTS`).
- Errors are raised as :class:`FrameworkConfigError` with the runtime's message.
"""
from __future__ import annotations

from typing import AbstractSet, Mapping, Optional, Union

from .gofmt import go_quote
from .types import MAX_TOTAL_SCORE, KubeSchedulerProfile, Plugin, Plugins, PluginSet

MAX_NODE_SCORE = 100

# getExtensionPoints order, with the Go interface name of each point.
FRAMEWORK_POINTS: tuple[tuple[str, str], ...] = (
    ("preFilter", "PreFilterPlugin"),
    ("filter", "FilterPlugin"),
    ("postFilter", "PostFilterPlugin"),
    ("reserve", "ReservePlugin"),
    ("preScore", "PreScorePlugin"),
    ("score", "ScorePlugin"),
    ("preBind", "PreBindPlugin"),
    ("bind", "BindPlugin"),
    ("postBind", "PostBindPlugin"),
    ("permit", "PermitPlugin"),
    ("preEnqueue", "PreEnqueuePlugin"),
    ("queueSort", "QueueSortPlugin"),
)
_GO_TYPE = dict(FRAMEWORK_POINTS)

_PF_F = frozenset({"preFilter", "filter"})
_SCORING = frozenset({"preFilter", "filter", "preScore", "score"})

# The extension points each plugin of the v1.30.4 in-tree registry implements
# (read off each plugin type's methods).
IN_TREE_EXTENSION_POINTS: Mapping[str, frozenset[str]] = {
    "SchedulingGates": frozenset({"preEnqueue"}),
    "PrioritySort": frozenset({"queueSort"}),
    "NodeUnschedulable": frozenset({"filter"}),
    "NodeName": frozenset({"filter"}),
    "TaintToleration": frozenset({"filter", "preScore", "score"}),
    "NodeAffinity": _SCORING,
    "NodePorts": _PF_F,
    "NodeResourcesFit": _SCORING,
    "VolumeRestrictions": _PF_F,
    "EBSLimits": _PF_F,
    "GCEPDLimits": _PF_F,
    "NodeVolumeLimits": _PF_F,
    "AzureDiskLimits": _PF_F,
    "CinderLimits": _PF_F,
    "VolumeBinding": frozenset({"preFilter", "filter", "reserve", "preBind", "preScore", "score"}),
    "VolumeZone": _PF_F,
    "PodTopologySpread": _SCORING,
    "InterPodAffinity": _SCORING,
    "DefaultPreemption": frozenset({"postFilter"}),
    "NodeResourcesBalancedAllocation": frozenset({"preScore", "score"}),
    "ImageLocality": frozenset({"score"}),
    "DefaultBinder": frozenset({"bind"}),
    "DynamicResources": frozenset({"preEnqueue", "preFilter", "filter", "postFilter", "preScore",
                                   "reserve", "preBind", "postBind"}),
}
# scheduler-plugins (commit 37b7888a) plugins this project also registers.
OUT_OF_TREE_EXTENSION_POINTS: Mapping[str, frozenset[str]] = {
    "Coscheduling": frozenset({"queueSort", "preFilter", "postFilter", "permit", "reserve"}),
    "NodeResourceTopologyMatch": frozenset({"filter", "score", "reserve", "postBind"}),
}
DEFAULT_EXTENSION_POINTS: Mapping[str, frozenset[str]] = {
    **IN_TREE_EXTENSION_POINTS, **OUT_OF_TREE_EXTENSION_POINTS}

Implements = Mapping[str, AbstractSet[str]]


class FrameworkConfigError(ValueError):
    """A plugin configuration the framework refuses to build; ``str()`` is the runtime's message."""


def update_plugin_list(point: str, plugin_set: PluginSet, implements: Implements) -> list[str]:
    """The plugins of one extension point from its own enabled list (upstream updatePluginList)."""
    go_type = _GO_TYPE[point]
    names: list[str] = []
    for p in plugin_set.enabled:
        if p.name not in implements:
            raise FrameworkConfigError(f"{go_type} {go_quote(p.name)} does not exist")
        if point not in implements[p.name]:
            raise FrameworkConfigError(f"plugin {go_quote(p.name)} does not extend {go_type} plugin")
        if p.name in names:
            raise FrameworkConfigError(
                f"plugin {go_quote(p.name)} already registered as {go_quote(go_type)}")
        names.append(p.name)
    return names


def expand_multi_point_plugins(plugins: Plugins, lists: dict[str, list[str]],
                               implements: Implements) -> None:
    """Add the MultiPoint plugins to each point's list, in place (upstream expandMultiPointPlugins)."""
    for point, go_type in FRAMEWORK_POINTS:
        ps = plugins.point(point)
        enabled_set = list(dict.fromkeys(p.name for p in ps.enabled))  # upstream orderedSet
        disabled_set = {p.name for p in ps.disabled}
        if "*" in disabled_set:
            continue  # all plugins disabled at this point: no expansion
        multi_point_enabled: list[str] = []
        overrides: list[str] = []
        for ep in plugins.multi_point.enabled:
            if ep.name not in implements:
                raise FrameworkConfigError(f"{go_type} {go_quote(ep.name)} does not exist")
            if point not in implements[ep.name]:
                continue
            if ep.name in disabled_set:
                continue  # enabled by MultiPoint, disabled at this point
            if ep.name in enabled_set:
                # Also enabled at the point itself: the point's entry wins.
                if ep.name not in overrides:
                    overrides.append(ep.name)
                continue
            if ep.name in multi_point_enabled:
                raise FrameworkConfigError(
                    f"plugin {go_quote(ep.name)} already registered as {go_quote(go_type)}")
            multi_point_enabled.append(ep.name)
        # 1: overrides in the point's order; 2: MultiPoint plugins; 3: the rest.
        first = [n for n in enabled_set if n in overrides]
        rest = [n for n in enabled_set if n not in overrides]
        lists[point] = first + multi_point_enabled + rest


def get_score_weights(plugins: Plugins, implements: Implements) -> dict[str, int]:
    """Each score plugin's weight: the Score entry before the MultiPoint one, 0 meaning 1."""
    weights: dict[str, int] = {}
    total = 0
    for p in plugins.score.enabled + plugins.multi_point.enabled:
        if "score" not in implements.get(p.name, ()):
            continue
        if p.name in weights:
            continue  # the individual Score weight takes precedence
        weights[p.name] = p.weight if p.weight != 0 else 1
        if weights[p.name] * MAX_NODE_SCORE > MAX_TOTAL_SCORE - total:
            raise FrameworkConfigError("total score of Score plugins could overflow")
        total += weights[p.name] * MAX_NODE_SCORE
    return weights


def list_plugins(profile: Union[KubeSchedulerProfile, Plugins],
                 implements: Optional[Implements] = None) -> Plugins:
    """The plugins the framework runs at each extension point, as upstream's ListPlugins shows them.

    Runs the checks NewFramework makes on the lists: unknown plugins, plugins
    at a point they do not implement, double registration, one queue sort,
    at least one binder, score weights. Score entries carry their weight,
    other points weight 0.
    """
    if implements is None:
        implements = DEFAULT_EXTENSION_POINTS
    if isinstance(profile, Plugins):
        plugins, scheduler_name = profile, ""
    else:
        plugins, scheduler_name = profile.plugins or Plugins(), profile.scheduler_name or ""
    lists: dict[str, list[str]] = {}
    for point, _ in FRAMEWORK_POINTS:
        lists[point] = update_plugin_list(point, plugins.point(point), implements)
    if plugins.multi_point.enabled:
        expand_multi_point_plugins(plugins, lists, implements)
    if len(lists["queueSort"]) != 1:
        raise FrameworkConfigError(
            f"only one queue sort plugin required for profile with scheduler name "
            f"{go_quote(scheduler_name)}, but got {len(lists['queueSort'])}")
    if not lists["bind"]:
        raise FrameworkConfigError(f"at least one bind plugin is needed for profile with scheduler "
                                   f"name {go_quote(scheduler_name)}")
    weights = get_score_weights(plugins, implements)
    out = Plugins()
    for point, _ in FRAMEWORK_POINTS:
        ps = out.point(point)
        ps.enabled = [Plugin(n, weights.get(n, 0) if point == "score" else 0)
                      for n in lists[point]]
    return out


def enabled_plugins(profile: Union[KubeSchedulerProfile, Plugins], point: str,
                    implements: Optional[Implements] = None) -> list[tuple[str, int]]:
    """The ordered (name, weight) list of one extension point after MultiPoint expansion.

    ``point`` is a v1 name (``"preFilter"``) or its Python spelling
    (``"pre_filter"``). The weight is the score weight at ``"score"``
    (never 0), and 0 elsewhere.
    """
    expanded = list_plugins(profile, implements)
    return [(p.name, p.weight) for p in expanded.point(point).enabled]
