"""The checks of chapters 06-12 speak the course's language.

Under zh_CN every verdict a check prints is Chinese: the message it passes to ``failed()`` or
``passed()``, and the hint. In English (the default) each line is byte for byte the line the
check printed before its messages were marked for translation (:data:`ENGLISH`, recorded then).

The answers come from the checks' wrong-answer tables in tests/exercises/ (test_ch06_10.py,
test_ch08_10.py, test_ch11.py, test_ch12.py): for each check its unanswered row (None), one or
two wrong answers and the right answer.
"""
from __future__ import annotations

import re
from typing import Any, Callable

import pytest

from ksched_edu import exercises
from ksched_edu.exercises import ch06, ch07, ch08, ch10, ch11, ch12
from ksched_edu.exercises.core import FAIL_MARK, PASS_MARK
from ksched_edu.i18n import get_language
from tests.exercises import test_ch06_10, test_ch08_10, test_ch11, test_ch12

CJK = re.compile(r"[\u4e00-\u9fff]")

MODULES = {"ch06": ch06, "ch07": ch07, "ch08": ch08, "ch10": ch10, "ch11": ch11, "ch12": ch12}
# check name -> (its chapter, the ids of its rows in the chapter's wrong-answer table)
ROWS: dict[str, tuple[str, list[str]]] = {
    "check_nodes_used": ("ch06", ["None", "binpacking off by one", "right"]),
    "check_packer_profile": ("ch06", ["None", "MostAllocated, as binpacking", "the strategy type misspelled",
                                      "right"]),
    "check_gpus_held_at_permit": ("ch06", ["None", "within 10% of the quorum", "right"]),
    "check_late_member": ("ch06", ["None", "the flush of section 5.4", "right"]),
    "check_num_candidates": ("ch07", ["None", "the default args", "right"]),
    "check_dropped_by": ("ch07", ["None", "n2 at fewest victims", "right"]),
    "check_make_n2_win": ("ch07", ["None", "off by one: scratch-c as important as scratch-a",
                                   "scratch-c as important as a batch pod"]),
    "check_best_pair": ("ch08", ["None", "NV2 across the sockets", "right"]),
    "check_fast_links_only": ("ch08", ["None", "NVLink lets the DGX-1 in", "a misspelled constraint",
                                       "right: 100 GB/s"]),
    "check_big_job_first": ("ch08", ["None", "the chapter's run, job-7 last and waiting", "right"]),
    "check_frag_amount": ("ch10", ["None", "the node before the pod", "right"]),
    "check_fgd_choice": ("ch10", ["None", "the tightest fit", "right"]),
    "check_whole_gpus_under_random": ("ch10", ["None", "GPU 1 counted as free", "right"]),
    "check_volume_reasons": ("ch12", ["unanswered-none", "n4-fails", "right"]),
    "check_csi_placements": ("ch12", ["unanswered-none", "e-pending", "right"]),
    # the capstone's check runs the whole workload for its right answer: one wrong answer is enough
    "check_gang_gpu": ("ch11", ["None", "filter: Unschedulable where nothing could ever fit", "right"]),
}


def _tables() -> dict[str, dict[str, tuple]]:
    """check name -> {row id: the check's arguments}, from the tables in tests/exercises/."""
    found: dict[str, dict[str, tuple]] = {}
    for table in (test_ch06_10.TABLES, test_ch08_10.TABLES):
        for check, (_, rows) in table.items():
            found[check] = {r.id: r.args for r in rows}
    found["check_gang_gpu"] = {r.id: (r.answer,) for r in test_ch11.ROWS}
    found["check_volume_reasons"] = {case[0]: (case[1],) for case in test_ch12.REASON_CASES}
    found["check_csi_placements"] = {case[0]: (case[1],) for case in test_ch12.PLACEMENT_CASES}
    return found


TABLES = _tables()

# What each row printed in English before the checks' messages were marked for translation.
ENGLISH: dict[tuple[str, str], str] = {
    ('check_nodes_used', 'None'):
        "✘ no prediction yet. Hint: write {'default-scheduler': N, 'binpacking': M}.",
    ('check_nodes_used', 'binpacking off by one'):
        '✘ binpacking: you said 2. Hint: MostAllocated scores the fullest node highest (mostRequestedScore, '
        'noderesources/most_allocated.go L54-65 in v1.30.4), so each pod joins the others until the node has '
        'no room for 1500m more.',
    ('check_nodes_used', 'right'):
        '✔ with 1500m pods, default-scheduler spreads the six over 4 nodes; binpacking fills 3, two pods '
        'each.',
    ('check_packer_profile', 'None'):
        '✘ no configuration yet. Hint: write the KubeSchedulerConfiguration as a YAML string.',
    ('check_packer_profile', 'MostAllocated, as binpacking'):
        "✘ the packer profile packs with MostAllocated, as binpacking does. Hint: use NodeResourcesFit's "
        'third strategy, RequestedToCapacityRatio, and give it a shape.',
    ('check_packer_profile', 'the strategy type misspelled'):
        '✘ the profiles cannot be built: initializing profiles: creating profile for scheduler name packer: '
        'initializing plugin "NodeResourcesFit": scoringStrategy.type: Unsupported value: '
        '"RequestedToCapacityRation": supported values: "LeastAllocated", "MostAllocated", '
        '"RequestedToCapacityRatio" Hint: unknown scoring strategy type \'RequestedToCapacityRation\', did you '
        "mean 'RequestedToCapacityRatio'?",
    ('check_packer_profile', 'right'):
        '✔ the packer profile puts all six pods on n4 with RequestedToCapacityRatio; default-scheduler uses '
        '4 nodes.',
    ('check_gpus_held_at_permit', 'None'):
        "✘ no prediction yet. Hint: write {'coscheduling-permit-only.yaml': N, 'coscheduling.yaml': M}.",
    ('check_gpus_held_at_permit', 'within 10% of the quorum'):
        "✘ coscheduling.yaml: you said 6. Hint: read Coscheduling's PostFilter (coscheduling.go L161-184 at "
        '37b7888a): it leaves the waiting members alone when minMember members already hold a node, or when '
        'the missing share (minMember - assigned) / minMember is at most 10%; otherwise it rejects every '
        'waiting member. Work that share out for minMember 7.',
    ('check_gpus_held_at_permit', 'right'):
        '✔ with minMember 7, at t=10 s the waiting members hold 6 GPUs with Permit alone and 0 with '
        'PostFilter: 1 missing of 7 is more than 10%.',
    ('check_late_member', 'None'):
        '✘ no answer yet. Hint: write a number of seconds, like 42.',
    ('check_late_member', 'the flush of section 5.4'):
        '✘ you said t=330 s. Hint: the 5-minute flush is not needed here: read what Permit does for the '
        'first member that waits (core.go L230-240, then coscheduling.go L222-223 and ActivateSiblings, '
        'core.go L115-155) and what that does to the seven refused members.',
    ('check_late_member', 'right'):
        "✔ all eight bound at t=90 s: train-7's Permit found no member of its group with a node, so it asked "
        'for the seven refused members to be moved to activeQ, and each of them then fit.',
    ('check_num_candidates', 'None'):
        '✘ no prediction yet. Hint: write a dict {number of nodes: number of candidates}.',
    ('check_num_candidates', 'the default args'):
        "✘ for 100 nodes you said 100. Hint: that is the default args' answer; here the args are 25% and at "
        'least 40 (calculateNumCandidates, plugins/defaultpreemption/default_preemption.go L111-120).',
    ('check_num_candidates', 'right'):
        '✔ with 25% and at least 40, the dry run looks for 30 nodes -> 30, 100 nodes -> 40, 1000 nodes -> '
        '250 candidate(s).',
    ('check_dropped_by', 'None'):
        "✘ no prediction yet. Hint: write a dict {node: rule}, e.g. {'n1': CRITERION_...}.",
    ('check_dropped_by', 'n2 at fewest victims'):
        "✘ n2 was not dropped by 'fewest victims'. Hint: the rules run in order; a node leaves at the first "
        'rule where it is not best (pickOneNodeForPreemption, preemption/preemption.go L454-540). Use the '
        'CRITERION_* names from ksched_edu.framework.preemption.',
    ('check_dropped_by', 'right'):
        "✔ n1 out at 'lowest highest-priority victim'; n2 out at 'lowest sum of victim priorities'; n4 out "
        "at 'lowest highest-priority victim'; n3 wins (lowest sum of victim priorities). n1's victim is now "
        'db-0.',
    ('check_make_n2_win', 'None'):
        '✘ no function yet. Hint: define `make_n2_win(cluster)` that edits the running pods.',
    ('check_make_n2_win', 'off by one: scratch-c as important as scratch-a'):
        '✘ preemption still nominates n3 (lowest sum of victim priorities). Hint: the rules of '
        'pickOneNodeForPreemption, preemption/preemption.go L454-540 run in order, and the one named above '
        "decided: n2 must beat the winner there or at an earlier rule. Which victims' priorities does each "
        'rule compare? (Set spec.priority: the PriorityClass names were turned into numbers when the file '
        'was loaded.)',
    ('check_make_n2_win', 'scratch-c as important as a batch pod'):
        '✔ preemption nominates n2 (lowest highest-priority victim), evicts default/scratch-a, '
        'default/scratch-b, and default/critical runs on n2.',
    ('check_best_pair', 'None'):
        '✘ no answer yet. Hint: set `answer` to a pair of GPU ids, e.g. (0, 1).',
    ('check_best_pair', 'NV2 across the sockets'):
        '✘ GPU1-GPU5 is NV2 too, but it spans 2 NUMA nodes. Hint: between pairs with the same links, the '
        'search prefers fewer NUMA nodes (`Choice.key` in ksched_edu/gpu/search.py; the CPU Affinity column '
        'of the matrix).',
    ('check_best_pair', 'right'):
        '✔ GPUTopology reserved GPUs 4 and 7: NV2 (two NVLinks, 50 GB/s) on one NUMA node, the lowest such '
        'pair among the free GPUs.',
    ('check_fast_links_only', 'None'):
        '✘ no annotations yet. Hint: set `annotations` to a dict such as {"gpu.ksched-edu.io/constraint": '
        '"nvlink"}.',
    ('check_fast_links_only', 'NVLink lets the DGX-1 in'):
        "✘ dgx1-a also pass(es) the Filter. Hint: GPUTopology's Filter (`GPUTopology.filter` in "
        'ksched_edu/gpu/plugins/gpu_topology.py) asks the subset search for a free set whose every pair '
        "meets the annotations: NVLink between every pair is something the DGX-1's quads have too. What sets "
        "the NVSwitch nodes apart? Compare their slowest links in section 4's table with the DGX-1's.",
    ('check_fast_links_only', 'a misspelled constraint'):
        '✘ GPUTopology refused the pod at PreFilter: invalid annotation gpu.ksched-edu.io/constraint: '
        'unknown constraint "nvlnk" (want nvlink, same-numa, same-pcie-switch) Hint: unknown constraint '
        '"nvlnk": did you mean nvlink? the keys are gpu.ksched-edu.io/constraint and '
        'gpu.ksched-edu.io/min-bandwidth.',
    ('check_fast_links_only', 'right: 100 GB/s'):
        "✔ only a100-a, h100-a, h200-a pass GPUTopology's Filter; the others say: GPU topology mismatch: no "
        '4 GPUs with at least 100 GB/s between every pair on this node',
    ('check_big_job_first', 'None'):
        '✘ no prediction yet. Hint: set `free` to a list of three whole numbers, one per node, e.g. [8, 2, '
        '0].',
    ('check_big_job_first', "the chapter's run, job-7 last and waiting"):
        "✘ [4, 4, 4] is the chapter's run, where job-7 arrives last and waits. Hint: now job-7 comes first: "
        'job-7 takes a whole idle node; then replay the six small jobs in their order, each on the node '
        "whose GPUs are the least used after it (GPUTopology's Spread score, `GPUTopology._score` in "
        'ksched_edu/gpu/plugins/gpu_topology.py, section 6).',
    ('check_big_job_first', 'right'):
        '✔ the nodes end with [3, 1, 0] GPUs free: job-7 took a whole node, and the six small jobs (12 GPUs) '
        'fit on the other two, so no job waits.',
    ('check_frag_amount', 'None'):
        '✘ no answer yet. Hint: set `frag_amount = <a number of milli GPU>`.',
    ('check_frag_amount', 'the node before the pod'):
        '✘ 850 is the node before the pod. Hint: the pod took GPU 1 and 2 CPUs: work the measure again on '
        "what is left (the simulator's pkg/utils/frag.go, NodeGpuShareFragAmount (L147-167) and "
        'GetNodePodFrag (L556-582)).',
    ('check_frag_amount', 'right'):
        "✔ 650 milli GPU of the node's 1700 idle milli GPU are fragments for this workload (it was 850 "
        'before the pod).',
    ('check_fgd_choice', 'None'):
        '✘ no answer yet. Hint: set `gpu = "0"` or `gpu = "1"`.',
    ('check_fgd_choice', 'the tightest fit'):
        "✘ FGD does not pick GPU '0'. Hint: FGD scores each GPU by the node's fragmentation once the pod "
        "sits on it (section 4; the simulator's pkg/simulator/plugin/fgd_score.go, "
        'calculateGpuShareFragExtendScore, L62-85): work out that fragmentation for each GPU against the '
        "workload's one typical pod.",
    ('check_fgd_choice', 'right'):
        '✔ FGD puts it on GPU 1 (score 50): the 600m GPU keeps room for a 500m pod.',
    ('check_whole_gpus_under_random', 'None'):
        '✘ no prediction yet. Hint: set `gpu_ids` to the ledger\'s string, ids joined by "-", like "1-3".',
    ('check_whole_gpus_under_random', 'GPU 1 counted as free'):
        '✘ GPU 1 has only 400m left. Hint: read what Reserve calls under the Random policy: '
        '`allocate_gpu_id_based_on_random_fit` in ksched_edu/gpu/sharing/plugins/open_gpu_share.py (the '
        "simulator's pkg/simulator/plugin/open_gpu_share.go, allocateGpuIdBasedOnRandomFit, L308-326), and "
        'what it does when the pod asks for 1000m per GPU (pkg/type/resource.go, AllocateExclusiveGpuId, '
        'L348-368).',
    ('check_whole_gpus_under_random', 'right'):
        '✔ Reserve wrote GPUs 0-2 with every seed tried (1, 2, 3): a pod of whole GPUs takes the first fully '
        'free GPUs, whatever the policy.',
    ('check_volume_reasons', 'unanswered-none'):
        "✘ no prediction yet. Hint: set predicted = {'n1': [...], 'n2': [...], 'n3': [...], 'n4': [...]}.",
    ('check_volume_reasons', 'n4-fails'):
        '✘ 1 node(s) predicted wrong; among them n4: VolumeBinding\'s reasons there are not ["node(s) didn\'t '
        'find available persistent volumes to bind"]. Hint: for each node, list the reasons VolumeBinding\'s '
        'Filter gives ([] when it passes), as FindPodVolumes computes them (volumebinding/binder.go '
        "L278-382): bound claims' volumes must admit the node (node affinity, checkBoundClaims L865-897); "
        'each WaitForFirstConsumer claim needs a matching static volume reachable from the node '
        '(findMatchingVolumes L901-937), or a class whose provisioner and allowedTopologies admit it '
        '(checkVolumeProvisions L942-986)',
    ('check_volume_reasons', 'right'):
        '✔ all four verdicts right: VolumeBinding lets n3 and n4 through.',
    ('check_csi_placements', 'unanswered-none'):
        "✘ no prediction yet. Hint: set predicted = {'default/a': 'n1' or 'n2' or None, ...}.",
    ('check_csi_placements', 'e-pending'):
        "✘ 1 of 5 pods predicted wrong (e.g. default/e). Hint: NodeVolumeLimits' Filter "
        '(nodevolumelimits/csi.go L109-179) counts the distinct CSI volumes already on the node plus the '
        "pod's new ones (a volume the node already has is not counted twice, L153-158) against the CSINode's "
        'allocatable count; pods are scheduled in order a, b, c, d, e, and a refused pod stays pending (None)',
    ('check_csi_placements', 'right'):
        '✔ all five right: default/b, default/c stay pending; the others bind.',
    ('check_gang_gpu', 'None'):
        '✘ no plugin factory yet. Hint: define `def new_gang_gpu(args, handle): return '
        'GangGPU(GPUTopologyArgs(), handle)`.',
    ('check_gang_gpu', 'filter: Unschedulable where nothing could ever fit'):
        '✘ Filter answered pcie-a for a 4-GPU NVLink member with Code.Unschedulable, not '
        'Code.UnschedulableAndUnresolvable. Hint: pcie-a has no NVLink set of 4 even when idle; no wait and '
        'no preemption can change that, so reject it with Code.UnschedulableAndUnresolvable '
        '(framework/interface.go L87-107; preemption tries only Unschedulable nodes, '
        'framework/preemption/preemption.go L415-432 (nodesWherePreemptionMightHelp)).',
    ('check_gang_gpu', 'right'):
        '✔ GangGPU: 6 gangs placed whole on NVLink sets, waiting 176 s in all against 630 s; 5.0 stranded '
        'GPUs on average against 17.7; 2 preemption(s) against 0.',
}


def _verdict(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, check: str,
             args: tuple) -> tuple[bool, str, list[tuple[str, ...]]]:
    """Run ``check``; return what it returned, the line it printed and what it passed to failed()/passed()."""
    module = MODULES[ROWS[check][0]]
    said: list[tuple[str, ...]] = []

    def record(verdict: Callable[..., bool]) -> Callable[..., bool]:
        def recorded(msg: str, *rest: Any, **kw: Any) -> bool:
            said.append((msg, *rest, *kw.values()))
            return verdict(msg, *rest, **kw)
        return recorded

    monkeypatch.setattr(module, "failed", record(module.failed))
    monkeypatch.setattr(module, "passed", record(module.passed))
    capsys.readouterr()
    result = getattr(exercises, check)(*args)
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith(PASS_MARK if result else FAIL_MARK), out
    assert len(said) == 1, said
    return result, out[:-1], said


def _params() -> list[Any]:
    return [pytest.param(check, marks=getattr(pytest.mark, chapter)) for check, (chapter, _) in ROWS.items()]


def test_every_check_of_chapters_06_to_12_is_here_with_its_unanswered_row() -> None:
    checks = {name for module in MODULES.values() for name in dir(module) if name.startswith("check_")}
    assert checks == set(ROWS)
    for check, (_, ids) in ROWS.items():
        assert TABLES[check][ids[0]] == (None,), check
        assert set(ids) <= set(TABLES[check]), check


@pytest.mark.parametrize("check", _params())
def test_the_verdicts_are_chinese_under_zh_cn(check: str, zh: None, capsys: pytest.CaptureFixture,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    assert get_language() == "zh_CN"
    for row in ROWS[check][1]:
        result, line, said = _verdict(capsys, monkeypatch, check, TABLES[check][row])
        assert line != ENGLISH[check, row], (row, line)
        assert result is ENGLISH[check, row].startswith(PASS_MARK), (row, line)
        message = said[0][0]
        assert CJK.search(message) and message in line, (row, line)
        if not result:
            hint = said[0][1]
            assert CJK.search(hint) and line.endswith(hint), (row, line)
            assert " Hint: " not in line, (row, line)


@pytest.mark.parametrize("check", _params())
def test_the_verdicts_are_unchanged_in_english(check: str, en: None, capsys: pytest.CaptureFixture,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    assert get_language() == "en"
    for row in ROWS[check][1]:
        _, line, _ = _verdict(capsys, monkeypatch, check, TABLES[check][row])
        assert line == ENGLISH[check, row], row
