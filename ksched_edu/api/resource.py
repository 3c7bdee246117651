"""Port of pkg/api/v1/resource/helpers.go and pkg/scheduler/util/pod_resources.go (v1.30).

How much a pod asks for: the sum over its containers, the max over its init
containers (restartable sidecars count towards both), plus the pod overhead.
And the "non-zero" request the scorers use, where a container that asks for no
CPU or memory is taken to ask for 100m CPU and 200Mi memory.

Deviations:
- InPlacePodVerticalScaling is off by default in v1.30, so container statuses
  (allocated resources) are not read.
"""
from __future__ import annotations

from typing import Callable, Optional

from ..anchors import ports
from .quantity import Quantity
from .types import RESOURCE_CPU, RESOURCE_MEMORY, Container, Pod, ResourceList

CONTAINERS = "Containers"
INIT_CONTAINERS = "InitContainers"

DEFAULT_MILLI_CPU_REQUEST = 100  # 0.1 core
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024  # 200 MB

ContainerFn = Callable[[ResourceList, str], None]


def _add_resource_list(into: dict[str, Quantity], new: ResourceList) -> None:
    for name, q in new.items():
        into[name] = into[name] + q if name in into else q


def _max_resource_list(into: dict[str, Quantity], new: ResourceList) -> None:
    for name, q in new.items():
        if name not in into or q > into[name]:
            into[name] = q


def _is_restartable(c: Container) -> bool:
    return c.restart_policy == "Always"


@ports("pkg/api/v1/resource/helpers.go", "PodRequests", 50, 130)
def pod_requests(pod: Pod, container_fn: Optional[ContainerFn] = None,
                 exclude_overhead: bool = False,
                 non_missing_container_requests: Optional[ResourceList] = None) -> dict[str, Quantity]:
    """Upstream PodRequests: the effective requests of the whole pod."""
    reqs: dict[str, Quantity] = {}
    for c in pod.spec.containers:
        creqs = _apply_non_missing(c.resources.requests, non_missing_container_requests)
        if container_fn is not None:
            container_fn(creqs, CONTAINERS)
        _add_resource_list(reqs, creqs)

    restartable: dict[str, Quantity] = {}
    init_reqs: dict[str, Quantity] = {}
    for c in pod.spec.init_containers:
        creqs = _apply_non_missing(c.resources.requests, non_missing_container_requests)
        if _is_restartable(c):
            # A sidecar runs beside the app containers and beside every later init container.
            _add_resource_list(reqs, creqs)
            _add_resource_list(restartable, creqs)
            creqs = dict(restartable)
        else:
            tmp: dict[str, Quantity] = {}
            _add_resource_list(tmp, creqs)
            _add_resource_list(tmp, restartable)
            creqs = tmp
        if container_fn is not None:
            container_fn(creqs, INIT_CONTAINERS)
        _max_resource_list(init_reqs, creqs)

    _max_resource_list(reqs, init_reqs)
    if not exclude_overhead and pod.spec.overhead:
        _add_resource_list(reqs, pod.spec.overhead)
    return reqs


def _apply_non_missing(reqs: ResourceList, non_missing: Optional[ResourceList]) -> ResourceList:
    if not non_missing:
        return reqs
    out = dict(reqs)
    for name, q in non_missing.items():
        if name not in reqs:
            out[name] = q
    return out


@ports("pkg/scheduler/util/pod_resources.go", "GetRequestForResource", 51, 75)
def get_request_for_resource(name: str, requests: ResourceList, non_zero: bool) -> Quantity:
    """Upstream GetRequestForResource: cpu/memory fall back to the defaults when non_zero."""
    if name == RESOURCE_CPU:
        if name not in requests and non_zero:
            return Quantity.from_milli(DEFAULT_MILLI_CPU_REQUEST)
    elif name == RESOURCE_MEMORY:
        if name not in requests and non_zero:
            return Quantity.from_int(DEFAULT_MEMORY_REQUEST)
    return requests.get(name, Quantity.zero())


@ports("pkg/scheduler/util/pod_resources.go", "GetNonzeroRequests", 41, 46)
def get_nonzero_requests(requests: ResourceList) -> tuple[int, int]:
    """Upstream GetNonzeroRequests: (milli CPU, memory bytes) with the defaults applied."""
    cpu = get_request_for_resource(RESOURCE_CPU, requests, True)
    mem = get_request_for_resource(RESOURCE_MEMORY, requests, True)
    return cpu.milli_value(), mem.value()
