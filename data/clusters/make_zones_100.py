"""Write zones-100.yaml: 100 nodes across three zones, some running pods, one pending pod.

Deterministic (no randomness): node i lives in zone ``"abc"[i % 3]`` and its
size cycles through three shapes, so the file is the same on every run.

    python data/clusters/make_zones_100.py
"""
from __future__ import annotations

from pathlib import Path

import yaml

ZONES = ["zone-a", "zone-b", "zone-c"]
SHAPES = [("4", "8Gi"), ("8", "16Gi"), ("16", "32Gi")]  # (cpu, memory)
NODES = 100
RUNNING_PODS = 30


def node(i: int) -> dict:
    name = f"node-{i:03d}"
    cpu, memory = SHAPES[(i // 3) % len(SHAPES)]
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": {
            "kubernetes.io/hostname": name, "topology.kubernetes.io/zone": ZONES[i % len(ZONES)]}},
        "status": {"capacity": {"cpu": cpu, "memory": memory, "pods": "110"}},
    }


def running_pod(j: int) -> dict:
    # Pod j runs on node 7j mod 100 (distinct nodes, all zones); the clock starts at 2024-01-01.
    stamp = f"2024-01-01T00:{j:02d}:00Z"
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": f"app-{j:02d}", "namespace": "default", "labels": {"app": "app"},
                     "creationTimestamp": stamp},
        "spec": {"nodeName": f"node-{7 * j % NODES:03d}", "containers": [{
            "name": "app", "image": "registry.k8s.io/pause:3.9",
            "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]},
        "status": {"phase": "Running", "startTime": stamp},
    }


def pending_pod() -> dict:
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "web", "namespace": "default", "labels": {"app": "web"}},
        "spec": {"containers": [{
            "name": "nginx", "image": "nginx:1.25",
            "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}]},
    }


def main() -> None:
    docs = [node(i) for i in range(NODES)]
    docs += [running_pod(j) for j in range(RUNNING_PODS)]
    docs.append(pending_pod())
    header = "# 100 nodes across three zones; written by make_zones_100.py, do not edit.\n"
    out = Path(__file__).with_name("zones-100.yaml")
    out.write_text(header + yaml.safe_dump_all(docs, sort_keys=False))


if __name__ == "__main__":
    main()
