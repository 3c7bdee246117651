"""Port of pkg/scheduler/internal/queue and internal/heap (v1.30): the scheduling queue."""
from .scheduling_queue import (ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_PODS, PriorityQueue, QueueError,
                               QueueingHintFunction, QueueingStrategy, UnschedulablePods, build_queueing_hint_map,
                               new_priority_queue)

__all__ = ["ACTIVE_Q", "BACKOFF_Q", "UNSCHEDULABLE_PODS", "PriorityQueue", "QueueError", "QueueingHintFunction",
           "QueueingStrategy", "UnschedulablePods", "build_queueing_hint_map", "new_priority_queue"]
