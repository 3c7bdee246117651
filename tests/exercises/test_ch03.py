"""Chapter 03's checks: the right answer prints ✔, each common wrong answer ✘ with its hint."""
from __future__ import annotations

from typing import Any, Callable

import pytest

from ksched_edu import exercises
from ksched_edu.config.loader import default_config, load_config_data
from ksched_edu.exercises import ch03
from ksched_edu.framework.interface import Code, new_status
from ksched_edu.framework.plugins.registry import new_in_tree_registry
from ksched_edu.framework.runtime import merge_registries
from tests.exercises.verdicts import endless, verdict

pytestmark = pytest.mark.ch03

ZONE = "topology.kubernetes.io/zone"


@pytest.fixture(autouse=True)
def _short_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A learner's endless loop ends after half a second here, not six."""
    monkeypatch.setattr(ch03, "SECONDS", 0.5)


# --- check_score_plugin ---------------------------------------------------------------------


class _PreferZoneA:
    """The right answer: 100 for zone-a, 0 elsewhere."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def name(self) -> str:
        return "PreferZoneA"

    def score(self, state: Any, pod: Any, node_name: str) -> tuple[int, Any]:
        node = self.handle.snapshot_shared_lister().node_infos().get(node_name).node()
        return (100 if node.labels.get(ZONE) == "zone-a" else 0), None

    def score_extensions(self) -> None:
        return None


class _WrongNode(_PreferZoneA):
    def score(self, state: Any, pod: Any, node_name: str) -> tuple[int, Any]:
        node = self.handle.snapshot_shared_lister().node_infos().get(node_name).node()
        return (100 if node.labels.get(ZONE) == "zone-b" else 0), None


class _Raises(_PreferZoneA):
    def score(self, state: Any, pod: Any, node_name: str) -> tuple[int, Any]:
        return {}["no such key"], None


class _ReturnsError(_PreferZoneA):
    def score(self, state: Any, pod: Any, node_name: str) -> tuple[int, Any]:
        return 0, new_status(Code.Error, "zone label unreadable")


class _Endless(_PreferZoneA):
    def score(self, state: Any, pod: Any, node_name: str) -> tuple[int, Any]:
        while True:
            pass


class _Placeholder(_PreferZoneA):
    def score(self, state: Any, pod: Any, node_name: str) -> tuple[int, Any]:
        raise NotImplementedError


def _registry(plugin: type = _PreferZoneA) -> dict:
    return merge_registries(new_in_tree_registry(), {"PreferZoneA": lambda args, handle: plugin(handle)})


def _config(point: str = "score") -> Any:
    weight = "\n        weight: 1" if point == "score" else ""
    return load_config_data(f"""
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    {point}:
      enabled:
      - name: PreferZoneA{weight}
""")


@pytest.mark.parametrize("make,ok,says", [
    (lambda: (_registry(), _config()), True, "now lands on n1"),
    (lambda: (None, None), False, "not a plugin registry"),
    (lambda: (..., _config()), False, "not a plugin registry"),
    (lambda: ([("PreferZoneA", _PreferZoneA)], _config()), False, "not a plugin registry"),
    (lambda: (_registry(), {"profiles": []}), False, "not a KubeSchedulerConfiguration"),
    (lambda: (new_in_tree_registry(), _config()), False, "only in-tree plugins"),
    (lambda: (_registry(), default_config()), False, "no Score call of PreferZoneA"),
    (lambda: (_registry(), _config("filter")), False, "could not run with your plugin"),
    (lambda: (_registry(_Raises), _config()), False, "KeyError"),
    (lambda: (_registry(_Placeholder), _config()), False, "NotImplementedError"),
    (lambda: (_registry(_ReturnsError), _config()), False,
     'cycle failed: running Score plugins: plugin "PreferZoneA" failed with: zone label unreadable'),
    (lambda: (_registry(_Endless), _config()), False, "a loop that never ends"),
    (lambda: (_registry(_WrongNode), _config()), False, "lands on n3"),
], ids=["right answer", "None", "placeholder ...", "wrong type (a list)", "config of the wrong type",
        "plugin not registered", "registered, not enabled at score", "enabled at a point it lacks",
        "score raises", "score not written", "score returns an Error", "score loops forever",
        "scores the wrong node"])
def test_check_score_plugin(capsys: pytest.CaptureFixture, make: Callable[[], tuple], ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_score_plugin, *make())
    assert result is ok and says in out, out


# --- check_pre_enqueue_count ---------------------------------------------------------------------


@pytest.mark.parametrize("predicted,ok,says", [
    (4, True, "ran 4 times for default/web: t=0s (PodAdd), t=2s (BackoffComplete), t=6.5s (NodeLabelChange), "
              "t=11s (BackoffComplete)"),
    (1, False, "PreEnqueue runs each time the pod would enter activeQ"),
    (3, False, "a move into backoffQ runs none"),
    (5, False, "is not the number of PreEnqueue calls"),
    (None, False, "no prediction yet"),
    (..., False, "no prediction yet"),
    ("4", False, "not a whole number"),
    (4.0, False, "not a whole number"),
    (True, False, "not a whole number"),
    (endless, False, "not a whole number"),
], ids=["right answer", "once", "off by one", "every event", "None", "placeholder ...", "a string", "a float",
        "a bool", "a function that never returns"])
def test_check_pre_enqueue_count(capsys: pytest.CaptureFixture, predicted: Any, ok: bool, says: str) -> None:
    result, out = verdict(capsys, exercises.check_pre_enqueue_count, predicted)
    assert result is ok and says in out, out


def test_the_doorman_scenario_runs_pre_enqueue_on_every_way_into_active_q() -> None:
    """Added, flushed from backoffQ, moved straight to activeQ: each runs PreEnqueue; a move into backoffQ does not."""
    from ksched_edu.trace import QueueEvent

    sim = ch03.doorman_run()
    assert [why for _, why in ch03.pre_enqueue_entries(sim)] == [
        "PodAdd", "BackoffComplete", "NodeLabelChange", "BackoffComplete"]
    to_backoff = [(e.time, e.event) for e in sim.recorder.of(QueueEvent)
                  if e.pod == "default/web" and e.action == "move" and e.queue == "Backoff"]
    assert to_backoff == [(0.5, "NodeLabelChange"), (9.5, "NodeLabelChange")]
    assert [p.node for p in sim.placements() if p.pod == "default/web"] == ["n1"]
    # no event: added once, tried once, parked for good
    assert [why for _, why in ch03.pre_enqueue_entries(ch03.doorman_run(()))] == ["PodAdd"]


def test_an_endless_score_plugin_gets_its_verdict_within_eight_seconds_at_the_default_limit(
        capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the default limit (core.TIME_LIMIT_SECONDS, no test override), building the scheduler and
    running it share one limit: the verdict comes within 8 s."""
    import time

    monkeypatch.setattr(ch03, "SECONDS", None)
    start = time.monotonic()
    result, out = verdict(capsys, exercises.check_score_plugin, _registry(_Endless), _config())
    assert result is False and "a loop that never ends" in out
    assert time.monotonic() - start <= 8.0
