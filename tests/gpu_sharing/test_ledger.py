"""The shared-GPU ledger: GPU choice (open-gpu-share's AllocateGpuId) and the whole-GPU invariant."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_edu.gpu.sharing.gpushare_utils import MILLI, SHARE_GPU_TAG
from ksched_edu.gpu.sharing.ledger import GpuLedger, LedgerError

from .util import gpu_node

pytestmark = pytest.mark.ch10


def ledger_with(used: list[int]) -> tuple[GpuLedger, object]:
    """A ledger with one node whose GPU i already has ``used[i]`` milli taken."""
    node = gpu_node("n", gpus=len(used))
    ledger = GpuLedger()
    for i, milli in enumerate(used):
        if milli:
            ledger.add_or_update_pod(f"u{i}", f"ns/u{i}", node, str(i), milli, SHARE_GPU_TAG)
    return ledger, node


ALLOCATE = [
    ("tightest GPU that fits", [0, 600, 300, 0], 1, 400, ("1", True)),
    ("first of equally tight", [500, 500], 1, 500, ("0", True)),
    ("no GPU has room", [700, 900], 1, 400, ("", False)),
    ("whole GPUs: the free ones in device order", [0, 100, 0, 0], 2, 1000, ("0-2", True)),
    ("not enough free GPUs", [0, 100, 0, 100], 3, 1000, ("", False)),
    ("shares of several GPUs stack on one device", [0, 0], 2, 300, ("0-0", True)),
    ("no request", [0], 1, 0, ("", False)),
]


@pytest.mark.parametrize("name,used,num,milli,want", ALLOCATE, ids=[c[0] for c in ALLOCATE])
def test_allocate_gpu_id(name, used, num, milli, want):
    ledger, node = ledger_with(used)
    assert ledger.get_gpu_node_info(node).allocate_gpu_id(num, milli) == want


def test_allocate_honours_gpu_ids_the_pod_names():
    ledger, node = ledger_with([0, 800])
    info = ledger.get_gpu_node_info(node)
    assert info.allocate_gpu_id(1, 300, preset_id="0") == ("0", True)
    assert info.allocate_gpu_id(1, 300, preset_id="1") == ("", False)


def test_a_node_without_gpus_hosts_no_gpu_pod():
    ledger = GpuLedger()
    assert ledger.get_gpu_node_info(gpu_node("c", gpus=0)).allocate_gpu_id(1, 100) == ("", False)


def test_adding_past_a_whole_gpu_raises_and_changes_nothing():
    ledger, node = ledger_with([700, 0])
    with pytest.raises(LedgerError, match="GPU 0 of node n has 300m left"):
        ledger.add_or_update_pod("p", "ns/p", node, "0-1", 400, SHARE_GPU_TAG)
    assert ledger.get_gpu_node_info(node).milli_gpu_left_list() == [300, 1000]
    assert not ledger.known_pod("p")


def test_remove_frees_the_gpus_and_the_affinity():
    ledger, node = ledger_with([0, 0])
    ledger.add_or_update_pod("p", "ns/p", node, "0-1", 1000, "2-gpu")
    info = ledger.get_gpu_node_info(node)
    assert (info.milli_gpu_left_list(), dict(info.affinity), ledger.used_gpu_milli) == ([0, 0], {"2-gpu": 1}, 2000)
    assert ledger.pod_gpu_ids("p") == "0-1"
    assert ledger.remove_pod("p") == "n"
    assert (info.milli_gpu_left_list(), dict(info.affinity), ledger.used_gpu_milli) == ([1000, 1000], {}, 0)
    assert ledger.remove_pod("p") is None


# A step: ("add", GPUs wanted, milli each) placed where allocate_gpu_id says, or ("remove", which pod).
steps = st.lists(st.one_of(
    st.tuples(st.just("add"), st.integers(1, 3), st.integers(1, 1000)),
    st.tuples(st.just("force"), st.integers(0, 3), st.integers(1, 1000)),
    st.tuples(st.just("update"), st.integers(0, 50), st.integers(1, 1000)),
    st.tuples(st.just("remove"), st.integers(0, 50), st.just(0)),
), max_size=60)


@settings(max_examples=150, deadline=None)
@given(steps)
def test_the_ledger_never_hands_out_more_than_a_whole_gpu(ops):
    node = gpu_node("n", gpus=4)
    ledger = GpuLedger()
    info = ledger.get_gpu_node_info(node)
    live: list[str] = []
    for k, (op, a, b) in enumerate(ops):
        uid = f"p{k}"
        if op == "add":
            gpu_id, found = info.allocate_gpu_id(a, b)
            if found:
                ledger.add_or_update_pod(uid, uid, node, gpu_id, b, SHARE_GPU_TAG)
                live.append(uid)
        elif op == "force":  # a write that ignores allocate_gpu_id: refused when it would overflow
            before = info.milli_gpu_left_list()
            try:
                ledger.add_or_update_pod(uid, uid, node, str(a), b, SHARE_GPU_TAG)
                live.append(uid)
            except LedgerError:
                assert info.milli_gpu_left_list() == before
        elif op == "update" and live:  # move a pod to GPU a % 4 with a new share: all or nothing
            before = (info.milli_gpu_left_list(), ledger.used_gpu_milli)
            try:
                ledger.add_or_update_pod(live[a % len(live)], "x", node, str(a % 4), b, SHARE_GPU_TAG)
            except LedgerError:
                assert (info.milli_gpu_left_list(), ledger.used_gpu_milli) == before
        elif op == "remove" and live:
            ledger.remove_pod(live.pop(a % len(live)))
        used = [MILLI - left for left in info.milli_gpu_left_list()]
        assert all(0 <= u <= MILLI for u in used)
        assert sum(used) == ledger.used_gpu_milli
        assert sum(d.used_milli for d in info.devs) == sum(m for d in info.devs for _, m in d.pods.values())
