"""Chapter 03 (framework): the checks its teaching cells leave out.

The chapter shows the runtime's Filter and Score loops, two functions of the queue and
VolumeBinding's PreFilter in SourceViews; each view reads the anchor the port declares
(VolumeBinding's PreFilter from line 176 of volume_binding.go, where the chapter's prose
points).
"""
from __future__ import annotations

from typing import Any, Optional

import pytest

from ksched_edu.anchors import upstream
from ksched_edu.framework.plugins.volumebinding.volume_binding import VolumeBinding
from ksched_edu.framework.runtime import Framework
from ksched_edu.internal.queue.scheduling_queue import PriorityQueue

pytestmark = pytest.mark.ch03

RUNTIME = "pkg/scheduler/framework/runtime/framework.go"
QUEUE = "pkg/scheduler/internal/queue/scheduling_queue.go"
SOURCE_VIEWS = [
    (Framework.run_filter_plugins, RUNTIME, "(*frameworkImpl).RunFilterPlugins", None),
    (PriorityQueue.is_pod_worth_requeuing, QUEUE, "(*PriorityQueue).isPodWorthRequeuing", None),
    (PriorityQueue.add_to_active_q, QUEUE, "(*PriorityQueue).addToActiveQ", None),
    (VolumeBinding.pre_filter, "pkg/scheduler/framework/plugins/volumebinding/volume_binding.go",
     "(*VolumeBinding).PreFilter", 176),
    (Framework.run_score_plugins, RUNTIME, "(*frameworkImpl).RunScorePlugins", None),
]


@pytest.mark.parametrize("obj, path, go, start", SOURCE_VIEWS, ids=[row[2] for row in SOURCE_VIEWS])
def test_each_source_view_stands_beside_its_go(offline_go: None, obj: Any, path: str, go: str,
                                                start: Optional[int]) -> None:
    pytest.importorskip("ipywidgets")
    from ksched_edu.widgets import SourceView

    view = SourceView(obj)
    assert view.anchor == upstream(obj)
    assert (view.anchor.path, view.anchor.go) == (path, go)
    if start is not None:
        assert view.anchor.start == start
