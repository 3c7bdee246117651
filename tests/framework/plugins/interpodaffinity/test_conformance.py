"""InterPodAffinity against the real kube-scheduler v1.30.4: the score-mode
conformance cases that exercise it (score-interpod-*, config-interpod-hard-weight,
and the mixed cases whose answers list it).

For each case the plugin runs alone over the case's cluster: its PreFilter must
Skip exactly when the real scheduler's did, its Filter must give each node the
code and reasons recorded, and its normalized score times the default weight (2)
must equal the recorded one (or PreScore must Skip when the score is absent).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ksched_edu.api.loader import load_cluster
from ksched_edu.config.types_pluginargs import InterPodAffinityArgs
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, NodeScore
from ksched_edu.framework.plugins.interpodaffinity import NAME, new
from tests.fakes import FakeHandle

CASES_DIR = Path(__file__).resolve().parents[4] / "data" / "conformance" / "cases"
CASES = ["config-interpod-hard-weight", "score-interpod-affinity-preferred", "score-interpod-affinity-required-host",
         "score-interpod-antiaffinity-required", "score-interpod-existing-antiaffinity",
         "score-interpod-existing-preferred-symmetry", "score-multi-zone-mix", "rand-score-s007", "rand-score-s008",
         "rand-score-s010"]
WEIGHT = 2  # InterPodAffinity's weight in the default profile

pytestmark = pytest.mark.skipif(not CASES_DIR.is_dir(), reason="conformance cases not available")


def _args(case: Path) -> InterPodAffinityArgs:
    """The case's InterPodAffinity args, v1-defaulted."""
    config = yaml.safe_load((case / "config.yaml").read_text()) or {}
    args = InterPodAffinityArgs(hard_pod_affinity_weight=1)
    for profile in config.get("profiles") or []:
        for pc in profile.get("pluginConfig") or []:
            if pc.get("name") == NAME:
                raw = pc.get("args") or {}
                args.hard_pod_affinity_weight = raw.get("hardPodAffinityWeight", args.hard_pod_affinity_weight)
                args.ignore_preferred_terms_of_existing_pods = raw.get(
                    "ignorePreferredTermsOfExistingPods", args.ignore_preferred_terms_of_existing_pods)
    return args


@pytest.mark.parametrize("case_name", CASES)
def test_conformance_case(case_name):
    case = CASES_DIR / case_name
    expected = json.loads((case / "expected.json").read_text())
    pod_key = yaml.safe_load((case / "case.yaml").read_text())["pod"]
    cluster = load_cluster(case / "cluster.yaml", validate=False)  # stored unvalidated, as by the reference API server
    pod = next(p for p in cluster.pending_pods if p.key == pod_key)
    handle = FakeHandle(pods=cluster.running_pods, nodes=cluster.nodes)
    pl = new(_args(case), handle)
    snapshot = handle.snapshot

    state = CycleState()
    _, pre_status = pl.pre_filter(state, pod)
    want_skip = expected["preFilter"].get(NAME, {}).get("code") == "Skip"
    assert (pre_status is not None and pre_status.code == Code.Skip) == want_skip
    if not want_skip:
        assert pre_status is None

    for node_name, verdict in expected["filter"].items():
        want = verdict["plugins"].get(NAME)
        if want is None:
            continue
        got = pl.filter(state, pod, snapshot.get(node_name))
        got_code = "Success" if got is None else got.code.name
        got_reasons = [] if got is None else got.get_reasons()
        assert (node_name, got_code, got_reasons) == (node_name, want["code"], want["reasons"])

    feasible = list(expected["scores"])
    if not feasible:
        return
    score_state = CycleState()
    status = pl.pre_score(score_state, pod, [snapshot.get(n) for n in feasible])
    want_scores = {n: expected["scores"][n]["plugins"].get(NAME) for n in feasible}
    if all(v is None for v in want_scores.values()):
        assert status is not None and status.code == Code.Skip
        return
    assert status is None
    scores = []
    for n in feasible:
        score, st = pl.score(score_state, pod, n)
        assert st is None
        scores.append(NodeScore(n, score))
    assert pl.normalize_score(score_state, pod, scores) is None
    assert {s.name: s.score * WEIGHT for s in scores} == want_scores
