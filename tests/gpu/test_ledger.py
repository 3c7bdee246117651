"""The ledger never gives one GPU to two pods: operations in any order, and whole simulations."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_edu.gpu.ledger import GPULedger, LedgerConflict, format_gpus, parse_gpus, replay
from ksched_edu.trace import GPUAllocationEvent

pytestmark = pytest.mark.ch08

NODES = ["n1", "n2"]
PODS = [f"p{i}" for i in range(6)]

operations = st.lists(st.one_of(
    st.tuples(st.just("hold"), st.sampled_from(NODES), st.sampled_from(PODS),
              st.lists(st.integers(0, 7), min_size=1, max_size=4)),
    st.tuples(st.just("release"), st.sampled_from(PODS)),
), max_size=40)


@settings(max_examples=200, deadline=None)
@given(ops=operations)
def test_no_gpu_has_two_holders(ops) -> None:
    ledger = GPULedger()
    model: dict[tuple[str, int], str] = {}  # (node, gpu) -> pod
    where: dict[str, tuple[str, tuple[int, ...]]] = {}  # pod -> (node, gpus)
    for op in ops:
        if op[0] == "hold":
            _, node, pod, gpus = op
            ids = tuple(sorted(gpus))
            ok = (len(set(ids)) == len(ids)
                  and (where.get(pod) in (None, (node, ids)))
                  and all(model.get((node, g), pod) == pod for g in ids))
            if ok:
                ledger.hold(node, pod, f"default/{pod}", gpus)
                where[pod] = (node, ids)
                model.update({(node, g): pod for g in ids})
            else:
                with pytest.raises(LedgerConflict):
                    ledger.hold(node, pod, f"default/{pod}", gpus)
        else:
            _, pod = op
            held = ledger.release(pod)
            expected = where.pop(pod, None)
            assert (held.node, held.gpus) == expected if held else expected is None
            model = {k: v for k, v in model.items() if v != pod}
        ledger.check()
        for node in NODES:
            assert ledger.held_on(node) == {g: f"default/{p}" for (n, g), p in sorted(model.items()) if n == node}


@pytest.mark.parametrize("name,first,second,message", [
    ("a GPU already held", ("n1", "a", [0, 1]), ("n1", "b", [1, 2]), "GPUs 1 of n1 are held by default/a"),
    ("the same pod elsewhere", ("n1", "a", [0]), ("n2", "a", [0]), "default/a already holds GPUs 0 on n1"),
    ("an id twice", ("n1", "a", [0]), ("n1", "b", [3, 3]), "GPU ids repeat"),
])
def test_conflicts(name: str, first, second, message: str) -> None:
    ledger = GPULedger()
    ledger.hold(first[0], first[1], f"default/{first[1]}", first[2])
    with pytest.raises(LedgerConflict, match=message):
        ledger.hold(second[0], second[1], f"default/{second[1]}", second[2])
    ledger.check()


def test_holding_the_same_again_is_a_no_op() -> None:
    ledger = GPULedger()
    first = ledger.hold("n1", "a", "default/a", [2, 1])
    assert ledger.hold("n1", "a", "default/a", [1, 2]) is first
    assert ledger.gpus_of("a") == (1, 2) and ledger.release("a") == first and ledger.release("a") is None


@pytest.mark.parametrize("text,ids", [("0,1,2,3", (0, 1, 2, 3)), ("3, 1", (1, 3)), ("", ())])
def test_annotation_format(text: str, ids: tuple[int, ...]) -> None:
    assert parse_gpus(text) == ids
    assert parse_gpus(format_gpus(ids)) == ids


def test_annotation_format_rejects() -> None:
    with pytest.raises(ValueError, match="not a comma-separated list"):
        parse_gpus("0,one")


def test_replay_follows_the_events() -> None:
    events = [GPUAllocationEvent(0, 0, "default/a", "n1", "hold", (0, 1)),
              GPUAllocationEvent(1, 1, "default/b", "n1", "reserve", (2,)),
              GPUAllocationEvent(2, 1, "default/b", "n1", "unreserve", (2,)),
              GPUAllocationEvent(3, 0, "default/a", "n1", "release", (0, 1))]
    states = [s for _, s in replay(["not an allocation", *events])]
    assert states == [{"n1": {0: "default/a", 1: "default/a"}},
                      {"n1": {0: "default/a", 1: "default/a", 2: "default/b"}},
                      {"n1": {0: "default/a", 1: "default/a"}},
                      {"n1": {}}]
