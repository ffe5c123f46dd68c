"""The outside players (`bench/opponents/`): every style plays whole games through the rules model with legal
moves only, the same game for the same seed, reads only its seat's view in the hidden-information games, and
each evaluation agrees with the rules model where it claims to count what the rules count."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from campsolver.solver.campsite import rules as cs
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.deluxe_camping import rules as dc

from bench.opponents import PLAYERS
from bench.opponents import camper_tour as ct_players
from bench.opponents import campsite as cs_players
from bench.opponents import deluxe_camping as dc_players
from bench.opponents.common import play_game, sample_chance

SMALLEST = {"happy_campers": 2, "deluxe_camping": 2, "campsite": 2, "camper_tour": 2, "adventure_tours": 3}
CASES = [(game, style) for game in PLAYERS for style in PLAYERS[game]]


def _table(game: str, style: str, players: int) -> list:
    """`style` in seat 0, the game's other styles in the other seats (cycled)."""
    others = [s for s in PLAYERS[game] if s != style]
    return [PLAYERS[game][style]] + [PLAYERS[game][others[k % len(others)]] for k in range(players - 1)]


@pytest.mark.parametrize(("game", "style"), CASES)
def test_every_style_plays_a_whole_game_at_the_smallest_table_with_legal_moves(game: str, style: str) -> None:
    record = play_game(game, _table(game, style, SMALLEST[game]), seed=6_000_000)
    assert record.final.current_player() == TERMINAL
    assert abs(sum(record.shares) - 1.0) < 1e-9
    assert record.cpu[0], "seat 0 was never asked"


@pytest.mark.parametrize(("game", "style"), CASES)
def test_every_style_plays_a_whole_four_player_game_with_legal_moves(game: str, style: str) -> None:
    record = play_game(game, _table(game, style, 4), seed=6_000_001)
    assert record.final.current_player() == TERMINAL
    assert len(record.scores) == 4


@pytest.mark.parametrize("game", list(PLAYERS))
def test_the_same_seed_plays_the_same_game(game: str) -> None:
    table = [PLAYERS[game][s] for s in PLAYERS[game]][: SMALLEST[game]]
    while len(table) < SMALLEST[game]:
        table.append(table[0])
    first = play_game(game, table, seed=6_000_002)
    again = play_game(game, table, seed=6_000_002)
    assert first.moves == again.moves
    assert first.scores == again.scores


# --- hidden information --------------------------------------------------------------------------------------


def _campsite_reshuffled(state: cs.CampsiteState, seat: int, rng: np.random.Generator) -> cs.CampsiteState:
    """The same state as `seat` sees it, with the other hands and the pile dealt again from their cards."""
    pool = list(state.pile) + [c for p, h in enumerate(state.hands) if p != seat for c in h]
    order = rng.permutation(len(pool))
    pool = [pool[i] for i in order]
    hands = list(state.hands)
    for p in range(state.players):
        if p != seat:
            hands[p] = tuple(sorted(pool[: len(state.hands[p])]))
            pool = pool[len(state.hands[p]):]
    return replace(state, hands=tuple(hands), pile=tuple(sorted(pool)))


def _campsite_decisions(count: int, players: int) -> list[cs.CampsiteState]:
    """Decision states of a seeded game between the styles (card stages, where the hand matters)."""
    rng = np.random.default_rng(6_000_003)
    state = cs.new_game(players)
    found = []
    styles = list(PLAYERS["campsite"].values())
    while state.current_player() != TERMINAL and len(found) < count:
        if state.current_player() == CHANCE:
            state = state.child(sample_chance(state, rng))
            continue
        if state.stage is cs.Stage.CARD and rng.random() < 0.3:
            found.append(state)
        seat = state.current_player()
        for move in styles[seat % len(styles)](state, seat, rng):
            state = state.child(move)
            if state.current_player() != seat:
                break
    return found


@pytest.mark.parametrize("style", list(PLAYERS["campsite"]))
def test_campsite_players_read_only_their_seats_view(style: str) -> None:
    rng = np.random.default_rng(5)
    player = PLAYERS["campsite"][style]
    for state in _campsite_decisions(6, 3):
        seat = state.to_move
        other = _campsite_reshuffled(state, seat, rng)
        assert other != state or all(len(h) == 0 for p, h in enumerate(state.hands) if p != seat)
        assert cs_players.seat_view(other, seat) == cs_players.seat_view(state, seat)
        assert player(other, seat, np.random.default_rng(9)) == player(state, seat, np.random.default_rng(9))


# --- evaluations that claim to count what the rules count -----------------------------------------------------


def test_campsite_greedy_values_a_turn_by_the_rules_models_margin() -> None:
    """`greedy` (no potential, no reserve) values its turn at exactly the change it makes to my round points
    minus the opponent's, as the rules model scores the table before and after."""
    rng = np.random.default_rng(3)
    state = cs.new_game(2)
    checked = 0
    while state.current_player() != TERMINAL and checked < 40:
        if state.current_player() == CHANCE:
            state = state.child(sample_chance(state, rng))
            continue
        me = state.to_move
        value, plan = cs_players.best_play(cs_players.seat_view(state, me), cs_players.STYLES["greedy"], rng)
        before = cs.player_scores(state.table, 2)
        for move in plan:
            state = state.child(move)
        after = cs.player_scores(state.table, 2)
        assert value == pytest.approx((after[me] - before[me]) - (after[1 - me] - before[1 - me]))
        checked += 1
    assert checked == 40


def test_campsite_greedy_finds_the_best_margin_of_a_turn_by_brute_force() -> None:
    """On early turns, no card and tent of the hand beats `greedy`'s choice by the rules model's margin (a tent
    changes no other tent's points: the margin of a play is the card's change plus the tent's own points)."""
    rng = np.random.default_rng(4)
    state = cs.new_game(2)
    checked = 0
    while checked < 3:
        if state.current_player() == CHANCE:
            state = state.child(sample_chance(state, rng))
            continue
        me = state.to_move
        value, plan = cs_players.best_play(cs_players.seat_view(state, me), cs_players.STYLES["greedy"], rng)
        before = cs.player_scores(state.table, 2)
        best = -1e9
        for play in state.legal_actions():
            laid = state.child(play)
            after = cs.player_scores(laid.table, 2)
            grid = laid.table.grid
            tent = max(points * (2 if doubled else 1)
                       for token in laid.tokens[me] for cell in laid.table.free_squares()
                       for points, doubled in [cs.tent_points(grid, token, cell)])
            best = max(best, (after[me] - before[me]) - (after[1 - me] - before[1 - me]) + tent)
        assert value == pytest.approx(best)
        for move in plan:
            state = state.child(move)
        checked += 1


def test_deluxe_camping_picture_scores_allotted_sites_as_the_rules_model() -> None:
    rng = np.random.default_rng(8)
    for game in range(3):
        state = dc.random_setup(dc.Config(players=2 + game), rng)
        while state.current_player() != TERMINAL:
            board = dc_players.board_of(state)
            assert board.picture().allotted == pytest.approx([float(x) for x in state.scores()])
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
        board = dc_players.board_of(state)
        assert board.picture().allotted == pytest.approx([float(x) for x in state.scores()])


def test_deluxe_camping_movement_board_matches_the_rules_models_child() -> None:
    """The board after a movement (pieces, pain-in-the-neck, automatic barriers) is the rules model's child."""
    rng = np.random.default_rng(11)
    state = dc.random_setup(dc.Config(players=3), rng)
    checked = 0
    while state.current_player() != TERMINAL and checked < 200:
        actions = state.legal_actions()
        if state.stage is dc.Stage.MOVE:
            board = dc_players.board_of(state)
            for move in actions[:: max(1, len(actions) // 8)]:
                mine = dc_players.after_move(board, state.to_move, move, state.nuisance)
                child = state.child(move)
                theirs = dc_players.board_of(child)
                assert (mine.pieces, mine.nuisance, mine.right, mine.down) == (
                    theirs.pieces, theirs.nuisance, theirs.right, theirs.down)
                checked += 1
        state = state.child(actions[int(rng.integers(len(actions)))])
    assert checked >= 50


def test_camper_tour_tables_without_pace_give_the_documented_solo_value() -> None:
    """Pace 0: the expected solo score of 72 plates and 25 tokens, all normal, is 69.894372 (the figure the
    rule readings quote from their independent oracle)."""
    _, value = ct_players.tables(72, 0.0)
    assert value[0, 25] == pytest.approx(69.894372, abs=1e-6)
