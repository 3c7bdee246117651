"""The command line: ``python -m ksched_edu case|schedule|conformance ...``.

``case DIR...`` answers scenario folders (cluster.yaml, config.yaml, case.yaml)
as the conformance contract specifies: one JSON line per folder. ``schedule``
runs one scheduling cycle on a cluster and prints, node by node, what every
Filter plugin said and what every Score plugin gave, then the chosen node.

Both read the trace the scheduler recorded; neither re-computes a verdict.
A user's mistake (a bad file, a bad configuration) is one line on stderr and
exit status 2, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from .anchors import plumbing
from .api.errors import ManifestError
from .case import answer_case, cycle_report, first_attempt_report  # noqa: F401  (chapters import them from here)
from .api.loader import load_cluster
from .api.types import Cluster
from .config import features
from .config.loader import ConfigError, default_config, load_config
from .framework.plugins.registry import new_registry_with_out_of_tree
from .scheduler import ConfigurationError
from .sim.simulation import Simulation
from .sim.storage_controller import StorageControllerOptions
from .trace import NULL_RECORDER, Recorder

EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 128 + 13  # a shell's status for a command ended by SIGPIPE


# --- schedule -------------------------------------------------------------------------------


def _load_inputs(cluster_arg: str, config_arg: Optional[str]) -> tuple[Cluster, Any]:
    cluster = load_cluster(Path(cluster_arg))
    config = load_config(Path(config_arg)) if config_arg else default_config()
    return cluster, config


@plumbing("command-line interface")
def schedule_command(args: argparse.Namespace) -> int:
    cluster, config = _load_inputs(args.cluster, args.config)
    pending = cluster.pending_pods
    if not pending:
        print(f"{args.cluster}: no pending pod (a pod without spec.nodeName) to schedule", file=sys.stderr)
        return EXIT_USAGE
    pod_key = args.pod or pending[0].key
    if pod_key not in {p.key for p in pending}:
        print(f"{args.cluster}: Pod {pod_key}: not a pending pod of this cluster", file=sys.stderr)
        return EXIT_USAGE
    recorder = Recorder()
    try:
        sim = Simulation(cluster, config, seed=args.seed, recorder=recorder,
                         registry=new_registry_with_out_of_tree())
    except ConfigurationError as err:
        print(f"{args.config or 'the default configuration'}: {err}", file=sys.stderr)
        return EXIT_USAGE
    report = first_attempt_report(sim, recorder, pod_key)
    print(format_report(pod_key, report, [n.name for n in cluster.nodes]))
    if args.trace:
        recorder.to_frame().to_csv(args.trace, index=False)
        print(f"trace: {len(recorder)} events written to {args.trace}")
    return 0


@plumbing("command-line interface")
def format_report(pod_key: str, report: dict[str, Any], node_names: list[str]) -> str:
    """Two tables: each node's Filter verdict and reasons, then each Score plugin's weighted
    score on every node that passed (a column per node, so the lines stay short)."""
    lines = [f"Pod {pod_key}"]
    for plugin, st in report["preFilter"].items():
        if st["code"] != "Skip":
            lines.append(f"  PreFilter {plugin}: {st['code']} {'; '.join(st['reasons'])}")
    rows = [["NODE", "FILTER", "REASONS"]]
    for name in node_names:
        f = report["filter"].get(name)
        reasons = "; ".join(r for p in (f["plugins"].values() if f else []) for r in p["reasons"])
        rows.append([name + (" *" if name in report["best"] else ""), f["status"] if f else "-", reasons or "-"])
    lines += _table(rows, right_aligned_from=len(rows[0]))
    scored = [name for name in node_names if name in report["scores"]]
    if scored:
        plugins = sorted({p for name in scored for p in report["scores"][name]["plugins"]})
        rows = [["SCORE (weighted)"] + scored]
        rows += [[p] + [str(report["scores"][name]["plugins"].get(p, "")) for name in scored] for p in plugins]
        rows.append(["TOTAL"] + [str(report["scores"][name]["total"]) for name in scored])
        lines += [""] + _table(rows, right_aligned_from=1)
    if report.get("fitError"):
        lines.append(f"Unschedulable: {report['fitError']}")
    elif report["best"]:
        lines.append(f"Best: {', '.join(report['best'])}  (* marks the top score; ties are broken at random)")
    return "\n".join(lines)


def _table(rows: list[list[str]], right_aligned_from: int) -> list[str]:
    """Rows as aligned text lines, two spaces in; columns from ``right_aligned_from`` on right-aligned."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(c.rjust(w) if i >= right_aligned_from else c.ljust(w)
                             for i, (c, w) in enumerate(zip(r, widths))).rstrip() for r in rows]


# --- simulate -------------------------------------------------------------------------------

@plumbing("command-line interface")
def parse_feature_gates(text: Optional[str]) -> dict[str, bool]:
    """``A=true,B=false`` as kube-scheduler's ``--feature-gates`` reads it: the gates set
    (every other gate keeps its v1.30 default); UsageError with upstream's message."""
    gate = features.FeatureGate()
    try:
        gate.set(text or "")
        features.check_ported(gate.overrides())
    except features.FeatureGateError as err:
        raise UsageError(f"--feature-gates: {err}") from None
    return gate.overrides()


@plumbing("command-line interface")
class UsageError(Exception):
    """A command-line argument that cannot be used."""


class _Progress:
    """A one-line progress bar on stderr: bound pods out of all pending pods."""

    def __init__(self, sim: Simulation, enabled: bool) -> None:
        self.sim, self.enabled, self.shown = sim, enabled, -1

    def __call__(self) -> None:
        if not self.enabled:
            return
        total = len(self.sim.pending) or 1
        bound = self.sim.bound_count()
        pct = 100 * bound // total
        if pct != self.shown:
            self.shown = pct
            bar = "#" * (pct // 4)
            print(f"\r[{bar:<25}] {pct:3d}%  {bound}/{total} pods bound  t={self.sim.clock.now:.1f}s",
                  end="", file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.enabled and self.shown >= 0:
            print(file=sys.stderr)


@plumbing("command-line interface")
def simulate_command(args: argparse.Namespace) -> int:
    import time

    from .sim.workload import load_workload

    gates = parse_feature_gates(args.feature_gates)
    files = [args.cluster] + ([args.workload] if args.workload else [])
    workload = load_workload(files)
    config = load_config(Path(args.config), gates=gates) if args.config else default_config(gates)
    recorder = Recorder() if args.trace else NULL_RECORDER
    try:
        sim = Simulation.from_workload(workload, config, seed=args.seed, recorder=recorder,
                                       registry=new_registry_with_out_of_tree(gates), bind_latency=args.bind_latency,
                                       queueing_hints=features.enabled(features.SCHEDULER_QUEUEING_HINTS, gates),
                                       storage_controller=StorageControllerOptions(
                                           provision_delay_seconds=args.provision_delay))
    except ConfigurationError as err:
        print(f"{args.config or 'the default configuration'}: {err}", file=sys.stderr)
        return EXIT_USAGE
    progress = _Progress(sim, enabled=args.progress or (len(sim.pending) >= 1000 and sys.stderr.isatty()))
    start = time.perf_counter()
    sim.run(until=args.until, progress=progress)
    progress.done()
    wall = time.perf_counter() - start
    print(format_simulation(sim, args.timeline, wall))
    if args.trace:
        recorder.to_frame().to_csv(args.trace, index=False)
        print(f"trace: {len(recorder)} events written to {args.trace}")
    return 0


@plumbing("command-line interface")
def format_simulation(sim: Simulation, timeline: int, wall_seconds: float) -> str:
    """A timeline of the API writes, then bound / pending (with reasons) / attempts."""
    lines = []
    # (API writes before it, time, line): the API writes, with what the storage controllers did among them.
    entries: list[tuple[int, float, str]] = []
    for index, w in enumerate(sim.api.writes):
        if w.verb in ("bind", "status", "delete") or (w.verb == "create" and w.kind in ("Node", "Pod")):
            what = {"bind": f"bound to {w.detail}", "status": f"unschedulable: {w.detail}",
                    "delete": "deleted", "create": "created"}[w.verb]
            entries.append((index, w.time, f"{w.kind} {w.key}: {what}"))
    controller = sim.storage_controller
    if controller is not None:
        for mark, event in zip(controller.write_marks, controller.events):
            entries.append((mark - 1, event.time, _storage_line(sim, event)))
    entries.sort(key=lambda e: e[0])
    if timeline:
        lines.append(f"Timeline (first {min(timeline, len(entries))} of {len(entries)} events):")
        for _, time_, text in entries[:timeline]:
            lines.append(f"  t={time_:8.3f}s  {text}")
    placements = sim.placements()
    bound = [p for p in placements if p.node]
    pending = [p for p in placements if not p.node]
    attempts = sim.scheduler.attempts
    lines.append("Summary:")
    lines.append(f"  pods bound: {len(bound)} of {len(placements)}; pending: {len(pending)}")
    reasons: dict[str, int] = {}
    for p in pending:
        reason = p.message or "(never attempted: no profile serves its schedulerName, or gated)"
        namespace, _, name = p.pod.partition("/")
        current = sim.api.get_pod(namespace, name)
        if current is not None and sim.scheduler.cache.is_assumed_pod(current):
            reason = "(assumed; its binding cycle has not ended: e.g. waiting at PreBind for its volumes)"
        reasons[reason] = reasons.get(reason, 0) + 1
    for message, count in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"    {count} pending: {message}")
    if attempts:
        values = list(attempts.values())
        lines.append(f"  scheduling attempts: {sum(values)} for {len(values)} pods "
                     f"(max {max(values)} for one pod)")
    victims = sim.victims()
    if victims:
        lines.append(f"  preempted: {len(victims)} ({', '.join(victims[:5])}{', ...' if len(victims) > 5 else ''})")
    lines.append(f"  virtual time: {sim.clock.now:.3f}s; wall time: {wall_seconds:.2f}s")
    return "\n".join(lines)


def _storage_line(sim: Simulation, event: Any) -> str:
    """One StorageEvent as a timeline line."""
    if event.action == "selected-node":
        pods = ", ".join(_pods_of_claim(sim, event.claim)) or "its pod"
        return (f"PersistentVolumeClaim {event.claim}: node {event.node} selected; "
                f"{pods} waits at PreBind for its volume")
    if event.action == "pre-bound":
        pods = ", ".join(_pods_of_claim(sim, event.claim)) or "its pod"
        return (f"PersistentVolume {event.volume}: pre-bound to {event.claim}; "
                f"{pods} waits at PreBind for the binding")
    if event.action == "provision":
        pv = sim.api.get("PersistentVolume", "", event.volume)
        where = ""
        if pv is not None and pv.spec.node_affinity is not None and pv.spec.node_affinity.required is not None:
            where = " in " + ", ".join(f"{e.key}={','.join(e.values)}"
                                       for t in pv.spec.node_affinity.required.node_selector_terms
                                       for e in t.match_expressions)
        return f"PersistentVolume {event.volume}: provisioned for {event.claim}{where}"
    if event.action == "bind":
        return f"PersistentVolumeClaim {event.claim}: bound to volume {event.volume}"
    return f"PersistentVolumeClaim {event.claim}: {event.action}: {event.message}"


def _pods_of_claim(sim: Simulation, claim: str) -> list[str]:
    namespace, _, name = claim.partition("/")
    return [f"pod {p.key}" for p in sim.pending if p.metadata.namespace == namespace and any(
        isinstance(v, dict) and (v.get("persistentVolumeClaim") or {}).get("claimName") == name
        for v in p.spec.volumes)]


@plumbing("command-line interface")
def fragmentation_command(args: argparse.Namespace) -> int:
    """Run one GPU-sharing experiment on an openb trace and write its allocation curve."""
    import time

    from .gpu.sharing.experiment import ProgressBar, run_files, summary, write_curve_csv
    from .gpu.sharing.openb import OpenbError

    start = time.perf_counter()
    try:
        result = run_files(args.nodes, args.pods, args.policy, args.seed, tune=args.tune,
                           progress=ProgressBar(sys.stderr, f"{args.policy} "))
    except OpenbError as err:
        print(str(err), file=sys.stderr)
        return EXIT_USAGE
    write_curve_csv([result], args.out)
    print(summary(result))
    print(f"allocation curve written to {args.out}; wall time: {time.perf_counter() - start:.1f}s")
    return 0


# --- main -------------------------------------------------------------------------------


@plumbing("command-line interface")
def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m ksched_edu", description="A readable port of kube-scheduler v1.30.")
    sub = ap.add_subparsers(dest="command", required=True)
    case = sub.add_parser("case", help="answer scenario folders as JSON lines (the conformance contract)")
    case.add_argument("dirs", nargs="+", metavar="DIR")
    sch = sub.add_parser("schedule", help="schedule one pod and show every node's verdict and scores")
    sch.add_argument("--cluster", required=True, help="YAML of nodes and pods (kubectl get -o yaml)")
    sch.add_argument("--config", help="a KubeSchedulerConfiguration (default: the default profile)")
    sch.add_argument("--pod", help="namespace/name of the pending pod (default: the first pending pod)")
    sch.add_argument("--trace", help="write the trace to this CSV file")
    sch.add_argument("--seed", type=int, default=0, help="seed for breaking score ties")
    sim = sub.add_parser("simulate", help="run pods (and nodes) arriving over virtual time; print a timeline")
    sim.add_argument("--cluster", required=True, help="YAML of the cluster at t=0")
    sim.add_argument("--workload", help="YAML of objects with ksched-edu.io/at, delete-at, replicas annotations")
    sim.add_argument("--config", help="a KubeSchedulerConfiguration (default: the default profile)")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--until", type=_seconds, help="stop at this virtual time (seconds); default: when quiescent")
    sim.add_argument("--bind-latency", type=_seconds, default=0.0, help="seconds each binding takes")
    sim.add_argument("--provision-delay", type=_seconds, default=StorageControllerOptions.provision_delay_seconds,
                     metavar="SECONDS",
                     help="seconds the simulated provisioner takes to create a claim's volume once the "
                          "scheduler selected a node (PreBind waits meanwhile); default %(default)s")
    sim.add_argument("--feature-gates", help="e.g. SchedulerQueueingHints=true")
    sim.add_argument("--timeline", type=_count, default=40, help="how many timeline lines to print (0: none)")
    sim.add_argument("--trace", help="record every event and write the trace to this CSV file")
    sim.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    frag = sub.add_parser("fragmentation", help="GPU sharing: one policy of the FGD paper on an openb trace")
    frag.add_argument("--nodes", required=True, help="openb node list CSV (sn, cpu_milli, memory_mib, gpu, model)")
    frag.add_argument("--pods", required=True, help="openb pod list CSV (name, cpu_milli, ..., gpu_milli, ...)")
    frag.add_argument("--policy", required=True,
                      choices=["Random", "DotProd", "GpuClustering", "GpuPacking", "BestFit", "FGD"])
    frag.add_argument("--seed", type=int, default=42, help="shuffles and tunes the workload")
    frag.add_argument("--tune", type=float, default=1.3, help="GPU asked for, as a share of the cluster's")
    frag.add_argument("--out", required=True, help="write the allocation curve to this CSV file")
    from .conformance import add_arguments as add_conformance_arguments

    add_conformance_arguments(sub.add_parser(
        "conformance", help="answer the cases of data/conformance and compare with the real kube-scheduler"))
    up = sub.add_parser("upstream", help="the Go function each ported function ports, with permalinks")
    what = up.add_mutually_exclusive_group(required=True)
    what.add_argument("--list", action="store_true",
                      help="print every anchor as CSV: module, function, Go identifier, permalink")
    what.add_argument("--check", action="store_true",
                      help="check every anchor's first line against local Go sources (see DEVELOPERS.md)")
    up.add_argument("--k8s-src", type=Path, help="with --check: a kubernetes checkout at v1.30.4")
    up.add_argument("--scheduler-plugins-src", type=Path,
                    help="with --check: a scheduler-plugins checkout at 37b7888a")
    up.add_argument("--git-dir", type=Path,
                    help="with --check: a scheduler-plugins git directory holding 37b7888a (k8s from its vendor/)")
    up.add_argument("--source", action="append", default=[], metavar="OWNER/REPO=DIR",
                    help="with --check: a working tree or git directory of another anchored repository")
    return ap


@plumbing("command-line interface: a number option, zero or more")
def non_negative(convert: Callable[[str], Any], what: str) -> Callable[[str], Any]:
    """An argparse type: ``convert(text)``, finite and zero or more (argparse exits 2 otherwise)."""
    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if not math.isfinite(value) or value < 0:
            raise argparse.ArgumentTypeError(f"expected {what}, 0 or more, got {text!r}")
        return value
    return parse


_seconds = non_negative(float, "a number of seconds")  # a time on the virtual clock
_count = non_negative(int, "a whole number")


@plumbing("command-line interface")
def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
    except BrokenPipeError:
        # The reader went away (``... | head``): stop quietly, as a command killed by
        # SIGPIPE does, and keep Python from complaining when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


def _run(args: argparse.Namespace) -> int:
    try:
        if args.command == "case":
            for d in args.dirs:
                print(json.dumps(answer_case(d)), flush=True)
            return 0
        if args.command == "simulate":
            return simulate_command(args)
        if args.command == "fragmentation":
            return fragmentation_command(args)
        if args.command == "conformance":
            from .conformance import conformance_command

            return conformance_command(args)
        if args.command == "upstream":
            return upstream_command(args)
        return schedule_command(args)
    except UsageError as err:
        print(str(err), file=sys.stderr)
        return EXIT_USAGE
    except (ManifestError, ConfigError, ConfigurationError) as err:
        print(_one_line(err), file=sys.stderr)
        return EXIT_USAGE


@plumbing("command-line interface: upstream --list / --check")
def upstream_command(args: argparse.Namespace) -> int:
    from .anchor_check import check_anchors, first_of, source_reader
    from .anchors import K8S, SCHEDULER_PLUGINS, list_csv

    if args.list:
        sys.stdout.write(list_csv())
        return 0
    sources = [(K8S, args.k8s_src), (SCHEDULER_PLUGINS, args.scheduler_plugins_src),
               (SCHEDULER_PLUGINS, args.git_dir)]
    for given in args.source:
        repo, sep, path = given.partition("=")
        if not sep or repo.count("/") != 1 or not path:
            raise UsageError(f"upstream --check: --source {given!r}: expected OWNER/REPO=DIR")
        sources.append((repo, Path(path)))
    readers = []
    for repo, path in sources:
        if path is None:
            continue
        if not path.is_dir():
            raise UsageError(f"upstream --check: {path}: no such directory")
        readers.append(source_reader(repo, path))
    if not readers:
        raise UsageError("upstream --check: give --k8s-src, --scheduler-plugins-src, --git-dir or --source")
    report = check_anchors(first_of(readers))
    for miss in report.misses:
        print(miss)
    for path, names in sorted(report.unchecked.items()):
        print(f"unchecked: {path} ({len(names)} anchor(s): not in the sources given)")
    print(report.summary())
    return 1 if report.misses else 0


def _one_line(err: Exception) -> str:
    if isinstance(err, ConfigError) and getattr(err, "file", None):
        return f"{err.file}: {err.message}"
    return str(err).splitlines()[0] if str(err) else type(err).__name__
