"""Mirrors TestRequestedToCapacityRatioScoringStrategy, TestResourceBinPackingSingleExtended and
TestResourceBinPackingMultipleExtended in noderesources/requested_to_capacity_ratio_test.go (v1.30)."""
import pytest

from ksched_edu.config.types_pluginargs import REQUESTED_TO_CAPACITY_RATIO, ResourceSpec
from ksched_edu.framework.interface import MAX_NODE_SCORE
from ksched_edu.framework.plugins.noderesources.fit import new
from ksched_edu.framework.plugins.noderesources.requested_to_capacity_ratio import requested_to_capacity_ratio_scorer
from ksched_edu.config.types_pluginargs import UtilizationShapePoint
from tests.builders import make_node, make_pod

from .scoring import run_scores
from .util import DEFAULT_RESOURCES, fit_args, make_node as make_res_node

SHAPE = [(0, 10), (100, 0)]


def node(name, cpu, memory):
    return make_node().name(name).capacity(cpu=cpu, memory=memory).obj()


CASES = [
    ("nothing scheduled, nothing requested (default - least requested nodes have priority)", make_pod().obj(),
     [node("node1", "4000", "10000"), node("node2", "4000", "10000")],
     [make_pod().node("node1").obj(), make_pod().node("node1").obj()], [MAX_NODE_SCORE, MAX_NODE_SCORE]),
    ("nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have "
     "priority)", make_pod().req(cpu="1000", memory="2000").req(cpu="2000", memory="3000").obj(),
     [node("node1", "4000", "10000"), node("node2", "6000", "10000")],
     [make_pod().node("node1").obj(), make_pod().node("node1").obj()], [38, 50]),
    ("no resources requested, pods scheduled with resources (default - least requested nodes have priority)",
     make_pod().obj(), [node("node1", "4000", "10000"), node("node2", "6000", "10000")],
     [make_pod().node("node1").req(cpu="3000", memory="5000").obj(),
      make_pod().node("node2").req(cpu="3000", memory="5000").obj()], [38, 50]),
]


@pytest.mark.parametrize("pod,nodes,existing,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_requested_to_capacity_ratio_scoring_strategy(pod, nodes, existing, expected):
    args = fit_args(REQUESTED_TO_CAPACITY_RATIO, resources=DEFAULT_RESOURCES, shape=SHAPE)
    scores, statuses = run_scores(new, args, pod, nodes, existing)
    assert scores == expected
    assert statuses == [None] * len(nodes)


MB = 1024 * 1024
FOO, BAR = "intel.com/foo", "intel.com/bar"

SINGLE_CASES = [
    ("nothing scheduled, nothing requested", make_pod().obj(), [], [0, 0]),
    ("resources requested, pods scheduled with less resources", make_pod().req({FOO: "2"}).obj(),
     [make_pod().obj()], [2, 5]),
    ("resources requested, pods scheduled with resources, on node with existing pod running ",
     make_pod().req({FOO: "2"}).obj(), [make_pod().req({FOO: "2"}).node("node2").obj()], [2, 10]),
    ("resources requested, pods scheduled with more resources", make_pod().req({FOO: "4"}).obj(),
     [make_pod().obj()], [5, 10]),
]


@pytest.mark.parametrize("pod,existing,expected", [c[1:] for c in SINGLE_CASES], ids=[c[0] for c in SINGLE_CASES])
def test_resource_bin_packing_single_extended(pod, existing, expected):
    nodes = [make_res_node("node1", 4000, 10000 * MB, {FOO: 8}), make_res_node("node2", 4000, 10000 * MB, {FOO: 4})]
    args = fit_args(REQUESTED_TO_CAPACITY_RATIO, resources=[ResourceSpec(FOO, 1)], shape=[(0, 0), (100, 1)])
    scores, _ = run_scores(new, args, pod, nodes, existing)
    assert scores == expected


MULTIPLE_CASES = [
    ("nothing scheduled, nothing requested", make_pod().obj(), [], [0, 0]),
    ("resources requested, pods scheduled with less resources", make_pod().req({FOO: "2", BAR: "2"}).obj(),
     [make_pod().obj()], [4, 3]),
    ("resources requested, pods scheduled with resources, on node with existing pod running ",
     make_pod().req({FOO: "2", BAR: "2"}).obj(), [make_pod().req({FOO: "4", BAR: "2"}).node("node2").obj()], [4, 7]),
    ("resources requested, pods scheduled with more resources", make_pod().req({FOO: "4", BAR: "2"}).obj(),
     [make_pod().obj()], [5, 5]),
]


@pytest.mark.parametrize("pod,existing,expected", [c[1:] for c in MULTIPLE_CASES],
                         ids=[c[0] for c in MULTIPLE_CASES])
def test_resource_bin_packing_multiple_extended(pod, existing, expected):
    nodes = [make_res_node("node1", 4000, 10000 * MB, {FOO: 8, BAR: 4}),
             make_res_node("node2", 4000, 10000 * MB, {FOO: 4, BAR: 8})]
    args = fit_args(REQUESTED_TO_CAPACITY_RATIO, resources=[ResourceSpec(FOO, 3), ResourceSpec(BAR, 5)],
                    shape=[(0, 0), (100, 1)])
    scores, _ = run_scores(new, args, pod, nodes, existing)
    assert scores == expected


def test_shape_scores_are_scaled_by_ten_and_rounded_half_away_from_zero():
    """Shape scores 0..10 become 0..100; the weighted mean 2.5 rounds up to 3 (Go's math.Round)."""
    scorer = requested_to_capacity_ratio_scorer([ResourceSpec("a", 1), ResourceSpec("b", 1)],
                                                [UtilizationShapePoint(0, 0), UtilizationShapePoint(100, 1)])
    # a: 20% -> 2, b: 30% -> 3; mean 2.5 -> 3.
    assert scorer([20, 30], [100, 100]) == 3
    # A resource scoring 0 does not count towards the mean.
    assert scorer([0, 30], [100, 100]) == 3


def test_invalid_shape_is_refused():
    with pytest.raises(ValueError) as exc:
        new(fit_args(REQUESTED_TO_CAPACITY_RATIO, shape=[(50, 1), (10, 2)]), None)
    assert str(exc.value) == ("scoringStrategy.shape[1].utilization: Invalid value: 10: "
                              "utilization values must be sorted in increasing order")
