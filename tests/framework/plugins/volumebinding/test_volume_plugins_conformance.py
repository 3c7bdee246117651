"""The volume plugins of the default profile against the real kube-scheduler v1.30.4.

In every score-mode conformance case the real scheduler's PreFilter of
VolumeRestrictions, VolumeZone, VolumeBinding, NodeVolumeLimits, EBSLimits,
GCEPDLimits and AzureDiskLimits returned Skip for the pod (none has volumes), so
their Filters never ran and VolumeBinding has no score (the ``vol-*`` cases, whose
pods have volumes, are left out). Each plugin, run alone on
the case's pod, must answer the same.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ksched_edu.api.loader import load_cluster
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins import nodevolumelimits, volumebinding, volumerestrictions, volumezone
from tests.fakes import FakeHandle

CASES_DIR = Path(__file__).resolve().parents[4] / "data" / "conformance" / "cases"

FACTORIES = {
    volumerestrictions.NAME: volumerestrictions.new,
    nodevolumelimits.EBS_NAME: nodevolumelimits.new_ebs,
    nodevolumelimits.GCEPD_NAME: nodevolumelimits.new_gcepd,
    nodevolumelimits.CSI_NAME: nodevolumelimits.new_csi,
    nodevolumelimits.AZURE_DISK_NAME: nodevolumelimits.new_azure_disk,
    volumebinding.NAME: volumebinding.new,
    volumezone.NAME: volumezone.new,
}


def _score_cases() -> list[str]:
    if not CASES_DIR.is_dir():
        return []
    out = []
    for case in sorted(CASES_DIR.iterdir()):
        if case.name.startswith("vol-"):  # pods with volumes: not this test's premise
            continue
        expected = json.loads((case / "expected.json").read_text())
        if expected.get("mode") == "score" and "configError" not in expected:
            out.append(case.name)
    return out


CASES = _score_cases()


@pytest.mark.skipif(not CASES, reason="conformance cases not available")
def test_the_cases_list_every_volume_plugin_as_skipped():
    listed = set()
    for name in CASES:
        expected = json.loads((CASES_DIR / name / "expected.json").read_text())
        listed |= {p for p, v in expected.get("preFilter", {}).items() if p in FACTORIES and v["code"] == "Skip"}
    assert listed == set(FACTORIES)


@pytest.mark.parametrize("case_name", CASES)
def test_volume_plugins_match_the_real_scheduler(case_name):
    case = CASES_DIR / case_name
    expected = json.loads((case / "expected.json").read_text())
    pod_key = yaml.safe_load((case / "case.yaml").read_text())["pod"]
    cluster = load_cluster(case / "cluster.yaml", validate=False)  # stored unvalidated, as by the reference API server
    pod = next(p for p in cluster.pending_pods if p.key == pod_key)
    handle = FakeHandle(pods=cluster.running_pods, nodes=cluster.nodes)

    for name, factory in FACTORIES.items():
        want = expected["preFilter"].get(name)
        if want is None:
            continue  # not enabled, or an earlier PreFilter rejected the pod
        _, got = factory(None, handle).pre_filter(CycleState(), pod)
        got_code = "Success" if got is None else got.code.name
        got_reasons = [] if got is None else got.get_reasons()
        assert (name, got_code, got_reasons) == (name, want["code"], want["reasons"])
        # A skipped PreFilter keeps the plugin out of the Filter and Score answers.
        if got is not None and got.code == Code.Skip:
            assert all(name not in v["plugins"] for v in expected["filter"].values())
            assert all(name not in v["plugins"] for v in expected["scores"].values())
