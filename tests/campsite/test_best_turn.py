"""The best single turn: CP-SAT and the exact enumeration against the rulebook-only oracle, proofs from status."""

from __future__ import annotations

import random

import pytest
from campsolver.solver.campsite import best_turn as bt
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.evaluate import TurnEvaluator, best_turn_exact
from campsolver.solver.campsite.rules import Placement, Table, Tent, Token
from campsolver.solver.core import cpsat
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof
from ortools.sat.python import cp_model

from tests.campsite import oracle


def random_table(seed: int, cards: int, tents: int, players: int = 2) -> tuple[Table, list[R.Card]]:
    """A legal table reached by random play, and a hand of 3 unseen cards."""
    rng = random.Random(seed)
    deck = list(R.default_deck())
    rng.shuffle(deck)
    table = R.starting_table(deck[0], deck[1])
    used: dict[int, set[Token]] = {p: set() for p in range(players)}
    for k in range(cards - 2):
        table = table.place(rng.choice(table.legal_placements([deck[2 + k]])))
        if k < tents:
            player = k % players
            token = rng.choice([t for t in Token if t not in used[player]])
            used[player].add(token)
            table = table.pitch(Tent(player, token, *rng.choice(table.free_squares())))
    return table, deck[cards : cards + 3]


def laid(table: Table) -> list[tuple[str, int, int, int]]:
    return [(p.card.text(), p.row, p.col, p.rotation) for p in table.placements]


def tents(table: Table) -> list[tuple[int, str, int, int]]:
    return [(t.player, t.token.letter, t.row, t.col) for t in table.tents]


def own_score(table: Table, player: int) -> int:
    return R.player_scores(table, max([player + 1] + [t.player + 1 for t in table.tents]))[player]


@pytest.mark.parametrize("seed", [*range(4), *(pytest.param(s, marks=pytest.mark.slow) for s in range(4, 16))])
def test_cp_sat_and_exact_best_turn_match_the_oracle(seed: int) -> None:
    table, hand = random_table(seed, cards=3 + seed % 3, tents=2 + seed % 2)
    hand = hand[: 1 + seed % 2]
    tokens = [Token.WATER, Token.WILDERNESS, Token(seed % 6)]
    letters = "".join(sorted({t.letter for t in tokens}))
    expected = oracle.best_turn_value(laid(table), tents(table), [c.text() for c in hand], letters)
    found = bt.best_turn(table, hand, tokens, 0, Budget(30), seed=seed)
    assert found.proof is Proof.OPTIMAL
    assert found.score == expected
    after = table.place(found.placement).pitch(found.tent)  # legal by the rules model
    assert own_score(after, 0) == expected
    plays, evaluated = best_turn_exact(table, hand, tokens, 0, 2, Budget(30))
    assert evaluated == len(table.legal_placements(hand))
    assert {p.score for p in plays} == {expected}
    every_play = oracle.turns(laid(table), tents(table), [c.text() for c in hand], letters)
    oracle_best = {(card, tr, tc, token) for card, _r, _c, _t, token, tr, tc, total in every_play if total == expected}
    # Every play the exact solver lists is optimal by the oracle (pictures may merge twin placements).
    for play in plays:
        assert (play.placement.card.text(), play.tent.row, play.tent.col, play.tent.token.letter) in oracle_best


def test_evaluator_deltas_equal_the_rules_model_on_every_placement() -> None:
    table, hand = random_table(11, cards=6, tents=5)
    evaluator = TurnEvaluator(table, 2)
    before = R.player_scores(table, 2)
    for effect in evaluator.effects(hand):
        after = table.place(effect.placement)
        now = R.player_scores(after, 2)
        assert [b + d for b, d in zip(before, effect.delta, strict=True)] == now
        for cell, around in effect.options:
            for token in Token:
                assert around.points(token) == R.tent_points(after.grid, token, cell)[0] * (
                    2 if R.tent_points(after.grid, token, cell)[1] else 1
                )


def test_best_turn_counts_later_gain_of_earlier_tents() -> None:
    # One Desert tent waits next to an open edge; the only card in hand is a full Desert card.
    table = R.starting_table(R.parse_card("MW #../..."), R.parse_card("MW ..#/..."))
    table = table.pitch(Tent(0, Token.DESERT, 1, 2))
    hand = [R.parse_card("DF ###/##.")]
    found = bt.best_turn(table, hand, [Token.FOREST], 0, Budget(30))
    assert found.proof is Proof.OPTIMAL
    expected = oracle.best_turn_value(laid(table), tents(table), [hand[0].text()], "F")
    assert found.score == expected and found.score >= 3 + 1


def test_a_feasible_status_is_never_reported_as_optimal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Weakening the proof rule (claiming OPTIMAL from a FEASIBLE status) must fail here."""
    table, hand = random_table(2, cards=4, tents=2)
    real_solve = cpsat.solve

    def feasible_only(model, budget, **kwargs):
        result = real_solve(model, budget, **kwargs)
        result.status = cp_model.FEASIBLE
        result.proof = cpsat.proof_of(cp_model.FEASIBLE)
        return result

    monkeypatch.setattr(cpsat, "solve", feasible_only)
    found = bt.best_turn(table, hand, list(Token), 0, Budget(30))
    assert found.proof is Proof.FEASIBLE_WITH_BOUND
    assert found.interrupted


def test_a_spent_budget_gives_no_proof() -> None:
    table, hand = random_table(4, cards=5, tents=2)
    budget = Budget(0.001)
    import time

    time.sleep(0.01)
    from campsolver.solver.core.budget import SolveInterrupted

    with pytest.raises(SolveInterrupted):
        bt.best_turn(table, hand, list(Token), 0, budget)


def test_first_starting_card_is_the_only_free_placement() -> None:
    assert Table().legal_placements([R.parse_card("DF #../...")]) == [Placement(R.parse_card("DF #../..."), 0, 0, 0)]
