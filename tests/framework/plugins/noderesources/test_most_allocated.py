"""Mirrors TestMostAllocatedScoringStrategy in noderesources/most_allocated_test.go (v1.30)."""
import pytest

from ksched_edu.config.types_pluginargs import MOST_ALLOCATED, ResourceSpec
from ksched_edu.framework.interface import MIN_NODE_SCORE, Code
from ksched_edu.framework.plugins.noderesources.fit import new
from ksched_edu.framework.plugins.noderesources.most_allocated import most_requested_score
from tests.builders import make_node, make_pod

from .scoring import run_scores
from .util import DEFAULT_RESOURCES, EXTENDED_RES, EXTENDED_RESOURCE_SET, fit_args


def node(name, cpu, memory, **extra):
    return make_node().name(name).capacity(dict(extra, cpu=cpu, memory=memory)).obj()


def two_container_pod():
    return make_pod().req(cpu="1000", memory="2000").req(cpu="2000", memory="3000").obj()


CASES = [
    ("nothing scheduled, nothing requested", make_pod().obj(),
     [node("node1", "4000", "10000"), node("node2", "4000", "10000")], [], DEFAULT_RESOURCES,
     [MIN_NODE_SCORE, MIN_NODE_SCORE], None),
    ("nothing scheduled, resources requested, differently sized nodes", two_container_pod(),
     [node("node1", "4000", "10000"), node("node2", "6000", "10000")], [], DEFAULT_RESOURCES, [62, 50], None),
    ("Resources not set, pods scheduled with error", two_container_pod(),
     [node("node1", "4000", "10000"), node("node2", "6000", "10000")], [], [],
     [MIN_NODE_SCORE, MIN_NODE_SCORE], Code.Error),
    ("no resources requested, pods scheduled with resources", make_pod().obj(),
     [node("node1", "10000", "20000"), node("node2", "10000", "20000")],
     [make_pod().node("node1").req(cpu="3000", memory="0").obj(),
      make_pod().node("node1").req(cpu="3000", memory="0").obj(),
      make_pod().node("node2").req(cpu="3000", memory="0").obj(),
      make_pod().node("node2").req(cpu="3000", memory="5000").obj()], DEFAULT_RESOURCES, [30, 42], None),
    ("resources requested, pods scheduled with resources", two_container_pod(),
     [node("node1", "10000", "20000"), node("node2", "10000", "20000")],
     [make_pod().node("node1").req(cpu="3000", memory="0").obj(),
      make_pod().node("node2").req(cpu="3000", memory="5000").obj()], DEFAULT_RESOURCES, [42, 55], None),
    ("resources requested equal node capacity",
     make_pod().req(cpu="2000", memory="4000").req(cpu="3000", memory="5000").obj(),
     [node("node1", "5000", "10000"), node("node2", "10000", "9000")], [], DEFAULT_RESOURCES, [95, 75], None),
    ("nothing scheduled, resources requested, differently sized nodes (weighted)", two_container_pod(),
     [node("node1", "4000", "10000"), node("node2", "6000", "10000")], [],
     [ResourceSpec("memory", 2), ResourceSpec("cpu", 1)], [58, 50], None),
    ("no resources requested, pods scheduled, nonzero request for resource", make_pod().container("container").obj(),
     [node("node1", "250m", "1000Mi"), node("node2", "250m", "1000Mi")],
     [make_pod().node("node1").container("container").obj(), make_pod().node("node1").container("container").obj()],
     DEFAULT_RESOURCES, [80, 30], None),
    ("bypass extended resource if the pod does not request", two_container_pod(),
     [node("node1", "6000", "10000"), make_node().name("node2").capacity(
         {"cpu": "6000", "memory": "10000", EXTENDED_RES: "4"}).obj()], [], EXTENDED_RESOURCE_SET, [50, 50], None),
    ("honor extended resource if the pod request",
     make_pod().node("node1").req({"cpu": "3000", "memory": "5000", EXTENDED_RES: "2"}).obj(),
     [make_node().name("node1").capacity({"cpu": "6000", "memory": "10000", EXTENDED_RES: "4"}).obj(),
      make_node().name("node2").capacity({"cpu": "6000", "memory": "10000", EXTENDED_RES: "10"}).obj()], [],
     EXTENDED_RESOURCE_SET, [50, 40], None),
    ("if the node doesn't have a resource", make_pod().node("node1").req(cpu="3000", memory="4000").obj(),
     [node("node1", "6000", "10000"), make_node().name("node2").capacity(
         {"cpu": "6000", "memory": "10000", EXTENDED_RES: "4"}).obj()], [],
     [ResourceSpec(EXTENDED_RES, 2), ResourceSpec("cpu", 1), ResourceSpec("memory", 1)], [45, 45], None),
]


@pytest.mark.parametrize("pod,nodes,existing,resources,expected,want_code", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_most_allocated_scoring_strategy(pod, nodes, existing, resources, expected, want_code):
    scores, statuses = run_scores(new, fit_args(MOST_ALLOCATED, resources=resources), pod, nodes, existing)
    assert scores == expected
    for st in statuses:
        if want_code is None:
            assert st is None
        else:
            assert st.code == want_code and st.message() == "resources not found"


@pytest.mark.parametrize("resources,want", [
    ([ResourceSpec("memory", -1), ResourceSpec("cpu", 1)], "scoringStrategy.resources[0].weight: Invalid value: -1"),
    ([ResourceSpec("memory", 1), ResourceSpec("cpu", 0)], "scoringStrategy.resources[1].weight: Invalid value: 0"),
    ([ResourceSpec("memory", 101)], "scoringStrategy.resources[0].weight: Invalid value: 101"),
], ids=["resource with negative weight", "resource with zero weight", "resource weight larger than MaxNodeScore"])
def test_most_allocated_invalid_weights(resources, want):
    with pytest.raises(ValueError) as exc:
        new(fit_args(MOST_ALLOCATED, resources=resources), None)
    assert str(exc.value).startswith(want)


@pytest.mark.parametrize("requested,capacity,expected", [(0, 0, 0), (5, 4, 100), (1, 4, 25), (2, 3, 66)])
def test_most_requested_score(requested, capacity, expected):
    assert most_requested_score(requested, capacity) == expected
