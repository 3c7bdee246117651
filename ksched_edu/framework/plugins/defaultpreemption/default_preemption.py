"""Port of pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (v1.30).

DefaultPreemption is the in-tree PostFilter plugin: when no node fits a pod,
it asks the generic :class:`~ksched_edu.framework.preemption.Evaluator` to find
lower-priority pods whose eviction would make room, and supplies the policy:
how many candidate nodes to dry-run, which pods on a node become victims (all
lower-priority pods out, then as many as possible back in, PDB-protected ones
first) and whether the pod may preempt at all. It registers no cluster events:
only PreEnqueue, PreFilter, Filter, Reserve and Permit plugins do.

Deviations:
- The random offset of the dry run comes from ``self.rng``, a ``random.Random``
  the plugin owns (seeded with 0; a Scheduler may replace it), not Go's global source.
- ``victim_grace_period`` (see the Evaluator) is 0 by default: victims go at once.
- Potential victims are sorted stably (upstream's sort.Slice is stable only up to 12 pods).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Optional

from ....anchors import ports
from ....api.labels import selector_from_label_selector
from ....api.types import PREEMPT_NEVER, Pod
from ...cycle_state import CycleState
from ...interface import Code, NodeToStatusMap, PostFilterResult, Status, is_success, new_status
from ...preemption import (DISRUPTION_TARGET, POD_DISRUPTION_CONDITIONS_DEFAULT,
                           POD_REASON_PREEMPTION_BY_SCHEDULER, Candidate, Evaluator, ScoreFunc, Victims,
                           more_important_key, pod_priority)
from ...types import NodeInfo, PodInfo
from ..names import DEFAULT_PREEMPTION

NAME = DEFAULT_PREEMPTION

# Extension points: PostFilter.

ERR_REASON_NO_VICTIMS = "No preemption victims found for incoming pod"
ERR_REASON_PREEMPT_NEVER = "not eligible due to preemptionPolicy=Never."
ERR_REASON_TERMINATING_POD = "not eligible due to a terminating pod on the nominated node."

# v1 defaults of DefaultPreemptionArgs.
DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE = 10
DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE = 100


@dataclass
class _Args:
    min_candidate_nodes_percentage: int = DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE
    min_candidate_nodes_absolute: int = DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE


class _VictimError(Exception):
    """Removing or adding a pod during the dry run failed (upstream returns an error)."""


@ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "DefaultPreemption", 50, 56)
class DefaultPreemption:
    """A PostFilter plugin implementing the default preemption policy."""

    def __init__(self, handle: Any, args: _Args,
                 enable_pod_disruption_conditions: bool = POD_DISRUPTION_CONDITIONS_DEFAULT) -> None:
        self.fh = handle
        self.args = args
        self.enable_pod_disruption_conditions = enable_pod_disruption_conditions
        # The source of the dry run's random offset; deterministic unless replaced.
        self.rng = random.Random(0)
        # Seconds a victim is given to terminate; None: its terminationGracePeriodSeconds.
        self.victim_grace_period: Optional[float] = 0.0

    @ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "(*DefaultPreemption).Name", 61, 63)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "(*DefaultPreemption).PostFilter", 85, 105)
    def post_filter(self, state: CycleState, pod: Pod,
                    m: NodeToStatusMap) -> tuple[Optional[PostFilterResult], Optional[Status]]:
        pe = Evaluator(plugin_name=NAME, handler=self.fh, state=state, interface=self,
                       victim_grace_period=self.victim_grace_period,
                       pod_disruption_conditions=self.enable_pod_disruption_conditions)
        result, status = pe.preempt(pod, m)
        msg = status.message() if status is not None else ""
        if msg:
            return result, new_status(status.code, "preemption: " + msg)  # type: ignore[union-attr]
        return result, status

    @ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "(*DefaultPreemption).calculateNumCandidates", 111, 120)
    def calculate_num_candidates(self, num_nodes: int) -> int:
        """How many candidates the dry run must find: a percentage of the nodes, at least
        ``min_candidate_nodes_absolute``, never more than the nodes there are."""
        n = (num_nodes * self.args.min_candidate_nodes_percentage) // 100
        if n < self.args.min_candidate_nodes_absolute:
            n = self.args.min_candidate_nodes_absolute
        if n > num_nodes:
            n = num_nodes
        return n

    @ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "(*DefaultPreemption).GetOffsetAndNumCandidates", 124, 126)
    def get_offset_and_num_candidates(self, num_nodes: int) -> tuple[int, int]:
        """A random node to start the dry run from, and how many candidates to look for."""
        return self.rng.randrange(num_nodes), self.calculate_num_candidates(num_nodes)

    @ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "(*DefaultPreemption).CandidatesToVictimsMap", 130, 136)
    def candidates_to_victims_map(self, candidates: list[Candidate]) -> dict[str, Victims]:
        return {c.name: c.victims for c in candidates}

    @ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "(*DefaultPreemption).SelectVictimsOnNode", 140, 229)
    def select_victims_on_node(self, state: CycleState, pod: Pod, node_info: NodeInfo,
                               pdbs: list[Any]) -> tuple[list[Pod], int, Optional[Status]]:
        """The fewest pods to evict on ``node_info`` (a copy) so that ``pod`` fits there.

        Every lower-priority pod is removed; if the pod still does not fit, the node
        is no candidate. Otherwise the removed pods are reprieved one at a time, most
        important first, PDB-violating ones before the others: a pod whose return
        keeps the node feasible stays, the rest become victims.
        """
        fh = self.fh
        potential_victims: list[PodInfo] = []
        victims: list[Pod] = []

        def remove_pod(rpi: PodInfo) -> None:
            try:
                node_info.remove_pod(rpi.pod)
            except KeyError as err:
                raise _VictimError(err.args[0] if err.args else str(err)) from None
            s = fh.run_pre_filter_extension_remove_pod(state, pod, rpi, node_info)
            if not is_success(s):
                raise _VictimError(s.message())

        def add_pod(api: PodInfo) -> None:
            node_info.add_pod_info(api)
            s = fh.run_pre_filter_extension_add_pod(state, pod, api, node_info)
            if not is_success(s):
                raise _VictimError(s.message())

        def reprieve_pod(pi: PodInfo) -> bool:
            add_pod(pi)
            fits = is_success(fh.run_filter_plugins_with_nominated_pods(state, pod, node_info))
            if not fits:
                remove_pod(pi)
                victims.append(pi.pod)
            return fits

        try:
            # First remove every lower-priority pod and check whether the pod fits.
            # (upstream ranges over nodeInfo.Pods while removing; that visits the original list.)
            prio = pod_priority(pod)
            for pi in list(node_info.pods):
                if pod_priority(pi.pod) < prio:
                    potential_victims.append(pi)
                    remove_pod(pi)
            # Without potential victims the node is as it was: no need to filter it again.
            if not potential_victims:
                return [], 0, new_status(Code.UnschedulableAndUnresolvable, ERR_REASON_NO_VICTIMS)
            # Not even removing them all helps: this node is no candidate. (Affinity to a
            # lower-priority victim is not considered, as upstream decided.)
            status = fh.run_filter_plugins_with_nominated_pods(state, pod, node_info)
            if not is_success(status):
                return [], 0, status

            potential_victims.sort(key=lambda p: more_important_key(p.pod))
            violating, non_violating = filter_pods_with_pdb_violation(potential_victims, pdbs)
            num_violating_victim = 0
            for p in violating:
                if not reprieve_pod(p):
                    num_violating_victim += 1
            for p in non_violating:
                reprieve_pod(p)
        except _VictimError as err:
            return [], 0, Status.as_status(str(err))
        return victims, num_violating_victim, new_status(Code.Success)

    @ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "(*DefaultPreemption).PodEligibleToPreemptOthers", 239, 264)
    def pod_eligible_to_preempt_others(self, pod: Pod,
                                       nominated_node_status: Optional[Status]) -> tuple[bool, str]:
        """Whether ``pod`` may preempt now, and why not.

        Not when its preemptionPolicy is Never; not while a lower-priority pod on its
        nominated node is still terminating because of an earlier preemption (unless
        the filters found that node UnschedulableAndUnresolvable: then it tries anew).
        """
        if pod.spec.preemption_policy is not None and pod.spec.preemption_policy == PREEMPT_NEVER:
            return False, ERR_REASON_PREEMPT_NEVER
        nom_node_name = pod.status.nominated_node_name
        if nom_node_name:
            if nominated_node_status is not None and nominated_node_status.code == Code.UnschedulableAndUnresolvable:
                return True, ""
            try:
                node_info = self.fh.snapshot_shared_lister().node_infos().get(nom_node_name)
            except KeyError:
                node_info = None
            if node_info is not None:
                prio = pod_priority(pod)
                for p in node_info.pods:
                    if pod_priority(p.pod) < prio and pod_terminating_by_preemption(
                            p.pod, self.enable_pod_disruption_conditions):
                        return False, ERR_REASON_TERMINATING_POD
        return True, ""

    @ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "(*DefaultPreemption).OrderedScoreFuncs", 267, 269)
    def ordered_score_funcs(self, nodes_to_victims: dict[str, Victims]) -> Optional[list[ScoreFunc]]:
        """None: pickOneNodeForPreemption's default rules decide."""
        return None


@ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "podTerminatingByPreemption", 273, 288)
def pod_terminating_by_preemption(p: Pod, enable_pod_disruption_conditions: bool) -> bool:
    """Whether ``p`` is terminating and, with PodDisruptionConditions, because the scheduler preempted it."""
    if p.metadata.deletion_timestamp is None:
        return False
    if not enable_pod_disruption_conditions:
        return True
    for condition in p.status.conditions:
        if condition.type == DISRUPTION_TARGET:
            return condition.status == "True" and condition.reason == POD_REASON_PREEMPTION_BY_SCHEDULER
    return False


@ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "filterPodsWithPDBViolation", 295, 341)
def pdb_matches_pod(pdb: Any, pod: Pod) -> bool:
    """A PDB in the pod's namespace whose selector selects the pod (nil or empty selects nothing)."""
    if pdb.metadata.namespace != pod.metadata.namespace:
        return False
    selector = selector_from_label_selector(pdb.spec.selector)
    return not selector.empty() and selector.matches(pod.metadata.labels)


@ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "filterPodsWithPDBViolation", 295, 341)
def filter_pods_with_pdb_violation(pod_infos: list[PodInfo],
                                   pdbs: list[Any]) -> tuple[list[PodInfo], list[PodInfo]]:
    """Split pods into those whose eviction would violate a PDB and the others, keeping their order.

    Each matching PDB's ``status.disruptionsAllowed`` is spent pod by pod; a pod
    already listed in the PDB's ``disruptedPods`` does not spend it again.
    """
    pdbs_allowed = [pdb.status.disruptions_allowed for pdb in pdbs]
    violating: list[PodInfo] = []
    non_violating: list[PodInfo] = []
    for pod_info in pod_infos:
        pod = pod_info.pod
        violated = False
        # A pod without labels matches no PDB.
        if pod.metadata.labels:
            for i, pdb in enumerate(pdbs):
                if not pdb_matches_pod(pdb, pod):
                    continue
                # Already processed by the API server: not a violation.
                if pod.metadata.name in (pdb.status.disrupted_pods or {}):
                    continue
                pdbs_allowed[i] -= 1
                if pdbs_allowed[i] < 0:
                    violated = True
        (violating if violated else non_violating).append(pod_info)
    return violating, non_violating


@ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "New", 66, 82)
def _resolve_args(args: Any) -> _Args:
    """Read DefaultPreemptionArgs (None fields take the v1 defaults) and validate them."""
    if args is None:
        return _Args()
    pct = getattr(args, "min_candidate_nodes_percentage", None)
    absolute = getattr(args, "min_candidate_nodes_absolute", None)
    resolved = _Args(DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE if pct is None else int(pct),
                     DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE if absolute is None else int(absolute))
    try:
        from ....config.field import to_aggregate
        from ....config.validation_pluginargs import validate_default_preemption_args
    except ImportError:  # pragma: no cover - the config package ships both
        return resolved
    errs = validate_default_preemption_args(None, resolved)  # type: ignore[arg-type]
    if errs:
        raise ValueError(str(to_aggregate(errs)))
    return resolved


@ports("pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go", "New", 66, 82)
def new(args: Any, handle: Any, fts: Any = None) -> DefaultPreemption:
    """Upstream New: validate the args and build the plugin."""
    enable = getattr(fts, "enable_pod_disruption_conditions", POD_DISRUPTION_CONDITIONS_DEFAULT)
    return DefaultPreemption(handle, _resolve_args(args), enable_pod_disruption_conditions=enable)
