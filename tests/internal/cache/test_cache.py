"""Tests of internal/cache, mirroring cache_test.go, node_tree_test.go and snapshot_test.go (v1.30)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_edu.framework.types import NodeInfo
from ksched_edu.internal.cache.cache import Cache, CacheError
from ksched_edu.internal.cache.node_tree import NodeTree
from ksched_edu.internal.cache.snapshot import Snapshot
from tests.builders import make_node, make_pod

pytestmark = pytest.mark.ch01


def zoned(name: str, zone: str, region: str = "r"):
    return make_node().name(name).label("topology.kubernetes.io/zone", zone) \
        .label("topology.kubernetes.io/region", region).obj()


# Mirrors TestNodeTree_List: zones are walked round-robin.
@pytest.mark.parametrize("name,nodes,want", [
    ("empty tree", [], []),
    ("one zone", [("n1", "a"), ("n2", "a")], ["n1", "n2"]),
    ("zones interleave", [("a1", "a"), ("a2", "a"), ("a3", "a"), ("b1", "b"), ("c1", "c"), ("c2", "c")],
     ["a1", "b1", "c1", "a2", "c2", "a3"]),
])
def test_node_tree_list(name, nodes, want):
    assert NodeTree([zoned(n, z) for n, z in nodes]).list() == want


def test_node_tree_remove_zone_when_empty():
    tree = NodeTree([zoned("a1", "a"), zoned("b1", "b")])
    tree.remove_node(zoned("a1", "a"))
    assert tree.zones == ["r:\x00:b"] and tree.list() == ["b1"]
    with pytest.raises(KeyError):
        tree.remove_node(zoned("zz", "z"))


def test_assume_then_bind_then_snapshot():
    """Mirrors TestAssumePodScheduled + TestAddPodAfterExpiration (ttl 0): assume books the room."""
    cache = Cache()
    cache.add_node(make_node().name("n1").capacity(cpu="4", memory="8Gi", pods="110").obj())
    pod = make_pod().name("p").req(cpu="1", memory="1Gi").node("n1").obj()
    cache.assume_pod(pod)
    assert cache.is_assumed_pod(pod)
    snap = Snapshot()
    cache.update_snapshot(snap)
    assert snap.get("n1").requested.milli_cpu == 1000
    cache.finish_binding(pod)
    cache.add_pod(pod)  # the API server confirms the binding
    assert not cache.is_assumed_pod(pod)
    with pytest.raises(CacheError):
        cache.forget_pod(pod)


def test_forget_releases_the_room():
    cache = Cache()
    cache.add_node(make_node().name("n1").capacity(cpu="4", memory="8Gi", pods="110").obj())
    pod = make_pod().name("p").req(cpu="1").node("n1").obj()
    cache.assume_pod(pod)
    cache.forget_pod(pod)
    snap = Snapshot()
    cache.update_snapshot(snap)
    assert snap.get("n1").requested.milli_cpu == 0 and snap.get("n1").pods == []


def test_snapshot_is_updated_incrementally_and_keeps_zone_order():
    cache = Cache()
    for name, zone in [("a1", "a"), ("a2", "a"), ("b1", "b")]:
        cache.add_node(zoned(name, zone))
    snap = Snapshot()
    cache.update_snapshot(snap)
    assert [n.name for n in snap.list()] == ["a1", "b1", "a2"]
    before = snap.get("b1")
    cache.add_pod(make_pod().name("p").node("a2").req(cpu="1").obj())
    cache.update_snapshot(snap)
    assert snap.get("b1") is before  # untouched nodes are not copied again
    assert snap.get("a2").requested.milli_cpu == 1000
    cache.remove_node(zoned("b1", "b"))
    cache.update_snapshot(snap)
    assert [n.name for n in snap.list()] == ["a1", "a2"]


def test_image_states_count_nodes():
    cache = Cache()
    for name in ("n1", "n2"):
        cache.add_node(make_node().name(name).images({"img:1": 300 * 1024 * 1024}).obj())
    snap = Snapshot()
    cache.update_snapshot(snap)
    assert snap.get("n1").image_states["img:1"].num_nodes == 2


# --- property: aggregates always equal the sum over the node's pods ----------------------

OPS = st.lists(st.tuples(st.sampled_from(["add", "assume", "remove", "forget"]), st.integers(0, 5),
                         st.sampled_from(["n1", "n2"]), st.integers(0, 4), st.integers(0, 3)), max_size=40)


def expected_requested(info: NodeInfo) -> tuple[int, int, int, int]:
    from ksched_edu.framework.types import calculate_resource

    cpu = mem = nz_cpu = nz_mem = 0
    for pi in info.pods:
        res, c, m = calculate_resource(pi.pod)
        cpu, mem, nz_cpu, nz_mem = cpu + res.milli_cpu, mem + res.memory, nz_cpu + c, nz_mem + m
    return cpu, mem, nz_cpu, nz_mem


@settings(max_examples=60, deadline=None)
@given(OPS)
def test_cache_aggregates_equal_the_sum_over_pods(ops):
    cache = Cache()
    for n in ("n1", "n2"):
        cache.add_node(make_node().name(n).capacity(cpu="8", memory="16Gi", pods="110").obj())
    live: dict[int, tuple[str, str]] = {}  # pod index -> (node, how it got there)
    for op, idx, node, cpu, mem in ops:
        builder = make_pod().name(f"p{idx}").node(node)
        if cpu:
            builder = builder.req(cpu=f"{cpu * 250}m")
        if mem:
            builder = builder.req(memory=f"{mem}Gi")
        pod = builder.obj()
        if op in ("add", "assume") and idx not in live:
            (cache.add_pod if op == "add" else cache.assume_pod)(pod)
            live[idx] = (node, op)
        elif op == "remove" and idx in live and live[idx][1] == "add":
            cache.remove_pod(cache.get_pod(pod))
            del live[idx]
        elif op == "forget" and idx in live and live[idx][1] == "assume":
            cache.forget_pod(cache.get_pod(pod))
            del live[idx]
    snap = Snapshot()
    cache.update_snapshot(snap)
    for info in snap.list():
        got = (info.requested.milli_cpu, info.requested.memory,
               info.non_zero_requested.milli_cpu, info.non_zero_requested.memory)
        assert got == expected_requested(info)
        assert len(info.pods) == sum(1 for n, _ in live.values() if n == info.name)
