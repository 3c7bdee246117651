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


def assert_mentions(out: str, passes: bool, hint: str, says: Any = None) -> None:
    """A failing verdict's hint names ``hint``; the verdict names ``says`` when one is given."""
    if not passes:
        assert hint in out.split(" Hint: ", 1)[1], f"the hint should mention {hint!r}: {out!r}"
    if says is not None:
        assert says in out, f"the verdict should mention {says!r}: {out!r}"
