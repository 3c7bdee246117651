"""Chapter 09 (GPUs in production), section 4: DynamicResources in v1.30, as the chapter states it.

v1.30 registers DynamicResources with every in-tree plugin (registry.go L59) and leaves it
out of the default profile unless the DynamicResourceAllocation gate is on, in which case
applyFeatureGates puts it just before DefaultPreemption (default_plugins.go L63-81). The
gate is alpha and off by default (kube_features.go L1061). The port builds the same default
profile, leaves the plugin out of its registry and refuses the gate.
"""
from __future__ import annotations

import pytest

from ksched_edu.config import features
from ksched_edu.config.default_plugins import get_default_plugins
from ksched_edu.config.feature_gates import KNOWN_FEATURE_GATES
from ksched_edu.framework.plugins.registry import new_in_tree_registry

pytestmark = pytest.mark.ch09

GATE = features.DYNAMIC_RESOURCE_ALLOCATION


def _names(gates=None) -> list[str]:
    return [p.name for p in get_default_plugins(gates).multi_point.enabled]


def test_the_gate_is_alpha_and_off_by_default_in_v1_30() -> None:
    assert KNOWN_FEATURE_GATES[GATE] == (False, "ALPHA", False)


def test_the_default_profile_leaves_dynamic_resources_out_with_the_gate_off() -> None:
    assert "DynamicResources" not in _names()
    assert "DynamicResources" not in _names({GATE: False})


def test_with_the_gate_on_it_goes_just_before_default_preemption() -> None:
    off, on = _names(), _names({GATE: True})
    i = on.index("DynamicResources")
    assert on[i + 1] == "DefaultPreemption"
    assert on[:i] + on[i + 1:] == off


def test_the_port_leaves_the_plugin_out_of_its_registry_and_refuses_the_gate() -> None:
    assert "DynamicResources" not in new_in_tree_registry()
    with pytest.raises(features.FeatureGateError, match="not ported"):
        features.check_ported({GATE: True})
    features.check_ported({GATE: False})
