"""A small fake Go checkout for the SourceView tests: no upstream source, only markers.

For each anchored file it writes a file of the same path whose anchored lines
hold a fake ``func`` line naming the Go identifier (so a SourceView can be
checked line by line), and filler comments elsewhere.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Iterable

from ksched_edu.anchors import K8S, SCHEDULER_PLUGINS, Anchor, anchors, import_engine

FIXTURE_MARK = "fixture"


def fixture_func_line(anchor: Anchor) -> str:
    """The line the fixture puts at ``anchor.start``: a func with a body closed at the
    anchor's end, or one without a body when the anchor is one line."""
    name = anchor.go.rsplit(".", 1)[-1]
    body = " {" if anchor.end > anchor.start else ""
    return f"func {name}(){body} // {FIXTURE_MARK}: {anchor.go}"


def write_checkout(root: Path, chosen: Iterable[Anchor]) -> Path:
    """Write a fake checkout under ``root`` holding the anchors' files; return ``root``."""
    by_path: dict[str, list[Anchor]] = defaultdict(list)
    for anchor in chosen:
        by_path[anchor.path].append(anchor)
    for path, group in by_path.items():
        size = max(a.end for a in group) + 1
        lines = [f"// {FIXTURE_MARK} line {n}" for n in range(1, size + 1)]
        for anchor in group:  # closing braces first: a start line always wins
            if anchor.end > anchor.start:
                lines[anchor.end - 1] = "}"
        for anchor in group:
            lines[anchor.start - 1] = fixture_func_line(anchor)
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(lines) + "\n")
    return root


def kubernetes_checkout(root: Path) -> Path:
    """A fake kubernetes checkout holding every file a kubernetes/kubernetes anchor names."""
    import_engine()
    return write_checkout(root, [a for a in anchors() if a.repo == K8S])


def scheduler_plugins_checkout(root: Path) -> Path:
    """A fake scheduler-plugins checkout holding every file a scheduler-plugins anchor names."""
    import_engine()
    return write_checkout(root, [a for a in anchors() if a.repo == SCHEDULER_PLUGINS])


def checkout_env(root: Path) -> dict[str, str]:
    """Environment for a SourceView that reads both fake checkouts under ``root`` and never the network."""
    return {"KSCHED_EDU_K8S_SRC": str(kubernetes_checkout(root / "kubernetes")),
            "KSCHED_EDU_SCHEDULER_PLUGINS_SRC": str(scheduler_plugins_checkout(root / "scheduler-plugins")),
            "KSCHED_EDU_OFFLINE": "1", "KSCHED_EDU_CACHE_DIR": str(root / "cache")}
