"""Port of pkg/simulator/plugin/plugin_utils.go (kubernetes-scheduler-simulator), and the state the plugins share.

``normalize_score`` stretches a plugin's scores over 0..100 (BestFit needs
it: its raw scores may leave the range); ``sigmoid`` turns FGD's change of
fragmentation into a score. :class:`SharingContext` is what the simulator
hands its plugins beside the framework handle: the GPU ledger, the typical
pods of the workload, and the table of GPU-selection functions that
Open-Gpu-Share looks up by name (``allocateGpuIdFunc``).

Deviations:
- ``allocateGpuIdFunc`` and the random source live on the context, not at
  package level, so two schedulers never share them; the random source is
  a seeded ``random.Random``.
- PreFilterFragGpuRatio (used by no policy of the experiment) is not ported.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Callable, Optional

from ....anchors import FGD_SIMULATOR, plumbing, ports
from ....framework.interface import MAX_NODE_SCORE, MIN_NODE_SCORE, NodeScore, Status
from ..args import GpuPluginArgs
from ..ledger import GpuLedger
from ..resource import NodeResource, NodeResourceFlat, PodResource, TargetPodList
from ..utils import NodeResourceCache, PodResourceMemo

# (node, pod, plugin args, typical pods) -> GPU ids such as "3" or "0-1" ("" when none fits).
AllocateGpuIdFunc = Callable[[NodeResource, PodResource, GpuPluginArgs, TargetPodList], str]


@dataclass
@plumbing("what the simulator hands its plugins beside the framework handle (the ledger, the typical pods, the "
          "GPU-selection table), gathered in one object")
class SharingContext:
    """What the GPU-sharing plugins of one scheduler share."""

    ledger: GpuLedger = field(default_factory=GpuLedger)
    typical_pods: TargetPodList = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    allocate_gpu_id_func: dict[str, AllocateGpuIdFunc] = field(default_factory=dict)
    # Fragmentation of a node state, by NodeResource.flatten (valid for the current typical pods).
    frag_memo: dict[NodeResourceFlat, float] = field(default_factory=dict)
    # Plugin-private memos that depend on the typical pods; cleared with them.
    score_memos: dict[str, dict] = field(default_factory=dict)
    node_resources: NodeResourceCache = field(init=False)
    pod_resources: PodResourceMemo = field(default_factory=PodResourceMemo)

    def __post_init__(self) -> None:
        self.node_resources = NodeResourceCache(self.ledger)

    @plumbing("replaces the typical pods in place, as the plugins see them through the simulator's pointer")
    def set_typical_pods(self, pods: TargetPodList) -> None:
        """Replace the typical pods (in place, as the simulator's pointer sees it) and drop the memos."""
        self.typical_pods[:] = pods
        self.frag_memo.clear()
        for memo in self.score_memos.values():
            memo.clear()

    @plumbing("a memo of scores by node state and pod request")
    def score_memo(self, name: str) -> dict:
        return self.score_memos.setdefault(name, {})


@ports("pkg/simulator/plugin/plugin_utils.go", "NormalizeScore", 47, 73, repo=FGD_SIMULATOR)
def normalize_score(scores: list[NodeScore]) -> Optional[Status]:
    """Map the lowest score to MIN_NODE_SCORE and the highest to MAX_NODE_SCORE (all MIN when equal)."""
    highest = max((s.score for s in scores), default=-(2**63 - 1))
    lowest = min((s.score for s in scores), default=2**63 - 1)
    old_range = highest - lowest
    new_range = MAX_NODE_SCORE - MIN_NODE_SCORE
    for s in scores:
        if old_range == 0:
            s.score = MIN_NODE_SCORE
        else:
            s.score = _go_div((s.score - lowest) * new_range, old_range) + MIN_NODE_SCORE
    return None


@ports("pkg/simulator/plugin/plugin_utils.go", "sigmoid", 75, 77, repo=FGD_SIMULATOR)
def sigmoid(x: float) -> float:
    """1 / (1 + e^-x); 0 where e^-x overflows (Go gives +Inf there)."""
    if -x > 709.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _go_div(a: int, b: int) -> int:
    """Go's integer division, which truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q
