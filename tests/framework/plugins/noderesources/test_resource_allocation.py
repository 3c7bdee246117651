"""Mirrors TestResourceAllocationScorerCalculateRequests in
noderesources/resource_allocation_test.go (v1.30), plus the sidecar arithmetic."""
import pytest

from ksched_edu.api.quantity import Quantity
from ksched_edu.api.resource import DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST
from ksched_edu.api.types import Container, ObjectMeta, Pod, PodSpec, ResourceRequirements
from ksched_edu.framework.plugins.noderesources.resource_allocation import ResourceAllocationScorer

ONE_MI = 1048576


def c(**req):
    return Container(name="c", resources=ResourceRequirements(requests={k: Quantity(v) for k, v in req.items()}))


def pod(containers=(), init=(), overhead=None):
    return Pod(metadata=ObjectMeta(), spec=PodSpec(
        containers=list(containers), init_containers=list(init),
        overhead={k: Quantity(v) for k, v in (overhead or {}).items()}))


OVERHEAD = {"cpu": "1", "memory": "1Mi"}

CASES = [
    ("overhead only", pod(overhead=OVERHEAD), {"cpu": 1000, "memory": ONE_MI}),
    ("1x requestless container", pod([c()]), {"cpu": DEFAULT_MILLI_CPU_REQUEST, "memory": DEFAULT_MEMORY_REQUEST}),
    ("2x requestless container", pod([c(), c()]),
     {"cpu": 2 * DEFAULT_MILLI_CPU_REQUEST, "memory": 2 * DEFAULT_MEMORY_REQUEST}),
    ("request container + requestless container", pod([c(cpu="1", memory="1Mi"), c()]),
     {"cpu": 1000 + DEFAULT_MILLI_CPU_REQUEST, "memory": ONE_MI + DEFAULT_MEMORY_REQUEST}),
    ("container + requestless container + overhead", pod([c(cpu="1", memory="1Mi"), c()], overhead=OVERHEAD),
     {"cpu": 2000 + DEFAULT_MILLI_CPU_REQUEST, "memory": 2 * ONE_MI + DEFAULT_MEMORY_REQUEST}),
    ("init container + container + requestless container + overhead",
     pod([c(cpu="1", memory="1Mi"), c()], init=[c(cpu="3")], overhead=OVERHEAD),
     {"cpu": 4000, "memory": 2 * ONE_MI + DEFAULT_MEMORY_REQUEST}),
    ("requestless init container + small init container + small container ",
     pod([c(cpu="3m", memory="3")], init=[c(), c(cpu="1m", memory="1")]),
     {"cpu": DEFAULT_MILLI_CPU_REQUEST, "memory": DEFAULT_MEMORY_REQUEST}),
    ("requestless init container + small init container + small container + requestless container ",
     pod([c(cpu="3m", memory="3"), c()], init=[c(), c(cpu="1m", memory="1")]),
     {"cpu": 3 + DEFAULT_MILLI_CPU_REQUEST, "memory": 3 + DEFAULT_MEMORY_REQUEST}),
]


@pytest.mark.parametrize("p,expected", [x[1:] for x in CASES], ids=[x[0] for x in CASES])
def test_resource_allocation_scorer_calculate_requests(p, expected):
    scorer = ResourceAllocationScorer(name="", scorer=lambda r, a: 0)
    for name, want in expected.items():
        assert scorer.calculate_pod_resource_request(p, name) == want, name


def test_use_requested_keeps_missing_requests_at_zero():
    scorer = ResourceAllocationScorer(name="", scorer=lambda r, a: 0, use_requested=True)
    assert scorer.calculate_pod_resource_request(pod([c(), c()]), "cpu") == 0
    assert scorer.calculate_pod_resource_request(pod([c()], overhead=OVERHEAD), "memory") == ONE_MI


def test_sidecar_counts_beside_containers_and_later_init_containers():
    sidecar = c(cpu="1")
    sidecar.restart_policy = "Always"
    p = pod([c(cpu="2")], init=[sidecar, c(cpu="2500m")])
    scorer = ResourceAllocationScorer(name="", scorer=lambda r, a: 0, use_requested=True)
    # max(2 + 1 (sidecar beside the app), 1 + 2.5 (sidecar beside the later init container)) = 3.5
    assert scorer.calculate_pod_resource_request(p, "cpu") == 3500
