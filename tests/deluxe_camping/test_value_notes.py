"""Every Deluxe Camping hint value says what it is (each ranked choice's note, `hint.value_note`, which the reply
carries): a different note for each kind of value, "exact" only on the values that end the game, and "not" a proof
on the final line scores and on the securable values CP-SAT did not prove. Found by the mutation run: an exact
value's note written as a searched line's ("not a proof") survived every test."""

from __future__ import annotations

import pytest
from campsolver.solver.deluxe_camping import hint as hints

KINDS = [kind for kind in hints.ValueKind if kind is not hints.ValueKind.NONE]


def note(kind: hints.ValueKind) -> str:
    # the note reads the value's kind, replies and bound, never the action
    return hints.value_note(hints.RankedMove(choice=None, value=1.0, depth=3, kind=kind, replies=2, bound=4.0))  # type: ignore[arg-type]


def test_each_kind_of_value_has_its_own_note() -> None:
    notes = {kind: note(kind) for kind in KINDS}
    assert len(set(notes.values())) == len(KINDS), notes


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_only_a_value_that_ends_the_game_is_called_exact(kind: hints.ValueKind) -> None:
    text = note(kind).lower()
    assert ("exact" in text) == (kind is hints.ValueKind.EXACT), text
    if kind in (hints.ValueKind.LINE_FINAL, hints.ValueKind.SECURABLE_FOUND):
        assert "not a proof" in text or "not proven" in text, text
