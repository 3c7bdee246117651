"""Checks for chapter 06 (scheduling profiles).

``check_nodes_used`` compares a prediction with how many nodes each profile
of ``two-profiles.yaml`` fills with the chapter's six pods when each asks for
1500m CPU; ``check_packer_profile`` loads a learner's configuration and runs
the pods on its ``packer`` profile (a misspelled strategy type, key or plugin
name in NodeResourcesFit's pluginConfig is named as such in the hint, with the
closest right spelling); ``check_gpus_held_at_permit`` and
``check_late_member`` read the gang of section 5 off the scheduler: the GPUs
its waiting members hold, and when its members are bound once the last one
is created late.
"""
from __future__ import annotations

from typing import Any, Optional

from ksched_edu.exercises import core
from ksched_edu.exercises.core import call_answer, describe_exception, failed, is_unanswered, passed, project_path
from ksched_edu.i18n import N_, _

WORKLOAD = "data/workloads/four-nodes-six-pods.yaml"
TWO_PROFILES = "data/configs/two-profiles.yaml"
PACKER = "packer"
# Exercise 1 asks about the six pods when each asks for this much CPU (the file says 500m).
BIG_POD_CPU = "1500m"
PROFILES = ("default-scheduler", "binpacking")
PACKING_STRATEGY = "RequestedToCapacityRatio"


def _limit(seconds: Optional[float]) -> float:
    """``seconds``, or the module-wide limit as it is now (tests lower it)."""
    return core.TIME_LIMIT_SECONDS if seconds is None else seconds


def nodes_used(config: Any, profile: str, seed: int = 0, cpu: Optional[str] = None) -> Optional[set[str]]:
    """The nodes the six pods land on when every one asks for ``profile`` (None if one stays pending).

    ``cpu``, when given, replaces each pod's CPU request.
    """
    from ksched_edu.api.loader import load_cluster
    from ksched_edu.api.quantity import Quantity
    from ksched_edu.sim.simulation import Simulation

    cluster = load_cluster(project_path(WORKLOAD))
    for pod in cluster.pending_pods:
        pod.spec.scheduler_name = profile
        if cpu is not None:
            pod.spec.containers[0].resources.requests["cpu"] = Quantity(cpu)
    sim = Simulation(cluster, config, seed=seed)
    sim.run()
    placed = [p.node for p in sim.placements()]
    return None if None in placed else set(placed)


def check_nodes_used(predicted: Any) -> bool:
    """``predicted``: {profile name: how many nodes its six pods occupy when each asks for 1500m CPU}."""
    from ksched_edu.config.loader import load_config

    if is_unanswered(predicted) or not isinstance(predicted, dict):
        return failed(_("no prediction yet."), hint=_("write {'default-scheduler': N, 'binpacking': M}."))
    config = load_config(project_path(TWO_PROFILES))
    for profile in PROFILES:
        said = predicted.get(profile)
        if said is None:
            return failed(_("no number for {profile}.").format(profile=profile),
                          hint=_("write {'default-scheduler': N, 'binpacking': M}."))
        if isinstance(said, bool) or not isinstance(said, int):
            return failed(_("{profile}: {said!r} is not a number of nodes.").format(profile=profile, said=said),
                          hint=_("write whole numbers, like 2."))
        want = len(nodes_used(config, profile, cpu=BIG_POD_CPU) or ())
        if said != want:
            if profile == "default-scheduler":
                hint = _("LeastAllocated scores a node by the share of it left free once the pod is on it "
                         "(leastRequestedScore, noderesources/least_allocated.go L52-61 in v1.30.4): where does each "
                         "next pod go, and when does that stop?")
            elif said == 1:
                hint = _("a node has 4 CPUs: how many pods of 1500m fit on it? MostAllocated fills one, then the next "
                         "(mostRequestedScore, noderesources/most_allocated.go L54-65 in v1.30.4).")
            else:
                hint = _("MostAllocated scores the fullest node highest (mostRequestedScore, noderesources/"
                         "most_allocated.go L54-65 in v1.30.4), so each pod joins the others until the node has no "
                         "room for 1500m more.")
            return failed(_("{profile}: you said {said!r}.").format(profile=profile, said=said), hint=hint)
    return passed(_("with 1500m pods, default-scheduler spreads the six over {spread} nodes; "
                    "binpacking fills {packed}, two pods each.").format(spread=predicted["default-scheduler"],
                                                                        packed=predicted["binpacking"]))


def _scoring_strategy(config: Any, profile: str) -> Optional[str]:
    """The NodeResourcesFit scoring strategy type of ``profile`` in a loaded configuration."""
    for prof in config.profiles:
        if prof.scheduler_name == profile:
            for pc in prof.plugin_config:
                if pc.name == "NodeResourcesFit":
                    strategy = getattr(pc.args, "scoring_strategy", None)
                    return getattr(strategy, "type", None)
    return None


# NodeResourcesFit's args as upstream spells them (k8s.io/kube-scheduler/config/v1, types_pluginargs.go:
# NodeResourcesFitArgs, ScoringStrategy, RequestedToCapacityRatioParam, UtilizationShapePoint, ResourceSpec).
STRATEGY_TYPES = ("LeastAllocated", "MostAllocated", "RequestedToCapacityRatio")
_FIT_ARGS_KEYS = ("apiVersion", "kind", "ignoredResources", "ignoredResourceGroups", "scoringStrategy")
_STRATEGY_KEYS = ("type", "resources", "requestedToCapacityRatio")


def _closest(word: str, known: tuple[str, ...]) -> Optional[str]:
    """The known word closest to ``word`` (the same in any case first), or None when none is close."""
    import difflib

    same_case = [k for k in known if k.lower() == word.lower()]
    close = same_case or difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return close[0] if close else None


def _unknown_key(where: str, block: Any, known: tuple[str, ...]) -> Optional[str]:
    """``"unknown key 'X' in <where>, did you mean 'Y'?"`` (or the known keys) for a key of ``block`` not in
    ``known``; None when every key is known."""
    if not isinstance(block, dict):
        return None
    for key in block:
        if str(key) not in known:
            close = _closest(str(key), known)
            if close is not None:
                return _("unknown key {key!r} in {where}, did you mean {close!r}?").format(
                    key=str(key), where=where, close=close)
            return _("unknown key {key!r} in {where}; known: {known}.").format(
                key=str(key), where=where, known=", ".join(known))
    return None


def _plugin_names() -> set[str]:
    from ksched_edu.framework.plugins.registry import new_in_tree_registry

    return set(new_in_tree_registry())


def misspelling(config_yaml: str) -> Optional[str]:
    """A misspelled plugin name, key or scoring strategy type in the pluginConfig of NodeResourcesFit, named
    as such (``"unknown scoring strategy type 'X', did you mean 'Y'?"``); None when there is none."""
    import yaml

    try:
        data = yaml.safe_load(config_yaml)
    except yaml.YAMLError:
        return None
    profiles = data.get("profiles") if isinstance(data, dict) else None
    for profile in profiles if isinstance(profiles, list) else ():
        entries = profile.get("pluginConfig") if isinstance(profile, dict) else None
        for entry in entries if isinstance(entries, list) else ():
            name = entry.get("name") if isinstance(entry, dict) else None
            if not isinstance(name, str):
                continue
            if name != "NodeResourcesFit":
                if name not in _plugin_names() and _closest(name, ("NodeResourcesFit",)) is not None:
                    return _("the pluginConfig entry {name!r} names no plugin, did you mean "
                             "'NodeResourcesFit'?").format(name=name)
                continue
            args = entry.get("args")
            found = _unknown_key(_("NodeResourcesFit's args"), args, _FIT_ARGS_KEYS)
            strategy = args.get("scoringStrategy") if isinstance(args, dict) else None
            found = found or _unknown_key("scoringStrategy", strategy, _STRATEGY_KEYS)
            if found:
                return found
            if not isinstance(strategy, dict):
                continue
            kind = strategy.get("type")
            if kind is not None and str(kind) not in STRATEGY_TYPES:
                close = _closest(str(kind), STRATEGY_TYPES)
                if close is not None:
                    return _("unknown scoring strategy type {kind!r}, did you mean {close!r}?").format(
                        kind=str(kind), close=close)
                return _("unknown scoring strategy type {kind!r}; known: {known}.").format(
                    kind=str(kind), known=", ".join(STRATEGY_TYPES))
            ratio = strategy.get("requestedToCapacityRatio")
            found = _unknown_key("requestedToCapacityRatio", ratio, ("shape",))
            shape = ratio.get("shape") if isinstance(ratio, dict) else None
            for point in shape if isinstance(shape, list) else ():
                found = found or _unknown_key(_("a shape point"), point, ("utilization", "score"))
            resources = strategy.get("resources")
            for spec in resources if isinstance(resources, list) else ():
                found = found or _unknown_key("scoringStrategy.resources", spec, ("name", "weight"))
            if found:
                return found
    return None


def check_packer_profile(config_yaml: Any, seconds: Optional[float] = None) -> bool:
    """Is ``config_yaml`` a configuration the scheduler accepts, whose ``packer`` profile packs the pods
    with the RequestedToCapacityRatio strategy, while ``default-scheduler`` still spreads them?"""
    from ksched_edu.config.loader import ConfigError, load_config_data
    from ksched_edu.scheduler import ConfigurationError

    if is_unanswered(config_yaml) or not isinstance(config_yaml, str):
        return failed(_("no configuration yet."), hint=_("write the KubeSchedulerConfiguration as a YAML string."))
    limit = _limit(seconds)
    spelling = misspelling(config_yaml)
    ok, config = call_answer(load_config_data, config_yaml, seconds=limit)
    if not ok:
        if isinstance(config, ConfigError):
            return failed(_("the scheduler refuses it: {message}").format(message=config.message),
                          hint=spelling or _("start from two-profiles.yaml."))
        return failed(_("loading it failed: {error}").format(error=describe_exception(config)),
                      hint=spelling or _("start from two-profiles.yaml."))
    names = [p.scheduler_name for p in config.profiles]
    if "default-scheduler" not in names or PACKER not in names:
        return failed(_("the profiles are {names}.").format(names=names),
                      hint=_("keep 'default-scheduler' and add {packer!r}.").format(packer=PACKER))
    strategy = _scoring_strategy(config, PACKER)
    if strategy == "MostAllocated":
        return failed(_("the {profile} profile packs with MostAllocated, as binpacking does.").format(profile=PACKER),
                      hint=_("use NodeResourcesFit's third strategy, {strategy}, and give it a shape.").format(
                          strategy=PACKING_STRATEGY))
    ok, used = call_answer(nodes_used, config, PACKER, seconds=limit)
    if ok:
        ok, spread = call_answer(nodes_used, config, "default-scheduler", seconds=limit)
        used = spread if not ok else used
    if not ok:
        if isinstance(used, ConfigurationError):
            return failed(_("the profiles cannot be built: {error}").format(error=used),
                          hint=spelling or _("check the plugin names and their args (a shape's score runs from 0 "
                                             "to 10)."))
        return failed(_("scheduling with it failed: {error}").format(error=describe_exception(used)),
                      hint=_("check the plugin names."))
    if used is None or spread is None:
        return failed(_("a pod stayed pending."), hint=_("leave Filter plugins as they are; change only scoring."))
    if strategy != PACKING_STRATEGY:
        said = (_("the {profile} profile scores with {strategy}.").format(profile=PACKER, strategy=strategy)
                if strategy else _("the {profile} profile scores with the default LeastAllocated.").format(
                    profile=PACKER))
        return failed(said, hint=spelling or _("set NodeResourcesFit's scoringStrategy type to {strategy} in its "
                                               "pluginConfig.").format(strategy=PACKING_STRATEGY))
    if len(used) != 1:
        return failed(_("the {profile} profile spread the pods over {count} nodes.").format(profile=PACKER,
                                                                                            count=len(used)),
                      hint=_("the shape maps a node's utilization (0-100) to a score (0-10): the score must rise "
                             "with utilization, so that the fuller node wins."))
    if len(spread) == 1:
        return failed(_("default-scheduler packs the pods too."),
                      hint=_("give the pluginConfig to the packer profile only."))
    return passed(_("the {profile} profile puts all six pods on {node} with {strategy}; "
                    "default-scheduler uses {count} nodes.").format(profile=PACKER, node=next(iter(used)),
                                                                   strategy=PACKING_STRATEGY, count=len(spread)))


# --- Coscheduling (section 5) -------------------------------------------------------------

GPU = "nvidia.com/gpu"
GPU_SIX = "data/clusters/gpu-six.yaml"
GANG = "data/workloads/gang.yaml"
COSCHEDULING_CONFIGS = ("coscheduling-permit-only.yaml", "coscheduling.yaml")


def gang_simulation(config: str, *, only_the_gang: bool = True, min_member: Optional[int] = None,
                    late: Optional[tuple[str, float]] = None, recorder: Any = None) -> Any:
    """gang.yaml on gpu-six.yaml under data/configs/``config``, with Coscheduling in the registry.

    ``only_the_gang`` keeps the PodGroup's members only (no web pods, no node joining
    at t=60 s); ``min_member`` overrides the PodGroup's minMember; ``late`` = (member,
    seconds) creates that member at that virtual time instead of t=0; ``recorder`` traces it.
    """
    from ksched_edu.config.loader import load_config
    from ksched_edu.framework.plugins.registry import new_registry_with_out_of_tree
    from ksched_edu.sim.simulation import Simulation
    from ksched_edu.sim.workload import Workload, WorkloadEvent, load_workload
    from ksched_edu.trace import NULL_RECORDER

    workload = load_workload([project_path(GPU_SIX), project_path(GANG)])
    if only_the_gang:
        workload = Workload(workload.initial,
                            [e for e in workload.events if e.obj.metadata.name.startswith("train")])
    if late is not None:
        name, at = late
        events = [WorkloadEvent(at, e.action, e.obj) if e.obj.metadata.name == name else e for e in workload.events]
        events.sort(key=lambda e: (e.at, e.action == "delete"))  # as load_workload orders them
        workload = Workload(workload.initial, events)
    if min_member is not None:
        for group in workload.initial.extra.get("PodGroup", []):  # the manifest, as loaded
            group["spec"]["minMember"] = min_member
    return Simulation.from_workload(workload, load_config(project_path(f"data/configs/{config}")), seed=1,
                                    recorder=recorder if recorder is not None else NULL_RECORDER,
                                    registry=new_registry_with_out_of_tree())


def gpus_held_at_permit(config: str, at: float = 10.0, min_member: Optional[int] = None) -> int:
    """GPUs that pods waiting at Permit hold at virtual time ``at`` (read off the scheduler's cache)."""
    from ksched_edu.api.resource import pod_requests

    sim = gang_simulation(config, min_member=min_member)
    sim.run(until=at)
    waiting = [wp.pod for fwk in sim.scheduler.profiles.values() for wp in fwk.waiting_pods.values()]
    assert all(sim.scheduler.cache.is_assumed_pod(pod) for pod in waiting)  # held: booked in the cache
    requests = [pod_requests(pod) for pod in waiting]
    return sum(r[GPU].value() for r in requests if GPU in r)


# Exercise 3 lowers train's minMember to this: one more member than there are free GPUs.
HELD_MIN_MEMBER = 7


def _held_hint(config: str, said: Any) -> str:
    """What to read in the Go for a wrong number of held GPUs (never the number itself)."""
    if config == COSCHEDULING_CONFIGS[1]:
        return _("read Coscheduling's PostFilter (coscheduling.go L161-184 at 37b7888a): it leaves the waiting members "
                 "alone when minMember members already hold a node, or when the missing share "
                 "(minMember - assigned) / minMember is at most 10%; otherwise it rejects every waiting member. "
                 "Work that share out for minMember 7.")
    if said == 0:
        return _("with Permit alone nothing ends a wait early: each waiting member keeps its GPU until its wait "
                 "runs out (the PodGroup's scheduleTimeoutSeconds, coscheduling.go L218-220 at 37b7888a), 30 s here.")
    if said >= HELD_MIN_MEMBER:
        return _("a member holds a GPU at Permit only once Filter found it a node and it was assumed there; Permit "
                 "then answers Wait while fewer than minMember members hold a node (core.go L223-242, coscheduling.go "
                 "L215-223 at 37b7888a). Can every member get a GPU on gpu-six.yaml?")
    return _("every member that gets a node is assumed there and waits at Permit holding its GPU (core.go L223-242, "
             "coscheduling.go L215-223 at 37b7888a): count how many members gpu-six.yaml has room for, one GPU each.")


def check_gpus_held_at_permit(predicted: Any) -> bool:
    """``predicted``: {configuration file: GPUs held at t=10 s by train's waiting members, minMember 7}."""
    if is_unanswered(predicted) or not isinstance(predicted, dict):
        return failed(_("no prediction yet."),
                      hint=_("write {'coscheduling-permit-only.yaml': N, 'coscheduling.yaml': M}."))
    for config in COSCHEDULING_CONFIGS:
        said = predicted.get(config)
        if said is None:
            return failed(_("no number for {config}.").format(config=config),
                          hint=_("write {'coscheduling-permit-only.yaml': N, 'coscheduling.yaml': M}."))
        if isinstance(said, bool) or not isinstance(said, (int, float)):
            return failed(_("{config}: {said!r} is not a number of GPUs.").format(config=config, said=said),
                          hint=_("write whole numbers, like 3."))
        held = gpus_held_at_permit(config, min_member=HELD_MIN_MEMBER)
        if said != held:
            return failed(_("{config}: you said {said!r}.").format(config=config, said=said),
                          hint=_held_hint(config, said))
    return passed(_("with minMember {min_member}, at t=10 s the waiting members hold {permit_only} GPUs with Permit "
                    "alone and {post_filter} with PostFilter: 1 missing of 7 is more than 10%.").format(
                        min_member=HELD_MIN_MEMBER, permit_only=predicted[COSCHEDULING_CONFIGS[0]],
                        post_filter=predicted[COSCHEDULING_CONFIGS[1]]))


# Exercise 4 creates this member of train at this virtual time, after gpu-3 joined (t=60 s).
LATE_MEMBER = ("train-7", 90.0)
# Where to read, in scheduler-plugins' pkg/coscheduling at 37b7888a.
_PREFILTER = "core.go L172-182"
_PERMIT_FIRST = N_("core.go L230-240, then coscheduling.go L222-223 and ActivateSiblings, core.go L115-155")


def all_bound_at(late: tuple[str, float] = LATE_MEMBER) -> Optional[float]:
    """The virtual time at which the last member of train is bound under coscheduling.yaml, with the whole
    of gang.yaml (web pods, gpu-3 at t=60 s) and ``late`` = (member, seconds); None if one never is."""
    from ksched_edu.trace import BindEvent, Recorder

    sim = gang_simulation(COSCHEDULING_CONFIGS[1], only_the_gang=False, late=late, recorder=Recorder()).run()
    members = [p for p in sim.placements() if p.pod.split("/")[1].startswith("train-")]
    if not members or any(not p.node for p in members):
        return None
    bound = {e.pod: e.time for e in sim.recorder.of(BindEvent) if e.kind == "bound"}
    return max(bound[p.pod] for p in members)


def _late_hint(said: float, truth: float) -> str:
    name, at = LATE_MEMBER
    if said < at:
        return _("until {member} is created the group has seven pods: read what PreFilter does while a group has fewer "
                 "than minMember pods ({prefilter}), and whether a node joining moves a refused member "
                 "(Coscheduling's EventsToRegister, coscheduling.go L105-114).").format(member=name,
                                                                                        prefilter=_PREFILTER)
    if said > truth and said >= 300:
        return _("the 5-minute flush is not needed here: read what Permit does for the first member that waits "
                 "({permit}) and what that does to the seven refused members.").format(permit=_(_PERMIT_FIRST))
    return _("something happens in {member}'s own scheduling cycle: is the group backed off (PostFilter backs it off "
             "only when it has minMember pods, coscheduling.go L186-193)? Then read what Permit does for the first "
             "member that waits ({permit}).").format(member=name, permit=_(_PERMIT_FIRST))


def check_late_member(predicted: Any) -> bool:
    """``predicted``: the time, in seconds, at which all eight members of train are bound under
    coscheduling.yaml when train-7 is created at t=90 s (the whole of gang.yaml otherwise)."""
    import math

    name, at = LATE_MEMBER
    if is_unanswered(predicted):
        return failed(_("no answer yet."), hint=_("write a number of seconds, like 42."))
    if isinstance(predicted, bool) or not isinstance(predicted, (int, float)):
        return failed(_("{answer!r} is not a time.").format(answer=predicted),
                      hint=_("write a number of seconds, like 42."))
    truth = all_bound_at()
    if truth is None:  # the data changed under the exercise
        return failed(_("the gang did not bind in this run."), hint=_("check data/workloads/gang.yaml."))
    if math.isnan(predicted) or abs(predicted - truth) >= 1:
        return failed(_("you said t={time:g} s.").format(time=predicted), hint=_late_hint(float(predicted), truth))
    return passed(_("all eight bound at t={time:g} s: {member}'s Permit found no member of its group with a node, so "
                    "it asked for the seven refused members to be moved to activeQ, and each of them then fit.").format(
                        time=truth, member=name))
