"""Where a node's GPU topology comes from: a node label naming a dump in ``data/topologies/``.

Not a port. A node says which server it is with the label
``gpu.ksched-edu.io/topology: dgx-a100`` (as GPU feature discovery labels a
node with its GPU product); the :class:`TopologyCatalog` reads
``data/topologies/dgx-a100.txt`` the first time the name is asked for and
keeps the parsed :class:`~ksched_edu.gpu.topology.Topology`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Optional, Union

from ..anchors import plumbing
from ..resources import data_path
from .nvidia_smi import load_topology
from .topology import Topology

_PLUMBING = ("the project's own GPU model: a node's topology named by a node label and read from an nvidia-smi "
             "dump in data/topologies; no upstream counterpart")

TOPOLOGY_LABEL = "gpu.ksched-edu.io/topology"
# data/topologies of the project, in a checkout or installed (ksched_edu.resources).
DEFAULT_DIR = data_path("topologies")
SUFFIX = ".txt"


@plumbing(_PLUMBING)
class TopologyCatalog:
    """Topologies by name: the ones given, then the ``<name>.txt`` dumps of ``directory``."""

    def __init__(self, directory: Union[str, Path, None] = None,
                 topologies: Optional[Mapping[str, Topology]] = None) -> None:
        self.directory = Path(directory) if directory else DEFAULT_DIR
        self._loaded: dict[str, Optional[Topology]] = dict(topologies or {})

    @plumbing(_PLUMBING)
    def names(self) -> list[str]:
        """Every topology the catalog can give: the ones given and the dumps on disk."""
        on_disk = {p.stem for p in self.directory.glob(f"*{SUFFIX}")} if self.directory.is_dir() else set()
        return sorted(on_disk | {k for k, v in self._loaded.items() if v is not None})

    @plumbing(_PLUMBING)
    def get(self, name: str) -> Optional[Topology]:
        """The topology called ``name``, or None when there is no such dump."""
        if name not in self._loaded:
            path = self.directory / f"{name}{SUFFIX}"
            self._loaded[name] = load_topology(path, name) if path.is_file() else None
        return self._loaded[name]

    @plumbing(_PLUMBING)
    def for_node(self, node: Any) -> tuple[str, Optional[Topology]]:
        """(the node's topology label, the topology); ("", None) for a node without the label."""
        name = node.metadata.labels.get(TOPOLOGY_LABEL, "") if node is not None else ""
        return name, (self.get(name) if name else None)

    @plumbing(_PLUMBING)
    def all(self) -> dict[str, Topology]:
        out = {}
        for name in self.names():
            top = self.get(name)
            if top is not None:
                out[name] = top
        return out
