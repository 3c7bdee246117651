"""The taint filter of helper/taint.go (v1.30): only NoSchedule and NoExecute keep pods off."""
import pytest

from ksched_edu.api.types import Taint
from ksched_edu.framework.plugins.helper.taint import do_not_schedule_taints_filter_func


@pytest.mark.parametrize("effect,kept", [("NoSchedule", True), ("NoExecute", True), ("PreferNoSchedule", False)])
def test_do_not_schedule_taints_filter_func(effect, kept):
    assert do_not_schedule_taints_filter_func()(Taint(key="k", effect=effect)) is kept
