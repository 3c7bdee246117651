"""Checks for chapter 10 (GPU sharing and fragmentation: FGD and its baselines).

``check_frag_amount`` compares a number worked by hand with the library's
fragmentation measure of the chapter's example node once a one-GPU pod took
its GPU 1; ``check_fgd_choice`` compares a predicted GPU with the one FGD
picks; ``check_gpu_selection`` runs a learner's best-fit GPU selection on a
table of nodes and compares it with Open-Gpu-Share's own.
"""
from __future__ import annotations

from typing import Any

from ksched_edu.exercises import core
from ksched_edu.exercises.core import call_answer, describe_exception, failed, is_unanswered, passed


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

    after, _ = _example_node().sub(PodResource(2000, 1000, 1))
    return after


def check_frag_amount(amount: Any) -> bool:
    """Is ``amount`` the fragmentation (milli GPU) of the example node, once a one-GPU pod took GPU 1,
    under the example workload?"""
    from ksched_edu.gpu.sharing.frag import get_gpu_milli_left_total, node_gpu_share_frag_amount

    if is_unanswered(amount):
        return failed("no answer yet.", hint="set `frag_amount = <a number of milli GPU>`.")
    if not isinstance(amount, (int, float)) or isinstance(amount, bool):
        return failed(f"{amount!r} is not a number.", hint="the measure is a number of milli GPU, like 1234.5.")
    node = _example_node_after_one_gpu_pod()
    want = node_gpu_share_frag_amount(node, _example_workload()).frag_amount_sum_except_q3()
    idle = get_gpu_milli_left_total(node)
    before = node_gpu_share_frag_amount(_example_node(), _example_workload()).frag_amount_sum_except_q3()
    if abs(amount - want) < 0.5:
        return passed(f"{want:g} milli GPU of the node's {idle} idle milli GPU are fragments for this workload "
                      f"(it was {before:g} before the pod).")
    if abs(amount - before) < 0.5:
        return failed(f"{before:g} is the node before the pod.",
                      hint=f"the pod took a whole GPU: the node has {idle} idle milli GPU now, not 2700.")
    if abs(amount - idle) < 0.5:
        return failed(f"{idle} is all the idle GPU.",
                      hint="a pod that fits counts only the GPUs too small for it, not the whole node.")
    return failed(f"{amount:g} is not it.",
                  hint="for each typical pod: frequency x (GPUs with less left than it asks, if it fits; "
                       "else all idle GPU). A CPU-only pod can never use a GPU.")


def check_fgd_choice(gpu_id: Any) -> bool:
    """Is ``gpu_id`` the GPU FGD gives a 300m pod on a node with GPUs [600m, 1000m] left?"""
    from ksched_edu.gpu.sharing.plugins.fgd_score import calculate_gpu_share_frag_extend_score
    from ksched_edu.gpu.sharing.resource import NodeResource, PodResource, TargetPod

    if is_unanswered(gpu_id):
        return failed("no answer yet.", hint='set `gpu = "0"` or `gpu = "1"`.')
    node = NodeResource("n", 32000, 32000, [600, 1000], 2, "T4")
    workload = [TargetPod(PodResource(4000, 500, 1), 1.0)]
    score, want = calculate_gpu_share_frag_extend_score(node, PodResource(1000, 300, 1), workload)
    if str(gpu_id) == want:
        return passed(f"FGD puts it on GPU {want} (score {score}): the 600m GPU keeps room for a 500m pod.")
    return failed(f"FGD does not pick GPU {gpu_id!r}.",
                  hint="compare the fragmentation after each choice: which GPU would be left with less than "
                       "the 500m every typical pod asks for?")


def check_gpu_selection(select: Any, seconds: Any = None) -> bool:
    """Does ``select(gpus_left, milli)`` pick the tightest GPU that fits (first on a tie, "" when none)?"""
    from ksched_edu.gpu.sharing.args import GpuPluginArgs
    from ksched_edu.gpu.sharing.plugins.open_gpu_share import allocate_gpu_id_based_on_best_fit
    from ksched_edu.gpu.sharing.resource import NodeResource, PodResource

    if is_unanswered(select) or not callable(select):
        return failed("no function yet.", hint="define `def best_fit_gpu(gpus_left, milli): ...`.")
    cases = [([1000, 600, 300, 1000], 250), ([1000, 600, 300, 1000], 400), ([500, 500], 500), ([200, 300], 400),
             ([1000, 1000], 1000)]
    for left, milli in cases:
        want = allocate_gpu_id_based_on_best_fit(NodeResource("n", 0, 0, list(left), len(left)),
                                                 PodResource(0, milli, 1), GpuPluginArgs(), [])
        ok, got = call_answer(select, list(left), milli, seconds=_limit(seconds))
        if not ok and isinstance(got, NotImplementedError):
            return failed("the function is not written yet.", hint="return the GPU index as a string, like \"2\".")
        if not ok:
            return failed(f"best_fit_gpu({left}, {milli}): {describe_exception(got)}",
                          hint="loop over enumerate(gpus_left) and keep the index with the least room that fits.")
        if str(got) != want:
            return failed(f"best_fit_gpu({left}, {milli}) returned {got!r}; Open-Gpu-Share picks {want!r}.",
                          hint="the GPU with the least milli left that is still >= milli; the first one on a "
                               "tie; \"\" when no GPU has room.")
    return passed("your GPU selection agrees with Open-Gpu-Share's best fit on every node.")
