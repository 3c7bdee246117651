"""Chapter 02 (scheduling queue): the checks its teaching cells leave out.

The chapter shows six functions of the queue and of NodeUnschedulable in SourceViews;
each view reads the anchor the port declares.
"""
from __future__ import annotations

from typing import Any

import pytest

from ksched_edu.framework.plugins.nodeunschedulable.node_unschedulable import NodeUnschedulable
from ksched_edu.internal.queue.scheduling_queue import PriorityQueue
from tests.chapter_views import assert_beside_its_go

pytestmark = pytest.mark.ch02

QUEUE = "pkg/scheduler/internal/queue/scheduling_queue.go"
SOURCE_VIEWS = [
    (PriorityQueue.pop, QUEUE, "(*PriorityQueue).Pop"),
    (PriorityQueue.flush_backoff_q_completed, QUEUE, "(*PriorityQueue).flushBackoffQCompleted"),
    (PriorityQueue.flush_unschedulable_pods_leftover, QUEUE, "(*PriorityQueue).flushUnschedulablePodsLeftover"),
    (PriorityQueue.add_unschedulable_if_not_present, QUEUE, "(*PriorityQueue).AddUnschedulableIfNotPresent"),
    (PriorityQueue.move_pods_to_active_or_backoff_queue, QUEUE, "(*PriorityQueue).movePodsToActiveOrBackoffQueue"),
    (NodeUnschedulable.is_schedulable_after_node_change,
     "pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go",
     "(*NodeUnschedulable).isSchedulableAfterNodeChange"),
]


@pytest.mark.parametrize("obj, path, go", SOURCE_VIEWS, ids=[row[2] for row in SOURCE_VIEWS])
def test_each_source_view_stands_beside_its_go(offline_go: None, obj: Any, path: str, go: str) -> None:
    assert_beside_its_go(obj, path, go)
