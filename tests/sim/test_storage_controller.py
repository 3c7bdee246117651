"""The simulated PV controller and provisioner (ksched_edu/sim/storage_controller.py), and
VolumeBinding's PreBind waiting for them on the virtual clock (binder.go BindPodVolumes:
checkBindings every second until the binding is complete or bindTimeoutSeconds pass)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_edu.api.defaults import apply_defaults
from ksched_edu.api.storage import (ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE, CLAIM_BOUND,
                                    VOLUME_BOUND)
from ksched_edu.api.types import Cluster
from ksched_edu.cli import main
from ksched_edu.config.loader import default_config, load_config_data
from ksched_edu.sim.simulation import Simulation
from ksched_edu.sim.storage_controller import StorageControllerOptions, provisioned_node_affinity
from ksched_edu.trace import BindEvent, PluginEvent, Recorder, StorageEvent
from tests.builders import make_node, make_pod
from tests.framework.plugins.storage_objects import IMMEDIATE, WAIT, csi_node, pv, pvc, storage_class

HOST = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
DRIVER = "csi.example.com"
ROOT = Path(__file__).resolve().parent.parent.parent
DEADLINE = 'running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded'


def _cluster(zones: tuple[str, ...] = ("zone-a", "zone-b"), limit: int | None = None,
             topology_keys: bool = True) -> Cluster:
    c = Cluster()
    c.nodes = [make_node().name(f"n{i}").label(HOST, f"n{i}").label(ZONE, z)
               .capacity(cpu="4", memory="8Gi", pods="110").obj() for i, z in enumerate(zones)]
    c.csi_nodes = [csi_node(f"n{i}", {DRIVER: limit}) for i in range(len(zones))]
    if topology_keys:
        for node in c.csi_nodes:
            node.spec.drivers[0].topology_keys = [ZONE]
    return c


def _pod(name: str, *claims: str, zone: str = ""):
    w = make_pod().name(name).namespace("default").req(cpu="100m", memory="100Mi")
    for claim in claims:
        w = w.pvc(claim)
    pod = w.obj()
    if zone:
        pod.spec.node_selector = {ZONE: zone}
    return pod


def _pre_bind(rec: Recorder, pod: str) -> list[PluginEvent]:
    return [e for e in rec.plugin_events(point="PreBind") if e.pod == pod and e.plugin == "VolumeBinding"]


# --- PreBind waits on the virtual clock --------------------------------------------------------


def test_pre_bind_waits_until_the_volume_is_provisioned_then_the_pod_is_bound():
    c = _cluster()
    c.storage_classes = [storage_class("fast", WAIT, provisioner=DRIVER)]
    c.persistent_volume_claims = [pvc("data", "fast")]
    c.pods = [_pod("p", "data", zone="zone-b")]
    rec = Recorder()
    sim = Simulation(apply_defaults(c), default_config(), recorder=rec,
                     storage_controller=StorageControllerOptions(provision_delay_seconds=7.5))
    sim.run()
    (placement,) = sim.placements()
    assert placement.node == "n1"
    assume = next(e for e in rec.of(BindEvent) if e.kind == "assume")
    provision = next(e for e in rec.of(StorageEvent) if e.action == "provision")
    bound = next(e for e in rec.of(BindEvent) if e.kind == "bound")
    assert provision.time == pytest.approx(assume.time + 7.5)
    # The poll checks every second after PreBind's writes: the first check after the volume is bound.
    assert bound.time == pytest.approx(assume.time + 8)
    (pre_bind,) = _pre_bind(rec, "default/p")
    assert pre_bind.code == "Success" and pre_bind.time == bound.time
    claim = sim.api.get("PersistentVolumeClaim", "default", "data")
    assert claim.metadata.annotations[ANN_SELECTED_NODE] == "n1"
    assert claim.spec.volume_name == provision.volume and claim.status.phase == CLAIM_BOUND


def test_other_pods_are_scheduled_while_one_waits_at_pre_bind():
    c = _cluster()
    c.storage_classes = [storage_class("fast", WAIT, provisioner=DRIVER)]
    c.persistent_volume_claims = [pvc("data", "fast")]
    c.pods = [_pod("p", "data"), _pod("q"), _pod("r")]
    rec = Recorder()
    sim = Simulation(apply_defaults(c), default_config(), recorder=rec,
                     storage_controller=StorageControllerOptions(provision_delay_seconds=30))
    sim.run()
    bound = {e.pod: e.time for e in rec.of(BindEvent) if e.kind == "bound"}
    assert bound["default/q"] < 1 and bound["default/r"] < 1
    assert bound["default/p"] >= 30
    assert all(p.node for p in sim.placements())


def test_pre_bind_times_out_after_bind_timeout_seconds_when_the_provisioner_never_acts():
    c = _cluster()
    c.storage_classes = [storage_class("fast", WAIT, provisioner=DRIVER)]
    c.persistent_volume_claims = [pvc("data", "fast")]
    c.pods = [_pod("p", "data")]
    rec = Recorder()
    sim = Simulation(apply_defaults(c), default_config(), recorder=rec,
                     storage_controller=StorageControllerOptions(provision_delay_seconds=1e9))
    sim.run(until=605)
    assume = next(e for e in rec.of(BindEvent) if e.kind == "assume")
    (pre_bind, *_) = _pre_bind(rec, "default/p")
    assert pre_bind.code == "Error"
    assert pre_bind.reasons == ("binding volumes: context deadline exceeded",)
    assert pre_bind.time == pytest.approx(assume.time + 600)
    forget = next(e for e in rec.of(BindEvent) if e.kind == "forget")
    assert forget.time == pre_bind.time
    assert sim.placements()[0].message == DEADLINE
    # Unreserve reverted the assumed claim: the binder's cache holds the API server's object.
    binder = sim.scheduler.profiles["default-scheduler"].plugins_map["VolumeBinding"].binder
    for info in binder.pvc_cache.store.values():
        assert info.latest_obj is info.api_obj


def test_the_timeout_is_the_plugin_args_bind_timeout_seconds():
    config = load_config_data("""
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: VolumeBinding
    args:
      bindTimeoutSeconds: 30
""")
    c = _cluster()
    c.storage_classes = [storage_class("fast", WAIT, provisioner=DRIVER)]
    c.persistent_volume_claims = [pvc("data", "fast")]
    c.pods = [_pod("p", "data")]
    rec = Recorder()
    sim = Simulation(apply_defaults(c), config, recorder=rec, storage_controller=None)
    sim.run(until=40)
    assume = next(e for e in rec.of(BindEvent) if e.kind == "assume")
    (pre_bind, *_) = _pre_bind(rec, "default/p")
    assert pre_bind.time == pytest.approx(assume.time + 30) and pre_bind.code == "Error"


def test_unreserve_reverts_the_assumed_volume_a_failed_static_binding_left():
    """A pod deleted while its PreBind waits: checkBindings fails, Unreserve restores the assumed PV."""
    c = _cluster(("zone-a",))
    c.storage_classes = [storage_class("local", WAIT)]
    c.persistent_volumes = [pv("pv-1", "local", affinity={HOST: ["n0"]})]
    c.persistent_volume_claims = [pvc("data", "local")]
    c.pods = [_pod("p", "data")]
    rec = Recorder()
    sim = Simulation(apply_defaults(c), default_config(), recorder=rec,
                     storage_controller=StorageControllerOptions(bind_delay_seconds=50))
    sim.run(until=2.5)
    sim.api.delete("Pod", "default", "p")
    sim.run(until=10)
    (pre_bind,) = _pre_bind(rec, "default/p")
    assert pre_bind.code == "Error" and "pod does not exist any more" in pre_bind.reasons[0]
    assert [e.kind for e in rec.of(BindEvent)] == ["assume", "forget"]
    binder = sim.scheduler.profiles["default-scheduler"].plugins_map["VolumeBinding"].binder
    for info in binder.pv_cache.store.values():
        assert info.latest_obj is info.api_obj


# --- the controller ---------------------------------------------------------------------------


def test_an_immediate_claim_is_bound_to_the_smallest_available_volume_at_once():
    c = _cluster()
    c.storage_classes = [storage_class("now", IMMEDIATE)]
    c.persistent_volumes = [pv("big", "now", capacity="10Gi"), pv("small", "now", capacity="2Gi"),
                            pv("tiny", "now", capacity="1Mi")]
    c.persistent_volume_claims = [pvc("data", "now", storage="1Gi")]
    rec = Recorder()
    sim = Simulation(apply_defaults(c), default_config(), recorder=rec)
    sim.run(until=1)
    claim = sim.api.get("PersistentVolumeClaim", "default", "data")
    assert claim.spec.volume_name == "small" and claim.status.phase == CLAIM_BOUND
    assert claim.metadata.annotations[ANN_BIND_COMPLETED] == "yes"
    assert claim.metadata.annotations[ANN_BOUND_BY_CONTROLLER] == "yes"
    volume = sim.api.get("PersistentVolume", "", "small")
    assert volume.status.phase == VOLUME_BOUND and volume.spec.claim_ref.name == "data"
    assert [(e.action, e.claim, e.volume) for e in rec.of(StorageEvent)] == [("bind", "default/data", "small")]


def test_an_immediate_claim_without_a_volume_is_provisioned_in_its_allowed_topology():
    c = _cluster()
    c.storage_classes = [storage_class("now", IMMEDIATE, provisioner=DRIVER, topologies={ZONE: ["zone-b"]})]
    c.persistent_volume_claims = [pvc("data", "now")]
    c.pods = [_pod("p", "data")]
    sim = Simulation(apply_defaults(c), default_config(),
                     storage_controller=StorageControllerOptions(provision_delay_seconds=2))
    sim.run(until=30)
    claim = sim.api.get("PersistentVolumeClaim", "default", "data")
    volume = sim.api.get("PersistentVolume", "", claim.spec.volume_name)
    (term,) = volume.spec.node_affinity.required.node_selector_terms
    assert [(e.key, e.values) for e in term.match_expressions] == [(ZONE, ["zone-b"])]
    assert volume.spec.csi.driver == DRIVER
    assert sim.placements()[0].node == "n1"


def test_a_wait_for_first_consumer_claim_gets_a_volume_in_the_selected_nodes_zone():
    for zone, node in (("zone-a", "n0"), ("zone-b", "n1")):
        c = _cluster()
        c.storage_classes = [storage_class("fast", WAIT, provisioner=DRIVER)]
        c.persistent_volume_claims = [pvc("data", "fast")]
        c.pods = [_pod("p", "data", zone=zone)]
        sim = Simulation(apply_defaults(c), default_config())
        sim.run()
        assert sim.placements()[0].node == node
        claim = sim.api.get("PersistentVolumeClaim", "default", "data")
        volume = sim.api.get("PersistentVolume", "", claim.spec.volume_name)
        (term,) = volume.spec.node_affinity.required.node_selector_terms
        assert [(e.key, e.values) for e in term.match_expressions] == [(ZONE, [zone])]
        assert volume.spec.claim_ref.name == "data" and volume.status.phase == VOLUME_BOUND


def test_the_provisioned_topology_falls_back_to_allowed_topologies_then_the_zone_label():
    c = _cluster(topology_keys=False)
    apply_defaults(c)
    node = c.nodes[1]
    with_terms = storage_class("t", WAIT, provisioner=DRIVER, topologies={ZONE: ["zone-a", "zone-b"]})
    plain = storage_class("p", WAIT, provisioner=DRIVER)
    for cls in (with_terms, plain):
        (term,) = provisioned_node_affinity(cls, node, c.csi_nodes[1]).required.node_selector_terms
        assert [(e.key, e.values) for e in term.match_expressions] == [(ZONE, ["zone-b"])]
    node.metadata.labels.pop(ZONE)
    assert provisioned_node_affinity(plain, node, None) is None


def test_the_controller_completes_a_volume_the_scheduler_pre_bound():
    c = _cluster(("zone-a",))
    c.storage_classes = [storage_class("local", WAIT)]
    c.persistent_volumes = [pv("pv-1", "local", affinity={HOST: ["n0"]})]
    c.persistent_volume_claims = [pvc("data", "local")]
    c.pods = [_pod("p", "data")]
    rec = Recorder()
    sim = Simulation(apply_defaults(c), default_config(), recorder=rec)
    sim.run()
    assert sim.placements()[0].node == "n0"
    assert [e.action for e in rec.of(StorageEvent)] == ["pre-bound", "bind"]
    claim = sim.api.get("PersistentVolumeClaim", "default", "data")
    assert claim.spec.volume_name == "pv-1" and claim.status.phase == CLAIM_BOUND
    assert claim.metadata.annotations[ANN_BIND_COMPLETED] == "yes"
    assert claim.metadata.annotations[ANN_BOUND_BY_CONTROLLER] == "yes"
    volume = sim.api.get("PersistentVolume", "", "pv-1")
    assert volume.status.phase == VOLUME_BOUND and volume.spec.claim_ref.uid == claim.metadata.uid


def test_the_case_command_runs_without_a_controller():
    c = _cluster()
    c.storage_classes = [storage_class("now", IMMEDIATE)]
    c.persistent_volumes = [pv("pv-1", "now")]
    c.persistent_volume_claims = [pvc("data", "now")]
    sim = Simulation(apply_defaults(c), default_config(), storage_controller=None, resource_versions=False)
    sim.run(until=5)
    assert sim.storage_controller is None
    assert sim.api.get("PersistentVolumeClaim", "default", "data").spec.volume_name == ""


# --- the command line ------------------------------------------------------------------------


def test_simulate_prints_the_provisioning_and_the_bind_times(capsys):
    code = main(["simulate", "--cluster", str(ROOT / "data/clusters/storage-zones.yaml"),
                 "--workload", str(ROOT / "data/workloads/storage-claims.yaml"), "--provision-delay", "3"])
    out = capsys.readouterr().out
    assert code == 0
    lines = [line.strip() for line in out.splitlines()]
    assert any(line.startswith("t=   1.000s  PersistentVolumeClaim default/data-db-0: node b")
               and line.endswith("pod default/db-0 waits at PreBind for its volume") for line in lines)
    provisioned = next(line for line in lines if "provisioned for default/data-db-0" in line)
    assert provisioned.startswith("t=   4.000s") and provisioned.endswith("topology.kubernetes.io/zone=zone-b")
    assert any(line.startswith("t=   4.000s  PersistentVolumeClaim default/data-db-0: bound to volume pvc-")
               for line in lines)
    assert any(line.startswith("t=   4.000s  Pod default/db-0: bound to b") for line in lines)
    assert "pods bound: 4 of 4; pending: 0" in out


# --- properties ------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(nodes=st.integers(1, 3),
       volumes=st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["1Gi", "5Gi"]),
                                  st.sampled_from(["local", "now"])), max_size=5),
       claims=st.lists(st.tuples(st.sampled_from(["1Gi", "2Gi"]), st.sampled_from(["local", "now", "fast"])),
                       min_size=1, max_size=5),
       delay=st.sampled_from([0.0, 2.0, 30.0]))
def test_no_volume_is_bound_to_two_claims_with_the_controller_on(nodes, volumes, claims, delay):
    c = _cluster(tuple(f"zone-{i % 2}" for i in range(nodes)))
    c.storage_classes = [storage_class("local", WAIT), storage_class("now", IMMEDIATE),
                         storage_class("fast", WAIT, provisioner=DRIVER)]
    c.persistent_volumes = [pv(f"pv-{i}", cls, capacity=size, affinity={HOST: [f"n{n % nodes}"]})
                            for i, (n, size, cls) in enumerate(volumes)]
    c.persistent_volume_claims = [pvc(f"c-{i}", cls, storage=size) for i, (size, cls) in enumerate(claims)]
    c.pods = [_pod(f"p-{i}", f"c-{i}") for i in range(len(claims))]
    sim = Simulation(apply_defaults(c), default_config(), seed=1,
                     storage_controller=StorageControllerOptions(provision_delay_seconds=delay))
    claimed: dict[str, set[str]] = {}

    def record(event, old, new):
        if new is not None and new.spec.claim_ref is not None:
            claimed.setdefault(new.metadata.name, set()).add(new.spec.claim_ref.name)
    sim.api.watch("PersistentVolume", record)
    sim.run(until=200.0)
    assert all(len(names) == 1 for names in claimed.values()), claimed
    volumes_of: dict[str, str] = {}
    for claim in sim.api.list("PersistentVolumeClaim"):
        if claim.spec.volume_name:
            assert volumes_of.setdefault(claim.spec.volume_name, claim.metadata.name) == claim.metadata.name


@settings(max_examples=20, deadline=None)
@given(nodes=st.integers(1, 3), limit=st.integers(1, 3),
       pods=st.lists(st.integers(1, 3), min_size=1, max_size=8),
       delay=st.sampled_from([0.0, 3.0]))
def test_no_node_exceeds_its_csi_attach_limit_with_the_controller_on(nodes, limit, pods, delay):
    c = _cluster(tuple(f"zone-{i % 2}" for i in range(nodes)), limit=limit)
    c.storage_classes = [storage_class("fast", WAIT, provisioner=DRIVER)]
    c.persistent_volume_claims = [pvc(f"c-{i}-{j}", "fast") for i, n in enumerate(pods) for j in range(n)]
    c.pods = [_pod(f"p-{i}", *(f"c-{i}-{j}" for j in range(n))) for i, n in enumerate(pods)]
    sim = Simulation(apply_defaults(c), default_config(), seed=1,
                     storage_controller=StorageControllerOptions(provision_delay_seconds=delay))
    attached: dict[str, set[str]] = {}

    def check():
        for pod in sim.api.list("Pod"):
            if not pod.spec.node_name:
                continue
            for vol in pod.spec.volumes:
                claim = sim.api.get("PersistentVolumeClaim", "default", vol["persistentVolumeClaim"]["claimName"])
                attached.setdefault(pod.spec.node_name, set()).add(claim.metadata.name)
        for node, names in attached.items():
            assert len(names) <= limit, (node, sorted(names))
    sim.run(until=100.0, progress=check)
    check()
    if min(pods) <= limit:  # some pod fits a node: the run got somewhere
        assert attached
