"""SourceView: the Python of a ported function beside its Go, from a checkout, the cache, a download or nothing."""
from __future__ import annotations

import io
import re
import urllib.error
from pathlib import Path

import pytest

from ksched_edu.anchors import upstream
from ksched_edu.internal.queue.scheduling_queue import PriorityQueue
from ksched_edu.schedule_one import schedule_pod, select_host
from ksched_edu.widgets import SourceView
from ksched_edu.widgets import go_source, source_view
from ksched_edu.widgets.source_view import NoAnchorError

from tests.go_fixture import fixture_func_line, write_checkout


def _line_numbers(html: str) -> list[int]:
    """The line numbers Pygments wrote in a column (each in a span of its own, before the line)."""
    return [int(n) for n in re.findall(r'<span style="color: #9a9a9a[^"]*">\s*(\d+)</span>', html)]


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No checkout, an empty cache of our own, no download remembered, and no network reached."""
    for var in ("KSCHED_EDU_K8S_SRC", "KSCHED_EDU_SCHEDULER_PLUGINS_SRC", "KSCHED_EDU_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("KSCHED_EDU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(go_source, "_FAILED_FETCHES", {})

    def no_network(url: str, timeout: float) -> None:
        raise urllib.error.URLError("no network in tests")

    monkeypatch.setattr(go_source.urllib.request, "urlopen", no_network)
    return tmp_path


def test_the_go_lines_come_from_a_checkout(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    anchor = upstream(schedule_pod)
    monkeypatch.setenv("KSCHED_EDU_K8S_SRC", str(write_checkout(tmp_path / "k8s", [anchor])))
    view = SourceView(schedule_pod)
    assert view.go_lines is not None and len(view.go_lines) == anchor.end - anchor.start + 1
    assert view.go_lines[0] == fixture_func_line(anchor) and view.go_lines[-1] == "}"
    assert view.go.origin == "checkout" and "Read from KSCHED_EDU_K8S_SRC" in view.go_status
    assert "is the checkout at" not in view.go_status
    # both columns carry their own file's line numbers
    go_column = view.value[view.value.index('class="ksched-source-go"'):]
    python_column = view.value[:view.value.index('class="ksched-source-go"')]
    assert _line_numbers(go_column)[:2] == [anchor.start, anchor.start + 1]
    assert _line_numbers(python_column)[0] == view.python_start > 1
    assert 'class="ksched-source-python"' in view.value and 'class="ksched-source-go"' in view.value
    assert "def schedule_pod" in "\n".join(view.python_lines)


def test_a_checkout_at_another_version_is_named_as_such(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    anchor = upstream(schedule_pod)
    root = tmp_path / "k8s"
    (root / anchor.path).parent.mkdir(parents=True)
    (root / anchor.path).write_text("// another version\n" * (anchor.end + 5))
    monkeypatch.setenv("KSCHED_EDU_K8S_SRC", str(root))
    view = SourceView(schedule_pod)
    assert view.go_lines == ["// another version"] * (anchor.end - anchor.start + 1)
    assert f"do not name (*Scheduler).schedulePod: is the checkout at v1.30.4?" in view.go_status


def test_a_checkout_without_the_file_says_so_and_falls_back(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KSCHED_EDU_K8S_SRC", str(tmp_path / "empty"))
    monkeypatch.setenv("KSCHED_EDU_OFFLINE", "1")
    view = SourceView(schedule_pod)
    assert view.go_lines is None
    assert view.go_status.startswith(f"KSCHED_EDU_K8S_SRC={tmp_path / 'empty'} has no pkg/scheduler/schedule_one.go.")


def test_a_download_is_cached_and_read_from_the_cache_next_time(monkeypatch: pytest.MonkeyPatch,
                                                                 isolated: Path) -> None:
    anchor = upstream(select_host)
    fake = write_checkout(isolated / "remote", [anchor]) / anchor.path
    calls: list[str] = []

    def serve(url: str, timeout: float) -> io.BytesIO:
        calls.append(url)
        return io.BytesIO(fake.read_bytes())

    monkeypatch.setattr(go_source.urllib.request, "urlopen", serve)
    first = SourceView(select_host)
    assert first.go.origin == "download" and calls == [anchor.raw_url]
    assert (isolated / "cache" / "go" / anchor.repo / anchor.ref / anchor.path).is_file()
    second = SourceView(select_host)
    assert second.go.origin == "cache" and len(calls) == 1
    assert second.go_lines == first.go_lines and second.go_lines[0] == fixture_func_line(anchor)


def test_offline_the_view_keeps_the_permalink_and_says_why() -> None:
    view = SourceView(schedule_pod)
    anchor = upstream(schedule_pod)
    assert view.go_lines is None and view.go.origin == "unavailable"
    assert "could not be fetched (no network in tests)" in view.go_status
    assert view.go_status.endswith(anchor.permalink)
    assert f'href="{anchor.permalink}"' in view.value
    # a failed download is not tried again for the next view of the same file
    other = SourceView(select_host)
    assert other.go_status.endswith(upstream(select_host).permalink)


def test_offline_mode_never_reaches_for_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KSCHED_EDU_OFFLINE", "1")

    def forbidden(url: str, timeout: float) -> None:
        raise AssertionError(f"offline mode fetched {url}")

    monkeypatch.setattr(go_source.urllib.request, "urlopen", forbidden)
    view = SourceView(PriorityQueue.pop)
    assert "KSCHED_EDU_OFFLINE is set" in view.go_status


def test_the_repr_is_the_same_wherever_the_go_came_from(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    offline = repr(SourceView(schedule_pod))
    monkeypatch.setenv("KSCHED_EDU_K8S_SRC", str(write_checkout(tmp_path / "k8s", [upstream(schedule_pod)])))
    assert repr(SourceView(schedule_pod)) == offline == (
        "SourceView(schedule_pod ⇄ (*Scheduler).schedulePod, pkg/scheduler/schedule_one.go#L390-L438)")
    assert repr(SourceView(PriorityQueue.pop)).startswith("SourceView(PriorityQueue.pop ⇄ (*PriorityQueue).Pop, ")


def test_plumbing_shows_its_reason_and_an_unanchored_object_is_refused() -> None:
    from ksched_edu.scheduler import Scheduler

    view = SourceView(Scheduler.finish_binding_cycles)
    assert view.anchor is None and view.go_lines is None
    assert view.go_status.startswith("No Go counterpart: step-by-step use")
    assert repr(view) == "SourceView(Scheduler.finish_binding_cycles: plumbing)"
    with pytest.raises(NoAnchorError, match="has no upstream anchor"):
        SourceView(len)


def test_a_long_class_is_cut_with_a_note() -> None:
    from ksched_edu.scheduler import Scheduler

    view = SourceView(Scheduler, max_python_lines=10)
    assert len(view.python_lines) == 11 and view.python_lines[-1].startswith("# … ")


def test_any_anchored_repository_has_a_checkout_variable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The FGD paper's simulator (chapter 09) is read from KSCHED_EDU_SRC_<OWNER>_<REPO>."""
    from ksched_edu.anchors import FGD_SIMULATOR, anchors, import_engine

    import_engine()
    anchor = next(a for a in anchors() if a.repo == FGD_SIMULATOR and a.path.endswith(".go"))
    var = go_source.checkout_var(FGD_SIMULATOR)
    assert var == "KSCHED_EDU_SRC_HKUST_ADSL_KUBERNETES_SCHEDULER_SIMULATOR"
    monkeypatch.setenv("KSCHED_EDU_OFFLINE", "1")
    missing = go_source.go_source(anchor)
    assert missing.origin == "unavailable" and f"Set {var} to a local checkout" in missing.status
    monkeypatch.setenv(var, str(write_checkout(tmp_path / "sim", [anchor])))
    found = go_source.go_source(anchor)
    assert found.origin == "checkout" and found.lines[0] == fixture_func_line(anchor)
    assert found.status.startswith(f"Read from {var} (")


@pytest.mark.parametrize("short,repo", [("KSCHED_EDU_K8S_SRC", "kubernetes/kubernetes"),
                                        ("KSCHED_EDU_SCHEDULER_PLUGINS_SRC", "kubernetes-sigs/scheduler-plugins")])
def test_the_short_names_and_the_long_ones_name_the_same_checkout(monkeypatch, tmp_path, short, repo):
    long = go_source.checkout_var(repo)
    monkeypatch.delenv(short, raising=False)
    monkeypatch.setenv(long, str(tmp_path / "long"))
    assert go_source._checkout(repo) == (long, str(tmp_path / "long"))
    monkeypatch.setenv(short, str(tmp_path / "short"))  # the short name wins when both are set
    assert go_source._checkout(repo) == (short, str(tmp_path / "short"))


def _rule(html: str, selector: str) -> str:
    """The declarations of the first CSS rule for ``selector`` in the view's own style sheet."""
    match = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", html)
    assert match, f"no rule for {selector}"
    return " ".join(match.group(1).split())


def test_the_view_is_as_wide_as_its_output_area_not_as_its_longest_line(monkeypatch, tmp_path) -> None:
    """An HTML widget is a flex item that grows to its content (min-width: auto); the view's inline-size
    containment keeps its lines out of that sum, so the Go never lies right of the notebook."""
    monkeypatch.setenv("KSCHED_EDU_K8S_SRC", str(write_checkout(tmp_path / "k8s", [upstream(schedule_pod)])))
    html = SourceView(schedule_pod).value
    assert "container-type: inline-size" in _rule(html, ".ksched-source ")
    columns = _rule(html, ".ksched-source-columns ")
    assert "display: flex" in columns and "flex-wrap: wrap" in columns
    column = _rule(html, ".ksched-source-columns > div")
    assert "min-width: 0" in column and f"flex: 1 1 {source_view.COLUMN_MIN_PX}px" in column
    # side by side from twice the column width, the Go under the Python below it: Python first in the page
    assert html.index('class="ksched-source-python"') < html.index('class="ksched-source-go"')
    assert '<div class="ksched-source"><div class="ksched-source-columns"><div class="ksched-source-python">' in html
    code = _rule(html, ".ksched-source .ksched-source-code ")
    assert "overflow: auto" in code  # each column scrolls sideways on its own
    assert "white-space: pre" in _rule(html, ".ksched-source .ksched-source-code pre")
    # stacked, both code areas fit one laptop screen together
    assert f"@container (max-width: {source_view.STACKED_BELOW_PX - 1}px)" in html
    assert source_view.STACKED_BELOW_PX == 2 * source_view.COLUMN_MIN_PX + source_view.COLUMN_GAP_PX


def test_the_status_line_and_the_headings_wrap_instead_of_being_cut() -> None:
    view = SourceView(schedule_pod)  # no Go: the long "Go source not shown: ..." line with a URL
    assert view.go_lines is None and len(view.go_status) > 150
    assert "overflow-wrap: anywhere" in _rule(view.value, ".ksched-source-status ")
    assert "white-space: normal" in _rule(view.value, ".ksched-source-status ")
    assert "overflow-wrap: anywhere" in _rule(view.value, ".ksched-source h4 ")


@pytest.mark.parametrize("cls_path, last_field, a_method", [
    ("ksched_edu.scheduler:Scheduler", "    attempts: dict[str, int]", "next_pod"),
    ("ksched_edu.framework.cycle_state:CycleState", None, "read"),
])
def test_a_class_shows_its_declaration_and_fields_and_names_its_methods(cls_path, last_field, a_method) -> None:
    """A class is shown as the Go shows a struct: fields, then one line naming the methods."""
    import importlib

    module, name = cls_path.split(":")
    cls = getattr(importlib.import_module(module), name)
    view = SourceView(cls)
    body = "\n".join(view.python_lines)
    assert "    def " not in body and "    @ports" not in body.split("class ", 1)[1]
    assert f"SourceView({name}.name)" in body and a_method in body
    if last_field is not None:
        fields = [line for line in view.python_lines if line.startswith(last_field)]
        assert fields, f"{last_field!r} is not among the fields shown"


def test_a_decorated_function_names_its_own_file() -> None:
    """@metrics.observed wraps run_score_plugins: the view names runtime.py, where its lines are."""
    from ksched_edu.framework.runtime import Framework

    view = SourceView(Framework.run_score_plugins)
    assert view.python_file == "ksched_edu/framework/runtime.py"
    assert view.python_lines[0].lstrip().startswith("@ports(")
