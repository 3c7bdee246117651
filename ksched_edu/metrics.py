"""Port of pkg/scheduler/metrics/metrics.go (v1.30), in part: the durations a learner
can look at.

Upstream's scheduler observes how long each extension point takes
(``framework_extension_point_duration_seconds``, with a ``defer`` at the top of each
``Run*Plugins`` method and of the Filter loop) and how long the whole algorithm takes
(``scheduling_algorithm_duration_seconds``). Here ``@observed(point)`` is that one
line: the decorated function is timed, and the time handed to the recorder, only when
the framework's recorder asks for times (``ExtensionPointTimer``). Otherwise the wall
clock is never read, so a run stays deterministic.
"""
from __future__ import annotations

from functools import wraps
from time import perf_counter
from typing import Any, Callable, Optional, TypeVar

from .anchors import plumbing, ports

F = TypeVar("F", bound=Callable[..., Any])


@ports("pkg/scheduler/metrics/metrics.go", "SinceInSeconds", 282, 284)
def since_in_seconds(start: float) -> float:
    return perf_counter() - start


@plumbing("a duration being observed: started when made, handed to the recorder by observe()")
class Observation:
    """For the Filter loop, whose Go observes its duration in a deferred func: the start
    time (read only when the framework's recorder asks for times) and ``observe(nodes)``."""

    __slots__ = ("fwk", "point", "timer", "start")

    def __init__(self, fwk: Any, point: str) -> None:
        self.fwk = fwk
        self.point = point
        self.timer = fwk.extension_point_timer()
        self.start = perf_counter() if self.timer is not None else 0.0

    @plumbing("hands the duration to the recorder that asked for it")
    def observe(self, nodes: int = 0) -> None:
        if self.timer is not None:
            self.timer.observe(self.fwk.profile_name, self.point, since_in_seconds(self.start), nodes)


@plumbing("the defer that observes an extension point's duration, as one decorator line")
def observed(point: str, fwk_arg: int = 0, nodes_arg: Optional[int] = None) -> Callable[[F], F]:
    """Time each call of the decorated function as ``point`` of the framework passed as
    positional argument ``fwk_arg`` (0: ``self`` of a Framework method); ``nodes_arg``
    names the argument holding the nodes, whose number is recorded beside the time."""
    def decorate(fn: F) -> F:
        @wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            fwk = args[fwk_arg]
            timer = fwk.extension_point_timer()
            if timer is None:
                return fn(*args, **kwargs)
            start = perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                nodes = len(args[nodes_arg]) if nodes_arg is not None else 0
                timer.observe(fwk.profile_name, point, since_in_seconds(start), nodes)
        return timed  # type: ignore[return-value]
    return decorate
