"""The one assertion every exercise-check test makes: a check prints exactly one verdict line."""
from __future__ import annotations

import time
from typing import Any, Callable, NamedTuple, Optional

import pytest

from ksched_edu.exercises import core
from ksched_edu.exercises.core import FAIL_MARK, PASS_MARK

class Row(NamedTuple):
    """One answer a learner might give, and what its check must say of it."""

    id: str
    args: tuple
    passes: bool
    hint: Optional[str] = None  # a word the hint must contain (a failing row)
    says: Optional[str] = None  # a word the verdict must contain, anywhere
    short: bool = False  # lower the wall-clock limit for this row


# The wall-clock limit a ``short`` row of a check's table gives the learner's code.
SHORT_LIMIT = 1.0


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


def assert_row(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, check: Callable[..., bool],
               args: tuple, row: Any) -> None:
    """One row of a check's wrong-answer table: its verdict, hint and words, and with ``row.short``
    a learner's endless loop cut near SHORT_LIMIT."""
    if row.short:
        monkeypatch.setattr(core, "TIME_LIMIT_SECONDS", SHORT_LIMIT)
    start = time.monotonic()
    result, out = verdict(capsys, check, *args)
    assert result is row.passes, out
    assert_mentions(out, row.passes, row.hint, row.says)
    if row.short:
        assert time.monotonic() - start < 30 * SHORT_LIMIT, "an endless loop should end near the limit"


def endless(*args: Any) -> Any:
    """A learner's answer that never returns."""
    while True:
        pass


def not_written(*args: Any) -> Any:
    """A learner's answer left as the exercise's stub."""
    raise NotImplementedError("your code here")


def table_params(tables: dict) -> list:
    """``pytest.param(check, row)`` for every row of ``tables`` (check name -> (chapter mark, rows))."""
    return [pytest.param(check, row, id=f"{check}: {row.id}", marks=getattr(pytest.mark, chapter))
            for check, (chapter, rows) in tables.items() for row in rows]


def assert_every_check_has_a_table(modules: tuple, tables: dict) -> None:
    """Each ``check_*`` of ``modules`` has a table with a right answer, four wrong ones and an unanswered one."""
    checks = {name for module in modules for name in dir(module) if name.startswith("check_")}
    assert checks == set(tables)
    for check, (_, rows) in tables.items():
        assert any(r.passes for r in rows) and sum(not r.passes for r in rows) >= 4, check
        assert any(r.args == (None,) or r.args == (...,) for r in rows), f"{check}: no unanswered row"
