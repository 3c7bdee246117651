"""Port of kube-scheduler's strict decoding of a kubescheduler.config.k8s.io/v1 file (v1.30).

This is the path ``loadConfig`` takes through
``scheme.Codecs.UniversalDecoder().Decode`` (v1.30): apimachinery's
``runtime/serializer/json/json.go`` (read apiVersion/kind, refuse a missing
or unknown kind, decode strictly), ``sigs.k8s.io/json``'s strict errors
(``unknown field "profiles[0].foo"``, keys visited in sorted order as the
YAML-to-JSON step sorts them, and Go's ``json: cannot unmarshal ...`` type
errors), ``runtime/serializer/versioning`` (strict errors collected, nested
objects decoded after), and ``kube-scheduler/config/v1/types.go``'s
``DecodeNestedObjects`` (each in-tree plugin's ``args`` decoded, strictly,
as its ``<Plugin>Args`` kind; other plugins' args kept raw).

Deviations:
- Decodes straight into the internal types of :mod:`ksched_edu.config.types`;
  a v1 pointer left unset is ``None`` there, for defaulting to fill.
- Errors are raised as :class:`DecodeError` with upstream's message.
- The args of Coscheduling and NodeResourceTopologyMatch stay raw dicts,
  decoded by those plugins; a kube-scheduler built with scheduler-plugins
  registers their kinds and would check their fields here.
- "no kind ... is registered" names the scheme by its call site as a
  ``-trimpath`` build prints it.
"""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from ..api.types import (LabelSelector, LabelSelectorRequirement, NodeAffinity, NodeSelector,
                         NodeSelectorRequirement, NodeSelectorTerm, PreferredSchedulingTerm,
                         TopologySpreadConstraint)
from .gofmt import Duration, go_json_float, go_quote
from .types import (GROUP_NAME, ClientConnectionConfiguration, Extender, ExtenderManagedResource,
                    ExtenderTLSConfig, KubeSchedulerConfiguration, KubeSchedulerProfile,
                    LeaderElectionConfiguration, Plugin, PluginConfig, Plugins, PluginSet)
from .types_pluginargs import (ARGS_TYPES, DefaultPreemptionArgs, InterPodAffinityArgs,
                               NodeAffinityArgs, NodeResourcesBalancedAllocationArgs,
                               NodeResourcesFitArgs, PodTopologySpreadArgs,
                               RequestedToCapacityRatioParam, ResourceSpec, ScoringStrategy,
                               UtilizationShapePoint, VolumeBindingArgs)
from .yamljson import YAMLError, yaml_to_json

VERSION = "v1"
KIND = "KubeSchedulerConfiguration"
# The scheme's name as runtime.NewScheme records its call site.
SCHEME_NAME = "pkg/scheduler/apis/config/scheme/scheme.go:29"
# Kinds the v1 version registers: the configuration and every <Plugin>Args.
REGISTERED_KINDS = {KIND} | {name + "Args" for name in ARGS_TYPES}
_MAX_STRICT_ERRORS = 100


@plumbing("the error an undecodable file raises, carrying kube-scheduler's message")
class DecodeError(ValueError):
    """The file could not be decoded; ``str()`` is kube-scheduler's message."""


# --- the schema of the v1 types ----------------------------------------------------


@plumbing("describes a Go type to the decoder, in place of Go's reflection")
class T:
    """A Go type as the decoder needs it: its printed name, and how to decode into it."""

    go: str = ""


@plumbing("describes a Go scalar type to the decoder")
@dataclass(frozen=True)
class Scalar(T):
    kind: str  # int32 int64 float32 bool string duration bytes raw
    go: str = ""

    def __post_init__(self) -> None:
        if not self.go:
            object.__setattr__(self, "go", {"bytes": "[]uint8", "duration": "v1.Duration",
                                            "raw": "runtime.RawExtension"}.get(self.kind, self.kind))


@plumbing("describes a Go pointer type to the decoder")
@dataclass(frozen=True)
class Ptr(T):
    elem: T

    @property
    def go(self) -> str:  # type: ignore[override]
        return self.elem.go  # Go reports the type pointed to


@plumbing("describes a Go slice type to the decoder")
@dataclass(frozen=True)
class Slice(T):
    elem: T
    nullable: bool = False  # keep None apart from []

    @property
    def go(self) -> str:  # type: ignore[override]
        return "[]" + self.elem.go


@plumbing("describes a Go map[string] type to the decoder")
@dataclass(frozen=True)
class StringMap(T):
    go: str = "map[string]string"


@plumbing("describes a Go struct field and its JSON name to the decoder")
@dataclass(frozen=True)
class F:
    json: str
    attr: Optional[str]  # None: known to the decoder but not kept
    type: T


@plumbing("describes a Go struct type to the decoder")
class Struct(T):
    def __init__(self, go: str, factory: Callable[[], Any], fields: list[F]) -> None:
        self.go = go
        self.factory = factory
        self.fields = {f.json: f for f in fields}

    @property
    def name(self) -> str:
        return self.go.split(".")[-1]


INT32, INT64, FLOAT32 = Scalar("int32"), Scalar("int64"), Scalar("float32")
BOOL, STRING, DURATION = Scalar("bool"), Scalar("string"), Scalar("duration")
BYTES, RAW = Scalar("bytes"), Scalar("raw")


def _named(go: str) -> Scalar:
    return Scalar("string", go)


_TYPE_META = [F("apiVersion", None, STRING), F("kind", None, STRING)]

PLUGIN = Struct("v1.Plugin", lambda: Plugin(""), [
    F("name", "name", STRING), F("weight", "weight", Ptr(INT32))])
PLUGIN_SET = Struct("v1.PluginSet", PluginSet, [
    F("enabled", "enabled", Slice(PLUGIN)), F("disabled", "disabled", Slice(PLUGIN))])
PLUGINS = Struct("v1.Plugins", Plugins, [
    F(j, a, PLUGIN_SET) for j, a in (
        ("preEnqueue", "pre_enqueue"), ("queueSort", "queue_sort"), ("preFilter", "pre_filter"),
        ("filter", "filter"), ("postFilter", "post_filter"), ("preScore", "pre_score"),
        ("score", "score"), ("reserve", "reserve"), ("permit", "permit"),
        ("preBind", "pre_bind"), ("bind", "bind"), ("postBind", "post_bind"),
        ("multiPoint", "multi_point"))])
PLUGIN_CONFIG = Struct("v1.PluginConfig", lambda: PluginConfig(""), [
    F("name", "name", STRING), F("args", "args", RAW)])
PROFILE = Struct("v1.KubeSchedulerProfile", KubeSchedulerProfile, [
    F("schedulerName", "scheduler_name", Ptr(STRING)),
    F("percentageOfNodesToScore", "percentage_of_nodes_to_score", Ptr(INT32)),
    F("plugins", "plugins", Ptr(PLUGINS)),
    F("pluginConfig", "plugin_config", Slice(PLUGIN_CONFIG))])
LEADER_ELECTION = Struct("v1alpha1.LeaderElectionConfiguration", LeaderElectionConfiguration, [
    F("leaderElect", "leader_elect", Ptr(BOOL)),
    F("leaseDuration", "lease_duration", DURATION),
    F("renewDeadline", "renew_deadline", DURATION),
    F("retryPeriod", "retry_period", DURATION),
    F("resourceLock", "resource_lock", STRING),
    F("resourceName", "resource_name", STRING),
    F("resourceNamespace", "resource_namespace", STRING)])
CLIENT_CONNECTION = Struct("v1alpha1.ClientConnectionConfiguration", ClientConnectionConfiguration, [
    F("kubeconfig", "kubeconfig", STRING), F("acceptContentTypes", "accept_content_types", STRING),
    F("contentType", "content_type", STRING), F("qps", "qps", FLOAT32),
    F("burst", "burst", INT32)])
TLS_CONFIG = Struct("v1.ExtenderTLSConfig", ExtenderTLSConfig, [
    F("insecure", "insecure", BOOL), F("serverName", "server_name", STRING),
    F("certFile", "cert_file", STRING), F("keyFile", "key_file", STRING),
    F("caFile", "ca_file", STRING), F("certData", "cert_data", BYTES),
    F("keyData", "key_data", BYTES), F("caData", "ca_data", BYTES)])
MANAGED_RESOURCE = Struct("v1.ExtenderManagedResource", ExtenderManagedResource, [
    F("name", "name", STRING), F("ignoredByScheduler", "ignored_by_scheduler", BOOL)])
EXTENDER = Struct("v1.Extender", Extender, [
    F("urlPrefix", "url_prefix", STRING), F("filterVerb", "filter_verb", STRING),
    F("preemptVerb", "preempt_verb", STRING), F("prioritizeVerb", "prioritize_verb", STRING),
    F("weight", "weight", INT64), F("bindVerb", "bind_verb", STRING),
    F("enableHTTPS", "enable_https", BOOL), F("tlsConfig", "tls_config", Ptr(TLS_CONFIG)),
    F("httpTimeout", "http_timeout", DURATION),
    F("nodeCacheCapable", "node_cache_capable", BOOL),
    F("managedResources", "managed_resources", Slice(MANAGED_RESOURCE)),
    F("ignorable", "ignorable", BOOL)])
CONFIGURATION = Struct("v1.KubeSchedulerConfiguration", KubeSchedulerConfiguration, _TYPE_META + [
    F("parallelism", "parallelism", Ptr(INT32)),
    F("leaderElection", "leader_election", LEADER_ELECTION),
    F("clientConnection", "client_connection", CLIENT_CONNECTION),
    F("enableProfiling", "enable_profiling", Ptr(BOOL)),
    F("enableContentionProfiling", "enable_contention_profiling", Ptr(BOOL)),
    F("percentageOfNodesToScore", "percentage_of_nodes_to_score", Ptr(INT32)),
    F("podInitialBackoffSeconds", "pod_initial_backoff_seconds", Ptr(INT64)),
    F("podMaxBackoffSeconds", "pod_max_backoff_seconds", Ptr(INT64)),
    F("profiles", "profiles", Slice(PROFILE)),
    F("extenders", "extenders", Slice(EXTENDER)),
    F("delayCacheUntilActive", "delay_cache_until_active", BOOL)])

# core/v1 types inside plugin args.
STRINGS = Slice(STRING)
LABEL_SELECTOR_REQUIREMENT = Struct("v1.LabelSelectorRequirement",
                                    lambda: LabelSelectorRequirement("", ""), [
                                        F("key", "key", STRING),
                                        F("operator", "operator", _named("v1.LabelSelectorOperator")),
                                        F("values", "values", STRINGS)])
LABEL_SELECTOR = Struct("v1.LabelSelector", LabelSelector, [
    F("matchLabels", "match_labels", StringMap()),
    F("matchExpressions", "match_expressions", Slice(LABEL_SELECTOR_REQUIREMENT))])
TOPOLOGY_SPREAD_CONSTRAINT = Struct("v1.TopologySpreadConstraint",
                                    lambda: TopologySpreadConstraint(0, "", ""), [
    F("maxSkew", "max_skew", INT32), F("topologyKey", "topology_key", STRING),
    F("whenUnsatisfiable", "when_unsatisfiable", _named("v1.UnsatisfiableConstraintAction")),
    F("labelSelector", "label_selector", Ptr(LABEL_SELECTOR)),
    F("minDomains", "min_domains", Ptr(INT32)),
    F("nodeAffinityPolicy", "node_affinity_policy", Ptr(_named("v1.NodeInclusionPolicy"))),
    F("nodeTaintsPolicy", "node_taints_policy", Ptr(_named("v1.NodeInclusionPolicy"))),
    F("matchLabelKeys", "match_label_keys", STRINGS)])
NODE_SELECTOR_REQUIREMENT = Struct("v1.NodeSelectorRequirement",
                                   lambda: NodeSelectorRequirement("", ""), [
                                       F("key", "key", STRING),
                                       F("operator", "operator", _named("v1.NodeSelectorOperator")),
                                       F("values", "values", STRINGS)])
NODE_SELECTOR_TERM = Struct("v1.NodeSelectorTerm", NodeSelectorTerm, [
    F("matchExpressions", "match_expressions", Slice(NODE_SELECTOR_REQUIREMENT)),
    F("matchFields", "match_fields", Slice(NODE_SELECTOR_REQUIREMENT))])
NODE_SELECTOR = Struct("v1.NodeSelector", NodeSelector, [
    F("nodeSelectorTerms", "node_selector_terms", Slice(NODE_SELECTOR_TERM))])
PREFERRED_SCHEDULING_TERM = Struct("v1.PreferredSchedulingTerm",
                                   lambda: PreferredSchedulingTerm(0, NodeSelectorTerm()), [
                                       F("weight", "weight", INT32),
                                       F("preference", "preference", NODE_SELECTOR_TERM)])
NODE_AFFINITY = Struct("v1.NodeAffinity", NodeAffinity, [
    F("requiredDuringSchedulingIgnoredDuringExecution", "required", Ptr(NODE_SELECTOR)),
    F("preferredDuringSchedulingIgnoredDuringExecution", "preferred",
      Slice(PREFERRED_SCHEDULING_TERM))])

# Plugin args.
SHAPE_POINT = Struct("v1.UtilizationShapePoint", UtilizationShapePoint, [
    F("utilization", "utilization", INT32), F("score", "score", INT32)])
RESOURCE_SPEC = Struct("v1.ResourceSpec", ResourceSpec, [
    F("name", "name", STRING), F("weight", "weight", INT64)])
RTCR_PARAM = Struct("v1.RequestedToCapacityRatioParam", RequestedToCapacityRatioParam, [
    F("shape", "shape", Slice(SHAPE_POINT))])
SCORING_STRATEGY = Struct("v1.ScoringStrategy", ScoringStrategy, [
    F("type", "type", _named("v1.ScoringStrategyType")),
    F("resources", "resources", Slice(RESOURCE_SPEC)),
    F("requestedToCapacityRatio", "requested_to_capacity_ratio", Ptr(RTCR_PARAM))])
ARGS_SCHEMAS: dict[str, Struct] = {
    "DefaultPreemptionArgs": Struct("v1.DefaultPreemptionArgs", DefaultPreemptionArgs, _TYPE_META + [
        F("minCandidateNodesPercentage", "min_candidate_nodes_percentage", Ptr(INT32)),
        F("minCandidateNodesAbsolute", "min_candidate_nodes_absolute", Ptr(INT32))]),
    "InterPodAffinityArgs": Struct("v1.InterPodAffinityArgs", InterPodAffinityArgs, _TYPE_META + [
        F("hardPodAffinityWeight", "hard_pod_affinity_weight", Ptr(INT32)),
        F("ignorePreferredTermsOfExistingPods", "ignore_preferred_terms_of_existing_pods", BOOL)]),
    "NodeResourcesFitArgs": Struct("v1.NodeResourcesFitArgs", NodeResourcesFitArgs, _TYPE_META + [
        F("ignoredResources", "ignored_resources", STRINGS),
        F("ignoredResourceGroups", "ignored_resource_groups", STRINGS),
        F("scoringStrategy", "scoring_strategy", Ptr(SCORING_STRATEGY))]),
    "PodTopologySpreadArgs": Struct("v1.PodTopologySpreadArgs", PodTopologySpreadArgs, _TYPE_META + [
        F("defaultConstraints", "default_constraints", Slice(TOPOLOGY_SPREAD_CONSTRAINT)),
        F("defaultingType", "defaulting_type",
          _named("v1.PodTopologySpreadConstraintsDefaulting"))]),
    "NodeResourcesBalancedAllocationArgs": Struct(
        "v1.NodeResourcesBalancedAllocationArgs", NodeResourcesBalancedAllocationArgs,
        _TYPE_META + [F("resources", "resources", Slice(RESOURCE_SPEC))]),
    "VolumeBindingArgs": Struct("v1.VolumeBindingArgs", VolumeBindingArgs, _TYPE_META + [
        F("bindTimeoutSeconds", "bind_timeout_seconds", Ptr(INT64)),
        F("shape", "shape", Slice(SHAPE_POINT, nullable=True))]),
    "NodeAffinityArgs": Struct("v1.NodeAffinityArgs", NodeAffinityArgs, _TYPE_META + [
        F("addedAffinity", "added_affinity", Ptr(NODE_AFFINITY))]),
}


# --- the strict JSON decoder (sigs.k8s.io/json) ----------------------------------------


class _Abort(Exception):
    """An error that stops decoding at once (upstream: returned, not saved)."""


_KEEP = object()  # "leave the field as it is" (a JSON null into a value)


def _json_kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def _literal(v: Any) -> str:
    return str(v) if isinstance(v, int) else go_json_float(v)


class _Decoder:
    def __init__(self) -> None:
        self.strict_stack: list[str] = []
        self.field_stack: list[str] = []
        self.struct_name: Optional[str] = None
        self.strict_errors: list[str] = []
        self.saved_error: Optional[str] = None

    # upstream saveError/addErrorContext
    def type_error(self, value: str, go_type: str) -> None:
        if self.saved_error is not None:
            return
        if self.struct_name is not None or self.field_stack:
            where = f"Go struct field {self.struct_name or ''}.{'.'.join(self.field_stack)}"
        else:
            where = "Go value"
        self.saved_error = f"json: cannot unmarshal {value} into {where} of type {go_type}"

    def unknown_field(self, key: str) -> None:
        path = "".join(self.strict_stack) + "." + key if self.strict_stack else key
        msg = f"unknown field {go_quote(path)}"
        if msg not in self.strict_errors and len(self.strict_errors) < _MAX_STRICT_ERRORS:
            self.strict_errors.append(msg)

    def _push_key(self, key: str) -> None:
        self.strict_stack.extend([".", key] if self.strict_stack else [key])

    def decode(self, v: Any, t: T) -> Any:
        if isinstance(t, Ptr):
            return None if v is None else self.decode(v, t.elem)
        if isinstance(t, Struct):
            return self._struct(v, t)
        if isinstance(t, Slice):
            return self._slice(v, t)
        if isinstance(t, StringMap):
            return self._map(v, t)
        return self._scalar(v, t)  # type: ignore[arg-type]

    def _struct(self, v: Any, t: Struct) -> Any:
        if v is None:
            return _KEEP
        if not isinstance(v, dict):
            self.type_error(_json_kind(v), t.go)
            return _KEEP
        obj = t.factory()
        depth = len(self.strict_stack)
        outer_fields, outer_struct = len(self.field_stack), self.struct_name
        for key in sorted(v):
            f = t.fields.get(key)
            if f is None:
                self.unknown_field(key)
                continue
            self.field_stack.append(f.json)
            self.struct_name = t.name
            self._push_key(f.json)
            value = self.decode(v[key], f.type)
            if value is not _KEEP and f.attr is not None:
                setattr(obj, f.attr, value)
            del self.field_stack[outer_fields:]
            self.struct_name = outer_struct
            del self.strict_stack[depth:]
        return obj

    def _slice(self, v: Any, t: Slice) -> Any:
        if v is None:
            return None if t.nullable else []
        if not isinstance(v, list):
            self.type_error(_json_kind(v), t.go)
            return _KEEP
        out = []
        depth = len(self.strict_stack)
        for i, item in enumerate(v):
            self.strict_stack.extend(["[", str(i), "]"])
            value = self.decode(item, t.elem)
            if value is _KEEP:
                value = t.elem.factory() if isinstance(t.elem, Struct) else _zero(t.elem)
            out.append(value)
            del self.strict_stack[depth:]
        return out

    def _map(self, v: Any, t: StringMap) -> Any:
        if v is None:
            return {}
        if not isinstance(v, dict):
            self.type_error(_json_kind(v), t.go)
            return _KEEP
        out = {}
        depth = len(self.strict_stack)
        for key in sorted(v):
            self._push_key(key)
            value = self._scalar(v[key], STRING)
            out[key] = "" if value is _KEEP else value
            del self.strict_stack[depth:]
        return out

    def _scalar(self, v: Any, t: Scalar) -> Any:
        kind = t.kind
        if kind == "raw":
            return v
        if kind == "duration":
            return self._duration(v)
        if v is None:
            return _KEEP
        if kind in ("int32", "int64"):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                self.type_error(_json_kind(v), t.go)
                return _KEEP
            lit = _literal(v)
            bits = 32 if kind == "int32" else 64
            if not re.fullmatch(r"-?[0-9]+", lit) or not -(2**(bits - 1)) <= int(lit) < 2**(bits - 1):
                self.type_error("number " + lit, t.go)
                return _KEEP
            return int(lit)
        if kind == "float32":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                self.type_error(_json_kind(v), t.go)
                return _KEEP
            return float(v)
        if kind == "bool":
            if not isinstance(v, bool):
                self.type_error(_json_kind(v), t.go)
                return _KEEP
            return v
        if kind == "bytes":
            if not isinstance(v, str):
                self.type_error(_json_kind(v), t.go)
                return _KEEP
            try:
                return base64.b64decode(v, validate=True)
            except ValueError:
                if self.saved_error is None:
                    self.saved_error = "illegal base64 data at input byte 0"
                return _KEEP
        # string and named string types
        if not isinstance(v, str):
            self.type_error(_json_kind(v), t.go)
            return _KEEP
        return v

    def _duration(self, v: Any) -> Duration:
        """metav1.Duration's UnmarshalJSON: a Go duration string; its errors stop decoding."""
        if v is None:
            v = ""
        if not isinstance(v, str):
            raise _Abort(f"json: cannot unmarshal {_json_kind(v)} into Go value of type string")
        return Duration(parse_duration(v))


def _zero(t: T) -> Any:
    if isinstance(t, Scalar):
        return {"int32": 0, "int64": 0, "float32": 0.0, "bool": False, "bytes": b"",
                "duration": Duration()}.get(t.kind, "")
    return None


_UNITS = {"ns": 1, "us": 1_000, "µs": 1_000, "μs": 1_000, "ms": 1_000_000,
          "s": 1_000_000_000, "m": 60_000_000_000, "h": 3_600_000_000_000}


@plumbing("Go's time.ParseDuration, from the Go standard library")
def parse_duration(s: str) -> int:
    """time.ParseDuration, in nanoseconds; raises _Abort with Go's message."""
    orig = s
    if s in ("0", "+0", "-0"):
        return 0
    neg = s.startswith("-")
    if s[:1] in "+-":
        s = s[1:]
    if not s:
        raise _Abort(f"time: invalid duration {go_quote(orig)}")
    total = 0.0
    while s:
        m = re.match(r"([0-9]*)(\.[0-9]*)?", s)
        if not m or (m.group(1) == "" and m.group(2) in (None, ".")):
            raise _Abort(f"time: invalid duration {go_quote(orig)}")
        number = float((m.group(1) or "0") + (m.group(2) or ""))
        s = s[m.end():]
        u = re.match(r"[^0-9.]*", s).group(0)
        if not u:
            raise _Abort(f"time: missing unit in duration {go_quote(orig)}")
        if u not in _UNITS:
            raise _Abort(f"time: unknown unit {go_quote(u)} in duration {go_quote(orig)}")
        total += number * _UNITS[u]
        s = s[len(u):]
    return -int(round(total)) if neg else int(round(total))


# --- apimachinery serializer: apiVersion/kind ----------------------------------------------

_FIND_KIND_TYPE = ('struct { APIVersion string "json:\\"apiVersion,omitempty\\""; '
                   'Kind string "json:\\"kind,omitempty\\"" }')


@ports("vendor/k8s.io/apimachinery/pkg/runtime/serializer/json/meta.go", "(SimpleMetaFactory).Interpret", 48, 63, repo=SCHEDULER_PLUGINS)
def interpret(value: Any) -> tuple[str, str, str]:
    """SimpleMetaFactory.Interpret: (group, version, kind) of a decoded document."""
    if value is None:
        return "", "", ""
    if not isinstance(value, dict):
        raise DecodeError("couldn't get version/kind; json parse error: json: cannot unmarshal "
                          f"{_json_kind(value)} into Go value of type {_FIND_KIND_TYPE}")
    found = {"apiversion": "", "kind": ""}
    for key in sorted(value):  # encoding/json matches names case-insensitively
        k = key.lower()
        if k in found and value[key] is not None:
            if not isinstance(value[key], str):
                raise DecodeError("couldn't get version/kind; json parse error: json: cannot "
                                  f"unmarshal {_json_kind(value[key])} into Go struct field "
                                  f".{'apiVersion' if k == 'apiversion' else 'kind'} of type string")
            found[k] = value[key]
    group, version = parse_group_version(found["apiversion"])
    return group, version, found["kind"]


@ports("vendor/k8s.io/apimachinery/pkg/runtime/schema/group_version.go", "ParseGroupVersion", 211, 227, repo=SCHEDULER_PLUGINS)
def parse_group_version(gv: str) -> tuple[str, str]:
    if gv in ("", "/"):
        return "", ""
    n = gv.count("/")
    if n == 0:
        return "", gv
    if n == 1:
        g, v = gv.split("/")
        return g, v
    raise DecodeError(f"unexpected GroupVersion string: {gv}")


def _group_version(group: str, version: str) -> str:
    return f"{group}/{version}" if group else version


@ports("vendor/k8s.io/apimachinery/pkg/runtime/error.go", "(*notRegisteredErr).Error", 50, 69, repo=SCHEDULER_PLUGINS)
def not_registered(group: str, version: str, kind: str) -> DecodeError:
    if version == "__internal":
        return DecodeError(f"no kind {go_quote(kind)} is registered for the internal version of "
                           f"group {go_quote(group)} in scheme {go_quote(SCHEME_NAME)}")
    return DecodeError(f"no kind {go_quote(kind)} is registered for version "
                       f"{go_quote(_group_version(group, version))} in scheme "
                       f"{go_quote(SCHEME_NAME)}")


def _strict_message(errors: list[str]) -> str:
    return "strict decoding error: " + ", ".join(errors)


# --- the whole document -----------------------------------------------------------------------


@ports("vendor/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go", "(*Serializer).Decode", 135, 213, repo=SCHEDULER_PLUGINS)
def decode_configuration(text: str) -> KubeSchedulerConfiguration:
    """Decode a KubeSchedulerConfiguration file as kube-scheduler's UniversalDecoder does.

    Raises :class:`DecodeError` with upstream's message; defaulting is not applied.
    """
    try:
        converted = yaml_to_json(text)
    except YAMLError as e:
        raise DecodeError(str(e)) from None
    group, version, kind = interpret(converted.value)
    if not kind:
        raise DecodeError(f"Object 'Kind' is missing in '{text}'")
    if not version:
        raise DecodeError(f"Object 'apiVersion' is missing in '{text}'")
    if group != GROUP_NAME or version != VERSION or kind not in REGISTERED_KINDS:
        raise not_registered(group, version, kind)
    if kind != KIND:
        raise DecodeError(f"couldn't decode as KubeSchedulerConfiguration, got "
                          f"{group}/{version}, Kind={kind}: ")

    strict: list[str] = []
    if converted.strict_error() is not None:
        strict.append(converted.strict_error())  # upstream: YAMLToJSONStrict
    d = _Decoder()
    try:
        cfg = d.decode(converted.value, CONFIGURATION)
    except _Abort as e:
        raise DecodeError(str(e)) from None
    if d.saved_error is not None:
        raise DecodeError(d.saved_error)
    strict.extend(d.strict_errors)
    strict.extend(decode_nested_objects(cfg))
    if strict:
        raise DecodeError(_strict_message(strict))
    cfg.api_version = f"{group}/{version}"
    for prof in cfg.profiles:
        if prof.plugins is not None:
            _set_plugin_weights(prof.plugins)
    return cfg


def _set_plugin_weights(plugins: Plugins) -> None:
    # upstream conversion: a nil *int32 weight becomes 0.
    for f in PLUGINS.fields.values():
        ps = getattr(plugins, f.attr)
        for p in ps.enabled + ps.disabled:
            if p.weight is None:
                p.weight = 0


@ports("vendor/k8s.io/kube-scheduler/config/v1/types.go", "(*KubeSchedulerConfiguration).DecodeNestedObjects", 101, 121, repo=SCHEDULER_PLUGINS)
def decode_nested_objects(cfg: KubeSchedulerConfiguration) -> list[str]:
    """KubeSchedulerConfiguration.DecodeNestedObjects: decode each in-tree plugin's args.

    Returns the strict errors; raises DecodeError on any other error.
    """
    strict: list[str] = []
    for i, prof in enumerate(cfg.profiles):
        for j, pc in enumerate(prof.plugin_config):
            try:
                errs = _decode_plugin_args(pc)
            except DecodeError as e:
                raise DecodeError(f"decoding .profiles[{i}].pluginConfig[{j}]: {e}") from None
            if errs:
                strict.append(f"decoding .profiles[{i}].pluginConfig[{j}]: "
                              + _strict_message([f"decoding args for plugin {pc.name}: "
                                                 + _strict_message(errs)]))
    return strict


@ports("vendor/k8s.io/kube-scheduler/config/v1/types.go", "(*PluginConfig).decodeNestedObjects", 270, 292, repo=SCHEDULER_PLUGINS)
def _decode_plugin_args(pc: PluginConfig) -> list[str]:
    want_kind = pc.name + "Args"
    if want_kind not in ARGS_SCHEMAS:
        return []  # out-of-tree or no args type: the raw value stays (runtime.Unknown)
    raw = pc.args
    try:
        group, version, kind = interpret(raw)
    except DecodeError as e:
        raise DecodeError(f"decoding args for plugin {pc.name}: {e}") from None
    # gvkWithDefaults: the expected kind fills what the args leave out.
    if not kind:
        kind = want_kind
    if not version and not group:
        group, version = GROUP_NAME, VERSION
    elif not version and group == GROUP_NAME:
        version = VERSION
    if group != GROUP_NAME or version != VERSION or kind not in ARGS_SCHEMAS:
        raise DecodeError(f"decoding args for plugin {pc.name}: "
                          f"{not_registered(group, version, kind)}")
    d = _Decoder()
    try:
        obj = d.decode(raw, ARGS_SCHEMAS[kind])
    except _Abort as e:
        raise DecodeError(f"decoding args for plugin {pc.name}: {e}") from None
    if d.saved_error is not None:
        raise DecodeError(f"decoding args for plugin {pc.name}: {d.saved_error}")
    if kind != want_kind:
        raise DecodeError(f"args for plugin {pc.name} were not of type {want_kind}.{GROUP_NAME}, "
                          f"got {kind}.{GROUP_NAME}")
    pc.args = ARGS_SCHEMAS[kind].factory() if obj is _KEEP else obj
    return d.strict_errors
