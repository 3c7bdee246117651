"""Build the course as a static JupyterLite site (run by .ci/lite-build with .venv-lite's Python).

    python .ci/lite/site.py --root . --cache .cache/lite --out _site

1. Pyodide's core from the npm package ``pyodide`` at the version jupyterlite-pyodide-kernel
   expects (``npm pack`` into the cache, once).
2. Wheels the site serves itself: ksched_edu (built from the checkout, its data inside),
   PyYAML built from its sdist without libyaml (py3-none-any), ipywidgets and comm, the
   kernel's own wheels (piplite, pyodide-kernel, its ipykernel shim) and every pure-Python
   package of Pyodide's lock that the kernel, ksched_edu, matplotlib or pandas need, at the
   lock's versions, downloaded from PyPI (cached).
3. ``jupyter lite build`` from a fresh staging folder (no state database survives a build)
   with the chapters in ``notebooks/`` and the data in ``data/`` (``../data/...`` works in
   the browser as in a checkout).
4. ``static/pyodide/pyodide-lock.json`` rewritten: the served wheels by file name (beside the
   lock), every other package (numpy, pandas, matplotlib and their compiled dependencies)
   by its absolute URL on Pyodide's CDN; ``jupyter-lite.json`` tells the kernel to load
   ksched_edu and the kernel's packages from that lock when it starts (from the site alone:
   ksched_edu's lock entry names none of the CDN's packages), never to ask PyPI, and to run
   ``ksched_edu/browser_start.py`` as its PYTHONSTARTUP: that loads numpy, pandas and
   matplotlib in the background, bounded in time, and says in the first cell whether figures
   and tables are on (``ksched_edu.browser``).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

from jupyterlite_pyodide_kernel import constants as kernel_constants

HERE = Path(__file__).resolve().parent
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
CDN = "https://cdn.jsdelivr.net/pyodide/v{version}/full/"
# What the kernel loads when it starts (the names its worker checks, then the course's package).
KERNEL_PACKAGES = ["micropip", "piplite", "pyodide-kernel", "ipykernel", "comm", "jedi", "ipython"]
COURSE_PACKAGE = "ksched-edu"
# ksched_edu's dependencies in the browser, all served by the site: the engine's (PyYAML) and the
# views' (widgets, graphs, highlighted source). They load with the kernel, offline too.
COURSE_DEPENDS = ["pyyaml", "ipywidgets", "networkx", "pygments"]
# The figures' and tables' libraries: numpy, pandas and matplotlib come from the CDN (compiled for
# WebAssembly), their pure-Python dependencies from the site. ksched_edu.browser loads them when
# the kernel starts, bounded in time (its FIGURE_PACKAGES), never as part of the kernel's own start.
FIGURE_DEPENDS = ["matplotlib", "pandas"]
# The kernel's PYTHONSTARTUP, in Pyodide's file system (the wheel installs into site-packages).
STARTUP_FILE = "/lib/python{python}/site-packages/ksched_edu/browser_start.py"
# Dependencies the lock entries of the served wheels declare (ipywidgets' front-end packages
# live in the page, not in the kernel; networkx draws with matplotlib only when asked).
SERVED_DEPENDS = {"ipywidgets": ["comm", "ipython", "traitlets"], "comm": ["traitlets"],
                  "networkx": [], "piplite": ["micropip"], "pyodide-kernel": ["ipython", "comm", "ipykernel"],
                  "ipykernel": []}
SOURCES = ["ksched_edu", "data", "pyproject.toml", "README.md", "LICENSE", "NOTICE"]
MATPLOTLIB_MAGIC = "%matplotlib inline"
# The same, as Python: it passes where matplotlib cannot load (its wheels come from the CDN; offline
# the figures are off), and a cell without a magic is one whose imports the kernel can read (and
# load) before it runs.
MAGIC_AS_PYTHON = ["try:  # %matplotlib inline, once matplotlib has loaded from Pyodide's CDN\n",
                   "    get_ipython().run_line_magic(\"matplotlib\", \"inline\")\n",
                   "except ImportError:\n",
                   "    pass\n"]


def log(msg: str) -> None:
    print(f"lite-build: {msg}", flush=True)


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(cmd: list, **kw) -> None:
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"lite-build: failed: {' '.join(map(str, cmd))}")


def pins(path: Path) -> list[str]:
    return [line.split("#")[0].strip() for line in path.read_text().splitlines() if line.split("#")[0].strip()]


# --- 1. Pyodide's core ------------------------------------------------------------------------

def pyodide_core(cache: Path, version: str) -> Path:
    """The npm package's files, extracted into the cache (packed once)."""
    tgz = cache / f"pyodide-{version}.tgz"
    if not tgz.exists():
        log(f"npm pack pyodide@{version}")
        run(["npm", "pack", f"pyodide@{version}", "--pack-destination", cache, "--silent"])
    core = cache / f"pyodide-{version}"
    if not (core / "pyodide-lock.json").exists():
        shutil.rmtree(core, ignore_errors=True)
        with tarfile.open(tgz) as tar:
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(cache / "npm-extract", **safe)
        (cache / "npm-extract" / "package").rename(core)
        shutil.rmtree(cache / "npm-extract")
    return core


# --- 2. The wheels the site serves ------------------------------------------------------------

def closure(lock: dict, roots: list[str]) -> set[str]:
    """Every lock package ``roots`` need, by normalized name."""
    packages, seen, todo = lock["packages"], set(), [norm(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in seen or name not in packages:
            continue
        seen.add(name)
        todo += [norm(d) for d in SERVED_DEPENDS.get(name, packages[name]["depends"])]
    return seen


def download(names: dict[str, str], dest: Path, python: str) -> None:
    """Pure-Python wheels ``name==version`` from PyPI into ``dest`` (skipping those there)."""
    have = {norm(w.name.split("-")[0]) for w in dest.glob("*.whl")}
    wanted = [f"{n}=={v}" for n, v in sorted(names.items()) if norm(n) not in have]
    if not wanted:
        return
    log(f"pip download {len(wanted)} pure-Python wheels")
    run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--only-binary=:all:", "--platform", "any", "--implementation", "py", "--abi", "none",
         "--python-version", python, "--dest", dest, *wanted])


def pure_pyyaml(spec: str, dest: Path) -> None:
    """PyYAML from its sdist without libyaml: a py3-none-any wheel (its C speedups are optional)."""
    if list(dest.glob("pyyaml-*-py3-none-any.whl")):
        return
    log(f"building {spec} without libyaml")
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--no-build-isolation", "--no-binary", "pyyaml", spec, "--wheel-dir", dest],
        env={**os.environ, "PYYAML_FORCE_LIBYAML": "0", "PYYAML_FORCE_CYTHON": "0"})
    if not list(dest.glob("pyyaml-*-py3-none-any.whl")):
        raise SystemExit(f"lite-build: PyYAML did not build as py3-none-any: {sorted(p.name for p in dest.iterdir())}")


def course_wheel(root: Path, dest: Path) -> Path:
    """ksched_edu's wheel, built from a copy of the checkout (no build/ left in the repository)."""
    for old in dest.glob("ksched_edu-*.whl"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        for name in SOURCES:
            if (root / name).is_dir():
                shutil.copytree(root / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                shutil.copy2(root / name, src / name)
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
             "--no-build-isolation", src, "--wheel-dir", dest])
    (wheel,) = dest.glob("ksched_edu-*.whl")
    return wheel


def wheel_imports(wheel: Path) -> list[str]:
    """The top-level import names a wheel installs."""
    with zipfile.ZipFile(wheel) as z:
        tops = {n.split("/")[0] for n in z.namelist()}
    names = {t[:-3] if t.endswith(".py") else t for t in tops
             if not t.endswith((".dist-info", ".data", ".pth")) and (t.endswith(".py") or "." not in t)}
    return sorted(n for n in names if n != "__pycache__")


def wheel_version(wheel: Path) -> str:
    return wheel.name.split("-")[1]


# --- 3. The staged contents and the lite build -------------------------------------------------

def stage_contents(root: Path, notebooks: Path, content: Path) -> None:
    """The chapters as notebooks/ (``%matplotlib inline`` written as Python that passes where
    matplotlib cannot load) and data/, side by side."""
    shutil.copytree(notebooks, content / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "locale"))
    for nb_path in sorted((content / "notebooks").rglob("*.ipynb")):  # both editions
        nb = json.loads(nb_path.read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                source = []
                for line in cell["source"]:
                    source += MAGIC_AS_PYTHON if line.rstrip() == MATPLOTLIB_MAGIC else [line]
                cell["source"] = source
        nb_path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    shutil.copytree(root / "data", content / "data", ignore=shutil.ignore_patterns("__pycache__"))


# --- 4. The lock and the kernel's settings ----------------------------------------------------

def lock_entry(name: str, wheel: Path, depends: list[str], imports: list[str]) -> dict:
    return {"name": name, "version": wheel_version(wheel), "file_name": wheel.name, "install_dir": "site",
            "sha256": sha256(wheel), "package_type": "package", "imports": imports, "depends": depends,
            "unvendored_tests": False}


def rewrite_lock(lock: dict, served: dict[str, Path], cdn: str) -> dict:
    """The served wheels by file name (beside the lock), everything else on the CDN."""
    packages = lock["packages"]
    for name, entry in packages.items():
        if name not in served and "://" not in entry["file_name"]:
            entry["file_name"] = cdn + entry["file_name"]
    for name, wheel in served.items():
        old = packages.get(name)
        depends = SERVED_DEPENDS.get(name, old["depends"] if old else [])
        if name == COURSE_PACKAGE:
            depends = COURSE_DEPENDS
        imports = old["imports"] if old else wheel_imports(wheel)
        packages[name] = lock_entry(name, wheel, depends, imports)
    return lock


def kernel_settings(lite_json: Path, python: str) -> None:
    config = json.loads(lite_json.read_text())
    data = config.setdefault("jupyter-config-data", {})
    data["appName"] = "ksched_edu"
    settings = data.setdefault("litePluginSettings", {}).setdefault(KERNEL_PLUGIN, {})
    settings.update({
        "pyodideUrl": "./static/pyodide/pyodide.mjs",
        "disablePyPIFallback": True,
        "loadPyodideOptions": {"packages": [*KERNEL_PACKAGES, COURSE_PACKAGE],
                               "env": {"PYTHONSTARTUP": STARTUP_FILE.format(python=python)}},
    })
    lite_json.write_text(json.dumps(config, indent=2) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--notebooks", type=Path, default=None,
                        help="the chapters to serve (default: notebooks/; e.g. the learner copy)")
    args = parser.parse_args()
    root, cache, out = args.root.resolve(), args.cache.resolve(), args.out.resolve()
    start = time.monotonic()

    version = pins(HERE / "pyodide.txt")[0]
    if version != kernel_constants.PYODIDE_VERSION:
        raise SystemExit(f"lite-build: .ci/lite/pyodide.txt says {version}; jupyterlite-pyodide-kernel "
                         f"expects {kernel_constants.PYODIDE_VERSION}")
    cache.mkdir(parents=True, exist_ok=True)
    core = pyodide_core(cache, version)
    lock = json.loads((core / "pyodide-lock.json").read_text())
    python = ".".join(lock["info"]["python"].split(".")[:2])

    # The pure-Python packages of the lock that the site serves itself.
    needed = closure(lock, [*KERNEL_PACKAGES, *COURSE_DEPENDS, *FIGURE_DEPENDS])
    pure = {n: lock["packages"][n]["version"] for n in needed
            if lock["packages"][n]["file_name"].endswith("-none-any.whl")}
    extra = dict(spec.split("==") for spec in pins(HERE / "wheels.txt"))
    pure.update({norm(n): v for n, v in extra.items() if norm(n) != "pyyaml"})
    wheels = cache / f"wheels-{version}"
    wheels.mkdir(exist_ok=True)
    download(pure, wheels, python)
    pure_pyyaml(f"pyyaml=={extra['pyyaml']}", wheels)
    course = course_wheel(root, wheels)

    served: dict[str, Path] = {}
    for wheel in sorted(wheels.glob("*.whl")):
        name = norm(wheel.name.split("-")[0])
        if name in pure or name in ("pyyaml", COURSE_PACKAGE):
            served[name] = wheel
    kernel_pypi = Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
    for wheel in sorted(kernel_pypi.glob("*.whl")):
        name = norm(wheel.name.split("-")[0])
        if name in ("piplite", "pyodide-kernel", "ipykernel"):
            served[name] = wheel
    missing = sorted({*map(norm, KERNEL_PACKAGES), *pure, "pyyaml", COURSE_PACKAGE} - set(served))
    if missing:
        raise SystemExit(f"lite-build: no wheel for {', '.join(missing)}")

    # A fresh staging folder and output: the lite build's state database starts empty.
    stage = cache / "stage"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    stage.mkdir()
    notebooks = (args.notebooks or root / "notebooks").resolve()
    if not list(notebooks.glob("*.ipynb")):
        raise SystemExit(f"lite-build: no notebooks in {notebooks}")
    stage_contents(root, notebooks, stage / "content")
    log("jupyter lite build")
    run([Path(sys.executable).parent / "jupyter", "lite", "build", "--lite-dir", stage, "--output-dir", out,
         "--contents", stage / "content", "--apps", "lab", "--no-sourcemaps", "--no-unused-shared-packages"], cwd=stage)

    target = out / "static" / "pyodide"
    shutil.copytree(core, target, ignore=shutil.ignore_patterns("*.map", "*.d.ts", "README.md", "console*.html"))
    for wheel in served.values():
        shutil.copy2(wheel, target / wheel.name)
    new_lock = rewrite_lock(lock, served, CDN.format(version=version))
    (target / "pyodide-lock.json").write_text(json.dumps(new_lock, indent=1, sort_keys=True) + "\n")
    startup = Path(STARTUP_FILE).name
    with zipfile.ZipFile(course) as z:
        if f"ksched_edu/{startup}" not in z.namelist():
            raise SystemExit(f"lite-build: {course.name} has no ksched_edu/{startup} (the kernel's PYTHONSTARTUP)")
    kernel_settings(out / "jupyter-lite.json", python)
    shutil.rmtree(stage)
    log(f"{out} written in {time.monotonic() - start:.0f} s: {len(served)} wheels served "
        f"({course.name}), Pyodide {version}, the rest from {CDN.format(version=version)}")


if __name__ == "__main__":
    main()
