"""Score plugin weights through the whole profile build, as kube-scheduler v1.30 builds it.

Upstream validation (apis/config/validation/validation.go) checks no plugin
weight; conversion turns an unset weight into 0, and getScoreWeights
(runtime/framework.go) turns 0 into 1 and guards the int64 total. The guard
is int64 arithmetic that wraps: a negative weight passes, and the *next*
Score plugin visited (Score.Enabled first, then MultiPoint.Enabled) fails
with "total score of Score plugins could overflow". The `case` command
reports that failure as a configError.
"""
from __future__ import annotations

import json

import pytest

from ksched_edu.config import load_config_data

H = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
PREFIX = "initializing profiles: creating profile for scheduler name default-scheduler: "
OVERFLOW = PREFIX + "total score of Score plugins could overflow"

CLUSTER = """apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status:
  capacity: {cpu: '4', memory: 8Gi, pods: '110'}
  allocatable: {cpu: '4', memory: 8Gi, pods: '110'}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.9
    resources: {requests: {cpu: 100m}}
"""


def _case(tmp_path, config: str) -> dict:
    from ksched_edu.case import answer_case

    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    (tmp_path / "config.yaml").write_text(config)
    (tmp_path / "case.yaml").write_text("mode: score\npod: default/p\n")
    return json.loads(json.dumps(answer_case(str(tmp_path))))


def _profile(points: str) -> str:
    return H + "profiles:\n- schedulerName: default-scheduler\n  plugins:\n" + points


@pytest.mark.parametrize("name,points,want_error", [
    # Score.Enabled is visited before the default MultiPoint list, whose TaintToleration comes next.
    ("negative weight in score.enabled", "    score:\n      enabled:\n      - {name: NodeResourcesFit, weight: -1}\n",
     OVERFLOW),
    ("negative weight on the first default MultiPoint Score plugin",
     "    multiPoint:\n      enabled:\n      - {name: TaintToleration, weight: -3}\n", OVERFLOW),
    # ImageLocality is the last Score plugin of the default MultiPoint list: nothing follows it.
    ("negative weight on the last Score plugin visited",
     "    multiPoint:\n      enabled:\n      - {name: ImageLocality, weight: -1}\n", None),
    ("zero weight becomes 1", "    score:\n      enabled:\n      - {name: NodeResourcesFit, weight: 0}\n", None),
    ("weight 101 is accepted", "    score:\n      enabled:\n      - {name: NodeResourcesFit, weight: 101}\n", None),
])
def test_score_weights_in_case_command(tmp_path, name, points, want_error):
    """Mirrors getScoreWeights (runtime/framework.go) reached through NewMap, as the CLI reports it."""
    out = _case(tmp_path, _profile(points))
    if want_error is None:
        assert "configError" not in out, out
    else:
        assert out["configError"] == want_error


def test_negative_weight_passes_validation():
    """validation.go checks no plugin weight: the refusal comes later, from the profile build."""
    cfg = load_config_data(_profile("    score:\n      enabled:\n      - {name: NodeResourcesFit, weight: -1}\n"))
    weights = {p.name: p.weight for p in cfg.profiles[0].plugins.score.enabled}
    assert weights["NodeResourcesFit"] == -1
