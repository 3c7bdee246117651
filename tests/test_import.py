"""``import ksched_edu`` stays light: the engine never loads a view library."""
from __future__ import annotations

import subprocess
import sys

HEAVY = ("pandas", "matplotlib", "ipywidgets", "networkx")

SCRIPT = """
import sys
import ksched_edu, ksched_edu.scheduler, ksched_edu.cli, ksched_edu.sim.simulation, ksched_edu.sim.workload
from ksched_edu.framework.plugins.registry import new_in_tree_registry
new_in_tree_registry()
print(",".join(m for m in %r if m in sys.modules))
""" % (HEAVY,)


def test_engine_imports_no_view_library():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""
