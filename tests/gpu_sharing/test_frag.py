"""The fragmentation measure of the FGD paper, on worked examples.

Partly mirrors TestNodeGpuShareFragAmountScore and TestNodeGpuShareFragAmountWithNonGpu in
pkg/utils/frag_test.go of kubernetes-scheduler-simulator; the first cases are worked by hand
from the paper's definition (Section 4.1: a node's idle GPU is a fragment for a pod that
cannot use it; the measure is its expectation over the typical pods).
"""
import pytest

from ksched_edu.gpu.sharing.frag import (NO_ACCESS, Q1_LACK_BOTH, Q2_LACK_GPU, Q3_SATISFIED, Q4_LACK_CPU,
                                         XL_SATISFIED, XR_LACK_CPU, FRAG_RATIO_DATA_MAP, TypicalPodsConfig,
                                         get_node_pod_frag, get_typical_pods, node_gpu_share_frag_amount,
                                         node_gpu_share_frag_amount_score)
from ksched_edu.gpu.sharing.resource import NodeResource, PodResource

from .util import typical

pytestmark = pytest.mark.ch10

P = PodResource
SHARE_HALF = P(4000, 500, 1)  # half a GPU and 4 CPUs
ONE_GPU = P(2000, 1000, 1)
CPU_ONLY = P(16000, 0, 0)
WORKLOAD = typical((SHARE_HALF, 0.5), (ONE_GPU, 0.3), (CPU_ONLY, 0.2))


def node(cpu_left, gpus, model="T4", capacity=64000):
    return NodeResource("n", cpu_left, capacity, list(gpus), len(gpus), model)


# (name, node, typical pods, expected amount, expected milli GPU by frag type)
WORKED = [
    # Idle GPU 2700. The half-GPU pod fits, but the 200m GPU is too small for it: 0.5 * 200.
    # The one-GPU pod fits; the 200m and 500m GPUs are too small: 0.3 * 700.
    # The CPU-only pod lacks CPU: every idle GPU counts, 0.2 * 2700.
    ("pods fit, small GPUs are fragments", node(8000, [200, 1000, 1000, 500]), WORKLOAD, 850.0,
     {Q2_LACK_GPU: 310.0, Q3_SATISFIED: 1850.0, XR_LACK_CPU: 540.0}),
    # With 1 CPU left nobody fits: all 2700 idle milli GPU are fragments.
    ("no CPU left, all idle GPU is fragment", node(1000, [200, 1000, 1000, 500]), WORKLOAD, 2700.0,
     {Q4_LACK_CPU: 2160.0, XR_LACK_CPU: 540.0}),
    # A CPU-only pod that fits still counts all idle GPU (it cannot use GPUs): 0.2 * 2000.
    ("an empty node: only the CPU-only pod counts", node(64000, [1000, 1000]), WORKLOAD, 400.0,
     {Q3_SATISFIED: 0.5 * 2000 + 0.3 * 2000, XL_SATISFIED: 400.0}),
    ("no idle GPU, no fragment", node(64000, [0, 0]), WORKLOAD, 0.0, {}),
    ("a pod that asks for another model cannot use any GPU", node(64000, [1000, 600], model="T4"),
     typical((P(4000, 500, 1, "V100M16|V100M32"), 1.0)), 1600.0, {NO_ACCESS: 1600.0}),
    ("GPUs too small for every pod", node(64000, [400, 300]), typical((SHARE_HALF, 1.0)), 700.0,
     {Q2_LACK_GPU: 700.0}),
]


@pytest.mark.parametrize("name,res,pods,want,by_type", WORKED, ids=[c[0] for c in WORKED])
def test_worked_examples(name, res, pods, want, by_type):
    amount = node_gpu_share_frag_amount(res, pods)
    assert amount.frag_amount_sum_except_q3() == pytest.approx(want)
    for frag_type, slot in FRAG_RATIO_DATA_MAP.items():
        assert amount.data[slot] == pytest.approx(by_type.get(frag_type, 0.0)), frag_type
    assert node_gpu_share_frag_amount_score(res, pods) == pytest.approx(want)


FRAG_CASES = [
    ("cpu-only pod, cpu fits", node(8000, [1000]), P(4000, 0, 0), XL_SATISFIED),
    ("cpu-only pod, cpu lacks", node(2000, [1000]), P(4000, 0, 0), XR_LACK_CPU),
    ("fits", node(8000, [1000, 300]), P(4000, 500, 1), Q3_SATISFIED),
    ("lacks cpu", node(2000, [1000, 300]), P(4000, 500, 1), Q4_LACK_CPU),
    ("lacks gpu", node(8000, [400, 300]), P(4000, 500, 1), Q2_LACK_GPU),
    ("lacks both", node(2000, [400, 300]), P(4000, 500, 1), Q1_LACK_BOTH),
    ("two gpus wanted, one fits", node(8000, [1000, 300]), P(4000, 1000, 2), Q2_LACK_GPU),
    ("model not accepted", node(8000, [1000]), P(4000, 500, 1, "A100"), NO_ACCESS),
    ("cpu node for a gpu pod", NodeResource("c", 8000, 8000), P(4000, 500, 1, "A100"), NO_ACCESS),
]


@pytest.mark.parametrize("name,res,pod,want", FRAG_CASES, ids=[c[0] for c in FRAG_CASES])
def test_get_node_pod_frag(name, res, pod, want):
    assert get_node_pod_frag(res, pod) == want


# Mirrors TestNodeGpuShareFragAmountWithNonGpu in frag_test.go.
NON_GPU_WORKLOAD = typical(
    (P(15700, 1000, 1), .2869), (P(11900, 1000, 1), .1893), (P(11400, 1000, 1), .1227), (P(1000, 0, 0), .0736),
    (P(18710, 1000, 1), .0485), (P(8200, 1000, 1), .0379), (P(16400, 1000, 1), .0331), (P(9810, 1000, 1), .0197),
    (P(15200, 1000, 1), .0187), (P(11200, 1000, 1), .0181), (P(14200, 1000, 1), .0176), (P(12000, 0, 0), .0165),
    (P(14900, 1000, 1), .0139), (P(60200, 1000, 4), .0123), (P(64200, 1000, 8), .0107), (P(32200, 1000, 4), .0101),
    (P(17400, 1000, 2), .0091), (P(30200, 1000, 2), .0069), (P(16000, 1000, 1), .0064), (P(15000, 1000, 1), .0059),
    (P(64000, 1000, 8), .0053), (P(15000, 0, 0), .0053), (P(11910, 1000, 1), .0053), (P(120200, 1000, 8), .0048),
    (P(11300, 1000, 1), .0037), (P(30000, 1000, 2), .0032), (P(9800, 1000, 1), .0032), (P(8000, 1000, 1), .0032),
    (P(2000, 1000, 1), .0027), (P(2000, 80, 1), .0027), (P(1000, 1000, 1), .0027))

UPSTREAM = [
    ("8xP100_empty", NodeResource("8xP100_empty", 64000, 64000, [1000] * 8, 8, "P100"), 887.20),
    ("8xP100_halved", NodeResource("8xP100_halved", 32000, 64000, [1000] * 4 + [0] * 4, 8, "P100"), 554.4),
    ("8xP100_nocpu", NodeResource("8xP100_nocpu", 0, 64000, [1000] * 4 + [0] * 4, 8, "P100"), 4000),
]


@pytest.mark.parametrize("name,res,want", UPSTREAM, ids=[c[0] for c in UPSTREAM])
def test_frag_amount_with_non_gpu(name, res, want):
    assert node_gpu_share_frag_amount_score(res, NON_GPU_WORKLOAD) == pytest.approx(want, abs=0.01)


def test_frag_amount_memo_is_keyed_by_state_not_gpu_order():
    memo: dict = {}
    a = node(8000, [200, 1000, 1000, 500])
    b = node(8000, [1000, 500, 200, 1000])
    assert node_gpu_share_frag_amount_score(a, WORKLOAD, memo) == node_gpu_share_frag_amount_score(b, WORKLOAD, memo)
    assert len(memo) == 1


def test_typical_pods_cover_the_threshold_and_sum_to_one():
    pods = [P(1000, 500, 1)] * 6 + [P(2000, 1000, 1)] * 3 + [P(4000, 0, 0)] * 1
    # 60% of the workload: the most frequent request alone covers it.
    got = get_typical_pods(pods, TypicalPodsConfig(pod_popularity_threshold=60))
    assert [(t.target_pod_resource, t.percentage) for t in got] == [(P(1000, 500, 1), 1.0)]
    # 95%: all three, most frequent first, frequencies as shares of the workload.
    got = get_typical_pods(pods, TypicalPodsConfig(pod_popularity_threshold=95))
    assert [t.target_pod_resource for t in got] == [P(1000, 500, 1), P(2000, 1000, 1), P(4000, 0, 0)]
    assert [t.percentage for t in got] == pytest.approx([0.6, 0.3, 0.1])


def test_typical_pods_renormalise_what_they_keep_and_break_ties_by_larger_request():
    pods = [P(1000, 500, 1)] * 4 + [P(2000, 1000, 1)] * 4 + [P(4000, 0, 0)] * 2
    got = get_typical_pods(pods, TypicalPodsConfig(pod_popularity_threshold=80))
    assert [t.target_pod_resource for t in got] == [P(2000, 1000, 1), P(1000, 500, 1)]
    assert [t.percentage for t in got] == pytest.approx([0.5, 0.5])


def test_typical_pods_without_cpu_pods():
    pods = [P(1000, 500, 1)] * 3 + [P(4000, 0, 0)] * 7
    got = get_typical_pods(pods, TypicalPodsConfig(is_involved_cpu_pods=False))
    assert [(t.target_pod_resource, t.percentage) for t in got] == [(P(1000, 500, 1), 1.0)]
