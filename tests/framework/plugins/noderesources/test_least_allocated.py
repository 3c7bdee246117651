"""Mirrors TestLeastAllocatedScoringStrategy in noderesources/least_allocated_test.go (v1.30)."""
import pytest

from ksched_edu.config.types_pluginargs import LEAST_ALLOCATED, ResourceSpec
from ksched_edu.framework.interface import MAX_NODE_SCORE, MIN_NODE_SCORE, Code
from ksched_edu.framework.plugins.noderesources.fit import new
from ksched_edu.framework.plugins.noderesources.least_allocated import least_requested_score
from tests.builders import make_node, make_pod

from .scoring import run_scores
from .util import DEFAULT_RESOURCES, EXTENDED_RES, EXTENDED_RESOURCE_SET, fit_args


def node(name, cpu=None, memory=None, **extra):
    res = dict(extra)
    if cpu is not None:
        res.update(cpu=cpu, memory=memory)
    return make_node().name(name).capacity(res).obj()


def two_container_pod():
    return make_pod().req(cpu="1000", memory="2000").req(cpu="2000", memory="3000").obj()


CASES = [
    # (name, pod, nodes, existing, resources, expected, want status code)
    ("nothing scheduled, nothing requested", make_pod().obj(),
     [node("node1", "4000", "10000"), node("node2", "4000", "10000")], [], DEFAULT_RESOURCES,
     [MAX_NODE_SCORE, MAX_NODE_SCORE], None),
    ("nothing scheduled, resources requested, differently sized nodes", two_container_pod(),
     [node("node1", "4000", "10000"), node("node2", "6000", "10000")], [], DEFAULT_RESOURCES, [37, 50], None),
    ("Resources not set, pods scheduled with error", two_container_pod(),
     [node("node1", "4000", "10000"), node("node2", "6000", "10000")], [], [],
     [MIN_NODE_SCORE, MIN_NODE_SCORE], Code.Error),
    ("no resources requested, pods scheduled", make_pod().obj(),
     [node("node1", "4000", "10000"), node("node2", "4000", "10000")],
     [make_pod().node("node1").obj(), make_pod().node("node1").obj(),
      make_pod().node("node2").obj(), make_pod().node("node2").obj()], DEFAULT_RESOURCES,
     [MAX_NODE_SCORE, MAX_NODE_SCORE], None),
    ("no resources requested, pods scheduled with resources", make_pod().obj(),
     [node("node1", "10000", "20000"), node("node2", "10000", "20000")],
     [make_pod().node("node1").req(cpu="3000", memory="0").obj(),
      make_pod().node("node1").req(cpu="3000", memory="0").obj(),
      make_pod().node("node2").req(cpu="3000", memory="0").obj(),
      make_pod().node("node2").req(cpu="3000", memory="5000").obj()], DEFAULT_RESOURCES, [70, 57], None),
    ("resources requested, pods scheduled with resources", two_container_pod(),
     [node("node1", "10000", "20000"), node("node2", "10000", "20000")],
     [make_pod().node("node1").req(cpu="3000", memory="0").obj(),
      make_pod().node("node2").req(cpu="3000", memory="5000").obj()], DEFAULT_RESOURCES, [57, 45], None),
    ("resources requested, pods scheduled with resources, differently sized nodes", two_container_pod(),
     [node("node1", "10000", "20000"), node("node2", "10000", "50000")],
     [make_pod().node("node1").req(cpu="3000", memory="0").obj(),
      make_pod().node("node2").req(cpu="3000", memory="5000").obj()], DEFAULT_RESOURCES, [57, 60], None),
    ("requested resources exceed node capacity", make_pod().req(cpu="3000", memory="0").obj(),
     [node("node1", "4000", "10000"), node("node2", "4000", "10000")],
     [make_pod().node("node1").req(cpu="3000", memory="0").obj(),
      make_pod().node("node2").req(cpu="3000", memory="5000").obj()], DEFAULT_RESOURCES, [50, 25], None),
    ("zero node resources, pods scheduled with resources", make_pod().obj(), [node("node1"), node("node2")],
     [make_pod().node("node1").req(cpu="3000", memory="0").obj(),
      make_pod().node("node2").req(cpu="3000", memory="5000").obj()], DEFAULT_RESOURCES,
     [MIN_NODE_SCORE, MIN_NODE_SCORE], None),
    ("nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes",
     make_pod().node("node1").req(cpu="1000", memory="2000").req(cpu="2000", memory="3000").obj(),
     [node("node1", "4000", "10000"), node("node2", "6000", "10000")], [],
     [ResourceSpec("memory", 2), ResourceSpec("cpu", 1)], [41, 50], None),
    ("bypass extended resource if the pod does not request",
     make_pod().node("node1").req(cpu="1000", memory="2000").req(cpu="2000", memory="3000").obj(),
     [node("node1", "6000", "10000"), make_node().name("node2").capacity(
         {"cpu": "6000", "memory": "10000", EXTENDED_RES: "4"}).obj()], [], EXTENDED_RESOURCE_SET, [50, 50], None),
    ("honor extended resource if the pod requests",
     make_pod().node("node1").req({"cpu": "3000", "memory": "5000", EXTENDED_RES: "2"}).obj(),
     [make_node().name("node1").capacity({"cpu": "6000", "memory": "10000", EXTENDED_RES: "4"}).obj(),
      make_node().name("node2").capacity({"cpu": "6000", "memory": "10000", EXTENDED_RES: "10"}).obj()], [],
     EXTENDED_RESOURCE_SET, [50, 60], None),
    ("if the node doesn't have a resource", make_pod().node("node1").req(cpu="3000", memory="4000").obj(),
     [node("node1", "6000", "10000"), make_node().name("node2").capacity(
         {"cpu": "6000", "memory": "10000", EXTENDED_RES: "4"}).obj()], [],
     [ResourceSpec(EXTENDED_RES, 2), ResourceSpec("cpu", 1), ResourceSpec("memory", 1)], [55, 55], None),
]


@pytest.mark.parametrize("pod,nodes,existing,resources,expected,want_code", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_least_allocated_scoring_strategy(pod, nodes, existing, resources, expected, want_code):
    scores, statuses = run_scores(new, fit_args(LEAST_ALLOCATED, resources=resources), pod, nodes, existing)
    assert scores == expected
    for st in statuses:
        if want_code is None:
            assert st is None
        else:
            assert st.code == want_code and st.message() == "resources not found"


@pytest.mark.parametrize("resources,want_field", [
    ([ResourceSpec("memory", -1), ResourceSpec("cpu", 1)], "scoringStrategy.resources[0].weight"),
    ([ResourceSpec("memory", 1), ResourceSpec("cpu", 0)], "scoringStrategy.resources[1].weight"),
    ([ResourceSpec("memory", 1), ResourceSpec("cpu", 101)], "scoringStrategy.resources[1].weight"),
], ids=["resource with negative weight", "resource with zero weight", "resource weight larger than MaxNodeScore"])
def test_least_allocated_invalid_weights(resources, want_field):
    with pytest.raises(ValueError, match=r"^" + want_field.replace("[", r"\[").replace("]", r"\]") + ": Invalid value"):
        new(fit_args(LEAST_ALLOCATED, resources=resources), None)


@pytest.mark.parametrize("requested,capacity,expected", [(0, 0, 0), (5, 4, 0), (1, 4, 75), (4, 4, 0), (1, 3, 66)])
def test_least_requested_score(requested, capacity, expected):
    assert least_requested_score(requested, capacity) == expected
