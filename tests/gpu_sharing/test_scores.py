"""Each policy's Score on hand-built nodes.

The GPU Packing table mirrors TestGpuPackingScorePlugin_Score in
pkg/simulator/plugin/gpu_packing_score_test.go of kubernetes-scheduler-simulator; the
other expected scores are worked by hand from each plugin's formula (see its docstring).
"""
import pytest

from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, NodeScore
from ksched_edu.gpu.sharing.args import MERGE_GPU_DIM, NORM_BY_MAX, NORM_BY_NODE, GpuPluginArgs
from ksched_edu.gpu.sharing.plugins import (best_fit_score, dot_product_score, fgd_score, gpu_clustering_score,
                                            gpu_packing_score, random_score)
from ksched_edu.gpu.sharing.plugins.best_fit_score import get_best_fit_score
from ksched_edu.gpu.sharing.plugins.dot_product_score import calculate_dot_product_score
from ksched_edu.gpu.sharing.plugins.fgd_score import calculate_gpu_share_frag_extend_score
from ksched_edu.gpu.sharing.plugins.gpu_clustering_score import get_clustering_score
from ksched_edu.gpu.sharing.plugins.gpu_packing_score import get_packing_score
from ksched_edu.gpu.sharing.plugins.plugin_utils import normalize_score, sigmoid
from ksched_edu.gpu.sharing.resource import NodeResource, PodResource

from .util import gpu_node, gpu_pod, handle_and_context, typical

pytestmark = pytest.mark.ch10

P = PodResource


def res(gpus, cpu_left=64000, affinity=None, model="1080", capacity=96000):
    return NodeResource("n", cpu_left, capacity, list(gpus), len(gpus), model, dict(affinity or {}))


# --- GPU Packing ------------------------------------------------------------------------------

PACKING = [
    ("case-2: needs free GPUs of a node in use", res([200, 1000, 1000, 500], 1000), P(100, 1000, 2, "1080"), 48),
    ("case-3: a free 4-GPU node", res([1000] * 4, 1000), P(100, 1000, 2, "1080"), 29),
    ("case-3: a free 8-GPU node", res([1000] * 8, 1000), P(100, 1000, 2, "1080"), 25),
    ("case-1: only GPUs in use", res([200, 1000, 1000, 500], 1000), P(100, 200, 2, "1080"), 93),
    ("case-1: a share on the fullest GPU that fits", res([300, 1000], 1000), P(100, 250, 1), 97),
]


@pytest.mark.parametrize("name,node,pod,want", PACKING, ids=[c[0] for c in PACKING])
def test_packing_score(name, node, pod, want):
    before = list(node.milli_gpu_left_list)
    assert get_packing_score(node, pod) == (want, None)
    assert node.milli_gpu_left_list == before  # the device order is not touched


def test_packing_score_error_when_gpus_do_not_fit():
    score, err = get_packing_score(res([300, 1000], 1000), P(100, 1000, 2))
    assert score == 0 and err is not None


# --- BestFit ----------------------------------------------------------------------------------

BEST_FIT = [
    # leftover (60000/128000 + 1500/8000) / 2 = 0.328125 -> (1 - 0.328125) * 100 = 67
    ("empty 2-GPU node", res([1000, 1000], 64000), P(4000, 500, 1), 67),
    # leftover (4000/128000 + 0) / 2 = 0.015625 -> 98
    ("a tight fit", res([500], 8000), P(4000, 500, 1), 98),
    ("does not fit", res([400], 8000), P(4000, 500, 1), -1),
]


@pytest.mark.parametrize("name,node,pod,want", BEST_FIT, ids=[c[0] for c in BEST_FIT])
def test_best_fit_score(name, node, pod, want):
    assert get_best_fit_score(node, pod) == want


def test_normalize_score_stretches_to_0_100():
    scores = [NodeScore("a", 60), NodeScore("b", 70), NodeScore("c", 65)]
    normalize_score(scores)
    assert [s.score for s in scores] == [0, 100, 50]
    same = [NodeScore("a", 7), NodeScore("b", 7)]
    normalize_score(same)
    assert [s.score for s in same] == [0, 0]


# --- DotProduct -------------------------------------------------------------------------------

DOT = [
    # merge/max: node [64000/128000, 2000/8000] . pod [4000/128000, 500/8000] = 0.03125; /2 -> 1 - 0.015625
    ("merge, max", res([1000, 1000], 64000), P(4000, 500, 1), GpuPluginArgs(MERGE_GPU_DIM, NORM_BY_MAX), (98, "")),
    # merge/node: [64000/96000, 2000/2000] . [4000/96000, 500/2000] = 0.2777...; /2 -> 1 - 0.13888
    ("merge, node", res([1000, 1000], 64000), P(4000, 500, 1), GpuPluginArgs(MERGE_GPU_DIM, NORM_BY_NODE),
     (86, "")),
    # share/max: virtual nodes <cpu, 600> (GPU 1) and <cpu, 1000> (free GPU 0); the smaller product wins
    ("share, max picks the GPU", res([1000, 600], 64000), P(4000, 500, 1), GpuPluginArgs(), (98, "1")),
    ("not enough CPU", res([1000], 1000), P(4000, 500, 1), GpuPluginArgs(MERGE_GPU_DIM, NORM_BY_MAX), (0, "")),
]


@pytest.mark.parametrize("name,node,pod,cfg,want", DOT, ids=[c[0] for c in DOT])
def test_dot_product_score(name, node, pod, cfg, want):
    assert calculate_dot_product_score(node, pod, cfg) == want


# --- GPU Clustering ---------------------------------------------------------------------------

CLUSTERING = [
    # 25 * (8000 - 2000) // 8000 = 18, then the band
    ("idle node", res([1000, 1000]), "share-gpu", 18 + 25),
    ("only pods of the same kind", res([500, 1000], affinity={"share-gpu": 1}), "share-gpu", 20 + 75),
    ("the same kind among others", res([500, 0], affinity={"share-gpu": 1, "1-gpu": 1}), "share-gpu", 23 + 50),
    ("only other kinds", res([0, 1000], affinity={"1-gpu": 1}), "share-gpu", 21),
]


@pytest.mark.parametrize("name,node,affinity,want", CLUSTERING, ids=[c[0] for c in CLUSTERING])
def test_clustering_score(name, node, affinity, want):
    assert get_clustering_score(node, affinity) == want


# --- FGD --------------------------------------------------------------------------------------

HALF = typical((P(4000, 500, 1), 1.0))  # every pod of the workload asks for half a GPU

FGD = [
    # Nothing is fragmented before or after: sigmoid(0) = 0.5 -> 50, the first GPU.
    ("no fragment either way", res([1000, 1000]), P(1000, 500, 1), HALF, (50, "0")),
    # 300m on GPU 0 leaves 300 < 500: fragmentation +300 -> sigmoid(-0.3) -> 42; on GPU 1 it stays 0 -> 50.
    ("the GPU that keeps room for the typical pod", res([600, 1000]), P(1000, 300, 1), HALF, (50, "1")),
    # 100m on the 600m GPU leaves 500, on the free GPU leaves 900: both 50, the first GPU wins.
    ("ties go to the first GPU", res([600, 1000]), P(1000, 100, 1), HALF, (50, "0")),
    # A whole GPU on [1000, 1000, 300]: fragmentation stays 300 -> 50, GPU 0.
    ("a whole GPU takes the first free one", res([1000, 1000, 300]), P(1000, 1000, 1), HALF, (50, "0")),
    # Filling the 300m fragment removes it: sigmoid(0.3) -> 57.
    ("filling a fragment scores above 50", res([300, 1000]), P(1000, 300, 1), HALF, (57, "0")),
    # A CPU-only pod taking all CPU makes the 2000 idle milli GPU fragments: sigmoid(-2) -> 11.
    ("a cpu-only pod that strands GPUs", res([1000, 1000], 4000), P(4000, 0, 0), HALF, (11, "")),
]


@pytest.mark.parametrize("name,node,pod,workload,want", FGD, ids=[c[0] for c in FGD])
def test_fgd_score(name, node, pod, workload, want):
    assert calculate_gpu_share_frag_extend_score(node, pod, workload) == want


def test_sigmoid_saturates_without_overflow():
    assert sigmoid(0) == 0.5
    assert sigmoid(-1000.0) == 0.0
    assert sigmoid(1000.0) == 1.0


# --- the plugins, through a framework handle ---------------------------------------------------


def scores(plugin, pod, names, state=None):
    state = state or CycleState()
    out = []
    for n in names:
        value, status = plugin.score(state, pod, n)
        assert status is None or status.code == Code.Success, status
        out.append(value)
    return out


def two_nodes():
    """n1 with a 600m GPU and seven free ones; n2 all free."""
    nodes = [gpu_node("n1"), gpu_node("n2")]
    existing = gpu_pod("old", milli=400, node="n1")
    return nodes, [(existing, "0")]


@pytest.mark.parametrize("module,pod,want", [
    # n1: the 600m GPU takes it (case 1): 100 - (600 * 100 // 1000) // 10; n2: all free, 33 - 8
    (gpu_packing_score, gpu_pod("p", milli=500), [94, 25]),
    # n1 holds only share-gpu pods: 25 * 400 // 8000 + 75; n2 is idle: 0 + 25
    (gpu_clustering_score, gpu_pod("p", milli=500), [76, 25]),
    # n1: (1 - (88000/128000 + 7100/8000) / 2) * 100 = 21.25; n2: (1 - (92000/128000 + 7500/8000) / 2) * 100
    (best_fit_score, gpu_pod("p", milli=500), [21, 17]),
    (gpu_packing_score, gpu_pod("p", gpus=0), [0, 0]),
], ids=["GpuPackingScore", "GpuClusteringScore", "BestFitScore", "GpuPackingScore cpu-only pod"])
def test_plugin_scores(module, pod, want):
    nodes, placed = two_nodes()
    handle, ctx = handle_and_context(nodes, placed)
    plugin = module.new(None, handle, ctx)
    assert plugin.name() == module.NAME
    assert scores(plugin, pod, ["n1", "n2"]) == want


def test_best_fit_plugin_normalizes():
    nodes, placed = two_nodes()
    handle, ctx = handle_and_context(nodes, placed)
    plugin = best_fit_score.new(None, handle, ctx)
    raw = [NodeScore(n, s) for n, s in zip(["n1", "n2"], scores(plugin, gpu_pod("p", milli=500), ["n1", "n2"]))]
    assert [s.score for s in raw] == [21, 17]
    plugin.score_extensions().normalize_score(CycleState(), None, raw)
    assert [s.score for s in raw] == [100, 0]


def test_dot_product_plugin_registers_its_gpu_choice():
    nodes, placed = two_nodes()
    handle, ctx = handle_and_context(nodes, placed)
    plugin = dot_product_score.new({"dimExtMethod": "share", "normMethod": "max"}, handle, ctx)
    # n1: the 600m GPU as a virtual node <92000, 600> / <128000, 8000> . <4000, 500> / <128000, 8000>
    #     = 0.02715, halved -> 1 - 0.01357 -> 98; n2: <96000, 8000> -> 1 - 0.04297 -> 95
    assert scores(plugin, gpu_pod("p", milli=500), ["n1", "n2"]) == [98, 95]
    assert dot_product_score.NAME in ctx.allocate_gpu_id_func


def test_fgd_plugin_scores_and_memoises():
    nodes, placed = two_nodes()
    handle, ctx = handle_and_context(nodes, placed, typical_pods=typical((P(4000, 500, 1), 1.0)))
    plugin = fgd_score.new(None, handle, ctx)
    pod = gpu_pod("p", milli=600)
    # n1: 600m on the 600m GPU removes nothing... the 600m GPU (>= 500) was no fragment; taking it all -> 50.
    # n2: 600m on a free GPU leaves 400 < 500: +400 -> sigmoid(-0.4) -> 40.
    assert scores(plugin, pod, ["n1", "n2"]) == [50, 40]
    assert len(ctx.score_memo(fgd_score.NAME)) == 2
    assert scores(plugin, pod, ["n1", "n2"]) == [50, 40]
    assert len(ctx.score_memo(fgd_score.NAME)) == 2


def test_random_plugin_gives_its_pick_100():
    nodes = [gpu_node(f"n{i}") for i in range(5)]
    handle, ctx = handle_and_context(nodes)
    plugin = random_score.new(None, handle, ctx)
    state = CycleState()
    infos = handle.snapshot_shared_lister().node_infos().list()
    assert plugin.pre_score(state, gpu_pod("p"), infos) is None
    got = scores(plugin, gpu_pod("p"), [n.name for n in infos], state)
    assert sorted(got) == [0, 0, 0, 0, 100]


def test_random_plugin_without_pre_score_is_an_error():
    handle, ctx = handle_and_context([gpu_node("n1")])
    value, status = random_score.new(None, handle, ctx).score(CycleState(), gpu_pod("p"), "n1")
    assert status.code == Code.Error
    assert status.message() == 'reading "PreScore-RandomScorePlugin" from cycleState: not found'


def test_unknown_node_is_an_error():
    handle, ctx = handle_and_context([gpu_node("n1")])
    value, status = gpu_packing_score.new(None, handle, ctx).score(CycleState(), gpu_pod("p", milli=500), "nope")
    assert (value, status.code, status.message()) == (0, Code.Error, "failed to get nodeRes(nope)\n")
