"""Write ``ksched_edu/api/apifields.py``: the JSON field names of the Kubernetes v1.30 API types
that the manifest loader reads, for strict field checking.

The table is read from the model classes of the official Kubernetes Python client at
release 30.1.0 (generated from the API server's OpenAPI document of release-1.30): each
model's ``attribute_map`` gives the JSON names, its ``openapi_types`` their types. The
wheel is read as a zip archive; nothing of it is imported or installed.

    python tests/api/make_apifields.py WHEEL            # rewrite the table
    python tests/api/make_apifields.py WHEEL --check    # exit 1 when the table differs

``tests/api/test_apifields.py`` runs the check with the wheel pip downloads.
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
import zipfile
from pathlib import Path

CLIENT_VERSION = "30.1.0"
TABLE = Path(__file__).resolve().parents[2] / "ksched_edu" / "api" / "apifields.py"

# The kinds the loader decodes (ksched_edu/api/loader.py KINDS), by their model class.
ROOT_MODELS = {
    "Pod": "V1Pod", "Node": "V1Node", "PriorityClass": "V1PriorityClass",
    "PodDisruptionBudget": "V1PodDisruptionBudget", "Service": "V1Service",
    "ReplicationController": "V1ReplicationController", "ReplicaSet": "V1ReplicaSet",
    "StatefulSet": "V1StatefulSet", "PersistentVolumeClaim": "V1PersistentVolumeClaim",
    "PersistentVolume": "V1PersistentVolume", "StorageClass": "V1StorageClass",
    "CSINode": "V1CSINode", "CSIDriver": "V1CSIDriver",
}
EXTRA_MODELS = ("V1ListMeta",)  # a kind: List's metadata

_LIST = re.compile(r"^list\[(.+)\]$")
_DICT = re.compile(r"^dict\(str, (.+)\)$")


def _read_models(archive: zipfile.ZipFile) -> dict[str, tuple[dict[str, str], dict[str, str]]]:
    """Every model class of the client: name -> (openapi_types, attribute_map)."""
    models = {}
    for name in archive.namelist():
        if not re.fullmatch(r"kubernetes/client/models/v[0-9a-z_]+\.py", name):
            continue
        for cls in ast.parse(archive.read(name).decode()).body:
            if not isinstance(cls, ast.ClassDef):
                continue
            found: dict[str, dict[str, str]] = {}
            for node in cls.body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                        and isinstance(node.targets[0], ast.Name) \
                        and node.targets[0].id in ("openapi_types", "attribute_map"):
                    found[node.targets[0].id] = ast.literal_eval(node.value)
            if len(found) == 2:
                models[cls.name] = (found["openapi_types"], found["attribute_map"])
    return models


def _shape(openapi_type: str) -> tuple[str, str]:
    """('', model) for an object, ('[]', model) for a list of objects, ('{}', model) for a
    map of objects, ('', '') for anything else (a leaf: strings, numbers, free-form JSON)."""
    m = _LIST.match(openapi_type)
    if m and m.group(1).startswith("V"):
        return "[]", m.group(1)
    m = _DICT.match(openapi_type)
    if m and m.group(1).startswith("V"):
        return "{}", m.group(1)
    if openapi_type.startswith("V") and "[" not in openapi_type and "(" not in openapi_type:
        return "", openapi_type
    return "", ""


def _type_name(model: str) -> str:
    return model[2:] if model.startswith("V1") and model[2:3].isupper() else model


def build(wheel: Path) -> str:
    """The text of apifields.py from the client wheel."""
    types: dict[str, dict[str, str]] = {}
    with zipfile.ZipFile(wheel) as archive:
        models = _read_models(archive)
    todo = list(ROOT_MODELS.values()) + list(EXTRA_MODELS)
    while todo:
        model = todo.pop()
        if _type_name(model) in types:
            continue
        openapi_types, attribute_map = models[model]
        fields: dict[str, str] = {}
        for attr, json_name in attribute_map.items():
            prefix, child = _shape(openapi_types[attr])
            fields[json_name] = prefix + _type_name(child) if child else ""
            if child:
                todo.append(child)
        types[_type_name(model)] = fields
    lines = [
        '"""The JSON field names of the Kubernetes v1.30 API types the manifest loader reads.',
        "",
        "Written by tests/api/make_apifields.py from the model classes of the Kubernetes Python",
        f"client {CLIENT_VERSION} (generated from kube-apiserver's OpenAPI document, release-1.30);",
        "do not edit by hand. ``TYPES[name][json_field]`` is the field's type: ``\"\"`` for a",
        "value the check does not enter (a string, number, quantity, list of strings, free-form",
        "JSON), ``\"T\"`` for an object of type T, ``\"[]T\"`` for a list of them, ``\"{}T\"`` for",
        "a map of them. ``KINDS[kind]`` is the type of a kind's object.",
        '"""',
        "",
        "KINDS = {",
    ]
    lines += [f"    {kind!r}: {_type_name(model)!r}," for kind, model in sorted(ROOT_MODELS.items())]
    lines += ["}", "", "TYPES = {"]
    for name in sorted(types):
        lines.append(f"    {name!r}: {{")
        lines += [f"        {field!r}: {shape!r}," for field, shape in sorted(types[name].items())]
        lines.append("    },")
    lines += ["}", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel", type=Path, help=f"kubernetes-{CLIENT_VERSION}-py2.py3-none-any.whl")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    text = build(args.wheel)
    if args.check:
        if TABLE.read_text(encoding="utf-8") != text:
            print(f"{TABLE}: differs from the table the client {CLIENT_VERSION} gives; "
                  "run tests/api/make_apifields.py WHEEL", file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text, encoding="utf-8")
    print(f"{TABLE}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
