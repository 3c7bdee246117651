"""Chapter 02 (scheduling queue): the checks its teaching cells leave out.

- The chapter shows six functions of the queue and of NodeUnschedulable in SourceViews; each
  view reads the anchor the port declares.
- Each v1.30.4 line the prose cites for the walkthroughs' names (section 1's callout, section 6's
  ``sync.Cond``) and for the path of a Pending status (DynamicResources at Reserve and at PreBind)
  is the line :data:`CITED` names; with a v1.30.4 checkout (see tests/test_ch00_tour.py) each
  holds what the chapter says it holds. The Pending path itself is claimed in the chapter, on the
  port, with a plugin standing in for DynamicResources.
- The "since v1.30" notes cite kubernetes/kubernetes at a commit, with lines, and name the release.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ksched_edu.anchors import upstream
from ksched_edu.framework.plugins.nodeunschedulable.node_unschedulable import NodeUnschedulable
from ksched_edu.internal.queue.scheduling_queue import PriorityQueue
from tests.chapter_views import assert_beside_its_go
from tests.test_ch00_tour import SCHEDULE_ONE, Cite, go_lines, needs_checkout

pytestmark = pytest.mark.ch02

CHAPTER = Path(__file__).resolve().parents[1] / "notebooks" / "02_scheduling_queue.ipynb"
QUEUE = "pkg/scheduler/internal/queue/scheduling_queue.go"
DRA = "pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go"
INTERFACE = "pkg/scheduler/framework/interface.go"
TYPES = "pkg/scheduler/framework/types.go"

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


# The cell (by id) that cites each line, and what the line holds.
CITED = {
    "c02": [Cite("unschedulablePods", QUEUE, 198, "unschedulablePods *UnschedulablePods"),
            Cite("UnschedulablePods", QUEUE, 1378, "type UnschedulablePods struct")],
    "5e68a52b": [Cite("Pop", QUEUE, 884, "func (p *PriorityQueue) Pop("),
                 Cite("p.cond", QUEUE, 165, "cond sync.Cond"),
                 Cite("p.cond", QUEUE, 385, "pq.cond.L = &pq.lock"),
                 Cite("p.cond.Wait()", QUEUE, 895, "p.cond.Wait()"),
                 *[Cite("p.cond.Broadcast()", QUEUE, line, "p.cond.Broadcast()") for line in (600, 857, 1228, 1290)]],
    "7e73ef8d": [Cite("Pending", INTERFACE, 115, "// Pending means that"),
                 Cite("Pending", INTERFACE, 131, "Pending"),
                 Cite("queueImmediately", QUEUE, 492, "if pInfo.PendingPlugins.Has(hintfn.PluginName) {"),
                 Cite("queueImmediately", QUEUE, 495, "return queueImmediately"),
                 Cite("rejectorPlugins", QUEUE, 747, "rejectorPlugins := pInfo.UnschedulablePlugins.Union(pInfo.PendingPlugins)")],
    "pending-path": [
        Cite("Reserve", DRA, 1473, 'return statusPending(logger, "waiting for resource driver to provide information"'),
        Cite("Reserve", DRA, 1466, "// More than one pending claim and not enough information about all of them."),
        Cite("PreBind", DRA, 1564, "if state.podSchedulingState.isDirty() {"),
        Cite("PreBind", DRA, 1568, 'return statusPending(logger, "waiting for resource driver",'),
        Cite("IsRejected", INTERFACE, 257, "func (s *Status) IsRejected() bool {"),
        Cite("IsRejected", INTERFACE, 259, "code == Pending"),
        Cite("AddPluginStatus", TYPES, 356, "func (d *Diagnosis) AddPluginStatus(sts *Status) {"),
        Cite("AddPluginStatus", TYPES, 366, "if sts.Code() == Pending {"),
        Cite("handleSchedulingFailure", SCHEDULE_ONE, 1042, "podInfo.UnschedulablePlugins = fitError.Diagnosis.UnschedulablePlugins"),
        Cite("handleSchedulingFailure", SCHEDULE_ONE, 1043, "podInfo.PendingPlugins = fitError.Diagnosis.PendingPlugins"),
        Cite("EventsToRegister", DRA, 396, "framework.PodSchedulingContext, ActionType: framework.Add | framework.Update"),
        Cite("bindingCycle", SCHEDULE_ONE, 294, "fwk.RunPreBindPlugins("),
        Cite("bindingCycle", SCHEDULE_ONE, 295, "return status"),
        Cite("handleSchedulingFailure", SCHEDULE_ONE, 1039, "if err == ErrNoNodesAvailable {"),
        Cite("handleSchedulingFailure", SCHEDULE_ONE, 1045, "} else {"),
        Cite("handleSchedulingFailure", SCHEDULE_ONE, 1046, '"Error scheduling pod; retrying"'),
        Cite("addUnschedulableWithoutQueueingHint", QUEUE, 754, "if p.moveRequestCycle >= podSchedulingCycle || len(rejectorPlugins) == 0 {"),
        Cite("addUnschedulableWithoutQueueingHint", QUEUE, 761, "if err := p.podBackoffQ.Add(pInfo); err != nil {"),
        Cite("determineSchedulingHintForInFlightPod", QUEUE, 697, "if len(rejectorPlugins) == 0 {"),
        Cite("determineSchedulingHintForInFlightPod", QUEUE, 701, "return queueAfterBackoff"),
        Cite("requeuePodViaQueueingHint", QUEUE, 1139, "if strategy == queueAfterBackoff && p.isPodBackingoff(pInfo) {"),
        Cite("requeuePodViaQueueingHint", QUEUE, 1147, "return backoffQ"),
    ],
}


def _cell(cell_id: str) -> str:
    cells = json.loads(CHAPTER.read_text(encoding="utf-8"))["cells"]
    return next("".join(c["source"]) for c in cells if c.get("id") == cell_id)


def _ranges(text: str) -> list[tuple[int, int]]:
    return [(int(a), int(b or a)) for a, b in re.findall(r"\bL(\d+)(?:-L?(\d+))?", text)]


@pytest.mark.parametrize("cell_id", list(CITED))
def test_each_cited_line_lies_in_a_range_the_chapter_gives(cell_id: str) -> None:
    ranges = _ranges(_cell(cell_id))
    for cite in CITED[cell_id]:
        assert any(a <= cite.line <= b for a, b in ranges), f"{cell_id} should cite {cite.path} L{cite.line}"


@pytest.mark.parametrize("cell_id", list(CITED))
def test_each_cited_line_holds_what_the_chapter_says(cell_id: str) -> None:
    needs_checkout()
    for cite in CITED[cell_id]:
        line = go_lines(cite.path)[cite.line - 1]
        assert cite.holds in line, f"{cite.path} L{cite.line}: {line!r}"


def test_the_port_s_pop_ports_the_lines_section_6_gives() -> None:
    anchor = upstream(PriorityQueue.pop)
    assert (anchor.path, anchor.start, anchor.end) == (QUEUE, 884, 917) and anchor.start <= 895 <= anchor.end


SINCE = re.compile(r"^> \*\*Since v1\.(\d+)\*\*(.*)$", re.M)
PERMALINK = re.compile(r"https://github\.com/kubernetes/kubernetes/blob/([0-9a-f]{40})/([\w./-]+\.go)#L(\d+)-L(\d+)")


def test_the_since_notes_cite_a_newer_file_at_its_commit_with_lines() -> None:
    cells = json.loads(CHAPTER.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    notes = SINCE.findall(text)
    assert {release for release, _ in notes} >= {"32", "33"}
    for release, note in notes:
        links = PERMALINK.findall(note)
        assert links, f"the note since v1.{release} cites no permalink"
        for commit, path, start, end in links:
            assert int(start) <= int(end) and path == "pkg/features/kube_features.go"
    hints = next(note for release, note in notes if "the gate is on by default" in note)
    assert "L1679-L1682" in hints and "from v1.32" in hints
