"""Port of pkg/scheduler/framework/plugins/helper/spread.go (v1.30).

When a pod declares no topology spread constraints, PodTopologySpread still
spreads it with default constraints, counting the pods that "belong together"
with it: those selected by the Services that select the pod, and by the
ReplicationController, ReplicaSet or StatefulSet that controls it.

Deviations:
- Upstream takes four informer listers; here one ObjectLister (the plugin
  handle's ``object_lister()``) answers for every kind.
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import SCHEDULER_PLUGINS, ports
from ....api.labels import Selector, selector_from_label_selector, selector_from_set
from ....api.types import OwnerReference, Pod

# The controllers whose selector joins the default one: (apiVersion, kind).
RC_KIND = ("v1", "ReplicationController")
RS_KIND = ("apps/v1", "ReplicaSet")
SS_KIND = ("apps/v1", "StatefulSet")


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/controller_ref.go", "GetControllerOfNoCopy", 43, 51, repo=SCHEDULER_PLUGINS)
def get_controller_of(pod: Pod) -> Optional[OwnerReference]:
    """Upstream metav1.GetControllerOfNoCopy: the owner reference marked controller."""
    for ref in pod.metadata.owner_references:
        if ref.controller:
            return ref
    return None


def _parse_group_version(api_version: str) -> Optional[str]:
    """Upstream schema.ParseGroupVersion, as a normalized ``group/version`` string
    (``v1`` for the core group), or None where upstream returns an error."""
    if api_version.count("/") == 0:
        return api_version
    if api_version.count("/") > 1:
        return None
    group, version = api_version.split("/")
    return f"{group}/{version}" if group else version


@ports("pkg/scheduler/framework/plugins/helper/spread.go", "DefaultSelector", 37, 93)
def default_selector(pod: Pod, object_lister: Any) -> Selector:
    """The selector deduced from the Services, RCs, RSs and SSs matching ``pod``."""
    # Services, RCs, RSs and SSs that match the pod agree on the labels they
    # share, so merging their label sets is safe.
    label_set: dict[str, str] = {}
    for service in get_pod_services(object_lister, pod):
        label_set.update(service.selector)
    selector = selector_from_set(label_set)

    owner = get_controller_of(pod)
    if owner is None:
        return selector
    gv = _parse_group_version(owner.api_version)
    if gv is None:
        return selector

    gvk = (gv, owner.kind)
    if gvk == RC_KIND:
        rc = object_lister.get("ReplicationController", pod.metadata.namespace, owner.name)
        if rc is not None:
            label_set.update(rc.selector)
            selector = selector_from_set(label_set)
    elif gvk in (RS_KIND, SS_KIND):
        obj = object_lister.get(gvk[1], pod.metadata.namespace, owner.name)
        if obj is not None:
            other = selector_from_label_selector(obj.selector)
            # upstream: Nothing() has no requirements to add (Requirements() is not selectable).
            if not other.nothing:
                selector = Selector(selector.requirements + other.requirements)
    # Any other owner is not a controller the default spreading knows.
    return selector


@ports("pkg/scheduler/framework/plugins/helper/spread.go", "GetPodServices", 96, 116)
def get_pod_services(object_lister: Any, pod: Pod) -> list[Any]:
    """The Services in the pod's namespace whose selector matches the pod's labels."""
    services = []
    for service in object_lister.list("Service", pod.metadata.namespace):
        # upstream: a nil selector matches nothing, not everything (an empty map
        # is nil once it has crossed the API).
        if not service.selector:
            continue
        if selector_from_set(service.selector).matches(pod.metadata.labels):
            services.append(service)
    return services
