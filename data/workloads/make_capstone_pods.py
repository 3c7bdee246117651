"""Write capstone-pods.yaml: the pending pods of chapter 11, for data/clusters/zones-100.yaml.

Deterministic (no randomness): 60 ``shop`` pods that ask, by label, to run in
zone-a (6 CPU, 12Gi each: one fits on an 8-CPU node, two on a 16-CPU one, so
zone-a cannot hold them all), and 60 ``batch`` pods with no preference (1 CPU,
2Gi each), interleaved so the two kinds arrive in turn.

    python data/workloads/make_capstone_pods.py
"""
from __future__ import annotations

from pathlib import Path

import yaml

PREFERRED_ZONE_LABEL = "example.com/preferred-zone"
PER_KIND = 60


def pod(name: str, app: str, cpu: str, memory: str, zone: str = "") -> dict:
    labels = {"app": app}
    if zone:
        labels[PREFERRED_ZONE_LABEL] = zone
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": labels},
        "spec": {"containers": [{
            "name": app, "image": "registry.k8s.io/pause:3.9",
            "resources": {"requests": {"cpu": cpu, "memory": memory}}}]},
    }


def main() -> None:
    docs = []
    for i in range(PER_KIND):
        docs.append(pod(f"shop-{i:02d}", "shop", "6", "12Gi", zone="zone-a"))
        docs.append(pod(f"batch-{i:02d}", "batch", "1", "2Gi"))
    header = ("# Pending pods for chapter 11, to load with data/clusters/zones-100.yaml;\n"
              "# written by make_capstone_pods.py, do not edit.\n")
    out = Path(__file__).with_name("capstone-pods.yaml")
    out.write_text(header + yaml.safe_dump_all(docs, sort_keys=False))


if __name__ == "__main__":
    main()
