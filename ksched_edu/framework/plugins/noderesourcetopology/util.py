"""Port of sigs.k8s.io/scheduler-plugins pkg/util/resource.go (commit 37b7888a).

Two resource helpers: a framework ``Resource`` (a NodeInfo's allocatable)
back to a ResourceList, and a pod's effective request, the larger of the sum
of its app containers and the largest of its init containers, resource by
resource (at this commit a restartable "sidecar" init container counts like
any other init container).
"""
from __future__ import annotations

from ....anchors import SCHEDULER_PLUGINS, ports
from ....api.quantity import BINARY_SI, DECIMAL_SI, Quantity
from ....api.types import (RESOURCE_CPU, RESOURCE_EPHEMERAL_STORAGE, RESOURCE_MEMORY, RESOURCE_PODS, Pod,
                           ResourceList)
from ...types import Resource
from .v1helper import is_huge_page_resource_name


@ports("pkg/util/resource.go", "ResourceList", 28, 43, repo=SCHEDULER_PLUGINS)
def resource_list(r: Resource) -> ResourceList:
    """The ResourceList of a Resource: cpu, memory, pods, ephemeral-storage and every scalar."""
    result: ResourceList = {
        RESOURCE_CPU: Quantity.from_milli(r.milli_cpu, DECIMAL_SI),
        RESOURCE_MEMORY: Quantity.from_int(r.memory, BINARY_SI),
        RESOURCE_PODS: Quantity.from_int(r.allowed_pod_number, BINARY_SI),
        RESOURCE_EPHEMERAL_STORAGE: Quantity.from_int(r.ephemeral_storage, BINARY_SI),
    }
    for name, value in r.scalar_resources.items():
        result[name] = Quantity.from_int(value, BINARY_SI if is_huge_page_resource_name(name) else DECIMAL_SI)
    return result


@ports("pkg/util/resource.go", "GetPodEffectiveRequest", 50, 77, repo=SCHEDULER_PLUGINS)
def get_pod_effective_request(pod: Pod) -> ResourceList:
    """Per resource: max(sum of app containers, largest init container)."""
    init_resources: ResourceList = {}
    resources: ResourceList = {}
    for container in pod.spec.init_containers:
        for name, quantity in container.resources.requests.items():
            if name in init_resources and quantity.cmp(init_resources[name]) <= 0:
                continue
            init_resources[name] = quantity
    for container in pod.spec.containers:
        for name, quantity in container.resources.requests.items():
            resources[name] = quantity + resources[name] if name in resources else quantity
    for name, quantity in init_resources.items():
        if name in resources and quantity.cmp(resources[name]) <= 0:
            continue
        resources[name] = quantity
    return resources
