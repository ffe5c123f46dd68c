"""The outside players (`bench/opponents/`): every style plays whole games through the rules model with legal
moves only, the same game for the same seed, reads only its seat's view in the hidden-information games, and
each evaluation agrees with the rules model where it claims to count what the rules count."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from campsolver.solver.adventure_tours import rules as at
from campsolver.solver.campsite import rules as cs
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.deluxe_camping import rules as dc

from bench.opponents import PLAYERS
from bench.opponents import adventure_tours as at_players
from bench.opponents import camper_tour as ct_players
from bench.opponents import campsite as cs_players
from bench.opponents import deluxe_camping as dc_players
from bench.opponents.common import GameRecord, play_game, sample_chance

SMALLEST = {"happy_campers": 2, "deluxe_camping": 2, "campsite": 2, "camper_tour": 2, "adventure_tours": 3}
CASES = [(game, style) for game in PLAYERS for style in PLAYERS[game]]


def _table(game: str, style: str, players: int) -> list:
    """`style` in seat 0, the game's other styles in the other seats (cycled)."""
    others = [s for s in PLAYERS[game] if s != style]
    return [PLAYERS[game][style]] + [PLAYERS[game][others[k % len(others)]] for k in range(players - 1)]


@cache
def _played(game: str, style: str, players: int, seed: int) -> GameRecord:
    """One game of `_table(game, style, players)` (kept: the determinism test plays it again)."""
    return play_game(game, _table(game, style, players), seed=seed)


@pytest.mark.parametrize(("game", "style"), CASES)
def test_every_style_plays_a_whole_game_at_the_smallest_table_with_legal_moves(game: str, style: str) -> None:
    record = _played(game, style, SMALLEST[game], 6_000_000)
    assert record.final.current_player() == TERMINAL
    assert abs(sum(record.shares) - 1.0) < 1e-9
    assert record.cpu[0], "seat 0 was never asked"


#: At four players one table a game seats every style (seat 0 the first, the others after it) in the default run;
#: the other seatings are `slow`.
FOUR_PLAYER_CASES = [
    pytest.param(game, style, marks=() if style == next(iter(PLAYERS[game])) else pytest.mark.slow)
    for game, style in CASES
]


@pytest.mark.parametrize(("game", "style"), FOUR_PLAYER_CASES)
def test_every_style_plays_a_whole_four_player_game_with_legal_moves(game: str, style: str) -> None:
    record = play_game(game, _table(game, style, 4), seed=6_000_001)
    assert record.final.current_player() == TERMINAL
    assert len(record.scores) == 4


@pytest.mark.parametrize("game", list(PLAYERS))
def test_the_same_seed_plays_the_same_game(game: str) -> None:
    style = next(iter(PLAYERS[game]))
    first = _played(game, style, SMALLEST[game], 6_000_000)
    again = play_game(game, _table(game, style, SMALLEST[game]), seed=6_000_000)
    assert again.moves == first.moves
    assert again.scores == first.scores
    other = play_game(game, _table(game, style, SMALLEST[game]), seed=6_000_002)
    assert other.moves != first.moves


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
            pool = pool[len(state.hands[p]) :]
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


def _adventure_reshuffled(state: at.State, seat: int, rng: np.random.Generator) -> at.State:
    """The same state as `seat` sees it, with the other hands and the pile dealt again from their cards."""
    pool = list(state.deck) + [c for p, h in enumerate(state.hands) if p != seat for c in h]
    pool = [pool[i] for i in rng.permutation(len(pool))]
    hands = list(state.hands)
    for p in range(state.config.players):
        if p != seat:
            hands[p] = tuple(sorted(pool[: len(state.hands[p])]))
            pool = pool[len(state.hands[p]) :]
    return replace(state, hands=tuple(hands), deck=tuple(sorted(pool)))


@pytest.mark.parametrize("style", list(PLAYERS["adventure_tours"]))
@pytest.mark.parametrize("expert", [False, True])
def test_adventure_tours_players_read_only_their_seats_view(style: str, expert: bool) -> None:
    rng = np.random.default_rng(6)
    player = PLAYERS["adventure_tours"][style]
    styles = list(PLAYERS["adventure_tours"].values())
    state = at.new_game(at.Config(4, expert=expert))
    checked = 0
    while state.current_player() != TERMINAL and checked < 40:
        if state.current_player() == CHANCE:
            state = state.child(sample_chance(state, rng))
            continue
        seat = state.current_player()
        if rng.random() < 0.3:
            other = _adventure_reshuffled(state, seat, rng)
            assert at_players.seat_view(other, seat) == at_players.seat_view(state, seat)
            assert player(other, seat, np.random.default_rng(9)) == player(state, seat, np.random.default_rng(9))
            checked += 1
        state = state.child(styles[seat % len(styles)](state, seat, rng)[0])
    assert checked >= 20


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
            tent = max(
                points * (2 if doubled else 1)
                for token in laid.tokens[me]
                for cell in laid.table.free_squares()
                for points, doubled in [cs.tent_points(grid, token, cell)]
            )
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
                    theirs.pieces,
                    theirs.nuisance,
                    theirs.right,
                    theirs.down,
                )
                checked += 1
        state = state.child(actions[int(rng.integers(len(actions)))])
    assert checked >= 50


def test_camper_tour_tables_without_pace_give_the_documented_solo_value() -> None:
    """Pace 0: the expected solo score of 72 plates and 25 tokens, all normal, is 69.894372 (the figure the
    rule readings quote from their independent oracle)."""
    _, value = ct_players.tables(72, 0.0)
    assert value[0, 25] == pytest.approx(69.894372, abs=1e-6)


def test_happy_campers_players_draw_on_neighbours_maps_and_play_with_challenge_cards() -> None:
    """Three maps with Noisy Neighbours, Festival and River Town: every style draws legal shapes on its own map
    and, on doubles, on a neighbour's, to the end of the game."""
    from campsolver.solver.happy_campers import rules as hc
    from campsolver.solver.happy_campers.modes import MultiplayerState

    challenges = (hc.Challenge.NOISY_NEIGHBOURS, hc.Challenge.FESTIVAL, hc.Challenge.RIVER_TOWN)
    styles = list(PLAYERS["happy_campers"].values())
    rng = np.random.default_rng(12)
    neighbour = 0
    for game in range(3):
        state = MultiplayerState.new(3, challenges)
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                state = state.child(sample_chance(state, rng))
                continue
            seat = state.current_player()
            neighbour += state.to_draw[0] != seat
            (move,) = styles[(seat + game) % 3](state, seat, rng)
            assert move in state.legal_actions()
            state = state.child(move)
    assert neighbour > 0


def _hc_owners_value(state: object, move: object) -> float:
    """`scorer`'s value of the map drawn on, for its owner, after `move`."""
    from bench.opponents import happy_campers as hc_players

    owner = state.to_draw[0]
    geo = hc_players.geometry(state.components)
    masks = hc_players.element_masks(state.child(move).maps[owner], geo)
    return hc_players.scorer_value(hc_players.features(masks, geo), {})


def test_happy_campers_neighbour_map_gets_what_the_style_likes_least_for_its_owner() -> None:
    from campsolver.solver.happy_campers.modes import MultiplayerState

    from bench.opponents import happy_campers as hc_players

    rng = np.random.default_rng(13)
    state = MultiplayerState.new(2)
    found = 0
    while state.current_player() != TERMINAL and found < 3:
        if state.current_player() == CHANCE:
            state = state.child(sample_chance(state, rng))
            continue
        seat = state.current_player()
        if state.to_draw[0] != seat:
            (mine,) = hc_players.scorer(state, seat, np.random.default_rng(0))
            values = [_hc_owners_value(state, move) for move in state.legal_actions()]
            assert _hc_owners_value(state, mine) == pytest.approx(min(values))
            found += 1
        (move,) = PLAYERS["happy_campers"]["scorer"](state, seat, rng)
        state = state.child(move)


@pytest.mark.parametrize("style", list(PLAYERS["deluxe_camping"]))
def test_deluxe_camping_players_handle_the_rules_variants(style: str) -> None:
    """Optional free barrier (`Barrier(None)` among the choices) and strict colours, on a small board."""
    config = dc.Config(rows=6, cols=7, players=3, supply=30, strict_colours=True, optional_free_barrier=True)
    rng = np.random.default_rng(14)
    state = dc.random_setup(config, rng)
    player = PLAYERS["deluxe_camping"][style]
    while state.current_player() != TERMINAL:
        for move in player(state, state.current_player(), rng):
            assert move in state.legal_actions()
            state = state.child(move)
            if state.current_player() == TERMINAL:
                break


@pytest.mark.parametrize("style", list(PLAYERS["deluxe_camping"]))
def test_deluxe_camping_players_place_setup_pieces(style: str) -> None:
    """Setup placements (the bench seeds them at random, a client may not): legal through the reveal."""
    rng = np.random.default_rng(15)
    state = dc.initial_state(dc.Config(players=2))
    player = PLAYERS["deluxe_camping"][style]
    while state.stage is not dc.Stage.MOVE:
        if state.current_player() == CHANCE:
            state = state.child(sample_chance(state, rng))
            continue
        (move,) = player(state, state.current_player(), rng)
        assert move in state.legal_actions()
        state = state.child(move)


@pytest.mark.parametrize("game", list(PLAYERS))
def test_players_sit_at_the_head_to_head_benchs_seats(game: str) -> None:
    """Through `bench.openspiel`'s own seats and play loop (the OpenSpiel adapter's action ids), every style of
    the game at one table, to the end."""
    from bench import openspiel as bench

    spec = bench.GAMES[game]
    adapter = bench.load_game(spec, spec.smallest)
    styles = list(PLAYERS[game].values())

    def seat(p: int) -> bench.PlanSeat:
        rng = np.random.default_rng([6_000_004, p])
        player = styles[p % len(styles)]
        return bench.PlanSeat(lambda state, q: player(state, q, rng), p)

    final = bench.play(spec, adapter, 6_000_004, [seat(p) for p in range(spec.smallest)])
    assert final.is_terminal()
    assert sum(final.returns()) == pytest.approx(1.0)
