"""Sharing as the device plugin presents it (time-slicing, MPS, MIG) against the FGD model's gpu_milli."""
from __future__ import annotations

import pytest

from ksched_edu.api.loader import load_cluster
from ksched_edu.config.loader import default_config
from ksched_edu.gpu import sharing_modes as modes
from ksched_edu.gpu.sharing.frag import Q2_LACK_GPU, Q3_SATISFIED, get_node_pod_frag
from ksched_edu.gpu.sharing.resource import NodeResource, PodResource
from ksched_edu.resources import data_path
from ksched_edu.sim.simulation import Simulation

pytestmark = pytest.mark.ch10


@pytest.mark.parametrize("resource,slices,memory,milli", [
    ("nvidia.com/mig-1g.10gb", 1, 10, 142),
    ("nvidia.com/mig-2g.20gb", 2, 20, 285),
    ("nvidia.com/mig-3g.40gb", 3, 40, 428),
    ("nvidia.com/mig-7g.80gb", 7, 80, 1000),
    ("nvidia.com/mig-1g.5gb", 1, 5, 142),
])
def test_mig_profiles(resource: str, slices: int, memory: int, milli: int) -> None:
    p = modes.mig_profile(resource)
    assert (p.compute_slices, p.memory_gb, p.milli) == (slices, memory, milli)


@pytest.mark.parametrize("resource,message", [
    ("nvidia.com/gpu", "is not a MIG resource of the mixed strategy"),
    ("nvidia.com/mig-1g.10gb.me", "is not a MIG resource"),
    ("nvidia.com/mig-8g.80gb", "a MIG instance has 1 to 7 compute slices"),
])
def test_not_a_mig_profile(resource: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        modes.mig_profile(resource)


@pytest.mark.parametrize("mode,replicas,resource,milli", [
    ("whole", 1, "nvidia.com/gpu", 1000),
    ("time-slicing", 4, "nvidia.com/gpu", 250),
    ("mps", 10, "nvidia.com/gpu", 100),
    ("mig", 1, "nvidia.com/mig-2g.20gb", 285),
])
def test_milli_of(mode: str, replicas: int, resource: str, milli: int) -> None:
    assert modes.milli_of(mode, replicas, resource) == milli


def test_milli_of_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="unknown sharing mode 'vgpu'"):
        modes.milli_of("vgpu")
    with pytest.raises(ValueError, match="replicas must be at least 1"):
        modes.milli_of("mps", 0)


def test_the_table_names_what_each_mode_enforces() -> None:
    rows = {r.mode.split(" ")[0]: r for r in modes.modes_table(4, "nvidia.com/mig-3g.40gb")}
    assert rows["time-slicing"].gpu_milli == "nominal 250, not enforced"
    assert rows["MPS"].memory == "1/4 of it, limited"
    assert rows["MIG"].gpu_milli == "428 (3 of 7 slices)" and rows["MIG"].memory == "40 GB, hardware"


@pytest.fixture(scope="module")
def shared_run() -> Simulation:
    return Simulation(load_cluster(data_path("workloads", "gpu-sharing-nodes.yaml")), default_config(), seed=1).run()


def test_the_scheduler_counts_replicas_and_profiles(shared_run) -> None:
    placed = {p.pod.split("/")[1]: p.node for p in shared_run.placements()}
    assert placed == {"train-2x": "t4-ts", "infer-1": "t4-ts", "infer-2": "t4-ts", "infer-3": None,
                      "mig-big-1": "a100-mig", "mig-big-2": None, "mig-small-1": "a100-mig"}
    messages = {p.pod.split("/")[1]: p.message for p in shared_run.placements() if p.node is None}
    assert messages["infer-3"].startswith("0/2 nodes are available: 2 Insufficient nvidia.com/gpu.")
    assert messages["mig-big-2"].startswith("0/2 nodes are available: 2 Insufficient nvidia.com/mig-3g.40gb.")


def test_the_fgd_model_disagrees_both_ways(shared_run) -> None:
    # A 2-GPU pod on one physical T4: the scheduler placed it; the model has one GPU and refuses.
    t4 = NodeResource("t4-ts", 16000, 16000, [1000], 1, "T4")
    assert get_node_pod_frag(t4, PodResource(0, 1000, 2)) == Q2_LACK_GPU
    # The A100 after mig-big-1: four idle slices (571m) would hold a 3g pod (428m) in the model; MIG has no 3g left.
    free = {"nvidia.com/mig-1g.10gb": 2, "nvidia.com/mig-2g.20gb": 1}
    idle = modes.idle_slices(free) * 1000 // modes.MIG_COMPUTE_SLICES
    a100 = NodeResource("a100-mig", 32000, 32000, [idle], 1, "A100")
    assert (idle, get_node_pod_frag(a100, PodResource(0, modes.mig_profile("nvidia.com/mig-3g.40gb").milli, 1))) == \
        (571, Q3_SATISFIED)
