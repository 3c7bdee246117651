"""Port of gonum.org/v1/gonum stat.Mean, stat.Variance and stat/combin.Combinations
(as vendored by scheduler-plugins at 37b7888a), with Go's integer division and float-to-int64
conversion.

The scoring strategies of NodeResourceTopologyMatch average container
scores, take the variance of resource fractions, and walk the k-subsets of
a node's NUMA zones in lexicographic order; these are the numeric helpers
they call.

Deviations:
- Sums run left to right; gonum's amd64 assembly adds pairs of lanes, which
  can differ in the last bit (upstream's inputs come from Go map iteration,
  whose order is random anyway).
"""
from __future__ import annotations

import math
import struct

from .... import goint
from ....anchors import SCHEDULER_PLUGINS, plumbing, ports


@ports("vendor/gonum.org/v1/gonum/stat/stat.go", "Mean", 918, 934, repo=SCHEDULER_PLUGINS)
def mean(x: list[float]) -> float:
    """Unweighted mean; NaN for an empty list (0/0), as in Go."""
    total = 0.0
    for v in x:
        total += v
    return total / len(x) if x else math.nan


@ports("vendor/gonum.org/v1/gonum/stat/stat.go", "Variance", 1303, 1306, repo=SCHEDULER_PLUGINS)
def variance(x: list[float]) -> float:
    """Unbiased sample variance with the corrected two-pass sum; NaN for fewer than two values."""
    m = mean(x)
    ss = compensation = 0.0
    for v in x:
        d = v - m
        ss += d * d
        compensation += d
    n = float(len(x))
    unnormalised = ss - compensation * compensation / n if x else math.nan
    try:
        return unnormalised / (n - 1)
    except ZeroDivisionError:  # Go's float division: 0/0 is NaN, x/0 is +-Inf
        return math.nan if unnormalised == 0 or math.isnan(unnormalised) else math.copysign(math.inf, unnormalised)


# Go's int64(f) on amd64 and Go's integer division (see ksched_edu/goint.py).
go_int64 = goint.float_to_int64
go_div = goint.div


@plumbing("Go's float32 conversion, which Python floats lack")
def float32(f: float) -> float:
    """``f`` rounded to the nearest float32, as Go's ``float32(...)`` does."""
    return struct.unpack("f", struct.pack("f", f))[0]


@ports("vendor/gonum.org/v1/gonum/stat/combin/combin.go", "Binomial", 29, 45, repo=SCHEDULER_PLUGINS)
def binomial(n: int, k: int) -> int:
    if n < 0 or k < 0:
        raise ValueError("combin: negative input")
    if n < k:
        raise ValueError("combin: n < k")
    if k > n // 2:
        k = n - k
    b = 1
    for i in range(1, k + 1):
        b = (n - k + i) * b // i
    return b


@ports("vendor/gonum.org/v1/gonum/stat/combin/combin.go", "nextCombination", 175, 186, repo=SCHEDULER_PLUGINS)
def _next_combination(s: list[int], n: int, k: int) -> None:
    for j in range(k - 1, -1, -1):
        if s[j] == n + j - k:
            continue
        s[j] += 1
        for ll in range(j + 1, k):
            s[ll] = s[j] + ll - j
        break


@ports("vendor/gonum.org/v1/gonum/stat/combin/combin.go", "Combinations", 155, 172, repo=SCHEDULER_PLUGINS)
def combinations(n: int, k: int) -> list[list[int]]:
    """Every k-subset of range(n), each sorted, in lexicographic order."""
    count = binomial(n, k)
    if count == 0:
        return []
    data = [list(range(k))]
    for _ in range(1, count):
        nxt = list(data[-1])
        _next_combination(nxt, n, k)
        data.append(nxt)
    return data
