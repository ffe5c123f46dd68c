"""Every clause of the Deluxe Camping rulebook, one test each (positions drawn as pictures)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import (
    Barrier,
    Config,
    DCState,
    IllegalAction,
    Move,
    Place,
    Stage,
    parse_board,
    site_value,
)

OPEN = """
+-----------+
|A a . . P .|
+ + + + + + +
|. . . . . .|
+ + + + + + +
|I . N . I .|
+ + + + + + +
|. . . . b B|
+-----------+
"""


def sq(state: rules.DCState, row: int, col: int) -> int:
    return state.config.square(row, col)


def results(state: rules.DCState) -> set[tuple]:
    """Where the mover's trailers and the pain-in-the-neck end, for every legal movement."""
    found = set()
    for move in state.legal_moves():
        after = state.child(move)
        found.add((after.trailers[state.to_move], after.nuisance))
    return found


# --- setup ------------------------------------------------------------------------------------------------


def test_setup_order_pool_mystery_bungalows_trailers_then_reveal() -> None:
    config = Config(rows=5, cols=5, players=2, trailers=1)
    state = rules.initial_state(config, first_player=1)
    assert state.stage is Stage.POOL and state.current_player() == 1
    state = state.child(Place(0))
    assert state.stage is Stage.MYSTERY and state.current_player() == 0  # "another player"
    for square in (24, 20, 4):
        state = state.child(Place(square))
    assert state.stage is Stage.BUNGALOW and state.current_player() == 1 and state.mystery == (4, 20, 24)
    state = state.child(Place(12)).child(Place(14))
    assert state.stage is Stage.TRAILER and state.current_player() == 1
    state = state.child(Place(13))  # beside both bungalows: player 1's own bungalow at 12, player 0's at 14
    assert state.stage is Stage.TRAILER and state.current_player() == 0
    state = state.child(Place(6))
    assert state.stage is Stage.REVEAL and state.current_player() == CHANCE
    assert state.barriers == {(13, 14)}  # the trailer of player 1 beside player 0's bungalow; none at (12, 13)
    outcomes = state.chance_outcomes()
    assert sorted(s for s, _ in outcomes) == [4, 20, 24] and all(p == Fraction(1, 3) for _, p in outcomes)
    revealed = state.child(20)
    assert revealed.nuisance == 20 and revealed.ice_creams == (4, 24) and revealed.mystery == ()
    assert revealed.stage is Stage.MOVE and revealed.current_player() == 1


def test_bungalow_never_beside_the_pool_or_another_bungalow() -> None:
    config = Config(rows=4, cols=4, players=2, trailers=1)
    state = rules.initial_state(config).child(Place(5))
    for square in (15, 14, 13):
        state = state.child(Place(square))
    legal = {a.square for a in state.legal_actions()}
    assert not legal & {1, 4, 6, 9}  # beside the pool at 5
    assert 0 in legal
    state = state.child(Place(0))
    legal = {a.square for a in state.legal_actions()}
    assert 1 not in legal and 4 not in legal and 2 in legal  # beside the first bungalow at 0
    with pytest.raises(IllegalAction):
        state.child(Place(4))


def test_bungalow_never_beside_another_bungalow_far_from_the_pool() -> None:
    """The bungalow clause alone: the first bungalow in the corner at 3, far from the pool at 5, so its
    neighbours 2 and 7 are refused only because a bungalow stands beside them (the pool rule allows both)."""
    config = Config(rows=4, cols=4, players=2, trailers=1)
    state = rules.initial_state(config).child(Place(5))
    for square in (15, 14, 13):
        state = state.child(Place(square))
    before = {a.square for a in state.legal_actions()}
    assert {2, 3, 7} <= before  # none of them is beside the pool
    state = state.child(Place(3))
    legal = {a.square for a in state.legal_actions()}
    assert 2 not in legal and 7 not in legal  # beside the bungalow at 3, and only that forbids them
    assert {0, 11, 12} <= legal  # neither beside the pool nor beside the bungalow
    for square in (2, 7):
        with pytest.raises(IllegalAction):
            state.child(Place(square))


def test_no_square_holds_two_pieces_in_setup() -> None:
    state = rules.initial_state(Config(rows=4, cols=4, players=2, trailers=1)).child(Place(5))
    assert Place(5) not in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.child(Place(5))


# --- movement -----------------------------------------------------------------------------------------


def test_two_steps_one_piece_or_one_step_each_for_two_pieces_or_none() -> None:
    state = parse_board(OPEN)
    found = results(state)
    trailer, nuisance = sq(state, 0, 1), sq(state, 2, 2)
    assert ((trailer,), nuisance) in found  # staying put is a right
    assert ((sq(state, 1, 1),), nuisance) in found  # one step
    assert ((sq(state, 2, 1),), nuisance) in found  # two steps down
    assert ((sq(state, 1, 1),), sq(state, 2, 3)) in found  # trailer one step and the pain-in-the-neck one step
    assert ((trailer,), sq(state, 1, 3)) in found  # the pain-in-the-neck one step up
    assert ((trailer,), sq(state, 0, 2)) in found  # the pain-in-the-neck two steps
    assert ((sq(state, 1, 2),), nuisance) in found  # two steps with a turn


def test_no_diagonal_step_and_no_three_steps() -> None:
    state = parse_board(OPEN)
    assert ((sq(state, 1, 2),), state.nuisance) in results(state)  # via a corner: two orthogonal steps
    with pytest.raises(IllegalAction):
        state.child(Move(((sq(state, 0, 1), sq(state, 1, 2)),)))  # diagonal
    a, b, c, d = sq(state, 0, 1), sq(state, 1, 1), sq(state, 1, 2), sq(state, 1, 3)
    with pytest.raises(IllegalAction):
        state.child(Move(((a, b), (b, c), (c, d))))
    assert all(len(m.steps) <= 2 for m in state.legal_moves())


def test_never_across_a_barrier() -> None:
    walled = """
+-------+
|A a|. .|
+ + + + +
|. . . .|
+ + + + +
|N . b B|
+-------+
"""
    state = parse_board(walled)
    assert ((sq(state, 0, 2),), state.nuisance) not in results(state)
    with pytest.raises(IllegalAction):
        state.child(Move(((sq(state, 0, 1), sq(state, 0, 2)),)))
    assert ((sq(state, 1, 2),), state.nuisance) in results(state)  # around it is fine


def test_never_onto_an_occupied_square_or_through_one() -> None:
    state = parse_board(OPEN)
    for trailers, nuisance in results(state):
        squares = set(trailers) | {nuisance}
        assert state.pool not in squares and not squares & set(state.ice_creams)
        assert not squares & set(state.trailers[1]) and not squares & set(state.bungalows)
    # (0,1) -> (0,0) is the own bungalow: occupied.
    with pytest.raises(IllegalAction):
        state.child(Move(((sq(state, 0, 1), sq(state, 0, 0)),)))
    # two steps cannot jump over the ice-cream stand at (2,0)
    with pytest.raises(IllegalAction):
        state.child(Move(((sq(state, 2, 0), sq(state, 3, 0)),)))


def test_other_players_trailers_and_bungalows_never_move() -> None:
    state = parse_board(OPEN)
    assert all(
        a not in (state.bungalows[0], state.bungalows[1], *state.trailers[1])
        for m in state.legal_moves()
        for a, _ in m.steps
    )
    with pytest.raises(IllegalAction):
        state.child(Move(((sq(state, 3, 4), sq(state, 2, 4)),)))  # player 1's trailer
    with pytest.raises(IllegalAction):
        state.child(Move(((state.bungalows[0], sq(state, 1, 0)),)))  # own bungalow


def test_automatic_barriers_between_new_neighbours_of_different_players_only() -> None:
    board = """
+-------+
|A . a .|
+ + + + +
|. . . .|
+ + + + +
|N b . B|
+-------+
"""
    state = parse_board(board, supply=10)
    a, below = sq(state, 0, 2), sq(state, 1, 2)
    after = state.child(Move(((a, below),)))  # (1,2) touches no other player's piece
    assert after.barriers == state.barriers
    after = state.child(Move(((a, below), (below, sq(state, 1, 1)))))  # (1,1) touches b at (2,1)
    assert rules.edge_of(sq(state, 1, 1), sq(state, 2, 1)) in after.barriers
    assert after.placed_this_turn == 1
    # none between a player's own pieces
    own = state.child(Move(((a, sq(state, 0, 1)),)))
    assert rules.edge_of(sq(state, 0, 0), sq(state, 0, 1)) not in own.barriers


def test_a_movement_whose_automatic_barriers_exceed_the_supply_is_illegal() -> None:
    board = """
+-----+
|A a .|
+ + + +
|. . b|
+ + + +
|N . B|
+-----+
"""
    full = parse_board(board, supply=len(parse_board(board, add_automatic=True).barriers), add_automatic=True)
    assert full.supply_left == 0
    step = Move(((sq(full, 0, 1), sq(full, 0, 2)),))  # beside b at (1,2): needs one barrier
    assert step not in full.legal_moves()
    with pytest.raises(IllegalAction):
        full.child(step)


# --- the free barrier -------------------------------------------------------------------------------------


def test_free_barrier_anywhere_but_not_creating_an_empty_site() -> None:
    state = parse_board(OPEN).child(Move(()))
    assert state.stage is Stage.BARRIER
    legal = set(state.legal_barriers())
    # cutting off the empty corner (3,0) would need two barriers; a single one never empties a region here
    corner = parse_board(
        """
+-----+
|A a .|
+ + +-+
|. . .|
+ + + +
|N b B|
+-----+
""",
        add_automatic=True,
    ).child(Move(()))
    cut = rules.edge_of(sq(corner, 0, 1), sq(corner, 0, 2))
    assert cut not in set(corner.legal_barriers())  # (0,2) would be a site with no trailer or bungalow
    with pytest.raises(IllegalAction):
        corner.child(Barrier(cut))
    assert rules.edge_of(sq(state, 0, 2), sq(state, 0, 3)) in legal


def test_mixed_enclosed_region_is_not_allotted() -> None:
    board = """
+-------+
|A a . .|
+ + + + +
|b . . B|
+-------+
"""
    state = parse_board(board, add_automatic=True)
    assert all(site.allotted_to is None for site in state.sites)
    assert state.scores() == (0, 0)


def test_game_ends_when_the_supply_runs_out() -> None:
    state = parse_board(OPEN, supply=1)
    after = state.child(Move(()))
    final = after.child(Barrier(after.legal_barriers()[0]))
    assert final.supply_left == 0 and final.stage is Stage.OVER and final.current_player() == TERMINAL


@pytest.mark.parametrize(
    ("size", "pool", "ice", "nuisance", "points"),
    [
        (7, False, 0, False, 7),
        (7, True, 0, False, 14),
        (7, True, 1, False, 19),
        (7, False, 2, False, 17),
        (7, True, 2, True, 14),
        (4, False, 0, True, 0),  # never below 0
        (4, False, 1, True, 0),
        (4, True, 1, True, 3),  # x2 before +5 before -10
    ],
)
def test_scoring_in_the_rulebook_order(size: int, pool: bool, ice: int, nuisance: bool, points: int) -> None:
    assert site_value(size, pool, ice, nuisance) == points


def test_random_setup_is_legal_and_reaches_the_turns() -> None:
    state = rules.random_setup(Config(), np.random.default_rng(0))
    assert state.stage is Stage.MOVE
    rules.validate(state)
    assert len(state.ice_creams) == 2 and state.nuisance >= 0


SPLIT_AND_ALLOTTED = """
+-------+
|A a|. b|
+ + + + +
|N .|b .|
+-+-+ + +
|a . . B|
+-------+
"""


def test_pieces_inside_an_allotted_site_do_not_move() -> None:
    state = parse_board(SPLIT_AND_ALLOTTED, add_automatic=True, to_move=1)
    assert state.allotted(state.bungalows[0]) == 0 and not state.stopped(0)
    assert state.nuisance not in state.movable()  # inside player 0's finished site
    mover0 = parse_board(SPLIT_AND_ALLOTTED, add_automatic=True, to_move=0)
    assert mover0.movable() == (sq(mover0, 2, 0),)  # the trailer at (0,1) is in the finished site


def test_free_barrier_never_inside_an_allotted_site_nor_on_a_barrier() -> None:
    state = parse_board(SPLIT_AND_ALLOTTED, add_automatic=True, to_move=1).child(Move(()))
    legal = set(state.legal_barriers())
    assert legal
    assert not legal & state.barriers
    assert all(state.allotted(a) is None and state.allotted(b) is None for a, b in legal)
    with pytest.raises(IllegalAction):
        state.child(Barrier(rules.edge_of(sq(state, 0, 0), sq(state, 0, 1))))


DEAD_END = """
+-----+
|. . .|
+-+-+ +
|A . b|
+ + + +
|a . B|
+-----+
"""


def test_free_barrier_illegal_when_it_makes_an_empty_site_legal_otherwise() -> None:
    state = parse_board(DEAD_END).child(Move(()))
    legal = set(state.legal_barriers())
    for empty_side in [((0, 1), (0, 2)), ((0, 2), (1, 2)), ((0, 0), (0, 1))]:
        edge = rules.edge_of(sq(state, *empty_side[0]), sq(state, *empty_side[1]))
        assert edge not in legal, empty_side
        with pytest.raises(IllegalAction):
            state.child(Barrier(edge))
    assert rules.edge_of(sq(state, 1, 0), sq(state, 1, 1)) in legal  # on a cycle: splits nothing
    assert rules.edge_of(sq(state, 1, 1), sq(state, 1, 2)) in legal


def test_free_barrier_may_split_a_region_when_both_sides_keep_a_piece() -> None:
    corridor = DEAD_END.replace("|. . .|", "|A . .|").replace("|A . b|", "|. . b|")
    state = parse_board(corridor).child(Move(()))
    legal = set(state.legal_barriers())
    assert rules.edge_of(sq(state, 0, 1), sq(state, 0, 2)) in legal  # {A, .} | the rest: a bridge, both kept
    assert rules.edge_of(sq(state, 0, 2), sq(state, 1, 2)) in legal


THREE = """
+-----+
|A|. .|
+-+ + +
|. . .|
+ + + +
|B . C|
+-----+
"""


def test_stopped_player_is_skipped() -> None:
    state = parse_board(THREE, to_move=1)
    assert state.stopped(0) and not state.stopped(1) and not state.stopped(2)
    after = state.child(Move(())).child(Barrier(rules.edge_of(sq(state, 1, 0), sq(state, 1, 1))))
    assert after.stage is Stage.MOVE and after.to_move == 2
    after = after.child(Move(())).child(Barrier(rules.edge_of(sq(state, 1, 1), sq(state, 1, 2))))
    assert after.stage is Stage.MOVE and after.to_move == 1  # player 0 has stopped: skipped


AUTO_CLOSE = """
+-----+
|a . b|
+-+-+-+
|A|. .|
+ + + +
|a|B b|
+-----+
"""


def test_automatic_barrier_allots_at_once_and_the_game_ends_when_everyone_stopped() -> None:
    state = parse_board(AUTO_CLOSE)
    assert not state.stopped(0) and not state.stopped(1)
    after = state.child(Move(((sq(state, 0, 0), sq(state, 0, 1)),)))
    assert rules.edge_of(sq(state, 0, 1), sq(state, 0, 2)) in after.barriers
    assert after.allotted(sq(state, 0, 1)) == 0 and after.allotted(sq(state, 0, 2)) == 1
    assert after.stage is Stage.OVER and after.current_player() == TERMINAL  # no free barrier: all stopped
    assert after.scores() == (2 + 2, 1 + 4)


def test_a_free_barrier_enclosing_the_last_open_site_stops_its_owner() -> None:
    state = parse_board(THREE, to_move=1)
    # player 1 closes (2,0) (B) off: B's site {(2,0)} plus nothing else? (1,0)-(2,0) and (2,0)|(2,1) need two.
    first = state.child(Move(())).child(Barrier(rules.edge_of(sq(state, 1, 0), sq(state, 2, 0))))
    assert first.to_move == 2 and first.allotted(sq(state, 2, 0)) is None
    second = first.child(Move(())).child(Barrier(rules.edge_of(sq(state, 2, 0), sq(state, 2, 1))))
    assert second.allotted(sq(state, 2, 0)) == 1 and second.stopped(1)
    # now the rest holds C only: allotted to player 2 as well: everyone has stopped
    assert second.stage is Stage.OVER


SCORED = """
+-------+
|A a|I N|
+ + + + +
|. P|b .|
+-+-+ + +
|. . . B|
+-------+
"""


def test_scores_add_allotted_sites_only() -> None:
    state = parse_board(SCORED, add_automatic=True, stage=Stage.OVER)
    # player 0: {A a . P}: 4 squares x2 = 8. Player 1: 8 squares + 5 (ice) - 10 (pain-in-the-neck) = 3.
    assert state.scores() == (8, 3)
    picture = SCORED.replace("|. . . B|", "|a . . B|").replace("|A a|", "|A .|")
    mixed = parse_board(picture, add_automatic=True, stage=Stage.OVER)
    assert mixed.scores() == (8, 0)  # the big region is shared by a and b, B: nobody scores it


def test_supply_exhausted_ends_the_game_after_the_turn() -> None:
    state = parse_board(OPEN, supply=1)
    after = state.child(Move(())).child(Barrier(rules.edge_of(sq(state, 1, 0), sq(state, 1, 1))))
    assert after.stage is Stage.OVER


OWN_NEIGHBOURS = """
+---------+
|A a I . b|
+ + + + + +
|. N P I B|
+---------+
"""


def _with_variants(state: DCState, **variants: bool) -> DCState:
    """The same position under named variants of the rules (a fresh state: no cached legal lists)."""
    return replace(state, config=replace(state.config, **variants))


def test_a_free_barrier_between_ones_own_pieces_is_legal_by_default_not_under_strict_colours() -> None:
    # Default reading: "Do not place barriers between trailers or bungalows of the same colour" stands in the
    # setup paragraph, so the free barrier may go between one player's own pieces (A|a, b|B). The named variant
    # "strict colours" applies it to the free barrier too; every other legal edge stays legal.
    position = parse_board(OWN_NEIGHBOURS)
    own = {rules.edge_of(sq(position, 0, 0), sq(position, 0, 1)), rules.edge_of(sq(position, 0, 4), sq(position, 1, 4))}
    default = position.child(Move(()))
    assert not default.config.strict_colours and own <= set(default.legal_barriers())
    strict = _with_variants(position, strict_colours=True).child(Move(()))
    assert set(strict.legal_barriers()) == set(default.legal_barriers()) - own and strict.legal_barriers()
    for edge in own:
        with pytest.raises(IllegalAction):
            strict.child(Barrier(edge))
        assert default.child(Barrier(edge)).barriers == default.barriers | {edge}


def test_the_free_barrier_is_compulsory_by_default_optional_under_the_variant() -> None:
    # Default reading: "A player almost places a barrier where they wants" is unmarked in the summary (movement is
    # "nonobligatory", the automatic barriers "obligatory"): the turn's free barrier is compulsory whenever one is
    # legal. The named variant "optional free barrier" adds leaving it out (`Barrier(None)`).
    position = parse_board(OWN_NEIGHBOURS)
    default = position.child(Move(()))
    assert Barrier(None) not in default.legal_actions()
    with pytest.raises(IllegalAction, match="compulsory"):
        default.child(Barrier(None))
    optional = _with_variants(position, optional_free_barrier=True).child(Move(()))
    assert optional.legal_actions() == [*default.legal_actions(), Barrier(None)]
    after = optional.child(Barrier(None))
    assert after.stage is Stage.MOVE and after.to_move == 1 and after.barriers == optional.barriers
    assert after.idle_turns == optional.idle_turns + 1
    assert rules.describe_action(optional.config, Barrier(None)) == "no free barrier"


def test_the_game_starts_with_the_setups_first_player_and_refuses_a_seat_off_the_table() -> None:
    """`GAME` starts from a `DeluxeCampingSetup` (the `Config` and who places the pool first): every seat of the
    table may begin, and the state is `initial_state`'s; a seat outside the table is refused."""
    from campsolver.solver.deluxe_camping.rules import GAME, DeluxeCampingSetup

    for players in (2, 3, 4):
        config = Config(players=players)
        for first in range(players):
            state = GAME.new_initial_state(DeluxeCampingSetup(config, first))
            assert state == rules.initial_state(config, first) and state.current_player() == first
        for seat in (-1, players, True):
            with pytest.raises(ValueError):
                GAME.new_initial_state(DeluxeCampingSetup(config, seat))
    assert GAME.num_players(GAME.default_config(3)) == 3


def _seeded_setup(seed: int) -> list[DCState]:
    """Every position of a seeded random setup, from the pool to the reveal, then the first position of turns."""
    rng = np.random.default_rng(seed)
    state = rules.initial_state(Config())
    seen = []
    while state.stage not in (Stage.MOVE, Stage.OVER):
        seen.append(state)
        if state.stage is Stage.REVEAL:
            outcomes = state.chance_outcomes()
            state = state.child(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
    return [*seen, state]


def test_validate_reads_the_automatic_barriers_after_the_reveal_and_not_in_the_setup() -> None:
    """Positions a game reaches are valid: in the setup nobody's pieces are complete yet (the board may be one
    region without an owner); once turns begin (MOVE, and BARRIER while a player places the free barrier) pieces
    of different players side by side need their barrier, and a position without it is refused. Found by the
    mutation run: BARRIER read as BUNGALOW in `validate`'s stage test survived every test."""
    positions = _seeded_setup(0)
    assert {s.stage for s in positions} >= {Stage.POOL, Stage.MYSTERY, Stage.BUNGALOW, Stage.TRAILER, Stage.MOVE}
    for state in positions:
        rules.validate(state)
    rng = np.random.default_rng(0)
    side_by_side: dict[Stage, DCState] = {}
    state = positions[-1]
    while state.stage is not Stage.OVER and len(side_by_side) < 2:
        if rules.automatic_barriers(state.config, state.owner_at, frozenset()):
            side_by_side.setdefault(state.stage, state)
        actions = state.legal_actions()
        state = state.child(actions[int(rng.integers(len(actions)))])
    assert set(side_by_side) == {Stage.MOVE, Stage.BARRIER}, "seed 0 no longer reaches both stages side by side"
    for state in side_by_side.values():
        rules.validate(state)
        needed = rules.automatic_barriers(state.config, state.owner_at, frozenset())
        with pytest.raises(ValueError, match="without a barrier"):
            rules.validate(replace(state, barriers=state.barriers - needed))
