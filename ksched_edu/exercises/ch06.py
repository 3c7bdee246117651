"""Checks for chapter 06 (scheduling profiles).

``check_nodes_used`` compares a prediction with how many nodes each profile
of ``two-profiles.yaml`` fills with the chapter's six pods;
``check_packer_profile`` loads a learner's configuration and runs the pods on
its ``packer`` profile.
"""
from __future__ import annotations

from typing import Any, Optional

from ksched_edu.exercises.core import failed, is_unanswered, passed, project_path

WORKLOAD = "data/workloads/four-nodes-six-pods.yaml"
TWO_PROFILES = "data/configs/two-profiles.yaml"
PACKER = "packer"


def nodes_used(config: Any, profile: str, seed: int = 0) -> Optional[set[str]]:
    """The nodes the six pods land on when every one asks for ``profile`` (None if one stays pending)."""
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.sim.simulation import Simulation

    cluster = load_cluster(project_path(WORKLOAD))
    for pod in cluster.pending_pods:
        pod.spec.scheduler_name = profile
    sim = Simulation(cluster, config, seed=seed)
    sim.run()
    placed = [p.node for p in sim.placements()]
    return None if None in placed else set(placed)


def check_nodes_used(predicted: Any) -> bool:
    """``predicted``: {profile name: how many nodes its six pods occupy}."""
    from ksched_edu.config.loader import load_config

    if is_unanswered(predicted) or not isinstance(predicted, dict):
        return failed("no prediction yet.", hint="write {'default-scheduler': N, 'binpacking': M}.")
    config = load_config(project_path(TWO_PROFILES))
    for profile in ("default-scheduler", "binpacking"):
        used = nodes_used(config, profile)
        want = len(used or ())
        if predicted.get(profile) != want:
            hint = ("LeastAllocated scores the emptiest node highest, so each pod goes where the others are not."
                    if profile == "default-scheduler" else
                    "MostAllocated scores the fullest node highest, so pods follow the first one.")
            return failed(f"{profile}: you said {predicted.get(profile)!r}.", hint=hint)
    return passed("default-scheduler spreads the six pods over "
                  f"{predicted['default-scheduler']} nodes; binpacking packs them onto {predicted['binpacking']}.")


def check_packer_profile(config_yaml: Any) -> bool:
    """Is ``config_yaml`` a configuration the scheduler accepts, whose ``packer`` profile packs the pods?"""
    from ksched_edu.config.loader import ConfigError, load_config_data
    from ksched_edu.scheduler import ConfigurationError

    if is_unanswered(config_yaml) or not isinstance(config_yaml, str):
        return failed("no configuration yet.", hint="write the KubeSchedulerConfiguration as a YAML string.")
    try:
        config = load_config_data(config_yaml)
    except ConfigError as err:
        return failed(f"the scheduler refuses it: {err.message}", hint="start from two-profiles.yaml.")
    names = [p.scheduler_name for p in config.profiles]
    if "default-scheduler" not in names or PACKER not in names:
        return failed(f"the profiles are {names}.", hint=f"keep 'default-scheduler' and add {PACKER!r}.")
    try:
        used = nodes_used(config, PACKER)
        spread = nodes_used(config, "default-scheduler")
    except ConfigurationError as err:
        return failed(f"the profiles cannot be built: {err}", hint="check the plugin names.")
    if used is None or spread is None:
        return failed("a pod stayed pending.", hint="leave Filter plugins as they are; change only scoring.")
    if len(used) != 1:
        return failed(f"the {PACKER} profile spread the pods over {len(used)} nodes.",
                      hint="set NodeResourcesFit's scoringStrategy type to MostAllocated in its pluginConfig.")
    if len(spread) == 1:
        return failed("default-scheduler packs the pods too.",
                      hint="give the MostAllocated pluginConfig to the packer profile only.")
    return passed(f"the {PACKER} profile puts all six pods on {next(iter(used))}; "
                  f"default-scheduler uses {len(spread)} nodes.")
