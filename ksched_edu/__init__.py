"""ksched_edu: a faithful, readable Python port of kube-scheduler v1.30, for learning.

Start with :class:`ksched_edu.sim.simulation.Simulation` (a cluster, a
configuration and a seed) or ``python -m ksched_edu schedule --cluster ...``.
Importing the package stays light: pandas, matplotlib and ipywidgets load only
when a view asks for them.
"""
__version__ = "0.1.0"

from .anchors import upstream  # noqa: E402  (the Go counterpart of a ported object)

__all__ = ["upstream", "__version__"]
