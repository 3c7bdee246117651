"""``pip install .`` in a fresh virtual environment, then chapter 00 alone from a temporary folder.

The installed package reads its data from ``ksched_edu/_data`` (package data), not from the
checkout: the chapter runs with nothing of the repository beside it. pip's cache keeps the
second run short; the first downloads the course's libraries.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]
CHAPTER = "00_tour.ipynb"
# What running a notebook needs beside the package and its own dependency (PyYAML).
NOTEBOOK_DEPS = ["nbclient", "nbformat", "ipykernel", "ipywidgets", "matplotlib", "pandas", "networkx", "pygments"]
# The files a wheel is built from; the copy keeps the build out of the repository.
SOURCES = ["ksched_edu", "data", "pyproject.toml", "README.md", "LICENSE", "NOTICE"]
TIMEOUT_S = 900

RUN_CHAPTER = textwrap.dedent("""
    import sys
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(sys.argv[1], as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": "."}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors, errors
    import ksched_edu.resources as r
    print("data root:", r.data_root())
""")


def _run(cmd: list, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S, **kw)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def test_chapter_00_runs_from_an_installed_package(tmp_path):
    source = tmp_path / "src"
    for name in SOURCES:
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy2)(
            ROOT / name, source / name, **({"ignore": shutil.ignore_patterns("__pycache__")} if (ROOT / name).is_dir() else {}))
    venv = tmp_path / "venv"
    start = time.monotonic()
    _run([sys.executable, "-m", "venv", str(venv)])
    py = venv / "bin" / "python"
    _run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(source), *NOTEBOOK_DEPS])
    installed = time.monotonic() - start

    work = tmp_path / "work"
    work.mkdir()
    shutil.copy2(ROOT / "notebooks" / CHAPTER, work / CHAPTER)
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    env.update(KSCHED_EDU_OFFLINE="1", MPLBACKEND="Agg", JUPYTER_PLATFORM_DIRS="1",
               PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    start = time.monotonic()
    done = _run([str(py), "-c", RUN_CHAPTER, CHAPTER], cwd=work, env=env)
    print(f"pip install: {installed:.0f} s; chapter 00: {time.monotonic() - start:.0f} s")
    root = done.stdout.strip().splitlines()[-1].removeprefix("data root: ")
    assert Path(root).parts[-2:] == ("ksched_edu", "_data") and "site-packages" in root
