"""Configurations kube-scheduler v1.30 refuses, and the exact message it prints.

The config-invalid-* rows are the conformance cases the real scheduler
refused while decoding or validating; the others follow the same upstream
code paths (scheme_test.go TestCodecsDecodePluginConfig, validation_test.go
TestValidateKubeSchedulerConfigurationV1, the decoders' strict errors).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from ksched_edu.config import ConfigError, default_config, load_config, load_config_data

H = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
PATH = 'field.Path{name:"schedulerName", index:"", parent:(*field.Path)(0xc000010000)}'
REPO = Path(__file__).resolve().parents[2]
CASES = Path(__file__).resolve().parents[2] / "data" / "conformance" / "cases"

REFUSED = [
    # --- the conformance cases refused while decoding/validating -----------------
    ("config-invalid-backoff", H + "podInitialBackoffSeconds: 20\npodMaxBackoffSeconds: 5\n",
     "podMaxBackoffSeconds: Invalid value: 5: must be greater than or equal to "
     "PodInitialBackoffSeconds"),
    ("config-invalid-empty-scheduler-name", H + "profiles:\n- schedulerName: ''\n",
     "profiles[0].schedulerName: Required value"),
    ("config-invalid-percentage-out-of-range", H + "percentageOfNodesToScore: 120\n",
     "percentageOfNodesToScore: Invalid value: 120: not in valid range [0-100]"),
    ("config-invalid-profile-percentage",
     H + "profiles:\n- schedulerName: default-scheduler\n  percentageOfNodesToScore: -5\n",
     "profiles[0].percentageOfNodesToScore: Invalid value: -5: not in valid range [0-100]"),
    ("config-invalid-spread-default-constraint",
     H + "profiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n"
         "  - name: PodTopologySpread\n    args:\n      defaultingType: List\n"
         "      defaultConstraints:\n      - maxSkew: 0\n"
         "        topologyKey: topology.kubernetes.io/zone\n"
         "        whenUnsatisfiable: DoNotSchedule\n",
     "profiles[0].pluginConfig[0].args.defaultConstraints[0].maxSkew: Invalid value: 0: "
     "not in valid range (0, inf)"),
    ("config-invalid-unknown-field", H + "percentageOfNodesToScore: 50\nnodeScoringPercent: 10\n",
     'strict decoding error: unknown field "nodeScoringPercent"'),
    ("config-invalid-walkthrough-two-profiles",
     H + "profiles:\n  - schedulerName: default-scheduler\n    plugins:\n      score:\n"
         "        disabled:\n        - name: NodeResourcesBalancedAllocation\n"
         "  - schedulerName: batch-scheduler\n    plugins:\n      queueSort:\n        enabled:\n"
         "        - name: Coscheduling\n      permit:\n        enabled:\n"
         "        - name: Coscheduling\n",
     'profiles[1].plugins.queueSort: Invalid value: config.PluginSet{Enabled:[]config.Plugin'
     '{config.Plugin{Name:"Coscheduling", Weight:0}}, Disabled:[]config.Plugin(nil)}: '
     'queueSort must be the same for all profiles'),
    # --- strict decoding ------------------------------------------------------------------
    ("unknown fields are sorted and carry their path",
     H + "zzz: 1\nprofiles:\n- schedulerName: a\n  foo: 1\n  plugins:\n    score:\n"
         "      enabled:\n      - name: X\n        wieght: 2\naaa: 2\n",
     'strict decoding error: unknown field "aaa", unknown field "profiles[0].foo", '
     'unknown field "profiles[0].plugins.score.enabled[0].wieght", unknown field "zzz"'),
    ("field names are case sensitive", H + "Parallelism: 4\n",
     'strict decoding error: unknown field "Parallelism"'),
    ("unknown pluginConfig args field",
     H + "profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args:\n      foo: 1\n"
         "      hardPodAffinityWeight: 2\n",
     'strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: '
     'decoding args for plugin InterPodAffinity: strict decoding error: unknown field "foo"'),
    ("top-level and args unknown fields together",
     H + "nodeScoringPercent: 1\nprofiles:\n- pluginConfig:\n  - name: InterPodAffinity\n"
         "    args:\n      foo: 1\n",
     'strict decoding error: unknown field "nodeScoringPercent", decoding '
     '.profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin '
     'InterPodAffinity: strict decoding error: unknown field "foo"'),
    ("v1 NodResourcesFitArgs shape encoding is strict",
     H + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
         "      scoringStrategy:\n        requestedToCapacityRatio:\n          shape:\n"
         "          - Score: 2\n            Utilization: 1\n",
     'strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: '
     'decoding args for plugin NodeResourcesFit: strict decoding error: unknown field '
     '"scoringStrategy.requestedToCapacityRatio.shape[0].Score", unknown field '
     '"scoringStrategy.requestedToCapacityRatio.shape[0].Utilization"'),
    ("v1 NodeResourcesFitArgs resources encoding is strict",
     H + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
         "      scoringStrategy:\n        resources:\n        - Name: cpu\n          Weight: 1\n",
     'strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: '
     'decoding args for plugin NodeResourcesFit: strict decoding error: unknown field '
     '"scoringStrategy.resources[0].Name", unknown field "scoringStrategy.resources[0].Weight"'),
    ("plugin group and kind should match the type",
     H + "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n"
         "      apiVersion: kubescheduler.config.k8s.io/v1\n      kind: InterPodAffinityArgs\n",
     "decoding .profiles[0].pluginConfig[0]: args for plugin DefaultPreemption were not of "
     "type DefaultPreemptionArgs.kubescheduler.config.k8s.io, got "
     "InterPodAffinityArgs.kubescheduler.config.k8s.io"),
    ("duplicated key", H + "parallelism: 2\nparallelism: 3\n",
     'strict decoding error: yaml: unmarshal errors:\n  line 4: key "parallelism" already set '
     'in map'),
    ("wrong type", H + "parallelism: abc\n",
     "json: cannot unmarshal string into Go struct field KubeSchedulerConfiguration.parallelism "
     "of type int32"),
    ("fractional weight", H + "profiles:\n- plugins:\n    score:\n      enabled:\n"
                              "      - name: X\n        weight: 1.5\n",
     "json: cannot unmarshal number 1.5 into Go struct field "
     "Plugin.profiles.plugins.score.enabled.weight of type int32"),
    ("wrong type in args", H + "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n"
                               "    args:\n      minCandidateNodesAbsolute: x\n",
     "decoding .profiles[0].pluginConfig[0]: decoding args for plugin DefaultPreemption: json: "
     "cannot unmarshal string into Go struct field DefaultPreemptionArgs.minCandidateNodesAbsolute"
     " of type int32"),
    ("profiles is not a list", H + "profiles: {}\n",
     "json: cannot unmarshal object into Go struct field KubeSchedulerConfiguration.profiles of "
     "type []v1.KubeSchedulerProfile"),
    ("bad duration", H + "leaderElection:\n  leaseDuration: abc\n",
     'time: invalid duration "abc"'),
    # --- apiVersion and kind --------------------------------------------------------------
    ("removed version",
     "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n",
     'no kind "KubeSchedulerConfiguration" is registered for version '
     '"kubescheduler.config.k8s.io/v1beta3" in scheme '
     '"pkg/scheduler/apis/config/scheme/scheme.go:29"'),
    ("unknown kind", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: Policy\n",
     'no kind "Policy" is registered for version "kubescheduler.config.k8s.io/v1" in scheme '
     '"pkg/scheduler/apis/config/scheme/scheme.go:29"'),
    ("an args kind is not a configuration",
     "apiVersion: kubescheduler.config.k8s.io/v1\nkind: DefaultPreemptionArgs\n",
     "couldn't decode as KubeSchedulerConfiguration, got kubescheduler.config.k8s.io/v1, "
     "Kind=DefaultPreemptionArgs: "),
    ("no kind", "apiVersion: kubescheduler.config.k8s.io/v1\n",
     "Object 'Kind' is missing in 'apiVersion: kubescheduler.config.k8s.io/v1\n'"),
    ("no apiVersion", "kind: KubeSchedulerConfiguration\n",
     "Object 'apiVersion' is missing in 'kind: KubeSchedulerConfiguration\n'"),
    ("empty file", "", "Object 'Kind' is missing in ''"),
    ("a list, not an object", "- a\n",
     "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value "
     'of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string '
     '"json:\\"kind,omitempty\\"" }'),
    # --- validation ----------------------------------------------------------------------------
    ("duplicate schedulerName", H + "profiles:\n- schedulerName: a\n- schedulerName: a\n",
     f"profiles[1].schedulerName: Duplicate value: {PATH}"),
    ("several profiles need names", H + "profiles:\n- {}\n- {}\n",
     f"[profiles[0].schedulerName: Required value, profiles[1].schedulerName: Required value, "
     f"profiles[1].schedulerName: Duplicate value: {PATH}]"),
    ("bad parallelism", H + "parallelism: 0\n",
     "parallelism: Invalid value: 0: should be an integer value greater than zero"),
    ("bad initial backoff", H + "podInitialBackoffSeconds: 0\n",
     "podInitialBackoffSeconds: Invalid value: 0: must be greater than 0"),
    ("duplicate pluginConfig and bad hardPodAffinityWeight",
     H + "profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n  - name: InterPodAffinity\n"
         "    args:\n      hardPodAffinityWeight: 101\n",
     '[profiles[0].pluginConfig[1]: Duplicate value: "InterPodAffinity", '
     'profiles[0].pluginConfig[1].args.hardPodAffinityWeight: Invalid value: 101: '
     'not in valid range [0, 100]]'),
    ("bad DefaultPreemption args",
     H + "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n"
         "      minCandidateNodesPercentage: 0\n      minCandidateNodesAbsolute: 0\n",
     "[profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 0: cannot "
     "be zero at the same time as minCandidateNodesAbsolute, "
     "profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: 0: cannot be "
     "zero at the same time as minCandidateNodesPercentage]"),
    ("defaultConstraints need defaultingType List",
     H + "profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n    args:\n"
         "      defaultConstraints:\n      - maxSkew: 1\n        topologyKey: zone\n"
         "        whenUnsatisfiable: DoNotSchedule\n",
     'profiles[0].pluginConfig[0].args.defaultingType: Invalid value: "System": when '
     '.defaultConstraints are not empty'),
    ("VolumeBinding shape needs its feature gate",
     H + "profiles:\n- pluginConfig:\n  - name: VolumeBinding\n    args:\n      shape:\n"
         "      - utilization: 0\n        score: 0\n",
     "profiles[0].pluginConfig[0].args.shape: Invalid value: []config.UtilizationShapePoint"
     "{config.UtilizationShapePoint{Utilization:0, Score:0}}: unexpected field `shape`, remove "
     "it or turn on the feature gate VolumeCapacityPriority"),
    ("NodeAffinity added affinity is parsed",
     H + "profiles:\n- pluginConfig:\n  - name: NodeAffinity\n    args:\n      addedAffinity:\n"
         "        requiredDuringSchedulingIgnoredDuringExecution:\n          nodeSelectorTerms:\n"
         "          - matchExpressions:\n            - key: foo\n              operator: Gtx\n",
     "profiles[0].pluginConfig[0].args.addedAffinity.requiredDuringSchedulingIgnoredDuring"
     "Execution.nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: \"Gtx\": "
     "supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\""),
    ("only one queue sort plugin",
     H + "profiles:\n- plugins:\n    queueSort:\n      enabled:\n      - name: A\n"
         "      - name: B\n",
     "profiles[0].plugins.queueSort.Enabled: Invalid value: 2: only one queue sort plugin can be "
     "enabled"),
    ("leader election lease shorter than renew deadline",
     H + "leaderElection:\n  leaseDuration: 1s\n  resourceLock: endpoints\n",
     '[leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than '
     'RenewDeadline, leaderElection.resourceLock: Invalid value: "endpoints": resourceLock '
     'value must be "leases"]'),
    ("extenders", H + "extenders:\n- urlPrefix: http://a\n  prioritizeVerb: p\n  bindVerb: b\n"
                      "- urlPrefix: http://b\n  bindVerb: b\n",
     '[extenders[0].weight: Invalid value: 0: must have a positive weight applied to it, '
     'extenders: Invalid value: "found 2 extenders implementing bind": only one extender can '
     'implement bind]'),
]


@pytest.mark.parametrize("name,text,message", REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_configuration_message(name: str, text: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config_data(text)
    assert str(info.value) == message


ACCEPTED = [
    # v1.30 has no range check on plugin weights; the framework only refuses an int64 overflow.
    ("config-weight-101-accepted", H + "profiles:\n- schedulerName: default-scheduler\n"
                                       "  plugins:\n    score:\n      enabled:\n"
                                       "      - name: NodeResourcesFit\n        weight: 101\n"),
    ("negative weight", H + "profiles:\n- plugins:\n    score:\n      enabled:\n"
                            "      - name: NodeResourcesFit\n        weight: -1\n"),
    # Checked only when the plugin is built ("initializing plugin ..."), not here.
    ("config-invalid-bad-strategy", H + "profiles:\n- schedulerName: default-scheduler\n"
                                        "  pluginConfig:\n  - name: NodeResourcesFit\n"
                                        "    args:\n      scoringStrategy:\n"
                                        "        type: Cheapest\n"),
    ("config-invalid-unknown-plugin", H + "profiles:\n- schedulerName: default-scheduler\n"
                                          "  plugins:\n    score:\n      enabled:\n"
                                          "      - name: NoSuchPlugin\n        weight: 1\n"),
    ("out-of-tree args are not decoded", H + "profiles:\n- pluginConfig:\n"
                                             "  - name: Coscheduling\n    args:\n"
                                             "      anything: [1, 2]\n"),
    ("a value of 2.0 is the integer 2", H + "parallelism: 2.0\n"),
    ("YAML 1.1 booleans", H + "profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n"
                              "    args:\n      ignorePreferredTermsOfExistingPods: yes\n"),
    ("a JSON file", '{"apiVersion": "kubescheduler.config.k8s.io/v1", '
                    '"kind": "KubeSchedulerConfiguration", "parallelism": 3}'),
]


@pytest.mark.parametrize("name,text", ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_accepted_configuration(name: str, text: str) -> None:
    cfg = load_config_data(text)
    assert cfg.api_version == "kubescheduler.config.k8s.io/v1"


def test_out_of_tree_args_stay_raw() -> None:
    cfg = load_config_data(ACCEPTED[4][1])
    [pc] = [pc for pc in cfg.profiles[0].plugin_config if pc.name == "Coscheduling"]
    assert pc.args == {"anything": [1, 2]}


def test_yaml_scalars_follow_go_yaml() -> None:
    cfg = load_config_data(ACCEPTED[5][1])
    assert cfg.parallelism == 2
    cfg = load_config_data(ACCEPTED[6][1])
    [pc] = [pc for pc in cfg.profiles[0].plugin_config if pc.name == "InterPodAffinity"]
    assert pc.args.ignore_preferred_terms_of_existing_pods is True


def test_missing_file_keeps_the_file_name(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(ConfigError) as info:
        load_config(str(missing))
    assert str(info.value) == f"open {missing}: no such file or directory"
    assert info.value.file == str(missing)


def test_not_yaml_is_a_clear_error(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("a: [b\n")
    with pytest.raises(ConfigError) as info:
        load_config(str(f))
    assert str(info.value).startswith("yaml: line 2: ")
    assert info.value.file == str(f)


def test_error_from_a_file_names_the_file(tmp_path: Path) -> None:
    f = tmp_path / "c.yaml"
    f.write_text(H + "percentageOfNodesToScore: 120\n")
    with pytest.raises(ConfigError) as info:
        load_config(f)
    assert info.value.file == str(f)
    assert str(info.value) == "percentageOfNodesToScore: Invalid value: 120: not in valid range [0-100]"


@pytest.mark.parametrize("name", ["default.yaml", "two-profiles.yaml"])
def test_shipped_configs_load(name: str) -> None:
    load_config(str(REPO / "data" / "configs" / name))


def test_default_yaml_is_the_default_profile() -> None:
    written = load_config(str(REPO / "data" / "configs" / "default.yaml"))
    assert written.profiles == default_config().profiles


def test_walkthrough_config_is_refused() -> None:
    with pytest.raises(ConfigError) as info:
        load_config(str(REPO / "data" / "configs" / "walkthrough-two-profiles.yaml"))
    assert "queueSort must be the same for all profiles" in str(info.value)


def _decode_stage_cases() -> list[Path]:
    if not CASES.is_dir():
        return []
    out = []
    for d in sorted(CASES.iterdir()):
        exp = json.loads((d / "expected.json").read_text())
        if exp.get("configErrorStage") == "decode/validate":
            out.append(d)
    return out


@pytest.mark.skipif(not CASES.is_dir(), reason="conformance cases not present")
@pytest.mark.parametrize("case", _decode_stage_cases(), ids=lambda p: p.name)
def test_conformance_refusals(case: Path) -> None:
    want = json.loads((case / "expected.json").read_text())["configError"]
    with pytest.raises(ConfigError) as info:
        load_config(str(case / "config.yaml"))
    assert str(info.value) == want
