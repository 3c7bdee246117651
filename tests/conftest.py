"""Traces shared by the view tests (tests/widgets, tests/viz): see tests/widgets/scenarios.py."""
from __future__ import annotations

import pytest

from tests.widgets.scenarios import crowded_cluster, gang_cluster, teaching_cluster


@pytest.fixture(scope="session")
def teaching_sim():
    return teaching_cluster()


@pytest.fixture(scope="session")
def crowded_sim():
    return crowded_cluster()


@pytest.fixture(scope="session")
def gang_timeout_sim():
    """The gang alone under Coscheduling at Permit only: it waits, times out every 30 s."""
    return gang_cluster("coscheduling-permit-only.yaml", only_the_gang=True, until=45.0)


@pytest.fixture(scope="session")
def gang_sim():
    """data/workloads/gang.yaml under data/configs/coscheduling.yaml, run until quiescent."""
    return gang_cluster("coscheduling.yaml")
