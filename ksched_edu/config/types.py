"""Port of pkg/scheduler/apis/config/types.go (v1.30).

The internal KubeSchedulerConfiguration: global knobs (parallelism,
percentageOfNodesToScore, backoff), the scheduling profiles, and per profile
the plugin sets of every extension point plus the plugins' arguments.
:mod:`ksched_edu.config.loader` decodes a ``kubescheduler.config.k8s.io/v1``
file into these classes, then defaults and validates them.

Deviations:
- A field that is a pointer in the v1 API and a value here (``parallelism``,
  the backoffs, a profile's ``schedulerName``) is ``None`` until defaulting;
  after :func:`~ksched_edu.config.loader.load_config` it always holds a value.
- ``PluginConfig.args`` holds a dataclass of
  :mod:`ksched_edu.config.types_pluginargs` for in-tree plugins, a ``dict``
  (the raw JSON object, upstream's ``runtime.Unknown``) for any other plugin,
  or ``None``.
- Leader election, client connection, profiling and extenders are decoded
  and validated but nothing in the simulator uses them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from .gofmt import Duration, register_go_struct

DEFAULT_KUBE_SCHEDULER_PORT = 10259
# A value of 0 means adaptive: the scheduler picks 5%..50% by cluster size.
DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE = 0
MAX_CUSTOM_PRIORITY_SCORE = 10
MAX_TOTAL_SCORE = 2**63 - 1
MAX_WEIGHT = MAX_TOTAL_SCORE // MAX_CUSTOM_PRIORITY_SCORE

GROUP_NAME = "kubescheduler.config.k8s.io"
SCHEME_GROUP_VERSION = "kubescheduler.config.k8s.io/v1"

# Extension points, by their v1 JSON names, in the order of the Plugins struct.
EXTENSION_POINTS = (
    "preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore",
    "score", "reserve", "permit", "preBind", "bind", "postBind", "multiPoint",
)
# JSON name -> Python attribute of Plugins.
POINT_ATTRS = {
    "preEnqueue": "pre_enqueue", "queueSort": "queue_sort", "preFilter": "pre_filter",
    "filter": "filter", "postFilter": "post_filter", "preScore": "pre_score",
    "score": "score", "reserve": "reserve", "permit": "permit", "preBind": "pre_bind",
    "bind": "bind", "postBind": "post_bind", "multiPoint": "multi_point",
}


@ports("pkg/scheduler/apis/config/types.go", "Plugin", 193, 198)
@dataclass
class Plugin:
    """A plugin name and its weight (the weight is read only at Score)."""

    name: str
    weight: int = 0


@ports("pkg/scheduler/apis/config/types.go", "PluginSet", 183, 190)
@dataclass
class PluginSet:
    """Plugins enabled (in addition to the defaults) and disabled at one extension point."""

    enabled: list[Plugin] = field(default_factory=list)
    disabled: list[Plugin] = field(default_factory=list)


@ports("pkg/scheduler/apis/config/types.go", "Plugins", 138, 179)
@dataclass
class Plugins:
    """The plugin set of every extension point, plus MultiPoint."""

    pre_enqueue: PluginSet = field(default_factory=PluginSet)
    queue_sort: PluginSet = field(default_factory=PluginSet)
    pre_filter: PluginSet = field(default_factory=PluginSet)
    filter: PluginSet = field(default_factory=PluginSet)
    post_filter: PluginSet = field(default_factory=PluginSet)
    pre_score: PluginSet = field(default_factory=PluginSet)
    score: PluginSet = field(default_factory=PluginSet)
    reserve: PluginSet = field(default_factory=PluginSet)
    permit: PluginSet = field(default_factory=PluginSet)
    pre_bind: PluginSet = field(default_factory=PluginSet)
    bind: PluginSet = field(default_factory=PluginSet)
    post_bind: PluginSet = field(default_factory=PluginSet)
    multi_point: PluginSet = field(default_factory=PluginSet)

    @plumbing("looks up an extension point's plugin set by name")
    def point(self, name: str) -> PluginSet:
        """The plugin set of an extension point, by JSON (``"preFilter"``) or Python name."""
        return getattr(self, POINT_ATTRS.get(name, name))

    @ports("pkg/scheduler/apis/config/types.go", "(*Plugins).Names", 230, 255)
    def names(self) -> list[str]:
        """Upstream Plugins.Names: sorted names enabled at any point but MultiPoint."""
        points = (self.pre_enqueue, self.pre_filter, self.filter, self.post_filter,
                  self.reserve, self.pre_score, self.score, self.pre_bind, self.bind,
                  self.post_bind, self.permit, self.queue_sort)
        return sorted({p.name for ps in points for p in ps.enabled})


@ports("pkg/scheduler/apis/config/types.go", "PluginConfig", 203, 208)
@dataclass
class PluginConfig:
    """Arguments handed to one plugin when it is built."""

    name: str
    args: Any = None


@ports("pkg/scheduler/apis/config/types.go", "KubeSchedulerProfile", 100, 131)
@dataclass
class KubeSchedulerProfile:
    scheduler_name: Optional[str] = None
    # Overrides the global value when set; None means "use the global one".
    percentage_of_nodes_to_score: Optional[int] = None
    plugins: Optional[Plugins] = None
    plugin_config: list[PluginConfig] = field(default_factory=list)


@ports("vendor/k8s.io/component-base/config/types.go", "LeaderElectionConfiguration", 41, 71, repo=SCHEDULER_PLUGINS)
@dataclass
class LeaderElectionConfiguration:
    """component-base LeaderElectionConfiguration (decoded, defaulted, validated, unused)."""

    leader_elect: Optional[bool] = None
    lease_duration: Duration = Duration()
    renew_deadline: Duration = Duration()
    retry_period: Duration = Duration()
    resource_lock: str = ""
    resource_name: str = ""
    resource_namespace: str = ""


@ports("vendor/k8s.io/component-base/config/types.go", "ClientConnectionConfiguration", 24, 37, repo=SCHEDULER_PLUGINS)
@dataclass
class ClientConnectionConfiguration:
    """component-base ClientConnectionConfiguration (decoded, defaulted, validated, unused)."""

    kubeconfig: str = ""
    accept_content_types: str = ""
    content_type: str = ""
    qps: float = 0.0
    burst: int = 0


@ports("pkg/scheduler/apis/config/types.go", "ExtenderManagedResource", 303, 309)
@dataclass
class ExtenderManagedResource:
    name: str = ""
    ignored_by_scheduler: bool = False


@ports("pkg/scheduler/apis/config/types.go", "ExtenderTLSConfig", 312, 336)
@dataclass
class ExtenderTLSConfig:
    insecure: bool = False
    server_name: str = ""
    cert_file: str = ""
    key_file: str = ""
    ca_file: str = ""
    cert_data: bytes = b""
    key_data: bytes = b""
    ca_data: bytes = b""


@ports("pkg/scheduler/apis/config/types.go", "Extender", 259, 299)
@dataclass
class Extender:
    """An HTTP scheduler extender (validated; the simulator calls none)."""

    url_prefix: str = ""
    filter_verb: str = ""
    preempt_verb: str = ""
    prioritize_verb: str = ""
    weight: int = 0
    bind_verb: str = ""
    enable_https: bool = False
    tls_config: Optional[ExtenderTLSConfig] = None
    http_timeout: Duration = Duration()
    node_cache_capable: bool = False
    managed_resources: list[ExtenderManagedResource] = field(default_factory=list)
    ignorable: bool = False


@ports("pkg/scheduler/apis/config/types.go", "KubeSchedulerConfiguration", 37, 97)
@dataclass
class KubeSchedulerConfiguration:
    api_version: str = ""
    parallelism: Optional[int] = None
    leader_election: LeaderElectionConfiguration = field(default_factory=LeaderElectionConfiguration)
    client_connection: ClientConnectionConfiguration = field(
        default_factory=ClientConnectionConfiguration)
    # DebuggingConfiguration, inlined upstream.
    enable_profiling: Optional[bool] = None
    enable_contention_profiling: Optional[bool] = None
    percentage_of_nodes_to_score: Optional[int] = None
    pod_initial_backoff_seconds: Optional[int] = None
    pod_max_backoff_seconds: Optional[int] = None
    profiles: list[KubeSchedulerProfile] = field(default_factory=list)
    extenders: list[Extender] = field(default_factory=list)
    delay_cache_until_active: bool = False

    @plumbing("finds a profile by scheduler name, for notebooks and tests")
    def profile(self, scheduler_name: str) -> Optional[KubeSchedulerProfile]:
        """The profile serving ``scheduler_name``, or None."""
        for p in self.profiles:
            if p.scheduler_name == scheduler_name:
                return p
        return None


# --- how these values print in Go (%#v) -------------------------------------

register_go_struct(Plugin, "config.Plugin", [("Name", "string", "name"), ("Weight", "int32", "weight")])
register_go_struct(PluginSet, "config.PluginSet", [
    ("Enabled", "[]config.Plugin", "enabled"), ("Disabled", "[]config.Plugin", "disabled")])
register_go_struct(Plugins, "config.Plugins", [
    (go, "config.PluginSet", POINT_ATTRS[json])
    for go, json in (("PreEnqueue", "preEnqueue"), ("QueueSort", "queueSort"),
                     ("PreFilter", "preFilter"), ("Filter", "filter"),
                     ("PostFilter", "postFilter"), ("PreScore", "preScore"),
                     ("Score", "score"), ("Reserve", "reserve"), ("Permit", "permit"),
                     ("PreBind", "preBind"), ("Bind", "bind"), ("PostBind", "postBind"),
                     ("MultiPoint", "multiPoint"))])
register_go_struct(PluginConfig, "config.PluginConfig", [
    ("Name", "string", "name"), ("Args", "runtime.Object", "args")])
register_go_struct(KubeSchedulerProfile, "config.KubeSchedulerProfile", [
    ("SchedulerName", "string", lambda p: p.scheduler_name or ""),
    ("PercentageOfNodesToScore", "*int32", "percentage_of_nodes_to_score"),
    ("Plugins", "*config.Plugins", "plugins"),
    ("PluginConfig", "[]config.PluginConfig", "plugin_config")])
