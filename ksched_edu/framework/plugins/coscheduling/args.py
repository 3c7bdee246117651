"""Port of apis/config/types.go, v1/types.go and v1/defaults.go of kubernetes-sigs/scheduler-plugins
(commit 37b7888a), the CoschedulingArgs part.

The two settings of the Coscheduling plugin: how long a gang member may wait
at Permit when its PodGroup sets no ``scheduleTimeoutSeconds`` (default 60 s),
and how long a gang that failed is turned away at PreFilter (default 0: not
at all). The configuration loader keeps an out-of-tree plugin's ``args`` as
the raw mapping; :func:`decode_coscheduling_args` reads it here.

Deviations:
- Decoding happens when the plugin is built, not when the configuration file
  is read, so a bad field is reported as ``initializing plugin "Coscheduling": ...``
  rather than as a strict decoding error of the file.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ....anchors import SCHEDULER_PLUGINS, plumbing, ports

DEFAULT_PERMIT_WAITING_TIME_SECONDS = 60
DEFAULT_POD_GROUP_BACKOFF_SECONDS = 0

# JSON name -> field name of the v1 type.
_FIELDS = {"permitWaitingTimeSeconds": "permit_waiting_time_seconds",
           "podGroupBackoffSeconds": "pod_group_backoff_seconds"}


@ports("apis/config/v1/types.go", "CoschedulingArgs", 28, 35, repo=SCHEDULER_PLUGINS)
@dataclass
class CoschedulingArgs:
    # Seconds a member may wait at Permit when its group has no scheduleTimeoutSeconds.
    permit_waiting_time_seconds: Optional[int] = None
    # Seconds a rejected group is refused at PreFilter (0: never).
    pod_group_backoff_seconds: Optional[int] = None


@ports("apis/config/v1/defaults.go", "SetDefaults_CoschedulingArgs", 108, 115, repo=SCHEDULER_PLUGINS)
def set_defaults_coscheduling_args(args: CoschedulingArgs) -> None:
    """Upstream SetDefaults_CoschedulingArgs: fill the unset fields."""
    if args.permit_waiting_time_seconds is None:
        args.permit_waiting_time_seconds = DEFAULT_PERMIT_WAITING_TIME_SECONDS
    if args.pod_group_backoff_seconds is None:
        args.pod_group_backoff_seconds = DEFAULT_POD_GROUP_BACKOFF_SECONDS


@plumbing("reads a pluginConfig args mapping, which upstream decodes with its API scheme")
def decode_coscheduling_args(raw: Any) -> CoschedulingArgs:
    """The defaulted args from a pluginConfig entry's ``args`` (a mapping, None, or CoschedulingArgs).

    Raises ValueError naming the field when a value has the wrong type or a field is unknown.
    """
    if isinstance(raw, CoschedulingArgs):
        args = CoschedulingArgs(raw.permit_waiting_time_seconds, raw.pod_group_backoff_seconds)
    elif raw is None:
        args = CoschedulingArgs()
    elif isinstance(raw, dict):
        args = CoschedulingArgs()
        for key, value in raw.items():
            if key in ("apiVersion", "kind"):
                continue
            if key not in _FIELDS:
                raise ValueError(f"decoding CoschedulingArgs: unknown field \"{key}\"")
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"decoding CoschedulingArgs: {key}: expected an integer, got {value!r}")
            setattr(args, _FIELDS[key], value)
    else:
        raise ValueError(f"want args to be of type CoschedulingArgs, got {type(raw).__name__}")
    set_defaults_coscheduling_args(args)
    return args
