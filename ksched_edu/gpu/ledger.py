"""The per-GPU ledger: which pod holds which GPU of which node, kept beside the scheduler cache.

Not a port. The scheduler cache counts ``nvidia.com/gpu`` like any extended
resource: a node with 8 GPUs and pods asking for 6 has 2 left, but which 2
is the kubelet's device plugin's business. GPUTopology needs to know which,
so it keeps this ledger: Reserve writes the GPU ids it chose for a pod,
Unreserve (a failed binding) and the pod's deletion erase them, and a pod that
arrives already carrying ids (``gpu.ksched-edu.io/gpus``, written by PreBind)
is entered as it is. :meth:`GPULedger.hold` refuses to give one GPU to two
pods: that is the ledger's one invariant, and a property test checks it.

:func:`replay` rebuilds the allocations from a trace's
:class:`~ksched_edu.trace.GPUAllocationEvent` records, which is how the
topology widget shows them without touching the scheduler.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from ..anchors import plumbing

_PLUMBING = ("the project's own per-GPU ledger beside the scheduler cache (kube-scheduler only counts "
             "nvidia.com/gpu); no upstream counterpart")

# The annotation PreBind writes: the ids of the GPUs given to the pod, e.g. "0,1,2,3".
GPUS_ANNOTATION = "gpu.ksched-edu.io/gpus"


@plumbing(_PLUMBING)
class LedgerConflict(Exception):
    """A hold that would give a GPU to a second pod (or give a pod GPUs on two nodes)."""


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class Holding:
    node: str
    pod: str  # namespace/name, for reading
    gpus: tuple[int, ...]


@dataclass
@plumbing(_PLUMBING)
class GPULedger:
    """GPU id -> pod, per node; and pod uid -> what it holds."""

    by_node: dict[str, dict[int, str]] = field(default_factory=dict)  # node -> gpu -> pod uid
    by_pod: dict[str, Holding] = field(default_factory=dict)  # pod uid -> holding

    @plumbing(_PLUMBING)
    def hold(self, node: str, pod_uid: str, pod_key: str, gpus: Iterable[int]) -> Holding:
        """Give ``gpus`` of ``node`` to the pod; holding the same again is a no-op.

        Raises :class:`LedgerConflict` when a GPU is another pod's, when an id repeats,
        or when the pod already holds other GPUs.
        """
        ids = tuple(sorted(gpus))
        if len(set(ids)) != len(ids):
            raise LedgerConflict(f"{pod_key}: GPU ids repeat in {ids}")
        mine = self.by_pod.get(pod_uid)
        if mine is not None:
            if mine.node == node and mine.gpus == ids:
                return mine
            raise LedgerConflict(f"{pod_key} already holds GPUs {_ids(mine.gpus)} on {mine.node}")
        held = self.by_node.get(node, {})
        taken = [g for g in ids if g in held]
        if taken:
            owners = sorted({self.by_pod[held[g]].pod for g in taken})
            raise LedgerConflict(f"GPUs {_ids(taken)} of {node} are held by {', '.join(owners)}")
        holding = Holding(node, pod_key, ids)
        self.by_pod[pod_uid] = holding
        slots = self.by_node.setdefault(node, {})
        for g in ids:
            slots[g] = pod_uid
        return holding

    @plumbing(_PLUMBING)
    def release(self, pod_uid: str) -> Optional[Holding]:
        """Give back whatever the pod holds; None when it holds nothing."""
        holding = self.by_pod.pop(pod_uid, None)
        if holding is None:
            return None
        slots = self.by_node.get(holding.node, {})
        for g in holding.gpus:
            if slots.get(g) == pod_uid:
                del slots[g]
        if not slots:
            self.by_node.pop(holding.node, None)
        return holding

    @plumbing(_PLUMBING)
    def gpus_of(self, pod_uid: str) -> Optional[tuple[int, ...]]:
        holding = self.by_pod.get(pod_uid)
        return holding.gpus if holding is not None else None

    @plumbing(_PLUMBING)
    def held_on(self, node: str) -> dict[int, str]:
        """GPU id -> the holding pod's key, on one node."""
        return {g: self.by_pod[uid].pod for g, uid in sorted(self.by_node.get(node, {}).items())}

    @plumbing(_PLUMBING)
    def check(self) -> None:
        """Assert the invariant: the two indexes agree and no GPU has two holders."""
        seen: dict[tuple[str, int], str] = {}
        for uid, h in self.by_pod.items():
            for g in h.gpus:
                assert (h.node, g) not in seen, f"GPU {g} of {h.node} held twice"
                seen[(h.node, g)] = uid
        flat = {(node, g): uid for node, slots in self.by_node.items() for g, uid in slots.items()}
        assert flat == seen, "the per-node and per-pod indexes disagree"


def _ids(gpus: Iterable[int]) -> str:
    return ",".join(str(g) for g in gpus)


@plumbing(_PLUMBING)
def format_gpus(gpus: Iterable[int]) -> str:
    """The annotation's value: ``"0,1,2,3"``."""
    return _ids(sorted(gpus))


@plumbing(_PLUMBING)
def parse_gpus(value: str) -> tuple[int, ...]:
    """``"0,1,2,3"`` -> ``(0, 1, 2, 3)``; raises ValueError on anything else."""
    value = value.strip()
    if not value:
        return ()
    try:
        return tuple(sorted(int(part) for part in value.split(",")))
    except ValueError:
        raise ValueError(f"{value!r} is not a comma-separated list of GPU ids") from None


@plumbing(_PLUMBING)
def replay(events: Iterable[Any]) -> list[tuple[Any, dict[str, dict[int, str]]]]:
    """For each GPUAllocationEvent in ``events``: (the event, node -> {gpu: pod} after it)."""
    state: dict[str, dict[int, str]] = {}
    out = []
    for e in events:
        if type(e).__name__ != "GPUAllocationEvent":
            continue
        slots = state.setdefault(e.node, {})
        for g in e.gpus:
            if e.kind in ("reserve", "hold"):
                slots[g] = e.pod
            elif slots.get(g) == e.pod:
                del slots[g]
        out.append((e, {n: dict(sorted(s.items())) for n, s in state.items()}))
    return out
