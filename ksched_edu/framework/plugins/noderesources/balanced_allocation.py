"""Port of pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go (v1.30).

NodeResourcesBalancedAllocation favours nodes whose resources would be used in
equal shares after placing the pod: the score is ``(1 - std) * 100`` where
``std`` is the standard deviation of the requested/allocatable fractions of
the configured resources (default cpu and memory, using the real requests).

Deviations:
- The embedded resourceAllocationScorer is a field (``resource_allocation_scorer``)
  rather than an embedded struct.
"""
from __future__ import annotations

import math
from typing import Any, Optional

from ....anchors import ports
from ....api.types import Pod
from ....config.field import to_aggregate
from ....config.validation_pluginargs import validate_node_resources_balanced_allocation_args
from ...cycle_state import CycleState
from ...interface import MAX_NODE_SCORE, Status
from ...types import NodeInfo
from ..names import NODE_RESOURCES_BALANCED_ALLOCATION
from .resource_allocation import ResourceAllocationScorer

BALANCED_ALLOCATION_NAME = NODE_RESOURCES_BALANCED_ALLOCATION
NAME = BALANCED_ALLOCATION_NAME

# Extension points: PreScore, Score.

BALANCED_ALLOCATION_PRE_SCORE_STATE_KEY = "PreScore" + BALANCED_ALLOCATION_NAME


@ports("pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go", "balancedAllocationPreScoreState", 52, 56)
class BalancedAllocationPreScoreState:
    """The pod's request for each configured resource, in config order."""

    def __init__(self, pod_requests: list[int]) -> None:
        self.pod_requests = pod_requests

    @ports("pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go", "(*balancedAllocationPreScoreState).Clone", 60, 62)
    def clone(self) -> "BalancedAllocationPreScoreState":
        # upstream: not copied, nothing mutates it.
        return self


@ports("pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go", "BalancedAllocation", 35, 38)
class BalancedAllocation:
    def __init__(self, handle: Any, resource_allocation_scorer: ResourceAllocationScorer) -> None:
        self.handle = handle
        self.resource_allocation_scorer = resource_allocation_scorer

    @ports("pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go", "(*BalancedAllocation).Name", 87, 89)
    def name(self) -> str:
        return BALANCED_ALLOCATION_NAME

    @ports("pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go", "(*BalancedAllocation).PreScore", 65, 71)
    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Optional[Status]:
        """Compute the pod's requests once for every node's Score (never Skips in v1.30)."""
        ras = self.resource_allocation_scorer
        state.write(BALANCED_ALLOCATION_PRE_SCORE_STATE_KEY,
                    BalancedAllocationPreScoreState(ras.calculate_pod_resource_request_list(pod, ras.resources)))
        return None

    @ports("pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go", "(*BalancedAllocation).Score", 92, 109)
    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        try:
            node_info = self.handle.snapshot_shared_lister().node_infos().get(node_name)
        except Exception as err:  # upstream: Get returns an error
            return 0, Status.as_status(f'getting node "{node_name}" from Snapshot: {err}')

        ras = self.resource_allocation_scorer
        s, err = get_balanced_allocation_pre_score_state(state)
        if err is not None:
            s = BalancedAllocationPreScoreState(ras.calculate_pod_resource_request_list(pod, ras.resources))
        return ras.score(pod, node_info, s.pod_requests)

    @ports("pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go", "(*BalancedAllocation).ScoreExtensions", 112, 114)
    def score_extensions(self) -> None:
        return None


@ports("pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go", "getBalancedAllocationPreScoreState", 73, 84)
def get_balanced_allocation_pre_score_state(
        state: CycleState) -> tuple[Optional[BalancedAllocationPreScoreState], Optional[str]]:
    try:
        c = state.read(BALANCED_ALLOCATION_PRE_SCORE_STATE_KEY)
    except KeyError as err:
        return None, f'reading "{BALANCED_ALLOCATION_PRE_SCORE_STATE_KEY}" from cycleState: {err}'
    if not isinstance(c, BalancedAllocationPreScoreState):
        return None, f"invalid PreScore state, got type {type(c).__name__}"
    return c, None


@ports("pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go", "NewBalancedAllocation", 117, 136)
def new(args: Any, handle: Any, fts: Any = None) -> BalancedAllocation:
    """Upstream NewBalancedAllocation: validate the args, then build the plugin."""
    errs = validate_node_resources_balanced_allocation_args(None, args)
    if errs:
        raise ValueError(str(to_aggregate(errs)))

    return BalancedAllocation(handle, ResourceAllocationScorer(
        name=BALANCED_ALLOCATION_NAME,
        scorer=balanced_resource_scorer,
        use_requested=True,
        resources=list(args.resources),
    ))


# float64(framework.MaxNodeScore), converted once.
_MAX_NODE_SCORE_FLOAT = float(MAX_NODE_SCORE)


@ports("pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go", "balancedResourceScorer", 138, 173)
def balanced_resource_scorer(requested: list[int], allocatable: list[int]) -> int:
    """``(1 - std) * MAX_NODE_SCORE`` over the resources the node has."""
    resource_to_fractions: list[float] = []
    total_fraction = 0.0
    for req, alloc in zip(requested, allocatable):
        if alloc == 0:
            continue
        fraction = float(req) / float(alloc)
        if fraction > 1:
            fraction = 1.0
        total_fraction += fraction
        resource_to_fractions.append(fraction)

    std = 0.0
    # Two resources (the usual cpu + memory): std is half the difference.
    if len(resource_to_fractions) == 2:
        std = abs((resource_to_fractions[0] - resource_to_fractions[1]) / 2)
    elif len(resource_to_fractions) > 2:
        mean = total_fraction / len(resource_to_fractions)
        total = 0.0
        for fraction in resource_to_fractions:
            total = total + (fraction - mean) * (fraction - mean)
        std = math.sqrt(total / len(resource_to_fractions))

    # int() truncates toward zero, as Go's int64 conversion does.
    return int((1 - std) * _MAX_NODE_SCORE_FLOAT)
