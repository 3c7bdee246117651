"""Anchors from the port to the Go it ports: repository, file, Go identifier and lines.

Every function, method and class that ports upstream code carries one anchor,
set with the ``@ports`` decorator at its definition::

    @ports("pkg/scheduler/schedule_one.go", "(*Scheduler).schedulePod", 390, 440)
    def schedule_pod(sched, fwk, state, pod): ...

Line numbers are those of the v1.30.4 files (kubernetes/kubernetes at tag
v1.30.4; scheduler-plugins at commit 37b7888a for its plugins; the FGD
paper's simulator at commit 8f3d6417 for ``ksched_edu.gpu.sharing``). Code with no
upstream counterpart (the virtual clock, trace plumbing) says so with
``@plumbing("why")``. The decorators return the object unchanged: an anchor
costs nothing when the scheduler runs.

``upstream(obj)`` (also ``ksched_edu.upstream``) returns the anchor of a function, method or class (or None),
and ``anchors()`` lists every anchor of the modules imported so far; ``python
-m ksched_edu upstream --list`` prints them all as CSV.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any, Callable, Optional, TypeVar

K8S = "kubernetes/kubernetes"
K8S_REF = "v1.30.4"
SCHEDULER_PLUGINS = "kubernetes-sigs/scheduler-plugins"
SCHEDULER_PLUGINS_REF = "37b7888a"
# The simulator of the FGD paper (Weng et al., ATC '23), ported by ksched_edu.gpu.sharing.
FGD_SIMULATOR = "hkust-adsl/kubernetes-scheduler-simulator"
FGD_SIMULATOR_REF = "8f3d6417353c5083c6d56617f255fadd8dc306bc"

_REFS = {K8S: K8S_REF, SCHEDULER_PLUGINS: SCHEDULER_PLUGINS_REF, FGD_SIMULATOR: FGD_SIMULATOR_REF}

T = TypeVar("T")


@dataclass(frozen=True)
class Anchor:
    """Where a ported object's Go counterpart lives."""

    repo: str  # "kubernetes/kubernetes", "kubernetes-sigs/scheduler-plugins" or FGD_SIMULATOR
    path: str  # file in that repository, e.g. "pkg/scheduler/schedule_one.go"
    go: str  # Go identifier, e.g. "(*Scheduler).schedulePod"
    start: int
    end: int
    python: str = ""  # module.qualname of the Python object, filled in by the decorator

    @property
    def ref(self) -> str:
        return _REFS[self.repo]

    @property
    def permalink(self) -> str:
        return f"https://github.com/{self.repo}/blob/{self.ref}/{self.path}#L{self.start}-L{self.end}"

    @property
    def raw_url(self) -> str:
        """The whole file, as plain text, at the anchored version."""
        return f"https://raw.githubusercontent.com/{self.repo}/{self.ref}/{self.path}"


@dataclass(frozen=True)
class Plumbing:
    """An object with no upstream counterpart, and why."""

    reason: str
    python: str = ""


_REGISTRY: dict[str, Any] = {}


def _name(obj: Any) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"


def _register(obj: T, record: Any) -> T:
    # Kept in the registry, not on the object: a typing.Protocol would take an attribute
    # set on it for a member every plugin must have.
    _REGISTRY[record.python] = record
    return obj


def ports(path: str, go: str, start: int, end: int, *, repo: str = K8S) -> Callable[[T], T]:
    """Mark a function, method or class as the port of Go's ``go`` at ``path`` lines ``start``-``end``."""
    if repo not in _REFS:
        raise ValueError(f"unknown repository {repo!r}: use one of {', '.join(map(repr, _REFS))}")
    if not 0 < start <= end:
        raise ValueError(f"bad line range {start}-{end} for {go}")

    def mark(obj: T) -> T:
        return _register(obj, Anchor(repo, path, go, start, end, _name(obj)))
    return mark


def plumbing(reason: str) -> Callable[[T], T]:
    """Mark a function, method or class that has no upstream counterpart, saying why."""
    def mark(obj: T) -> T:
        return _register(obj, Plumbing(reason, _name(obj)))
    return mark


def upstream(obj: Any) -> Optional[Anchor]:
    """The anchor of a ported function, method or class; None for plumbing or unanchored code."""
    record = record_of(obj)
    return record if isinstance(record, Anchor) else None


def record_of(obj: Any) -> Optional[Any]:
    """The Anchor or Plumbing record set on ``obj`` itself (not inherited), or None."""
    target = getattr(obj, "__func__", obj)  # a bound method: its function
    try:
        return _REGISTRY.get(_name(target))
    except AttributeError:  # no __module__ or __qualname__: not a function or class
        return None


# The modules whose objects are anchored: the engine, not the views.
ENGINE_SKIP = ("ksched_edu.widgets", "ksched_edu.viz", "ksched_edu.exercises", "ksched_edu.__main__")


def import_engine() -> list[str]:
    """Import every engine module (so that its anchors are registered); their names."""
    import ksched_edu

    names = []
    for info in pkgutil.walk_packages(ksched_edu.__path__, "ksched_edu."):
        if info.name.startswith(ENGINE_SKIP):
            continue
        importlib.import_module(info.name)
        names.append(info.name)
    return names


def anchors() -> list[Anchor]:
    """Every anchor registered so far, in module and line order of the Python objects."""
    return sorted((r for r in _REGISTRY.values() if isinstance(r, Anchor)), key=lambda a: a.python)


def list_csv() -> str:
    """The table ``upstream --list`` prints: module, function, Go identifier, permalink."""
    import csv
    import io

    import_engine()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["module", "function", "go", "permalink"])
    for a in anchors():
        module, qualname = _split(a.python)
        writer.writerow([module, qualname, a.go, a.permalink])
    return out.getvalue()


def _split(python: str) -> tuple[str, str]:
    """``module.Class.method`` -> (module, "Class.method"), the module being the longest imported prefix."""
    import sys

    parts = python.split(".")
    for i in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:i])
        if module in sys.modules:
            return module, ".".join(parts[i:])
    return parts[0], ".".join(parts[1:])
