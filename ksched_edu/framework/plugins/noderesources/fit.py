"""Port of pkg/scheduler/framework/plugins/noderesources/fit.go (v1.30).

NodeResourcesFit keeps a pod off nodes that lack room for its requests (cpu,
memory, ephemeral storage, extended resources, and one more pod), and scores
the remaining nodes with the configured strategy: LeastAllocated (default),
MostAllocated or RequestedToCapacityRatio.

PreFilter computes the pod's effective request once: the sum over containers
and restartable (sidecar) init containers, the max with each ordinary init
container, plus the pod overhead. Filter compares it with what is left on the
node, reason by reason.

Deviations:
- The embedded resourceAllocationScorer is a field (``resource_allocation_scorer``).
- Queueing hints return only the hint; a wrong object type is not checked.
- ``fts`` (upstream feature.Features) is any object with
  ``enable_in_place_pod_vertical_scaling`` / ``enable_sidecar_containers``;
  None means the v1.30 defaults (off / on).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ....anchors import ports
from ....api.resource import pod_requests
from ....api.types import RESOURCE_CPU, RESOURCE_EPHEMERAL_STORAGE, RESOURCE_MEMORY, RESOURCE_PODS, Node, Pod
from ....config.field import to_aggregate
from ....config.types_pluginargs import LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO
from ....config.validation_pluginargs import validate_node_resources_fit_args
from ...cycle_state import CycleState
from ...interface import Code, PreFilterResult, Status, new_status
from ...types import (NODE, POD, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo, QueueingHint, Resource,
                      is_scalar_resource_name)
from ..names import NODE_RESOURCES_FIT
from .least_allocated import least_resource_scorer
from .most_allocated import most_resource_scorer
from .requested_to_capacity_ratio import requested_to_capacity_ratio_scorer
from .resource_allocation import ResourceAllocationScorer

NAME = NODE_RESOURCES_FIT

# Extension points: PreFilter, Filter, EnqueueExtensions, PreScore, Score.

ERR_REASON_SIDECARS_DISABLED = ("Pod has a restartable init container and the SidecarContainers "
                                "feature is disabled")
ERR_REASON_TOO_MANY_PODS = "Too many pods"
ERR_REASON_INSUFFICIENT_CPU = "Insufficient cpu"
ERR_REASON_INSUFFICIENT_MEMORY = "Insufficient memory"
ERR_REASON_INSUFFICIENT_EPHEMERAL_STORAGE = "Insufficient ephemeral-storage"
# Any other resource: "Insufficient <resource name>".

PRE_FILTER_STATE_KEY = "PreFilter" + NAME
PRE_SCORE_STATE_KEY = "PreScore" + NAME


def _least_allocated(args: Any) -> ResourceAllocationScorer:
    resources = list(args.scoring_strategy.resources or [])
    return ResourceAllocationScorer(name=LEAST_ALLOCATED, scorer=least_resource_scorer(resources),
                                    resources=resources)


def _most_allocated(args: Any) -> ResourceAllocationScorer:
    resources = list(args.scoring_strategy.resources or [])
    return ResourceAllocationScorer(name=MOST_ALLOCATED, scorer=most_resource_scorer(resources),
                                    resources=resources)


def _requested_to_capacity_ratio(args: Any) -> ResourceAllocationScorer:
    resources = list(args.scoring_strategy.resources or [])
    shape = args.scoring_strategy.requested_to_capacity_ratio.shape
    return ResourceAllocationScorer(name=REQUESTED_TO_CAPACITY_RATIO,
                                    scorer=requested_to_capacity_ratio_scorer(resources, shape),
                                    resources=resources)


# Upstream nodeResourceStrategyTypeMap: strategy type -> scorer builder.
NODE_RESOURCE_STRATEGY_TYPE_MAP: dict[str, Callable[[Any], ResourceAllocationScorer]] = {
    LEAST_ALLOCATED: _least_allocated,
    MOST_ALLOCATED: _most_allocated,
    REQUESTED_TO_CAPACITY_RATIO: _requested_to_capacity_ratio,
}


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "preFilterState", 101, 103)
class PreFilterState(Resource):
    """The pod's effective request, computed at PreFilter and read by Filter."""

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*preFilterState).Clone", 106, 108)
    def clone(self) -> "PreFilterState":  # type: ignore[override]
        # upstream: Clone returns the same object; nothing mutates it.
        return self


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "preScoreState", 111, 115)
class PreScoreState:
    """The pod's request for each configured scoring resource, in config order."""

    def __init__(self, pod_requests_list: list[int]) -> None:
        self.pod_requests = pod_requests_list

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*preScoreState).Clone", 119, 121)
    def clone(self) -> "PreScoreState":
        return self


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "InsufficientResource", 406, 414)
@dataclass
class InsufficientResource:
    """Which resource is short on a node, and by how much (upstream InsufficientResource)."""

    resource_name: str
    reason: str
    requested: int
    used: int
    capacity: int


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "Fit", 86, 93)
class Fit:
    def __init__(self, ignored_resources: set[str], ignored_resource_groups: set[str],
                 enable_in_place_pod_vertical_scaling: bool, enable_sidecar_containers: bool,
                 handle: Any, resource_allocation_scorer: ResourceAllocationScorer) -> None:
        self.ignored_resources = ignored_resources
        self.ignored_resource_groups = ignored_resource_groups
        self.enable_in_place_pod_vertical_scaling = enable_in_place_pod_vertical_scaling
        self.enable_sidecar_containers = enable_sidecar_containers
        self.handle = handle
        self.resource_allocation_scorer = resource_allocation_scorer

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*Fit).Name", 146, 148)
    def name(self) -> str:
        return NAME

    # --- PreFilter / Filter ---------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*Fit).PreFilter", 216, 227)
    def pre_filter(self, state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        if not self.enable_sidecar_containers and has_restartable_init_container(pod):
            # Older kubelets would compute a different request; refuse rather than overbook.
            return None, new_status(Code.UnschedulableAndUnresolvable, ERR_REASON_SIDECARS_DISABLED)
        state.write(PRE_FILTER_STATE_KEY, compute_pod_resource_request(pod))
        return None, None

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*Fit).PreFilterExtensions", 230, 232)
    def pre_filter_extensions(self) -> None:
        return None

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*Fit).Filter", 377, 394)
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        s, err = get_pre_filter_state(state)
        if err is not None:
            return Status.as_status(err)

        insufficient = fits_request(s, node_info, self.ignored_resources, self.ignored_resource_groups)
        if insufficient:
            # Every shortage is reported, not only the first.
            return new_status(Code.Unschedulable, *[r.reason for r in insufficient])
        return None

    # --- EnqueueExtensions ----------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*Fit).EventsToRegister", 250, 261)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        pod_action_type = ActionType.Delete
        if self.enable_in_place_pod_vertical_scaling:
            # A resized running pod may free room.
            pod_action_type |= ActionType.Update
        return [
            ClusterEventWithHint(ClusterEvent(POD, pod_action_type), self.is_schedulable_after_pod_change),
            ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.Update),
                                 self.is_schedulable_after_node_change),
        ]

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*Fit).isSchedulableAfterPodChange", 265, 301)
    def is_schedulable_after_pod_change(self, pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
        """A pod was deleted or updated: could that free room for ``pod``?"""
        original_pod, modified_pod = old_obj, new_obj
        if modified_pod is None:
            # Deleted: only a pod that was bound to a node frees anything.
            if not original_pod.spec.node_name:
                return QueueingHint.QueueSkip
            return QueueingHint.Queue

        if not self.enable_in_place_pod_vertical_scaling:
            # Without in-place resize an update cannot change a pod's requests.
            return QueueingHint.QueueSkip

        if not self.is_resource_scale_down(pod, original_pod, modified_pod):
            return QueueingHint.QueueSkip
        return QueueingHint.Queue

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*Fit).isResourceScaleDown", 305, 343)
    def is_resource_scale_down(self, target_pod: Pod, original_other_pod: Pod, modified_other_pod: Pod) -> bool:
        """Did the other pod's request shrink for a resource ``target_pod`` asks for?"""
        if not modified_other_pod.spec.node_name:
            # An unscheduled pod holds nothing, however it changes.
            return False

        original_max, modified_max = Resource(), Resource()
        # upstream: PodRequests with InPlacePodVerticalScalingEnabled; status resources are not modelled.
        original_max.set_max_resource(pod_requests(original_other_pod))
        modified_max.set_max_resource(pod_requests(modified_other_pod))

        for r_name, r_value in pod_requests(target_pod).items():
            if r_value.is_zero():
                continue
            if r_name == RESOURCE_CPU:
                if original_max.milli_cpu > modified_max.milli_cpu:
                    return True
            elif r_name == RESOURCE_MEMORY:
                if original_max.memory > modified_max.memory:
                    return True
            elif r_name == RESOURCE_EPHEMERAL_STORAGE:
                if original_max.ephemeral_storage > modified_max.ephemeral_storage:
                    return True
            elif is_scalar_resource_name(r_name) and (original_max.scalar_resources.get(r_name, 0)
                                                      > modified_max.scalar_resources.get(r_name, 0)):
                return True
        return False

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*Fit).isSchedulableAfterNodeChange", 347, 361)
    def is_schedulable_after_node_change(self, pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
        """A node was added or updated: does the pod now fit on it?"""
        modified_node = new_obj
        if is_fit(pod, modified_node):
            return QueueingHint.Queue
        return QueueingHint.QueueSkip

    # --- PreScore / Score -----------------------------------------------------------

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*Fit).PreScore", 124, 130)
    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Optional[Status]:
        """Compute the pod's requests once for every node's Score (never Skips in v1.30)."""
        ras = self.resource_allocation_scorer
        state.write(PRE_SCORE_STATE_KEY, PreScoreState(ras.calculate_pod_resource_request_list(pod, ras.resources)))
        return None

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*Fit).Score", 504, 518)
    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        try:
            node_info = self.handle.snapshot_shared_lister().node_infos().get(node_name)
        except Exception as err:  # upstream: Get returns an error
            return 0, Status.as_status(f'getting node "{node_name}" from Snapshot: {err}')

        ras = self.resource_allocation_scorer
        s, err = get_pre_score_state(state)
        if err is not None:
            s = PreScoreState(ras.calculate_pod_resource_request_list(pod, ras.resources))
        return ras.score(pod, node_info, s.pod_requests)

    @ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "(*Fit).ScoreExtensions", 96, 98)
    def score_extensions(self) -> None:
        return None


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "getPreFilterState", 234, 246)
def get_pre_filter_state(state: CycleState) -> tuple[Optional[PreFilterState], Optional[str]]:
    try:
        c = state.read(PRE_FILTER_STATE_KEY)
    except KeyError as err:
        # PreFilter did not run.
        return None, f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState: {err}'
    if not isinstance(c, PreFilterState):
        return None, f"{c!r}  convert to NodeResourcesFit.preFilterState error"
    return c, None


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "getPreScoreState", 132, 143)
def get_pre_score_state(state: CycleState) -> tuple[Optional[PreScoreState], Optional[str]]:
    try:
        c = state.read(PRE_SCORE_STATE_KEY)
    except KeyError as err:
        return None, f'reading "{PRE_SCORE_STATE_KEY}" from cycleState: {err}'
    if not isinstance(c, PreScoreState):
        return None, f"invalid PreScore state, got type {type(c).__name__}"
    return c, None


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "NewFit", 151, 178)
def new(args: Any, handle: Any, fts: Any = None) -> Fit:
    """Upstream NewFit: validate the args, pick the scoring strategy, build the plugin."""
    errs = validate_node_resources_fit_args(None, args)
    if errs:
        raise ValueError(str(to_aggregate(errs)))

    if args.scoring_strategy is None:
        raise ValueError("scoring strategy not specified")

    strategy = args.scoring_strategy.type
    score_plugin = NODE_RESOURCE_STRATEGY_TYPE_MAP.get(strategy)
    if score_plugin is None:
        raise ValueError(f"scoring strategy {strategy} is not supported")

    return Fit(
        ignored_resources=set(args.ignored_resources or []),
        ignored_resource_groups=set(args.ignored_resource_groups or []),
        enable_in_place_pod_vertical_scaling=bool(getattr(fts, "enable_in_place_pod_vertical_scaling", False)),
        enable_sidecar_containers=bool(getattr(fts, "enable_sidecar_containers", True)),
        handle=handle,
        resource_allocation_scorer=score_plugin(args),
    )


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "computePodResourceRequest", 207, 213)
def compute_pod_resource_request(pod: Pod) -> PreFilterState:
    """The widest request of the pod in each dimension.

    Containers run together (summed), ordinary init containers one at a time
    (max), sidecars beside everything after them; the overhead is added. For
    init containers IC1 (2 cpu, 1G), IC2 (2 cpu, 3G) and containers C1
    (2 cpu, 1G), C2 (1 cpu, 1G) the result is 3 cpu, 3G.
    """
    # The pod is not scheduled yet, so in-place resize never matters here.
    reqs = pod_requests(pod)
    result = PreFilterState()
    result.set_max_resource(reqs)
    return result


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "hasRestartableInitContainer", 396, 403)
def has_restartable_init_container(pod: Pod) -> bool:
    return any(c.restart_policy == "Always" for c in pod.spec.init_containers)


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "isFit", 365, 372)
def is_fit(pod: Pod, node: Optional[Node]) -> bool:
    """Whether ``pod`` fits an empty copy of ``node`` (False for no node)."""
    if node is None:
        return False
    node_info = NodeInfo()
    node_info.set_node(node)
    return not fits(pod, node_info)


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "Fits", 417, 419)
def fits(pod: Pod, node_info: NodeInfo) -> list[InsufficientResource]:
    """The resources ``node_info`` lacks for ``pod``; empty when it fits (upstream Fits)."""
    return fits_request(compute_pod_resource_request(pod), node_info, None, None)


# An empty set of ignored names, shared (fits_request runs once per node and pod).
_NO_NAMES: frozenset[str] = frozenset()


@ports("pkg/scheduler/framework/plugins/noderesources/fit.go", "fitsRequest", 421, 501)
def fits_request(pod_request: Resource, node_info: NodeInfo, ignored_extended_resources: Optional[set[str]],
                 ignored_resource_groups: Optional[set[str]]) -> list[InsufficientResource]:
    """Compare the pod's request with the node's free resources, in upstream's order:
    pod count, cpu, memory, ephemeral storage, then each scalar resource."""
    insufficient: list[InsufficientResource] = []

    allowed_pod_number = node_info.allocatable.allowed_pod_number
    if len(node_info.pods) + 1 > allowed_pod_number:
        insufficient.append(InsufficientResource(RESOURCE_PODS, ERR_REASON_TOO_MANY_PODS, 1,
                                                 len(node_info.pods), allowed_pod_number))

    if (pod_request.milli_cpu == 0 and pod_request.memory == 0 and pod_request.ephemeral_storage == 0
            and not pod_request.scalar_resources):
        return insufficient

    alloc, used = node_info.allocatable, node_info.requested
    if pod_request.milli_cpu > 0 and pod_request.milli_cpu > alloc.milli_cpu - used.milli_cpu:
        insufficient.append(InsufficientResource(RESOURCE_CPU, ERR_REASON_INSUFFICIENT_CPU, pod_request.milli_cpu,
                                                 used.milli_cpu, alloc.milli_cpu))
    if pod_request.memory > 0 and pod_request.memory > alloc.memory - used.memory:
        insufficient.append(InsufficientResource(RESOURCE_MEMORY, ERR_REASON_INSUFFICIENT_MEMORY, pod_request.memory,
                                                 used.memory, alloc.memory))
    if (pod_request.ephemeral_storage > 0
            and pod_request.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage):
        insufficient.append(InsufficientResource(RESOURCE_EPHEMERAL_STORAGE, ERR_REASON_INSUFFICIENT_EPHEMERAL_STORAGE,
                                                 pod_request.ephemeral_storage, used.ephemeral_storage,
                                                 alloc.ephemeral_storage))

    ignored_extended_resources = ignored_extended_resources or _NO_NAMES
    ignored_resource_groups = ignored_resource_groups or _NO_NAMES
    # upstream: a Go map, walked in random order; here the order the pod lists them.
    for r_name, r_quant in pod_request.scalar_resources.items():
        if r_quant == 0:
            continue
        if is_extended_resource_name(r_name):
            # An ignored extended resource (by name, or by the prefix before "/") is not checked.
            r_name_prefix = r_name.split("/")[0] if ignored_resource_groups else ""
            if r_name in ignored_extended_resources or r_name_prefix in ignored_resource_groups:
                continue
        if r_quant > alloc.scalar_resources.get(r_name, 0) - used.scalar_resources.get(r_name, 0):
            insufficient.append(InsufficientResource(r_name, f"Insufficient {r_name}", r_quant,
                                                     used.scalar_resources.get(r_name, 0),
                                                     alloc.scalar_resources.get(r_name, 0)))
    return insufficient


# --- pkg/apis/core/v1/helper: IsExtendedResourceName ----------------------------------

_DEFAULT_RESOURCE_REQUESTS_PREFIX = "requests."
_QUALIFIED_NAME_RE = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
_DNS1123_SUBDOMAIN_RE = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")


@ports("pkg/apis/core/v1/helper/helpers.go", "IsNativeResource", 57, 60)
def _is_native_resource(name: str) -> bool:
    return "/" not in name or "kubernetes.io/" in name


def _is_qualified_name(value: str) -> bool:
    """apimachinery IsQualifiedName: ``[prefix/]name``, prefix a DNS subdomain."""
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix or len(prefix) > 253 or not _DNS1123_SUBDOMAIN_RE.match(prefix):
            return False
    else:
        return False
    return 0 < len(name) <= 63 and bool(_QUALIFIED_NAME_RE.match(name))


@ports("pkg/apis/core/v1/helper/helpers.go", "IsExtendedResourceName", 36, 46)
def is_extended_resource_name(name: str) -> bool:
    """A domain-qualified name outside ``kubernetes.io/``, valid as a quota name."""
    if _is_native_resource(name) or name.startswith(_DEFAULT_RESOURCE_REQUESTS_PREFIX):
        return False
    return _is_qualified_name(_DEFAULT_RESOURCE_REQUESTS_PREFIX + name)
