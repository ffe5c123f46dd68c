"""The best response to solo-policy campers and reading the opponents' style from the game's record.

The model's parts are checked against the rules model: a return plan's joint distribution of turns and plates
lost by exact recursion over the rules model, a solo camper's reach by simulation of the solo policy. The
record: solo campers are recognised after two decisions, the rule-of-thumb players never; bad records are
refused naming the decision at fault.
"""

import time
from functools import cache

import numpy as np
import pytest
from campsolver.solver.camper_tour import best_response
from campsolver.solver.camper_tour.hint import BEST_RESPONSE_METHOD, HintOptions, hint, opponents_played
from campsolver.solver.camper_tour.opponents import (
    MIN_DECISIONS,
    Decision,
    check_record,
    plays_solo_policy,
    solo_field,
)
from campsolver.solver.camper_tour.players import PLAYERS, announce_seven, greedy, solo_optimal
from campsolver.solver.camper_tour.rules import (
    Announce,
    Camper,
    Phase,
    TourState,
    TurnBack,
    all_normal,
    new_game,
    position_state,
)
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.game import sample_outcome

from tests.timing import Timed

ROUTE = all_normal()


def _next_decision(state: TourState) -> list[tuple[TourState, float]]:
    """Every next decision state (or end of game) after the chance nodes that follow, with its probability."""
    if state.game_over or state.current_player() >= 0:
        return [(state, 1.0)]
    result = []
    for outcome, chance in state.chance_outcomes():
        result += [(s, float(chance) * p) for s, p in _next_decision(state.child(outcome))]
    return result


def _return_distribution(plate: int, tokens: int, cap: int, turns_left: int) -> dict[tuple[int, int], float]:
    """{(turns, plates lost): chance} of one camper's return from `plate` (its marker there) announcing at most
    `cap` a turn, played through the rules model, over at most `turns_left` turns."""
    marker = plate

    @cache
    def walk(position: int, held: int, mark: int, left: int) -> dict[tuple[int, int], float]:
        state = position_state(ROUTE, [Camper(position=position, tokens=held, phase=Phase.RETURN, marker=mark)])
        if left == 0:
            return {}
        result: dict[tuple[int, int], float] = {}
        for after, p in _next_decision(state.child(Announce(min(cap, position - 1)))):
            camper = after.campers[0]
            if camper.phase == Phase.FINISHED:
                key = (1, marker - camper.score)
                result[key] = result.get(key, 0.0) + p
                continue
            for (turns, loss), q in walk(camper.position, camper.tokens, camper.marker, left - 1).items():
                result[(turns + 1, loss)] = result.get((turns + 1, loss), 0.0) + p * q
        return result

    return walk(plate, tokens, marker, turns_left)


@pytest.mark.parametrize(("plate", "tokens", "plan"), [(6, 3, 0), (9, 2, 1), (11, 6, 3)])
def test_a_return_plans_turns_and_losses_are_those_of_the_rules_model(plate, tokens, plan):
    """Exact recursion through the rules model (failed rolls, the shortfall moving the marker back, the tokens
    left at arrival) against the model's table, over the model's horizon."""
    table = best_response.return_outcomes(ROUTE.plate_count)[plan, plate, tokens]
    expected = _return_distribution(plate, tokens, best_response.RETURN_CAPS[plan], best_response.HORIZON)
    grid = np.zeros_like(table)
    for (turns, loss), p in expected.items():
        grid[turns, min(loss, best_response.MAX_LOSS)] += p
    assert table.sum() == pytest.approx(grid.sum(), abs=1e-9)
    np.testing.assert_allclose(table, grid, atol=1e-9)


def test_a_solo_campers_reach_is_that_of_the_solo_policy_played_through_the_rules_model():
    """P(reach < s after t turns) from the Markov chain against 500 simulated solo journeys (an outward
    camper's reach is its plate; once it turns back, its marker; eliminated, nothing)."""
    state = new_game(ROUTE, 3)
    turns = 10
    below = best_response.reach_below(state, 1, turns)
    rng = np.random.default_rng(7)
    reaches = []
    for _ in range(500):
        solo = new_game(ROUTE, 1)
        for _ in range(turns):
            solo = solo.child(solo_optimal(solo))
            while not solo.game_over and solo.current_player() < 0:
                solo = solo.child(sample_outcome(solo, rng))
            camper = solo.campers[0]
            if camper.phase != Phase.OUTWARD:
                break
        camper = solo.campers[0]
        reaches.append(
            0
            if camper.phase == Phase.ELIMINATED
            else camper.position
            if camper.phase == Phase.OUTWARD
            else camper.marker
        )
    reaches = np.array(reaches)
    for s in (8, 14, 20, 26):
        simulated = float(np.mean(reaches < s))
        error = max((simulated * (1 - simulated) / len(reaches)) ** 0.5, 1e-3)
        assert abs(below[turns, s] - simulated) < 4 * error, (s, below[turns, s], simulated)


def test_values_are_probabilities_for_every_legal_move_and_know_a_sure_win():
    start = new_game(ROUTE, 3)
    response = best_response.values(start, Budget(10))
    assert set(response.values) == set(start.legal_actions())
    assert all(0.0 <= v <= 1.0 for v in response.values.values())
    # Returning on plate 3 with marker 30 while the others are still on plates 2 and 4 with one token (any
    # success eliminates them): getting home first, furthest ahead, is all but sure with a small announcement.
    near_home = position_state(
        ROUTE,
        [
            Camper(position=3, tokens=6, phase=Phase.RETURN, marker=30),
            Camper(position=2, tokens=1),
            Camper(position=4, tokens=1),
        ],
    )
    assert best_response.applies(near_home)
    values = best_response.values(near_home, Budget(10)).values
    assert max(values.values()) > 0.9


def test_the_model_applies_only_where_it_can_win_by_arriving_first():
    outward = position_state(
        ROUTE, [Camper(position=12, tokens=20), Camper(position=9, tokens=20), Camper(position=8, tokens=20)]
    )
    assert best_response.applies(outward)
    far = position_state(
        ROUTE, [Camper(position=31, tokens=20), Camper(position=9, tokens=20), Camper(position=8, tokens=20)]
    )
    assert not best_response.applies(far)  # beyond MAX_RACE_PLATE - MIN_ROOM
    passed = position_state(
        ROUTE,
        [
            Camper(position=12, tokens=6, phase=Phase.RETURN, marker=20),
            Camper(position=24, tokens=20),
            Camper(position=8, tokens=20),
        ],
    )
    assert not best_response.applies(passed)  # another camper is already beyond the marker


def test_values_check_the_budget():
    state = new_game(ROUTE, 3)
    best_response.warm_up(ROUTE)
    spent = Budget(1e-6)
    time.sleep(0.001)
    with pytest.raises(SolveInterrupted):
        best_response.values(state, spent)


def _record(opponent, games: int, campers: int = 3, seed: int = 0, specials=ROUTE):
    """Seeded games of `opponent` in every seat: each decision state with its move, game by game."""
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        state = new_game(specials, campers)
        record = []
        while not state.game_over:
            if state.current_player() >= 0:
                action = opponent(state)
                record.append(Decision(state, action))
                state = state.child(action)
            else:
                state = state.child(sample_outcome(state, rng))
        yield record


def test_solo_campers_are_recognised_after_two_decisions_and_the_rules_of_thumb_never():
    """The style read from the record of 12 seeded games a style, at the first 12 decisions and at every tenth
    after (each camper's own decisions only): the solo policy from its second decision on; announce-7, greedy
    and race at no point."""
    for name, opponent in PLAYERS.items():
        if name == "racer":
            continue
        for record in _record(opponent, 12, seed=100):
            for cut in [*range(12), *range(12, len(record) + 1, 10)]:
                prefix = record[:cut]
                for camper in range(3):
                    decisions = sum(d.state.to_move == camper for d in prefix)
                    recognised = plays_solo_policy(prefix, camper)
                    if opponent is solo_optimal:
                        assert recognised == (decisions >= MIN_DECISIONS)
                    else:
                        assert not recognised, (name, cut, camper)


def test_a_solo_field_needs_two_other_campers_playing_the_solo_policy():
    record = next(_record(solo_optimal, 1, seed=3))
    late = record[12]
    assert solo_field(late.state, record[:12])
    assert not solo_field(late.state, [])  # no record: nothing is known
    mixed = [d if d.state.to_move != 1 else Decision(d.state, announce_seven(d.state)) for d in record[:12]]
    assert not solo_field(late.state, mixed)  # camper 1 announced 7 where the solo policy would not
    two = next(_record(solo_optimal, 1, campers=2, seed=3))
    assert not solo_field(two[8].state, two[:8])  # one other camper: the last-camper rule decides, not modelled


def test_a_bad_record_is_refused_naming_the_decision():
    record = next(_record(greedy, 1, seed=5))
    state = record[-1].state
    check_record(record[:-1], state)
    illegal = [*record[:3], Decision(record[3].state, Announce(11))]
    with pytest.raises(ValueError, match=r"^history\[3\]\.move"):
        check_record(illegal, state)
    other_game = next(_record(greedy, 1, campers=2, seed=5))
    with pytest.raises(ValueError, match=r"^history\[0\]\.state\.campers"):
        check_record(other_game[:1], state)
    with pytest.raises(ValueError, match=r"^history\[0\]\.state\.rules"):
        check_record([Decision(new_game(all_normal(plate_count=40), 3), Announce(3))], state)


def test_the_hint_plays_the_best_response_where_the_record_shows_solo_campers():
    """With the record of two solo-policy opponents the hint ranks every legal move by the model (all
    evaluated, best first, losses against the best) and within its budget; with no record it plays out the
    race against the mixture; against greedy opponents' record as well."""
    best_response.warm_up(ROUTE)
    record = next(_record(solo_optimal, 1, seed=11))
    decision = next(d for d in record[6:] if d.state.to_move == 0 and best_response.applies(d.state))
    prefix = record[: record.index(decision)]
    result = hint(decision.state, Budget(5), options=HintOptions(history=prefix))
    assert result.method == BEST_RESPONSE_METHOD
    assert {m.action for m in result.moves} == set(decision.state.legal_actions())
    values = [m.value for m in result.moves]
    assert values == sorted(values, reverse=True) and all(0.0 <= v <= 1.0 for v in values)
    assert all(m.evaluated and m.loss == pytest.approx(values[0] - m.value) for m in result.moves)
    expected = best_response.values(decision.state).values
    assert {m.action: m.value for m in result.moves} == pytest.approx(expected)
    assert "the game's history shows every other camper playing the solo policy" in opponents_played(
        decision.state, prefix
    )
    assert (
        hint(decision.state, Budget(5), options=HintOptions(history=(), max_playouts=8)).method != BEST_RESPONSE_METHOD
    )
    greedy_record = next(_record(greedy, 1, seed=11))
    greedy_decision = next(d for d in greedy_record[6:] if d.state.to_move == 0)
    greedy_prefix = greedy_record[: greedy_record.index(greedy_decision)]
    assert (
        hint(greedy_decision.state, Budget(5), options=HintOptions(history=greedy_prefix, max_playouts=8)).method
        != BEST_RESPONSE_METHOD
    )


@pytest.mark.timing
def test_the_best_response_hint_answers_within_its_budget():
    best_response.warm_up(ROUTE)
    record = next(_record(solo_optimal, 1, seed=13))
    for i, decision in enumerate(record[6:40], start=6):
        if decision.state.to_move != 0:
            continue
        budget = Budget(0.2)
        with Timed() as timed:
            result = hint(decision.state, budget, options=HintOptions(history=record[:i]))
        assert timed.within(0.2, 0.1), (i, result.method, timed.explain(0.2, 0.1))
        assert result.best.action in decision.state.legal_actions()


def test_a_turn_back_is_valued_like_the_best_return_plan():
    """Turning back now is worth the best return plan from this plate and tokens (marker = this plate)."""
    state = position_state(
        ROUTE, [Camper(position=14, tokens=12), Camper(position=5, tokens=22), Camper(position=4, tokens=23)]
    )
    values = best_response.values(state, Budget(10)).values
    win = best_response.win_by_arrival(state)
    outcomes = best_response.return_outcomes(ROUTE.plate_count)[:, 14, 12]
    arrive = np.zeros(outcomes.shape[1:])
    for turns in range(1, best_response.HORIZON + 1):
        for loss in range(best_response.MAX_LOSS + 1):
            if 14 - loss > 0:
                arrive[turns, loss] = win[turns - 1, 14 - loss]
    plans = np.einsum("atd,td->a", outcomes, arrive)
    assert values[TurnBack()] == pytest.approx(float(plans.max()))


def test_a_fixed_reach_is_beaten_as_the_rules_model_ends_the_game():
    """For campers whose reach is fixed (returning, finished, eliminated), "the mover arriving with score s is
    ahead" is exactly the rules model's arrival rule (`_furthest_ahead`): a finished camper's score is beaten
    also by a tie (the later arrival wins it), a returning camper's marker only when passed."""
    for other in (
        Camper(position=5, tokens=3, phase=Phase.RETURN, marker=14),
        Camper(phase=Phase.FINISHED, marker=16, tokens=2, arrival=1),
        Camper(phase=Phase.ELIMINATED),
    ):
        state = position_state(ROUTE, [Camper(position=3, tokens=4), other])
        ahead = best_response.reach_below(state, 1, 2)
        for score in range(1, 30):
            arrived = position_state(
                ROUTE, [Camper(phase=Phase.FINISHED, marker=score, tokens=0, arrival=2), other, Camper()], to_move=2
            )  # the third yet to leave the start
            assert bool(ahead[0, score]) == arrived._furthest_ahead(0), (other.phase, score)
            assert (ahead[:, score] == ahead[0, score]).all()


def test_moves_the_model_does_not_cover_are_listed_without_a_value():
    """On the return the model's plans announce at most 4-8 (or exactly the plates left): announcing 1-3 far
    from home is not valued, and the hint lists such moves last, not evaluated (a 0 would read as "never
    wins")."""
    best_response.warm_up(ROUTE)
    state = position_state(
        ROUTE,
        [
            Camper(position=18, tokens=12, phase=Phase.RETURN, marker=30),
            Camper(position=9, tokens=20),
            Camper(position=7, tokens=21),
        ],
    )
    assert best_response.applies(state)
    covered = best_response.values(state, Budget(10)).values
    assert set(covered) == {Announce(a) for a in range(4, 9)}
    record = next(_record(solo_optimal, 1, seed=11))[:9]
    assert solo_field(state, record)
    result = hint(state, Budget(5), options=HintOptions(history=record))
    assert result.method == BEST_RESPONSE_METHOD
    assert [m.action for m in result.moves if m.evaluated] == sorted(covered, key=lambda a: -covered[a])
    assert {m.action for m in result.moves if not m.evaluated} == set(state.legal_actions()) - set(covered)
