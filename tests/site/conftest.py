"""What the tests of tests/site share: a fresh clone of the project, and the package installed
with pip into a fresh virtual environment (once per test run), as README.md says to install it.

The clone is ``git clone`` of the project, with the files changed in the work tree and not yet
committed copied over it, so that it is what the next commit would be. Its ``.venv`` is a link
to the project's own (``bash .ci/setup`` makes that one; a clone would otherwise spend minutes
making the same): the commands README.md shows run in the clone as a reader runs them there.

The virtual environment is made with ``python -m venv`` (no system packages), then the
``pip install`` commands of README.md's "Installing with pip" run in a clone, in order: the
first (the library alone) and the second (with the ``[course]`` extra). pip's cache keeps this
under a minute once it has run once.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from .markdown_snippets import snippets

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 900
# What a run of .ci/test sets for every step, and what keeps a run away from the network and a display.
QUIET_ENV = {"KSCHED_EDU_OFFLINE": "1", "MPLBACKEND": "Agg", "JUPYTER_PLATFORM_DIRS": "1",
             "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYDEVD_DISABLE_FILE_VALIDATION": "1"}
# The environment of the test run that must not reach a command run as a reader would run it:
# another Python's paths, and the openb trace (chapter 09 then uses data/gpu-sample, as a reader's does).
DROPPED_ENV = {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "KSCHED_EDU_OPENB"}
# The probe run after the first install command: the view that needs the [course] extra.
PANDAS_PROBE = "from ksched_edu.trace import Recorder\nRecorder().to_frame()\n"


def run(cmd, *, timeout: float = TIMEOUT_S, **kw) -> subprocess.CompletedProcess:
    """Run ``cmd``; fail the test with the end of its output unless it exits 0."""
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, **kw)
    shown = cmd if isinstance(cmd, str) else " ".join(map(str, cmd))
    assert done.returncode == 0, f"{shown} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def reader_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
    env.update(QUIET_ENV, **extra)
    return env


def _git(*args: str) -> list[str]:
    out = run(["git", "-C", str(ROOT), *args]).stdout
    return [p for p in out.split("\0") if p]


def fresh_clone(dest: Path) -> Path:
    """A ``git clone`` of the project at ``dest`` with the work tree's uncommitted changes copied over it."""
    if not (ROOT / ".git").exists():
        pytest.skip(f"{ROOT} is not a git checkout: there is nothing to clone")
    venv_stamp = ROOT / ".venv" / ".ksched-edu-installed"
    if not venv_stamp.exists() or (ROOT / "pyproject.toml").stat().st_mtime > venv_stamp.stat().st_mtime:
        pytest.fail("the project's .venv is missing or older than pyproject.toml: run bash .ci/setup first",
                    pytrace=False)
    run(["git", "clone", "--quiet", str(ROOT), str(dest)])
    for rel in _git("ls-files", "-z", "--modified", "--others", "--exclude-standard"):
        source, target = ROOT / rel, dest / rel
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    for rel in _git("ls-files", "-z", "--deleted"):
        (dest / rel).unlink(missing_ok=True)
    (dest / ".venv").symlink_to(ROOT / ".venv", target_is_directory=True)
    # .ci/setup reinstalls .venv when pyproject.toml is newer than .venv: the clone's copy is as old
    # as the project's, so that the shared .venv is never reinstalled from the clone.
    stat = (ROOT / "pyproject.toml").stat()
    os.utime(dest / "pyproject.toml", ns=(stat.st_atime_ns, stat.st_mtime_ns))
    return dest


@dataclass
class Installed:
    """The package installed into a fresh virtual environment, away from the repository."""

    venv: Path
    python: Path
    env: dict[str, str]          # PATH starts with the venv's bin/
    commands: list[str]          # the install commands run, in order
    probe: subprocess.CompletedProcess  # PANDAS_PROBE after the first command only
    seconds: float


def install_commands() -> list[str]:
    """The ``pip install`` commands README.md shows, in its order."""
    commands = [s.text for s in snippets(ROOT, "README.md") if s.lang == "bash" and s.text.startswith("pip install")]
    assert commands, "README.md shows no `pip install` command"
    return commands


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Installed:
    start = time.monotonic()
    base = tmp_path_factory.mktemp("installed")
    clone = fresh_clone(base / "clone")
    venv = base / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    env = reader_env(PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    commands, probe = install_commands(), None
    empty = base / "elsewhere"
    empty.mkdir()
    for command in commands:
        run(["bash", "-c", command], cwd=clone, env=env)
        if probe is None:
            probe = subprocess.run([str(venv / "bin" / "python"), "-c", PANDAS_PROBE], cwd=empty, env=env,
                                   capture_output=True, text=True, timeout=120)
    shutil.rmtree(clone)  # nothing of the repository is left for the installed package to find
    return Installed(venv, venv / "bin" / "python", env, commands, probe, time.monotonic() - start)
