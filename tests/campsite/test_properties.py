"""Hypothesis properties of the Campsite rules model, and whole random games with invariants checked."""

from __future__ import annotations

import random

import pytest
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.rules import Placement, Tent, Token
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.core.geometry import is_connected
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.campsite import oracle

SETTINGS = settings(max_examples=30, deadline=None)
DECK = R.default_deck()
CARDS = st.sampled_from(DECK)


def laid(table: R.Table) -> list[tuple[str, int, int, int]]:
    return [(p.card.text(), p.row, p.col, p.rotation) for p in table.placements]


def tents(table: R.Table) -> list[tuple[int, str, int, int]]:
    return [(t.player, t.token.letter, t.row, t.col) for t in table.tents]


@SETTINGS
@given(card=CARDS, turns=st.integers(0, 7))
def test_rotation_keeps_the_card_and_four_turns_are_the_identity(card: R.Card, turns: int) -> None:
    squares = card.squares(turns % 4)
    assert len(squares) == R.CARD_SQUARES
    assert sum(squares.values()) == len(card.pattern)
    shape = {(max(r for r, _ in squares) + 1, max(c for _, c in squares) + 1)}
    assert shape == ({(2, 3)} if turns % 2 == 0 else {(3, 2)})
    assert R.parse_card(card.text()) == card


@SETTINGS
@given(seed=st.integers(0, 10_000), card=CARDS, row=st.integers(-4, 5), col=st.integers(-4, 8), turns=st.integers(0, 3))
def test_legality_agrees_with_the_rulebook_oracle(seed: int, card: R.Card, row: int, col: int, turns: int) -> None:
    table = random_table(seed, cards=3, tents=2)
    ours = True
    try:
        table.check_placement(Placement(card, row, col, turns))
    except R.IllegalMove:
        ours = False
    assert ours == oracle.may_lay(laid(table), tents(table), card.text(), row, col, turns)


def random_table(seed: int, cards: int, tents: int) -> R.Table:
    rng = random.Random(seed)
    order = rng.sample(DECK, cards)
    table = R.starting_table(order[0], order[1])
    used: set[tuple[int, Token]] = set()
    for k, card in enumerate(order[2:]):
        table = table.place(rng.choice(table.legal_placements([card])))
        if k < tents:
            token = rng.choice([t for t in Token if (k % 2, t) not in used])
            used.add((k % 2, token))
            table = table.pitch(Tent(k % 2, token, *rng.choice(table.free_squares())))
    return table


@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 8))
def test_random_play_keeps_the_table_invariants(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    order = rng.sample(DECK, steps + 2)
    table = R.starting_table(order[0], order[1])
    used: set[Token] = set()
    for card in order[2:]:
        coloured_before = {cell: sq.mask for cell, sq in table.grid.items() if sq.coloured}
        bases_before = {t: R.score_tent(table, t).base for t in table.tents}
        table = table.place(rng.choice(table.legal_placements([card])))
        # Coloured terrain is never covered; the cards form one orthogonally connected area.
        assert all(table.grid[cell].coloured and table.grid[cell].mask == m for cell, m in coloured_before.items())
        assert is_connected(table.grid)
        # Tents stay on visible empty squares, and their matching squares never decrease.
        for tent in table.tents:
            assert not table.grid[tent.cell].coloured
            assert R.score_tent(table, tent).base >= bases_before[tent]
        if len(used) < len(Token):
            token = rng.choice([t for t in Token if t not in used])
            used.add(token)
            table = table.pitch(Tent(0, token, *rng.choice(table.free_squares())))
        assert R.player_scores(table, 1)[0] == oracle.player_total(laid(table), tents(table), 0)
        for tent in table.tents:
            points = R.score_tent(table, tent).points
            assert 0 <= points <= (12 if tent.token is Token.WILDERNESS else 16)


def play_game(players: int, seed: int) -> R.CampsiteState:
    """A whole game of random legal play; invariants checked at every step."""
    rng = random.Random(seed)
    state = R.new_game(players)
    rounds_seen: set[int] = set()
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1
            state = state.child(rng.choices([c for c, _ in outcomes], [float(p) for _, p in outcomes])[0])
            continue
        if state.stage is R.Stage.CARD:
            # Cards in play + hands + pile = the deck (nothing lost, nothing duplicated).
            in_play = [p.card for p in state.table.placements] + [c for h in state.hands for c in h]
            assert sorted(in_play + list(state.pile)) == sorted(state.deck)
            assert len(state.table.placements) == R.STARTING_CARDS + state.turn
            assert len(state.table.tents) == state.turn
            for seat in range(players):
                pitched = {t.token for t in state.table.tents if t.player == seat}
                assert pitched.isdisjoint(state.tokens[seat])
                assert len(pitched) + len(state.tokens[seat]) == len(Token)
        rounds_seen.add(state.round)
        state = state.child(rng.choice(state.legal_actions()))
    assert rounds_seen == set(range(R.ROUNDS)) and len(state.round_scores) == R.ROUNDS
    assert list(state.totals) == [sum(r[i] for r in state.round_scores) for i in range(players)]
    return state


@pytest.mark.parametrize(
    ("players", "seed"),
    [(1, 0), (2, 1), pytest.param(4, 2, marks=pytest.mark.slow), pytest.param(6, 3, marks=pytest.mark.slow)],
)
def test_whole_random_games_keep_every_invariant(players: int, seed: int) -> None:
    final = play_game(players, seed)
    assert len(final.totals) == players and all(t >= 0 for t in final.totals)
    assert final.winners()
