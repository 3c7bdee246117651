"""Helpers for the chapter tests that check a chapter's SourceViews (tests/test_chNN_*.py)."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable

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


def assert_beside_its_go(obj: Any, path: str, go: str) -> None:
    """A SourceView of ``obj`` stands beside the Go function ``go`` of ``path``, as its anchor names."""
    pytest.importorskip("ipywidgets")
    from ksched_edu.anchors import upstream
    from ksched_edu.widgets import SourceView

    view = SourceView(obj)
    assert view.anchor == upstream(obj)
    assert (view.anchor.path, view.anchor.go) == (path, go)


def one_plugin_simulation(name: str, plugin: Callable[[Any], Any], cluster_files: list[str], recorder: Any) -> Any:
    """A Simulation of the default profile with one more plugin, ``name``, enabled at every point it has."""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import load_config_data
    from ksched_edu.framework.plugins.registry import new_in_tree_registry
    from ksched_edu.framework.runtime import merge_registries
    from ksched_edu.resources import data_path
    from ksched_edu.sim.simulation import Simulation

    config = load_config_data("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
                              "profiles:\n- schedulerName: default-scheduler\n  plugins:\n    multiPoint:\n"
                              f"      enabled:\n      - name: {name}\n")
    registry = merge_registries(new_in_tree_registry(), {name: lambda args, handle: plugin(handle)})
    cluster = load_cluster([data_path(f) for f in cluster_files])
    return Simulation(cluster, config, seed=1, recorder=recorder, registry=registry)
