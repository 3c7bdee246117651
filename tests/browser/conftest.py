"""Fixtures for the browser tests: a JupyterLab server and headless Chromium.

JupyterLab runs on 127.0.0.1 with a free port and a token, from a temporary
copy of the project (so running a notebook never changes the repository), with
its own Jupyter config, data and runtime folders. Chromium is Debian's
``/usr/bin/chromium``, driven by Playwright; Playwright's own browser download
is never used.

Without Chromium or Playwright the tests are skipped with a one-line reason;
with ``CI=true`` in the environment that skip is a failure instead.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
LAB_START_TIMEOUT_S = 45.0
LAB_STOP_TIMEOUT_S = 10.0

# JupyterLab settings for a quiet, predictable page: every cell stays in the DOM
# (no windowing), and no news or update check reaches for the network.
LAB_USER_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True,
    },
}


def _unavailable(reason: str) -> None:
    """Skip the test, or fail it under CI where every test must really run."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser test cannot run under CI: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    """Debian's Chromium, and Playwright to drive it."""
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing (bash .ci/setup installs Debian's chromium as root)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("the playwright package is not installed (bash .ci/setup installs it)")
    return CHROMIUM


@pytest.fixture()
def browser_page(chromium_path: Path):
    """A fresh headless Chromium page, closed after the test."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS,
                                     timeout=30_000)
        try:
            context = browser.new_context(viewport={"width": 1600, "height": 1000})
            page = context.new_page()
            page.set_default_timeout(20_000)
            yield page
        finally:
            browser.close()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def project_copy(dest: Path) -> Path:
    """Lay out a project folder at ``dest``: its own copy of notebooks/ and links to the rest.

    Notebooks find ``../data`` and the package as they do in the repository, and
    whatever JupyterLab saves lands in the copy.
    """
    dest.mkdir(parents=True)
    for entry in ROOT.iterdir():
        if entry.name in {"notebooks", ".git", ".venv"}:
            continue
        (dest / entry.name).symlink_to(entry)
    shutil.copytree(ROOT / "notebooks", dest / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return dest


@dataclass
class Lab:
    """A running JupyterLab server."""

    process: subprocess.Popen
    port: int
    token: str
    root_dir: Path
    runtime_dir: Path
    log: Path

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}/{path.lstrip('/')}?token={self.token}"

    def kernel_state(self, notebook: str) -> str:
        """The execution state of the kernel of ``notebook`` ("" when it has none yet)."""
        try:
            with urllib.request.urlopen(self.url("api/sessions"), timeout=2) as reply:
                sessions = json.load(reply)
        except (urllib.error.URLError, OSError, ValueError):
            return ""
        for session in sessions:
            if session.get("path", "").endswith(notebook) and session.get("kernel"):
                return session["kernel"].get("execution_state", "")
        return ""

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def _wait_until_ready(lab: Lab) -> None:
    deadline = time.monotonic() + LAB_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if lab.process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with {lab.process.returncode}:\n{lab.log_tail()}")
        try:
            with urllib.request.urlopen(lab.url("api/status"), timeout=2) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    raise RuntimeError(f"JupyterLab did not answer within {LAB_START_TIMEOUT_S:.0f} s:\n{lab.log_tail()}")


def _pids_using(runtime_dir: Path) -> list[int]:
    """Processes whose command line names ``runtime_dir`` (the kernels of this server)."""
    pids = []
    needle = str(runtime_dir).encode()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if needle in (proc / "cmdline").read_bytes():
                pids.append(int(proc.name))
        except OSError:
            continue
    return pids


def _stop(lab: Lab) -> None:
    """Shut JupyterLab and its kernels down; kill whatever is left, by process id."""
    proc = lab.process
    if proc.poll() is None:
        try:
            request = urllib.request.Request(lab.url("api/shutdown"), method="POST", data=b"")
            urllib.request.urlopen(request, timeout=5).close()
        except (urllib.error.URLError, OSError):
            pass
        try:
            proc.wait(timeout=LAB_STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=5)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=5)
    # Kernels run in sessions of their own: end any that outlived the server.
    for pid in _pids_using(lab.runtime_dir):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@contextlib.contextmanager
def running_lab(tmp_path: Path, extra_env: Optional[dict[str, str]] = None) -> Iterator[Lab]:
    """JupyterLab on a temporary copy of the project, rooted at its notebooks/ folder.

    ``extra_env`` reaches the server and its kernels (e.g. where SourceView reads Go from).
    """
    project = project_copy(tmp_path / "project")
    jupyter = {name: tmp_path / "jupyter" / name for name in ("config", "data", "runtime", "ipython")}
    for folder in jupyter.values():
        folder.mkdir(parents=True)
    for rel, settings in LAB_USER_SETTINGS.items():
        target = jupyter["config"] / "lab" / "user-settings" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(settings))
    env = dict(os.environ,
               JUPYTER_CONFIG_DIR=str(jupyter["config"]), JUPYTER_DATA_DIR=str(jupyter["data"]),
               JUPYTER_RUNTIME_DIR=str(jupyter["runtime"]), IPYTHONDIR=str(jupyter["ipython"]),
               JUPYTER_PLATFORM_DIRS="1", PYDEVD_DISABLE_FILE_VALIDATION="1", **(extra_env or {}))
    env.pop("JUPYTER_TOKEN", None)
    port, token = free_port(), os.urandom(16).hex()
    log = tmp_path / "jupyterlab.log"
    root_dir = project / "notebooks"
    cmd = [
        sys.executable, "-m", "jupyterlab", "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root_dir}",
        "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    with open(log, "wb") as out:
        process = subprocess.Popen(cmd, cwd=root_dir, env=env, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    lab = Lab(process, port, token, root_dir, jupyter["runtime"], log)
    try:
        _wait_until_ready(lab)
        yield lab
    finally:
        _stop(lab)


@pytest.fixture()
def lab_server(tmp_path: Path) -> Iterator[Lab]:
    """JupyterLab on a temporary copy of the project, rooted at its notebooks/ folder.

    Its SourceViews read Go from fake checkouts the test writes (tests/go_fixture.py), never
    from the network.
    """
    from ..go_fixture import checkout_env

    with running_lab(tmp_path, checkout_env(tmp_path / "go")) as lab:
        yield lab
