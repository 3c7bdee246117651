"""Port of sigs.k8s.io/scheduler-plugins apis/config (commit 37b7888a) for NodeResourceTopologyMatch:
types.go, v1/types.go, v1/defaults.go and validation/validation_pluginargs.go.

``NodeResourceTopologyMatchArgs`` says how the plugin scores (LeastAllocated,
MostAllocated, BalancedAllocation, LeastNUMANodes, with per-resource
weights) and whether it keeps a reserve cache. :func:`decode_args` reads the
``args`` mapping of the plugin's pluginConfig entry (or its absence) the way
the v1 scheme decodes and defaults it; :func:`validate_node_resource_topology_match_args`
returns upstream's field errors.

Deviations:
- Decoding happens when the plugin is built, not when the configuration file
  is read: a field name or type the v1 types do not have is refused with a
  ValueError (``initializing plugin ...``) instead of kube-scheduler's
  ``strict decoding error``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ....anchors import SCHEDULER_PLUGINS, plumbing, ports
from ....config import field as fieldpath
from ....config.field import FieldError, Path
from ....config.types_pluginargs import ResourceSpec

# ScoringStrategyType values.
MOST_ALLOCATED = "MostAllocated"
BALANCED_ALLOCATION = "BalancedAllocation"
LEAST_ALLOCATED = "LeastAllocated"
LEAST_NUMA_NODES = "LeastNUMANodes"

# ForeignPodsDetectMode, CacheResyncMethod, CacheInformerMode, CacheResyncScope values.
FOREIGN_PODS_DETECT_NONE = "None"
FOREIGN_PODS_DETECT_ALL = "All"
FOREIGN_PODS_DETECT_ONLY_EXCLUSIVE_RESOURCES = "OnlyExclusiveResources"
CACHE_RESYNC_AUTODETECT = "Autodetect"
CACHE_RESYNC_ALL = "All"
CACHE_RESYNC_ONLY_EXCLUSIVE_RESOURCES = "OnlyExclusiveResources"
CACHE_INFORMER_SHARED = "Shared"
CACHE_INFORMER_DEDICATED = "Dedicated"
CACHE_RESYNC_SCOPE_ALL = "All"
CACHE_RESYNC_SCOPE_ONLY_RESOURCES = "OnlyResources"

DEFAULT_FOREIGN_PODS_DETECT = FOREIGN_PODS_DETECT_ALL
DEFAULT_RESYNC_METHOD = CACHE_RESYNC_AUTODETECT
DEFAULT_INFORMER_MODE = CACHE_INFORMER_DEDICATED


@plumbing("a fresh copy of upstream's defaultResourceSpec variable for each defaulting")
def default_resource_spec() -> list[ResourceSpec]:
    return [ResourceSpec(name="cpu", weight=1), ResourceSpec(name="memory", weight=1)]


@ports("apis/config/v1/types.go", "ScoringStrategy", 154, 157, repo=SCHEDULER_PLUGINS)
@dataclass
class ScoringStrategy:
    type: str = ""
    resources: list[ResourceSpec] = field(default_factory=list)


@ports("apis/config/v1/types.go", "NodeResourceTopologyCache", 194, 220, repo=SCHEDULER_PLUGINS)
@dataclass
class NodeResourceTopologyCache:
    foreign_pods_detect: Optional[str] = None
    resync_method: Optional[str] = None
    informer_mode: Optional[str] = None
    resync_scope: Optional[str] = None


@ports("apis/config/v1/types.go", "NodeResourceTopologyMatchArgs", 225, 238, repo=SCHEDULER_PLUGINS)
@dataclass
class NodeResourceTopologyMatchArgs:
    scoring_strategy: Optional[ScoringStrategy] = None
    # > 0 turns on the reserve cache (which needs the Reserve extension point)
    cache_resync_period_seconds: Optional[int] = None
    # true: a node with reserved pods is not considered (takes precedence over the resync period)
    discard_reserved_nodes: bool = False
    cache: Optional[NodeResourceTopologyCache] = None


# --- v1/defaults.go ---------------------------------------------------------------------


@ports("apis/config/v1/defaults.go", "SetDefaults_NodeResourceTopologyMatchArgs", 182, 214, repo=SCHEDULER_PLUGINS)
def set_defaults_node_resource_topology_match_args(obj: NodeResourceTopologyMatchArgs) -> None:
    if obj.scoring_strategy is None:
        obj.scoring_strategy = ScoringStrategy(type=LEAST_ALLOCATED, resources=default_resource_spec())
    if not obj.scoring_strategy.resources:
        obj.scoring_strategy.resources = default_resource_spec()
    for r in obj.scoring_strategy.resources:
        if r.weight == 0:
            r.weight = 1
    if obj.cache is None:
        obj.cache = NodeResourceTopologyCache()
    if obj.cache.foreign_pods_detect is None:
        obj.cache.foreign_pods_detect = DEFAULT_FOREIGN_PODS_DETECT
    if obj.cache.resync_method is None:
        obj.cache.resync_method = DEFAULT_RESYNC_METHOD
    if obj.cache.informer_mode is None:
        obj.cache.informer_mode = DEFAULT_INFORMER_MODE


# --- validation/validation_pluginargs.go ------------------------------------------------

VALID_SCORING_STRATEGY = frozenset({MOST_ALLOCATED, BALANCED_ALLOCATION, LEAST_ALLOCATED, LEAST_NUMA_NODES})


@ports("apis/config/validation/validation_pluginargs.go", "ValidateNodeResourceTopologyMatchArgs", 33, 41, repo=SCHEDULER_PLUGINS)
def validate_node_resource_topology_match_args(path: Optional[Path],
                                               args: NodeResourceTopologyMatchArgs) -> list[FieldError]:
    errs: list[FieldError] = []
    scoring_strategy_type_path = fieldpath.child(path, "scoringStrategy.type")
    strategy = args.scoring_strategy.type if args.scoring_strategy is not None else ""
    err = validate_scoring_strategy_type(strategy, scoring_strategy_type_path)
    if err is not None:
        errs.append(err)
    return errs


@ports("apis/config/validation/validation_pluginargs.go", "validateScoringStrategyType", 43, 48, repo=SCHEDULER_PLUGINS)
def validate_scoring_strategy_type(scoring_strategy: str, path: Path) -> Optional[FieldError]:
    if scoring_strategy not in VALID_SCORING_STRATEGY:
        return fieldpath.invalid(path, scoring_strategy, "invalid ScoringStrategyType")
    return None


# --- decoding the v1 args ---------------------------------------------------------------


class _Decoder:
    """Reads the v1 JSON fields into the dataclasses; a wrong field is a ValueError."""

    def fail(self, path: str, message: str) -> ValueError:
        return ValueError(f"decoding NodeResourceTopologyMatchArgs: {path}: {message}")

    def fields(self, v: Any, path: str, known: set[str]) -> dict:
        if not isinstance(v, dict):
            raise self.fail(path or ".", "expected an object")
        for key in v:
            if key not in known:
                raise self.fail(path or ".", f'unknown field "{key}"')
        return v

    def string(self, v: Any, path: str) -> Optional[str]:
        if v is not None and not isinstance(v, str):
            raise self.fail(path, "expected a string")
        return v

    def integer(self, v: Any, path: str) -> Optional[int]:
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise self.fail(path, "expected an integer")
        return v

    def boolean(self, v: Any, path: str) -> bool:
        if v is not None and not isinstance(v, bool):
            raise self.fail(path, "expected a boolean")
        return bool(v)

    def scoring_strategy(self, v: Any) -> Optional[ScoringStrategy]:
        if v is None:
            return None
        m = self.fields(v, "scoringStrategy", {"type", "resources"})
        resources = []
        raw_resources = m.get("resources") or []
        if not isinstance(raw_resources, list):
            raise self.fail("scoringStrategy.resources", "expected a list")
        for i, r in enumerate(raw_resources):
            p = f"scoringStrategy.resources[{i}]"
            r = self.fields(r, p, {"name", "weight"})
            resources.append(ResourceSpec(name=self.string(r.get("name"), f"{p}.name") or "",
                                          weight=self.integer(r.get("weight"), f"{p}.weight") or 0))
        return ScoringStrategy(type=self.string(m.get("type"), "scoringStrategy.type") or "", resources=resources)

    def cache(self, v: Any) -> Optional[NodeResourceTopologyCache]:
        if v is None:
            return None
        m = self.fields(v, "cache", {"foreignPodsDetect", "resyncMethod", "informerMode", "resyncScope"})
        return NodeResourceTopologyCache(
            foreign_pods_detect=self.string(m.get("foreignPodsDetect"), "cache.foreignPodsDetect"),
            resync_method=self.string(m.get("resyncMethod"), "cache.resyncMethod"),
            informer_mode=self.string(m.get("informerMode"), "cache.informerMode"),
            resync_scope=self.string(m.get("resyncScope"), "cache.resyncScope"))


@plumbing("reads a pluginConfig args mapping, which upstream decodes with its API scheme")
def decode_args(raw: Optional[dict]) -> NodeResourceTopologyMatchArgs:
    """The defaulted args of a pluginConfig ``args`` mapping (None: no pluginConfig entry)."""
    d = _Decoder()
    m = d.fields(raw or {}, "", {"apiVersion", "kind", "scoringStrategy", "cacheResyncPeriodSeconds",
                                 "discardReservedNodes", "cache"})
    args = NodeResourceTopologyMatchArgs(
        scoring_strategy=d.scoring_strategy(m.get("scoringStrategy")),
        cache_resync_period_seconds=d.integer(m.get("cacheResyncPeriodSeconds"), "cacheResyncPeriodSeconds"),
        discard_reserved_nodes=d.boolean(m.get("discardReservedNodes"), "discardReservedNodes"),
        cache=d.cache(m.get("cache")))
    set_defaults_node_resource_topology_match_args(args)
    return args
