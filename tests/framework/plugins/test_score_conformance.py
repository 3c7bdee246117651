"""The real kube-scheduler's answers (data/conformance/cases/score-*) for the
plugins of this package: NodeUnschedulable, NodeName, TaintToleration,
NodePorts and NodeResourcesFit as filters; NodeResourcesFit,
NodeResourcesBalancedAllocation, ImageLocality and TaintToleration as scorers.

Each case's cluster is loaded as the scheduler would see it (running pods in
place); the pod's filter verdicts on every node the real scheduler filtered, and
the normalized, weighted scores on every node it scored, must equal those in
``expected.json`` for every one of these plugins that appears there.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import pytest
import yaml

from ksched_edu.api.loader import load_cluster
from ksched_edu.config.defaults import default_plugin_args
from ksched_edu.config.types_pluginargs import (NodeResourcesBalancedAllocationArgs, NodeResourcesFitArgs,
                                                RequestedToCapacityRatioParam, ResourceSpec, ScoringStrategy,
                                                UtilizationShapePoint)
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import MAX_NODE_SCORE, Code, NodeScore
from ksched_edu.framework.plugins.imagelocality import image_locality
from ksched_edu.framework.plugins.nodename import node_name
from ksched_edu.framework.plugins.nodeports import node_ports
from ksched_edu.framework.plugins.noderesources import balanced_allocation, fit
from ksched_edu.framework.plugins.nodeunschedulable import node_unschedulable
from ksched_edu.framework.plugins.tainttoleration import taint_toleration
from tests.fakes import FakeHandle

CASES_DIR = Path(__file__).resolve().parents[3] / "data" / "conformance" / "cases"

# The default profile's Score weights (config/default_plugins in v1.30).
WEIGHTS = {"TaintToleration": 3, "NodeResourcesFit": 1, "NodeResourcesBalancedAllocation": 1, "ImageLocality": 1}
OUR_ARGS = {"NodeResourcesFit", "NodeResourcesBalancedAllocation"}


def _decode_fit_args(raw: dict) -> NodeResourcesFitArgs:
    args = NodeResourcesFitArgs(ignored_resources=list(raw.get("ignoredResources", [])),
                                ignored_resource_groups=list(raw.get("ignoredResourceGroups", [])))
    ss = raw.get("scoringStrategy")
    if ss is not None:
        rtcr = ss.get("requestedToCapacityRatio")
        args.scoring_strategy = ScoringStrategy(
            type=ss.get("type", ""),
            resources=[ResourceSpec(r["name"], r.get("weight", 0)) for r in ss.get("resources", [])],
            requested_to_capacity_ratio=None if rtcr is None else RequestedToCapacityRatioParam(
                [UtilizationShapePoint(p.get("utilization", 0), p.get("score", 0)) for p in rtcr.get("shape", [])]))
    return args


def _plugin_args(case: Path) -> Optional[dict[str, Any]]:
    """Defaulted args of our two plugins, or None when the config is more than those args."""
    config = yaml.safe_load((case / "config.yaml").read_text()) or {}
    if set(config) - {"apiVersion", "kind", "profiles"}:
        return None
    raw: dict[str, dict] = {}
    for profile in config.get("profiles", []):
        if set(profile) - {"schedulerName", "pluginConfig"}:
            return None
        for pc in profile.get("pluginConfig", []):
            if pc["name"] not in OUR_ARGS:
                return None
            raw[pc["name"]] = pc.get("args") or {}
    fit_args = _decode_fit_args(raw.get("NodeResourcesFit", {}))
    ba_raw = raw.get("NodeResourcesBalancedAllocation", {})
    ba_args = NodeResourcesBalancedAllocationArgs(
        [ResourceSpec(r["name"], r.get("weight", 0)) for r in ba_raw.get("resources", [])])
    default_plugin_args(fit_args)
    default_plugin_args(ba_args)
    return {"NodeResourcesFit": fit_args, "NodeResourcesBalancedAllocation": ba_args}


def _cases() -> list[Path]:
    if not CASES_DIR.is_dir():
        return []
    out = []
    for case in sorted(CASES_DIR.glob("score-*")):
        expected = json.loads((case / "expected.json").read_text())
        if "filter" in expected and _plugin_args(case) is not None:
            out.append(case)
    return out


CASES = _cases()


def _code(status) -> str:
    return Code.Success.name if status is None else status.code.name


def _reasons(status) -> list[str]:
    return [] if status is None else status.get_reasons()


@pytest.mark.skipif(not CASES, reason="conformance cases not found")
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_score_conformance(case: Path):
    expected = json.loads((case / "expected.json").read_text())
    namespace, name = yaml.safe_load((case / "case.yaml").read_text())["pod"].split("/")
    cluster = load_cluster(case / "cluster.yaml", validate=False)  # stored unvalidated, as by the reference API server
    [pod] = [p for p in cluster.pending_pods if p.namespace == namespace and p.name == name]
    handle = FakeHandle(pods=cluster.running_pods, nodes=cluster.nodes)
    args = _plugin_args(case)

    filters = {
        "NodeUnschedulable": node_unschedulable.new(None, handle),
        "NodeName": node_name.new(None, handle),
        "TaintToleration": taint_toleration.new(None, handle),
        "NodePorts": node_ports.new(None, handle),
        "NodeResourcesFit": fit.new(args["NodeResourcesFit"], handle),
    }
    state = CycleState()

    # PreFilter: NodePorts Skips exactly when the real scheduler reported Skip; Fit never does.
    # (When an earlier PreFilter rejected the pod, neither ran: nothing to compare.)
    _, ports_status = filters["NodePorts"].pre_filter(state, pod)
    ports_ran = any("NodePorts" in v["plugins"] for v in expected["filter"].values())
    if "NodePorts" in expected.get("preFilter", {}) or ports_ran:
        want_skip = expected.get("preFilter", {}).get("NodePorts", {}).get("code") == "Skip"
        assert (_code(ports_status) == "Skip") == want_skip
    assert filters["NodeResourcesFit"].pre_filter(state, pod) == (None, None)

    checked = 0
    for node, verdict in expected["filter"].items():
        node_info = handle.snapshot.get(node)
        for plugin, want in verdict["plugins"].items():
            if plugin not in filters:
                continue
            status = filters[plugin].filter(state, pod, node_info)
            assert (plugin, node, _code(status), _reasons(status)) == (plugin, node, want["code"], want["reasons"])
            checked += 1
    assert checked or not expected["filter"]

    if not expected["scores"]:
        return
    scorers = {
        "TaintToleration": filters["TaintToleration"],
        "NodeResourcesFit": filters["NodeResourcesFit"],
        "NodeResourcesBalancedAllocation": balanced_allocation.new(args["NodeResourcesBalancedAllocation"], handle),
        "ImageLocality": image_locality.new(None, handle),
    }
    nodes = list(expected["scores"])
    node_infos = [handle.snapshot.get(n) for n in nodes]
    for plugin, pl in scorers.items():
        if hasattr(pl, "pre_score"):
            # None of these Skips in v1.30, so all of them must appear in the answer.
            assert pl.pre_score(state, pod, node_infos) is None
        scores = []
        for n in nodes:
            score, status = pl.score(state, pod, n)
            assert status is None
            scores.append(NodeScore(n, score))
        ext = pl.score_extensions()
        if ext is not None:
            assert ext.normalize_score(state, pod, scores) is None
        for s in scores:
            assert 0 <= s.score <= MAX_NODE_SCORE
            got = s.score * WEIGHTS[plugin]
            assert (plugin, s.name, got) == (plugin, s.name, expected["scores"][s.name]["plugins"][plugin])
