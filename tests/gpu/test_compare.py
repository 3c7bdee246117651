"""Stock GPU binpacking (NodeResourcesFit MostAllocated / RequestedToCapacityRatio) beside GPUTopology.

No upstream test: the configurations are checked against the port's config loader, the
runs against what chapter 08 states, and the fragmentation measure against the ported
FGD measure (pkg/utils/frag.go) on whole GPUs.
"""
from __future__ import annotations

from collections import Counter

import pytest

from ksched_edu.api.loader import load_cluster
from ksched_edu.config.loader import load_config, load_config_data
from ksched_edu.gpu import compare, plugins
from ksched_edu.gpu.search import Constraint
from ksched_edu.gpu.sharing.frag import node_gpu_share_frag_amount_score
from ksched_edu.gpu.sharing.resource import NodeResource, PodResource, TargetPod
from ksched_edu.resources import data_path
from ksched_edu.scheduler import ConfigurationError
from ksched_edu.sim.simulation import Simulation

pytestmark = pytest.mark.ch08

LAB = [data_path("clusters", "gpu-lab.yaml"), data_path("workloads", "gpu-lab-jobs.yaml")]
STOCK = {"MostAllocated": "gpu-mostallocated.yaml", "RequestedToCapacityRatio": "gpu-requested-to-capacity.yaml"}


def stock_run(name: str, files=LAB) -> compare.RunOutcome:
    return compare.run(name, load_cluster(files), load_config(str(data_path("configs", STOCK[name]))))


def topology_run(files=LAB, bandwidth_weight: int = 50, **options) -> compare.RunOutcome:
    return compare.run("GPUTopology", load_cluster(files), plugins.scheduler_config(bandwidth_weight=bandwidth_weight),
                       registry=plugins.full_registry(), **options)


@pytest.fixture(scope="module")
def lab() -> dict[str, compare.RunOutcome]:
    runs = {name: stock_run(name) for name in STOCK}
    runs["GPUTopology"] = topology_run()
    return runs


@pytest.mark.parametrize("name,strategy", [("MostAllocated", "MostAllocated"),
                                           ("RequestedToCapacityRatio", "RequestedToCapacityRatio")])
def test_stock_configs_load_through_the_ports_loader(name: str, strategy: str) -> None:
    cfg = load_config(str(data_path("configs", STOCK[name])))
    [args] = [pc.args for pc in cfg.profiles[0].plugin_config if pc.name == "NodeResourcesFit"]
    assert args.scoring_strategy.type == strategy
    assert [(r.name, r.weight) for r in args.scoring_strategy.resources] == [("nvidia.com/gpu", 1)]


@pytest.mark.parametrize("name,shape,message", [
    ("utilization above 100", "- {utilization: 0, score: 0}\n          - {utilization: 101, score: 10}",
     "scoringStrategy.shape[1].utilization: Invalid value: 101: not in valid range [0, 100]"),
    ("score above 10", "- {utilization: 0, score: 0}\n          - {utilization: 100, score: 11}",
     "scoringStrategy.shape[1].score: Invalid value: 11: not in valid range [0, 10]"),
    ("utilization not increasing", "- {utilization: 50, score: 0}\n          - {utilization: 50, score: 10}",
     "scoringStrategy.shape[1].utilization: Invalid value: 50: utilization values must be sorted in increasing order"),
])
def test_a_bad_shape_is_refused_when_the_plugin_is_built(name: str, shape: str, message: str) -> None:
    # Upstream validates NodeResourcesFit's args in the plugin's constructor (the validation table
    # keys them "NodeResourcesFitArgs"), so the file loads and the scheduler refuses to start.
    text = f"""\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: RequestedToCapacityRatio
        resources:
        - name: nvidia.com/gpu
          weight: 1
        requestedToCapacityRatio:
          shape:
          {shape}
"""
    cfg = load_config_data(text)
    with pytest.raises(ConfigurationError) as err:
        Simulation(load_cluster(data_path("clusters", "gpu-packing.yaml")), cfg)
    assert 'initializing plugin "NodeResourcesFit"' in str(err.value) and message in str(err.value)


def test_the_two_stock_strategies_place_every_job_alike(lab) -> None:
    a, b = lab["MostAllocated"], lab["RequestedToCapacityRatio"]
    assert {p: (j.node, j.gpus) for p, j in a.jobs.items()} == {p: (j.node, j.gpus) for p, j in b.jobs.items()}


def test_the_cases_on_the_gpu_lab(lab) -> None:
    rows = compare.compare(lab["MostAllocated"], lab["GPUTopology"])
    cases = {r["pod"].split("/")[1]: r["case"] for r in rows}
    assert cases == {
        "bert-1": compare.FASTER_LINK,  # ws-a NV4 (56 GB/s) against h200-a NV18 (450 GB/s)
        "resnet-1": compare.OTHER_GPUS,
        "llm-1": compare.SAME,
        "notebook-1": compare.KNOCK_ON,
        "bert-2": compare.KNOCK_ON,
        "llm-2": compare.STOCK_BREAKS_CONSTRAINT,  # dgx1-a: NV1 (25 GB/s) for a 200 GB/s job
        "sweep-1": compare.KNOCK_ON,
        "sweep-2": compare.KNOCK_ON,
        "resnet-2": compare.OTHER_GPUS,
    }
    stock = lab["MostAllocated"].jobs["default/llm-2"]
    assert (stock.node, stock.slowest_link, stock.bottleneck, stock.meets_constraint) == ("dgx1-a", "NV1", 25, False)
    assert all(j.meets_constraint for j in lab["GPUTopology"].jobs.values())


def test_without_the_bandwidth_score_only_the_constraint_moves_a_job() -> None:
    rows = compare.compare(stock_run("MostAllocated"), topology_run(bandwidth_weight=0))
    moved = {r["pod"]: r["case"] for r in rows if r["case"] not in (compare.SAME, compare.OTHER_GPUS)}
    assert moved == {"default/llm-2": compare.STOCK_BREAKS_CONSTRAINT}


def test_on_identical_nvswitch_nodes_nothing_changes() -> None:
    files = [data_path("clusters", "gpu-packing.yaml")]
    rows = compare.compare(stock_run("MostAllocated", files), topology_run(files))
    assert Counter(r["case"] for r in rows) == {compare.SAME: 7}


def test_fragmentation_after_the_lab_run(lab) -> None:
    stock, topo = lab["MostAllocated"], lab["GPUTopology"]
    shapes = compare.job_shapes(stock)
    assert sum(shapes.values()) == pytest.approx(1.0) and len(shapes) == 7
    assert sum(len(f) for f in stock.free.values()) == sum(len(f) for f in topo.free.values()) == 17
    assert round(sum(compare.fragmentation(stock).values()), 6) == 6.0
    assert round(sum(compare.fragmentation(topo).values()), 6) == 7.777778
    assert sum(compare.fragmentation(stock, with_constraints=False).values()) < \
        sum(compare.fragmentation(topo, with_constraints=False).values())


def test_count_only_fragmentation_is_fgds_measure_on_whole_gpus(lab) -> None:
    outcome = lab["GPUTopology"]
    shapes = compare.job_shapes(outcome)
    mine = compare.fragmentation(outcome, shapes, with_constraints=False)
    by_count: Counter = Counter()
    for (count, _), weight in shapes.items():
        by_count[count] += weight
    typical = [TargetPod(PodResource(0, 1000, count), weight) for count, weight in sorted(by_count.items())]
    for node, free in outcome.free.items():
        res = NodeResource(node, 10**6, 10**6, [1000] * len(free), len(outcome.topologies[node].gpus), "GPU")
        assert mine[node] == pytest.approx(node_gpu_share_frag_amount_score(res, typical) / 1000), node


def test_a_link_aware_device_plugin_agrees_with_the_annotations_on_the_lab() -> None:
    written, chosen = topology_run(), topology_run(honour_annotations=False)
    assert {p: j.gpus for p, j in written.jobs.items()} == {p: j.gpus for p, j in chosen.jobs.items()}


@pytest.mark.parametrize("name,stock,topo,case", [
    ("both pending", compare.JobPlacement("p", 1, Constraint()), compare.JobPlacement("p", 1, Constraint()),
     compare.SAME),
    ("only one placed", compare.JobPlacement("p", 1, Constraint(), "a", (0,)),
     compare.JobPlacement("p", 1, Constraint()), compare.NOT_PLACED),
    ("same node other ids", compare.JobPlacement("p", 1, Constraint(), "a", (0,)),
     compare.JobPlacement("p", 1, Constraint(), "a", (1,)), compare.OTHER_GPUS),
    ("constraint broken wins over a faster link",
     compare.JobPlacement("p", 2, Constraint(nvlink=True), "a", (0, 1), "SYS", 4, False),
     compare.JobPlacement("p", 2, Constraint(nvlink=True), "b", (0, 1), "NV2", 50, True),
     compare.STOCK_BREAKS_CONSTRAINT),
    ("slower link elsewhere is a knock-on",
     compare.JobPlacement("p", 2, Constraint(), "a", (0, 1), "NV2", 50, True),
     compare.JobPlacement("p", 2, Constraint(), "b", (0, 1), "NV1", 25, True), compare.KNOCK_ON),
])
def test_case_of(name: str, stock, topo, case: str) -> None:
    assert compare.case_of(stock, topo) == case


def test_device_plugin_choice_refuses_too_few_free_gpus(catalog) -> None:
    top = catalog.get("dgx-1-v100")
    assert compare.device_plugin_choice(top, range(8), 4) == (0, 1, 2, 3)
    with pytest.raises(ValueError, match="4 GPUs asked, 2 free"):
        compare.device_plugin_choice(top, [0, 1], 4)
