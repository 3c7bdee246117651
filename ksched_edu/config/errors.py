"""Port of k8s.io/apimachinery/pkg/util/errors/errors.go (v1.30).

An :class:`Aggregate` holds several errors and prints them the way
kube-scheduler does: one error alone as itself, several as ``[a, b]``, with
repeated messages printed once. :func:`flatten` lifts nested aggregates into
one flat list, as the configuration validation does before it reports.

Deviations:
- ``Is``/``FilterOut``/``Reduce`` and AggregateGoroutines are not ported.
"""
from __future__ import annotations

from typing import Iterable, Optional

from ..anchors import SCHEDULER_PLUGINS, ports


@ports("vendor/k8s.io/apimachinery/pkg/util/errors/errors.go", "aggregate", 66, 66, repo=SCHEDULER_PLUGINS)
class Aggregate(Exception):
    """Several errors reported as one (upstream ``utilerrors.Aggregate``)."""

    def __init__(self, errors: list[BaseException]) -> None:
        super().__init__()
        self.errors = list(errors)

    @ports("vendor/k8s.io/apimachinery/pkg/util/errors/errors.go", "(aggregate).visit", 103, 124, repo=SCHEDULER_PLUGINS)
    def _visit(self) -> Iterable[BaseException]:
        # upstream: aggregate.visit walks nested aggregates depth first.
        for err in self.errors:
            if isinstance(err, Aggregate):
                yield from err._visit()
            else:
                yield err

    @ports("vendor/k8s.io/apimachinery/pkg/util/errors/errors.go", "(aggregate).Error", 69, 95, repo=SCHEDULER_PLUGINS)
    def __str__(self) -> str:
        if not self.errors:
            return ""
        if len(self.errors) == 1:
            return str(self.errors[0])
        seen: list[str] = []
        for err in self._visit():
            msg = str(err)
            if msg not in seen:
                seen.append(msg)
        if len(seen) == 1:
            return seen[0]
        return "[" + ", ".join(seen) + "]"


@ports("vendor/k8s.io/apimachinery/pkg/util/errors/errors.go", "NewAggregate", 46, 61, repo=SCHEDULER_PLUGINS)
def new_aggregate(errs: Iterable[Optional[BaseException]]) -> Optional[Aggregate]:
    """Upstream NewAggregate: nil entries dropped, nil when nothing is left."""
    kept = [e for e in errs if e is not None]
    if not kept:
        return None
    return Aggregate(kept)


@ports("vendor/k8s.io/apimachinery/pkg/util/errors/errors.go", "Flatten", 181, 199, repo=SCHEDULER_PLUGINS)
def flatten(agg: Optional[Aggregate]) -> Optional[Aggregate]:
    """Upstream Flatten: nested aggregates become one flat aggregate."""
    if agg is None:
        return None
    result: list[BaseException] = []
    for err in agg.errors:
        if isinstance(err, Aggregate):
            inner = flatten(err)
            if inner is not None:
                result.extend(inner.errors)
        elif err is not None:
            result.append(err)
    return new_aggregate(result)
