"""GPUTopology's reading of the ``gpu.ksched-edu.io/`` pod annotations: unknown keys warn."""
from __future__ import annotations

import warnings

import pytest

from ksched_edu.gpu.ledger import GPUS_ANNOTATION
from ksched_edu.gpu.plugins.gpu_topology import (CONSTRAINT_ANNOTATION, KNOWN_ANNOTATIONS, MIN_BANDWIDTH_ANNOTATION,
                                                 GPUAnnotationWarning, read_request, unknown_annotation_messages)
from tests.builders import make_pod


def pod_with(annotations: dict[str, str], gpus: int = 4):
    p = make_pod().name("job").namespace("default").uid("job")
    if gpus:
        p = p.req({"cpu": "1", "nvidia.com/gpu": str(gpus)})
    for key, value in annotations.items():
        p = p.annotation(key, value)
    return p.obj()


@pytest.mark.parametrize("annotations,expected", [
    ({}, []),
    ({CONSTRAINT_ANNOTATION: "nvlink", MIN_BANDWIDTH_ANNOTATION: "50", GPUS_ANNOTATION: "0,1"}, []),
    ({"example.com/min-bandwith": "50"}, []),  # another prefix is none of the plugin's business
    ({"gpu.ksched-edu.io/min-bandwith": "50"}, ["gpu.ksched-edu.io/min-bandwith", "did you mean min-bandwidth?"]),
    ({"gpu.ksched-edu.io/constraints": "nvlink"}, ["gpu.ksched-edu.io/constraints", "did you mean constraint?"]),
    ({"gpu.ksched-edu.io/speed": "fast"}, ["gpu.ksched-edu.io/speed"]),
])
def test_unknown_annotation_messages(annotations: dict[str, str], expected: list[str]) -> None:
    messages = unknown_annotation_messages(annotations)
    if not expected:
        assert messages == []
        return
    [message] = messages
    for part in expected:
        assert part in message
    for known in KNOWN_ANNOTATIONS:  # the message names the keys that work
        assert known in message
    if "speed" in message:
        assert "did you mean" not in message


def test_read_request_warns_on_unknown_key_and_ignores_it() -> None:
    pod = pod_with({"gpu.ksched-edu.io/min-bandwith": "100", CONSTRAINT_ANNOTATION: "nvlink"})
    with pytest.warns(GPUAnnotationWarning, match=r"default/job: unknown GPU annotation key "
                                                  r"\"gpu.ksched-edu.io/min-bandwith\".*did you mean min-bandwidth\?"):
        request, invalid = read_request(pod)
    assert invalid == ""
    assert request is not None and request.constraint.nvlink and request.constraint.min_bandwidth == 0


def test_read_request_warns_for_a_pod_without_gpus_too() -> None:
    with pytest.warns(GPUAnnotationWarning, match="gpu.ksched-edu.io/constrain"):
        assert read_request(pod_with({"gpu.ksched-edu.io/constrain": "nvlink"}, gpus=0)) == (None, "")


def test_read_request_is_silent_on_known_keys() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        request, invalid = read_request(pod_with({MIN_BANDWIDTH_ANNOTATION: "100"}))
    assert invalid == "" and request.constraint.min_bandwidth == 100
