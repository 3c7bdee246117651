"""Mirrors TestImageLocalityPriority and TestNormalizedImageName in
imagelocality/image_locality_test.go (v1.30)."""
import hashlib

import pytest

from ksched_edu.api.types import Container, ContainerImage, Node, NodeStatus, ObjectMeta, Pod, PodSpec
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import MAX_NODE_SCORE
from ksched_edu.framework.plugins.imagelocality.image_locality import NAME, new, normalized_image_name
from tests.fakes import FakeHandle

MB = 1024 * 1024


def spec(images, init_images=()):
    return PodSpec(containers=[Container(name=f"c{i}", image=im) for i, im in enumerate(images)],
                   init_containers=[Container(name=f"i{i}", image=im) for i, im in enumerate(init_images)])


def status(*images):
    """(names, size in MB) pairs -> a NodeStatus with those images."""
    return NodeStatus(images=[ContainerImage(names=list(names), size_bytes=size * MB) for names, size in images])


TEST_40_250 = spec(["gcr.io/40", "gcr.io/250"])
TEST_40_300 = spec(["gcr.io/40", "gcr.io/300"])
TEST_MIN_MAX = spec(["gcr.io/10", "gcr.io/4000"])
TEST_300_600_900 = spec(["gcr.io/300", "gcr.io/600", "gcr.io/900"])
TEST_30_40 = spec(["gcr.io/30", "gcr.io/40"])
TEST_30_INIT_300 = spec(["gcr.io/30"], init_images=["gcr.io/300"])

NODE_40_300_2000 = status((["gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"], 40),
                          (["gcr.io/300:latest", "gcr.io/300:v1"], 300), (["gcr.io/2000:latest"], 2000))
NODE_250_10 = status((["gcr.io/250:latest"], 250), (["gcr.io/10:latest", "gcr.io/10:v1"], 10))
NODE_600_40_900 = status((["gcr.io/600:latest"], 600), (["gcr.io/40:latest"], 40), (["gcr.io/900:latest"], 900))
NODE_300_600_900 = status((["gcr.io/300:latest"], 300), (["gcr.io/600:latest"], 600), (["gcr.io/900:latest"], 900))
NODE_4000_30 = status((["gcr.io/4000:latest"], 4000), (["gcr.io/30:latest"], 30))
NODE_20_30_40 = status((["gcr.io/20:latest"], 20), (["gcr.io/30:latest"], 30), (["gcr.io/40:latest"], 40))
NODE_WITH_NO_IMAGES = NodeStatus()


def image_node(name, st):
    return Node(metadata=ObjectMeta(name=name), status=st)


CASES = [
    ("two images spread on two nodes, prefer the larger image one", TEST_40_250,
     [image_node("node1", NODE_40_300_2000), image_node("node2", NODE_250_10)], [0, 5]),
    ("two images on one node, prefer this node", TEST_40_300,
     [image_node("node1", NODE_40_300_2000), image_node("node2", NODE_250_10)], [7, 0]),
    ("if exceed limit, use limit", TEST_MIN_MAX,
     [image_node("node1", NODE_4000_30), image_node("node2", NODE_250_10)], [MAX_NODE_SCORE, 0]),
    ("if exceed limit, use limit (with node which has no images present)", TEST_MIN_MAX,
     [image_node("node1", NODE_4000_30), image_node("node2", NODE_250_10),
      image_node("node3", NODE_WITH_NO_IMAGES)], [66, 0, 0]),
    ("pod with multiple large images, node2 is preferred", TEST_300_600_900,
     [image_node("node1", NODE_600_40_900), image_node("node2", NODE_300_600_900),
      image_node("node3", NODE_WITH_NO_IMAGES)], [32, 36, 0]),
    ("pod with multiple small images", TEST_30_40,
     [image_node("node1", NODE_20_30_40), image_node("node2", NODE_4000_30)], [1, 0]),
    ("include InitContainers: two images spread on two nodes, prefer the larger image one", TEST_30_INIT_300,
     [image_node("node1", NODE_40_300_2000), image_node("node2", NODE_20_30_40)], [6, 0]),
]


@pytest.mark.parametrize("pod_spec,nodes,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_image_locality_priority(pod_spec, nodes, expected):
    pod = Pod(metadata=ObjectMeta(name="p"), spec=pod_spec)
    pl = new(None, FakeHandle(nodes=nodes))
    got = []
    for node in nodes:
        score, st = pl.score(CycleState(), pod, node.name)
        assert st is None
        got.append(score)
    assert got == expected


def fake_digest(content):
    return "sha256:" + hashlib.sha256(content.encode()).hexdigest()


@pytest.mark.parametrize("image,expected", [
    ("root", "root:latest"),
    ("gcr.io:5000/root", "gcr.io:5000/root:latest"),
    ("root:tag", "root:tag"),
    ("root@" + fake_digest("root"), "root@" + fake_digest("root")),
], ids=["add :latest postfix 1", "add :latest postfix 2", "keep it as is 1", "keep it as is 2"])
def test_normalized_image_name(image, expected):
    assert normalized_image_name(image) == expected


def test_name_and_no_normalize():
    pl = new(None, None)
    assert pl.name() == NAME == "ImageLocality"
    assert pl.score_extensions() is None


@pytest.mark.parametrize("sizes,expected", [
    ([5 * 10**18], 100),                     # fits: capped at the 1000Mi threshold
    ([5 * 10**18, 5 * 10**18], 0),           # the int64 sum wraps negative: below the 23Mi floor
    ([2**63 - 1], 0),                        # float64(MaxInt64) is 2^63: int64() of it is MinInt64
])
def test_image_locality_int64_sums(sizes, expected):
    """Mirrors sumImageScores / scaledImageScore: an int64 sum of int64(float64) conversions."""
    images = [f"gcr.io/big{i}" for i in range(len(sizes))]
    st = NodeStatus(images=[ContainerImage(names=[f"{im}:latest"], size_bytes=s) for im, s in zip(images, sizes)])
    nodes = [image_node("node1", st)]
    pod = Pod(metadata=ObjectMeta(name="p"), spec=spec(images))
    score, status_ = new(None, FakeHandle(nodes=nodes)).score(CycleState(), pod, "node1")
    assert status_ is None and score == expected
