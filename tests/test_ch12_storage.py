"""Chapter 12 (storage): the code its SourceViews show, and the binder's answer per node.

- Each SourceView of the chapter shows the Go function the chapter names beside it, in the
  file it names.
- ``FindPodVolumes`` for pod ``app`` of ``ch12-claims.yaml``, asked on each node of a fresh
  copy of the cluster (no cycle run yet): the static bindings, the claims to provision and
  the reasons the chapter's table shows.
"""
from __future__ import annotations

from typing import Any, Callable

import pytest

from ksched_edu.anchors import upstream
from ksched_edu.api.loader import load_cluster
from ksched_edu.config.loader import default_config
from ksched_edu.framework.plugins.volumebinding.binder import VolumeBinder
from ksched_edu.framework.plugins.volumebinding.volume_binding import VolumeBinding
from ksched_edu.framework.plugins.volumerestrictions.volume_restrictions import VolumeRestrictions
from ksched_edu.resources import data_path
from ksched_edu.sim.simulation import Simulation

PLUGINS = "pkg/scheduler/framework/plugins/"


@pytest.mark.parametrize("python, go, path", [
    (VolumeBinding.pre_filter, "(*VolumeBinding).PreFilter", PLUGINS + "volumebinding/volume_binding.go"),
    (VolumeBinding.filter, "(*VolumeBinding).Filter", PLUGINS + "volumebinding/volume_binding.go"),
    (VolumeBinder.find_pod_volumes, "(*volumeBinder).FindPodVolumes", PLUGINS + "volumebinding/binder.go"),
    (VolumeRestrictions.remove_pod, "(*VolumeRestrictions).RemovePod",
     PLUGINS + "volumerestrictions/volume_restrictions.go"),
], ids=lambda v: v if isinstance(v, str) else v.__qualname__)
def test_source_views_show_the_go_the_chapter_names(python: Callable[..., Any], go: str, path: str) -> None:
    anchor = upstream(python)
    assert anchor is not None
    assert (anchor.go, anchor.path) == (go, path)


NO_VOLUME = "node(s) didn't find available persistent volumes to bind"
AFFINITY = "node(s) had volume node affinity conflict"


@pytest.fixture(scope="module")
def app_claims() -> tuple[Any, Any, Any, Any]:
    sim = Simulation(load_cluster(data_path("clusters/ch12-claims.yaml")), default_config(), seed=1,
                     storage_controller=None)
    binder = sim.scheduler.profiles["default-scheduler"].plugins_map["VolumeBinding"].binder
    app = sim.api.get_pod("default", "app")
    return sim, binder, app, binder.get_pod_volume_claims(app)


@pytest.mark.parametrize("node, static, provision, reasons", [
    ("n1", [], [], [NO_VOLUME]),
    ("n2", [("cache", "pv-cache-n2")], ["data"], []),
    ("n3", [("cache", "pv-cache-n3")], ["data"], [AFFINITY]),
])
def test_find_pod_volumes_per_node(app_claims: tuple[Any, Any, Any, Any], node: str,
                                   static: list[tuple[str, str]], provision: list[str], reasons: list[str]) -> None:
    sim, binder, app, claims = app_claims
    found, got_reasons = binder.find_pod_volumes(app, claims, sim.api.get("Node", "", node))
    assert [(b.pvc.metadata.name, b.pv.metadata.name) for b in found.static_bindings or []] == static
    assert [c.metadata.name for c in found.dynamic_provisions or []] == provision
    assert list(got_reasons) == reasons
