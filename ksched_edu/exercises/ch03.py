"""Checks for chapter 03 (the scheduling framework).

``check_score_plugin`` takes the learner's plugin registry and configuration,
builds a Simulation of the teaching cluster with them, and reads from the
trace whether their own Score plugin ran and where ``default/web`` landed (it
lands on n3 with the default profile; the exercise asks for n1).
"""
from __future__ import annotations

from typing import Any

from ksched_edu.exercises.core import failed, is_unanswered, passed, project_path

TEACHING_CLUSTER = "data/clusters/three-nodes.yaml"
POD = "default/web"
TARGET = "n1"


def check_score_plugin(registry: Any, config: Any) -> bool:
    """Does a profile of ``config`` built from ``registry`` run an out-of-tree Score plugin that sends web to n1?"""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.config.types import KubeSchedulerConfiguration
    from ksched_edu.framework.plugins.registry import IN_TREE_PLUGINS
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.trace import PluginEvent, Recorder

    hint = ("define a class with name(), score(state, pod, node_name) -> (int, None) and score_extensions() -> None; "
            "registry = merge_registries(new_in_tree_registry(), {NAME: lambda args, handle: YourPlugin(handle)}); "
            "config = load_config_data(...) with a profile whose plugins.score.enabled lists NAME with a weight")
    if is_unanswered(registry) or not isinstance(registry, dict):
        return failed("registry is not a plugin registry (a dict name -> factory) yet.", hint=hint)
    if is_unanswered(config) or not isinstance(config, KubeSchedulerConfiguration):
        return failed("config is not a KubeSchedulerConfiguration yet (load_config_data returns one).", hint=hint)
    own = sorted(set(registry) - set(IN_TREE_PLUGINS))
    if not own:
        return failed("the registry holds only in-tree plugins.", hint=hint)
    rec = Recorder()
    try:
        sim = Simulation(load_cluster(project_path(TEACHING_CLUSTER)), config, seed=1, recorder=rec,
                         registry=registry)
        sim.run()
    except Exception as err:  # a learner's plugin or configuration may fail in any way
        return failed(f"the scheduler could not run with your plugin: {type(err).__name__}: {err}", hint=hint)
    scored = sorted({e.plugin for e in rec.of(PluginEvent) if e.point == "Score" and e.plugin in own})
    if not scored:
        return failed(f"no Score call of {', '.join(own)} is in the trace: the profile does not enable it at score.",
                      hint=hint)
    node = next((p.node for p in sim.placements() if p.pod == POD), None)
    if node != TARGET:
        scores = {e.node: e.weighted_score for e in rec.of(PluginEvent) if e.point == "Score" and e.plugin in scored}
        return failed(f"{POD} lands on {node}; {scored[0]} gave the weighted scores {scores}.",
                      hint="give n1's zone a high score (up to 100) and the others 0, with a weight of at least 1; "
                           "n3 led by 13 points without your plugin")
    return passed(f"{', '.join(scored)} scored every feasible node, and {POD} now lands on {TARGET}.")
