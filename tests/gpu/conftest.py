from __future__ import annotations

from pathlib import Path

import pytest

from ksched_edu.gpu.catalog import TopologyCatalog

TOPOLOGIES = Path(__file__).resolve().parents[2] / "data" / "topologies"
DUMPS = sorted(TOPOLOGIES.glob("*.txt"))


@pytest.fixture(scope="session")
def catalog() -> TopologyCatalog:
    return TopologyCatalog(TOPOLOGIES)
