"""NodeAffinity against the real kube-scheduler v1.30.4 answers in data/conformance/cases
(per-node filter codes and reasons, PreFilter rejections and narrowing, normalized scores times
the default weight 2)."""
from __future__ import annotations

import pytest

from ksched_edu.config.types_pluginargs import NodeAffinityArgs
from ksched_edu.framework.plugins.nodeaffinity.node_affinity import NAME, new
from .case_runner import case_names, check_plugin, load_case, uses_default_plugins

WEIGHT = 2
CASES = case_names(("score-nodeaffinity-", "score-nodeselector-", "score-prefilter-"))


@pytest.mark.skipif(not CASES, reason="conformance cases not available")
@pytest.mark.parametrize("name", CASES)
def test_conformance(name):
    case = load_case(name)
    assert uses_default_plugins(case.config)
    plugin = new(NodeAffinityArgs(), case.handle)
    assert check_plugin(case, NAME, plugin, WEIGHT) == []


def test_named_cases_present():
    if not CASES:
        pytest.skip("conformance cases not available")
    for name in ("score-nodeaffinity-matchfields", "score-nodeaffinity-matchfields-conflict",
                 "score-prefilter-reject-two-terms", "score-nodeaffinity-preferred"):
        assert name in CASES
