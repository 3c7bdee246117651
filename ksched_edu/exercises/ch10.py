"""Checks for chapter 10 (the capstone: a plugin of your own).

``check_avoid_zone`` runs a learner's Filter plugin over the 100-node cluster
and reads, from the placements and the trace, that no pod landed in the
avoided zone and that the plugin said why.
"""
from __future__ import annotations

from typing import Any

from ksched_edu.exercises import core
from ksched_edu.exercises.core import (call_answer, cycle_errors, describe_exception, failed, is_unanswered, passed,
                                       project_path, run_learner_simulation)

AVOID_ZONE = "AvoidZone"
AVOIDED = "zone-c"
AVOID_REASON = "node is in an avoided zone"
ZONE_LABEL = "topology.kubernetes.io/zone"
CLUSTER = ("data/clusters/zones-100.yaml", "data/workloads/capstone-pods.yaml")
# The check schedules this many of the workload's pods, enough to touch every zone.
PODS_CHECKED = 12
# How far (virtual seconds) the check lets the simulation go: a plugin that returns an Error on every
# call keeps its pods retrying, and this ends them.
VIRTUAL_LIMIT = 120.0

_CONFIG = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    filter:
      enabled:
      - name: AvoidZone
"""


def check_avoid_zone(factory: Any, seconds: Any = None) -> bool:
    """Does ``factory(args, handle)`` build a Filter plugin that keeps pods out of zone-c, saying why?

    The learner's code (the factory, ``name()`` and the scheduling with the plugin) runs within
    ``seconds`` of wall time (default: the module's limit) and the simulation within
    ``VIRTUAL_LIMIT`` seconds of virtual time.
    """
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.loader import load_config_data
    from ksched_edu.framework.plugins.registry import new_in_tree_registry
    from ksched_edu.framework.runtime import merge_registries
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import Recorder

    if is_unanswered(factory) or not callable(factory):
        return failed("no plugin factory yet.",
                      hint="define `def new_avoid_zone(args, handle): return AvoidZone()`.")
    limit = core.TIME_LIMIT_SECONDS if seconds is None else seconds
    ok, plugin = call_answer(factory, None, None, seconds=limit)
    if not ok:
        if isinstance(plugin, NotImplementedError):
            return failed("the factory is not written yet.", hint="return an AvoidZone object from it.")
        return failed(f"the factory failed: {describe_exception(plugin)}",
                      hint="the factory takes (args, handle); keep the handle to look nodes up later.")
    ok, name = call_answer(getattr(plugin, "name", lambda: None), seconds=limit)
    if not ok or name != AVOID_ZONE:
        shown = describe_exception(name) if not ok else repr(name)
        return failed(f"the plugin's name() is {shown}.", hint=f"name() must return {AVOID_ZONE!r}.")
    if not callable(getattr(plugin, "filter", None)):
        return failed("the plugin has no filter method.",
                      hint="add `def filter(self, state, pod, node_info)` returning None or a Status.")

    cluster = load_cluster([project_path(p) for p in CLUSTER])
    keep = {p.key for p in cluster.pending_pods[:PODS_CHECKED]}
    cluster.pods = [p for p in cluster.pods if p.spec.node_name or p.key in keep]
    zone_of = {n.metadata.name: n.metadata.labels.get(ZONE_LABEL) for n in cluster.nodes}
    rec = Recorder()
    sim = Simulation(cluster, load_config_data(_CONFIG), seed=0, recorder=rec,
                     registry=merge_registries(new_in_tree_registry(), {AVOID_ZONE: factory}))
    stopped = run_learner_simulation(sim, until=VIRTUAL_LIMIT, seconds=limit)
    errors = cycle_errors(rec)
    if errors:
        return failed(f"the scheduler could not run the plugin: {errors[0]}",
                      hint="return None to keep a node and new_status(Code.Unschedulable, reason) to reject it; "
                           "Code.Error means the plugin itself failed.")
    if stopped is not None:
        if stopped.startswith("NotImplementedError"):
            return failed("filter is not written yet.", hint="return None to keep a node, a Status to reject it.")
        return failed(f"the scheduler stopped: {stopped}",
                      hint="filter must return None to keep the node or a Status to reject it; read the zone "
                           "from node_info.node().metadata.labels.")
    placements = sim.placements()
    pending = [p.pod for p in placements if p.node is None]
    if pending:
        return failed(f"{len(pending)} pod(s) found no node, e.g. {pending[0]}.",
                      hint=f"reject only nodes whose {ZONE_LABEL} label is {AVOIDED!r}.")
    inside = [p for p in placements if zone_of.get(p.node) == AVOIDED]
    if inside:
        return failed(f"{inside[0].pod} landed on {inside[0].node}, in {AVOIDED}.",
                      hint=f"return new_status(Code.Unschedulable, {AVOID_REASON!r}) for nodes of {AVOIDED}.")
    said = {r for e in rec.plugin_events(point="Filter") if e.plugin == AVOID_ZONE for r in e.reasons}
    if said != {AVOID_REASON}:
        return failed(f"the plugin's reasons were {sorted(said)}.", hint=f"use exactly {AVOID_REASON!r}.")
    zones = sorted({zone_of[p.node] for p in placements})
    return passed(f"{len(placements)} pods placed in {', '.join(zones)}; every node of {AVOIDED} "
                  f"was refused with {AVOID_REASON!r}.")
