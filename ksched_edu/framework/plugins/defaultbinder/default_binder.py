"""Port of pkg/scheduler/framework/plugins/defaultbinder/default_binder.go (v1.30).

DefaultBinder finishes a binding cycle by asking the API server to bind the
pod to the chosen node (the pods/binding subresource).

Deviations:
- No v1.Binding object: the client's ``bind(pod, node_name)`` takes the pod
  and the target node directly.
"""
from __future__ import annotations

from typing import Any, Optional

from ....api.types import Pod
from ...cycle_state import CycleState
from ...interface import Status
from ..names import DEFAULT_BINDER

NAME = DEFAULT_BINDER

# Extension points: Bind.


class DefaultBinder:
    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def name(self) -> str:
        return NAME

    def bind(self, state: CycleState, pod: Pod, node_name: str) -> Optional[Status]:
        # upstream: logged at V(3) "Attempting to bind pod to node".
        try:
            self.handle.client().bind(pod, node_name)
        except Exception as err:  # any API error fails the binding cycle
            return Status.as_status(err)
        return None


def new(args: Any, handle: Any) -> DefaultBinder:
    return DefaultBinder(handle)
