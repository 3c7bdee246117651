"""ksched_edu: a faithful, readable Python port of kube-scheduler v1.30, for learning.

Start with :class:`ksched_edu.sim.simulation.Simulation` (a cluster, a
configuration and a seed) or ``python -m ksched_edu schedule --cluster ...``.
Importing the package stays light: pandas, matplotlib and ipywidgets load only
when a view asks for them.
"""
__version__ = "0.1.0"

from .anchors import upstream  # noqa: E402  (the Go counterpart of a ported object)
from .i18n import get_language, set_language  # noqa: E402  (the language of the library's own voice)

__all__ = ["upstream", "set_language", "get_language", "__version__"]
