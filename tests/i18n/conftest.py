"""The language fixtures of the translation tests: each leaves the library in English after it."""
from __future__ import annotations

import re
from typing import Iterator

import pytest

from ksched_edu.i18n import set_language

CJK = re.compile(r"[\u4e00-\u9fff]")


def chinese(text: str) -> bool:
    """True when ``text`` holds a Chinese character."""
    return bool(CJK.search(text))


@pytest.fixture
def zh() -> Iterator[None]:
    set_language("zh_CN")
    try:
        yield
    finally:
        set_language(None)


@pytest.fixture
def en() -> Iterator[None]:
    set_language(None)
    yield
    set_language(None)


@pytest.fixture(scope="module")
def packing_sim():
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.gpu import plugins
    from ksched_edu.resources import data_path
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import Recorder

    return Simulation(load_cluster(data_path("clusters/gpu-packing.yaml")), plugins.scheduler_config("Binpack"),
                      seed=1, recorder=Recorder(), registry=plugins.full_registry()).run()
