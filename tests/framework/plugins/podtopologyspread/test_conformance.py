"""PodTopologySpread against the real kube-scheduler v1.30.4 answers in data/conformance/cases
(Skip rules, filter codes and reasons, normalized scores times the default weight 2, system and
List defaulting)."""
from __future__ import annotations

import pytest

from ksched_edu.api.types import TopologySpreadConstraint
from ksched_edu.config.types_pluginargs import PodTopologySpreadArgs
from ksched_edu.framework.plugins.podtopologyspread.plugin import NAME, new
from tests.framework.plugins.nodeaffinity.case_runner import (case_names, check_plugin, load_case, plugin_config,
                                                              uses_default_plugins)

WEIGHT = 2
CASES = case_names(("score-spread-", "config-spread-default-constraints-list"))


def args_from(config: dict) -> PodTopologySpreadArgs:
    """The v1 defaults (System), or the List constraints a case configures."""
    raw = plugin_config(config, NAME)
    if raw is None:
        return PodTopologySpreadArgs(defaulting_type="System")
    constraints = [TopologySpreadConstraint(max_skew=c["maxSkew"], topology_key=c["topologyKey"],
                                            when_unsatisfiable=c["whenUnsatisfiable"])
                   for c in raw.get("defaultConstraints") or []]
    return PodTopologySpreadArgs(default_constraints=constraints, defaulting_type=raw.get("defaultingType", "System"))


@pytest.mark.skipif(not CASES, reason="conformance cases not available")
@pytest.mark.parametrize("name", CASES)
def test_conformance(name):
    case = load_case(name)
    assert uses_default_plugins(case.config)
    plugin = new(args_from(case.config), case.handle)
    assert check_plugin(case, NAME, plugin, WEIGHT) == []
