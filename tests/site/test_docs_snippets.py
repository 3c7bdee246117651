"""Every command and every piece of code README.md and workshop/README.md show runs as written.

The snippets are read from the pages' fenced blocks (``markdown_snippets``): a changed page
changes what runs here. Each one runs where the page says it runs (``WHERE``, first match wins;
a snippet no rule places fails, asking to be placed):

* ``checkout``: a shell command, run with bash in a fresh clone of the project (``conftest.
  fresh_clone``: ``git clone`` with the uncommitted changes of the work tree copied over it, and
  the project's ``.venv`` linked in). Each page has its own clone and its commands run there one
  after the other, in the page's order, as a reader following the page runs them.
* ``server``: a command that serves until stopped (JupyterLab, a static web server): started in
  the clone, asked for a page, then stopped.
* ``install``: README.md's ``pip install`` commands: ``conftest.installed`` runs them in a clone
  into a fresh virtual environment; here the result is checked.
* Python code runs twice: with the clone's ``.venv/bin/python`` in the clone, and with the
  installed package's Python in an empty folder.
* ``output``: the output a page shows for a command: each of its lines is in what that command
  printed here (``…`` stands for any text).
* ``yaml``: a file for another service (GitHub Actions): it must parse.
* ``skip``: cannot run in a test; the reason is given.

Where a command is changed to run here (a free port instead of 8000, a small cluster instead of
a benchmark's 5,000 nodes), ``REWRITES`` says so and why.
"""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from .conftest import ROOT, Installed, fresh_clone, reader_env
from .markdown_snippets import Snippet, snippets

DOCS = ["README.md", "workshop/README.md"]
COMMAND_TIMEOUT_S = 300
SERVER_START_TIMEOUT_S = 90


@dataclass(frozen=True)
class Where:
    pattern: str                 # searched in the snippet's text
    place: str                   # checkout, server, install, output, yaml, skip
    why: str = ""                # skip: the reason; output: the pattern of the command it shows


WHERE = [
    Where(r"^bash \.ci/test\b", "skip", "runs every test, this one among them: it would run itself"),
    Where(r"\.ci/lite-build\b", "skip",
          "builds the static site: needs Node.js and npm, and downloads Pyodide in a fresh clone; .ci/test "
          "runs bash .ci/lite-build in the checkout and tests/site/test_site_browser.py opens the site in Chromium"),
    Where(r"^bash \.ci/lab\b", "server"),
    Where(r"^python3 -m http\.server\b", "server"),
    Where(r"^pip install\b", "install"),
    Where(r"^(\.venv/bin/python|bash workshop/make-learner-copy)\b", "checkout"),
    Where(r"strict decoding error", "skip",
          "shows the message for a file of the reader's own (cluster.yaml); tests/test_cli.py checks the CLI's "
          "messages"),
    Where(r"PersistentVolumeClaim default/data-db-0: node b1 selected", "output",
          r"simulate --cluster data/clusters/storage-zones\.yaml"),
]

# (pattern, replacement, why): applied to a command before it runs here.
REWRITES = [
    (r"\b8000\b", "{port}", "a free port: another run may hold 8000"),
    (r"/tmp/trace\.csv", "{tmp}/trace.csv", "a file of this run's own: another run may write /tmp/trace.csv"),
    (r"(benchmarks/scheduling_basic\.py)$", r"\1 --nodes 20 --pods 20",
     "the default sizes (up to 5,000 nodes) take minutes: the same script on a small cluster"),
    (r"--nodes 5000 --pods 10000", "--nodes 20 --pods 20",
     "5,000 nodes and 10,000 pods take minutes a run: the same options on a small cluster"),
    (r"--repeat 3\b", "--repeat 1", "one run (or pair) is enough to show the command works"),
]


def place_of(snippet: Snippet) -> Where:
    if snippet.lang in ("python", "yaml"):
        return Where("", snippet.lang)
    for rule in WHERE:
        if re.search(rule.pattern, snippet.text, re.MULTILINE):
            return rule
    pytest.fail(f"{snippet.id}: no rule in WHERE says where this snippet runs; add one", pytrace=False)


def rewrite(command: str, **values: str) -> str:
    for pattern, replacement, _ in REWRITES:
        command = re.sub(pattern, replacement, command)
    for name, value in values.items():
        command = command.replace("{" + name + "}", value)
    return command


ALL = [s for doc in DOCS for s in snippets(ROOT, doc)]


# --- where the snippets run ----------------------------------------------------------------------


@dataclass
class Page:
    """One page's fresh clone, and what its commands printed so far (for its ``output`` blocks)."""

    clone: Path
    tmp: Path
    printed: list[tuple[str, str]]   # (command, stdout), in the order they ran


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Page]:
    """Each page's Page, its clone made when a test first needs it."""

    class Lazy(dict):
        def __missing__(self, doc: str) -> Page:
            base = tmp_path_factory.mktemp(re.sub(r"\W", "-", doc))
            self[doc] = Page(fresh_clone(base / "clone"), base, [])
            return self[doc]

    return Lazy()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 5) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return answer.status, answer.read()


def _run_checkout(page: Page, command: str) -> str:
    done = subprocess.run(["bash", "-c", command], cwd=page.clone, env=reader_env(), capture_output=True,
                          text=True, timeout=COMMAND_TIMEOUT_S, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"`{command}` exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def _serve(page: Page, command: str, env: dict[str, str], ready_url: str, log: Path) -> subprocess.Popen:
    with open(log, "wb") as out:
        server = subprocess.Popen(["bash", "-c", command], cwd=page.clone, env=env, stdin=subprocess.DEVNULL,
                                  stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while True:
        if server.poll() is not None:
            pytest.fail(f"`{command}` stopped (exit {server.returncode}):\n{log.read_text()[-3000:]}", pytrace=False)
        try:
            _get(ready_url, timeout=2)
            return server
        except OSError:
            if time.monotonic() > deadline:
                _stop(server)
                pytest.fail(f"`{command}` did not answer {ready_url} within {SERVER_START_TIMEOUT_S} s:\n"
                            f"{log.read_text()[-3000:]}", pytrace=False)
            time.sleep(0.5)


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def _check_lab(page: Page, command: str) -> None:
    """JupyterLab from bash .ci/lab: on the folder the command names, without the news prompt."""
    port, token = _free_port(), os.urandom(16).hex()
    jupyter = page.tmp / f"jupyter-{port}"
    dirs = {name: jupyter / name for name in ("config", "data", "runtime")}
    for folder in dirs.values():
        folder.mkdir(parents=True)
    # A first open: no settings of the reader's own; no browser to open here.
    env = reader_env(JUPYTER_PORT=str(port), JUPYTER_TOKEN=token, BROWSER="true",
                     JUPYTER_CONFIG_DIR=str(dirs["config"]), JUPYTER_DATA_DIR=str(dirs["data"]),
                     JUPYTER_RUNTIME_DIR=str(dirs["runtime"]))
    server = _serve(page, command, env, f"http://127.0.0.1:{port}/api", jupyter / "lab.log")
    try:
        api = f"http://127.0.0.1:{port}"
        _, body = _get(f"{api}/api/contents?token={token}")
        listed = sorted(item["name"] for item in json.loads(body)["content"] if item["name"].endswith(".ipynb"))
        named = re.search(r"--notebook-dir[= ](\S+)", command)
        folder = page.clone / (named.group(1) if named else "notebooks")
        assert listed and listed == sorted(p.name for p in folder.glob("*.ipynb")), (command, listed)
        _, body = _get(f"{api}/lab/api/settings/@jupyterlab/apputils-extension:notification?token={token}")
        defaults = {k: v.get("default") for k, v in json.loads(body)["schema"]["properties"].items()}
        # "none" (the default) makes JupyterLab ask, on first open, whether to fetch Jupyter's news.
        assert defaults["fetchNews"] == "false" and defaults["checkForUpdates"] is False, defaults
    finally:
        _stop(server)


def _check_static_server(page: Page, command: str) -> None:
    """python3 -m http.server -d _site PORT: serves the site's JupyterLab page."""
    site = page.clone / "_site"
    built = ROOT / "_site"
    if not site.exists():
        # The site is built by .ci/lite-build (skipped here): the checkout's build, or a stand-in page.
        if (built / "lab" / "index.html").is_file():
            site.symlink_to(built, target_is_directory=True)
        else:
            (site / "lab").mkdir(parents=True)
            (site / "lab" / "index.html").write_text("<!doctype html><title>stand-in</title>\n")
    port = _free_port()
    server = _serve(page, rewrite(command, port=str(port), tmp=str(page.tmp)), reader_env(),
                    f"http://127.0.0.1:{port}/lab/index.html", page.tmp / f"http-{port}.log")
    try:
        status, body = _get(f"http://127.0.0.1:{port}/lab/index.html")
        assert status == 200 and b"<" in body
    finally:
        _stop(server)


def _output_matches(shown: str, printed: str) -> list[str]:
    """The lines of ``shown`` that no line of ``printed`` matches (``…`` is any text, blanks are any blanks)."""
    lines = [" ".join(line.split()) for line in printed.splitlines()]
    missing = []
    for want in (w for w in shown.splitlines() if w.strip()):
        parts = [re.escape(" ".join(p.split())) for p in want.strip().split("…")]
        pattern = re.compile(".*".join(parts).replace(r"\ ", r"\s+"))
        if not any(pattern.fullmatch(line) for line in lines):
            missing.append(want)
    return missing


# --- the tests -----------------------------------------------------------------------------------


def test_every_page_shows_snippets():
    for doc in DOCS:
        assert any(s.doc == doc for s in ALL), f"{doc} shows no fenced code: has it moved?"


def test_the_snippets_are_read_as_commands():
    """Continuation lines are joined and comments dropped, quotes respected."""
    from .markdown_snippets import shell_commands
    block = 'a --x 1 \\\n    --y "# not a comment"   # a comment\n# only a comment\n\nb  # c\n'
    assert shell_commands(block) == [(0, 'a --x 1 --y "# not a comment"'), (4, "b")]


@pytest.mark.parametrize("snippet", [s for s in ALL if s.lang != "python"], ids=lambda s: s.id)
def test_snippet(snippet: Snippet, pages: dict[str, Page], request: pytest.FixtureRequest) -> None:
    where = place_of(snippet)
    if where.place == "skip":
        pytest.skip(f"{snippet.id}: not run: {where.why}")
    if where.place == "yaml":
        assert isinstance(yaml.safe_load(snippet.text), dict)
        return
    if where.place == "install":
        installed: Installed = request.getfixturevalue("installed")
        assert snippet.text in installed.commands, "conftest.installed ran README.md's install commands"
        return  # the command ran in the fixture; it exits 0 there or the fixture fails
    page = pages[snippet.doc]
    if where.place == "output":
        producers = [(c, out) for c, out in page.printed if re.search(where.why, c)]
        if not producers:
            pytest.skip(f"the command whose output this is ({where.why}) did not run before it in this run")
        missing = _output_matches(snippet.text, producers[-1][1])
        assert not missing, f"{snippet.id}: `{producers[-1][0]}` no longer prints:\n" + "\n".join(missing)
        return
    if where.place == "server":
        if snippet.text.startswith("bash .ci/lab"):
            _check_lab(page, snippet.text)
        else:
            _check_static_server(page, snippet.text)
        return
    command = rewrite(snippet.text, tmp=str(page.tmp))
    page.printed.append((snippet.text, _run_checkout(page, command)))


PYTHON = [s for s in ALL if s.lang == "python"]


@pytest.mark.parametrize("snippet", PYTHON, ids=lambda s: s.id)
def test_python_in_the_checkout(snippet: Snippet, pages: dict[str, Page]) -> None:
    page = pages[snippet.doc]
    done = subprocess.run([".venv/bin/python", "-c", snippet.text], cwd=page.clone, env=reader_env(),
                          capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{snippet.id} failed in a checkout:\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("snippet", PYTHON, ids=lambda s: s.id)
def test_python_from_the_installed_package(snippet: Snippet, installed: Installed, tmp_path: Path) -> None:
    done = subprocess.run([str(installed.python), "-c", snippet.text], cwd=tmp_path, env=installed.env,
                          capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{snippet.id} failed from the installed package:\n{done.stderr[-3000:]}"


def test_without_the_course_extra_to_frame_says_what_to_install(installed: Installed) -> None:
    """After README.md's first install command (no extra), to_frame() fails in one line naming the extra."""
    probe = installed.probe
    assert probe.returncode != 0, "pandas came with the first install command: README.md says it does not"
    last = probe.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: to_frame() needs pandas") and '"ksched_edu[course]"' in last, last
    assert "During handling" not in probe.stderr, probe.stderr


def test_every_rewrite_and_rule_is_used() -> None:
    """A rule no snippet meets anymore is stale: remove it (the pages changed)."""
    commands = [s.text for s in ALL if s.lang not in ("python", "yaml")]
    for pattern, _, why in REWRITES:
        assert any(re.search(pattern, c) for c in commands), f"REWRITES: {pattern!r} ({why}) rewrites nothing"
    for rule in WHERE:
        assert any(re.search(rule.pattern, c, re.MULTILINE) for c in commands), f"WHERE: {rule.pattern!r} places nothing"
