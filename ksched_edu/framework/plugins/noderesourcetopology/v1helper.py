"""Port of k8s.io/kubernetes/pkg/apis/core/v1/helper/helpers.go (v1.30), in part.

The resource-name predicates the NodeResourceTopologyMatch plugin asks: is a
resource native to Kubernetes (``cpu``, ``memory``, ``hugepages-2Mi``,
``example.kubernetes.io/x``) or an extended resource of a device plugin
(``nvidia.com/gpu``), and is it a hugepages size.
"""
from __future__ import annotations

from ....anchors import ports

RESOURCE_DEFAULT_NAMESPACE_PREFIX = "kubernetes.io/"
RESOURCE_HUGE_PAGES_PREFIX = "hugepages-"


@ports("pkg/apis/core/v1/helper/helpers.go", "IsPrefixedNativeResource", 50, 52)
def is_prefixed_native_resource(name: str) -> bool:
    """A name in the ``*kubernetes.io/`` namespace."""
    return RESOURCE_DEFAULT_NAMESPACE_PREFIX in name


@ports("pkg/apis/core/v1/helper/helpers.go", "IsNativeResource", 57, 60)
def is_native_resource(name: str) -> bool:
    """An unqualified name (implicitly ``kubernetes.io/``) or a prefixed native one."""
    return "/" not in name or is_prefixed_native_resource(name)


@ports("pkg/apis/core/v1/helper/helpers.go", "IsHugePageResourceName", 64, 66)
def is_huge_page_resource_name(name: str) -> bool:
    return name.startswith(RESOURCE_HUGE_PAGES_PREFIX)
