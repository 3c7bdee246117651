"""Mirrors TestDefaultBinder in defaultbinder/default_binder_test.go (v1.30)."""
import pytest

from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code
from ksched_edu.framework.plugins.defaultbinder.default_binder import NAME, new
from tests.builders import make_pod
from tests.fakes import FakeHandle


class FailingClient:
    def bind(self, pod, node_name):
        raise RuntimeError("binding error")


class FailingHandle(FakeHandle):
    def client(self):
        return FailingClient()


@pytest.mark.parametrize("name,handle_cls,want_err", [
    ("successful", FakeHandle, None),
    ("binding error", FailingHandle, "binding error"),
], ids=["successful", "binding error"])
def test_default_binder(name, handle_cls, want_err):
    handle = handle_cls()
    pod = make_pod().namespace("ns").name("foo").uid("foo").obj()
    status = new(None, handle).bind(CycleState(), pod, "foohost.kubernetes.mydomain.com")
    if want_err is None:
        assert status is None
        assert handle.fake_client.bindings == [("ns/foo", "foohost.kubernetes.mydomain.com")]
    else:
        assert status.code == Code.Error
        assert status.message() == want_err


def test_name():
    assert new(None, None).name() == NAME == "DefaultBinder"
