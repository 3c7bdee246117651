"""Anchors from the port to upstream's Go (ksched_edu.anchors) and ``upstream --list``."""
from __future__ import annotations

import csv
import importlib
import inspect
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ksched_edu
from ksched_edu import anchors
from ksched_edu.anchors import FGD_SIMULATOR, K8S, SCHEDULER_PLUGINS, Anchor, plumbing, ports, record_of, upstream

ROOT = Path(__file__).resolve().parents[1]

# The engine modules whose every public function, method and class carries an anchor or
# says it is plumbing: every engine module.
ANCHORED_PACKAGES = ("ksched_edu.schedule_one", "ksched_edu.scheduler", "ksched_edu.eventhandlers",
                     "ksched_edu.profile", "ksched_edu.internal", "ksched_edu.framework", "ksched_edu.config",
                     "ksched_edu.api", "ksched_edu.sim", "ksched_edu.trace",
                     "ksched_edu.conformance", "ksched_edu.cli", "ksched_edu.gpu", "ksched_edu.anchor_check")
# Modules in those packages that still have objects without a record, and why.
PENDING: dict[str, str] = {
    # Their Go sources (pkg/apis/scheduling, pkg/apis/storage, pkg/apis/policy, pkg/apis/apps/validation, the Priority
    # admission plugin) are not in the vendored tree the anchor check reads, and no copy of these
    # files at v1.30.4 is at hand to take the lines from: the v1.21.4 and v1.22.3 copies that
    # scheduler-plugins once vendored predate changes made before v1.30 (the NonPreemptingPriority
    # gate's removal from the defaults and the admission plugin, PodSecurityPolicy's removal and new
    # options in the PodDisruptionBudget validation).
    "ksched_edu.api.defaults": "PriorityClass, StorageClass and CSIDriver defaults (pkg/apis/scheduling/v1, "
                               "pkg/apis/storage/v1) and the Priority admission plugin",
    "ksched_edu.api.validation.policy": "PodDisruptionBudget validation (pkg/apis/policy/validation)",
    "ksched_edu.api.validation.scheduling": "PriorityClass validation (pkg/apis/scheduling/validation)",
}
# goint.py imports nothing from the project (it is the lowest layer): its helpers stand in
# for Go's integer semantics, not for a Go function, and carry no record.


def _engine_modules() -> list[str]:
    return [n for n in anchors.import_engine() if n.startswith(ANCHORED_PACKAGES)]


ANCHORED_MODULES = [n for n in _engine_modules() if n not in PENDING]

# The FGD simulator's anchors also name its Python scripts (the experiment's configuration, the trace).
PERMALINK = re.compile(r"^https://github\.com/(kubernetes/kubernetes/blob/v1\.30\.4/[\w./-]+\.go|"
                       r"kubernetes-sigs/scheduler-plugins/blob/37b7888a/[\w./-]+\.go|"
                       r"hkust-adsl/kubernetes-scheduler-simulator/blob/8f3d6417353c5083c6d56617f255fadd8dc306bc/"
                       r"[\w./-]+\.(?:go|py))#L(?P<start>\d+)-L(?P<end>\d+)$")


@ports("pkg/scheduler/schedule_one.go", "(*Scheduler).schedulePod", 390, 438)
def _ported() -> None:
    """A stand-in for a ported function."""


@plumbing("a stand-in for port-only code")
def _plumbed() -> None:
    """A stand-in for plumbing."""


class _Owner:
    @ports("pkg/scheduler/schedule_one.go", "selectHost", 861, 908)
    def method(self) -> None:
        """A stand-in for a ported method."""


def test_ports_records_the_anchor_and_its_permalink():
    anchor = upstream(_ported)
    assert anchor == Anchor(K8S, "pkg/scheduler/schedule_one.go", "(*Scheduler).schedulePod", 390, 438,
                            f"{__name__}._ported")
    assert anchor.permalink == ("https://github.com/kubernetes/kubernetes/blob/v1.30.4/"
                                "pkg/scheduler/schedule_one.go#L390-L438")
    assert anchor.raw_url == ("https://raw.githubusercontent.com/kubernetes/kubernetes/v1.30.4/"
                              "pkg/scheduler/schedule_one.go")
    assert ksched_edu.upstream is upstream


def test_a_bound_method_has_its_functions_anchor():
    assert upstream(_Owner().method).go == "selectHost"
    assert upstream(_Owner.method).start == 861


def test_plumbing_and_unmarked_objects_have_no_anchor():
    assert upstream(_plumbed) is None
    assert record_of(_plumbed).reason == "a stand-in for port-only code"
    assert upstream(test_plumbing_and_unmarked_objects_have_no_anchor) is None
    assert record_of(test_plumbing_and_unmarked_objects_have_no_anchor) is None


def test_scheduler_plugins_anchors_point_at_the_commit():
    @ports("pkg/coscheduling/coscheduling.go", "(*Coscheduling).Permit", 10, 20, repo=SCHEDULER_PLUGINS)
    def permit() -> None:
        pass

    assert upstream(permit).permalink == ("https://github.com/kubernetes-sigs/scheduler-plugins/blob/37b7888a/"
                                          "pkg/coscheduling/coscheduling.go#L10-L20")


def test_fgd_simulator_anchors_point_at_the_commit():
    from ksched_edu.gpu.sharing.plugins.fgd_score import calculate_gpu_share_frag_extend_score

    anchor = upstream(calculate_gpu_share_frag_extend_score)
    assert (anchor.repo, anchor.go) == (FGD_SIMULATOR, "calculateGpuShareFragExtendScore")
    assert anchor.permalink == ("https://github.com/hkust-adsl/kubernetes-scheduler-simulator/blob/"
                                "8f3d6417353c5083c6d56617f255fadd8dc306bc/pkg/simulator/plugin/fgd_score.go#L62-L85")


def test_the_gpu_topology_plugin_is_the_projects_own():
    from ksched_edu.gpu.plugins.gpu_topology import GPUTopology

    assert upstream(GPUTopology) is None and upstream(GPUTopology.filter) is None
    assert record_of(GPUTopology.filter).reason.endswith("no upstream counterpart")


@pytest.mark.parametrize("kwargs, start, end, message", [
    ({"repo": "someone/else"}, 1, 2, "unknown repository"),
    ({}, 0, 2, "bad line range"),
    ({}, 5, 4, "bad line range"),
])
def test_bad_anchors_are_refused(kwargs, start, end, message):
    with pytest.raises(ValueError, match=message):
        ports("pkg/scheduler/schedule_one.go", "selectHost", start, end, **kwargs)


def _defined_here(module) -> list[tuple[str, object]]:
    """Public functions and classes defined in ``module``, and the public methods of those classes."""
    out = []
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(obj):
            out.append((name, obj))
        elif inspect.isclass(obj):
            out.append((name, obj))
            for attr, member in vars(obj).items():
                fn = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
                if (not attr.startswith("_") and inspect.isfunction(fn) and fn.__name__ != "<lambda>"
                        and fn.__qualname__.startswith(obj.__qualname__)):
                    out.append((f"{name}.{attr}", fn))
    return out


@pytest.mark.parametrize("module_name", ANCHORED_MODULES)
def test_every_public_object_of_an_anchored_module_names_its_upstream(module_name):
    module = importlib.import_module(module_name)
    missing = [name for name, obj in _defined_here(module) if record_of(obj) is None]
    assert not missing, f"{module_name}: no @ports or @plumbing on {missing}"


def test_upstream_list_prints_csv_rows_with_permalinks():
    proc = subprocess.run([sys.executable, "-m", "ksched_edu", "upstream", "--list"], capture_output=True,
                          text=True, cwd=ROOT, check=True)
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    assert rows[0] == ["module", "function", "go", "permalink"]
    assert len(rows) > 300
    for module, function, go, permalink in rows[1:]:
        match = PERMALINK.match(permalink)
        assert match, permalink
        assert int(match.group("start")) <= int(match.group("end"))
        assert module.startswith("ksched_edu") and function and go


def test_every_pending_module_exists():
    assert set(PENDING) <= set(_engine_modules())


def test_import_engine_skips_the_views():
    names = anchors.import_engine()
    assert "ksched_edu.schedule_one" in names
    assert not any(n.startswith(("ksched_edu.widgets", "ksched_edu.viz", "ksched_edu.exercises")) for n in names)
