"""Feature gates as kube-scheduler's --feature-gates sets them (component-base
featuregate/feature_gate.go: Set, SetFromMap, Enabled, setUnsetAlphaGates), and the
gates the plugins receive (plugins/feature/feature.go, registry.go NewInTreeRegistry)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from ksched_edu.config import features
from ksched_edu.config.feature_gates import KNOWN_FEATURE_GATES
from ksched_edu.config.features import FeatureGate, FeatureGateError, feature_gates_from_map
from ksched_edu.framework.plugins.feature import Features, new_features

# name, the flag's text, the gates set afterwards (or the error)
SET = [
    ("empty", "", {}),
    ("one gate", "SchedulerQueueingHints=true", {"SchedulerQueueingHints": True}),
    ("spaces and ParseBool's forms", " SchedulerQueueingHints = T ,PodDisruptionConditions=0",
     {"SchedulerQueueingHints": True, "PodDisruptionConditions": False}),
    ("empty items are skipped", "SchedulerQueueingHints=false,,", {"SchedulerQueueingHints": False}),
    ("unknown gate", "NoSuchGate=true", FeatureGateError("unrecognized feature gate: NoSuchGate")),
    ("no value", "SchedulerQueueingHints", FeatureGateError("missing bool value for SchedulerQueueingHints")),
    ("not a bool", "SchedulerQueueingHints=yes",
     FeatureGateError('invalid value of SchedulerQueueingHints=yes, err: strconv.ParseBool: parsing "yes": '
                      'invalid syntax')),
    ("locked GA gate set to its default", "PodSchedulingReadiness=true", {"PodSchedulingReadiness": True}),
    ("locked GA gate set otherwise", "PodSchedulingReadiness=false",
     FeatureGateError("cannot set feature gate PodSchedulingReadiness to false, feature is locked to true")),
    ("a refused gate sets nothing", "SchedulerQueueingHints=true,NoSuchGate=true",
     FeatureGateError("unrecognized feature gate: NoSuchGate")),
]


@pytest.mark.parametrize("name,text,want", SET, ids=[s[0] for s in SET])
def test_set(name, text, want):
    gate = FeatureGate()
    if isinstance(want, FeatureGateError):
        with pytest.raises(FeatureGateError) as err:
            gate.set(text)
        assert str(err.value) == str(want)
        assert gate.overrides() == {}
    else:
        gate.set(text)
        assert gate.overrides() == want


def test_all_alpha_sets_every_alpha_gate_not_set_otherwise():
    gate = FeatureGate()
    gate.set_from_map({"AllAlpha": True, "InPlacePodVerticalScaling": False})
    assert gate.enabled("VolumeCapacityPriority") and gate.enabled("DynamicResourceAllocation")
    assert not gate.enabled("InPlacePodVerticalScaling")  # set explicitly
    assert not gate.enabled("SchedulerQueueingHints")  # beta: AllBeta's
    gate.set_from_map({"AllBeta": True})
    assert gate.enabled("SchedulerQueueingHints")


def test_enabled_defaults_and_an_unknown_gate():
    gate = FeatureGate()
    assert not gate.enabled("SchedulerQueueingHints") and gate.enabled("PodDisruptionConditions")
    with pytest.raises(KeyError):
        gate.enabled("NoSuchGate")


def test_the_table_holds_v1_30_s_gates():
    assert len(KNOWN_FEATURE_GATES) == 168
    assert KNOWN_FEATURE_GATES["SchedulerQueueingHints"] == (False, "BETA", False)
    assert KNOWN_FEATURE_GATES["PodSchedulingReadiness"] == (True, "", True)
    assert KNOWN_FEATURE_GATES["MatchLabelKeysInPodAffinity"] == (False, "ALPHA", False)
    assert KNOWN_FEATURE_GATES["ContextualLogging"] == (True, "BETA", False)  # component-base logs
    assert KNOWN_FEATURE_GATES["WatchListClient"] == (False, "BETA", False)  # client-go
    assert KNOWN_FEATURE_GATES["ComponentSLIs"] == (True, "BETA", False)  # component-base metrics


@pytest.mark.skipif(not os.environ.get("KSCHED_EDU_SCHEDULER_PLUGINS_GIT"),
                    reason="the gate table is compared with the v1.30.4 sources when "
                           "KSCHED_EDU_SCHEDULER_PLUGINS_GIT names a scheduler-plugins git directory "
                           "holding 37b7888a (see DEVELOPERS.md)")
def test_the_table_is_the_sources():
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import make_feature_gates

    git_dir = os.environ["KSCHED_EDU_SCHEDULER_PLUGINS_GIT"]
    assert make_feature_gates.TABLE.read_text() == make_feature_gates.render(make_feature_gates.collect(git_dir))


def test_plugin_features_default_to_the_gates_defaults():
    assert new_features() == Features()
    assert new_features({"PodDisruptionConditions": False, "InPlacePodVerticalScaling": True}) == Features(
        enable_pod_disruption_conditions=False, enable_in_place_pod_vertical_scaling=True)


CASE_GATES = [
    ("a gate", {"SchedulerQueueingHints": True}, {"SchedulerQueueingHints": True}),
    ("unknown", {"Nope": True}, "featureGates: unrecognized feature gate: Nope"),
    ("not a bool", {"SchedulerQueueingHints": "yes"},
     "featureGates: SchedulerQueueingHints: expected true or false, got 'yes'"),
    ("a gate whose plugin is not ported", {"AllAlpha": True},
     "featureGates: DynamicResourceAllocation=true: the DynamicResources plugin it enables is not ported "
     "(see README.md, What is not ported yet)"),
    ("locked", {"MinDomainsInPodTopologySpread": False},
     "featureGates: cannot set feature gate MinDomainsInPodTopologySpread to false, feature is locked to true"),
]


@pytest.mark.parametrize("name,gates,want", CASE_GATES, ids=[c[0] for c in CASE_GATES])
def test_feature_gates_from_map(name, gates, want):
    if isinstance(want, str):
        with pytest.raises(FeatureGateError) as err:
            feature_gates_from_map(gates)
        assert str(err.value) == want
    else:
        assert feature_gates_from_map(gates) == want
    assert features.enabled("SchedulerQueueingHints") is False  # nothing global changed
