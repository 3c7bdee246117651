"""Answering a conformance case: a folder of cluster.yaml, config.yaml and case.yaml.

``answer_case(DIR)`` builds the scheduler as the reference harness built the real
kube-scheduler v1.30.4 (data/conformance/README.md): the feature gates of case.yaml set
first, as ``--feature-gates`` sets them; the configuration decoded strictly; the cluster
decoded without strict field validation and stored without validation, by an API server
that never sets resourceVersion (client-go's fake clientset); victims deleted at once;
no PV controller. Score mode reports the pod's first scheduling cycle, read off the
trace (``cycle_report``); run mode runs until quiescent and reports where each pending
pod ended up. ``python -m ksched_edu case`` prints these answers; ``python -m
ksched_edu conformance`` compares them with the real scheduler's.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from .anchors import plumbing
from .api.errors import ManifestError
from .api.loader import load_cluster
from .config import features
from .config.features import FeatureGateError, feature_gates_from_map
from .config.loader import ConfigError, load_config
from .framework.plugins.registry import new_registry_with_out_of_tree
from .scheduler import ConfigurationError
from .sim.simulation import Simulation
from .trace import CycleEvent, Recorder

# The keys a case.yaml may hold (anything else is refused, not ignored).
CASE_KEYS = frozenset({"mode", "pod", "featureGates"})


@plumbing("answering a conformance case")
class CaseError(Exception):
    """A case folder that cannot be read."""


# --- the score-mode answer, read off the trace ---------------------------------------------


@plumbing("answering a conformance case")
def first_attempt(recorder: Recorder, pod_key: str) -> Optional[int]:
    for e in recorder.events:
        if isinstance(e, CycleEvent) and e.kind == "start" and e.pod == pod_key:
            return e.cycle
    return None


@plumbing("answering a conformance case")
def cycle_report(recorder: Recorder, cycle: int) -> dict[str, Any]:
    """Filter verdicts, scores, the best nodes and PreFilter rejections of one cycle."""
    pre_filter: dict[str, Any] = {}
    filters: dict[str, dict[str, Any]] = {}
    scores: dict[str, dict[str, Any]] = {}
    for e in recorder.plugin_events(cycle=cycle):
        if e.point == "PreFilter" and e.code != "Success":
            pre_filter[e.plugin] = {"code": e.code, "reasons": list(e.reasons)}
        elif e.point == "Filter":
            node = filters.setdefault(e.node, {"status": "Success", "plugins": {}})
            node["plugins"][e.plugin] = {"code": e.code, "reasons": list(e.reasons)}
            if e.code != "Success":
                node["status"] = e.code
        elif e.point == "Score":
            node = scores.setdefault(e.node, {"plugins": {}, "total": 0})
            node["plugins"][e.plugin] = e.weighted_score
            node["total"] += e.weighted_score or 0
    end = next((e for e in recorder.of(CycleEvent) if e.cycle == cycle and e.kind != "start"), None)
    if scores:
        top = max(s["total"] for s in scores.values())
        best = sorted(n for n, s in scores.items() if s["total"] == top)
    else:
        best = [end.node] if end is not None and end.node else []
    report = {"filter": filters, "scores": scores, "best": best, "preFilter": pre_filter}
    if end is not None and end.kind != "scheduled":
        report["fitError"] = end.message
    return report


# --- case folders -------------------------------------------------------------------------


def _read_case(folder: Path) -> tuple[dict[str, Any], Path, Path]:
    """case.yaml's keys (``featureGates`` checked as kube-scheduler's --feature-gates
    checks them) and the paths of config.yaml and cluster.yaml."""
    case_file = folder / "case.yaml"
    if not folder.is_dir():
        raise CaseError(f"{folder}: not a folder")
    if not case_file.exists():
        raise CaseError(f"{case_file}: file not found")
    import yaml

    try:
        case = yaml.safe_load(case_file.read_text()) or {}
    except yaml.YAMLError as err:
        raise CaseError(f"{case_file}: not valid YAML: {str(err).splitlines()[0]}") from None
    if not isinstance(case, dict) or case.get("mode") not in ("score", "run"):
        raise CaseError(f"{case_file}: mode: must be \"score\" or \"run\"")
    if case["mode"] == "score" and not isinstance(case.get("pod"), str):
        raise CaseError(f"{case_file}: pod: required in score mode (namespace/name)")
    unknown = sorted(set(case) - CASE_KEYS, key=str)
    if unknown:
        raise CaseError(f"{case_file}: {unknown[0]}: unknown key (known: {', '.join(sorted(CASE_KEYS))})")
    gates = case.get("featureGates") or {}
    if not isinstance(gates, dict):
        raise CaseError(f"{case_file}: featureGates: expected a map of gate names to true or false")
    try:
        case["featureGates"] = feature_gates_from_map(gates)
    except FeatureGateError as err:
        raise CaseError(f"{case_file}: {err}") from None
    return case, folder / "config.yaml", folder / "cluster.yaml"


@plumbing("answering a conformance case")
def answer_case(dir_arg: str) -> dict[str, Any]:
    """One case folder's answer, as ``python -m ksched_edu case DIR`` prints it."""
    folder = Path(dir_arg)
    try:
        case, config_path, cluster_path = _read_case(folder)
        gates = case["featureGates"]
        config = load_config(config_path, gates=gates)
    except CaseError as err:
        return {"case": dir_arg, "error": str(err)}
    except ConfigError as err:
        return {"case": dir_arg, "configError": err.message}
    try:
        # The reference API server (client-go's fake clientset) stores objects without validating them.
        cluster = load_cluster(cluster_path, validate=False, strict=False)
    except ManifestError as err:
        return {"case": dir_arg, "error": str(err)}
    try:
        recorder = Recorder()
        # The conformance harness deletes preemption victims at once (no grace period), its
        # API server (client-go's fake clientset) never sets resourceVersion, and no PV
        # controller ran beside the scheduler.
        # The gates are set before the scheduler is built, as --feature-gates sets them.
        sim = Simulation(cluster, config, seed=0, recorder=recorder, registry=new_registry_with_out_of_tree(gates),
                         victim_grace_period=0.0, resource_versions=False, storage_controller=None,
                         queueing_hints=features.enabled(features.SCHEDULER_QUEUEING_HINTS, gates))
    except ConfigurationError as err:
        return {"case": dir_arg, "configError": str(err)}
    except ManifestError as err:  # a raw kind (e.g. NodeResourceTopology) refused when created
        return {"case": dir_arg, "error": str(err if err.file else err.with_file(str(cluster_path)))}
    if case["mode"] == "score":
        return {"case": dir_arg, "mode": "score", "pod": case["pod"], **first_attempt_report(sim, recorder, case["pod"])}
    sim.run()
    return {"case": dir_arg, "mode": "run",
            "placements": [{"pod": p.pod, "node": p.node, "message": p.message, "nominatedNode": p.nominated_node}
                           for p in sim.placements()],
            "victims": sim.victims()}


@plumbing("answering a conformance case")
def first_attempt_report(sim: Simulation, recorder: Recorder, pod_key: str) -> dict[str, Any]:
    """Run scheduling cycles until the pod's first attempt has been made; report that attempt."""
    sched = sim.scheduler
    while first_attempt(recorder, pod_key) is None:
        if not sched.schedule_one():
            if sched.clock.next_due() is None:
                break
            sched.clock.fire_next()
    cycle = first_attempt(recorder, pod_key)
    if cycle is None:
        return {"filter": {}, "scores": {}, "best": [], "preFilter": {}}
    return cycle_report(recorder, cycle)
