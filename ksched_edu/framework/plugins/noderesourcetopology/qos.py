"""Port of k8s.io/kubernetes/pkg/apis/core/v1/helper/qos/qos.go (v1.30).

A pod's Quality of Service class: BestEffort when no container asks for or
limits cpu or memory, Guaranteed when every container (init containers too)
limits both and the requests equal the limits, Burstable otherwise. The
kubelet gives exclusive CPUs and NUMA-pinned memory only to Guaranteed pods,
which is why the NodeResourceTopologyMatch plugin asks.

Deviations:
- Pods here carry no ``status.qosClass``; the class is computed from the spec,
  which is the value kube-apiserver would have stored at creation.
"""
from __future__ import annotations

from ....anchors import ports
from ....api.quantity import Quantity
from ....api.types import RESOURCE_CPU, RESOURCE_MEMORY, Pod, ResourceList

POD_QOS_GUARANTEED = "Guaranteed"
POD_QOS_BURSTABLE = "Burstable"
POD_QOS_BEST_EFFORT = "BestEffort"

SUPPORTED_QOS_COMPUTE_RESOURCES = frozenset({RESOURCE_CPU, RESOURCE_MEMORY})


@ports("pkg/apis/core/v1/helper/qos/qos.go", "isSupportedQoSComputeResource", 31, 33)
def is_supported_qos_compute_resource(name: str) -> bool:
    return name in SUPPORTED_QOS_COMPUTE_RESOURCES


@ports("pkg/apis/core/v1/helper/qos/qos.go", "GetPodQOS", 37, 42)
def get_pod_qos(pod: Pod) -> str:
    """The class kept in ``status.qosClass`` if the pod has one, else computed."""
    persisted = getattr(pod.status, "qos_class", "")
    if persisted:
        return persisted
    return compute_pod_qos(pod)


def _add_positive(total: ResourceList, name: str, quantity: Quantity) -> bool:
    if not is_supported_qos_compute_resource(name) or quantity.sign() <= 0:
        return False
    total[name] = quantity + total[name] if name in total else quantity
    return True


@ports("pkg/apis/core/v1/helper/qos/qos.go", "ComputePodQOS", 49, 112)
def compute_pod_qos(pod: Pod) -> str:
    """Upstream ComputePodQOS: app containers then init containers, cpu and memory only."""
    requests: ResourceList = {}
    limits: ResourceList = {}
    is_guaranteed = True
    for container in list(pod.spec.containers) + list(pod.spec.init_containers):
        for name, quantity in container.resources.requests.items():
            _add_positive(requests, name, quantity)
        limits_found = {name for name, quantity in container.resources.limits.items()
                        if _add_positive(limits, name, quantity)}
        if not {RESOURCE_MEMORY, RESOURCE_CPU} <= limits_found:
            is_guaranteed = False
    if not requests and not limits:
        return POD_QOS_BEST_EFFORT
    if is_guaranteed:
        for name, req in requests.items():
            lim = limits.get(name)
            if lim is None or lim.cmp(req) != 0:
                is_guaranteed = False
                break
    if is_guaranteed and len(requests) == len(limits):
        return POD_QOS_GUARANTEED
    return POD_QOS_BURSTABLE
