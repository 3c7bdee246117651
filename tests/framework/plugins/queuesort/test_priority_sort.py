"""Mirrors TestLess in queuesort/priority_sort_test.go (v1.30)."""
import pytest

from ksched_edu.framework.plugins.queuesort.priority_sort import NAME, new
from ksched_edu.framework.types import PodInfo, QueuedPodInfo
from tests.builders import make_pod

LOW, HIGH = 10, 100
T1, T2 = 1000.0, 1001.0  # t2 = t1 + 1s on the virtual clock


def qpi(priority, timestamp):
    return QueuedPodInfo(PodInfo.of(make_pod().name("p").priority(priority).obj()), timestamp=timestamp)


CASES = [
    ("p1.priority less than p2.priority", qpi(LOW, T1), qpi(HIGH, T1), False),
    ("p1.priority greater than p2.priority", qpi(HIGH, T1), qpi(LOW, T1), True),
    ("equal priority. p1 is added to schedulingQ earlier than p2", qpi(HIGH, T1), qpi(HIGH, T2), True),
    ("equal priority. p2 is added to schedulingQ earlier than p1", qpi(HIGH, T2), qpi(HIGH, T1), False),
]


@pytest.mark.parametrize("p1,p2,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_less(p1, p2, expected):
    assert new(None, None).less(p1, p2) is expected


def test_nil_priority_is_zero():
    no_priority = QueuedPodInfo(PodInfo.of(make_pod().name("p").obj()), timestamp=T1)
    assert new(None, None).less(qpi(1, T2), no_priority) is True
    assert new(None, None).name() == NAME == "PrioritySort"
