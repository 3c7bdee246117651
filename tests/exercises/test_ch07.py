"""What chapter 07's checks read off the trace; their answer tables are in test_ch06_10.py."""
from __future__ import annotations

import pytest

from ksched_edu.exercises.ch07 import allow_one_disruption, dropped_by, first_preemption, run_scenario
from ksched_edu.framework.preemption import (CRITERION_MIN_HIGHEST_PRIORITY, CRITERION_MIN_PDB_VIOLATIONS,
                                             CRITERION_MIN_SUM_PRIORITIES)

pytestmark = pytest.mark.ch07


def test_dropped_by_reads_the_recorded_rules() -> None:
    sim, _ = run_scenario()
    event = first_preemption(sim)
    assert event.nominated_node == "n3"
    assert dropped_by(event) == {"n1": CRITERION_MIN_PDB_VIOLATIONS, "n4": CRITERION_MIN_HIGHEST_PRIORITY,
                                 "n2": CRITERION_MIN_SUM_PRIORITIES}


def test_one_allowed_disruption_makes_db_0_n1s_victim() -> None:
    sim, cluster = run_scenario(allow_one_disruption)
    assert [pdb.status.disruptions_allowed for pdb in cluster.pdbs] == [1]
    event = first_preemption(sim)
    victims = {c.node: (c.victims, c.num_pdb_violations) for c in event.candidates}
    assert victims["n1"] == (("default/db-0",), 0)  # db-1 violates, so it is reprieved first and fits back
    assert event.nominated_node == "n3"
    assert dropped_by(event) == {"n1": CRITERION_MIN_HIGHEST_PRIORITY, "n4": CRITERION_MIN_HIGHEST_PRIORITY,
                                 "n2": CRITERION_MIN_SUM_PRIORITIES}
