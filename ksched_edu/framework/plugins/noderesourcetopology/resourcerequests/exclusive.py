"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/resourcerequests/exclusive.go (commit 37b7888a).

Which requests the kubelet serves from a specific NUMA node: devices and
other extended resources always, and for Guaranteed pods integral CPUs,
memory and hugepages. A BestEffort pod that asks for no such thing is left
alone by the filter.
"""
from __future__ import annotations

from .....anchors import SCHEDULER_PLUGINS, ports
from .....api.quantity import Quantity
from .....api.types import RESOURCE_CPU, RESOURCE_MEMORY, Container, Pod
from ..qos import POD_QOS_GUARANTEED, get_pod_qos
from ..v1helper import is_huge_page_resource_name, is_native_resource


@ports("pkg/noderesourcetopology/resourcerequests/exclusive.go", "IncludeNonNative", 26, 42, repo=SCHEDULER_PLUGINS)
def include_non_native(pod: Pod) -> bool:
    """Whether any container (init containers first) requests a non-native resource."""
    for container in list(pod.spec.init_containers) + list(pod.spec.containers):
        for resource in container.resources.requests:
            if not is_native_resource(resource):
                return True
    return False


@ports("pkg/noderesourcetopology/resourcerequests/exclusive.go", "AreExclusiveForPod", 43, 46, repo=SCHEDULER_PLUGINS)
def are_exclusive_for_pod(pod: Pod) -> bool:
    qos = get_pod_qos(pod)
    return are_exclusive_for_any_container(qos, list(pod.spec.init_containers) + list(pod.spec.containers))


@ports("pkg/noderesourcetopology/resourcerequests/exclusive.go", "areExclusiveForAnyContainer", 48, 57, repo=SCHEDULER_PLUGINS)
def are_exclusive_for_any_container(qos: str, containers: list[Container]) -> bool:
    return any(is_exclusive(qos, resource, quantity)
               for ctr in containers for resource, quantity in ctr.resources.requests.items())


@ports("pkg/noderesourcetopology/resourcerequests/exclusive.go", "IsExclusive", 59, 81, repo=SCHEDULER_PLUGINS)
def is_exclusive(qos: str, resource: str, quantity: Quantity) -> bool:
    if not is_native_resource(resource):
        return True  # devices are not shareable
    if qos != POD_QOS_GUARANTEED:
        return False
    if resource == RESOURCE_CPU:
        # an integral number of CPUs gets exclusive cores
        if quantity.value() * 1000 == quantity.milli_value() and quantity.value() > 0:
            return True
    if resource == RESOURCE_MEMORY or is_huge_page_resource_name(resource):
        if quantity.value() > 0:
            return True
    return False
