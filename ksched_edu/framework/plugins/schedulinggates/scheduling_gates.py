"""Port of pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go (v1.30).

SchedulingGates holds a pod out of the active queue while its
``spec.schedulingGates`` list is not empty; only removing the gates (an update
of the pod itself) lets it in.
"""
from __future__ import annotations

from typing import Any, Optional

from ....api.types import Pod
from ...interface import Code, Status, new_status
from ...types import ClusterEventWithHint
from ..names import SCHEDULING_GATES

NAME = SCHEDULING_GATES

# Extension points: PreEnqueue, EnqueueExtensions.


class SchedulingGates:
    def name(self) -> str:
        return NAME

    def pre_enqueue(self, pod: Pod) -> Optional[Status]:
        if len(pod.spec.scheduling_gates) == 0:
            return None
        # Go's %v of a []string: "[a b]".
        gates = "[" + " ".join(pod.spec.scheduling_gates) + "]"
        return new_status(Code.UnschedulableAndUnresolvable, f"waiting for scheduling gates: {gates}")

    def events_to_register(self) -> list[ClusterEventWithHint]:
        """No cluster event: only an update of the gated pod itself lifts its gates."""
        return []


def new(args: Any, handle: Any) -> SchedulingGates:
    return SchedulingGates()
