"""Mirrors pkg/scheduler/framework/plugins/podtopologyspread/plugin_test.go (v1.30):
Test_isSchedulableAfterNodeChange, Test_isSchedulableAfterPodChange; plus New and EventsToRegister."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from ksched_edu.api.types import TopologySpreadConstraint
from ksched_edu.framework.plugins.podtopologyspread.plugin import (NAME, SYSTEM_DEFAULT_CONSTRAINTS,
                                                                   new)
from ksched_edu.framework.types import NODE, POD, ActionType, QueueingHint
from tests.builders import make_node, make_pod
from tests.fakes import FakeHandle
from .util import BAR_SELECTOR, DNS, FOO_SELECTOR, setup_plugin

Q, SKIP = QueueingHint.Queue, QueueingHint.QueueSkip

SPREAD_POD = (make_pod().name("p").label("foo", "").spread_constraint(1, "zone", DNS, FOO_SELECTOR)
              .spread_constraint(1, "node", DNS, FOO_SELECTOR).obj())

NODE_CHANGE_CASES = [
    ("node updates label which matches topologyKey", make_node().name("node-a").label("zone", "zone1").obj(),
     make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(), Q),
    ("node that doesn't match topologySpreadConstraints updates non-related label",
     make_node().name("node-a").obj(), make_node().name("node-a").label("foo", "bar").obj(), SKIP),
    ("create node with non-related labels", None, make_node().name("node-a").label("foo", "bar").obj(), SKIP),
    ("create node with related labels", None,
     make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(), Q),
    ("delete node with non-related labels", make_node().name("node-a").label("foo", "bar").obj(), None, SKIP),
    ("delete node with related labels",
     make_node().name("node-a").label("zone", "zone1").label("node", "node-a").obj(), None, Q),
]


@pytest.mark.parametrize("old,new_obj,want", [c[1:] for c in NODE_CHANGE_CASES],
                         ids=[c[0] for c in NODE_CHANGE_CASES])
def test_is_schedulable_after_node_change(old, new_obj, want):
    p, _ = setup_plugin()
    assert p.is_schedulable_after_node_change(SPREAD_POD, old, new_obj) == want


def bound(name, ns="", **labels):
    w = make_pod().name(name).namespace(ns).node("node-a")
    for k, v in labels.items():
        w.label(k, v)
    return w.obj()


POD_CHANGE_CASES = [
    ("add pod with labels match topologySpreadConstraints selector", None, bound("p2", foo=""), Q),
    ("add un-scheduled pod", None, make_pod().name("p2").label("foo", "").obj(), SKIP),
    ("add pod with different namespace", None, bound("p2", ns="ns1", foo=""), SKIP),
    ("add pod with labels don't match topologySpreadConstraints selector", None, bound("p2", bar=""), SKIP),
    ("delete un-scheduled pod", make_pod().name("p2").label("foo", "").obj(), None, SKIP),
    ("delete pod with labels that match topologySpreadConstraints selector", bound("p2", foo=""), None, Q),
    ("delete pod with labels that don't match topologySpreadConstraints selector", bound("p2", bar=""), None, SKIP),
    ("update pod's non-related label", bound("p2", foo="", bar="bar1"), bound("p2", foo="", bar="bar2"), SKIP),
    ("add pod's label that matches topologySpreadConstraints selector", bound("p2"), bound("p2", foo=""), Q),
    ("delete pod label that matches topologySpreadConstraints selector", bound("p2", foo=""), bound("p2"), Q),
    ("change pod's label that matches topologySpreadConstraints selector", bound("p2", foo="foo1"),
     bound("p2", foo="foo2"), SKIP),
    ("change pod's label that doesn't match topologySpreadConstraints selector", bound("p2", foo="", bar="bar1"),
     bound("p2", foo="", bar="bar2"), SKIP),
    ("add pod's label that doesn't match topologySpreadConstraints selector", bound("p2", foo=""),
     bound("p2", foo="", bar=""), SKIP),
    ("pod labels didn't change", bound("p2", foo=""), bound("p2", foo=""), SKIP),
]


@pytest.mark.parametrize("old,new_obj,want", [c[1:] for c in POD_CHANGE_CASES],
                         ids=[c[0] for c in POD_CHANGE_CASES])
def test_is_schedulable_after_pod_change(old, new_obj, want):
    p, _ = setup_plugin()
    assert p.is_schedulable_after_pod_change(SPREAD_POD, old, new_obj) == want


def test_pod_change_with_two_selectors():
    pod = (make_pod().name("p").label("foo", "").label("bar", "").spread_constraint(1, "zone", DNS, FOO_SELECTOR)
           .spread_constraint(1, "node", DNS, BAR_SELECTOR).obj())
    p, _ = setup_plugin()
    # "update pod's label which matches one of the selectors"
    assert p.is_schedulable_after_pod_change(pod, bound("p2", foo=""), bound("p2", foo="", bar="")) == Q


def test_events_to_register():
    p, _ = setup_plugin()
    assert p.name() == NAME == "PodTopologySpread"
    got = [(e.event.resource, e.event.action_type) for e in p.events_to_register()]
    assert got == [(POD, ActionType.All),
                   (NODE, ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel
                    | ActionType.UpdateNodeTaint)]
    assert all(e.queueing_hint_fn is not None for e in p.events_to_register())


def test_new_system_defaulting_uses_system_constraints():
    handle = FakeHandle()
    p = new(SimpleNamespace(default_constraints=[], defaulting_type="System"), handle)
    assert p.system_defaulted
    assert [(c.topology_key, c.max_skew, c.when_unsatisfiable) for c in p.default_constraints] == [
        ("kubernetes.io/hostname", 3, "ScheduleAnyway"), ("topology.kubernetes.io/zone", 5, "ScheduleAnyway")]
    assert p.default_constraints is SYSTEM_DEFAULT_CONSTRAINTS
    assert p.object_lister is handle.object_lister()


def test_new_list_defaulting_keeps_configured_constraints():
    constraints = [TopologySpreadConstraint(1, "topology.kubernetes.io/zone", "DoNotSchedule")]
    p = new(SimpleNamespace(default_constraints=constraints, defaulting_type="List"), FakeHandle())
    assert not p.system_defaulted
    assert p.default_constraints == constraints


def test_new_without_snapshot_fails():
    class NoSnapshot:
        def snapshot_shared_lister(self):
            return None

    with pytest.raises(ValueError, match="^SnapshotSharedlister is nil$"):
        new(SimpleNamespace(default_constraints=[], defaulting_type="List"), NoSnapshot())


def test_features_default_to_v1_30():
    p = new(SimpleNamespace(default_constraints=[], defaulting_type="List"), FakeHandle())
    assert p.enable_node_inclusion_policy_in_pod_topology_spread
    assert p.enable_match_label_keys_in_pod_topology_spread
