"""The checks of chapters 00-03: a right answer prints ✔, each kind of wrong answer ✘ with a hint."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from ksched_edu import exercises
from ksched_edu.exercises.core import call_answer, failed, is_unanswered, passed
from tests.exercises.verdicts import verdict

ROOT = Path(__file__).resolve().parents[2]


# --- core ------------------------------------------------------------------------------


def test_passed_and_failed_print_one_verdict(capsys: pytest.CaptureFixture) -> None:
    assert passed("all good") is True
    assert failed("not yet.", hint="try again") is False
    assert capsys.readouterr().out == "✔ all good\n✘ not yet. Hint: try again\n"


@pytest.mark.parametrize("value,expected", [(None, True), (..., True), (0, False), ("", False), ([], False)],
                         ids=["None", "Ellipsis", "zero", "empty string", "empty list"])
def test_is_unanswered(value: Any, expected: bool) -> None:
    assert is_unanswered(value) is expected


def test_call_answer_turns_exceptions_into_values() -> None:
    def stub() -> None:
        raise NotImplementedError("your code here")

    assert call_answer(lambda x: x + 1, 1) == (True, 2)
    ok, err = call_answer(stub)
    assert not ok and isinstance(err, NotImplementedError)


# --- discovery --------------------------------------------------------------------------


def test_every_chapter_module_is_found() -> None:
    found = exercises.chapter_modules()
    assert {"ch00", "ch01", "ch02", "ch03"} <= set(found)
    assert all(name.startswith("ch") for name in found)


@pytest.mark.parametrize("name", ["check_tour_cpu_request", "check_tour_prediction", "check_node_tree_order",
                                  "check_non_zero_cpu", "check_second_attempt", "check_free_the_pod",
                                  "check_score_plugin"])
def test_checks_are_re_exported(name: str) -> None:
    assert callable(getattr(exercises, name))
    assert name in exercises.all_checks() and name in dir(exercises)


def test_unknown_check_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        exercises.check_that_does_not_exist  # noqa: B018


def test_importing_the_package_loads_no_chapter_module() -> None:
    code = ("import sys, ksched_edu.exercises; "
            "print(sorted(m for m in sys.modules if m.startswith('ksched_edu.exercises.ch')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "[]"


# --- chapter 00 -------------------------------------------------------------------------


@pytest.mark.ch00
@pytest.mark.parametrize("answer,ok", [("2", True), ("1500m", True), ("500m", False), ("4", False),
                                       ("lots", False), (..., False)],
                         ids=["2 CPUs: n1", "1500m: n1", "500m: still n3", "4 CPUs: fits nowhere",
                              "not a quantity", "unanswered"])
def test_check_tour_cpu_request(capsys: pytest.CaptureFixture, answer: Any, ok: bool) -> None:
    assert verdict(capsys, exercises.check_tour_cpu_request, answer)[0] is ok


@pytest.mark.ch00
@pytest.mark.parametrize("answer,ok", [("n3", True), ("n2", False), ("n9", False), (None, False)],
                         ids=["n3", "n2, the big node", "no such node", "unanswered"])
def test_check_tour_prediction(capsys: pytest.CaptureFixture, answer: Any, ok: bool) -> None:
    assert verdict(capsys, exercises.check_tour_prediction, answer)[0] is ok


# --- chapter 01 -------------------------------------------------------------------------


@pytest.mark.ch01
@pytest.mark.parametrize("answer,ok", [
    (["x1", "y1", "z1", "x2", "y2", "x3"], True),
    (["x1", "x2", "y1", "x3", "z1", "y2"], False),
    (["x1", "x2", "x3", "y1", "y2", "z1"], False),
    (["x1", "y1", "z1"], False),
    (..., False),
], ids=["round robin over zones", "creation order", "zone by zone", "too few nodes", "unanswered"])
def test_check_node_tree_order(capsys: pytest.CaptureFixture, answer: Any, ok: bool) -> None:
    assert verdict(capsys, exercises.check_node_tree_order, answer)[0] is ok


@pytest.mark.ch01
@pytest.mark.parametrize("requested,non_zero,ok", [(500, 600, True), (500, 500, False), (600, 600, False),
                                                    (..., ..., False)],
                         ids=["defaults for the BestEffort pod", "no default", "default in requested too",
                              "unanswered"])
def test_check_non_zero_cpu(capsys: pytest.CaptureFixture, requested: Any, non_zero: Any, ok: bool) -> None:
    assert verdict(capsys, exercises.check_non_zero_cpu, requested, non_zero)[0] is ok


# --- chapter 02: tests/exercises/test_ch02.py ------------------------------------------


# --- chapter 03 -------------------------------------------------------------------------


class _Prefer:
    """Score: ``high`` for nodes of ``zone``, 0 elsewhere."""

    def __init__(self, handle: Any, zone: str = "zone-a", high: int = 100) -> None:
        self.handle, self.zone, self.high = handle, zone, high

    def name(self) -> str:
        return "Prefer"

    def score(self, state: Any, pod: Any, node_name: str) -> tuple[int, None]:
        node = self.handle.snapshot_shared_lister().node_infos().get(node_name).node()
        return (self.high if node.labels.get("topology.kubernetes.io/zone") == self.zone else 0), None

    def score_extensions(self) -> None:
        return None


def _config(enable_at: str = "score") -> Any:
    from ksched_edu.config.loader import load_config_data

    weight = "\n        weight: 1" if enable_at == "score" else ""
    return load_config_data(f"""
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    {enable_at}:
      enabled:
      - name: Prefer{weight}
""")


def _registry(**kw: Any) -> dict:
    from ksched_edu.framework.plugins.registry import new_in_tree_registry
    from ksched_edu.framework.runtime import merge_registries

    return merge_registries(new_in_tree_registry(), {"Prefer": lambda args, handle: _Prefer(handle, **kw)})


@pytest.mark.ch03
@pytest.mark.parametrize("make,ok,says", [
    (lambda: (_registry(), _config()), True, "lands on n1"),
    (lambda: (_registry(zone="zone-b"), _config()), False, "lands on n3"),
    (lambda: (_registry(high=5), _config()), False, "lands on n3"),
    (lambda: (_registry(), _config("filter")), False, "could not run"),
    (lambda: (_registry(), __import__("ksched_edu.config.loader", fromlist=["x"]).default_config()), False,
     "no Score call"),
    (lambda: (__import__("ksched_edu.framework.plugins.registry", fromlist=["x"]).new_in_tree_registry(), _config()),
     False, "only in-tree"),
    (lambda: (..., ...), False, "not a plugin registry"),
], ids=["prefer zone-a", "prefer zone-b", "too small a score", "enabled at a point it lacks",
        "not enabled", "plugin not registered", "unanswered"])
def test_check_score_plugin(capsys: pytest.CaptureFixture, make: Callable[[], tuple], ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_score_plugin, *make())
    assert result is ok and says in out, out
