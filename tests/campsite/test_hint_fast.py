"""The hint's numpy engine (`solver/campsite/fast.py`) re-computes what the rules model says: the same legal
placements, the same points of every pitched tent after each, the same value of every free square in reach for
every token, and its best turn is the exact best turn."""

from __future__ import annotations

import numpy as np
import pytest
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.evaluate import TurnEvaluator, best_turn_search
from campsolver.solver.campsite.fast import Board, best_tents, points_table
from campsolver.solver.core.budget import Budget

from tests.campsite.test_best_turn import random_table


def _cases(count: int) -> list[tuple[int, int]]:
    return [(seed, 2 + seed % 3) for seed in range(count)]


@pytest.mark.parametrize(("seed", "players"), _cases(12))
def test_placements_and_their_effects_are_the_rules_model(seed: int, players: int) -> None:
    table, hand = random_table(seed, cards=4 + seed % 12, tents=2 + seed % 8, players=players)
    board = Board(table, players)
    pl = board.placements(hand)
    ours = [board.placement_of(pl, i) for i in range(len(pl))]
    legal = table.legal_placements(hand)
    assert sorted(p.signature() for p in ours) == sorted(p.signature() for p in legal)
    assert board.scores() == R.player_scores(table, board.players)
    evaluator = TurnEvaluator(table, players)
    for i, placement in enumerate(ours):
        after = table.place(placement)
        free = set(after.free_squares())
        options = dict(evaluator.effect(placement).options)
        for j, tent in enumerate(table.tents):
            points = int(pl.tent_base[j, i]) * (2 if pl.tent_fair[j, i] else 1)
            assert points == R.score_tent(after, tent).points
        for q in range(pl.cell_r.shape[1]):
            cell = board.cell(pl.cell_r[i, q], pl.cell_c[i, q])
            assert bool(pl.free[i, q]) == (cell in free)
            if pl.free[i, q]:
                around = options[cell]
                factor = 2 if pl.fair[i, q] else 1
                assert tuple(int(pl.base[k, i, q]) * factor for k in range(7)) == around.values
                assert int(pl.open[i, q]) == around.open and bool(pl.fair[i, q]) == around.fair


@pytest.mark.parametrize(("seed", "players"), _cases(16))
def test_the_engines_best_turn_is_the_exact_best_turn_and_replays_in_the_rules_model(seed: int, players: int) -> None:
    table, hand = random_table(100 + seed, cards=4 + seed % 12, tents=2 + seed % 8, players=players)
    tokens = [t for t in R.Token if t not in {x.token for x in table.tents if x.player == 0}]
    board = Board(table, players)
    pl = board.placements(hand)
    options = best_tents(board, pl, [int(t) for t in tokens], points_table())
    own = np.zeros(len(pl))
    for j in np.flatnonzero(board.t_player == 0):
        own += pl.tent_base[j] * np.where(pl.tent_fair[j], 2, 1)
    total = own + options.value
    best = int(total.argmax())
    exact = best_turn_search(table, hand, tokens, 0, players, Budget(30))
    assert total[best] == exact.plays[0].score
    tent = R.Tent(0, R.Token(int(options.token[best])), *board.cell(options.row[best], options.col[best]))
    after = table.place(board.placement_of(pl, best)).pitch(tent)
    assert R.player_scores(after, board.players)[0] == total[best]


@pytest.mark.parametrize("seed", range(6))
def test_a_board_kept_up_to_date_equals_one_built_afresh(seed: int) -> None:
    table, _ = random_table(200 + seed, cards=3, tents=1, players=2)
    board = Board(table, 2)
    rng = np.random.default_rng(seed)
    deck = list(R.default_deck())
    for turn in range(10):  # enough turns to grow past the first window
        legal = table.legal_placements([deck[(7 * seed + turn) % len(deck)]])
        placement = legal[int(rng.integers(len(legal)))]
        table = table.place(placement)
        board.place_table(placement)
        square = table.free_squares()[int(rng.integers(len(table.free_squares())))]
        tent = R.Tent(turn % 2, R.Token(turn % 7), *square)
        table = table.pitch(tent)
        copy = board.copy()
        board.pitch_table(tent)
        fresh = Board(table, 2)
        assert board.scores() == fresh.scores() == R.player_scores(table, 2)
        assert len(copy.t_r) == len(board.t_r) - 1  # a copy does not see later changes
        for name in ("occ", "cmask", "fw", "tent", "cnt", "seen", "fwbits", "opn", "free"):
            ours = getattr(board, name)
            theirs = getattr(fresh, name)
            dr, dc = fresh.r0 - board.r0, fresh.c0 - board.c0
            assert dr >= 0 and dc >= 0
            window = ours[..., dr : dr + theirs.shape[-2], dc : dc + theirs.shape[-1]]
            # The window's border cells count squares beyond it as covered (never read: nothing within reach of
            # a card lies there); every other cell must agree.
            assert np.array_equal(window[..., 1:-1, 1:-1], theirs[..., 1:-1, 1:-1]), name
