"""GPUs as the scheduler could see them: devices, links, topologies, a ledger, a subset search.

Not a port: kube-scheduler counts ``nvidia.com/gpu`` and stops there. This
package is the course's lab on what it leaves out:

- :mod:`~ksched_edu.gpu.links`: the link classes of ``nvidia-smi topo -m``
  (NV1..NV18, PIX, PXB, PHB, NODE, SYS) and their bandwidths;
- :mod:`~ksched_edu.gpu.topology`: a server's GPUs and the link between every
  pair; ``Topology.to_networkx()`` gives the graph (networkx loads only then);
- :mod:`~ksched_edu.gpu.nvidia_smi`: reads a real ``nvidia-smi topo -m`` dump;
- :mod:`~ksched_edu.gpu.catalog`: the dumps of ``data/topologies/`` by name,
  and the node label that names one;
- :mod:`~ksched_edu.gpu.search`: the exact best-subset search;
- :mod:`~ksched_edu.gpu.ledger`: which pod holds which GPU;
- :mod:`~ksched_edu.gpu.plugins`: GPUTopology, the plugin built on them;
- :mod:`~ksched_edu.gpu.compare`: stock GPU binpacking beside GPUTopology, job
  by job, and the idle GPUs each run leaves unusable;
- :mod:`~ksched_edu.gpu.nics`: which GPUs sit near which NIC;
- :mod:`~ksched_edu.gpu.sharing_modes`: time-slicing, MPS and MIG against the
  FGD model's ``gpu_milli``.
"""
from .catalog import TOPOLOGY_LABEL, TopologyCatalog
from .ledger import GPUS_ANNOTATION, GPULedger, LedgerConflict
from .links import Link, parse_link
from .nvidia_smi import TopologyError, format_topo, load_topology, parse_topo
from .search import Choice, Constraint, best_subset, brute_force_best_subset
from .topology import GPU, Topology

__all__ = ["GPU", "Topology", "Link", "parse_link", "parse_topo", "load_topology", "format_topo",
           "TopologyError", "TopologyCatalog", "TOPOLOGY_LABEL", "GPULedger", "LedgerConflict",
           "GPUS_ANNOTATION", "Constraint", "Choice", "best_subset", "brute_force_best_subset"]
