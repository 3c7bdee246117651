"""SourceView in the browser kernel (Pyodide, where Python has no TLS): the browser fetches the Go.

``js`` and ``pyodide.ffi`` are played by small fakes: a synchronous XMLHttpRequest that answers,
times out, fails as a browser offline does, or answers 404. The browser test
(``tests/site/test_site_browser.py``) runs the real thing, offline and online.
"""
from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Optional

import pytest

from ksched_edu.anchors import upstream
from ksched_edu.schedule_one import schedule_pod, select_host
from ksched_edu.widgets import SourceView, go_source

from tests.go_fixture import fixture_func_line, write_checkout


class JsException(Exception):
    """Pyodide's wrapper of a JavaScript error: ``name`` is the JavaScript error's name."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name


class FakeRequest:
    """A synchronous XMLHttpRequest whose send() does what the test says."""

    answer: Optional[tuple[int, str]] = None  # (status, text), or None: send() raises `error`
    error: Optional[JsException] = None
    opened: list[tuple[str, str, bool]] = []

    @classmethod
    def new(cls) -> "FakeRequest":
        return cls()

    def __init__(self) -> None:
        self.timeout = 0
        self.status = 0
        self.responseText = ""

    def open(self, method: str, url: str, asynchronous: bool) -> None:
        FakeRequest.opened.append((method, url, asynchronous))

    def send(self, body: object) -> None:
        assert self.timeout == int(go_source.FETCH_TIMEOUT_SECONDS * 1000)
        if FakeRequest.answer is None:
            raise FakeRequest.error
        self.status, self.responseText = FakeRequest.answer


@pytest.fixture(autouse=True)
def in_the_browser(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The browser kernel: sys.platform is emscripten for go_source, js and pyodide.ffi are fakes,
    urllib is never used; no checkout, an empty cache, no failed fetch remembered."""
    for var in ("KSCHED_EDU_K8S_SRC", "KSCHED_EDU_SCHEDULER_PLUGINS_SRC", "KSCHED_EDU_OFFLINE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("KSCHED_EDU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(go_source, "_FAILED_FETCHES", {})
    monkeypatch.setattr(go_source, "_in_browser", lambda: True)
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(XMLHttpRequest=FakeRequest))
    ffi = types.ModuleType("pyodide.ffi")
    ffi.JsException = JsException
    monkeypatch.setitem(sys.modules, "pyodide", types.ModuleType("pyodide"))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)

    def no_urllib(url: str, timeout: float) -> None:
        raise AssertionError(f"urllib used in the browser for {url} (Pyodide's ssl has no TLS)")

    monkeypatch.setattr(go_source.urllib.request, "urlopen", no_urllib)
    monkeypatch.setattr(FakeRequest, "opened", [])
    monkeypatch.setattr(FakeRequest, "answer", None)
    monkeypatch.setattr(FakeRequest, "error", None)
    return tmp_path


def test_online_the_browser_fetches_the_go_and_it_is_cached(in_the_browser: Path) -> None:
    anchor = upstream(select_host)
    FakeRequest.answer = (200, (write_checkout(in_the_browser / "remote", [anchor]) / anchor.path).read_text())
    view = SourceView(select_host)
    assert FakeRequest.opened == [("GET", anchor.raw_url, False)]
    assert view.go.origin == "download" and view.go_lines[0] == fixture_func_line(anchor)
    assert view.go_status.startswith(f"Fetched from {anchor.raw_url}; cached in ")
    assert SourceView(select_host).go.origin == "cache" and len(FakeRequest.opened) == 1


@pytest.mark.parametrize("error, answer, why", [
    (JsException("NetworkError", "Failed to execute 'send' on 'XMLHttpRequest': Failed to load"), None,
     "the browser could not reach it: offline?"),
    (JsException("TimeoutError", "Failed to execute 'send' on 'XMLHttpRequest'"), None, "no answer within 5 s"),
    (None, (404, "404: Not Found"), "HTTP 404"),
])
def test_without_the_go_the_view_shows_the_permalink_and_one_line_why(error, answer, why) -> None:
    FakeRequest.error, FakeRequest.answer = error, answer
    anchor = upstream(schedule_pod)
    view = SourceView(schedule_pod)
    assert view.go_lines is None and view.go.origin == "unavailable"
    assert view.go_status == (f"Go source not shown: {anchor.raw_url} could not be fetched ({why}). "
                              f"Set KSCHED_EDU_K8S_SRC to a local checkout, or read it at {anchor.permalink}")
    assert f'href="{anchor.permalink}"' in view.value
    assert repr(view) == "SourceView(schedule_pod ⇄ (*Scheduler).schedulePod, pkg/scheduler/schedule_one.go#L390-L438)"


def test_offline_mode_is_honoured_in_the_browser_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KSCHED_EDU_OFFLINE", "1")
    view = SourceView(schedule_pod)
    assert "KSCHED_EDU_OFFLINE is set" in view.go_status and FakeRequest.opened == []
