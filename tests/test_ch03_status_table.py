"""Chapter 03's table of extension points: what each returns, checked against the port's runtime.

The table (section 1) says PreBind keeps a rejection and turns any other code, Skip included,
into an Error (upstream ``RunPreBindPlugins``, framework.go L1230-1239); Bind lets a Skip pass to
the next Bind plugin; PostBind and Unreserve return nothing (interface.go L542, L522); Reserve and
Permit may return an Error; PreEnqueue gates a pod on any code but Success. Each row is checked
here against the runtime and against the status picture of ``ksched_edu.viz.machine`` that the
chapter draws right below it. The chapter's "since v1.30" notes each cite a newer file at a commit,
with lines.
"""
from __future__ import annotations

import inspect
import json
import re
from pathlib import Path
from typing import Any, Optional

import pytest

from ksched_edu.framework import interface
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, Status, new_status
from ksched_edu.trace import Recorder
from ksched_edu.viz import machine
from tests.chapter_views import one_plugin_simulation

pytestmark = pytest.mark.ch03

CHAPTER = Path(__file__).resolve().parents[1] / "notebooks" / "03_framework.ipynb"


def _markdown() -> list[str]:
    cells = json.loads(CHAPTER.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def _table() -> dict[str, str]:
    """The table of section 1: point -> what it may return."""
    [text] = [t for t in _markdown() if t.startswith("| | runs | may return |")]
    rows = {}
    for line in text.splitlines()[2:]:
        if not line.startswith("|"):
            break
        point, _, returns = [cell.strip() for cell in line.strip("|").split("|")]
        rows[point] = returns
    return rows


class _Binder:
    """PreBind and Bind answer the code they are given; PostBind records that it ran."""

    def __init__(self, pre_bind: Optional[Status] = None, bind: Optional[Status] = None) -> None:
        self.pre_bind_status, self.bind_status, self.post_bound = pre_bind, bind, []

    def name(self) -> str:
        return "Binder"

    def events_to_register(self) -> list:
        return []

    def pre_bind(self, state: Any, pod: Any, node_name: str) -> Optional[Status]:
        return self.pre_bind_status

    def bind(self, state: Any, pod: Any, node_name: str) -> Optional[Status]:
        return self.bind_status

    def post_bind(self, state: Any, pod: Any, node_name: str) -> None:
        self.post_bound.append(pod.key)


def _framework(plugin: _Binder) -> Any:
    """The default profile with ``plugin`` enabled at every point it has, and alone at PreBind (the
    default VolumeBinding's PreBind needs the state its own PreFilter writes)."""
    sim = one_plugin_simulation("Binder", lambda handle: plugin, ["clusters/three-nodes.yaml"], Recorder())
    fwk = sim.scheduler.profiles["default-scheduler"]
    fwk.pre_bind_plugins = [p for p in fwk.pre_bind_plugins if p is plugin]
    return sim, fwk


def test_the_table_has_one_row_per_binding_point() -> None:
    rows = _table()
    assert {"PreBind", "Bind", "PostBind"} <= set(rows)
    assert "Skip included, becomes an Error" in rows["PreBind"] and "L1230-1239" in rows["PreBind"]
    assert rows["PostBind"].startswith("nothing") and "L542" in rows["PostBind"]
    assert "Skip (the next Bind plugin tries)" in rows["Bind"]
    assert "nothing" in rows["Reserve / Unreserve"] and "Error" in rows["Reserve / Unreserve"]
    assert "Error" in rows["Permit"] and "Error that fails the cycle" in rows["Filter"]


@pytest.mark.parametrize("code", [Code.Skip, Code.Wait, Code.Error])
def test_pre_bind_turns_skip_and_every_other_code_into_an_error(code: Code) -> None:
    _, fwk = _framework(_Binder(pre_bind=new_status(code, "said so")))
    status = fwk.run_pre_bind_plugins(CycleState(), _a_pod(), "n1")
    assert status.code == Code.Error and status.message().startswith('running PreBind plugin "Binder"')
    assert machine.status_table()["PreBind"][code].kind == "error"


@pytest.mark.parametrize("code", [Code.Unschedulable, Code.UnschedulableAndUnresolvable, Code.Pending])
def test_pre_bind_keeps_a_rejection(code: Code) -> None:
    _, fwk = _framework(_Binder(pre_bind=new_status(code, "not now")))
    status = fwk.run_pre_bind_plugins(CycleState(), _a_pod(), "n1")
    assert status.code == code and status.plugin == "Binder"
    assert machine.status_table()["PreBind"][code].kind == "reject"


def test_a_bind_plugin_that_skips_lets_the_next_one_bind() -> None:
    binder = _Binder(bind=new_status(Code.Skip))
    sim, fwk = _framework(binder)
    fwk.bind_plugins = [binder] + [p for p in fwk.bind_plugins if p is not binder]  # it binds first, and skips
    assert [p.name() for p in fwk.bind_plugins] == ["Binder", "DefaultBinder"]
    sim.run()
    assert [p.node for p in sim.placements() if p.pod == "default/web"] == ["n3"]
    assert machine.status_table()["Bind"][Code.Skip].kind == "skip"


def test_post_bind_and_unreserve_return_nothing() -> None:
    for protocol, method in ((interface.PostBindPlugin, "post_bind"), (interface.ReservePlugin, "unreserve")):
        assert inspect.signature(getattr(protocol, method)).return_annotation in (None, "None")
    plugin = _Binder()
    sim, fwk = _framework(plugin)
    assert fwk.run_post_bind_plugins(CycleState(), _a_pod(), "n1") is None
    assert machine.status_table()["PostBind"] is None and machine.status_table()["Unreserve"] is None
    sim.run()
    assert "default/web" in plugin.post_bound


def test_pre_enqueue_gates_on_every_code_but_success() -> None:
    row = machine.status_table()["PreEnqueue"]
    assert {code for code, cell in row.items() if cell.kind == "gate"} == set(Code) - {Code.Success}


def _a_pod() -> Any:
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.resources import data_path

    return load_cluster(data_path("clusters/three-nodes.yaml")).pending_pods[0]


NOTE = re.compile(r"> \*\*Since v1\.30\.\*\*")
PERMALINK = re.compile(r"https://github\.com/kubernetes/(kubernetes|enhancements|website)/blob/[0-9a-f]{40}/[^)#\s]+"
                       r"#L\d+-L\d+")


def test_each_since_note_names_a_release_and_cites_a_newer_file_at_its_commit_with_lines() -> None:
    notes = [text[m.start():] for text in _markdown() for m in NOTE.finditer(text)]
    assert len(notes) == 3
    for note in notes:
        note = note.split("\n\n")[0]
        assert re.search(r"v1\.3[1-9]", note), note
        assert PERMALINK.search(note), note
