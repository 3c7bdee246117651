"""Port of k8s.io/component-base/featuregate/feature_gate.go and of the gates of
pkg/features/kube_features.go (v1.30) that kube-scheduler reads.

kube-scheduler's ``--feature-gates A=true,B=false`` sets gates on one feature gate that
knows every gate of the release (:mod:`ksched_edu.config.feature_gates`: 168 of them,
with their defaults and stages). A gate it does not know is refused (``unrecognized
feature gate: A``), and so is a value other than the default for a gate locked to it
(a GA gate). ``AllAlpha`` and ``AllBeta`` set every alpha (beta) gate not set otherwise.

What the scheduler reads of them: ``SchedulerQueueingHints`` (the queue),
``DynamicResourceAllocation`` and ``VolumeCapacityPriority`` (the configuration's
defaults and validation), and the gates the in-tree plugins receive as
``feature.Features`` (:mod:`ksched_edu.framework.plugins.feature`). A mapping of gate
names to values (``FeatureGate.overrides()``) is what the rest of the port takes as
``gates``; an absent gate has its v1.30 default.

Deviations:
- Setting a deprecated or GA gate does not log klog's warning.
"""
from __future__ import annotations

from typing import Mapping, Optional

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from .feature_gates import KNOWN_FEATURE_GATES

DYNAMIC_RESOURCE_ALLOCATION = "DynamicResourceAllocation"
VOLUME_CAPACITY_PRIORITY = "VolumeCapacityPriority"
SCHEDULER_QUEUEING_HINTS = "SchedulerQueueingHints"
ALL_ALPHA = "AllAlpha"
ALL_BETA = "AllBeta"

DEFAULT_FEATURE_GATES: Mapping[str, bool] = {name: spec[0] for name, spec in KNOWN_FEATURE_GATES.items()}


@plumbing("a feature gate kube-scheduler refuses, with its message")
class FeatureGateError(ValueError):
    """An unknown gate, a locked one set otherwise, or a value that is not a boolean."""


@ports("vendor/k8s.io/component-base/featuregate/feature_gate.go", "featureGate", 131, 145, repo=SCHEDULER_PLUGINS)
class FeatureGate:
    """The gates kube-scheduler v1.30.4 knows, and the ones set (``overrides()``)."""

    @ports("vendor/k8s.io/component-base/featuregate/feature_gate.go", "NewFeatureGate", 174, 188,
           repo=SCHEDULER_PLUGINS)
    def __init__(self) -> None:
        self.known = dict(KNOWN_FEATURE_GATES)
        self._enabled: dict[str, bool] = {}

    @ports("vendor/k8s.io/component-base/featuregate/feature_gate.go", "(*featureGate).Set", 192, 211,
           repo=SCHEDULER_PLUGINS)
    def set(self, value: str) -> None:
        """Parse ``key1=value1,key2=value2`` (the flag's text) and set those gates."""
        m: dict[str, bool] = {}
        for s in value.split(","):
            if not s:
                continue
            k, sep, v = s.partition("=")
            k = k.strip()
            if not sep:
                raise FeatureGateError(f"missing bool value for {k}")
            v = v.strip()
            parsed = parse_bool(v)
            if parsed is None:
                raise FeatureGateError(f"invalid value of {k}={v}, err: strconv.ParseBool: "
                                       f"parsing \"{v}\": invalid syntax")
            m[k] = parsed
        self.set_from_map(m)

    @ports("vendor/k8s.io/component-base/featuregate/feature_gate.go", "(*featureGate).SetFromMap", 214, 256,
           repo=SCHEDULER_PLUGINS)
    def set_from_map(self, m: Mapping[str, bool]) -> None:
        """Set the gates of ``m``; nothing is set when one of them is refused."""
        enabled = dict(self._enabled)
        for k, v in m.items():
            spec = self.known.get(k)
            if spec is None:
                raise FeatureGateError(f"unrecognized feature gate: {k}")
            default, _, locked = spec
            if locked and default != v:
                raise FeatureGateError(f"cannot set feature gate {k} to {str(v).lower()}, "
                                       f"feature is locked to {str(default).lower()}")
            enabled[k] = v
            if k in (ALL_ALPHA, ALL_BETA):
                set_unset_gates(self.known, enabled, "ALPHA" if k == ALL_ALPHA else "BETA", v)
        self._enabled = enabled

    @ports("vendor/k8s.io/component-base/featuregate/feature_gate.go", "(*featureGate).Enabled", 346, 355,
           repo=SCHEDULER_PLUGINS)
    def enabled(self, key: str) -> bool:
        if key in self._enabled:
            return self._enabled[key]
        if key in self.known:
            return self.known[key][0]
        raise KeyError(f"feature {key!r} is not registered in FeatureGate")

    @plumbing("the gates set, as the mapping the rest of the port takes")
    def overrides(self) -> dict[str, bool]:
        return dict(self._enabled)


@ports("vendor/k8s.io/component-base/featuregate/feature_gate.go", "setUnsetAlphaGates", 147, 155,
       repo=SCHEDULER_PLUGINS)
def set_unset_gates(known: Mapping[str, tuple[bool, str, bool]], enabled: dict[str, bool],
                    stage: str, value: bool) -> None:
    """AllAlpha / AllBeta (setUnsetBetaGates is the same for BETA): every gate of the
    stage that is not set yet takes the value."""
    for k, (_, pre_release, _) in known.items():
        if pre_release == stage and k not in enabled:
            enabled[k] = value


@plumbing("Go's strconv.ParseBool")
def parse_bool(text: str) -> Optional[bool]:
    """strconv.ParseBool: 1, t, T, TRUE, true, True and their false forms; None otherwise."""
    if text in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if text in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    return None


@ports("vendor/k8s.io/component-base/featuregate/feature_gate.go", "(*featureGate).Enabled", 346, 355,
       repo=SCHEDULER_PLUGINS)
def enabled(name: str, gates: Optional[Mapping[str, bool]] = None) -> bool:
    """Whether a gate is on: ``gates`` (the gates set) overrides the v1.30 defaults."""
    if gates is not None and name in gates:
        return bool(gates[name])
    return bool(DEFAULT_FEATURE_GATES.get(name, False))


@plumbing("a case's or a flag's gates, checked as kube-scheduler checks them")
def feature_gates_from_map(m: Mapping[str, object], where: str = "featureGates") -> dict[str, bool]:
    """Validate ``{gate: bool}`` (a case.yaml's ``featureGates``); FeatureGateError names ``where``."""
    values: dict[str, bool] = {}
    for k, v in m.items():
        if not isinstance(v, bool):
            raise FeatureGateError(f"{where}: {k}: expected true or false, got {v!r}")
        values[str(k)] = v
    gate = FeatureGate()
    try:
        gate.set_from_map(values)
        check_ported(gate.overrides())
    except FeatureGateError as err:
        raise FeatureGateError(f"{where}: {err}") from None
    return gate.overrides()


@plumbing("a gate whose code is not ported: said, not silently run without it")
def check_ported(gates: Mapping[str, bool]) -> None:
    """FeatureGateError when ``gates`` turn on what the port lacks (the DynamicResources
    plugin, behind DynamicResourceAllocation, alpha and off in v1.30)."""
    if enabled(DYNAMIC_RESOURCE_ALLOCATION, gates):
        raise FeatureGateError(f"{DYNAMIC_RESOURCE_ALLOCATION}=true: the DynamicResources plugin it enables "
                               "is not ported (see README.md, What is not ported yet)")
