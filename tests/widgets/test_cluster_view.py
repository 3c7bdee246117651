"""ClusterView outside a notebook: requested vs allocatable, read from the scheduler cache."""
from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from ksched_edu.api.loader import load_cluster  # noqa: E402
from ksched_edu.config.loader import default_config  # noqa: E402
from ksched_edu.internal.cache.snapshot import Snapshot  # noqa: E402
from ksched_edu.sim.simulation import Simulation  # noqa: E402
from ksched_edu.trace import Recorder  # noqa: E402
from ksched_edu.widgets import ClusterView  # noqa: E402
from ksched_edu.widgets.cluster_view import heat_colour  # noqa: E402
from tests.builders import make_node, make_pod  # noqa: E402

from .scenarios import THREE_NODES, teaching_cluster  # noqa: E402

pytestmark = pytest.mark.ch05

TEACHING_ROWS = [
    ("n1", {"cpu": "1 / 4 (25%)", "memory": "2Gi / 8Gi (25%)", "pods": "1 / 110 (1%)",
            "pods on node": "default/cache"}),
    ("n2", {"cpu": "2 / 8 (25%)", "memory": "4Gi / 16Gi (25%)", "pods": "1 / 110 (1%)",
            "pods on node": "default/batch-1"}),
    ("n3", {"cpu": "500m / 2 (25%)", "memory": "512Mi / 4Gi (12%)", "pods": "1 / 110 (1%)",
            "pods on node": "default/web"}),
]


@pytest.mark.parametrize("node, expected", TEACHING_ROWS, ids=[r[0] for r in TEACHING_ROWS])
def test_rows_after_web_is_bound(teaching_sim, node, expected):
    view = ClusterView(teaching_sim)
    row = next(r for r in view.rows() if r["node"] == node)
    assert row == {"node": node, **expected}
    assert view.resources == ["cpu", "memory", "pods"]


def test_an_assumed_pod_is_marked_until_bound():
    sim = teaching_cluster(bind_latency=1.0, until=0.5)
    view = ClusterView(sim)
    n3 = next(r for r in view.rows() if r["node"] == "n3")
    assert n3["pods on node"] == "default/web (assumed)"  # optimistic binding: counted before it is bound
    assert n3["cpu"] == "500m / 2 (25%)"
    sim.run(until=5.0)
    assert next(r for r in view.rows() if r["node"] == "n3")["pods on node"] == "default/web (assumed)"
    view.refresh()  # the view is a copy taken at one moment
    assert next(r for r in view.rows() if r["node"] == "n3")["pods on node"] == "default/web"


def test_gpus_get_a_column():
    cluster = load_cluster(THREE_NODES)
    cluster.nodes.append(make_node().name("g1").capacity({"nvidia.com/gpu": "4"}, cpu="8", memory="32Gi",
                                                         pods="110").obj())
    cluster.pods.append(make_pod().name("train").namespace("default").uid("train")
                        .scheduler_name("default-scheduler").priority(0)
                        .req({"nvidia.com/gpu": "2"}, cpu="1").obj())
    sim = Simulation(cluster, default_config(), seed=1, recorder=Recorder())
    sim.run(until=5.0)
    view = ClusterView(sim)
    assert view.resources == ["cpu", "memory", "pods", "nvidia.com/gpu"]
    g1 = next(r for r in view.rows() if r["node"] == "g1")
    assert g1["nvidia.com/gpu"] == "2 / 4 (50%)"
    assert view.fractions()["g1"]["nvidia.com/gpu"] == 0.5
    assert "ksched-heat-5" in view.table_html


def test_other_sources_and_a_clear_error(teaching_sim):
    snap = Snapshot()
    teaching_sim.scheduler.cache.update_snapshot(snap)
    assert [r["node"] for r in ClusterView(snap).rows()] == ["n1", "n2", "n3"]
    assert len(ClusterView(teaching_sim.scheduler).rows()) == 3
    with pytest.raises(TypeError, match="cannot read nodes from str"):
        ClusterView("n1")


@pytest.mark.parametrize("fraction, colour", [(0.0, "#ffffff"), (0.5, "#ffe0a0"), (1.0, "#e57373"),
                                              (1.7, "#e57373")])
def test_heat_colour(fraction, colour):
    assert heat_colour(fraction) == colour
