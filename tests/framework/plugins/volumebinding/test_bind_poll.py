"""BindPodVolumes' wait (binder.go: wait.PollUntilContextTimeout(ctx, time.Second, bindTimeout,
false, checkBindings)): a check every second, none at once, an error ends the poll, and
"context deadline exceeded" once bindTimeoutSeconds passed."""
from __future__ import annotations

import pytest

from ksched_edu.framework.plugins.volumebinding.binder import (BIND_POLL_INTERVAL_SECONDS, BinderError,
                                                                poll_until_timeout)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> bool:
        self.sleeps.append(seconds)
        self.now += seconds
        return True


def test_the_poll_checks_every_second_and_not_at_once():
    clock = FakeClock()
    checks: list[float] = []

    def done() -> bool:
        checks.append(clock.now)
        return clock.now >= 5
    poll_until_timeout(clock.sleep, BIND_POLL_INTERVAL_SECONDS, 600, done)
    assert checks == [1, 2, 3, 4, 5]


def test_the_deadline_wins_over_the_last_tick():
    clock = FakeClock()
    checks: list[float] = []
    with pytest.raises(BinderError, match="^context deadline exceeded$"):
        poll_until_timeout(clock.sleep, 1.0, 10, lambda: checks.append(clock.now) or False)
    assert checks == [float(t) for t in range(1, 10)]
    assert clock.now == 10


def test_a_fractional_timeout_ends_between_two_ticks():
    clock = FakeClock()
    with pytest.raises(BinderError):
        poll_until_timeout(clock.sleep, 1.0, 2.5, lambda: False)
    assert clock.sleeps == [1.0, 1.0, 0.5]


def test_a_zero_timeout_fails_without_a_check():
    checks = []
    with pytest.raises(BinderError, match="context deadline exceeded"):
        poll_until_timeout(FakeClock().sleep, 1.0, 0, lambda: checks.append(1) or True)
    assert checks == []


def test_an_error_of_the_check_ends_the_poll():
    clock = FakeClock()

    def fails() -> bool:
        if clock.now >= 3:
            raise BinderError('ClaimRef got reset for pv "pv-1"')
        return False
    with pytest.raises(BinderError, match="ClaimRef got reset"):
        poll_until_timeout(clock.sleep, 1.0, 600, fails)
    assert clock.now == 3


def test_without_a_sleep_one_check_decides():
    checks = []
    with pytest.raises(BinderError, match="context deadline exceeded"):
        poll_until_timeout(None, 1.0, 600, lambda: checks.append(1) or False)
    assert checks == [1]
    poll_until_timeout(lambda seconds: False, 1.0, 600, lambda: True)
