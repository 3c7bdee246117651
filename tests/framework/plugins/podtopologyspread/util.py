"""Shared set-up for the PodTopologySpread tests (after plugintesting.SetupPlugin)."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Iterable, Optional

from ksched_edu.api.types import LabelSelector, Node, Pod, TopologySpreadConstraint
from ksched_edu.framework.plugins.podtopologyspread.plugin import PodTopologySpread, new
from tests.builders import make_label_selector, make_node, make_pod
from tests.fakes import FakeHandle

FOO_SELECTOR: LabelSelector = make_label_selector().exists("foo").obj()
BAR_SELECTOR: LabelSelector = make_label_selector().exists("bar").obj()
DNS = "DoNotSchedule"
SA = "ScheduleAnyway"


def setup_plugin(pods: Iterable[Pod] = (), nodes: Iterable[Node] = (), objects: Iterable[Any] = (),
                 default_constraints: Optional[list[TopologySpreadConstraint]] = None,
                 defaulting_type: str = "List", node_inclusion_policy: bool = True,
                 match_label_keys: bool = True) -> tuple[PodTopologySpread, FakeHandle]:
    handle = FakeHandle(pods=list(pods), nodes=list(nodes), objects=list(objects))
    args = SimpleNamespace(default_constraints=list(default_constraints or []), defaulting_type=defaulting_type)
    features = SimpleNamespace(enable_node_inclusion_policy_in_pod_topology_spread=node_inclusion_policy,
                               enable_match_label_keys_in_pod_topology_spread=match_label_keys)
    return new(args, handle, features), handle


def zn(name: str, zone: Optional[str] = None, **labels: str) -> Node:
    """A node labelled ``node=<name>`` and, when given, ``zone=<zone>``."""
    w = make_node().name(name).label("node", name)
    if zone is not None:
        w.label("zone", zone)
    for k, v in labels.items():
        w.label(k, v)
    return w.obj()


def foo_pod(name: str, node: str, ns: str = "", **labels: str) -> Pod:
    """An existing pod labelled ``foo=""`` on ``node``."""
    w = make_pod().name(name).namespace(ns).node(node).label("foo", "")
    for k, v in labels.items():
        w.label(k, v)
    return w.obj()


def four_nodes() -> list[Node]:
    return [zn("node-a", "zone1"), zn("node-b", "zone1"), zn("node-x", "zone2"), zn("node-y", "zone2")]
