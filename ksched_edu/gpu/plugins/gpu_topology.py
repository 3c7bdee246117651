"""GPUTopology: a scheduler plugin that knows how a node's GPUs are wired.

Not a port: the course's own out-of-tree plugin, built on the framework the
way scheduler-plugins' are. The stock scheduler counts ``nvidia.com/gpu`` and
nothing more, so a 4-GPU job may land where its 4 free GPUs sit on two CPU
sockets. This plugin reads what the job needs from the pod, finds on each
node whether a free subset of GPUs satisfies it, scores nodes by how well
the best subset is connected, books the chosen GPU ids in a ledger and writes
them on the pod, as a device plugin's allocation would.

The pod says (all optional but the request):

- ``resources.limits: {nvidia.com/gpu: 4}``: how many GPUs (the same number
  NodeResourcesFit counts);
- ``gpu.ksched-edu.io/constraint: nvlink,same-numa``: what every pair of its
  GPUs must share; any of ``nvlink`` (joined by NVLink), ``same-numa`` (one
  NUMA node), ``same-pcie-switch`` (one PCIe switch);
- ``gpu.ksched-edu.io/min-bandwidth: "50"``: at least this many GB/s (one way)
  between every pair.

The node says which server it is with the label ``gpu.ksched-edu.io/topology``
(see :mod:`ksched_edu.gpu.catalog`). The plugin writes
``gpu.ksched-edu.io/gpus: "0,1,2,3"`` on the pod at PreBind.

Args (``pluginConfig`` of a profile): ``scoringStrategy`` ``Binpack`` (fill
nodes that are already busy, keep others whole for big jobs; the default) or
``Spread``; ``bandwidthWeight`` (0-100, default 50: how much of the score is
the connection quality, the rest is binpacking or spreading);
``topologyDir`` (where the dumps are, default ``data/topologies``).
"""
from __future__ import annotations

import copy
import difflib
import warnings
from dataclasses import dataclass, field
from typing import Any, Optional

from ...anchors import plumbing
from ...api.resource import pod_requests
from ...api.types import Pod
from ...framework.cycle_state import CycleState, StateNotFoundError
from ...framework.interface import Code, PreFilterResult, Status, new_status
from ...framework.types import NODE, POD, ActionType, ClusterEvent, ClusterEventWithHint, NodeInfo
from ..catalog import TOPOLOGY_LABEL, TopologyCatalog
from ..ledger import GPUS_ANNOTATION, GPULedger, LedgerConflict, format_gpus, parse_gpus
from ..search import Choice, Constraint, best_subset, to_mask
from ..topology import Topology

_PLUMBING = "the project's own topology-aware GPU plugin; no upstream counterpart"

NAME = "GPUTopology"

# Extension points: PreFilter, Filter, PreScore, Score, Reserve, PreBind, EnqueueExtensions.

GPU_RESOURCE = "nvidia.com/gpu"
CONSTRAINT_ANNOTATION = "gpu.ksched-edu.io/constraint"
MIN_BANDWIDTH_ANNOTATION = "gpu.ksched-edu.io/min-bandwidth"
CONSTRAINTS = ("nvlink", "same-numa", "same-pcie-switch")

PRE_FILTER_STATE_KEY = "PreFilter" + NAME
PRE_SCORE_STATE_KEY = "PreScore" + NAME

ERR_REASON_NO_TOPOLOGY = "node(s) had no GPU topology"
ERR_REASON_UNKNOWN_TOPOLOGY = "node(s) had an unknown GPU topology"
MISMATCH = "GPU topology mismatch"

BINPACK = "Binpack"
SPREAD = "Spread"
DEFAULT_BANDWIDTH_WEIGHT = 50


# --- what the pod asks for -----------------------------------------------------------


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class GPURequest:
    """PreFilter's reading of the pod: how many GPUs and what every pair must satisfy."""

    count: int
    constraint: Constraint = Constraint()

    def __repr__(self) -> str:
        return f"GPURequest({self.count} GPUs {self.constraint})"


@plumbing(_PLUMBING)
def requested_gpus(pod: Pod) -> int:
    """The pod's ``nvidia.com/gpu`` request (0 without one); cheap for pods that ask for none."""
    if not any(GPU_RESOURCE in c.resources.requests for c in (*pod.spec.containers, *pod.spec.init_containers)):
        return 0
    q = pod_requests(pod).get(GPU_RESOURCE)
    return int(q.value()) if q is not None else 0


ANNOTATION_PREFIX = "gpu.ksched-edu.io/"
# The pod annotations of the prefix that the plugin reads (the ids are read back from running pods).
KNOWN_ANNOTATIONS = (CONSTRAINT_ANNOTATION, MIN_BANDWIDTH_ANNOTATION, GPUS_ANNOTATION)


@plumbing(_PLUMBING)
class GPUAnnotationWarning(UserWarning):
    """A pod carries a ``gpu.ksched-edu.io/`` annotation the plugin does not read (a typo, most often)."""


@plumbing(_PLUMBING)
def unknown_annotation_messages(annotations: dict[str, str]) -> list[str]:
    """One message per ``gpu.ksched-edu.io/`` key the plugin does not know, naming the known ones.

    A key close to a known one gets a "did you mean" (``min-bandwith`` -> ``min-bandwidth``).
    """
    known_short = [k.removeprefix(ANNOTATION_PREFIX) for k in KNOWN_ANNOTATIONS]
    messages = []
    for key in sorted(annotations):
        if not key.startswith(ANNOTATION_PREFIX) or key in KNOWN_ANNOTATIONS:
            continue
        short = key.removeprefix(ANNOTATION_PREFIX)
        close = difflib.get_close_matches(short, known_short, n=1, cutoff=0.6)
        hint = f" did you mean {close[0]}?" if close else ""
        messages.append(f"unknown GPU annotation key \"{key}\" (ignored);{hint} "
                        f"known keys: {', '.join(KNOWN_ANNOTATIONS)}")
    return messages


@plumbing(_PLUMBING)
def read_request(pod: Pod) -> tuple[Optional[GPURequest], str]:
    """(the request, "") or (None, "") for a pod without GPUs, or (None, the reason it is invalid).

    An unknown ``gpu.ksched-edu.io/`` key is ignored with a :class:`GPUAnnotationWarning`.
    """
    ann = pod.metadata.annotations
    for message in unknown_annotation_messages(ann):
        warnings.warn(f"pod {pod.key}: {message}", GPUAnnotationWarning, stacklevel=2)
    count = requested_gpus(pod)
    if count == 0:
        if CONSTRAINT_ANNOTATION in ann or MIN_BANDWIDTH_ANNOTATION in ann:
            return None, f"pod has GPU annotations but requests no {GPU_RESOURCE}"
        return None, ""
    words = [w.strip() for w in ann.get(CONSTRAINT_ANNOTATION, "").split(",") if w.strip()]
    unknown = [w for w in words if w not in CONSTRAINTS]
    if unknown:
        return None, (f"invalid annotation {CONSTRAINT_ANNOTATION}: unknown constraint \"{unknown[0]}\" "
                      f"(want {', '.join(CONSTRAINTS)})")
    min_bw = 0
    raw = ann.get(MIN_BANDWIDTH_ANNOTATION)
    if raw is not None:
        text = raw.strip().removesuffix("GB/s").strip()
        if not text.isdigit():
            return None, f"invalid annotation {MIN_BANDWIDTH_ANNOTATION}: \"{raw}\" is not a whole number of GB/s"
        min_bw = int(text)
    constraint = Constraint(nvlink="nvlink" in words, same_numa="same-numa" in words,
                            same_pcie_switch="same-pcie-switch" in words, min_bandwidth=min_bw)
    return GPURequest(count, constraint), ""


# --- what the node has ----------------------------------------------------------------


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class NodeGPUs:
    """One node's GPUs as a cycle sees them: which are in use, by whom."""

    topology: Topology
    in_use: dict[int, str] = field(default_factory=dict)  # gpu -> pod key
    unplaced: int = 0  # GPUs requested by pods on the node whose ids nobody recorded

    @property
    def free_mask(self) -> int:
        return ((1 << len(self.topology.gpus)) - 1) & ~to_mask(self.in_use)

    @property
    def free_count(self) -> int:
        return len(self.topology.gpus) - len(self.in_use) - self.unplaced


@plumbing(_PLUMBING)
def gpus_in_use(node_info: NodeInfo, top: Topology, ledger: GPULedger) -> NodeGPUs:
    """Which GPUs the pods of ``node_info`` hold: from the ledger, else from their annotation.

    Reading the NodeInfo (not the ledger alone) keeps preemption's dry runs right:
    a pod removed from a copy of the NodeInfo frees its GPUs in that copy only.
    A pod that asks for GPUs but has no ids (the ids of a nominated pod are not
    known yet) counts as holding that many unknown GPUs.
    """
    in_use: dict[int, str] = {}
    unplaced = 0
    for pi in node_info.pods:
        p = pi.pod
        ids = ledger.gpus_of(p.uid)
        if ids is None and GPUS_ANNOTATION in p.metadata.annotations:
            try:
                ids = parse_gpus(p.metadata.annotations[GPUS_ANNOTATION])
            except ValueError:
                ids = None
        if ids is None:
            unplaced += requested_gpus(p)
            continue
        for g in ids:
            if 0 <= g < len(top.gpus):
                in_use[g] = p.key
    return NodeGPUs(top, in_use, unplaced)


@plumbing(_PLUMBING)
def mismatch_reason(req: GPURequest, free: bool) -> str:
    words = req.constraint.describe()
    what = f"{req.count} free GPUs" if free else f"{req.count} GPUs"
    tail = "" if free else " on this node"
    return f"{MISMATCH}: no {what}{' ' + words if words else ''}{tail}"


# --- args ------------------------------------------------------------------------------


@dataclass
@plumbing(_PLUMBING)
class GPUTopologyArgs:
    scoring_strategy: str = BINPACK
    bandwidth_weight: int = DEFAULT_BANDWIDTH_WEIGHT
    topology_dir: str = ""


_ARG_FIELDS = {"scoringStrategy": "scoring_strategy", "bandwidthWeight": "bandwidth_weight",
               "topologyDir": "topology_dir"}


@plumbing(_PLUMBING)
def args_from(raw: Any) -> GPUTopologyArgs:
    """The args from a profile's ``pluginConfig`` (a raw dict, as the config keeps out-of-tree args)."""
    if raw is None:
        args = GPUTopologyArgs()
    elif isinstance(raw, GPUTopologyArgs):
        args = raw
    elif isinstance(raw, dict):
        args = GPUTopologyArgs()
        for key, value in raw.items():
            if key in ("apiVersion", "kind"):
                continue
            if key not in _ARG_FIELDS:
                raise ValueError(f"unknown field \"{key}\" (want {', '.join(_ARG_FIELDS)})")
            setattr(args, _ARG_FIELDS[key], value)
    else:
        raise ValueError(f"args must be a mapping, got {type(raw).__name__}")
    if args.scoring_strategy not in (BINPACK, SPREAD):
        raise ValueError(f"scoringStrategy: Unsupported value: \"{args.scoring_strategy}\": "
                         f"supported values: \"{BINPACK}\", \"{SPREAD}\"")
    if not isinstance(args.bandwidth_weight, int) or not 0 <= args.bandwidth_weight <= 100:
        raise ValueError(f"bandwidthWeight: Invalid value: {args.bandwidth_weight!r}: must be between 0 and 100")
    return args


# --- the plugin --------------------------------------------------------------------------


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class NodeChoice:
    """PreScore's finding on one node: the best subset and the node's score."""

    choice: Choice
    used_after: int
    score: int


@plumbing(_PLUMBING)
class GPUTopology:
    def __init__(self, args: GPUTopologyArgs, handle: Any, catalog: Optional[TopologyCatalog] = None,
                 ledger: Optional[GPULedger] = None) -> None:
        self.args = args
        self.handle = handle
        self.catalog = catalog or TopologyCatalog(args.topology_dir or None)
        self.ledger = ledger or GPULedger()
        client = handle.client() if handle is not None else None
        # upstream: an out-of-tree plugin would start a pod informer; the API server's watch is ours.
        if client is not None and hasattr(client, "watch"):
            client.watch("Pod", self._on_pod_event)

    @plumbing(_PLUMBING)
    def name(self) -> str:
        return NAME

    @plumbing(_PLUMBING)
    def events_to_register(self) -> list[ClusterEventWithHint]:
        # A deleted pod frees GPUs; a new or relabelled node may bring a topology.
        return [ClusterEventWithHint(ClusterEvent(POD, ActionType.Delete)),
                ClusterEventWithHint(ClusterEvent(NODE, ActionType.Add | ActionType.UpdateNodeLabel))]

    # PreFilter ----------------------------------------------------------------------------

    @plumbing(_PLUMBING)
    def pre_filter(self, state: CycleState, pod: Pod) -> tuple[Optional[PreFilterResult], Optional[Status]]:
        req, invalid = read_request(pod)
        if invalid:
            return None, new_status(Code.UnschedulableAndUnresolvable, invalid)
        if req is None:
            return None, new_status(Code.Skip)
        state.write(PRE_FILTER_STATE_KEY, req)
        return None, None

    @plumbing(_PLUMBING)
    def pre_filter_extensions(self) -> None:
        return None  # Filter reads the NodeInfo's pods itself; nothing to update

    def _request(self, state: CycleState) -> GPURequest:
        try:
            return state.read(PRE_FILTER_STATE_KEY)
        except StateNotFoundError as err:
            raise RuntimeError(f"reading {PRE_FILTER_STATE_KEY!r} from cycleState: {err}") from None

    # Filter --------------------------------------------------------------------------------

    @plumbing(_PLUMBING)
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Optional[Status]:
        try:
            req = self._request(state)
        except RuntimeError as err:
            return Status.as_status(err)
        label, top = self.catalog.for_node(node_info.node())
        if top is None:
            return new_status(Code.UnschedulableAndUnresolvable,
                              ERR_REASON_UNKNOWN_TOPOLOGY if label else ERR_REASON_NO_TOPOLOGY)
        gpus = gpus_in_use(node_info, top, self.ledger)
        if gpus.free_count >= req.count and best_subset(top, gpus.free_mask, req.count, req.constraint):
            return None
        if best_subset(top, (1 << len(top.gpus)) - 1, req.count, req.constraint) is None:
            return new_status(Code.UnschedulableAndUnresolvable, mismatch_reason(req, free=False))
        return new_status(Code.Unschedulable, mismatch_reason(req, free=True))

    # PreScore and Score ------------------------------------------------------------------------

    @plumbing(_PLUMBING)
    def pre_score(self, state: CycleState, pod: Pod, nodes: list[NodeInfo]) -> Optional[Status]:
        try:
            req = state.read(PRE_FILTER_STATE_KEY)
        except StateNotFoundError:
            return new_status(Code.Skip)
        found: dict[str, tuple[Choice, int, int]] = {}
        for info in nodes:
            _, top = self.catalog.for_node(info.node())
            if top is None:
                continue
            gpus = gpus_in_use(info, top, self.ledger)
            choice = best_subset(top, gpus.free_mask, req.count, req.constraint)
            if choice is not None:
                found[info.name] = (choice, len(gpus.in_use) + gpus.unplaced + req.count, len(top.gpus))
        best = max((c.bottleneck for c, _, _ in found.values()), default=0)
        scored = {name: NodeChoice(c, used, self._score(req, c, best, used, total))
                  for name, (c, used, total) in found.items()}
        state.write(PRE_SCORE_STATE_KEY, scored)
        return None

    def _score(self, req: GPURequest, choice: Choice, best: int, used_after: int, total: int) -> int:
        """``bandwidthWeight`` × (slowest link / the best node's slowest link)
        + the rest × (GPUs busy after placement / GPUs, or GPUs free after / GPUs when spreading)."""
        w = self.args.bandwidth_weight
        bottleneck, best = (1, 1) if req.count < 2 or best == 0 else (choice.bottleneck, best)
        packed = used_after if self.args.scoring_strategy == BINPACK else total - used_after
        packed = max(0, min(packed, total))
        return (w * bottleneck * total + (100 - w) * packed * best) // (best * total)

    @plumbing(_PLUMBING)
    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        try:
            scored = state.read(PRE_SCORE_STATE_KEY)
        except StateNotFoundError as err:
            return 0, Status.as_status(f"reading {PRE_SCORE_STATE_KEY!r} from cycleState: {err}")
        found = scored.get(node_name)
        return (found.score if found is not None else 0), None

    @plumbing(_PLUMBING)
    def score_extensions(self) -> None:
        return None

    # Reserve and Unreserve ------------------------------------------------------------------------

    @plumbing(_PLUMBING)
    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        try:
            req = state.read(PRE_FILTER_STATE_KEY)
        except StateNotFoundError:
            return None  # the pod asks for no GPUs
        info = self.handle.snapshot_shared_lister().node_infos().get(node_name)
        _, top = self.catalog.for_node(info.node())
        if top is None:
            return new_status(Code.UnschedulableAndUnresolvable, ERR_REASON_NO_TOPOLOGY)
        gpus = gpus_in_use(info, top, self.ledger)
        free = gpus.free_mask & ~to_mask(self.ledger.held_on(node_name))
        try:
            weighed = state.read(PRE_SCORE_STATE_KEY)
        except StateNotFoundError:
            weighed = {}  # a single feasible node is not scored
        planned = weighed.get(node_name)
        if planned is not None and to_mask(planned.choice.gpus) & ~free == 0:
            choice: Optional[Choice] = planned.choice
        else:
            choice = best_subset(top, free, req.count, req.constraint)
        if choice is None:
            return new_status(Code.Unschedulable, mismatch_reason(req, free=True))
        try:
            self.ledger.hold(node_name, pod.uid, pod.key, choice.gpus)
        except LedgerConflict as err:
            return new_status(Code.Unschedulable, f"{MISMATCH}: {err}")
        candidates = tuple((name, nc.choice.gpus, nc.choice.bottleneck, nc.score)
                           for name, nc in sorted(weighed.items()))
        if not candidates:
            candidates = ((node_name, choice.gpus, choice.bottleneck, None),)
        self._record(pod.key, node_name, "reserve", choice.gpus, candidates)
        return None

    @plumbing(_PLUMBING)
    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        holding = self.ledger.release(pod.uid)
        if holding is not None:
            self._record(pod.key, holding.node, "unreserve", holding.gpus)

    # PreBind -------------------------------------------------------------------------------------

    @plumbing(_PLUMBING)
    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        gpus = self.ledger.gpus_of(pod.uid)
        if gpus is None:
            return None
        client = self.handle.client()
        current = client.get_pod(pod.metadata.namespace, pod.metadata.name)
        if current is None:
            return Status.as_status(f"pods \"{pod.name}\" not found")
        # upstream: a device plugin's Allocate answer reaches the container; here the pod carries it.
        updated = copy.deepcopy(current)
        updated.metadata.annotations[GPUS_ANNOTATION] = format_gpus(gpus)
        client.update(updated)
        return None

    # The ledger follows the pods ----------------------------------------------------------------------

    def _on_pod_event(self, event: str, old: Optional[Pod], new: Optional[Pod]) -> None:
        if event == "delete" and old is not None:
            holding = self.ledger.release(old.uid)
            if holding is not None:
                self._record(old.key, holding.node, "release", holding.gpus)
            return
        pod = new
        if pod is None or not pod.spec.node_name or GPUS_ANNOTATION not in pod.metadata.annotations:
            return
        if self.ledger.gpus_of(pod.uid) is not None:
            return
        try:
            holding = self.ledger.hold(pod.spec.node_name, pod.uid, pod.key,
                                       parse_gpus(pod.metadata.annotations[GPUS_ANNOTATION]))
        except (LedgerConflict, ValueError):
            return  # a pod that claims GPUs it cannot have is left to Filter's reading of the node
        self._record(pod.key, holding.node, "hold", holding.gpus)

    def _record(self, pod_key: str, node: str, kind: str, gpus: tuple[int, ...],
                candidates: tuple[Any, ...] = ()) -> None:
        recorder = getattr(self.handle, "recorder", None)
        if recorder is None or not recorder.enabled:
            return
        from ...trace import GPUAllocationEvent

        ctx = getattr(self.handle, "ctx", None)
        client = self.handle.client()
        clock = getattr(client, "clock", None)
        now = clock.now if clock is not None else (ctx.time if ctx is not None else 0.0)
        recorder.record(GPUAllocationEvent(now, ctx.cycle if ctx is not None else 0, pod_key, node, kind, gpus,
                                           candidates))


@plumbing(_PLUMBING)
def new(args: Any, handle: Any) -> GPUTopology:
    return GPUTopology(args_from(args), handle)


__all__ = ["NAME", "GPUTopology", "GPUTopologyArgs", "GPURequest", "new", "read_request", "gpus_in_use",
           "CONSTRAINT_ANNOTATION", "MIN_BANDWIDTH_ANNOTATION", "KNOWN_ANNOTATIONS",
           "GPUAnnotationWarning", "unknown_annotation_messages", "GPUS_ANNOTATION", "TOPOLOGY_LABEL"]
