"""Check every anchor's lines against the Go it names: ``python -m ksched_edu upstream --check``.

An anchor passes when its first line lies within 3 lines of a Go ``func`` or
``type`` line (a ``def`` or ``class`` line in a Python file) that declares the identifier it names (``(*Scheduler).schedulePod``
-> ``schedulePod``), and, in a Go file, its last line ends a declaration: the
closing ``}`` of that func or type, or of a later top-level declaration when the
range covers several, or the line of a declaration that fits on one line; never
inside a function, never short of the declaration's end. The Go files are read
from local checkouts, never from the network:

* ``--source OWNER/REPO=DIR`` (repeatable): a working tree of that repository
  at the anchors' ref, or its git directory (read at each anchor's ref);
* ``--k8s-src DIR`` and ``--scheduler-plugins-src DIR``: the same for
  kubernetes/kubernetes (tag v1.30.4) and kubernetes-sigs/scheduler-plugins
  (37b7888a);
* ``--git-dir DIR``: a scheduler-plugins git directory holding commit
  37b7888a; its ``vendor/k8s.io/kubernetes`` is byte-identical to kubernetes
  v1.30.4, so it serves both repositories (kubernetes files outside that
  vendored tree are reported as unchecked, not as misses).

An anchor whose file none of these holds is reported as unchecked.
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from .anchors import K8S, SCHEDULER_PLUGINS, SCHEDULER_PLUGINS_REF, Anchor, anchors, import_engine, plumbing

TOLERANCE = 3
# A Go func or type line; a Python def or class line (the FGD simulator's scripts are Python).
_DECL = re.compile(r"^(?:func (?:\([^)]*\) )?(\w+)|type (\w+)|\s*def (\w+)|class (\w+))")
_GO_DECL = re.compile(r"^(?:func|type) ")
VENDORED_K8S = "vendor/k8s.io/kubernetes/"


@plumbing("developer tool: the anchor line check's findings")
@dataclass
class CheckReport:
    """What the check found: the anchors checked, the misses, the files it could not read."""

    checked: int = 0
    misses: list[str] = field(default_factory=list)
    unchecked: dict[str, list[str]] = field(default_factory=dict)  # file -> Go identifiers

    @plumbing("developer tool: one summary line")
    def summary(self) -> str:
        skipped = sum(len(v) for v in self.unchecked.values())
        return (f"anchors: {self.checked} checked, {len(self.misses)} misses, "
                f"{skipped} unchecked in {len(self.unchecked)} file(s) no source given holds")


Reader = Callable[[Anchor], Optional[list[str]]]


def _is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir()


@plumbing("developer tool: reads a local Go checkout or git directory to check the anchors' lines")
def source_reader(repo: str, path: Path) -> Reader:
    """Read the files of ``repo``'s anchors from a working tree, or from a git directory at each anchor's ref.

    A scheduler-plugins git directory also serves kubernetes files, from its vendored copy.
    """
    cache: dict[tuple[str, str], Optional[list[str]]] = {}

    def show(ref: str, file: str) -> Optional[list[str]]:
        if (ref, file) not in cache:
            shown = subprocess.run(["git", "--git-dir", str(path), "show", f"{ref}:{file}"],
                                   capture_output=True, text=True)
            cache[ref, file] = shown.stdout.splitlines() if shown.returncode == 0 else None
        return cache[ref, file]

    def read(anchor: Anchor) -> Optional[list[str]]:
        if _is_git_dir(path):
            if anchor.repo == repo:
                return show(anchor.ref, anchor.path)
            if repo == SCHEDULER_PLUGINS and anchor.repo == K8S:
                return show(SCHEDULER_PLUGINS_REF, VENDORED_K8S + anchor.path)
            return None
        file = path / anchor.path
        if anchor.repo != repo or not file.is_file():
            return None
        return file.read_text(encoding="utf-8", errors="replace").splitlines()

    return read


@plumbing("developer tool: tries each reader in turn")
def first_of(readers: list[Reader]) -> Reader:
    """A reader that asks each of ``readers`` in order and keeps the first answer."""
    def read(anchor: Anchor) -> Optional[list[str]]:
        for reader in readers:
            lines = reader(anchor)
            if lines is not None:
                return lines
        return None

    return read


@plumbing("developer tool: the anchor line check")
def declared_near(lines: list[str], start: int, tolerance: int = TOLERANCE) -> set[str]:
    """The identifiers declared by ``func``/``type`` lines within ``tolerance`` lines of line ``start``."""
    near = lines[max(0, start - 1 - tolerance):start + tolerance]
    return {name for line in near for pair in _DECL.findall(line) for name in pair if name}


@plumbing("developer tool: the anchor line check")
def go_name(go: str) -> str:
    """``(*Scheduler).schedulePod`` -> ``schedulePod``; ``Scheduler`` -> ``Scheduler``."""
    return go.rsplit(".", 1)[-1]


@plumbing("developer tool: the anchor line check")
def check_anchors(read: Reader) -> CheckReport:
    """Check every engine anchor with ``read``; see the module docstring."""
    import_engine()
    report = CheckReport()
    for anchor in anchors():
        lines = read(anchor)
        if lines is None:
            report.unchecked.setdefault(f"{anchor.repo}/{anchor.path}", []).append(anchor.go)
            continue
        report.checked += 1
        if go_name(anchor.go) not in declared_near(lines, anchor.start):
            report.misses.append(f"{anchor.python}: {anchor.path}#L{anchor.start} is not within {TOLERANCE} "
                                 f"lines of a func or type {go_name(anchor.go)}")
        elif not anchor.start <= anchor.end <= len(lines):
            report.misses.append(f"{anchor.python}: {anchor.path}#L{anchor.start}-L{anchor.end} ends past the "
                                 f"file's {len(lines)} lines")
        elif anchor.path.endswith(".go"):
            want = declaration_end(lines, anchor.start)
            if want is not None and not ends_a_declaration(lines, anchor.end, want):
                report.misses.append(f"{anchor.python}: {anchor.path}#L{anchor.start}-L{anchor.end} should end "
                                     f"where the declaration does, at line {want}")
    return report


@plumbing("developer tool: the anchor end check")
def declaration_end(lines: list[str], start: int, tolerance: int = TOLERANCE) -> Optional[int]:
    """The last line (1-based) of the top-level func or type declared nearest line ``start``:
    its closing ``}``, or its own line when it has no body; None when there is none near."""
    near = sorted(range(max(1, start - tolerance), min(len(lines), start + tolerance) + 1),
                  key=lambda n: abs(n - start))
    first = next((n for n in near if _GO_DECL.match(lines[n - 1])), None)
    if first is None:
        return None
    def code(n: int) -> str:  # line n without a trailing // comment
        return lines[n - 1].split("//", 1)[0].rstrip()

    header = first  # a signature may run over several lines, each ending in "(" or ","
    while header < len(lines) and not code(header).endswith("{") and code(header).endswith(("(", ",")):
        header += 1
    if not code(header).endswith("{"):
        return header
    return next((n for n in range(header + 1, len(lines) + 1) if lines[n - 1].startswith("}")), header)


@plumbing("developer tool: the anchor end check")
def ends_a_declaration(lines: list[str], end: int, declaration_end: int) -> bool:
    """Whether line ``end`` closes the declaration (or a later one), never short of it."""
    return end == declaration_end or (end > declaration_end and lines[end - 1].startswith("}"))
