"""Port of ``generate_scheduler_config`` in scripts/generate_config_and_run.py (kubernetes-scheduler-simulator).

The scheduler configuration of one experiment: a single Score plugin, the
policy under test, with weight 1000; Open-Gpu-Share as Filter and Reserve;
every scoring plugin of the default profile off; all nodes scored
(``percentageOfNodesToScore: 100``). The policy's settings (GPU selection,
dimension extension, normalisation) are those of the paper's runs
(``experiments/run_scripts/expected_run_scripts_0511.sh``).

Deviations:
- kube-scheduler v1.30 configuration (``kubescheduler.config.k8s.io/v1``)
  instead of v1beta1, so the default plugins are switched off with
  ``multiPoint: disabled: ['*']`` and the ones that matter are listed.
- Of the default filters only NodeResourcesFit is kept: the others
  (taints, affinity, ports, volumes, spreading) never reject a pod of the
  trace, and Go's simulator runs them in parallel for free.
- No PostFilter: every pod of the trace has the same priority, so
  preemption could never find a victim.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...anchors import FGD_SIMULATOR, plumbing, ports
from ...config.loader import load_config_data
from ...config.types import KubeSchedulerConfiguration
from .args import MERGE_GPU_DIM, NORM_BY_MAX, SEL_BEST_FIT_GPU, SEL_RANDOM_GPU, \
    SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM
from .registry import SCORE_POLICY_ABBR

SCHEDULER_NAME = "default-scheduler"
POLICY_WEIGHT = 1000

# Score plugins that choose the GPU themselves when they carry the largest weight.
SCORE_PLUGINS_WITH_DIM_NORM_GPU_METHOD = ("DotProductScore", "FGDScore")
SCORE_PLUGINS_WITH_PRE_SCORE = ("RandomScore",)


@dataclass(frozen=True)
@plumbing("the settings of the paper's runs (experiments/run_scripts/expected_run_scripts_0511.sh)")
class PolicySettings:
    gpu_sel_method: str = SEL_BEST_FIT_GPU
    dim_ext_method: str = SEPARATE_GPU_DIM_AND_SHARE_OTHER_DIM
    norm_method: str = NORM_BY_MAX


# The paper's runs: "-gpusel random" for Random, "-dimext merge" for DotProd, the defaults otherwise.
POLICY_SETTINGS: dict[str, PolicySettings] = {
    "Random": PolicySettings(gpu_sel_method=SEL_RANDOM_GPU),
    "DotProd": PolicySettings(dim_ext_method=MERGE_GPU_DIM),
    "GpuClustering": PolicySettings(),
    "GpuPacking": PolicySettings(),
    "BestFit": PolicySettings(),
    "FGD": PolicySettings(),
}


@ports("scripts/generate_config_and_run.py", "generate_scheduler_config", 232, 290, repo=FGD_SIMULATOR)
def gpu_sel_method_of(policy: str, settings: PolicySettings) -> str:
    """Open-Gpu-Share's GPU selection: the policy's own when it has one and dims are not merged."""
    plugin = SCORE_POLICY_ABBR[policy]
    if plugin in SCORE_PLUGINS_WITH_DIM_NORM_GPU_METHOD and settings.dim_ext_method != MERGE_GPU_DIM:
        return plugin
    return settings.gpu_sel_method


@ports("scripts/generate_config_and_run.py", "generate_scheduler_config", 232, 290, repo=FGD_SIMULATOR)
def scheduler_config_text(policy: str, settings: PolicySettings | None = None) -> str:
    """The KubeSchedulerConfiguration (YAML) of an experiment with ``policy`` (e.g. "FGD")."""
    if policy not in SCORE_POLICY_ABBR:
        raise ValueError(f"unknown policy {policy!r}; one of {', '.join(SCORE_POLICY_ABBR)}")
    settings = settings or POLICY_SETTINGS[policy]
    plugin = SCORE_POLICY_ABBR[policy]
    dims = f"dimExtMethod: {settings.dim_ext_method}, normMethod: {settings.norm_method}"
    pre_score = f"\n    preScore:\n      enabled:\n      - name: {plugin}" if plugin in SCORE_PLUGINS_WITH_PRE_SCORE \
        else ""
    return f"""apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
percentageOfNodesToScore: 100
profiles:
- schedulerName: {SCHEDULER_NAME}
  plugins:
    multiPoint:
      disabled:
      - name: '*'
    queueSort:
      enabled:
      - name: PrioritySort
    preFilter:
      enabled:
      - name: NodeResourcesFit
    filter:
      enabled:
      - name: NodeResourcesFit
      - name: Open-Gpu-Share{pre_score}
    score:
      enabled:
      - name: {plugin}
        weight: {POLICY_WEIGHT}
    reserve:
      enabled:
      - name: Open-Gpu-Share
    bind:
      enabled:
      - name: DefaultBinder
  pluginConfig:
  - name: {plugin}
    args: {{{dims}}}
  - name: Open-Gpu-Share
    args: {{gpuSelMethod: {gpu_sel_method_of(policy, settings)}, {dims}}}
"""


@plumbing("loads scheduler_config_text as kube-scheduler --config would")
def scheduler_config(policy: str, settings: PolicySettings | None = None) -> KubeSchedulerConfiguration:
    """:func:`scheduler_config_text`, loaded as ``kube-scheduler --config`` would load it."""
    return load_config_data(scheduler_config_text(policy, settings), file=f"<{policy} configuration>")
