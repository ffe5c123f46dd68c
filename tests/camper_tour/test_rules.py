"""Every rules clause of Camper Tour pinned by a test, plus hypothesis invariants over random play."""

from fractions import Fraction

import pytest
from campsolver.solver.camper_tour.rules import (
    MAX_ANNOUNCEMENT,
    ONE_DIE,
    TWO_DICE,
    Announce,
    Camper,
    ComfortsChoice,
    Config,
    NoParkingReturn,
    Pass,
    Pending,
    Phase,
    PlateKind,
    Stage,
    TokenRule,
    TourState,
    TurnBack,
    new_game,
    position_state,
    validate,
)
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.expectimax import expectimax
from campsolver.solver.core.game import CHANCE, TERMINAL, sample_outcome
from campsolver.solver.core.seeding import rng_for
from hypothesis import given, settings
from hypothesis import strategies as st

K = PlateKind
NORMAL20 = Config(plate_count=20, layout=(K.NORMAL,) * 20)


def layout_with(plate_count: int, **specials: PlateKind) -> Config:
    kinds = [K.NORMAL] * plate_count
    for name, kind in specials.items():
        kinds[int(name[1:]) - 1] = kind
    return Config(plate_count=plate_count, layout=tuple(kinds))


def ret(position: int, tokens: int, marker: int) -> Camper:
    return Camper(position=position, tokens=tokens, phase=Phase.RETURN, marker=marker)


def out(position: int, tokens: int = 25) -> Camper:
    return Camper(position=position, tokens=tokens)


def roll(state: TourState, announcement: int, total: int) -> TourState:
    return state.child(Announce(announcement)).child(total)


def test_two_dice_probabilities_are_exact():
    assert sum(p for _, p in TWO_DICE) == 1
    assert dict(TWO_DICE)[7] == Fraction(1, 6) and dict(TWO_DICE)[2] == Fraction(1, 36)
    assert sum(p for _, p in ONE_DIE) == 1


def test_announcements_are_1_to_10():
    state = new_game(Config(), 2)
    assert state.legal_actions() == [Announce(n) for n in range(1, MAX_ANNOUNCEMENT + 1)]


def test_roll_not_above_announcement_means_no_move_and_turn_passes():
    state = new_game(NORMAL20, 2)
    after = roll(state, 6, 6)
    assert after.campers == state.campers and after.to_move == 1


def test_move_is_the_announcement_and_costs_roll_minus_announcement():
    state = new_game(NORMAL20, 2)
    after = roll(state, 6, 10)  # the rulebook's example: move 6, get rid of 4
    assert after.campers[0].position == 6 and after.campers[0].tokens == 21


def test_first_move_lays_the_announced_plates_with_stack_odds():
    state = roll(new_game(Config(), 2), 3, 9)
    assert state.stage == Stage.LAY and state.target == 3
    assert dict(state.chance_outcomes()) == {K.NORMAL: Fraction(60, 72), **{k: Fraction(3, 72) for k in K if k}}
    state = state.child(K.NO_PARKING)
    assert dict(state.chance_outcomes())[K.NO_PARKING] == Fraction(2, 71)
    state = state.child(K.NORMAL).child(K.NORMAL)
    assert state.laid == (K.NO_PARKING, K.NORMAL, K.NORMAL) and state.stage == Stage.DECIDE


def test_starting_plate_is_never_special():
    state = roll(new_game(Config(), 1), 1, 5).child(K.NO_PARKING)
    assert state.plate_kind(1) == K.NORMAL and state.stage == Stage.DECIDE
    assert state.campers[0].position == 1


def test_outward_announcement_never_passes_the_last_plate():
    state = position_state(NORMAL20, [out(15)])
    assert [a.plates for a in state.legal_actions() if isinstance(a, Announce)] == [1, 2, 3, 4, 5]


def test_occupied_plate_cannot_be_announced_in_either_direction():
    state = position_state(NORMAL20, [out(5), out(8), ret(12, 5, 14)])
    assert Announce(3) not in state.legal_actions() and Announce(7) not in state.legal_actions()
    back = position_state(NORMAL20, [ret(12, 5, 14), out(8)])
    assert Announce(4) not in back.legal_actions() and Announce(3) in back.legal_actions()


def test_outward_camper_on_the_starting_plate_blocks_arrival():
    state = position_state(NORMAL20, [ret(2, 1, 9), out(1)])
    assert state.legal_actions() == [Pass()]


def test_turn_back_puts_marker_and_the_same_turn_continues():
    state = position_state(NORMAL20, [out(9, 10)])
    assert TurnBack() in state.legal_actions()
    after = state.child(TurnBack())
    assert after.campers[0].phase == Phase.RETURN and after.campers[0].marker == 9
    assert after.to_move == 0 and after.legal_actions() == [Announce(n) for n in range(1, 9)]


def test_no_turn_back_before_plate_2():
    assert TurnBack() not in position_state(NORMAL20, [out(1)]).legal_actions()
    assert TurnBack() not in new_game(NORMAL20, 1).legal_actions()


def test_return_never_passes_the_start_and_exact_arrival_scores_marker_minus_leftover():
    state = position_state(NORMAL20, [ret(4, 5, 14), out(10)])
    assert [a.plates for a in state.legal_actions()] == [1, 2, 3]
    done = roll(state, 3, 5)  # pays 2: 3 left, marker back 3
    assert done.campers[0].phase == Phase.FINISHED and done.campers[0].score == 11


def test_missing_tokens_move_the_marker_back():
    state = position_state(NORMAL20, [ret(4, 1, 14), out(10)])
    after = roll(state, 3, 7)  # pays 4 with 1 token: 3 missing
    assert after.campers[0].tokens == 0 and after.campers[0].marker == 11 and after.campers[0].score == 11


def test_shortfall_moves_the_marker_at_once_and_tokens_never_go_negative():
    after = roll(position_state(NORMAL20, [ret(9, 1, 14), out(12)]), 3, 9)  # pays 6 with 1: 5 missing
    camper = after.campers[0]
    assert camper.tokens == 0 and camper.marker == 9 and camper.phase == Phase.RETURN


def test_issue_example_festival_after_a_shortfall_keeps_the_whole_gain():
    # Issue 7 section 1: "tokens -5 then a Festival 6" is, by the rulebook, a marker already 5 plates back
    # and 0 tokens; the festival then gives the camper 6 tokens (nothing is refunded).
    config = layout_with(20, p6=K.VILLAGE_FESTIVAL)
    state = roll(position_state(config, [ret(9, 1, 14), out(12)]), 3, 9)  # to plate 6, pays 6 with 1 token
    assert state.stage == Stage.EFFECT and state.campers[0].marker == 9 and state.campers[0].tokens == 0
    after = state.child(6)
    assert after.campers[0].tokens == 6 and after.campers[0].marker == 9


def test_issue_example_comforts_after_a_shortfall_flips_recover_and_decline():
    # Issue 7 section 1: returning on plate 11, marker 20, "tokens -3" (marker really 17, 0 tokens),
    # Unexpected Comforts pending. Exact expected final scores by the generic expectimax over the rules model.
    config = Config(plate_count=20, starting_tokens=25, specials=())
    camper = Camper(position=11, tokens=0, phase=Phase.RETURN, marker=17, pending=Pending.COMFORTS_CHOICE)
    result = expectimax(position_state(config, [camper]), budget=Budget(120))
    values = {alt.action: alt.values[0] for alt in result.alternatives}
    assert values[ComfortsChoice.RECOVER] == pytest.approx(15.333, abs=5e-4)
    assert values[ComfortsChoice.DECLINE] == pytest.approx(15.667, abs=5e-4)
    assert values[ComfortsChoice.DISCARD] == values[ComfortsChoice.DECLINE]  # nothing to discard at 0
    assert values[ComfortsChoice.RECOVER] < values[ComfortsChoice.DECLINE]  # the old reading ranked recover first


def test_running_out_of_tokens_outward_eliminates():
    after = roll(position_state(NORMAL20, [out(3, 2), out(10)]), 2, 4)
    assert after.campers[0].phase == Phase.ELIMINATED and after.campers[0].score == 0


def test_last_camper_failed_roll_eliminates():
    state = position_state(NORMAL20, [ret(6, 3, 12), Camper(phase=Phase.FINISHED, marker=9, tokens=0, arrival=1)])
    assert state.last_camper_rule
    after = roll(state, 4, 4)
    assert after.campers[0].phase == Phase.ELIMINATED and after.current_player() == TERMINAL
    assert after.winner() == 1


def test_solo_failed_roll_returns_to_the_same_state():
    state = position_state(NORMAL20, [ret(6, 3, 12)])
    assert roll(state, 4, 3) == state


def test_game_ends_when_arrival_is_furthest_ahead():
    state = position_state(NORMAL20, [ret(3, 0, 15), ret(8, 2, 14)])
    after = roll(state, 2, 3)  # arrives with -1: score 14, equal to the other's marker: not strictly ahead
    assert after.current_player() == 1
    state = position_state(NORMAL20, [ret(3, 1, 15), ret(8, 2, 14)])
    after = roll(state, 2, 3)  # score 15 > 14
    assert after.current_player() == TERMINAL and after.winner() == 0


def test_outward_camper_positions_count_as_ahead():
    state = position_state(NORMAL20, [ret(3, 1, 15), out(16)])
    assert roll(state, 2, 3).current_player() == 1


def test_game_end_is_checked_for_the_arriving_camper_only():
    # A finished with 10; B arrives with 9 - 1 = 8: not furthest ahead, so the game goes on even though A is now
    # ahead of everybody (C, outward on plate 5, may still travel further): C plays on under the last-camper rule.
    finished = Camper(phase=Phase.FINISHED, marker=12, tokens=2, arrival=1)
    state = position_state(NORMAL20, [finished, ret(3, 0, 9), out(5)], to_move=1)
    after = roll(state, 2, 3)
    assert after.campers[1].phase == Phase.FINISHED and after.campers[1].score == 8
    assert after.current_player() == 2 and after.last_camper_rule


def test_tie_goes_to_the_camper_who_returned_last():
    state = position_state(NORMAL20, [ret(3, 1, 12), Camper(phase=Phase.FINISHED, marker=12, tokens=0, arrival=1)])
    after = roll(state, 2, 3)  # score 12 == 12
    assert after.current_player() == TERMINAL and after.winner() == 0


def test_unexpected_comforts_next_turn_choice_and_cap():
    config = layout_with(20, p5=K.UNEXPECTED_COMFORTS)
    state = roll(position_state(config, [out(2, 24), out(9)]), 3, 4)  # lands on 5 with 23
    assert state.campers[0].pending == Pending.COMFORTS_CHOICE and state.to_move == 1
    state = roll(state, 1, 1)  # the other fails
    assert state.to_move == 0 and state.legal_actions() == [TurnBack(), *ComfortsChoice]
    assert state.child(ComfortsChoice.RECOVER).campers[0].tokens == 26  # from the supply: above the 25 dealt
    assert state.child(ComfortsChoice.DISCARD).campers[0].tokens == 20
    assert state.child(ComfortsChoice.DECLINE).campers[0].tokens == 23
    assert state.child(ComfortsChoice.DECLINE).campers[0].position == 5  # stays still


def test_gains_come_from_the_supply_or_the_per_camper_cap_variant():
    # Default: the box holds 100; the four campers hold 24 + 30 + 25 + 20 = 99: one token left to take.
    config = layout_with(20, p5=K.UNEXPECTED_COMFORTS, p6=K.VILLAGE_FESTIVAL)
    waiting = Camper(5, 24, Phase.OUTWARD, 0, Pending.COMFORTS_CHOICE)
    state = position_state(config, [waiting, out(9, 30), out(10), out(11, 20)])
    assert state.child(ComfortsChoice.RECOVER).campers[0].tokens == 25  # "take those you can"
    festival = roll(position_state(config, [out(2, 24), out(9, 30), out(10), out(11, 20)]), 4, 6)
    # pays 2 (22 left); the four hold 97: three to take of the six won
    assert festival.stage == Stage.EFFECT and festival.child(6).campers[0].tokens == 22 + 3
    # Paid tokens go back to the box: a camper alone may hold far more than it was dealt.
    solo = position_state(config, [Camper(5, 60, Phase.OUTWARD, 0, Pending.COMFORTS_CHOICE)])
    assert solo.child(ComfortsChoice.RECOVER).campers[0].tokens == 63
    # Variant: nobody above the starting count.
    capped = Config(plate_count=20, layout=config.layout, token_rule=TokenRule.PER_CAMPER_CAP)
    state = position_state(capped, [waiting, out(9, 10)])
    assert state.child(ComfortsChoice.RECOVER).campers[0].tokens == 25
    with pytest.raises(ValueError, match="per-camper cap"):
        position_state(capped, [out(5, 27)])
    with pytest.raises(ValueError, match="in the box"):
        position_state(config, [out(5, 60), out(6, 41)])


def test_turn_back_is_legal_at_the_start_of_a_turn_spent_still():
    # A camper with 2 tokens on Unexpected Comforts: outward, discarding eliminates; turning back first keeps
    # the turn still (the Comforts choice) and then the discard is paid on the return.
    config = layout_with(20, p5=K.UNEXPECTED_COMFORTS)
    state = position_state(config, [Camper(5, 2, Phase.OUTWARD, 0, Pending.COMFORTS_CHOICE), out(9)])
    assert state.legal_actions() == [TurnBack(), *ComfortsChoice]
    assert state.child(ComfortsChoice.DISCARD).campers[0].phase == Phase.ELIMINATED
    turned = state.child(TurnBack())
    assert turned.to_move == 0 and turned.legal_actions() == list(ComfortsChoice)
    after = turned.child(ComfortsChoice.DISCARD)
    assert after.campers[0] == Camper(5, 0, Phase.RETURN, 5) and after.to_move == 1


def test_discard_never_below_zero():
    config = layout_with(20, p5=K.UNEXPECTED_COMFORTS)
    state = position_state(config, [Camper(5, 2, Phase.RETURN, 9, Pending.COMFORTS_CHOICE)])
    assert state.child(ComfortsChoice.DISCARD).campers[0].tokens == 0


def test_mechanical_problem_outward_loses_a_die_and_skips():
    config = layout_with(20, p5=K.MECHANICAL_PROBLEM)
    state = roll(position_state(config, [out(2, 10), out(9)]), 3, 4)
    assert state.stage == Stage.EFFECT and dict(state.chance_outcomes()) == dict(ONE_DIE)
    state = state.child(4)
    assert state.campers[0].tokens == 5 and state.campers[0].pending == Pending.SKIP_TURN
    state = roll(state, 1, 1)  # camper 1 fails; camper 0's turn is skipped, back to camper 1
    assert state.to_move == 1 and state.campers[0].pending == Pending.NONE


def test_mechanical_problem_is_normal_on_return():
    config = layout_with(20, p5=K.MECHANICAL_PROBLEM)
    state = roll(position_state(config, [ret(8, 10, 9), out(12)]), 3, 4)
    assert state.stage == Stage.DECIDE and state.campers[0].tokens == 9


def test_village_festival_gain_capped_or_skip():
    config = layout_with(20, p5=K.VILLAGE_FESTIVAL)
    state = roll(position_state(config, [out(2, 24), out(9)]), 3, 4)
    assert state.child(6).campers[0].tokens == 29  # from the supply
    assert state.child(3).campers[0].pending == Pending.SKIP_TURN
    capped = Config(plate_count=20, layout=config.layout, token_rule=TokenRule.PER_CAMPER_CAP)
    assert roll(position_state(capped, [out(2, 24), out(9)]), 3, 4).child(6).campers[0].tokens == 25


def test_no_parking_moves_back_toward_the_start_rerolls_occupied_loses_3_past_start():
    config = layout_with(20, p9=K.NO_PARKING, p4=K.VILLAGE_FESTIVAL)
    state = roll(position_state(config, [out(6, 10), out(7)]), 3, 4)  # lands on 9; 7 (face 2) is occupied
    outcomes = dict(state.chance_outcomes())
    assert set(outcomes) == {1, 3, 4, 5, 6} and all(p == Fraction(1, 5) for p in outcomes.values())
    landed = state.child(5)  # back to plate 4, a festival: ignored
    assert landed.campers[0].position == 4 and landed.campers[0].tokens == 9 and landed.stage == Stage.DECIDE
    config = layout_with(20, p3=K.NO_PARKING)
    state = roll(position_state(config, [out(1, 10)]), 2, 3)
    assert state.child(2).campers[0].position == 1
    assert state.child(3).campers[0].position == 3 and state.child(3).campers[0].tokens == 6


def test_no_parking_on_return_moves_toward_start_and_can_arrive():
    config = layout_with(20, p5=K.NO_PARKING)
    state = roll(position_state(config, [ret(8, 4, 12)]), 3, 4)
    arrived = state.child(4)
    assert arrived.current_player() == TERMINAL and arrived.campers[0].score == 12 - 3
    stuck = state.child(6)
    assert stuck.campers[0].position == 5 and stuck.campers[0].tokens == 0


def test_no_parking_on_return_away_from_home_is_a_named_variant():
    layout = layout_with(12, p5=K.NO_PARKING).layout
    away = Config(plate_count=12, layout=layout, no_parking_return=NoParkingReturn.AWAY_FROM_HOME)
    # The variant's moves: back the way it came (plate 5 + face), never past the furthest plate laid (9 here),
    # another camper's plate re-rolled; beyond the laid plates is "no possible move": lose 3 (a shortfall on
    # the return moves the marker back).
    landed = roll(position_state(away, [ret(8, 2, 9), out(7)]), 3, 4)
    assert dict(landed.chance_outcomes()) == {face: Fraction(1, 5) for face in (1, 3, 4, 5, 6)}
    assert landed.child(1).campers[0].position == 6
    lost = landed.child(5)
    assert lost.campers[0].position == 5 and lost.campers[0].tokens == 0 and lost.campers[0].marker == 7
    # The default reading on the same roll: toward the start, face 4 arrives home.
    toward = Config(plate_count=12, layout=layout)
    home = roll(position_state(toward, [ret(8, 2, 9), out(7)]), 3, 4).child(4)
    assert home.campers[0].phase == Phase.FINISHED and home.campers[0].score == 9 - 1


def test_validate_rejects_broken_positions():
    with pytest.raises(ValueError):
        position_state(NORMAL20, [out(5), out(5)])
    with pytest.raises(ValueError, match="never negative"):
        position_state(NORMAL20, [ret(9, -3, 12)])
    with pytest.raises(ValueError, match="marker beyond the laid plates"):  # issue 7 section 5's probe
        position_state(Config(plate_count=20, specials=()), [ret(2, 5, 3)], laid=(K.NORMAL, K.NORMAL))
    assert position_state(NORMAL20, [ret(9, 3, 5)]).legal_actions()  # a shortfall can put the marker behind


def test_a_camper_with_a_skipped_turn_is_never_the_one_to_decide():
    skipping = Camper(position=5, tokens=7, pending=Pending.SKIP_TURN)
    with pytest.raises(ValueError, match="skipped turn"):
        position_state(NORMAL20, [skipping, out(9)], to_move=0)
    assert position_state(NORMAL20, [skipping, out(9)], to_move=1).to_move == 1
    assert position_state(NORMAL20, [skipping]).legal_actions()  # solo: a lost turn is free, nothing to skip


CONFIGS = [
    Config(
        plate_count=14,
        starting_tokens=8,
        specials=((K.NO_PARKING, 2), (K.VILLAGE_FESTIVAL, 2), (K.UNEXPECTED_COMFORTS, 2), (K.MECHANICAL_PROBLEM, 2)),
    ),
    Config(plate_count=30, starting_tokens=12),
    Config(),
    Config(
        plate_count=16,
        starting_tokens=8,
        token_rule=TokenRule.PER_CAMPER_CAP,
        no_parking_return=NoParkingReturn.AWAY_FROM_HOME,
        specials=((K.NO_PARKING, 3), (K.VILLAGE_FESTIVAL, 2), (K.UNEXPECTED_COMFORTS, 2)),
    ),
]


EVERY_ACTION = (*(Announce(n) for n in range(0, 12)), TurnBack(), Pass(), *ComfortsChoice, None, 3)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 3), st.integers(1, 4), st.integers(0, 10_000))
def test_random_play_keeps_every_invariant(config_index, campers, seed):
    config = CONFIGS[config_index]
    state = new_game(config, campers, first=seed % campers)
    rng = rng_for(seed, "rules-property")
    for _ in range(400):
        player = state.current_player()
        if player == TERMINAL:
            break
        plates = [c.position for c in state.campers if c.active and c.position >= 1]
        assert len(plates) == len(set(plates))
        assert all(0 <= c.tokens <= config.token_limit for c in state.campers)
        assert sum(c.tokens for c in state.campers if c.active) <= config.token_supply
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
            state = state.child(sample_outcome(state, rng))
        else:
            validate(state)  # includes: nobody beyond the laid plates, returners between marker and start
            assert all(c.position <= len(state.laid) for c in state.campers if c.active)
            actions = state.legal_actions()
            mover = state.mover
            for action in actions:
                if isinstance(action, Announce):
                    target = mover.position + action.plates * (1 if mover.phase == Phase.OUTWARD else -1)
                    assert 1 <= target <= config.plate_count
                    assert not state.occupied(target, besides=state.to_move)
            # `child` accepts exactly the listed actions (its check does not build the list).
            for action in EVERY_ACTION:
                if action not in actions:
                    with pytest.raises(ValueError, match="illegal action"):
                        state.child(action)
            for action in actions:
                assert state.is_legal(action)
                state.child(action)
            state = state.child(actions[int(rng.integers(len(actions)))])
    assert all(isinstance(r, float) for r in state.returns())
