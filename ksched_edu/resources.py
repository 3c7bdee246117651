"""Where the course's data lives: ``data/`` of a checkout, or the same files installed.

Not a port. Chapters, exercises and the library name a data file relative to the
``data/`` folder (``data_path("clusters/three-nodes.yaml")``) and get a path that
works in a checkout, in an installed package and in the browser build of the course.

The top-level ``data/`` folder of the repository is package data: ``pyproject.toml``
maps the package ``ksched_edu._data`` onto it, so ``pip install .`` (and the wheel the
browser build serves) puts the same files at ``ksched_edu/_data/``. An editable
install (``pip install -e .``) and a plain checkout on ``sys.path`` read ``data/``
itself, so a change to a data file shows at once.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

# The folder, inside the installed package, that holds the repository's data/.
INSTALLED_DIR = "_data"


def data_root() -> Path:
    """The folder that holds ``clusters/``, ``configs/``, ``topologies/``, ``workloads/``...

    ``ksched_edu/_data`` when the package is installed from a wheel, else ``data/``
    beside the package (a checkout, or an editable install of one).
    """
    package = Path(str(files("ksched_edu")))
    installed = package / INSTALLED_DIR
    return installed if installed.is_dir() else package.parent / "data"


def data_path(*parts: str) -> Path:
    """The path of a file or folder under the data root, absolute.

    ``data_path("clusters/three-nodes.yaml")`` and ``data_path("clusters", "three-nodes.yaml")``
    name the same file; ``data_path()`` is the root itself. The path need not exist.
    """
    return data_root().joinpath(*parts)


def resolve_data(path: str | Path) -> Path:
    """A path a learner or a check wrote, with a leading ``data/`` or ``../data/`` read as the data root.

    An absolute path, or one that exists from the working directory, is returned as given.
    """
    p = Path(path)
    if p.is_absolute() or p.exists():
        return p
    parts = p.parts
    while parts and parts[0] == "..":
        parts = parts[1:]
    if parts and parts[0] == "data":
        return data_path(*parts[1:])
    return p
