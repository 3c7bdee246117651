"""The one assertion every exercise-check test makes: a check prints exactly one verdict line."""
from __future__ import annotations

from typing import Any, Callable

import pytest

from ksched_edu.exercises.core import FAIL_MARK, PASS_MARK


def verdict(capsys: pytest.CaptureFixture, check: Callable[..., bool], *args: Any, **kwargs: Any) -> tuple[bool, str]:
    """Run a check; assert it printed exactly one line, ✔ or ✘ as it returned, a hint with a ✘; return both."""
    result = check(*args, **kwargs)
    out = capsys.readouterr().out
    assert out.count("\n") == 1, f"a check prints exactly one line, got {out!r}"
    assert out.startswith(PASS_MARK if result else FAIL_MARK)
    if not result:
        assert " Hint: " in out
    return result, out
