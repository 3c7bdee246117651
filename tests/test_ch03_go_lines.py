"""Chapter 03: the v1.30.4 lines its prose and hints cite hold what they are cited for (with a checkout;
see tests/test_ch04_go_lines.py), and its "since v1.30" links name a commit and a line range."""
from __future__ import annotations

import pytest

from tests.test_ch04_go_lines import SCHED, assert_cited, assert_links_name_commits, chapter_text

pytestmark = pytest.mark.ch03

CITED = [
    # section 1: ScoreExtensions and the Score and Reserve interfaces; the table's PreBind and PostBind
    (SCHED + "framework/interface.go", 485, 503, ("type ScoreExtensions interface {", "ScoreExtensions() ScoreExtensions")),
    (SCHED + "framework/interface.go", 511, 523, ("type ReservePlugin interface {",
                                                  "Unreserve(ctx context.Context, state *CycleState, p *v1.Pod, "
                                                  "nodeName string)\n}")),
    (SCHED + "framework/interface.go", 542, 542, ("PostBind(ctx context.Context, state *CycleState, p *v1.Pod, "
                                                  "nodeName string)",)),
    (SCHED + "framework/runtime/framework.go", 1230, 1239, ("status = f.runPreBindPlugin(", "if status.IsRejected() {",
                                                            "running PreBind plugin %q")),
    # section 2: the per-plugin metric is sampled
    (SCHED + "schedule_one.go", 102, 102, ("rand.Intn(100) < pluginMetricsSamplePercent",)),
    # section 3: handleSchedulingFailure copies the FitError's plugins
    (SCHED + "schedule_one.go", 1041, 1043, ("fitError, ok := err.(*framework.FitError)",
                                             "podInfo.PendingPlugins = fitError.Diagnosis.PendingPlugins")),
    # section 5: one CycleState for the scheduling cycle and the binding cycle
    (SCHED + "schedule_one.go", 101, 125, ("state := framework.NewCycleState()", "sched.schedulingCycle(",
                                           "sched.bindingCycle(bindingCycleCtx, state,")),
    # exercise 2's hint: addToActiveQ and the ways into activeQ
    (SCHED + "internal/queue/scheduling_queue.go", 560, 578, ("func (p *PriorityQueue) addToActiveQ(",
                                                              "p.runPreEnqueuePlugins(")),
    (SCHED + "internal/queue/scheduling_queue.go", 830, 861, ("func (p *PriorityQueue) flushBackoffQCompleted(",
                                                              "p.addToActiveQ(")),
    (SCHED + "internal/queue/scheduling_queue.go", 1131, 1169, ("func (p *PriorityQueue) requeuePodViaQueueingHint(",
                                                                "p.addToActiveQ(")),
]


@pytest.mark.parametrize("path,first,last,wanted", CITED, ids=[f"{p.rsplit('/', 1)[-1]} L{a}-{b}"
                                                              for p, a, b, _ in CITED])
def test_the_cited_lines_hold_what_they_are_cited_for(path: str, first: int, last: int, wanted: tuple) -> None:
    assert_cited(path, first, last, *wanted)


def test_each_since_note_links_a_file_at_a_commit_with_lines() -> None:
    links = assert_links_name_commits("03_framework.ipynb")
    assert {repo for repo, *_ in links} == {"kubernetes/kubernetes", "kubernetes/enhancements", "kubernetes/website"}
    assert chapter_text("03_framework.ipynb").count("> **Since v1.30.**") == 3
