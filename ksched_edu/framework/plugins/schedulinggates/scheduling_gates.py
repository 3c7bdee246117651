"""Port of pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go (v1.30).

SchedulingGates holds a pod out of the active queue while its
``spec.schedulingGates`` list is not empty; only removing the gates (an update
of the pod itself) lets it in.
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import ports
from ....api.types import Pod
from ...interface import Code, Status, new_status
from ...types import ClusterEventWithHint
from ..names import SCHEDULING_GATES

NAME = SCHEDULING_GATES

# Extension points: PreEnqueue, EnqueueExtensions.


@ports("pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go", "SchedulingGates", 33, 33)
class SchedulingGates:
    @ports("pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go", "(*SchedulingGates).Name", 38, 40)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go", "(*SchedulingGates).PreEnqueue", 42, 51)
    def pre_enqueue(self, pod: Pod) -> Optional[Status]:
        if len(pod.spec.scheduling_gates) == 0:
            return None
        # Go's %v of a []string: "[a b]".
        gates = "[" + " ".join(pod.spec.scheduling_gates) + "]"
        return new_status(Code.UnschedulableAndUnresolvable, f"waiting for scheduling gates: {gates}")

    @ports("pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go", "(*SchedulingGates).EventsToRegister", 55, 57)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        """No cluster event: only an update of the gated pod itself lifts its gates."""
        return []


@ports("pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go", "New", 60, 62)
def new(args: Any, handle: Any) -> SchedulingGates:
    return SchedulingGates()
