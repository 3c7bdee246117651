"""Checks for chapter 10 (GPU sharing and fragmentation: FGD and its baselines).

``check_frag_amount`` compares a number worked by hand with the library's
fragmentation measure of the chapter's example node once a one-GPU pod took
its GPU 1; ``check_fgd_choice`` compares a predicted GPU with the one FGD
picks; ``check_whole_gpus_under_random`` schedules a pod asking for two whole
GPUs under the Random policy, with several seeds, and compares the GPUs
Open-Gpu-Share's Reserve wrote in the ledger with the learner's prediction.
"""
from __future__ import annotations

from typing import Any

from ksched_edu.exercises import core
from ksched_edu.exercises.core import failed, is_unanswered, passed
from ksched_edu.i18n import N_, _


def _limit(seconds: Any) -> float:
    """``seconds``, or the module-wide limit as it is now (tests lower it)."""
    return core.TIME_LIMIT_SECONDS if seconds is None else seconds


def _example_node() -> Any:
    from ksched_edu.gpu.sharing.resource import NodeResource

    # The chapter's node: 8 CPUs and four GPUs with 200m, 1000m, 1000m and 500m left.
    return NodeResource("example", 8000, 32000, [200, 1000, 1000, 500], 4, "T4")


def _example_workload() -> list:
    from ksched_edu.gpu.sharing.resource import PodResource, TargetPod

    return [TargetPod(PodResource(4000, 500, 1), 0.5), TargetPod(PodResource(2000, 1000, 1), 0.3),
            TargetPod(PodResource(16000, 0, 0), 0.2)]


def _example_node_after_one_gpu_pod() -> Any:
    """The example node once a one-GPU pod (2 CPUs, 1000m) took GPU 1: 6 CPUs; GPUs 200m, 0, 1000m, 500m left."""
    from ksched_edu.gpu.sharing.resource import PodResource

    after, _taken = _example_node().sub(PodResource(2000, 1000, 1))
    return after


_FRAG_GO = N_("the simulator's pkg/utils/frag.go, NodeGpuShareFragAmount (L147-167) and GetNodePodFrag (L556-582)")


def check_frag_amount(amount: Any) -> bool:
    """Is ``amount`` the fragmentation (milli GPU) of the example node, once a one-GPU pod took GPU 1,
    under the example workload?"""
    from ksched_edu.gpu.sharing.frag import get_gpu_milli_left_total, node_gpu_share_frag_amount

    if is_unanswered(amount):
        return failed(_("no answer yet."), hint=_("set `frag_amount = <a number of milli GPU>`."))
    if not isinstance(amount, (int, float)) or isinstance(amount, bool):
        return failed(_("{answer!r} is not a number.").format(answer=amount),
                      hint=_("the measure is a number of milli GPU, like 1234.5."))
    node = _example_node_after_one_gpu_pod()
    want = node_gpu_share_frag_amount(node, _example_workload()).frag_amount_sum_except_q3()
    idle = get_gpu_milli_left_total(node)
    before = node_gpu_share_frag_amount(_example_node(), _example_workload()).frag_amount_sum_except_q3()
    if abs(amount - want) < 0.5:
        return passed(_("{frag:g} milli GPU of the node's {idle} idle milli GPU are fragments for this workload "
                        "(it was {before:g} before the pod).").format(frag=want, idle=idle, before=before))
    go = _(_FRAG_GO)
    if abs(amount - before) < 0.5:
        return failed(_("{before:g} is the node before the pod.").format(before=before),
                      hint=_("the pod took GPU 1 and 2 CPUs: work the measure again on what is left "
                             "({go}).").format(go=go))
    if abs(amount - idle) < 0.5:
        return failed(_("{idle} is all the idle GPU.").format(idle=idle),
                      hint=_("a pod that fits counts only the GPUs too small for it, not the whole node "
                             "({go}).").format(go=go))
    return failed(_("{answer:g} is not it.").format(answer=amount),
                  hint=_("for each typical pod: frequency x (GPUs with less left than it asks, if it fits; "
                         "else all idle GPU). A CPU-only pod can never use a GPU ({go}).").format(go=go))


def check_fgd_choice(gpu_id: Any) -> bool:
    """Is ``gpu_id`` the GPU FGD gives a 300m pod on a node with GPUs [600m, 1000m] left?"""
    from ksched_edu.gpu.sharing.plugins.fgd_score import calculate_gpu_share_frag_extend_score
    from ksched_edu.gpu.sharing.resource import NodeResource, PodResource, TargetPod

    if is_unanswered(gpu_id):
        return failed(_("no answer yet."), hint=_('set `gpu = "0"` or `gpu = "1"`.'))
    if isinstance(gpu_id, bool) or not isinstance(gpu_id, (str, int)):
        return failed(_("{answer!r} is not a GPU id.").format(answer=gpu_id), hint=_('set `gpu = "0"` or `gpu = "1"`.'))
    node = NodeResource("n", 32000, 32000, [600, 1000], 2, "T4")
    workload = [TargetPod(PodResource(4000, 500, 1), 1.0)]
    score, want = calculate_gpu_share_frag_extend_score(node, PodResource(1000, 300, 1), workload)
    if str(gpu_id) == want:
        return passed(_("FGD puts it on GPU {gpu} (score {score}): the 600m GPU keeps room for a 500m pod.").format(
            gpu=want, score=score))
    if str(gpu_id) not in ("0", "1"):
        return failed(_("the node has GPUs 0 and 1, not {answer!r}.").format(answer=gpu_id),
                      hint=_('set `gpu = "0"` or `gpu = "1"`.'))
    return failed(_("FGD does not pick GPU {answer!r}.").format(answer=gpu_id),
                  hint=_("FGD scores each GPU by the node's fragmentation once the pod sits on it (section 4; "
                         "the simulator's pkg/simulator/plugin/fgd_score.go, calculateGpuShareFragExtendScore, "
                         "L62-85): work out that fragmentation for each GPU against the workload's one typical pod."))


# Exercise 3: a node of four GPUs, GPU 1 held in part by a running pod; a pod asking for two whole GPUs.
WHOLE_GPUS_NODE_GPUS = 4
HELD_GPU, HELD_MILLI = "1", 600
SEEDS = (1, 2, 3)


def whole_gpus_under_random(seed: int) -> str:
    """The GPU ids (ledger string, e.g. "0-2") Open-Gpu-Share reserves under the Random policy for a pod
    asking for two whole GPUs, on a node whose GPU ``HELD_GPU`` already holds ``HELD_MILLI`` milli."""
    from ksched_edu.gpu.sharing.experiment import new_scheduler, schedule_pod
    from ksched_edu.gpu.sharing.gpushare_utils import DEVICE_INDEX
    from ksched_edu.gpu.sharing.openb import NodeRow, PodRow, node_from_row, pod_from_row

    node = node_from_row(NodeRow("a", 32000, 131072, WHOLE_GPUS_NODE_GPUS, "T4"))
    sched, api, ctx = new_scheduler([node], "Random", seed=seed, typical_pods=[])
    held = pod_from_row(PodRow("held", 1000, 1024, 1, HELD_MILLI))
    held.metadata.annotations[DEVICE_INDEX] = HELD_GPU  # it runs on GPU 1 already
    schedule_pod(sched, api, held)
    two = pod_from_row(PodRow("two-gpus", 1000, 1024, 2, 1000))
    schedule_pod(sched, api, two)
    return ctx.ledger.pod_gpu_ids(two.metadata.uid)


_RANDOM_HINT = N_("read what Reserve calls under the Random policy: `allocate_gpu_id_based_on_random_fit` in "
                  "ksched_edu/gpu/sharing/plugins/open_gpu_share.py (the simulator's "
                  "pkg/simulator/plugin/open_gpu_share.go, allocateGpuIdBasedOnRandomFit, L308-326), and what it "
                  "does when the pod asks for 1000m per GPU (pkg/type/resource.go, AllocateExclusiveGpuId, L348-368).")


def check_whole_gpus_under_random(gpu_ids: Any) -> bool:
    """Which GPUs does Open-Gpu-Share's Reserve give a pod asking for two whole GPUs under the Random policy?"""
    if is_unanswered(gpu_ids):
        return failed(_("no prediction yet."), hint=_('set `gpu_ids` to the ledger\'s string, ids joined by "-", '
                                                      'like "1-3".'))
    if not isinstance(gpu_ids, str):
        return failed(_("{answer!r} is not the ledger's string of GPU ids.").format(answer=gpu_ids),
                      hint=_('write the ids joined by "-", like "1-3".'))
    parts = gpu_ids.strip().split("-")
    if not all(part.strip().isdigit() for part in parts):
        return failed(_("{answer!r}: the ledger names the GPUs themselves, whatever the policy.").format(
                          answer=gpu_ids),
                      hint=_(_RANDOM_HINT))
    ids = [int(part) for part in parts]
    if len(ids) != 2 or len(set(ids)) != 2 or max(ids) >= WHOLE_GPUS_NODE_GPUS:
        return failed(_("{answer!r} is not two different GPUs of the node (ids 0 to {last}).").format(
                          answer=gpu_ids, last=WHOLE_GPUS_NODE_GPUS - 1),
                      hint=_("the pod asks for two GPUs, 1000m each."))
    answers = {seed: whole_gpus_under_random(seed) for seed in SEEDS}
    want = answers[SEEDS[0]]
    if "-".join(map(str, sorted(ids))) == want:
        seeds = ", ".join(map(str, SEEDS))
        if len(set(answers.values())) == 1:
            return passed(_("Reserve wrote GPUs {gpus} with every seed tried ({seeds}): a pod of whole GPUs takes "
                            "the first fully free GPUs, whatever the policy.").format(gpus=want, seeds=seeds))
        return passed(_("Reserve wrote GPUs {gpus} with every seed tried ({seeds}).").format(gpus=want, seeds=seeds))
    if str(HELD_GPU) in map(str, ids):
        return failed(_("GPU {gpu} has only {milli}m left.").format(gpu=HELD_GPU, milli=1000 - HELD_MILLI),
                      hint=_(_RANDOM_HINT))
    return failed(_("Reserve does not write {answer!r}.").format(answer=gpu_ids), hint=_(_RANDOM_HINT))
