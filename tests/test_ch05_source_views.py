"""Chapter 05's SourceViews, and what it says about them and about PreBind's trace.

Each SourceView cell of chapter 05 shows one ported function beside the Go the prose
names; the table below lists them, and the chapter and the table must agree. The prose
also says that ``assume`` and ``binding_cycle`` take upstream's steps in upstream's
order, and that ``bind`` ends with ``finish_binding`` (upstream's deferred
``finishBinding``): checked here on the Python the views show.

Section 4 says that the trace's PreBind line holds the status the plugin returned,
recorded by ``run_pre_bind_plugin`` before ``run_pre_bind_plugins`` wraps an error
into ``running PreBind plugin "<plugin>": ...``, the status the failure handler writes
on the pod's PodScheduled condition until the retry succeeds. The run below rebuilds
section 2's cluster (three-nodes.yaml and permit-pods.yaml) with a PreBind plugin that
fails each pod labelled ``prebind: fail-once`` once, as the chapter's does.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from ksched_edu import schedule_one
from ksched_edu.framework.interface import Status
from ksched_edu.framework.runtime import Framework
from ksched_edu.trace import BindEvent, Recorder
from ksched_edu.widgets import SourceView
from tests.chapter_views import one_plugin_simulation, resolve, source_view_expressions

pytestmark = [pytest.mark.ch05, pytest.mark.usefixtures("offline_go")]

CHAPTER = Path(__file__).resolve().parents[1] / "notebooks" / "05_binding_cycle.ipynb"
SCHEDULE_ONE_GO = "pkg/scheduler/schedule_one.go"
FRAMEWORK_GO = "pkg/scheduler/framework/runtime/framework.go"

NAMES = {"schedule_one": schedule_one, "Framework": Framework}

SOURCE_VIEWS = [
    ("schedule_one.assume", "(*Scheduler).assume", SCHEDULE_ONE_GO),
    ("schedule_one.binding_cycle", "(*Scheduler).bindingCycle", SCHEDULE_ONE_GO),
    ("Framework.run_pre_bind_plugins", "(*frameworkImpl).RunPreBindPlugins", FRAMEWORK_GO),
    ("Framework.run_pre_bind_plugin", "(*frameworkImpl).runPreBindPlugin", FRAMEWORK_GO),
]

# Steps the prose names, in the order it names them, as they read in the Python.
STEPS = [
    ("schedule_one.assume", ["spec.node_name = host", "cache.assume_pod(", "delete_nominated_pod_if_exists("]),
    ("schedule_one.binding_cycle", ["run_pre_bind_plugins(", "bind(sched,", "run_post_bind_plugins(",
                                    "scheduling_queue.activate("]),
    ("Framework.run_pre_bind_plugins", ["self.run_pre_bind_plugin(", "status.is_rejected()",
                                        'running PreBind plugin']),
    ("Framework.run_pre_bind_plugin", ["pl.pre_bind(", 'self._trace("PreBind"', "return status"]),
]


def test_the_table_lists_the_chapters_source_views():
    assert source_view_expressions(CHAPTER) == [expression for expression, _, _ in SOURCE_VIEWS]


@pytest.mark.parametrize("expression, go, path", SOURCE_VIEWS, ids=[row[0] for row in SOURCE_VIEWS])
def test_each_source_view_shows_the_go_its_prose_names(expression, go, path):
    view = SourceView(resolve(expression, NAMES))
    assert (view.anchor.go, view.anchor.path) == (go, path)


@pytest.mark.parametrize("expression, steps", STEPS, ids=[row[0] for row in STEPS])
def test_the_python_takes_the_steps_the_prose_names_in_its_order(expression, steps):
    lines = SourceView(resolve(expression, NAMES)).python_lines
    at = []
    for step in steps:
        found = [i for i, line in enumerate(lines) if step in line]
        assert found, f"{expression} has no line with {step!r}"
        at.append(found[0])
    assert at == sorted(at), list(zip(steps, at))


def test_bind_finishes_the_binding_whether_bind_succeeded_or_not():
    lines = SourceView(schedule_one.bind).python_lines
    assert any("finish_binding" in line for line in lines)


class FailOnce:
    """PreBind fails once for each pod labelled prebind=fail-once: an Error, not a rejection."""

    def __init__(self, handle) -> None:
        self.failed: set[str] = set()

    def name(self) -> str:
        return "FailOnce"

    def events_to_register(self):
        return []

    def pre_bind(self, state, pod, node_name):
        if pod.metadata.labels.get("prebind") == "fail-once" and pod.key not in self.failed:
            self.failed.add(pod.key)
            return Status.as_status("binding the volume timed out")
        return None




def test_the_prebind_trace_holds_the_plugins_status_and_the_pod_the_wrapped_one():
    rec = Recorder()
    sim = one_plugin_simulation("FailOnce", FailOnce, ["clusters/three-nodes.yaml", "workloads/permit-pods.yaml"], rec)
    sim.run(until=1.0)  # after the failure, before the retry (the first backoff is 1 s, flushed at t=2 s)
    failed = [e for e in rec.plugin_events(point="PreBind") if e.plugin == "FailOnce" and e.code != "Success"]
    assert [(e.pod, e.code, e.reasons) for e in failed] == [
        ("default/flaky", "Error", ("binding the volume timed out",))]
    condition = next(c for c in sim.api.get_pod("default", "flaky").status.conditions if c.type == "PodScheduled")
    assert (condition.status, condition.reason, condition.message) == (
        "False", "SchedulerError", 'running PreBind plugin "FailOnce": binding the volume timed out')
    sim.run()
    assert [e.time for e in rec.of(BindEvent) if e.pod == "default/flaky" and e.kind == "bound"] == [2.0]
    condition = next(c for c in sim.api.get_pod("default", "flaky").status.conditions if c.type == "PodScheduled")
    assert condition.status == "True"
