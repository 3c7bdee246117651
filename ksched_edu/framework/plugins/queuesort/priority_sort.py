"""Port of pkg/scheduler/framework/plugins/queuesort/priority_sort.go (v1.30).

PrioritySort orders the active queue: higher priority first and, within one
priority, the pod that entered the queue earlier first.
"""
from __future__ import annotations

from typing import Any

from ....anchors import ports
from ....api.tolerations import pod_priority
from ...types import QueuedPodInfo
from ..names import PRIORITY_SORT

NAME = PRIORITY_SORT

# Extension points: QueueSort.


@ports("pkg/scheduler/framework/plugins/queuesort/priority_sort.go", "PrioritySort", 31, 31)
class PrioritySort:
    @ports("pkg/scheduler/framework/plugins/queuesort/priority_sort.go", "(*PrioritySort).Name", 36, 38)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/queuesort/priority_sort.go", "(*PrioritySort).Less", 43, 47)
    def less(self, p_info1: QueuedPodInfo, p_info2: QueuedPodInfo) -> bool:
        """Whether ``p_info1`` goes before ``p_info2``: priority, then queue timestamp."""
        p1 = pod_priority(p_info1.pod)
        p2 = pod_priority(p_info2.pod)
        return p1 > p2 or (p1 == p2 and p_info1.timestamp < p_info2.timestamp)


@ports("pkg/scheduler/framework/plugins/queuesort/priority_sort.go", "New", 50, 52)
def new(args: Any, handle: Any) -> PrioritySort:
    return PrioritySort()
