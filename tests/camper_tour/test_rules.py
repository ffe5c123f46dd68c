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
    Pass,
    Pending,
    Phase,
    PlateKind,
    Stage,
    TourState,
    TurnBack,
    new_game,
    position_state,
    validate,
)
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
    assert after.campers[0].tokens == -3 and after.campers[0].score == 11


def test_return_tokens_may_go_negative_before_arrival():
    after = roll(position_state(NORMAL20, [ret(9, 1, 14), out(12)]), 3, 9)
    assert after.campers[0].tokens == -5 and after.campers[0].phase == Phase.RETURN


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
    state = position_state(
        NORMAL20, [ret(3, 1, 12), Camper(phase=Phase.FINISHED, marker=13, tokens=-1, arrival=1)]
    )
    after = roll(state, 2, 3)  # score 12 == 12
    assert after.current_player() == TERMINAL and after.winner() == 0


def test_unexpected_comforts_next_turn_choice_and_cap():
    config = layout_with(20, p5=K.UNEXPECTED_COMFORTS)
    state = roll(position_state(config, [out(2, 24), out(9)]), 3, 4)  # lands on 5 with 23
    assert state.campers[0].pending == Pending.COMFORTS_CHOICE and state.to_move == 1
    state = roll(state, 1, 1)  # the other fails
    assert state.to_move == 0 and state.legal_actions() == list(ComfortsChoice)
    assert state.child(ComfortsChoice.RECOVER).campers[0].tokens == 25  # capped, "take those you can"
    assert state.child(ComfortsChoice.DISCARD).campers[0].tokens == 20
    assert state.child(ComfortsChoice.DECLINE).campers[0].tokens == 23
    assert state.child(ComfortsChoice.DECLINE).campers[0].position == 5  # stays still


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
    assert state.child(6).campers[0].tokens == 25
    assert state.child(3).campers[0].pending == Pending.SKIP_TURN


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


def test_validate_rejects_broken_positions():
    with pytest.raises(ValueError):
        position_state(NORMAL20, [out(5), out(5)])
    with pytest.raises(ValueError):
        position_state(NORMAL20, [out(5, 30)])
    with pytest.raises(ValueError):
        position_state(NORMAL20, [ret(9, 3, 5)])


def test_a_camper_with_a_skipped_turn_is_never_the_one_to_decide():
    skipping = Camper(position=5, tokens=7, pending=Pending.SKIP_TURN)
    with pytest.raises(ValueError, match="skipped turn"):
        position_state(NORMAL20, [skipping, out(9)], to_move=0)
    assert position_state(NORMAL20, [skipping, out(9)], to_move=1).to_move == 1
    assert position_state(NORMAL20, [skipping]).legal_actions()  # solo: a lost turn is free, nothing to skip


CONFIGS = [
    Config(plate_count=14, starting_tokens=8, specials=((K.NO_PARKING, 2), (K.VILLAGE_FESTIVAL, 2),
                                                         (K.UNEXPECTED_COMFORTS, 2), (K.MECHANICAL_PROBLEM, 2))),
    Config(plate_count=30, starting_tokens=12),
    Config(),
]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2), st.integers(1, 4), st.integers(0, 10_000))
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
        assert all(c.tokens <= config.starting_tokens for c in state.campers)
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
            state = state.child(actions[int(rng.integers(len(actions)))])
    assert all(isinstance(r, float) for r in state.returns())
