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


@pytest.fixture
def offline_go(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """No checkout and no download: a SourceView shows its permalink, as in a chapter's run."""
    from tests.chapter_views import offline_sources

    offline_sources(monkeypatch, tmp_path / "cache")
