"""The API objects kube-scheduler reads, and how they are loaded from YAML.

``types`` holds the dataclasses (Pod, Node, ...), ``quantity`` the exact
resource amounts, ``loader`` the kubectl-style YAML reader, ``defaults`` the
API server's defaulting and Priority admission, ``errors`` the one-line
:class:`ManifestError` (and its kinds: :class:`StrictDecodingError` for an unknown
or repeated field, ``InvalidObjectError`` for what validation refuses), ``strict``
and ``apifields`` the strict field check against the v1.30 API types.
"""
from .defaults import apply_defaults
from .errors import ManifestError, StrictDecodingError
from .loader import load_cluster, load_objects
from .quantity import Quantity, QuantityError, parse_quantity
from .types import Cluster, Node, Pod

__all__ = [
    "Cluster", "ManifestError", "Node", "Pod", "Quantity", "QuantityError", "StrictDecodingError",
    "apply_defaults", "load_cluster", "load_objects", "parse_quantity",
]
