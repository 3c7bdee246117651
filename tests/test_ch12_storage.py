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


# --- the statements of sections 1 and 5 (binder.go, csi.go, non_csi.go, utils.go of v1.30.4) -------------------


def test_the_binder_has_the_four_reasons_section_1_names() -> None:
    from ksched_edu.exercises import ch12
    from ksched_edu.framework.plugins.volumebinding import binder

    assert (binder.ERR_REASON_NODE_CONFLICT, binder.ERR_REASON_BIND_CONFLICT, binder.ERR_REASON_NOT_ENOUGH_SPACE,
            binder.ERR_REASON_PV_NOT_EXIST) == (AFFINITY, NO_VOLUME, "node(s) did not have enough free storage",
                                                 "node(s) unavailable due to one or more pvc(s) bound to "
                                                 "non-existent pv(s)")
    assert set(ch12.KNOWN_REASONS) == {binder.ERR_REASON_NODE_CONFLICT, binder.ERR_REASON_BIND_CONFLICT,
                                       binder.ERR_REASON_NOT_ENOUGH_SPACE, binder.ERR_REASON_PV_NOT_EXIST}


def test_an_unbound_claim_is_counted_under_a_made_up_handle_with_its_namespace(
        app_claims: tuple[Any, Any, Any, Any]) -> None:
    sim, _, _, _ = app_claims
    nvl = sim.scheduler.profiles["default-scheduler"].plugins_map["NodeVolumeLimits"]
    data = sim.api.get("PersistentVolumeClaim", "default", "data")
    driver, handle = nvl.get_csi_driver_info_from_sc(sim.api.get("CSINode", "", "n2"), data)
    assert driver == "csi.example.com"
    assert handle == f"{nvl.random_volume_id_prefix}-default/data"


def test_a_csinode_count_overrides_the_node_s_own_attachable_volumes() -> None:
    from ksched_edu.api.resource import Quantity
    from ksched_edu.framework.plugins.nodevolumelimits.csi import get_volume_limits
    from ksched_edu.framework.types import NodeInfo

    sim = Simulation(load_cluster(data_path("clusters/ch12-csi-limits.yaml")), default_config(), seed=1)
    node = sim.api.get("Node", "", "n1")
    key = "attachable-volumes-csi-csi.example.com"
    node.status.allocatable[key] = Quantity("9")
    info = NodeInfo()
    info.set_node(node)
    assert get_volume_limits(info, None) == {key: 9}
    assert get_volume_limits(info, sim.api.get("CSINode", "", "n1")) == {key: 2}


def test_node_volume_limits_is_woken_by_a_csinode_added_a_pod_deleted_a_claim_added(
        app_claims: tuple[Any, Any, Any, Any]) -> None:
    from ksched_edu.framework.types import CSI_NODE, PERSISTENT_VOLUME_CLAIM, POD, ActionType

    sim, _, _, _ = app_claims
    nvl = sim.scheduler.profiles["default-scheduler"].plugins_map["NodeVolumeLimits"]
    assert [(e.event.resource, e.event.action_type) for e in nvl.events_to_register()] == [
        (CSI_NODE, ActionType.Add), (POD, ActionType.Delete), (PERSISTENT_VOLUME_CLAIM, ActionType.Add)]


def test_v1_30_runs_three_in_tree_limits_that_stand_aside_where_a_csinode_exists() -> None:
    from ksched_edu.framework.plugins.nodevolumelimits.non_csi import (AZURE_DISK_VOLUME_FILTER, EBS_VOLUME_FILTER,
                                                                       GCE_PD_VOLUME_FILTER)

    sim = Simulation(load_cluster(data_path("clusters/ch12-csi-limits.yaml")), default_config(), seed=1)
    filters = [p for p, _ in sim.scheduler.profiles["default-scheduler"].list_plugins()["filter"]]
    assert {"EBSLimits", "GCEPDLimits", "AzureDiskLimits", "NodeVolumeLimits"} <= set(filters)
    csinode = sim.api.get("CSINode", "", "n1")
    for volume_filter in (EBS_VOLUME_FILTER, GCE_PD_VOLUME_FILTER, AZURE_DISK_VOLUME_FILTER):
        assert volume_filter.is_migrated(csinode) and not volume_filter.is_migrated(None)


def test_a_bound_claim_whose_volume_is_gone_gets_the_pv_not_exist_reason() -> None:
    from ksched_edu.framework.plugins.volumebinding import binder as binder_module

    sim = Simulation(load_cluster(data_path("clusters/ch12-claims.yaml")), default_config(), seed=1,
                     storage_controller=None)
    binder = sim.scheduler.profiles["default-scheduler"].plugins_map["VolumeBinding"].binder
    app = sim.api.get_pod("default", "app")
    claims = binder.get_pod_volume_claims(app)
    sim.api.delete("PersistentVolume", "", "pv-logs")
    _, reasons = binder.find_pod_volumes(app, claims, sim.api.get("Node", "", "n2"))
    assert list(reasons) == [binder_module.ERR_REASON_PV_NOT_EXIST]
