"""schedule_one.go updatePod and utils.go PatchPodStatus: the status patch is computed
against the scheduler's own copy of the pod, not against what the API server holds.

Rows in the manner of upstream's schedule_one_test.go ``TestUpdatePod``: the pod's
current status, the condition and nominating info the failed cycle brings, and the
patch sent (None: no request at all)."""
from __future__ import annotations

import pytest

from ksched_edu.api.types import ObjectMeta, Pod, PodCondition, PodStatus
from ksched_edu.framework.interface import NominatingInfo, NominatingMode
from ksched_edu.schedule_one import update_pod
from ksched_edu.util import PodStatusPatch

UNSCHEDULABLE = PodCondition("PodScheduled", "False", "Unschedulable", "0/1 nodes are available")
OTHER = PodCondition("Ready", "False", "", "")


class RecordingClient:
    """A clientset that records each status patch it receives."""

    def __init__(self) -> None:
        self.patches: list[tuple[str, str, PodStatusPatch]] = []

    def patch_pod_status(self, namespace: str, name: str, patch: PodStatusPatch) -> bool:
        self.patches.append((namespace, name, patch))
        return True


def override(node: str) -> NominatingInfo:
    return NominatingInfo(nominated_node_name=node, nominating_mode=NominatingMode.ModeOverride)


NOOP = NominatingInfo(nominated_node_name="", nominating_mode=NominatingMode.ModeNoop)

ROWS = [
    ("a patch adds the condition when only another type exists",
     PodStatus(conditions=[OTHER]), UNSCHEDULABLE, None,
     PodStatusPatch(conditions=[{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                 "message": "0/1 nodes are available"}])),
    ("a patch holds only the fields of the condition that changed",
     PodStatus(conditions=[PodCondition("PodScheduled", "False", "Unschedulable", "old message")]),
     UNSCHEDULABLE, NOOP,
     PodStatusPatch(conditions=[{"type": "PodScheduled", "message": "0/1 nodes are available"}])),
    ("no request when the condition is identical and nothing is nominated",
     PodStatus(conditions=[UNSCHEDULABLE]), UNSCHEDULABLE, NOOP, None),
    ("a patch sets the nominated node when the condition is identical but the node differs",
     PodStatus(conditions=[UNSCHEDULABLE], nominated_node_name="n1"), UNSCHEDULABLE, override("n2"),
     PodStatusPatch(nominated_node_name="n2")),
    ("no request when the nominated node is already the one in the copy",
     PodStatus(conditions=[UNSCHEDULABLE], nominated_node_name="n1"), UNSCHEDULABLE, override("n1"), None),
    ("clearing a nomination the copy shows is a patch",
     PodStatus(conditions=[UNSCHEDULABLE], nominated_node_name="n1"), UNSCHEDULABLE, override(""),
     PodStatusPatch(nominated_node_name="")),
    ("clearing a nomination the copy does not show sends nothing, whatever the API server holds",
     PodStatus(conditions=[UNSCHEDULABLE]), UNSCHEDULABLE, override(""), None),
]


@pytest.mark.parametrize("name,status,condition,nominating_info,want", ROWS, ids=[r[0] for r in ROWS])
def test_update_pod(name, status, condition, nominating_info, want):
    pod = Pod(ObjectMeta(name="p", namespace="default"), status=status)
    before = PodStatus(conditions=list(status.conditions), nominated_node_name=status.nominated_node_name)
    client = RecordingClient()
    update_pod(client, pod, condition, nominating_info)
    assert client.patches == ([] if want is None else [("default", "p", want)])
    assert pod.status == before  # the scheduler's copy is not changed, only patched from
