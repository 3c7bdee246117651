"""The experiment: Open-Gpu-Share in the real scheduler, the workload tuning, the allocation curve."""
import pytest

from ksched_edu.gpu.sharing.experiment import (POLICIES, AllocRow, FirstAmongEquals, allocation_curve, new_scheduler,
                                               run_experiment, schedule_pod, sort_cluster_pods,
                                               tune_pods_by_node_total_resource, typical_pods_of)
from ksched_edu.gpu.sharing.gpushare_utils import MILLI
from ksched_edu.gpu.sharing.openb import generate_trace, node_from_row, pod_from_row
from ksched_edu.gpu.sharing.utils import get_pod_resource
from ksched_edu.schedule_one import select_host
from ksched_edu.framework.interface import NodePluginScores

from .util import gpu_node, gpu_pod

pytestmark = pytest.mark.ch10


def small_trace(seed=3, nodes=12):
    n, p = generate_trace(seed, nodes)
    return [node_from_row(r) for r in n], [pod_from_row(r) for r in p]


def test_ties_go_to_the_first_node():
    scores = [NodePluginScores("b", total_score=5), NodePluginScores("a", total_score=9),
              NodePluginScores("c", total_score=9), NodePluginScores("d", total_score=9)]
    assert select_host(scores, 3, FirstAmongEquals()) == "a"


def test_pods_share_a_gpu_and_ties_go_to_the_first_node_created():
    sched, api, ctx = new_scheduler([gpu_node("b", gpus=2), gpu_node("a", gpus=2)], "GpuPacking", 1, [])
    # an idle node scores 33 - 2 = 31 on both: the first created (b) wins
    assert schedule_pod(sched, api, gpu_pod("p1", milli=600)) == "b"
    # a shared GPU in use scores 100 - 40 // 10 = 96: the second share goes on the same GPU
    assert schedule_pod(sched, api, gpu_pod("p2", milli=400)) == "b"
    assert ctx.ledger.pod_gpu_ids("openb/p1") == ctx.ledger.pod_gpu_ids("openb/p2") == "0"
    assert ctx.ledger.nodes["b"].milli_gpu_left_list() == [0, 1000]


def test_gpu_model_constraint_and_the_failure_message():
    sched, api, ctx = new_scheduler([gpu_node("t4", model="T4"), gpu_node("v100", model="V100M32")], "BestFit", 1,
                                    [])
    assert schedule_pod(sched, api, gpu_pod("p1", spec="V100M16|V100M32")) == "v100"
    assert schedule_pod(sched, api, gpu_pod("p2", spec="A100")) is None
    assert api.get_pod("openb", "p2") is None  # a pod that fits nowhere is deleted
    bound = [w for w in api.writes if w.verb == "status"]
    assert bound[-1].detail == "0/2 nodes are available: 1 Node:t4, 1 Node:v100."


def test_deleting_a_pod_frees_its_gpus():
    sched, api, ctx = new_scheduler([gpu_node("n", gpus=1)], "FGD", 1, [])
    assert schedule_pod(sched, api, gpu_pod("p1", milli=700)) == "n"
    assert schedule_pod(sched, api, gpu_pod("p2", milli=700)) is None
    api.delete("Pod", "openb", "p1")
    assert ctx.ledger.nodes["n"].milli_gpu_left_list() == [1000]
    assert schedule_pod(sched, api, gpu_pod("p3", milli=700)) == "n"


def test_tuning_adds_copies_until_the_target():
    nodes, pods = small_trace()
    capacity = sum(MILLI * int(n.status.capacity["alibabacloud.com/gpu-count"].value()) for n in nodes)
    import random

    tuned = tune_pods_by_node_total_resource(list(pods), pods, 1.3, capacity, random.Random(1))
    asked = sum(get_pod_resource(p).total_milli_gpu() for p in tuned)
    assert asked <= 1.3 * capacity + 8000
    assert len({p.metadata.name for p in tuned}) == len(tuned)
    assert any(p.metadata.name.endswith("-tuned-0") for p in tuned)
    shrunk = tune_pods_by_node_total_resource(list(pods), pods, 0.5, capacity, random.Random(1))
    assert sum(get_pod_resource(p).total_milli_gpu() for p in shrunk) <= 0.5 * capacity


def test_sort_cluster_pods_is_a_seeded_shuffle():
    import random

    _, pods = small_trace()
    a, b = list(pods), list(reversed(pods))
    sort_cluster_pods(a, random.Random(4))
    sort_cluster_pods(b, random.Random(4))
    assert [p.name for p in a] == [p.name for p in b] != sorted(p.name for p in pods)


def test_allocation_curve_as_merge_alloc_discrete():
    # 10 GPUs: arrived 0.5% rounds to 0 (half to even), 1.5% and 2.4% to 2; 1%, 4% and 6% have no row:
    # their points average the rows one percent around them
    rows = [AllocRow(1, 1, used, 10, arrived) for used, arrived in
            [(50, 50), (150, 150), (200, 240), (300, 300), (400, 500)]]
    assert allocation_curve(rows, 10, last=6) == {0: 0.5, 1: 1.33, 2: 1.75, 3: 3.0, 4: 3.5, 5: 4.0, 6: 4.0}


@pytest.mark.parametrize("policy", POLICIES)
def test_every_policy_runs_and_is_deterministic(policy):
    nodes, pods = small_trace()
    a = run_experiment(nodes, pods, policy, 42)
    b = run_experiment(nodes, pods, policy, 42)
    assert a.outcomes == b.outcomes and a.rows == b.rows
    assert a.rows[-1].arrived_gpu_milli >= 1.29 * a.total_gpus * MILLI
    placed = [o for o in a.outcomes if o.node]
    assert a.rows[-1].used_gpu_milli == sum(o.milli_gpu * o.gpu_number for o in placed)
    assert all(0 <= v <= 100 for v in a.curve().values())
    assert len(a.typical_pods) > 0


def test_typical_pods_of_the_workload():
    _, pods = small_trace()
    tp = typical_pods_of(pods)
    assert sum(t.percentage for t in tp) == pytest.approx(1.0)
    assert tp[0].percentage >= tp[-1].percentage


def test_same_outcome_in_other_processes():
    """String hashing differs between processes; the experiment's outcome must not."""
    import os
    import subprocess
    import sys

    code = ("from tests.gpu_sharing.test_experiment import small_trace;"
            "from ksched_edu.gpu.sharing.experiment import run_experiment;"
            "n, p = small_trace(); r = run_experiment(n, p, 'FGD', 7);"
            "print([(o.pod, o.node, o.gpu_ids) for o in r.outcomes])")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    outs = {subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outs) == 1
