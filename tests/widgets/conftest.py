from __future__ import annotations

import pytest

from .scenarios import crowded_cluster, teaching_cluster


@pytest.fixture(scope="session")
def teaching_sim():
    return teaching_cluster()


@pytest.fixture(scope="session")
def crowded_sim():
    return crowded_cluster()
