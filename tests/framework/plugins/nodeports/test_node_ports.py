"""Mirrors TestNodePorts, TestPreFilterDisabled, TestGetContainerPorts and
Test_isSchedulableAfterPodDeleted in nodeports/node_ports_test.go (v1.30)."""
import pytest

from ksched_edu.api.types import ContainerPort
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.nodeports.node_ports import ERR_REASON, NAME, get_container_ports, new
from ksched_edu.framework.types import NODE, POD, ActionType, NodeInfo, QueueingHint
from tests.builders import make_node, make_pod


def new_pod(host, *host_port_infos):
    """"PROTO/IP/PORT" strings -> a pod with one container using those host ports."""
    ports = []
    for info in host_port_infos:
        proto, ip, port = info.split("/")
        ports.append(ContainerPort(container_port=0, host_ip=ip, host_port=int(port), protocol=proto))
    return make_pod().node(host).container_port(ports).obj()


CASES = [
    # (name, pod, existing pod on the node or None, want filter reason or None)
    ("other port", new_pod("m1", "UDP/127.0.0.1/8080"), new_pod("m1", "UDP/127.0.0.1/9090"), None),
    ("same udp port", new_pod("m1", "UDP/127.0.0.1/8080"), new_pod("m1", "UDP/127.0.0.1/8080"), ERR_REASON),
    ("same tcp port", new_pod("m1", "TCP/127.0.0.1/8080"), new_pod("m1", "TCP/127.0.0.1/8080"), ERR_REASON),
    ("different host ip", new_pod("m1", "TCP/127.0.0.1/8080"), new_pod("m1", "TCP/127.0.0.2/8080"), None),
    ("different protocol", new_pod("m1", "UDP/127.0.0.1/8080"), new_pod("m1", "TCP/127.0.0.1/8080"), None),
    ("second udp port conflict", new_pod("m1", "UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"),
     new_pod("m1", "UDP/127.0.0.1/8080"), ERR_REASON),
    ("first tcp port conflict", new_pod("m1", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"),
     new_pod("m1", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"), ERR_REASON),
    ("first tcp port conflict due to 0.0.0.0 hostIP", new_pod("m1", "TCP/0.0.0.0/8001"),
     new_pod("m1", "TCP/127.0.0.1/8001"), ERR_REASON),
    ("TCP hostPort conflict due to 0.0.0.0 hostIP", new_pod("m1", "TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"),
     new_pod("m1", "TCP/127.0.0.1/8001"), ERR_REASON),
    ("second tcp port conflict to 0.0.0.0 hostIP", new_pod("m1", "TCP/127.0.0.1/8001"),
     new_pod("m1", "TCP/0.0.0.0/8001"), ERR_REASON),
    ("second different protocol", new_pod("m1", "UDP/127.0.0.1/8001"), new_pod("m1", "TCP/0.0.0.0/8001"), None),
    ("UDP hostPort conflict due to 0.0.0.0 hostIP", new_pod("m1", "UDP/127.0.0.1/8001"),
     new_pod("m1", "TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"), ERR_REASON),
]


def test_skip_filter():
    """A pod without host ports Skips at PreFilter (so its Filter never runs)."""
    result, status = new(None, None).pre_filter(CycleState(), make_pod().obj())
    assert result is None
    assert status.code == Code.Skip and status.reasons == []


@pytest.mark.parametrize("pod,existing,want_reason", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_node_ports(pod, existing, want_reason):
    pl = new(None, None)
    state = CycleState()
    result, status = pl.pre_filter(state, pod)
    assert result is None and status is None
    node_info = NodeInfo(existing)
    status = pl.filter(state, pod, node_info)
    if want_reason is None:
        assert status is None
    else:
        assert status.code == Code.Unschedulable
        assert status.reasons == ["node(s) didn't have free ports for the requested pod ports"]


def test_pre_filter_disabled():
    node_info = NodeInfo()
    node_info.set_node(make_node().obj())
    status = new(None, None).filter(CycleState(), make_pod().obj(), node_info)
    assert status.code == Code.Error
    assert status.message() == 'reading "PreFilterNodePorts" from cycleState: not found'


def test_get_container_ports():
    def tcp(port, host_port=0):
        return ContainerPort(container_port=port, host_port=host_port, protocol="TCP")

    pod1 = (make_pod().container_port([tcp(8001, 8001), tcp(8002, 8002)])
            .container_port([tcp(8003, 8003), tcp(8004, 8004)]).container_port([tcp(8005)]).obj())
    pod2 = (make_pod().container_port([tcp(8011, 8011), tcp(8012, 8012)])
            .container_port([tcp(8013, 8013), tcp(8014, 8014)]).container_port([tcp(8015)]).obj())
    got = get_container_ports(pod1, pod2)
    assert [p.host_port for p in got] == [8001, 8002, 8003, 8004, 8011, 8012, 8013, 8014]


HINT_CASES = [
    ("skip-queue-on-unscheduled", make_pod().obj(), QueueingHint.QueueSkip),
    ("skip-queue-on-non-hostport", make_pod().node("fake-node").obj(), QueueingHint.QueueSkip),
    ("skip-queue-on-unrelated-hostport", make_pod().node("fake-node").host_port(8081).obj(), QueueingHint.QueueSkip),
    ("queue-on-released-hostport", make_pod().node("fake-node").host_port(8080).obj(), QueueingHint.Queue),
]


@pytest.mark.parametrize("old_obj,want", [c[1:] for c in HINT_CASES], ids=[c[0] for c in HINT_CASES])
def test_is_schedulable_after_pod_deleted(old_obj, want):
    pod = make_pod().host_port(8080).obj()
    assert new(None, None).is_schedulable_after_pod_deleted(pod, old_obj, None) == want


def test_name_and_events():
    pl = new(None, None)
    assert pl.name() == NAME == "NodePorts"
    assert pl.pre_filter_extensions() is None
    pod_ev, node_ev = pl.events_to_register()
    assert pod_ev.event.resource == POD and pod_ev.event.action_type == ActionType.Delete
    assert pod_ev.queueing_hint_fn is not None
    assert node_ev.event.resource == NODE and node_ev.event.action_type == ActionType.Add | ActionType.Update
    assert node_ev.queueing_hint_fn is None
