"""Claim lines print what was checked and fail loudly when the run disagrees."""
from __future__ import annotations

import pytest

from ksched_edu.claims import ClaimError, claim, claim_equal


@pytest.mark.parametrize("name, call, printed", [
    ("true condition", lambda: claim("two nodes fit", 2 == 2), "✔ two nodes fit\n"),
    ("truthy value", lambda: claim("some nodes fit", ["a"]), "✔ some nodes fit\n"),
    ("equal strings shown bare", lambda: claim_equal("the node", "node-b", "node-b"), "✔ the node: node-b\n"),
    ("equal numbers shown as repr", lambda: claim_equal("score", 68, 68), "✔ score: 68\n"),
    ("equal lists", lambda: claim_equal("order", ["a", "b"], ["a", "b"]), "✔ order: ['a', 'b']\n"),
])
def test_a_claim_that_holds_prints_one_line(name, call, printed, capsys) -> None:
    call()
    assert capsys.readouterr().out == printed


@pytest.mark.parametrize("name, call, message", [
    ("false condition", lambda: claim("two nodes fit", 1 == 2), "✘ two nodes fit"),
    ("empty value", lambda: claim("some nodes fit", []), "✘ some nodes fit"),
    ("different values", lambda: claim_equal("the node", "node-a", "node-b"),
     "✘ the node: 'node-a', the chapter says 'node-b'"),
])
def test_a_claim_that_fails_raises_and_prints_nothing(name, call, message, capsys) -> None:
    with pytest.raises(ClaimError) as err:
        call()
    assert str(err.value) == message
    assert isinstance(err.value, AssertionError)
    assert capsys.readouterr().out == ""
