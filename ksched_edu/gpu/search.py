"""Which free GPUs to give a job: the exact subset search behind GPUTopology.

Not a port: the course's own algorithm. A job asks for ``k`` GPUs and,
optionally, a :class:`Constraint` on every pair of them (joined by NVLink, on
one NUMA node, under one PCIe switch, at least so many GB/s). Among the
``k``-subsets of the free GPUs whose pairs all satisfy it, the best subset is
the one with

1. the highest *bottleneck*: the slowest link between two chosen GPUs (a ring
   all-reduce runs at the pace of its slowest hop);
2. then the highest *total* bandwidth over all chosen pairs;
3. then the fewest NUMA nodes (the job's CPU threads stay near its GPUs);
4. then the smallest GPU ids (so the answer is deterministic).

:func:`brute_force_best_subset` states that definition in a few lines by trying
every subset; :func:`best_subset` computes the same answer faster, and the
tests check the two agree on generated topologies.

How :func:`best_subset` works. The allowed pairs form a graph; a valid subset
is a ``k``-clique of it. (a) Bottleneck: try the distinct bandwidths from the
highest down; the first level ``t`` at which the graph of pairs with
bandwidth ``>= t`` still has a ``k``-clique is the best bottleneck. (b) Total
and NUMA nodes: enumerate the ``k``-cliques of that graph in id order with
branch and bound, keeping the first strictly better one. A branch is cut when
an upper bound on its total (each GPU still needed brings its links to the
GPUs chosen and half of its best links to the other candidates) is below the
best total found, or equal to it while the branch cannot span fewer NUMA
nodes than the best. Sets of GPUs are bitmasks (an ``int``). (c) The answer
depends only on the topology, the free set, ``k`` and the constraint, so it
is memoised on the topology: nodes of the same model with the same GPUs in
use cost one search.

How it scales. On 8 GPUs there are at most C(8,4) = 70 subsets of any size;
the search visits at most ~15 states (well under a millisecond, tens of
microseconds typically). On 16 GPUs the worst case is C(16,8) = 12,870
subsets, but (a) stops at the first bandwidth level with a clique and the
bounds of (b) cut the rest: over random busy sets an NVSwitch DGX-2 needs at
most 64 states, a 16-GPU PCIe server ~100, and the hardest shape we tried, two
DGX-1 cube-meshes joined twin to twin, ~90 typically and ~800 at worst for 8
GPUs (a few milliseconds in Python), once per free set thanks to the memo,
which holds at most 2^16 free sets per (k, constraint). Much past 16 GPUs on
one fabric a search would want a tighter bound. ``benchmarks/gpu_topology.py``
prints the Filter+Score time per node for 8- and 16-GPU nodes.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Optional, Union

from ..anchors import plumbing
from .topology import Topology

_PLUMBING = "the project's own exact search for the best subset of free GPUs; no upstream counterpart"

GPUSet = Union[int, Iterable[int]]


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class Constraint:
    """What every pair of the chosen GPUs must satisfy."""

    nvlink: bool = False
    same_numa: bool = False
    same_pcie_switch: bool = False
    min_bandwidth: int = 0  # GB/s one way, 0: no minimum

    @plumbing(_PLUMBING)
    def allows(self, top: Topology, i: int, j: int) -> bool:
        if self.nvlink and not top.links[i][j].is_nvlink:
            return False
        a, b = top.gpus[i], top.gpus[j]
        if self.same_numa and a.numa_node != b.numa_node:
            return False
        if self.same_pcie_switch and (a.pcie_switch != b.pcie_switch or not a.pcie_switch):
            return False
        return top.bandwidths[i][j] >= self.min_bandwidth

    @plumbing(_PLUMBING)
    def describe(self) -> str:
        """``"joined by NVLink on one NUMA node"``: the words a Filter reason uses ("" for none)."""
        words = []
        if self.nvlink:
            words.append("joined by NVLink")
        if self.same_numa:
            words.append("on one NUMA node")
        if self.same_pcie_switch:
            words.append("under one PCIe switch")
        if self.min_bandwidth:
            words.append(f"with at least {self.min_bandwidth} GB/s between every pair")
        return " ".join(words)

    def __str__(self) -> str:
        return self.describe() or "no constraint"


NO_CONSTRAINT = Constraint()


@dataclass(frozen=True)
@plumbing(_PLUMBING)
class Choice:
    """A subset of GPUs and how well it is connected."""

    gpus: tuple[int, ...]
    bottleneck: int  # the slowest link between two of them, GB/s (0 for fewer than two GPUs)
    total: int  # the sum over all pairs, GB/s
    numa_nodes: int = 1  # how many NUMA nodes they span

    @property
    def key(self) -> tuple[int, int, int]:
        """Bigger is better: (bottleneck, total, -NUMA nodes)."""
        return self.bottleneck, self.total, -self.numa_nodes

    def __str__(self) -> str:
        ids = ",".join(str(g) for g in self.gpus)
        return f"GPUs {ids} (slowest link {self.bottleneck} GB/s, total {self.total} GB/s)"


@plumbing(_PLUMBING)
def to_mask(gpus: GPUSet) -> int:
    if isinstance(gpus, int):
        return gpus
    mask = 0
    for g in gpus:
        mask |= 1 << g
    return mask


@plumbing(_PLUMBING)
def ids_of(mask: int) -> list[int]:
    out, i = [], 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


@plumbing(_PLUMBING)
def describe_subset(top: Topology, gpus: Iterable[int]) -> Choice:
    """The :class:`Choice` of a given subset (bottleneck and total of its pairs)."""
    ids = tuple(sorted(gpus))
    bws = [top.bandwidths[i][j] for i, j in itertools.combinations(ids, 2)]
    return Choice(ids, min(bws) if bws else 0, sum(bws), _numa_count(top, ids))


def _numa_count(top: Topology, ids: Iterable[int]) -> int:
    return len({top.gpus[i].numa_node for i in ids})


@plumbing(_PLUMBING)
def brute_force_best_subset(top: Topology, free: GPUSet, count: int,
                            constraint: Constraint = NO_CONSTRAINT) -> Optional[Choice]:
    """The definition: try every ``count``-subset of ``free`` in id order, keep the first best."""
    best: Optional[Choice] = None
    for combo in itertools.combinations(ids_of(to_mask(free)), count):
        if all(constraint.allows(top, i, j) for i, j in itertools.combinations(combo, 2)):
            choice = describe_subset(top, combo)
            if best is None or choice.key > best.key:
                best = choice
    return best


@plumbing(_PLUMBING)
def best_subset(top: Topology, free: GPUSet, count: int,
                constraint: Constraint = NO_CONSTRAINT) -> Optional[Choice]:
    """The best ``count`` GPUs among ``free`` (ids or a bitmask) under ``constraint``; None if none fit.

    Same answer as :func:`brute_force_best_subset`, memoised on the topology.
    """
    mask = to_mask(free) & ((1 << len(top.gpus)) - 1)
    key = (mask, count, constraint)
    cache = top.search_cache
    if key not in cache:
        cache[key] = _search(top, mask, count, constraint)
    return cache[key]


def _search(top: Topology, free: int, k: int, constraint: Constraint) -> Optional[Choice]:
    ids = ids_of(free)
    if k <= 0:
        return Choice((), 0, 0, 0)
    if len(ids) < k:
        return None
    if k == 1:
        return Choice((ids[0],), 0, 0, 1)
    bw = top.bandwidths
    allowed = {i: [j for j in ids if j != i and constraint.allows(top, i, j)] for i in ids}
    levels = sorted({bw[i][j] for i in ids for j in allowed[i]}, reverse=True)
    for level in levels:
        adj = [0] * len(top.gpus)
        for i in ids:
            for j in allowed[i]:
                if bw[i][j] >= level:
                    adj[i] |= 1 << j
        if _has_clique(adj, free, k):
            return _max_total(top, adj, free, k, level)
    return None


def _has_clique(adj: list[int], cand: int, need: int) -> bool:
    """Is there a ``need``-clique among ``cand`` in the graph ``adj`` (bitmask adjacency)?"""
    if need == 0:
        return True
    while cand and cand.bit_count() >= need:
        v = (cand & -cand).bit_length() - 1
        cand &= cand - 1
        if _has_clique(adj, cand & adj[v], need - 1):
            return True
    return False


def _max_total(top: Topology, adj: list[int], free: int, k: int, bottleneck: int) -> Choice:
    """The ``k``-clique of ``adj`` with the highest total bandwidth, then the fewest NUMA nodes,
    the first in id order on ties."""
    bw = top.bandwidths
    numa = [g.numa_node for g in top.gpus]
    top_bw = max(bw[i][j] for i in ids_of(free) for j in ids_of(adj[i] & free))
    best_total, best_numa = -1, 0
    best: tuple[int, ...] = ()

    def extend(chosen: tuple[int, ...], cand: int, total: int, numas: frozenset[int]) -> None:
        nonlocal best_total, best_numa, best
        need = k - len(chosen)
        if need == 0:
            if total > best_total or (total == best_total and len(numas) < best_numa):
                best_total, best_numa, best = total, len(numas), chosen
            return
        if cand.bit_count() < need:
            return
        if _cannot_win(_rough_bound(bw, top_bw, chosen, cand, need, total), best_total, best_numa, numa, numas, cand,
                       need) or _cannot_win(_bound(bw, adj, chosen, cand, need, total), best_total, best_numa, numa,
                                            numas, cand, need):
            return  # this branch cannot beat the best found
        rest = cand
        while rest:
            v = (rest & -rest).bit_length() - 1
            rest &= rest - 1
            gain = sum(bw[v][c] for c in chosen)
            extend(chosen + (v,), rest & adj[v], total + gain, numas | {numa[v]})

    extend((), free, 0, frozenset())
    return Choice(best, bottleneck, best_total, best_numa)


def _cannot_win(bound: int, best_total: int, best_numa: int, numa: list[int], numas: frozenset[int], cand: int,
                need: int) -> bool:
    """A branch whose total is at most ``bound`` cannot beat the best: it cannot reach its total, or
    it can at best tie it without spanning fewer NUMA nodes."""
    return bound < best_total or (bound == best_total and _numa_floor(numa, numas, cand, need) >= best_numa)


def _rough_bound(bw: tuple[tuple[int, ...], ...], top_bw: int, chosen: tuple[int, ...], cand: int, need: int,
                 total: int) -> int:
    """A quick, looser :func:`_bound`: every pair among the new GPUs at the fastest link there is."""
    gains = sorted((sum(bw[v][c] for c in chosen) for v in ids_of(cand)), reverse=True)
    return total + sum(gains[:need]) + need * (need - 1) // 2 * top_bw


def _bound(bw: tuple[tuple[int, ...], ...], adj: list[int], chosen: tuple[int, ...], cand: int, need: int,
           total: int) -> int:
    """At least the total of any completion: each new GPU brings its links to the chosen ones and
    half of its ``need - 1`` best links to the other candidates (a pair counts from both ends)."""
    worth = []
    for v in ids_of(cand):
        to_chosen = sum(bw[v][c] for c in chosen)
        best_links = sorted((bw[v][u] for u in ids_of(cand & adj[v])), reverse=True)[:need - 1]
        worth.append(2 * to_chosen + sum(best_links))
    worth.sort(reverse=True)
    return total + sum(worth[:need]) // 2


def _numa_floor(numa: list[int], numas: frozenset[int], cand: int, need: int) -> int:
    """The fewest NUMA nodes a completion can span: those used already, plus the biggest other
    groups of candidates until ``need`` GPUs are covered."""
    inside, others = 0, {}
    for v in ids_of(cand):
        if numa[v] in numas:
            inside += 1
        else:
            others[numa[v]] = others.get(numa[v], 0) + 1
    count, left = len(numas), need - inside
    for size in sorted(others.values(), reverse=True):
        if left <= 0:
            break
        left -= size
        count += 1
    return max(count, 1)
