"""Mirrors fit_test.go (v1.30): TestEnoughRequests, TestPreFilterDisabled,
TestNotEnoughRequests, TestStorageRequests, TestRestartableInitContainers,
TestFitScore, TestEventsToRegister, Test_isSchedulableAfterPodChange,
Test_isSchedulableAfterNodeChange, TestIsFit."""
import pytest

from ksched_edu.api.types import Container, Node, NodeStatus, ObjectMeta, Pod
from ksched_edu.config.types_pluginargs import LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.noderesources.fit import (NAME, InsufficientResource, compute_pod_resource_request,
                                                            fits_request, is_extended_resource_name, is_fit, new)
from ksched_edu.framework.types import NODE, POD, ActionType, NodeInfo, QueueingHint
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle

from .util import (EXTENDED_RESOURCE_A, EXTENDED_RESOURCE_B, HUGE_PAGE_RESOURCE_A, KUBERNETES_IO_RESOURCE_A,
                   KUBERNETES_IO_RESOURCE_B, features, fit_args, make_resources, new_resource_init_pod,
                   new_resource_overhead_pod, new_resource_pod, usage)


def err_reason(name):
    return f"Insufficient {name}"


def ir(name, requested, used, capacity):
    return InsufficientResource(name, err_reason(name), requested, used, capacity)


A, B = EXTENDED_RESOURCE_A, EXTENDED_RESOURCE_B

# (name, pod, existing pod on the node, args overrides, want insufficient resources)
ENOUGH_CASES = [
    ("no resources requested always fits", Pod(metadata=ObjectMeta()),
     new_resource_pod(usage(10, 20)), {}, []),
    ("too many resources fails", new_resource_pod(usage(1, 1)), new_resource_pod(usage(10, 20)), {},
     [ir("cpu", 1, 10, 10), ir("memory", 1, 20, 20)]),
    ("too many resources fails due to init container cpu",
     new_resource_init_pod(new_resource_pod(usage(1, 1)), usage(3, 1)), new_resource_pod(usage(8, 19)), {},
     [ir("cpu", 3, 8, 10)]),
    ("too many resources fails due to highest init container cpu",
     new_resource_init_pod(new_resource_pod(usage(1, 1)), usage(3, 1), usage(2, 1)),
     new_resource_pod(usage(8, 19)), {}, [ir("cpu", 3, 8, 10)]),
    ("too many resources fails due to init container memory",
     new_resource_init_pod(new_resource_pod(usage(1, 1)), usage(1, 3)), new_resource_pod(usage(9, 19)), {},
     [ir("memory", 3, 19, 20)]),
    ("too many resources fails due to highest init container memory",
     new_resource_init_pod(new_resource_pod(usage(1, 1)), usage(1, 3), usage(1, 2)),
     new_resource_pod(usage(9, 19)), {}, [ir("memory", 3, 19, 20)]),
    ("init container fits because it's the max, not sum, of containers and init containers",
     new_resource_init_pod(new_resource_pod(usage(1, 1)), usage(1, 1)), new_resource_pod(usage(9, 19)), {}, []),
    ("multiple init containers fit because it's the max, not sum, of containers and init containers",
     new_resource_init_pod(new_resource_pod(usage(1, 1)), usage(1, 1), usage(1, 1)),
     new_resource_pod(usage(9, 19)), {}, []),
    ("both resources fit", new_resource_pod(usage(1, 1)), new_resource_pod(usage(5, 5)), {}, []),
    ("one resource memory fits", new_resource_pod(usage(2, 1)), new_resource_pod(usage(9, 5)), {},
     [ir("cpu", 2, 9, 10)]),
    ("one resource cpu fits", new_resource_pod(usage(1, 2)), new_resource_pod(usage(5, 19)), {},
     [ir("memory", 2, 19, 20)]),
    ("equal edge case", new_resource_pod(usage(5, 1)), new_resource_pod(usage(5, 19)), {}, []),
    ("equal edge case for init container", new_resource_init_pod(new_resource_pod(usage(4, 1)), usage(5, 1)),
     new_resource_pod(usage(5, 19)), {}, []),
    ("extended resource fits", new_resource_pod(usage(scalar={A: 1})), new_resource_pod(usage()), {}, []),
    ("extended resource fits for init container",
     new_resource_init_pod(new_resource_pod(usage()), usage(scalar={A: 1})), new_resource_pod(usage()), {}, []),
    ("extended resource capacity enforced", new_resource_pod(usage(1, 1, scalar={A: 10})),
     new_resource_pod(usage(0, 0, scalar={A: 0})), {}, [ir(A, 10, 0, 5)]),
    ("extended resource capacity enforced for init container",
     new_resource_init_pod(new_resource_pod(usage()), usage(1, 1, scalar={A: 10})),
     new_resource_pod(usage(0, 0, scalar={A: 0})), {}, [ir(A, 10, 0, 5)]),
    ("extended resource allocatable enforced", new_resource_pod(usage(1, 1, scalar={A: 1})),
     new_resource_pod(usage(0, 0, scalar={A: 5})), {}, [ir(A, 1, 5, 5)]),
    ("extended resource allocatable enforced for init container",
     new_resource_init_pod(new_resource_pod(usage()), usage(1, 1, scalar={A: 1})),
     new_resource_pod(usage(0, 0, scalar={A: 5})), {}, [ir(A, 1, 5, 5)]),
    ("extended resource allocatable enforced for multiple containers",
     new_resource_pod(usage(1, 1, scalar={A: 3}), usage(1, 1, scalar={A: 3})),
     new_resource_pod(usage(0, 0, scalar={A: 2})), {}, [ir(A, 6, 2, 5)]),
    ("extended resource allocatable admits multiple init containers",
     new_resource_init_pod(new_resource_pod(usage()), usage(1, 1, scalar={A: 3}), usage(1, 1, scalar={A: 3})),
     new_resource_pod(usage(0, 0, scalar={A: 2})), {}, []),
    ("extended resource allocatable enforced for multiple init containers",
     new_resource_init_pod(new_resource_pod(usage()), usage(1, 1, scalar={A: 6}), usage(1, 1, scalar={A: 3})),
     new_resource_pod(usage(0, 0, scalar={A: 2})), {}, [ir(A, 6, 2, 5)]),
    ("extended resource allocatable enforced for unknown resource", new_resource_pod(usage(1, 1, scalar={B: 1})),
     new_resource_pod(usage(0, 0)), {}, [ir(B, 1, 0, 0)]),
    ("extended resource allocatable enforced for unknown resource for init container",
     new_resource_init_pod(new_resource_pod(usage()), usage(1, 1, scalar={B: 1})),
     new_resource_pod(usage(0, 0)), {}, [ir(B, 1, 0, 0)]),
    ("kubernetes.io resource capacity enforced", new_resource_pod(usage(1, 1, scalar={KUBERNETES_IO_RESOURCE_A: 10})),
     new_resource_pod(usage(0, 0)), {}, [ir(KUBERNETES_IO_RESOURCE_A, 10, 0, 0)]),
    ("kubernetes.io resource capacity enforced for init container",
     new_resource_init_pod(new_resource_pod(usage()), usage(1, 1, scalar={KUBERNETES_IO_RESOURCE_B: 10})),
     new_resource_pod(usage(0, 0)), {}, [ir(KUBERNETES_IO_RESOURCE_B, 10, 0, 0)]),
    ("hugepages resource capacity enforced", new_resource_pod(usage(1, 1, scalar={HUGE_PAGE_RESOURCE_A: 10})),
     new_resource_pod(usage(0, 0, scalar={HUGE_PAGE_RESOURCE_A: 0})), {}, [ir(HUGE_PAGE_RESOURCE_A, 10, 0, 5)]),
    ("hugepages resource capacity enforced for init container",
     new_resource_init_pod(new_resource_pod(usage()), usage(1, 1, scalar={HUGE_PAGE_RESOURCE_A: 10})),
     new_resource_pod(usage(0, 0, scalar={HUGE_PAGE_RESOURCE_A: 0})), {}, [ir(HUGE_PAGE_RESOURCE_A, 10, 0, 5)]),
    ("hugepages resource allocatable enforced for multiple containers",
     new_resource_pod(usage(1, 1, scalar={HUGE_PAGE_RESOURCE_A: 3}), usage(1, 1, scalar={HUGE_PAGE_RESOURCE_A: 3})),
     new_resource_pod(usage(0, 0, scalar={HUGE_PAGE_RESOURCE_A: 2})), {}, [ir(HUGE_PAGE_RESOURCE_A, 6, 2, 5)]),
    ("skip checking ignored extended resource", new_resource_pod(usage(1, 1, scalar={B: 1})),
     new_resource_pod(usage(0, 0)), {"ignored_resources": ("example.com/bbb",)}, []),
    ("resources + pod overhead fits",
     new_resource_overhead_pod(new_resource_pod(usage(1, 1)), {"cpu": "3m", "memory": "13"}),
     new_resource_pod(usage(5, 5)), {}, []),
    ("requests + overhead does not fit for memory",
     new_resource_overhead_pod(new_resource_pod(usage(1, 1)), {"cpu": "1m", "memory": "15"}),
     new_resource_pod(usage(5, 5)), {}, [ir("memory", 16, 5, 20)]),
    ("skip checking ignored extended resource via resource groups",
     new_resource_pod(usage(1, 1, scalar={B: 1, KUBERNETES_IO_RESOURCE_A: 1})),
     new_resource_pod(usage(0, 0)), {"ignored_resource_groups": ("example.com",)},
     [ir(KUBERNETES_IO_RESOURCE_A, 1, 0, 0)]),
    ("skip checking extended resource request with quantity zero via resource groups",
     new_resource_pod(usage(1, 1, scalar={A: 0})), new_resource_pod(usage(0, 0, scalar={A: 6})), {}, []),
    ("skip checking resource request with quantity zero",
     new_resource_pod(usage(scalar={A: 1})), new_resource_pod(usage(20, 30, scalar={A: 1})), {}, []),
]


def node_info_with(existing, allocatable):
    node_info = NodeInfo(*([existing] if existing else []))
    node_info.set_node(Node(metadata=ObjectMeta(name="n"), status=NodeStatus(capacity=dict(allocatable),
                                                                             allocatable=dict(allocatable))))
    return node_info


def run_filter(pl, pod, node_info):
    state = CycleState()
    result, status = pl.pre_filter(state, pod)
    assert result is None and status is None
    return pl.filter(state, pod, node_info)


@pytest.mark.parametrize("pod,existing,args,want", [c[1:] for c in ENOUGH_CASES], ids=[c[0] for c in ENOUGH_CASES])
def test_enough_requests(pod, existing, args, want):
    node_info = node_info_with(existing, make_resources(10, 20, 32, 5, 20, 5))
    pl = new(fit_args(**args), None)
    status = run_filter(pl, pod, node_info)
    if want:
        assert status.code == Code.Unschedulable
        assert status.reasons == [r.reason for r in want]
    else:
        assert status is None
    got = fits_request(compute_pod_resource_request(pod), node_info, pl.ignored_resources,
                       pl.ignored_resource_groups)
    assert got == want


def test_pre_filter_disabled():
    node_info = NodeInfo()
    node_info.set_node(Node(metadata=ObjectMeta()))
    status = new(fit_args(), None).filter(CycleState(), Pod(metadata=ObjectMeta()), node_info)
    assert status.code == Code.Error
    assert status.message() == 'error reading "PreFilterNodeResourcesFit" from cycleState: not found'


NOT_ENOUGH_CASES = [
    ("even without specified resources, predicate fails when there's no space for additional pod",
     Pod(metadata=ObjectMeta()), new_resource_pod(usage(10, 20))),
    ("even if both resources fit, predicate fails when there's no space for additional pod",
     new_resource_pod(usage(1, 1)), new_resource_pod(usage(5, 5))),
    ("even for equal edge case, predicate fails when there's no space for additional pod",
     new_resource_pod(usage(5, 1)), new_resource_pod(usage(5, 19))),
    ("even for equal edge case, predicate fails when there's no space for additional pod due to init container",
     new_resource_init_pod(new_resource_pod(usage(5, 1)), usage(5, 1)), new_resource_pod(usage(5, 19))),
]


@pytest.mark.parametrize("pod,existing", [c[1:] for c in NOT_ENOUGH_CASES], ids=[c[0] for c in NOT_ENOUGH_CASES])
def test_not_enough_requests(pod, existing):
    node_info = node_info_with(existing, make_resources(10, 20, 1, 0, 0, 0))
    status = run_filter(new(fit_args(), None), pod, node_info)
    assert status.code == Code.Unschedulable
    assert status.reasons == ["Too many pods"]


STORAGE_CASES = [
    ("empty storage requested, and pod fits", new_resource_pod(usage(1, 1)), new_resource_pod(usage(2, 10)), None),
    ("storage ephemeral local storage request exceeds allocatable", new_resource_pod(usage(ephemeral_storage=25)),
     new_resource_pod(usage(2, 2)), "Insufficient ephemeral-storage"),
    ("ephemeral local storage is sufficient", new_resource_init_pod(new_resource_pod(usage(ephemeral_storage=5))),
     new_resource_pod(usage(2, 2, ephemeral_storage=10)), None),
    ("pod fits", new_resource_pod(usage(ephemeral_storage=10)), new_resource_pod(usage(2, 2)), None),
]


@pytest.mark.parametrize("pod,existing,want_reason", [c[1:] for c in STORAGE_CASES], ids=[c[0] for c in STORAGE_CASES])
def test_storage_requests(pod, existing, want_reason):
    node_info = node_info_with(existing, make_resources(10, 20, 32, 5, 20, 5))
    status = run_filter(new(fit_args(), None), pod, node_info)
    if want_reason is None:
        assert status is None
    else:
        assert status.code == Code.Unschedulable and status.reasons == [want_reason]


def pod_with_restartable_init_containers():
    pod = Pod(metadata=ObjectMeta())
    pod.spec.containers = [Container(name="regular")]
    pod.spec.init_containers = [Container(name="restartable-init", restart_policy="Always")]
    return pod


def plain_pod():
    pod = Pod(metadata=ObjectMeta())
    pod.spec.containers = [Container(name="regular")]
    return pod


SIDECAR_CASES = [
    ("allow pod without restartable init containers if sidecar containers is disabled", plain_pod(), False, None),
    ("not allow pod with restartable init containers if sidecar containers is disabled",
     pod_with_restartable_init_containers(), False,
     "Pod has a restartable init container and the SidecarContainers feature is disabled"),
    ("allow pod without restartable init containers if sidecar containers is enabled", plain_pod(), True, None),
    ("allow pod with restartable init containers if sidecar containers is enabled",
     pod_with_restartable_init_containers(), True, None),
]


@pytest.mark.parametrize("pod,enable_sidecars,want_reason", [c[1:] for c in SIDECAR_CASES],
                         ids=[c[0] for c in SIDECAR_CASES])
def test_restartable_init_containers(pod, enable_sidecars, want_reason):
    node_info = NodeInfo()
    node_info.set_node(Node(metadata=ObjectMeta(), status=NodeStatus(allocatable=make_resources(0, 0, 1, 0, 0, 0))))
    pl = new(fit_args(), None, features(sidecars=enable_sidecars))
    state = CycleState()
    _, status = pl.pre_filter(state, pod)
    if want_reason is not None:
        assert status.code == Code.UnschedulableAndUnresolvable and status.reasons == [want_reason]
        return
    assert status is None
    assert pl.filter(state, pod, node_info) is None


def test_default_features_enable_sidecars():
    """v1.30 turns SidecarContainers on: the default plugin accepts restartable init containers."""
    pl = new(fit_args(), None)
    assert pl.enable_sidecar_containers and not pl.enable_in_place_pod_vertical_scaling
    assert pl.pre_filter(CycleState(), pod_with_restartable_init_containers()) == (None, None)


def score_nodes():
    return [make_node().name("node1").capacity(cpu="4000", memory="10000").obj(),
            make_node().name("node2").capacity(cpu="6000", memory="10000").obj()]


def score_existing():
    return [make_pod().node("node1").req(cpu="2000", memory="4000").obj(),
            make_pod().node("node2").req(cpu="1000", memory="2000").obj()]


FIT_SCORE_CASES = [
    ("test case for ScoringStrategy RequestedToCapacityRatio case1", {"cpu": "3000", "memory": "5000"},
     fit_args(REQUESTED_TO_CAPACITY_RATIO, shape=[(0, 10), (100, 0)]), [10, 32], True),
    ("test case for ScoringStrategy RequestedToCapacityRatio case2", {"cpu": "3000", "memory": "5000"},
     fit_args(REQUESTED_TO_CAPACITY_RATIO, shape=[(0, 0), (100, 10)]), [95, 68], True),
    ("test case for ScoringStrategy MostAllocated", {"cpu": "1000", "memory": "2000"},
     fit_args(MOST_ALLOCATED), [67, 36], True),
    ("test case for ScoringStrategy LeastAllocated", {"cpu": "1000", "memory": "2000"},
     fit_args(LEAST_ALLOCATED), [32, 63], True),
    ("test case for ScoringStrategy RequestedToCapacityRatio case1 if PreScore is not called",
     {"cpu": "3000", "memory": "5000"}, fit_args(REQUESTED_TO_CAPACITY_RATIO, shape=[(0, 10), (100, 0)]), [10, 32],
     False),
    ("test case for ScoringStrategy MostAllocated if PreScore is not called", {"cpu": "1000", "memory": "2000"},
     fit_args(MOST_ALLOCATED), [67, 36], False),
    ("test case for ScoringStrategy LeastAllocated if PreScore is not called", {"cpu": "1000", "memory": "2000"},
     fit_args(LEAST_ALLOCATED), [32, 63], False),
]


@pytest.mark.parametrize("req,args,expected,run_pre_score", [c[1:] for c in FIT_SCORE_CASES],
                         ids=[c[0] for c in FIT_SCORE_CASES])
def test_fit_score(req, args, expected, run_pre_score):
    nodes = score_nodes()
    handle = FakeHandle(pods=score_existing(), nodes=nodes)
    pl = new(args, handle)
    pod = make_pod().req(req).obj()
    state = CycleState()
    got = []
    for n in nodes:
        if run_pre_score:
            assert pl.pre_score(state, pod, handle.snapshot.list()) is None
        score, status = pl.score(state, pod, n.name)
        assert status is None
        got.append(score)
    assert got == expected


def test_score_unknown_node_is_an_error():
    score, status = new(fit_args(), FakeHandle(nodes=score_nodes())).score(CycleState(), make_pod().obj(), "nope")
    assert score == 0 and status.code == Code.Error
    assert status.message().startswith('getting node "nope" from Snapshot: ')


@pytest.mark.parametrize("in_place,want_pod_action", [
    (True, ActionType.Update | ActionType.Delete),
    (False, ActionType.Delete),
], ids=["Register events with InPlacePodVerticalScaling feature enabled",
        "Register events with InPlacePodVerticalScaling feature disabled"])
def test_events_to_register(in_place, want_pod_action):
    pod_ev, node_ev = new(fit_args(), None, features(in_place=in_place)).events_to_register()
    assert (pod_ev.event.resource, pod_ev.event.action_type) == (POD, want_pod_action)
    assert (node_ev.event.resource, node_ev.event.action_type) == (NODE, ActionType.Add | ActionType.Update)
    assert pod_ev.queueing_hint_fn is not None and node_ev.queueing_hint_fn is not None


POD_CHANGE_CASES = [
    ("queue-on-other-pod-deleted", make_pod().name("pod1").req(cpu="1").obj(),
     make_pod().name("pod2").req(cpu="1").node("fake").obj(), None, True, QueueingHint.Queue),
    ("skip-queue-on-unscheduled-pod-deleted", make_pod().obj(), make_pod().obj(), None, True,
     QueueingHint.QueueSkip),
    ("skip-queue-on-disable-inplace-pod-vertical-scaling", make_pod().name("pod1").req(cpu="1").obj(),
     make_pod().name("pod2").req(cpu="2").node("fake").obj(),
     make_pod().name("pod2").req(cpu="1").node("fake").obj(), False, QueueingHint.QueueSkip),
    ("skip-queue-on-other-unscheduled-pod", make_pod().name("pod1").req(cpu="1").uid("uid0").obj(),
     make_pod().name("pod2").req(cpu="2").uid("uid1").obj(),
     make_pod().name("pod2").req(cpu="1").uid("uid1").obj(), True, QueueingHint.QueueSkip),
    ("skip-queue-on-other-pod-non-resource-changes", make_pod().obj(),
     make_pod().name("pod2").label("k", "v").node("fake").obj(),
     make_pod().name("pod2").label("foo", "bar").node("fake").obj(), True, QueueingHint.QueueSkip),
    ("skip-queue-on-other-pod-unrelated-resource-changes", make_pod().name("pod1").req(cpu="1").obj(),
     make_pod().name("pod2").req(memory="2").node("fake").obj(),
     make_pod().name("pod2").req(memory="1").node("fake").obj(), True, QueueingHint.QueueSkip),
    ("skip-queue-on-other-pod-resource-scale-up", make_pod().name("pod1").req(cpu="1").obj(),
     make_pod().name("pod2").req(cpu="1").node("fake").obj(),
     make_pod().name("pod2").req(cpu="2").node("fake").obj(), True, QueueingHint.QueueSkip),
    ("queue-on-other-pod-some-resource-scale-down", make_pod().name("pod1").req(cpu="1").obj(),
     make_pod().name("pod2").req(cpu="2").node("fake").obj(),
     make_pod().name("pod2").req(cpu="1").node("fake").obj(), True, QueueingHint.Queue),
]


@pytest.mark.parametrize("pod,old_obj,new_obj,in_place,want", [c[1:] for c in POD_CHANGE_CASES],
                         ids=[c[0] for c in POD_CHANGE_CASES])
def test_is_schedulable_after_pod_change(pod, old_obj, new_obj, in_place, want):
    pl = new(fit_args(), None, features(in_place=in_place))
    assert pl.is_schedulable_after_pod_change(pod, old_obj, new_obj) == want


NODE_CHANGE_CASES = [
    ("skip-queue-on-node-add-without-sufficient-resources", new_resource_pod(usage(memory=2)), None,
     make_node().capacity(memory="1").obj(), QueueingHint.QueueSkip),
    ("skip-queue-on-node-add-without-required-resource-type", new_resource_pod(usage(scalar={A: 1})), None,
     make_node().capacity({B: "1"}).obj(), QueueingHint.QueueSkip),
    ("queue-on-node-add-with-sufficient-resources", new_resource_pod(usage(memory=2, scalar={A: 1})), None,
     make_node().capacity({"memory": "4", A: "2"}).obj(), QueueingHint.Queue),
    ("skip-queue-on-node-changes-from-suitable-to-unsuitable", new_resource_pod(usage(memory=2, scalar={A: 1})),
     make_node().capacity({"memory": "4", A: "2"}).obj(), make_node().capacity({"memory": "1", A: "2"}).obj(),
     QueueingHint.QueueSkip),
    ("queue-on-node-changes-from-unsuitable-to-suitable", new_resource_pod(usage(memory=2, scalar={A: 1})),
     make_node().capacity({"memory": "1", A: "2"}).obj(), make_node().capacity({"memory": "4", A: "2"}).obj(),
     QueueingHint.Queue),
]


@pytest.mark.parametrize("pod,old_obj,new_obj,want", [c[1:] for c in NODE_CHANGE_CASES],
                         ids=[c[0] for c in NODE_CHANGE_CASES])
def test_is_schedulable_after_node_change(pod, old_obj, new_obj, want):
    assert new(fit_args(), None).is_schedulable_after_node_change(pod, old_obj, new_obj) == want


@pytest.mark.parametrize("pod,node,expected", [
    (make_pod().obj(), None, False),
    (make_pod().req(cpu="2").obj(), make_node().capacity(cpu="1").obj(), False),
    (make_pod().req(cpu="1").obj(), make_node().capacity(cpu="2").obj(), True),
], ids=["nil node", "insufficient resource", "sufficient resource"])
def test_is_fit(pod, node, expected):
    assert is_fit(pod, node) is expected


@pytest.mark.parametrize("name,expected", [
    ("example.com/aaa", True), ("nvidia.com/gpu", True), ("cpu", False), ("hugepages-2Mi", False),
    ("kubernetes.io/something", False), ("subdomain.kubernetes.io/something", False),
    ("requests.example.com/aaa", False), ("Bad_Domain/x", False),
])
def test_is_extended_resource_name(name, expected):
    assert is_extended_resource_name(name) is expected


def test_new_rejects_args():
    with pytest.raises(ValueError, match="^scoring strategy not specified$"):
        new(fit_args().__class__(), None)


@pytest.mark.parametrize("resources,want", [
    ([("memory", -1), ("cpu", 1)],
     "scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of memory not in valid range (0, 100]"),
    ([("memory", 1), ("cpu", 0)],
     "scoringStrategy.resources[1].weight: Invalid value: 0: resource weight of cpu not in valid range (0, 100]"),
    ([("memory", 1), ("cpu", 101)],
     "scoringStrategy.resources[1].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]"),
], ids=["resource with negative weight", "resource with zero weight", "resource weight larger than MaxNodeScore"])
def test_new_validates_weights(resources, want):
    from ksched_edu.config.types_pluginargs import ResourceSpec
    with pytest.raises(ValueError) as exc:
        new(fit_args(resources=[ResourceSpec(n, w) for n, w in resources]), None)
    assert str(exc.value) == want


def test_name_and_extensions():
    pl = new(fit_args(), None)
    assert pl.name() == NAME == "NodeResourcesFit"
    assert pl.pre_filter_extensions() is None
    assert pl.score_extensions() is None


def test_new_rejects_unsupported_strategy():
    """The text the real scheduler prints after 'initializing plugin "NodeResourcesFit": '
    (conformance case config-invalid-bad-strategy)."""
    with pytest.raises(ValueError) as exc:
        new(fit_args("Cheapest"), None)
    assert str(exc.value) == ('scoringStrategy.type: Unsupported value: "Cheapest": supported values: '
                              '"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"')


def test_new_rejects_shape_out_of_range():
    """Several errors print as one bracketed list (conformance case config-invalid-rtcr-shape)."""
    from ksched_edu.config.types_pluginargs import ResourceSpec
    with pytest.raises(ValueError) as exc:
        new(fit_args(REQUESTED_TO_CAPACITY_RATIO, resources=[ResourceSpec("cpu", 1)], shape=[(0, 0), (120, 11)]),
            None)
    assert str(exc.value) == ("[scoringStrategy.shape[1].utilization: Invalid value: 120: not in valid range [0, 100], "
                              "scoringStrategy.shape[1].score: Invalid value: 11: not in valid range [0, 10]]")
