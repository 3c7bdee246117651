"""The package's data is package data: ksched_edu.resources finds it, and pyproject.toml lists every package."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ksched_edu.exercises.core import project_path
from ksched_edu.resources import data_path, data_root, resolve_data

ROOT = Path(__file__).resolve().parents[2]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")


def test_data_root_is_the_checkout_data_folder():
    assert data_root() == ROOT / "data"
    assert data_path() == data_root()


@pytest.mark.parametrize("parts, want", [
    (("clusters/three-nodes.yaml",), "clusters/three-nodes.yaml"),
    (("clusters", "three-nodes.yaml"), "clusters/three-nodes.yaml"),
    (("topologies",), "topologies"),
])
def test_data_path_names_a_file_under_the_root(parts, want):
    path = data_path(*parts)
    assert path == ROOT / "data" / want and path.is_absolute() and path.exists()


@pytest.mark.parametrize("given, want", [
    ("data/clusters/three-nodes.yaml", ROOT / "data/clusters/three-nodes.yaml"),
    ("../data/clusters/three-nodes.yaml", ROOT / "data/clusters/three-nodes.yaml"),
    ("notes/elsewhere.txt", Path("notes/elsewhere.txt")),
])
def test_resolve_data_reads_a_leading_data_folder_as_the_root(given, want, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no data/ here
    assert resolve_data(given) == want


def test_project_path_finds_data_from_any_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert project_path("data/clusters/three-nodes.yaml") == ROOT / "data/clusters/three-nodes.yaml"


def test_pyproject_lists_every_package_and_maps_the_data():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "ksched_edu").rglob("__init__.py")}
    missing = sorted(on_disk - set(setuptools["packages"]))
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {', '.join(missing)}"
    assert setuptools["package-dir"]["ksched_edu._data"] == "data"
    assert "ksched_edu._data" in setuptools["packages"]
