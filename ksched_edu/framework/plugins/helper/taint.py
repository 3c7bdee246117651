"""Port of pkg/scheduler/framework/plugins/helper/taint.go (v1.30).

The taint filter that TaintToleration's Filter (and PodTopologySpread's
node-taints policy) apply: only NoSchedule and NoExecute taints keep a pod off
a node; PreferNoSchedule is a scoring matter.
"""
from __future__ import annotations

from typing import Callable

from ....anchors import ports
from ....api.types import TAINT_NO_EXECUTE, TAINT_NO_SCHEDULE, Taint


@ports("pkg/scheduler/framework/plugins/helper/taint.go", "DoNotScheduleTaintsFilterFunc", 23, 28)
def do_not_schedule_taints_filter_func() -> Callable[[Taint], bool]:
    """A predicate keeping the taints whose effect is NoSchedule or NoExecute."""

    def keep(t: Taint) -> bool:
        return t.effect in (TAINT_NO_SCHEDULE, TAINT_NO_EXECUTE)

    return keep
