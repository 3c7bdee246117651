"""Port of pkg/scheduler/framework/plugins/defaultbinder/default_binder.go (v1.30).

DefaultBinder finishes a binding cycle by asking the API server to bind the
pod to the chosen node (the pods/binding subresource).

Deviations:
- No v1.Binding object: the client's ``bind(pod, node_name)`` takes the pod
  and the target node directly.
"""
from __future__ import annotations

from typing import Any, Optional

from ....anchors import ports
from ....api.types import Pod
from ...cycle_state import CycleState
from ...interface import Status
from ..names import DEFAULT_BINDER

NAME = DEFAULT_BINDER

# Extension points: Bind.


@ports("pkg/scheduler/framework/plugins/defaultbinder/default_binder.go", "DefaultBinder", 34, 36)
class DefaultBinder:
    def __init__(self, handle: Any) -> None:
        self.handle = handle

    @ports("pkg/scheduler/framework/plugins/defaultbinder/default_binder.go", "(DefaultBinder).Name", 46, 48)
    def name(self) -> str:
        return NAME

    @ports("pkg/scheduler/framework/plugins/defaultbinder/default_binder.go", "(DefaultBinder).Bind", 51, 63)
    def bind(self, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        # upstream: logged at V(3) "Attempting to bind pod to node".
        try:
            self.handle.client().bind(pod, node_name)
        except Exception as err:  # any API error fails the binding cycle
            return Status.as_status(err)
        return None


@ports("pkg/scheduler/framework/plugins/defaultbinder/default_binder.go", "New", 41, 43)
def new(args: Any, handle: Any) -> DefaultBinder:
    return DefaultBinder(handle)
