"""Bounded checks: a learner's endless loop or endless Error ends with a verdict, not a hang."""
from __future__ import annotations

import time

import yaml

from ksched_edu.api.loader import load_cluster
from ksched_edu.config.loader import load_config_data
from ksched_edu.exercises.core import (CheckTimeout, call_answer, cycle_errors, describe_exception,
                                       run_learner_simulation, time_limit)
from ksched_edu.framework.interface import Code, Status
from ksched_edu.framework.plugins.registry import merge_registries, new_in_tree_registry
from ksched_edu.sim.simulation import Simulation
from ksched_edu.trace import Recorder

from ksched_edu.exercises.core import ROOT


class _ErrorFilter:
    def __init__(self, handle: object) -> None:
        self.handle = handle

    def name(self) -> str:
        return "DiskCheck"

    def filter(self, state: object, pod: object, node_info: object) -> Status:
        return Status(Code.Error, ["disk on fire"])


class _EndlessFilter(_ErrorFilter):
    def filter(self, state: object, pod: object, node_info: object) -> Status:
        while True:
            pass


def _simulation(plugin: type, rec: Recorder) -> Simulation:
    config = load_config_data(yaml.safe_dump({
        "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
        "profiles": [{"schedulerName": "default-scheduler",
                      "plugins": {"filter": {"enabled": [{"name": "DiskCheck"}]}}}]}))
    registry = merge_registries(new_in_tree_registry(), {"DiskCheck": lambda args, handle: plugin(handle)})
    return Simulation(load_cluster(ROOT / "data/clusters/three-nodes.yaml"), config, seed=1, recorder=rec,
                      registry=registry)


def test_time_limit_interrupts_an_endless_loop() -> None:
    start = time.monotonic()
    ok, err = call_answer(lambda: [None for _ in iter(int, 1)], seconds=0.2)
    assert not ok and isinstance(err, CheckTimeout)
    assert time.monotonic() - start < 5
    assert "a loop that never ends" in describe_exception(err)


def test_time_limit_restores_the_previous_alarm_handler() -> None:
    import signal

    before = signal.getsignal(signal.SIGALRM)
    with time_limit(5):
        pass
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_plugin_that_always_errors_ends_on_the_virtual_clock_with_its_error_text() -> None:
    rec = Recorder()
    why = run_learner_simulation(_simulation(_ErrorFilter, rec), until=120)
    assert why is not None and "still being retried after 120 s" in why
    assert cycle_errors(rec) == ['running "DiskCheck" filter plugin: disk on fire']
    assert cycle_errors(rec, pod="default/nobody") == []


def test_a_plugin_that_never_returns_ends_on_the_wall_clock() -> None:
    start = time.monotonic()
    why = run_learner_simulation(_simulation(_EndlessFilter, Recorder()), seconds=0.5)
    assert why is not None and "still running after 0.5 s" in why
    assert time.monotonic() - start < 10


def test_a_good_simulation_runs_to_its_end() -> None:
    class Fine(_ErrorFilter):
        def filter(self, state: object, pod: object, node_info: object) -> Status:
            return Status()

    sim = _simulation(Fine, Recorder())
    assert run_learner_simulation(sim) is None
    assert sim.placements()


def test_an_endless_learner_plugin_gets_its_verdict_within_eight_seconds() -> None:
    """With the default limit (no test override), a check's verdict on an endless answer comes
    within 8 s of wall time: the limit, the run up to the learner's code and the verdict itself."""
    start = time.monotonic()
    why = run_learner_simulation(_simulation(_EndlessFilter, Recorder()))
    assert why is not None and "still running after" in why
    assert time.monotonic() - start <= 8.0
