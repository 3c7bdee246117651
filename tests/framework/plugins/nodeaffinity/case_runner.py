"""Runs one plugin over a conformance case (data/conformance/cases) the way the real
scheduler's first cycle did, and lists where its codes, reasons and scores differ from
``expected.json``. The full pipeline is not needed: the expected file says which nodes each
plugin saw and which nodes were feasible."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import yaml

from ksched_edu.api.loader import load_cluster
from ksched_edu.api.types import Pod
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, NodeScore
from tests.fakes import FakeHandle

CASES_DIR = Path(__file__).resolve().parents[4] / "data" / "conformance" / "cases"


@dataclass
class Case:
    name: str
    pod: Pod
    handle: FakeHandle
    config: dict
    expected: dict
    mismatches: list[str] = field(default_factory=list)


def case_names(prefixes: tuple[str, ...]) -> list[str]:
    if not CASES_DIR.is_dir():
        return []
    return sorted(d.name for d in CASES_DIR.iterdir() if d.is_dir() and d.name.startswith(prefixes))


def load_case(name: str) -> Case:
    d = CASES_DIR / name
    cluster = load_cluster(d / "cluster.yaml", validate=False)  # stored unvalidated, as by the reference API server
    case = yaml.safe_load((d / "case.yaml").read_text())
    config = yaml.safe_load((d / "config.yaml").read_text()) or {}
    expected = json.loads((d / "expected.json").read_text())
    pod = next(p for p in cluster.pending_pods if p.key == case["pod"])
    objects = [*cluster.services, *cluster.replica_sets, *cluster.stateful_sets, *cluster.replication_controllers]
    handle = FakeHandle(pods=cluster.running_pods, nodes=cluster.nodes, objects=objects)
    return Case(name, pod, handle, config, expected)


def plugin_config(config: dict, plugin: str) -> Optional[dict]:
    """The ``args`` the first profile gives ``plugin``, if any."""
    profiles = config.get("profiles") or [{}]
    for pc in profiles[0].get("pluginConfig") or []:
        if pc.get("name") == plugin:
            return pc.get("args") or {}
    return None


def uses_default_plugins(config: dict) -> bool:
    profiles = config.get("profiles") or [{}]
    return len(profiles) == 1 and not profiles[0].get("plugins")


def _code_reasons(status: Any) -> tuple[str, list[str]]:
    if status is None:
        return "Success", []
    return status.code.name, status.get_reasons()


def check_plugin(case: Case, name: str, plugin: Any, weight: int) -> list[str]:
    """Run PreFilter, Filter, PreScore, Score, NormalizeScore; return the differences."""
    exp = case.expected
    out: list[str] = []
    if "configError" in exp:
        return out
    pre_filter_exp = exp.get("preFilter", {})
    rejected_by_other = not exp["filter"] and any(v["code"] not in ("Skip", "Success")
                                                  for k, v in pre_filter_exp.items() if k != name)
    if rejected_by_other and name not in pre_filter_exp:
        return out  # PreFilter stopped before this plugin ran.

    cs = CycleState()
    ran_pre_filter = hasattr(plugin, "pre_filter")
    skipped = False
    if ran_pre_filter:
        result, status = plugin.pre_filter(cs, case.pod)
        code, reasons = _code_reasons(status)
        want = pre_filter_exp.get(name, {"code": "Success", "reasons": []})
        if (code, reasons) != (want["code"], want["reasons"]):
            out.append(f"preFilter: got {code} {reasons}, want {want['code']} {want['reasons']}")
        if code not in ("Success", "Skip"):
            return out
        skipped = code == "Skip"
        if result is not None and result.node_names is not None and "preFilterNodes" in exp:
            known = {n.name for n in case.handle.snapshot.list()}
            got_nodes = sorted(result.node_names & known)
            if got_nodes != sorted(exp["preFilterNodes"]):
                out.append(f"preFilterNodes: got {got_nodes}, want {exp['preFilterNodes']}")

    for node_name, verdict in exp["filter"].items():
        plugins = verdict["plugins"]
        if skipped:
            if name in plugins:
                out.append(f"{node_name}: filter ran although PreFilter returned Skip")
            continue
        if name not in plugins:
            continue
        status = plugin.filter(cs, case.pod, case.handle.snapshot.get(node_name))
        got = _code_reasons(status)
        want = (plugins[name]["code"], plugins[name]["reasons"])
        if got != want:
            out.append(f"{node_name}: filter got {got}, want {want}")

    if not exp["scores"]:
        return out
    # The nodes that reached scoring: past numNodesToFind a feasible node is filtered but dropped.
    feasible = [n for n, v in exp["filter"].items() if v["status"] == "Success" and n in exp["scores"]]
    infos = [case.handle.snapshot.get(n) for n in feasible]
    status = plugin.pre_score(cs, case.pod, infos)
    listed = any(name in exp["scores"][n]["plugins"] for n in feasible)
    if status is not None and status.code == Code.Skip:
        if listed:
            out.append("preScore: got Skip but the plugin scored")
        return out
    if status is not None:
        out.append(f"preScore: got {status.code.name} {status.get_reasons()}")
        return out
    if not listed:
        out.append("preScore: did not Skip but the plugin is absent from the scores")
        return out
    scores = []
    for n in feasible:
        s, st = plugin.score(cs, case.pod, n)
        if st is not None:
            out.append(f"{n}: score error {st.get_reasons()}")
        scores.append(NodeScore(n, s))
    ext = plugin.score_extensions()
    if ext is not None:
        ext.normalize_score(cs, case.pod, scores)
    got_scores = {s.name: s.score * weight for s in scores}
    want_scores = {n: exp["scores"][n]["plugins"][name] for n in feasible}
    if got_scores != want_scores:
        out.append(f"scores: got {got_scores}, want {want_scores}")
    return out
