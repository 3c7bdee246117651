"""Mirrors TestNodeResourcesBalancedAllocation in noderesources/balanced_allocation_test.go (v1.30).

v1.30's PreScore never Skips: a pod with no requests is scored like any other
(the Skip for best-effort pods came in a later release)."""
import pytest

from ksched_edu.api.quantity import Quantity
from ksched_edu.api.types import Container, ObjectMeta, Pod, PodSpec, ResourceRequirements
from ksched_edu.config.types_pluginargs import ResourceSpec
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import MAX_NODE_SCORE
from ksched_edu.framework.plugins.noderesources.balanced_allocation import (NAME, balanced_resource_scorer, new)
from tests.builders import make_pod

from .scoring import run_scores
from .util import DEFAULT_RESOURCES, balanced_args, make_node


def container(extra=None, **requests):
    requests.update(extra or {})
    return Container(name="c", resources=ResourceRequirements(
        requests={k: Quantity(v) for k, v in requests.items()}))


def spec(node_name, *containers):
    return PodSpec(node_name=node_name, containers=list(containers))


def pod(s):
    return Pod(metadata=ObjectMeta(), spec=s)


CPU_AND_MEMORY_AND_GPU = spec("node1", container(cpu="1000m", memory="2000"),
                              container({"nvidia.com/gpu": "3"}, cpu="2000m", memory="3000"))
CPU_ONLY = spec("node1", container(cpu="1000m", memory="0"), container(cpu="2000m", memory="0"))
CPU_AND_MEMORY = spec("node2", container(cpu="1000m", memory="2000"), container(cpu="2000m", memory="3000"))
SCALAR = {"nvidia.com/gpu": 8}
WITH_GPU = [ResourceSpec("cpu", 1), ResourceSpec("memory", 1), ResourceSpec("nvidia.com/gpu", 1)]

CASES = [
    # (name, pod, nodes, existing pods, resources, expected, run PreScore)
    ("nothing scheduled, nothing requested", make_pod().obj(),
     [make_node("node1", 4000, 10000), make_node("node2", 4000, 10000)], [], DEFAULT_RESOURCES,
     [MAX_NODE_SCORE, MAX_NODE_SCORE], True),
    ("nothing scheduled, resources requested, differently sized nodes", pod(CPU_AND_MEMORY),
     [make_node("node1", 4000, 10000), make_node("node2", 6000, 10000)], [], DEFAULT_RESOURCES,
     [87, MAX_NODE_SCORE], True),
    ("resources requested, pods scheduled with resources", pod(CPU_AND_MEMORY),
     [make_node("node1", 10000, 20000), make_node("node2", 10000, 20000)],
     [pod(CPU_ONLY), pod(CPU_AND_MEMORY)], DEFAULT_RESOURCES, [82, 95], True),
    ("resources requested, pods scheduled with resources, differently sized nodes", pod(CPU_AND_MEMORY),
     [make_node("node1", 10000, 20000), make_node("node2", 10000, 50000)],
     [pod(CPU_ONLY), pod(CPU_AND_MEMORY)], DEFAULT_RESOURCES, [82, 80], True),
    ("requested resources at node capacity", pod(CPU_ONLY),
     [make_node("node1", 6000, 10000), make_node("node2", 6000, 10000)],
     [pod(CPU_ONLY), pod(CPU_AND_MEMORY)], DEFAULT_RESOURCES, [50, 75], True),
    ("include scalar resource on a node for balanced resource allocation",
     make_pod().req({"memory": "0", "nvidia.com/gpu": "1"}).obj(),
     [make_node("node1", 3500, 40000, SCALAR), make_node("node2", 3500, 40000, SCALAR)],
     [pod(CPU_AND_MEMORY), pod(CPU_AND_MEMORY_AND_GPU)], WITH_GPU, [70, 65], True),
    ("node without the scalar resource should skip the scalar resource", pod(CPU_AND_MEMORY),
     [make_node("node1", 3500, 40000, SCALAR), make_node("node2", 3500, 40000)], [], WITH_GPU, [63, 63], True),
    ("resources requested, pods scheduled with resources if PreScore not called", pod(CPU_AND_MEMORY),
     [make_node("node1", 10000, 20000), make_node("node2", 10000, 20000)],
     [pod(CPU_ONLY), pod(CPU_AND_MEMORY)], DEFAULT_RESOURCES, [82, 95], False),
]


@pytest.mark.parametrize("p,nodes,existing,resources,expected,run_pre_score", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_node_resources_balanced_allocation(p, nodes, existing, resources, expected, run_pre_score):
    scores, statuses = run_scores(new, balanced_args(resources), p, nodes, existing, run_pre_score)
    assert scores == expected
    assert statuses == [None] * len(nodes)


def test_pre_score_never_skips():
    state = CycleState()
    assert new(balanced_args(), None).pre_score(state, make_pod().obj(), []) is None
    assert state.read("PreScoreNodeResourcesBalancedAllocation").pod_requests == [0, 0]


@pytest.mark.parametrize("requested,allocatable,expected", [
    ([1, 1], [2, 2], 100),            # equal shares
    ([3, 1], [4, 4], 75),             # |0.75 - 0.25| / 2 = 0.25
    ([8, 0], [4, 4], 50),             # fraction capped at 1
    ([1, 0, 0], [1, 0, 4], 50),       # a resource the node lacks is skipped
    ([1, 1, 0], [2, 4, 4], 79),       # three resources: population standard deviation
])
def test_balanced_resource_scorer(requested, allocatable, expected):
    assert balanced_resource_scorer(requested, allocatable) == expected


@pytest.mark.parametrize("resources,want", [
    ([ResourceSpec("cpu", 2)], "resources[0].weight: Invalid value: 2: must be 1"),
    ([ResourceSpec("cpu", 1), ResourceSpec("cpu", 1)], 'resources[1].name: Duplicate value: "cpu"'),
], ids=["weight not 1", "duplicate resource"])
def test_new_validates_args(resources, want):
    with pytest.raises(ValueError) as exc:
        new(balanced_args(resources), None)
    assert str(exc.value) == want


def test_name_and_extensions():
    pl = new(balanced_args(), None)
    assert pl.name() == NAME == "NodeResourcesBalancedAllocation"
    assert pl.score_extensions() is None
    assert pl.resource_allocation_scorer.use_requested is True
