"""Port of pkg/scheduler/profile/profile.go (v1.30).

A scheduler runs one Framework per profile, keyed by ``schedulerName``; a pod
picks its profile with ``spec.schedulerName``. ``new_map`` builds them in
order and refuses profiles that disagree on the QueueSort plugin (there is
one scheduling queue, so there can be only one order).
"""
from __future__ import annotations

from typing import Any

from .anchors import plumbing, ports
from .framework.runtime import Framework, FrameworkError, Registry


@plumbing("Python exception for the errors upstream's NewMap returns")
class ProfileError(Exception):
    """Building the profiles failed; ``str()`` is upstream's error text."""


@ports("pkg/scheduler/profile/profile.go", "NewMap", 49, 65)
def new_map(profiles: list[Any], registry: Registry, **framework_options: Any) -> dict[str, Framework]:
    """Upstream NewMap: a Framework per profile, validated against the ones before it."""
    m: dict[str, Framework] = {}
    validator = _CfgValidator(m)
    for cfg in profiles:
        try:
            fwk = Framework(registry, cfg, **framework_options)
        except FrameworkError as err:
            raise ProfileError(f"creating profile for scheduler name {cfg.scheduler_name}: {err}") from err
        validator.validate(cfg, fwk)
        m[cfg.scheduler_name] = fwk
    return m


@ports("pkg/scheduler/profile/profile.go", "cfgValidator", 92, 96)
class _CfgValidator:
    def __init__(self, m: dict[str, Framework]) -> None:
        self.m = m
        self.queue_sort = ""
        self.queue_sort_args: Any = None

    @ports("pkg/scheduler/profile/profile.go", "(*cfgValidator).validate", 98, 129)
    def validate(self, cfg: Any, fwk: Framework) -> None:
        if not fwk.profile_name:
            raise ProfileError("scheduler name is needed")
        if fwk.profile_name in self.m:
            raise ProfileError(f"duplicate profile with scheduler name \"{fwk.profile_name}\"")
        queue_sort = fwk.queue_sort_plugins[0].name()
        args = next((pc.args for pc in cfg.plugin_config if pc.name == queue_sort), None)
        if not self.queue_sort:
            self.queue_sort, self.queue_sort_args = queue_sort, args
            return
        if self.queue_sort != queue_sort:
            raise ProfileError(f"different queue sort plugins for profile \"{cfg.scheduler_name}\": "
                               f"\"{queue_sort}\", first: \"{self.queue_sort}\"")
        if self.queue_sort_args != args:
            raise ProfileError(f"different queue sort plugin args for profile \"{cfg.scheduler_name}\"")
