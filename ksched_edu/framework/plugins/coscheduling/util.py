"""Port of pkg/util/podgroup.go and pkg/util/resource.go of kubernetes-sigs/scheduler-plugins (commit 37b7888a).

Small helpers the Coscheduling plugin shares with its manager: which group a
pod belongs to (its ``scheduling.x-k8s.io/pod-group`` label), how long its
members may wait at Permit, and a node's free resources as a resource list.

Deviations:
- ``resource_list`` returns :class:`GoAmount` values, the int64 form
  (value x 10^scale) a Go ``resource.Quantity`` keeps, because the
  ``resource gap: ...`` message of PreFilter prints that form (Go's ``%v`` of a
  map of Quantity values). A quantity read from a manifest is taken in its
  canonical spelling (``500m``, ``6``, ``16Gi``); one written otherwise
  (``0.5``, ``6000m``) has the same amount but may print another scale.
  Values past int64 and fractional binary amounts (Go's ``inf.Dec`` path) are
  not modelled.
- No CreateMergePatch (the plugin does not patch PodGroups) and no
  GetPodEffectiveRequest (not used by Coscheduling).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ....anchors import SCHEDULER_PLUGINS, plumbing, ports
from ....api.podgroup import POD_GROUP_LABEL
from ....api.quantity import BINARY_SI, DECIMAL_SI, Quantity, interpret_suffix, parse_quantity_string
from ....api.types import Pod
from ...types import Resource

# Members wait this long at Permit when neither the group nor the args say (upstream DefaultWaitTime).
DEFAULT_WAIT_TIME = 60.0


@ports("pkg/util/podgroup.go", "GetPodGroupLabel", 51, 53, repo=SCHEDULER_PLUGINS)
def get_pod_group_label(pod: Pod) -> str:
    """The name of the pod's group, "" when it has none."""
    return pod.metadata.labels.get(POD_GROUP_LABEL, "")


@ports("pkg/util/podgroup.go", "GetPodGroupFullName", 56, 62, repo=SCHEDULER_PLUGINS)
def get_pod_group_full_name(pod: Pod) -> str:
    """``namespace/group`` of the pod's group, "" when it has none."""
    name = get_pod_group_label(pod)
    if not name:
        return ""
    return f"{pod.metadata.namespace}/{name}"


@ports("pkg/util/podgroup.go", "GetWaitTimeDuration", 68, 76, repo=SCHEDULER_PLUGINS)
def get_wait_time_duration(pg: Any, schedule_timeout: Optional[float]) -> float:
    """Seconds a member may wait: the group's scheduleTimeoutSeconds, else the
    plugin's timeout when not zero, else 60 s."""
    if pg is not None and pg.spec.schedule_timeout_seconds is not None:
        return float(pg.spec.schedule_timeout_seconds)
    if schedule_timeout is not None and schedule_timeout != 0:
        return schedule_timeout
    return DEFAULT_WAIT_TIME


@ports("vendor/k8s.io/apimachinery/pkg/api/resource/amount.go", "int64Amount", 58, 61, repo=SCHEDULER_PLUGINS)
@dataclass(frozen=True)
class GoAmount:
    """A Go Quantity in its int64 form: ``value * 10**scale``, with its Format."""

    value: int
    scale: int = 0
    format: str = DECIMAL_SI

    @classmethod
    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "ParseQuantity", 275, 389, repo=SCHEDULER_PLUGINS)
    def of(cls, q: Quantity) -> "GoAmount":
        """The int64 form ParseQuantity gives the canonical spelling of ``q``."""
        positive, num, denom, suffix = parse_quantity_string(str(q))
        base, exponent, _ = interpret_suffix(suffix)
        digits = int(num + denom)
        if base == 2:
            value, scale = digits << exponent, 0
        else:
            value, scale = digits, exponent - len(denom)
        return cls(value if positive else -value, scale, q.format)

    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/amount.go", "(int64Amount).Sign", 64, 73, repo=SCHEDULER_PLUGINS)
    def sign(self) -> int:
        return (self.value > 0) - (self.value < 0)

    @ports("vendor/k8s.io/apimachinery/pkg/api/resource/quantity.go", "(*Quantity).Sub", 584, 593, repo=SCHEDULER_PLUGINS)
    def sub(self, y: "GoAmount") -> "GoAmount":
        """Upstream Quantity.Sub on the int64 form: the finer scale wins."""
        fmt = y.format if self.value == 0 else self.format
        value, scale = _int64_add(self.value, self.scale, -y.value, y.scale)
        return GoAmount(value, scale, fmt)

    def __str__(self) -> str:
        # Go's %v of a Quantity value: {i:{value scale} d:{Dec:<nil>} s:"" Format}, without names.
        return f"{{{{{self.value} {self.scale}}} {{<nil>}}  {self.format}}}"


@ports("vendor/k8s.io/apimachinery/pkg/api/resource/amount.go", "(*int64Amount).Add", 162, 199, repo=SCHEDULER_PLUGINS)
def _int64_add(a_value: int, a_scale: int, b_value: int, b_scale: int) -> tuple[int, int]:
    """Upstream int64Amount.Add: align to the smaller scale, then add."""
    if b_value == 0:
        return a_value, a_scale
    if a_value == 0:
        return b_value, b_scale
    if a_scale == b_scale:
        return a_value + b_value, a_scale
    if a_scale > b_scale:
        return a_value * 10 ** (a_scale - b_scale) + b_value, b_scale
    return a_value + b_value * 10 ** (b_scale - a_scale), a_scale


@plumbing("Go's %v formatting of a resource list, for upstream's message strings")
def format_resource_list(rl: dict[str, GoAmount]) -> str:
    """Go's ``%v`` of a ResourceList: ``map[k:v ...]`` with the keys sorted."""
    return "map[" + " ".join(f"{name}:{rl[name]}" for name in sorted(rl)) + "]"


@ports("pkg/util/resource.go", "ResourceList", 28, 43, repo=SCHEDULER_PLUGINS)
def resource_list(r: Resource) -> dict[str, GoAmount]:
    """A Resource as a resource list (upstream util.ResourceList)."""
    result = {
        "cpu": GoAmount(r.milli_cpu, -3, DECIMAL_SI),
        "memory": GoAmount(r.memory, 0, BINARY_SI),
        "pods": GoAmount(r.allowed_pod_number, 0, BINARY_SI),
        "ephemeral-storage": GoAmount(r.ephemeral_storage, 0, BINARY_SI),
    }
    for name, value in r.scalar_resources.items():
        result[name] = GoAmount(value, 0, BINARY_SI if name.startswith("hugepages-") else DECIMAL_SI)
    return result
