"""Port of pkg/scheduler/framework/plugins/imagelocality/image_locality.go (v1.30).

ImageLocality favours nodes that already hold the pod's container images, so
the pod starts without a long pull. Each image present counts its size, scaled
by the share of nodes that have it (a widely spread image says little about
this node), and the sum is mapped between 23Mi and 1000Mi per container onto
0..100.
"""
from __future__ import annotations

import functools
from typing import Any, Optional

from .... import goint
from ....anchors import ports
from ....api.types import Pod
from ...cycle_state import CycleState
from ...interface import MAX_NODE_SCORE, Status
from ...types import ImageStateSummary, NodeInfo
from ..names import IMAGE_LOCALITY

NAME = IMAGE_LOCALITY

# Extension points: Score.

# Bounds of the image-size range that scores: 90% of images on Docker Hub fall in it.
MB = 1024 * 1024
MIN_THRESHOLD = 23 * MB
MAX_CONTAINER_THRESHOLD = 1000 * MB


@ports("pkg/scheduler/framework/plugins/imagelocality/image_locality.go", "ImageLocality", 39, 41)
class ImageLocality:
    def __init__(self, handle: Any) -> None:
        self.handle = handle

    @ports("pkg/scheduler/framework/plugins/imagelocality/image_locality.go", "(*ImageLocality).Name", 49, 51)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/imagelocality/image_locality.go", "(*ImageLocality).Score", 54, 70)
    def score(self, state: CycleState, pod: Pod, node_name: str) -> tuple[int, Optional[Status]]:
        lister = self.handle.snapshot_shared_lister().node_infos()
        try:
            node_info = lister.get(node_name)
        except Exception as err:  # upstream: Get returns an error
            return 0, Status.as_status(f'getting node "{node_name}" from Snapshot: {err}')

        total_num_nodes = len(lister.list())
        image_scores = sum_image_scores(node_info, pod, total_num_nodes)
        score = calculate_priority(image_scores, len(pod.spec.init_containers) + len(pod.spec.containers))
        return score, None

    @ports("pkg/scheduler/framework/plugins/imagelocality/image_locality.go", "(*ImageLocality).ScoreExtensions", 73, 75)
    def score_extensions(self) -> None:
        return None


@ports("pkg/scheduler/framework/plugins/imagelocality/image_locality.go", "New", 78, 80)
def new(args: Any, handle: Any) -> ImageLocality:
    return ImageLocality(handle)


@ports("pkg/scheduler/framework/plugins/imagelocality/image_locality.go", "calculatePriority", 84, 93)
def calculate_priority(sum_scores: int, num_containers: int) -> int:
    """Clamp ``sum_scores`` to [MIN_THRESHOLD, MAX_CONTAINER_THRESHOLD * containers]
    and map that range linearly onto 0..MAX_NODE_SCORE."""
    max_threshold = MAX_CONTAINER_THRESHOLD * num_containers
    if sum_scores < MIN_THRESHOLD:
        sum_scores = MIN_THRESHOLD
    elif sum_scores > max_threshold:
        sum_scores = max_threshold

    # Numerator >= 0; with no containers it is 0, so the negative range gives 0 too.
    return MAX_NODE_SCORE * (sum_scores - MIN_THRESHOLD) // (max_threshold - MIN_THRESHOLD)


@ports("pkg/scheduler/framework/plugins/imagelocality/image_locality.go", "sumImageScores", 98, 111)
def sum_image_scores(node_info: NodeInfo, pod: Pod, total_num_nodes: int) -> int:
    """Sum the scaled score of every init and app container image already on the node."""
    if not node_info.image_states:  # no image on the node (speed only: the loops below add nothing)
        return 0
    total = 0
    for container in pod.spec.init_containers:
        state = node_info.image_states.get(normalized_image_name(container.image))
        if state is not None:
            total += scaled_image_score(state, total_num_nodes)
    for container in pod.spec.containers:
        state = node_info.image_states.get(normalized_image_name(container.image))
        if state is not None:
            total += scaled_image_score(state, total_num_nodes)
    # upstream sums in int64: images near MaxInt64 bytes wrap (wrapping once at the end
    # gives the same low 64 bits as wrapping each step).
    return total if goint.MIN_INT64 <= total <= goint.MAX_INT64 else goint.wrap64(total)


@ports("pkg/scheduler/framework/plugins/imagelocality/image_locality.go", "scaledImageScore", 117, 120)
def scaled_image_score(image_state: ImageStateSummary, total_num_nodes: int) -> int:
    """The image's size times the fraction of nodes that have it (against "node heating")."""
    spread = float(image_state.num_nodes) / float(total_num_nodes)
    scaled = float(image_state.size) * spread
    # Go's int64(float64) truncates; a size that rounds to 2^63 or more as a float64 gives MinInt64.
    return int(scaled) if scaled < 9223372036854775808.0 else goint.MIN_INT64


@ports("pkg/scheduler/framework/plugins/imagelocality/image_locality.go", "normalizedImageName", 127, 132)
@functools.lru_cache(maxsize=4096)  # Score asks it for the same few images on every node
def normalized_image_name(name: str) -> str:
    """The name as the container runtime reports it: ``:latest`` added when no tag is given.

    A ``:`` before the last ``/`` is a registry port, not a tag.
    """
    if name.rfind(":") <= name.rfind("/"):
        name = name + ":latest"
    return name
