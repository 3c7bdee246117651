"""The widgets speak the course's language: buttons, headings, notes and status lines.

Under zh_CN each widget's buttons, its heading and its explanatory lines are Chinese, and so
are the words its tables show; what is data stays as the scheduler and the trace write it
(extension point names, node and pod names, status codes, the scheduler's messages, the
queue's log), and so do the step labels, the ``ksched-at-<step>`` classes a page or a browser
test reads, and the rows code reads (``table_rows()``, ``criteria_rows()``...: a chapter's
claims read them in both editions). In English (the default) every text is the English one.
The ``zh`` fixture sets the language and always restores English.
"""
from __future__ import annotations

import re
import urllib.error
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")

from ksched_edu.api.loader import load_cluster  # noqa: E402
from ksched_edu.config.loader import default_config  # noqa: E402
from ksched_edu.i18n import get_language, set_language  # noqa: E402
from ksched_edu.resources import data_path  # noqa: E402
from ksched_edu.schedule_one import schedule_pod, select_host  # noqa: E402
from ksched_edu.sim.simulation import Simulation  # noqa: E402
from ksched_edu.trace import Recorder  # noqa: E402
from ksched_edu.widgets import (ClusterView, CycleStepper, PreemptionExplorer, QueueExplorer,  # noqa: E402
                                SourceView, TopologyStepper, go_source)
from ksched_edu.widgets.topology import node_topologies  # noqa: E402

from tests.go_fixture import write_checkout  # noqa: E402

from .conftest import chinese  # noqa: E402


def text_of(html: str) -> str:
    """What a reader sees of some HTML: the tags taken out."""
    return re.sub(r"<[^>]+>", "", html)





@pytest.fixture(scope="module")
def preemption_sim() -> Simulation:
    return Simulation(load_cluster(data_path("clusters/preemption.yaml")), default_config(), seed=1,
                      recorder=Recorder()).run()



def test_the_fixture_leaves_english_behind() -> None:
    assert get_language() == "en"


# --- CycleStepper -----------------------------------------------------------------------------


def _stepper_texts(s: CycleStepper) -> dict[str, str]:
    return {"reset": s.reset_button.description, "prev": s.prev_button.description,
            "next": s.next_button.description, "source": s.source_button.description,
            "tooltip": s.next_button.tooltip, "jump": s.point_dropdown.description,
            "cycle": s.cycle_dropdown.description, "header": text_of(s.header.value),
            "head": text_of(s.table.value).split(".")[0], "note": s.view.note,
            "section": s.sections()[0].title if s.sections() else ""}


def test_cycle_stepper_in_chinese(zh, crowded_sim) -> None:
    s = CycleStepper(crowded_sim).at("Filter")
    texts = _stepper_texts(s)
    for key, text in texts.items():
        assert chinese(text), (key, text)
    # Data and keys stay as they are: the step, its class, the node names and the row keys.
    assert s.step_label == "Filter" and "ksched-at-Filter" in s._dom_classes
    assert s.point_dropdown.options == s.points
    assert {r["node"] for r in s.table_rows()} == {"n1", "n2", "n3"}
    assert set(s.table_rows()[0]) >= {"node", "verdict", "chosen"}
    assert "feasible" in {r["verdict"] for r in s.table_rows()} and "<td>可行</td>" in s.table_html
    assert 'data-point="Filter"' in s.strip_html and ">Filter</span>" in s.strip_html
    # Every point's note and heading is Chinese.
    for point in s.points:
        view = s.at(point)
        assert chinese(view.view.note), (point, view.view.note)
        assert chinese(text_of(view.table.value)), point


def test_cycle_stepper_keeps_the_schedulers_message_in_chinese(zh, crowded_sim) -> None:
    s = CycleStepper(crowded_sim, cycle=2)  # default/big fits nowhere
    header = text_of(s.header.value)
    assert "0/3 nodes are available" in header and "不可调度" in header
    assert "Insufficient cpu" in text_of(s.at("Filter").table.value)


def test_cycle_stepper_at_permit_in_chinese(zh, gang_timeout_sim) -> None:
    s = CycleStepper(gang_timeout_sim, cycle=1).at("Permit")
    wait = s.view.sections[-1]
    assert chinese(wait.title) and chinese(s.view.note)
    assert "rejected due to timeout after waiting 30s at plugin Coscheduling" in wait.rows[1]["message"]
    assert [r["event"] for r in wait.rows] == ["wait", "timeout"]  # trace data


def test_cycle_stepper_in_english(en, crowded_sim) -> None:
    s = CycleStepper(crowded_sim).at("Filter")
    texts = _stepper_texts(s)
    assert texts["reset"] == "⟲ Reset" and texts["prev"] == "◀ Prev" and texts["next"] == "Next ▶"
    assert texts["source"] == "Python ⇄ Go" and texts["tooltip"] == "Next extension point"
    assert texts["jump"] == "Jump to" and texts["cycle"] == "Cycle"
    assert texts["header"].startswith("Cycle #1 of 4 · pod default/web · profile default-scheduler")
    assert texts["section"] == "Filter: node × plugin"
    assert re.match(r"\d of 3 filtered node\(s\) passed\. Nodes are listed in the order", texts["note"])
    assert not any(chinese(t) for t in texts.values())


# --- PreemptionExplorer -----------------------------------------------------------------------


def test_preemption_explorer_in_chinese(zh, preemption_sim) -> None:
    x = PreemptionExplorer(preemption_sim)
    for text in (x.prev_button.description, x.next_button.description, x.event_dropdown.description,
                 text_of(x.header.value), text_of(x.position.value)):
        assert chinese(text), text
    assert all(chinese(s.title) for s in x.sections())
    assert "<th>规则</th>" in x.table_html and "<td>牺牲者（按此顺序驱逐）</td>" in x.table_html
    assert x.candidate.node == x.event.nominated_node == "n3"
    assert f">被提名：{x.event.decided_by}</td>" in x.table_html  # the candidate's outcome
    # The rows code reads stay English: a chapter's claims compare them in both editions.
    assert x.sections()[0].rows[0]["what"] == "victims (evicted in this order)"
    assert {r["verdict"] for r in x.criteria_rows()} <= {"★ decided", "kept", "✘ dropped", "out earlier",
                                                         "not needed", ""}
    assert all(not chinese(str(r["compares"])) for r in x.criteria_rows())
    n4 = x.at("n4")
    assert [r["verdict"] for r in n4.criteria_rows()] == ["kept", "✘ dropped", "out earlier", "not needed",
                                                          "not needed"]
    assert ">✘ 淘汰</td>" in n4.table_html and ">已提前出局</td>" in n4.table_html
    # The rule names (the trace's decided_by), the node names and the step label stay.
    assert x.step_label == x.candidate.node and f"ksched-at-{x.candidate.node}" in x._dom_classes
    assert x.event.decided_by in text_of(x.header.value)
    assert {r["rule"] for r in x.criteria_rows()} >= {x.event.decided_by}


def test_preemption_explorer_in_english(en, preemption_sim) -> None:
    x = PreemptionExplorer(preemption_sim)
    assert (x.prev_button.description, x.next_button.description, x.event_dropdown.description) == (
        "◀ Prev", "Next ▶", "Attempt")
    assert text_of(x.header.value).startswith("Preemption for pod ")
    assert text_of(x.position.value).startswith("candidate 1 of ")
    assert [s.title for s in x.sections()][1:3] == ["pickOneNodeForPreemption: the rules, in order",
                                                    "Candidates, in dry-run order (those violating no PDB first)"]
    assert x.sections()[0].rows[0]["what"] == "victims (evicted in this order)"
    assert "<th>rule</th>" in x.table_html
    assert not chinese(x.table_html + x.header.value)


# --- QueueExplorer ----------------------------------------------------------------------------


def test_queue_explorer_in_chinese(zh, crowded_sim) -> None:
    q = QueueExplorer(crowded_sim).at(time=1.0)
    for text in (q.reset_button.description, q.step_button.description, q.time_slider.description,
                 text_of(q.header.value)):
        assert chinese(text), text
    # The log is the trace's, as print(event) writes it: the same in every language.
    assert not any(chinese(line) for line in q.log_lines())
    assert "default/big: unschedulable -> backoffQ on NodeAdd" in "\n".join(q.log_lines())
    assert "<h4>处理中" in q.board_html and "<h4>activeQ " in q.board_html  # upstream's names stay
    assert chinese(q.at(0).move_html.value)  # "(no move yet)"
    assert q.step_label == str(q.cursor) and q.queues()["backoffQ"] == ["default/big"]
    assert "退避到 t=" in q.board_html


def test_queue_explorer_in_english(en, crowded_sim) -> None:
    q = QueueExplorer(crowded_sim).at(time=1.0)
    assert (q.reset_button.description, q.step_button.description, q.time_slider.description) == (
        "⟲ Reset", "Step ▶", "time")
    assert text_of(q.header.value).startswith("t = 1s · move ")
    assert "<h4>in flight (" in q.board_html and "backoff until t=" in q.board_html
    assert text_of(q.at(0).move_html.value) == "(no move yet)"
    assert not chinese(q.board_html + q.header.value + "".join(q.log_lines()))


# --- ClusterView ------------------------------------------------------------------------------


def test_cluster_view_in_chinese(zh, crowded_sim) -> None:
    v = ClusterView(crowded_sim)
    assert chinese(v.refresh_button.description) and chinese(v.refresh_button.tooltip)
    assert chinese(text_of(v.header.value))
    assert "<caption>已请求 / 可分配</caption>" in v.table_html and "<th>节点上的 Pod</th>" in v.table_html
    assert "<th>cpu</th>" in v.table_html  # resource names stay
    assert set(v.rows()[0]) >= {"node", "cpu", "pods on node"}  # the rows keep their keys


def test_cluster_view_in_english(en, crowded_sim) -> None:
    v = ClusterView(crowded_sim)
    assert (v.refresh_button.description, v.refresh_button.tooltip) == ("⟳ Refresh", "Read the scheduler cache again")
    assert text_of(v.header.value) == "Nodes in the scheduler cache at t=5s · 4 node(s), 5 pod(s)"
    assert "<caption>requested / allocatable</caption>" in v.table_html
    assert not chinese(v.table_html)


# --- TopologyStepper --------------------------------------------------------------------------


def _topology(sim: Simulation, step: int = 1) -> TopologyStepper:
    return TopologyStepper(sim.recorder, node_topologies(sim), step=step)


def test_topology_stepper_in_chinese(zh, packing_sim) -> None:
    t = _topology(packing_sim)
    for text in (t.prev_button.description, t.next_button.description, t.slider.description, t.caption(),
                 text_of(t.header.value), text_of(t.reasons_html.value)):
        assert chinese(text), text
    assert chinese(t.at(0).caption())
    assert t.step_label == "1" and "ksched-at-1" in t._dom_classes
    assert chinese(t.figure()._suptitle.get_text())


def test_topology_stepper_in_english(en, packing_sim) -> None:
    t = _topology(packing_sim)
    buttons = (t.prev_button.description, t.next_button.description, t.slider.description)
    assert buttons == ("◀ Back", "Step ▶", "step")
    assert t.caption().startswith("step 1/7 (t=") and " on " in t.caption()
    assert t.at(0).caption() == "before the first of 7 GPU allocation step(s)"
    assert text_of(t.reasons_html.value).startswith("why these GPUs (t=")
    assert t.figure()._suptitle.get_text().startswith("step 1/7, t=")
    assert not chinese(t.header.value + t.reasons_html.value)


# --- SourceView and where its Go came from ------------------------------------------------------


@pytest.fixture
def no_go(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No checkout, an empty cache of our own, no download remembered, and no network reached."""
    for var in ("KSCHED_EDU_K8S_SRC", "KSCHED_EDU_SCHEDULER_PLUGINS_SRC", "KSCHED_EDU_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("KSCHED_EDU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(go_source, "_FAILED_FETCHES", {})

    def no_network(url: str, timeout: float) -> Any:
        raise urllib.error.URLError("no network in tests")

    monkeypatch.setattr(go_source.urllib.request, "urlopen", no_network)
    return tmp_path


def _status(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, str]:
    """The status line of each way the Go can come (or not): offline, a failed download, a checkout, one
    without the file, the cache."""
    out = {}
    monkeypatch.setenv("KSCHED_EDU_OFFLINE", "1")
    out["offline"] = SourceView(select_host).go_status
    monkeypatch.delenv("KSCHED_EDU_OFFLINE")
    out["download failed"] = SourceView(select_host).go_status
    monkeypatch.setenv("KSCHED_EDU_K8S_SRC", str(tmp_path / "empty"))
    out["checkout without the file"] = SourceView(select_host).go_status
    from ksched_edu.anchors import upstream

    monkeypatch.setenv("KSCHED_EDU_K8S_SRC", str(write_checkout(tmp_path / "k8s", [upstream(schedule_pod)])))
    out["checkout"] = SourceView(schedule_pod).go_status
    monkeypatch.delenv("KSCHED_EDU_K8S_SRC")
    cached = go_source.cached_file(upstream(schedule_pod))
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text("package scheduler\n" * 500)
    out["cache"] = SourceView(schedule_pod).go_status
    out["plumbing"] = SourceView(set_language).go_status  # port-only code: no Go counterpart
    return out


def test_source_view_in_chinese(zh, no_go, monkeypatch) -> None:
    statuses = _status(monkeypatch, no_go)
    for where, status in statuses.items():
        assert chinese(status), (where, status)
    assert "KSCHED_EDU_OFFLINE" in statuses["offline"] and "KSCHED_EDU_K8S_SRC" in statuses["offline"]
    assert "https://github.com/kubernetes/kubernetes/blob/v1.30.4/" in statuses["download failed"]
    assert "no network in tests" in statuses["download failed"]
    view = SourceView(select_host)
    status = re.search(r'<div class="ksched-source-status">([^<]*)</div>', view.value).group(1)
    assert chinese(status)
    assert "def select_host(" in "\n".join(view.python_lines)  # the code is the code


def test_source_view_in_english(en, no_go, monkeypatch) -> None:
    statuses = _status(monkeypatch, no_go)
    assert statuses["offline"].startswith("Go source not shown: KSCHED_EDU_OFFLINE is set and the file is not in "
                                          "the cache. Set KSCHED_EDU_K8S_SRC to a local checkout, or read it at ")
    assert statuses["download failed"].startswith("Go source not shown: https://raw.githubusercontent.com/")
    assert " could not be fetched (no network in tests). Set KSCHED_EDU_K8S_SRC" in statuses["download failed"]
    assert statuses["checkout without the file"].startswith(f"KSCHED_EDU_K8S_SRC={no_go / 'empty'} has no ")
    assert statuses["checkout"].startswith("Read from KSCHED_EDU_K8S_SRC (")
    assert statuses["cache"].startswith("Read from the cache (")
    assert statuses["plumbing"].startswith("No Go counterpart: ")
    assert not any(chinese(s) for s in statuses.values())


def test_the_python_go_toggle_opens_a_chinese_source_view(zh, crowded_sim, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("KSCHED_EDU_OFFLINE", "1")
    monkeypatch.setenv("KSCHED_EDU_CACHE_DIR", str(tmp_path / "cache"))
    s = CycleStepper(crowded_sim).at("Score")
    s.source_button.value = True
    [view] = s.source.children
    assert isinstance(view, SourceView) and chinese(view.go_status)
    assert view.qualname == s.runtime_function.__qualname__
