"""Solo mode and multi-player flow: turn structure, doubles, noisy neighbours, end of game, bonus turn."""

from __future__ import annotations

from fractions import Fraction

import pytest
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.happy_campers.modes import (
    MultiplayerState,
    SoloDraw,
    SoloState,
    SoloStep,
    multiplayer_options,
    roll_distribution,
    solo_double_placements,
)
from campsolver.solver.happy_campers.rules import (
    ANY_FACE,
    ELEMENTS,
    Challenge,
    Components,
    Element,
    IllegalMove,
    Option,
    RulesError,
    empty_grid,
    legal_placements,
    parse_grid,
    score,
)

SMALL = Components(rows=4, cols=5)
# Full maps with holes: FULL_HOLE_1 has one isolated empty square (nothing fits), FULL_HOLE_2 a domino hole.
FULL_HOLE_1 = parse_grid("TTWW.\nTT~~A\nAAEE~\nTTWWA")
FULL_HOLE_2 = parse_grid("TTWW.\nTT~~.\nAAEE~\nTTWWA")
START = parse_grid("..T..\n.....\n.....\n.....")


def test_roll_distribution_is_exact():
    outcomes = roll_distribution()
    assert len(outcomes) == 21
    assert sum(p for _, p in outcomes) == 1
    assert dict(outcomes)[(3, 3)] == Fraction(1, 36)
    assert dict(outcomes)[(2, 5)] == Fraction(2, 36)


# ------------------------------------------------------------------------------------------------- solo


def solo(maps=None, challenges=((), ()), gap=1) -> SoloState:
    return SoloState.new(challenges, SMALL, maps or (START, START), gap)


def test_solo_rejects_noisy_neighbours_and_bad_gap():
    with pytest.raises(RulesError):
        solo(challenges=((Challenge.NOISY_NEIGHBOURS,), ()))
    with pytest.raises(RulesError):
        solo(gap=0)


def test_solo_turn_draws_one_option_on_each_map():
    state = solo().child((4, 2))
    assert state.current_player() == 0
    assert state.step is SoloStep.FIRST_OF_TWO
    first = state.legal_actions()
    assert {a.map_index for a in first} == {0}
    assert {a.placement.option for a in first} == {Option(4, 2), Option(2, 4)}
    pick = next(a for a in first if a.placement.option == Option(2, 4))
    second_state = state.child(pick)
    second = second_state.legal_actions()
    assert {a.map_index for a in second} == {1}
    assert {a.placement.option for a in second} == {Option(4, 2)}  # the other result goes on the other map
    done = second_state.child(second[0])
    assert done.current_player() == CHANCE
    assert done.maps[0] != START and done.maps[1] != START


def test_solo_double_goes_on_both_maps_and_may_be_detached():
    state = solo().child((1, 1))
    actions = state.legal_actions()
    detached = [a for a in actions if all(abs(r) + abs(c - 2) > 1 for r, c in a.placement.cells)]
    assert detached, "a solo double may be drawn away from the drawn shapes"
    far = next(a for a in detached if (3, 0) in a.placement.cells)
    after = state.child(far)
    assert {a.map_index for a in after.legal_actions()} == {1}
    assert {a.placement.option for a in after.legal_actions()} == {Option(1, 1)}


def test_solo_double_gap_two_keeps_two_squares_clear():
    # With gap 2, a detached drawing must be at least 3 orthogonal steps from the tree at (0, 2).
    placements = solo_double_placements(START, Option(1, 1), SMALL, gap=2)
    for p in placements:
        distance = min(abs(r - 0) + abs(c - 2) for r, c in p.cells)
        assert distance == 1 or distance >= 3
    cells = {p.cells for p in placements}
    assert frozenset({(2, 0), (3, 0)}) in cells  # distance 4
    assert frozenset({(1, 0), (1, 1)}) not in cells  # distance 2: only one square between


def test_solo_last_turn_double_is_a_plain_roll():
    state = solo(maps=(FULL_HOLE_1, START)).child((1, 2))
    assert state.step is SoloStep.ONLY_ONE
    assert {a.map_index for a in state.legal_actions()} == {1}
    after = state.child(state.legal_actions()[0])
    assert after.last_turn_map == 1
    last = after.child((1, 1))
    assert last.step is SoloStep.LAST_TURN
    for action in last.legal_actions():  # no detached drawing in the one extra turn
        assert action.map_index == 1
        assert action.placement in legal_placements(after.maps[1], (1, 1), SMALL)
    final = last.child(last.legal_actions()[0])
    assert final.current_player() == TERMINAL


def test_solo_when_one_map_is_full_draw_on_the_other_then_one_more_turn():
    state = solo(maps=(START, FULL_HOLE_2)).child((4, 3))  # map 1 takes neither the square nor the L
    assert state.step is SoloStep.ONLY_ONE
    assert {a.map_index for a in state.legal_actions()} == {0}
    after = state.child(state.legal_actions()[0])
    assert after.current_player() == CHANCE and after.last_turn_map == 0
    # The extra turn cannot be drawn: game over, nothing drawn.
    blocked = solo(maps=(FULL_HOLE_1, FULL_HOLE_1)).child((1, 2))
    assert blocked.current_player() == TERMINAL


def test_solo_conflict_when_both_maps_want_the_same_option():
    # Both maps only have a domino hole: the domino fits either map but the tromino fits neither, so only
    # one map can be drawn this turn; the other map is out.
    state = solo(maps=(FULL_HOLE_2, FULL_HOLE_2)).child((1, 2))
    assert state.step is SoloStep.ONLY_ONE
    assert {a.map_index for a in state.legal_actions()} == {0, 1}
    assert {a.placement.option for a in state.legal_actions()} == {Option(1, 2)}


def test_solo_score_is_the_lower_map_and_uses_each_maps_challenge():
    state = solo(maps=(FULL_HOLE_1, FULL_HOLE_1), challenges=((Challenge.PRIVACY,), ()))
    plain = score(FULL_HOLE_1, (), SMALL).total
    with_privacy = score(FULL_HOLE_1, (Challenge.PRIVACY,), SMALL).total
    assert with_privacy > plain
    assert state.final_score() == plain
    assert state.child((1, 2)).returns() == (float(plain),)


def test_solo_rejects_illegal_actions():
    state = solo().child((4, 2))
    legal = state.legal_actions()[0]
    with pytest.raises(IllegalMove):
        state.child(SoloDraw(1, legal.placement))


# ------------------------------------------------------------------------------------------ multi-player


def test_each_player_draws_on_their_own_map_on_a_plain_roll():
    state = MultiplayerState.new(3, components=SMALL).child((4, 2))
    seen = []
    while state.current_player() not in (CHANCE, TERMINAL):
        seen.append((state.current_player(), state.to_draw[0]))
        state = state.child(state.legal_actions()[0])
    assert seen == [(0, 0), (1, 1), (2, 2)]


@pytest.mark.parametrize(("roll", "drawers"), [((2, 2), [2, 0, 1]), ((5, 5), [1, 2, 0])])
def test_noisy_neighbour_doubles_go_left_on_1_to_3_and_right_on_4_to_6(roll, drawers):
    # Seats clockwise: left neighbour of i is i + 1. On 1-3 map j is drawn by j - 1, on 4-6 by j + 1.
    state = MultiplayerState.new(3, components=SMALL).child(roll)
    seen = []
    while state.current_player() not in (CHANCE, TERMINAL):
        seen.append(state.current_player())
        state = state.child(state.legal_actions()[0])
    assert seen == drawers


def test_neighbour_drawing_must_touch_the_neighbours_drawn_squares():
    maps = (START, parse_grid(".....\n.....\n.....\n...W."))
    state = MultiplayerState.new(2, components=SMALL, maps=maps).child((1, 1))
    assert state.to_draw == (0, 1)
    state = state.child(state.legal_actions()[0])
    assert state.current_player() == 0  # player 0 draws on map 1 on a 1-3 double
    for p in state.legal_actions():
        assert any(abs(r - 3) + abs(c - 3) == 1 for r, c in p.cells)


def test_without_the_card_a_double_is_its_own_shape_and_element():
    state = MultiplayerState.new(2, components=SMALL).child((3, 3))
    assert {len(p.cells) for p in state.legal_actions()} == {3}
    assert {p.element for p in state.legal_actions()} == {Element.WATER}


def test_noisy_neighbours_card_frees_the_shape_on_doubles():
    state = MultiplayerState.new(2, (Challenge.NOISY_NEIGHBOURS,), SMALL).child((3, 3))
    assert {p.option for p in state.legal_actions()} == {Option(ANY_FACE, 3)}
    assert {len(p.cells) for p in state.legal_actions()} == {2, 3, 4}
    assert {p.element for p in state.legal_actions()} == {Element.WATER}
    six = MultiplayerState.new(2, (Challenge.NOISY_NEIGHBOURS,), SMALL).child((6, 6))
    assert {p.element for p in six.legal_actions()} == set(ELEMENTS)
    # Plain rolls are unchanged by the card.
    plain = MultiplayerState.new(2, (Challenge.NOISY_NEIGHBOURS,), SMALL).child((3, 4))
    assert {p.option for p in plain.legal_actions()} == {Option(3, 4), Option(4, 3)}


def test_end_of_game_player_out_others_draw_then_one_bonus_turn():
    state = MultiplayerState.new(3, components=SMALL, maps=(FULL_HOLE_1, START, FULL_HOLE_2))
    state = state.child((1, 4))  # map 0 cannot take a domino or a square: player 0 is out
    assert state.in_game == (False, True, True)
    assert state.to_draw == (1, 2)
    state = state.child(state.legal_actions()[0])
    state = state.child(next(p for p in state.legal_actions()))  # map 2 fills its domino hole
    assert state.bonus_turn and state.current_player() == CHANCE
    # Bonus turn: map 2 is full now and draws nothing, map 1 still draws; map 0 is out for good.
    state = state.child((1, 2))
    assert state.to_draw == (1,)
    state = state.child(state.legal_actions()[0])
    assert state.current_player() == TERMINAL
    assert state.maps[0] == FULL_HOLE_1


def test_game_over_at_once_when_nobody_can_draw():
    state = MultiplayerState.new(2, components=SMALL, maps=(FULL_HOLE_1, FULL_HOLE_1)).child((2, 3))
    assert state.current_player() == TERMINAL


def test_bonus_turn_with_nothing_drawable_ends_the_game():
    state = MultiplayerState.new(2, components=SMALL, maps=(FULL_HOLE_1, FULL_HOLE_2)).child((1, 4))
    state = state.child(state.legal_actions()[0])  # map 1 fills its hole; map 0 was out
    assert state.bonus_turn
    assert state.child((2, 3)).current_player() == TERMINAL


def test_multiplayer_returns_pay_festival_to_every_tied_leader():
    a = parse_grid("TTWW.\nTT~~A\nAAEE~\nTTWWA")  # entertainment cluster 2
    b = parse_grid("TTWW.\nTT~~A\nAAE.~\nTTWWE")  # entertainment cluster 1
    state = MultiplayerState.new(3, (Challenge.FESTIVAL,), SMALL, maps=(a, b, a))
    scores = state.final_scores()
    assert scores[0] == scores[2] == score(a, (), SMALL).total + 5
    assert scores[1] == score(b, (), SMALL).total


def test_multiplayer_needs_two_players_and_connected_maps():
    with pytest.raises(RulesError):
        MultiplayerState.new(1)
    with pytest.raises(RulesError):
        MultiplayerState.new(2, components=SMALL, maps=(START, parse_grid("T....\n.....\n.....\n....W")))


def test_multiplayer_rejects_illegal_drawings():
    state = MultiplayerState.new(2, components=SMALL, maps=(START, START)).child((1, 2))
    with pytest.raises(IllegalMove):
        state.child(legal_placements(empty_grid(SMALL), (5, 5), SMALL)[0])


def test_multiplayer_options_are_the_ones_every_map_is_offered():
    # One function decides the options of a multi-player turn; the game flow (and the hint engine) use it.
    for roll, _ in roll_distribution():
        for cards in ((), (Challenge.NOISY_NEIGHBOURS,)):
            state = MultiplayerState.new(2, cards, SMALL).child(roll)
            assert state.roll_option_for_maps() == multiplayer_options(roll, cards)
            drawn = {p.option for p in state.legal_actions()}
            assert drawn <= set(multiplayer_options(roll, cards))
    assert multiplayer_options((2, 2), (Challenge.NOISY_NEIGHBOURS,)) == (Option(ANY_FACE, 2),)
    assert multiplayer_options((6, 6), (Challenge.NOISY_NEIGHBOURS,)) == (Option(ANY_FACE, ANY_FACE),)
    assert multiplayer_options((2, 2), ()) == (Option(2, 2),)
    assert multiplayer_options((2, 5), (Challenge.NOISY_NEIGHBOURS,)) == (Option(2, 5), Option(5, 2))


def test_solo_state_can_start_in_the_extra_turn():
    # "You then get 1 more turn to draw one shape on the remaining map": a position can be given in that
    # phase (the hint engine asks about it); only map 1 draws, a double is a plain roll, then the game ends.
    state = SoloState.new(((), ()), SMALL, (FULL_HOLE_2, START), last_turn_map=1)
    turn = state.child((1, 1))
    assert turn.step is SoloStep.LAST_TURN
    assert {a.map_index for a in turn.legal_actions()} == {1}
    assert {a.placement for a in turn.legal_actions()} == set(legal_placements(START, (1, 1), SMALL))
    assert turn.child(turn.legal_actions()[0]).current_player() == TERMINAL
    with pytest.raises(RulesError):
        SoloState.new(((), ()), SMALL, last_turn_map=2)


def test_solo_follow_option_is_the_other_result_or_the_same_double():
    state = solo().child((4, 2))
    assert state.follow_option(Option(4, 2)) == Option(2, 4)
    assert state.follow_option(Option(2, 4)) == Option(4, 2)
    assert solo().child((3, 3)).follow_option(Option(3, 3)) == Option(3, 3)
