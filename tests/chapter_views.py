"""Helpers for the chapter tests that check a chapter's SourceViews (tests/test_chNN_*.py)."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest


def offline_sources(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    """No checkout and no download: a SourceView shows its permalink, as in the chapter's run."""
    for var in ("KSCHED_EDU_K8S_SRC", "KSCHED_EDU_SCHEDULER_PLUGINS_SRC"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("KSCHED_EDU_OFFLINE", "1")
    monkeypatch.setenv("KSCHED_EDU_CACHE_DIR", str(cache))


def source_view_expressions(chapter: Path) -> list[str]:
    """What the chapter's code cells pass to SourceView(...), in order."""
    cells = json.loads(chapter.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return re.findall(r"\bSourceView\(([\w.]+)\)", code)


def resolve(expression: str, names: dict[str, Any]) -> Any:
    """The object a dotted expression of the chapter names, from the names the chapter imports."""
    head, *rest = expression.split(".")
    obj = names[head]
    for attr in rest:
        obj = getattr(obj, attr)
    return obj
