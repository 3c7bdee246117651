"""Write ``ksched_edu/config/feature_gates.py``: every feature gate kube-scheduler v1.30.4
knows, with its default, its stage and whether it is locked to its default.

kube-scheduler's ``--feature-gates`` accepts the gates registered on its feature gate:
pkg/features (``defaultKubernetesFeatureGates``, which relists the generic API server's
and apiextensions' gates), client-go's, component-base's logging and metrics gates
(added by cmd/kube-scheduler/app/server.go), and the two special gates AllAlpha and
AllBeta. This reads them from a git directory holding scheduler-plugins at 37b7888a,
which vendors k8s.io/kubernetes v1.30.4:

    python tests/config/make_feature_gates.py --git-dir scheduler-plugins/.git
    python tests/config/make_feature_gates.py --git-dir scheduler-plugins/.git --check
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

COMMIT = "37b7888a"
TABLE = Path(__file__).resolve().parents[2] / "ksched_edu" / "config" / "feature_gates.py"

# (package prefix in kube_features.go, file declaring its constants)
PACKAGES = {
    "": "vendor/k8s.io/kubernetes/pkg/features/kube_features.go",
    "genericfeatures.": "vendor/k8s.io/apiserver/pkg/features/kube_features.go",
    "apiextensionsfeatures.": "vendor/k8s.io/apiextensions-apiserver/pkg/features/kube_features.go",
}
MAP_FILE = PACKAGES[""]
OTHER_FILES = (  # files whose own map of specs kube-scheduler adds
    "vendor/k8s.io/client-go/features/known_features.go",
    "vendor/k8s.io/component-base/logs/api/v1/kube_features.go",
    "vendor/k8s.io/component-base/metrics/features/kube_features.go",
)
_CONST = re.compile(r"^\s*(\w+)\s+(?:featuregate\.)?Feature\s*=\s*\"(\w+)\"", re.M)
_BOOL_CONST = re.compile(r"^\s*(\w+)\s*=\s*(true|false)\s*$", re.M)
_ENTRY = re.compile(r"^\s*([\w.]+):\s*\{Default:\s*(\w+),\s*PreRelease:\s*(?:featuregate\.)?(\w+)"
                    r"(?:,\s*LockToDefault:\s*(true|false))?\}", re.M)
STAGES = {"Alpha": "ALPHA", "Beta": "BETA", "GA": "", "Deprecated": "DEPRECATED"}


def _show(git_dir: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{COMMIT}:{path}"],
                          check=True, capture_output=True, text=True).stdout


def _entries(text: str, names: dict[str, str]) -> dict[str, tuple[bool, str, bool]]:
    bools = {k: v == "true" for k, v in _BOOL_CONST.findall(text)}
    out = {}
    for ident, default, stage, locked in _ENTRY.findall(text):
        value = bools[default] if default in bools else default == "true"
        out[names[ident]] = (value, STAGES[stage], locked == "true")
    return out


def collect(git_dir: str) -> dict[str, tuple[bool, str, bool]]:
    names: dict[str, str] = {}
    for prefix, path in PACKAGES.items():
        names.update({prefix + ident: value for ident, value in _CONST.findall(_show(git_dir, path))})
    gates = {"AllAlpha": (False, "ALPHA", False), "AllBeta": (False, "BETA", False)}
    kube = _show(git_dir, MAP_FILE)
    gates.update(_entries(kube[kube.index("var defaultKubernetesFeatureGates"):], names))
    for path in OTHER_FILES:
        text = _show(git_dir, path)
        gates.update(_entries(text, {ident: value for ident, value in _CONST.findall(text)}))
    return gates


def render(gates: dict[str, tuple[bool, str, bool]]) -> str:
    lines = [
        '"""Every feature gate kube-scheduler v1.30.4 knows: name -> (default, stage, locked).',
        "",
        "Written by tests/config/make_feature_gates.py from the v1.30.4 sources (pkg/features,",
        "the generic API server's and apiextensions' gates it relists, client-go's, component-base's",
        "logging and metrics gates, AllAlpha and AllBeta); do not edit by hand. The stage is",
        '``"ALPHA"``, ``"BETA"``, ``"DEPRECATED"`` or ``""`` for GA; a locked gate cannot be set',
        "to anything but its default.",
        '"""',
        "",
        "KNOWN_FEATURE_GATES: dict[str, tuple[bool, str, bool]] = {",
    ]
    lines += [f"    {name!r}: ({default}, {stage!r}, {locked})," for name, (default, stage, locked)
              in sorted(gates.items())]
    lines += ["}", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", required=True, help=f"a scheduler-plugins git directory holding {COMMIT}")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    gates = collect(args.git_dir)
    text = render(gates)
    if args.check:
        if TABLE.read_text(encoding="utf-8") != text:
            print(f"{TABLE}: differs from the gates of {COMMIT}", file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text, encoding="utf-8")
    print(f"{TABLE}: {len(gates)} gates")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
