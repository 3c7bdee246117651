"""GPUTopology's Filter + Score time per node, on 8- and 16-GPU nodes.

For each topology, NODES nodes of that server get a random set of busy GPUs
(seeded), held by running pods that carry their GPU ids. A pending job asks
for ``k`` GPUs (with or without a constraint); the plugin's PreFilter runs
once, then Filter on every node, PreScore over the feasible ones and Score on
each. The time per node is that total divided by the number of nodes.

- *first pass*: the subset-search memo of the topology is empty when the pass
  starts (nodes with the same busy GPUs still share a search within the pass);
- *memo warm*: the same pass again, every search answered from the memo.

Each figure is the best of three runs.

The 16-GPU PCIe server (two sockets, four switches of two GPUs per socket)
and the 16-GPU "double cube-mesh" (two DGX-1 boards whose twin GPUs are
NVLinked) are built here, not read from data/topologies: they are stress
cases, not products.

    python benchmarks/gpu_topology.py            # the table
    python benchmarks/gpu_topology.py --nodes 50 # fewer nodes, quicker
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ksched_edu.api.quantity import parse_quantity  # noqa: E402
from ksched_edu.api.types import (Container, Node, NodeStatus, ObjectMeta, Pod, PodSpec,  # noqa: E402
                                  ResourceRequirements)
from ksched_edu.framework.cycle_state import CycleState  # noqa: E402
from ksched_edu.gpu.catalog import TOPOLOGY_LABEL, TopologyCatalog  # noqa: E402
from ksched_edu.gpu.ledger import GPUS_ANNOTATION  # noqa: E402
from ksched_edu.gpu.plugins.gpu_topology import CONSTRAINT_ANNOTATION, GPUTopology, GPUTopologyArgs  # noqa: E402
from ksched_edu.gpu.topology import Topology  # noqa: E402
from ksched_edu.internal.cache.snapshot import Snapshot  # noqa: E402

GPU = "nvidia.com/gpu"
NODES = 200
REPEAT = 3
JOBS = [(1, ""), (2, "nvlink"), (4, ""), (4, "nvlink"), (4, "same-numa"), (8, "")]


def pcie_16() -> Topology:
    def link(i: int, j: int) -> str:
        return "X" if i == j else "PIX" if i // 2 == j // 2 else "NODE" if i // 8 == j // 8 else "SYS"

    return Topology.from_matrix("pcie-2socket-16gpu", [[link(i, j) for j in range(16)] for i in range(16)],
                                numa=[i // 8 for i in range(16)], switches=[f"sw{i // 2}" for i in range(16)])


def double_cube_mesh(dgx1: Topology) -> Topology:
    def link(i: int, j: int) -> str:
        if i == j:
            return "X"
        if i // 8 == j // 8:
            return dgx1.links[i % 8][j % 8].label
        return "NV1" if i % 8 == j % 8 else "SYS"

    return Topology.from_matrix("double-cube-mesh-16gpu", [[link(i, j) for j in range(16)] for i in range(16)],
                                numa=[i // 4 for i in range(16)], switches=[f"sw{i // 2}" for i in range(16)])


def node(name: str, topology: str, gpus: int) -> Node:
    capacity = {"cpu": parse_quantity("64"), "memory": parse_quantity("512Gi"), "pods": parse_quantity("110"),
                GPU: parse_quantity(str(gpus))}
    return Node(ObjectMeta(name=name, labels={TOPOLOGY_LABEL: topology}),
                status=NodeStatus(capacity=dict(capacity), allocatable=dict(capacity)))


def pod(name: str, gpus: int, node_name: str = "", ids: str = "", constraint: str = "") -> Pod:
    ann = {}
    if ids:
        ann[GPUS_ANNOTATION] = ids
    if constraint:
        ann[CONSTRAINT_ANNOTATION] = constraint
    res = ResourceRequirements(requests={"cpu": parse_quantity("1"), GPU: parse_quantity(str(gpus))}, limits={})
    return Pod(ObjectMeta(name=name, namespace="default", uid=name, annotations=ann),
               PodSpec(containers=[Container("main", image="pytorch", resources=res)], node_name=node_name,
                       scheduler_name="default-scheduler"))


class _Handle:
    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot

    def snapshot_shared_lister(self) -> Snapshot:
        return self.snapshot

    def client(self) -> None:
        return None


def cluster(top: Topology, rng: random.Random, nodes: int) -> Snapshot:
    n = len(top.gpus)
    node_objs, pods = [], []
    for i in range(nodes):
        name = f"{top.name}-{i:03d}"
        node_objs.append(node(name, top.name, n))
        busy = sorted(rng.sample(range(n), rng.randint(0, n // 2)))
        for g in busy:  # one running pod per busy GPU
            pods.append(pod(f"{name}-run-{g}", 1, name, str(g)))
    return Snapshot.from_objects(pods, node_objs)


def one_pass(plugin: GPUTopology, snapshot: Snapshot, job: Pod) -> tuple[float, int]:
    infos = snapshot.node_infos().list()
    start = time.perf_counter()
    state = CycleState()
    plugin.pre_filter(state, job)
    feasible = [info for info in infos if plugin.filter(state, job, info) is None]
    if feasible:
        plugin.pre_score(state, job, feasible)
        for info in feasible:
            plugin.score(state, job, info.name)
    return time.perf_counter() - start, len(feasible)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=NODES)
    opts = parser.parse_args()
    stock = TopologyCatalog()
    tops = [stock.get("dgx-1-v100"), stock.get("dgx-a100"), stock.get("pcie-2socket-8gpu"), stock.get("dgx-2"),
            pcie_16(), double_cube_mesh(stock.get("dgx-1-v100"))]
    print(f"GPUTopology Filter+Score per node ({opts.nodes} nodes per row, random busy GPUs, seed 1)\n")
    header = f"{'topology':<24}{'GPUs':>5}  {'job':<16}{'feasible':>9}{'first pass':>14}{'memo warm':>12}"
    print(header)
    print("-" * len(header), flush=True)
    for top in tops:
        catalog = TopologyCatalog(topologies={top.name: top})
        snapshot = cluster(top, random.Random(1), opts.nodes)
        plugin = GPUTopology(GPUTopologyArgs(), _Handle(snapshot), catalog=catalog)
        for count, constraint in JOBS:
            job = pod("job", count, constraint=constraint)
            colds, warms = [], []
            for _ in range(REPEAT):  # the best of a few, so that other work on the machine weighs less
                top.search_cache.clear()
                cold, feasible = one_pass(plugin, snapshot, job)
                colds.append(cold)
                warms.append(one_pass(plugin, snapshot, job)[0])
            cold, warm = min(colds), min(warms)
            what = f"{count} GPU{'s' if count > 1 else ''}" + (f" {constraint}" if constraint else "")
            print(f"{top.name:<24}{len(top.gpus):>5}  {what:<16}{feasible:>9}"
                  f"{cold / opts.nodes * 1e6:>11.0f} µs{warm / opts.nodes * 1e6:>9.0f} µs", flush=True)
    print("\nµs: microseconds of wall time per node, this machine; first pass includes the searches.")


if __name__ == "__main__":
    main()
