"""The storage kinds in the simulated cluster: the API server stores and watches them, the
scheduler's storage event handlers (addAllEventHandlers in eventhandlers.go) move pods waiting
for a claim, and a property: no PersistentVolume is ever bound to two claims in a run."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_edu.api.defaults import apply_defaults
from ksched_edu.api.types import Cluster
from ksched_edu.config.loader import default_config
from ksched_edu.eventhandlers import unioned_gvks
from ksched_edu.framework.types import ActionType
from ksched_edu.sim.apiserver import APIServer
from ksched_edu.sim.simulation import Simulation
from tests.builders import make_node, make_pod
from tests.framework.plugins.storage_objects import WAIT, csi_node, pv, pvc, storage_class

HOST = "kubernetes.io/hostname"


def _cluster(nodes: int = 2) -> Cluster:
    c = Cluster()
    c.nodes = [make_node().name(f"n{i}").label(HOST, f"n{i}").capacity(cpu="4", memory="8Gi", pods="110").obj()
               for i in range(nodes)]
    return c


def _pod(name: str, *claims: str, node: str = ""):
    w = make_pod().name(name).namespace("default").req(cpu="100m", memory="100Mi")
    for c in claims:
        w = w.pvc(c)
    if node:
        w = w.node(node)
    return w.obj()


def test_the_api_server_stores_and_watches_the_storage_kinds():
    api = APIServer()
    seen = []
    for kind in ("PersistentVolumeClaim", "PersistentVolume", "StorageClass", "CSINode"):
        api.watch(kind, lambda event, old, new, kind=kind: seen.append((kind, event)))
    claim = pvc("data", "wait")
    api.create(claim)
    api.create(pv("pv-1", "wait"))
    api.create(storage_class("wait"))
    api.create(csi_node("n1", {"csi.example.com": 2}))
    assert api.get("PersistentVolumeClaim", "default", "data") is claim
    assert api.get("PersistentVolumeClaim", "other", "data") is None
    assert api.get("PersistentVolume", "", "pv-1").metadata.resource_version == "2"
    api.update(pvc("data", "wait"))
    api.delete("PersistentVolume", "", "pv-1")
    assert seen == [("PersistentVolumeClaim", "add"), ("PersistentVolume", "add"), ("StorageClass", "add"),
                    ("CSINode", "add"), ("PersistentVolumeClaim", "update"), ("PersistentVolume", "delete")]


def test_the_simulation_creates_storage_objects_after_the_nodes():
    c = _cluster(1)
    c.storage_classes = [storage_class("wait")]
    c.persistent_volume_claims = [pvc("data", "wait")]
    c.persistent_volumes = [pv("pv-1", "wait")]
    c.csi_nodes = [csi_node("n0", {"d": 1})]
    apply_defaults(c)
    sim = Simulation(c, default_config())
    kinds = [w.kind for w in sim.api.writes if w.verb == "create"]
    assert kinds == ["Node", "StorageClass", "CSINode", "PersistentVolume", "PersistentVolumeClaim"]


def test_storage_events_the_default_plugins_register():
    sim = Simulation(apply_defaults(_cluster(1)), default_config())
    gvks = unioned_gvks(sim.scheduler)
    assert gvks["PersistentVolumeClaim"] & ActionType.Add and gvks["PersistentVolumeClaim"] & ActionType.Update
    assert gvks["PersistentVolume"] & ActionType.Add and gvks["PersistentVolume"] & ActionType.Update
    assert gvks["storage.k8s.io/StorageClass"] & ActionType.Add
    assert gvks["storage.k8s.io/CSINode"] & ActionType.Add


def test_a_new_claim_moves_the_pod_that_waited_for_it():
    c = _cluster(1)
    c.pods = [_pod("p", "data")]
    sim = Simulation(apply_defaults(c), default_config())
    sim.run(until=10.0)
    (placement,) = sim.placements()
    assert placement.node is None
    assert 'persistentvolumeclaim "data" not found' in placement.message
    # The claim arrives, bound to its volume: the PvcAdd event moves the pod long before the
    # five-minute flush of unschedulable pods would.
    sim.api.create(pv("pv-1", "", phase="Bound", claim="data"))
    sim.api.create(pvc("data", "", bound_pv="pv-1"))
    sim.run(until=20.0)
    assert sim.placements()[0].node == "n0"


@settings(max_examples=25, deadline=None)
@given(nodes=st.integers(1, 3),
       volumes=st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["1Gi", "5Gi", "10Gi"])), max_size=5),
       claims=st.lists(st.sampled_from(["1Gi", "2Gi", "5Gi"]), min_size=1, max_size=5),
       resource_versions=st.booleans())
def test_no_volume_is_ever_bound_to_two_claims(nodes, volumes, claims, resource_versions):
    c = _cluster(nodes)
    c.storage_classes = [storage_class("local", WAIT)]
    c.persistent_volumes = [pv(f"pv-{i}", "local", capacity=size, affinity={HOST: [f"n{n % nodes}"]})
                            for i, (n, size) in enumerate(volumes)]
    c.persistent_volume_claims = [pvc(f"c-{i}", "local", storage=size) for i, size in enumerate(claims)]
    c.pods = [_pod(f"p-{i}", f"c-{i}") for i in range(len(claims))]
    sim = Simulation(apply_defaults(c), default_config(), seed=1, resource_versions=resource_versions)
    claimed: dict[str, set[str]] = {}

    def record(event, old, new):
        if new is not None and new.spec.claim_ref is not None:
            claimed.setdefault(new.metadata.name, set()).add(new.spec.claim_ref.name)
    sim.api.watch("PersistentVolume", record)

    def assumed_once():
        for fwk in sim.scheduler.profiles.values():
            binder = fwk.plugins_map["VolumeBinding"].binder
            owners: dict[tuple[str, str], str] = {}
            for info in binder.pv_cache.store.values():
                ref = info.latest_obj.spec.claim_ref
                if ref is not None:
                    assert owners.setdefault((ref.namespace, ref.name), info.name) == info.name
    sim.run(until=120.0, progress=assumed_once)
    assert all(len(names) == 1 for names in claimed.values()), claimed
    assumed_once()
