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


# --- Coscheduling (section 5) -------------------------------------------------------------

GPU = "nvidia.com/gpu"
GPU_SIX = "data/clusters/gpu-six.yaml"
GANG = "data/workloads/gang.yaml"
COSCHEDULING_CONFIGS = ("coscheduling-permit-only.yaml", "coscheduling.yaml")


def gang_simulation(config: str, *, only_the_gang: bool = True, min_member: Optional[int] = None,
                    recorder: Any = None) -> Any:
    """gang.yaml on gpu-six.yaml under data/configs/``config``, with Coscheduling in the registry.

    ``only_the_gang`` keeps the PodGroup's members only (no web pods, no node joining
    at t=60 s); ``min_member`` overrides the PodGroup's minMember; ``recorder`` traces it.
    """
    from ksched_edu.config.loader import load_config
    from ksched_edu.framework.plugins.registry import new_registry_with_out_of_tree
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.sim.workload import Workload, load_workload
    from ksched_edu.trace import NULL_RECORDER

    workload = load_workload([project_path(GPU_SIX), project_path(GANG)])
    if only_the_gang:
        workload = Workload(workload.initial,
                            [e for e in workload.events if e.obj.metadata.name.startswith("train")])
    if min_member is not None:
        for group in workload.initial.extra.get("PodGroup", []):  # the manifest, as loaded
            group["spec"]["minMember"] = min_member
    return Simulation.from_workload(workload, load_config(project_path(f"data/configs/{config}")), seed=1,
                                    recorder=recorder if recorder is not None else NULL_RECORDER, registry=new_registry_with_out_of_tree())


def gpus_held_at_permit(config: str, at: float = 10.0) -> int:
    """GPUs that pods waiting at Permit hold at virtual time ``at`` (read off the scheduler's cache)."""
    from ksched_edu.api.resource import pod_requests

    sim = gang_simulation(config)
    sim.run(until=at)
    waiting = [wp.pod for fwk in sim.scheduler.profiles.values() for wp in fwk.waiting_pods.values()]
    assert all(sim.scheduler.cache.is_assumed_pod(pod) for pod in waiting)  # held: booked in the cache
    requests = [pod_requests(pod) for pod in waiting]
    return sum(r[GPU].value() for r in requests if GPU in r)


def check_gpus_held_at_permit(predicted: Any) -> bool:
    """``predicted``: {configuration file: GPUs held by train's waiting members at t=10 s}."""
    if is_unanswered(predicted) or not isinstance(predicted, dict):
        return failed("no prediction yet.", hint="write {'coscheduling-permit-only.yaml': N, 'coscheduling.yaml': M}.")
    for config in COSCHEDULING_CONFIGS:
        held = gpus_held_at_permit(config)
        if predicted.get(config) != held:
            hint = ("without PostFilter nothing releases the waiting members before their timeout (30 s)."
                    if config == COSCHEDULING_CONFIGS[0] else
                    "Coscheduling's PostFilter rejects the waiting members as soon as one member fits nowhere.")
            return failed(f"{config}: you said {predicted.get(config)!r}.", hint=hint)
    return passed(f"at t=10 s the waiting members hold {predicted[COSCHEDULING_CONFIGS[0]]} GPUs with Permit alone "
                  f"and {predicted[COSCHEDULING_CONFIGS[1]]} once PostFilter releases them.")


def gang_starts_at_once(min_member: int) -> bool:
    """Under coscheduling.yaml, do at least ``min_member`` members of train bind in the first second?"""
    sim = gang_simulation(COSCHEDULING_CONFIGS[1], min_member=min_member)
    sim.run(until=1.0)
    return sum(1 for p in sim.placements() if p.node) >= min_member


def check_largest_min_member(min_member: Any) -> bool:
    """``min_member``: the largest minMember with which train starts at once on the six free GPUs."""
    if is_unanswered(min_member) or isinstance(min_member, bool) or not isinstance(min_member, int):
        return failed("no answer yet.", hint="write a whole number: the PodGroup's minMember.")
    if min_member < 1:
        return failed(f"minMember {min_member} is refused by the API server.", hint="minMember is at least 1.")
    if not gang_starts_at_once(min_member):
        return failed(f"with minMember {min_member} the gang does not start: too few GPUs are free.",
                      hint="count the free GPUs of gpu-six.yaml (the notebook pod holds two).")
    if gang_starts_at_once(min_member + 1):
        return failed(f"minMember {min_member} works, but so does {min_member + 1}.", hint="look for the largest.")
    return passed(f"with minMember {min_member} the first {min_member} members bind at once; "
                  f"{min_member + 1} would need a GPU the cluster does not have.")
