"""The specialised hint search against the generic expectimax over the rules model (the reference).

Every root alternative (action order, every camper's value) and the exactness flag must agree, at depth 1
and 2, on seeded positions of every kind: openings on unrevealed stacks, fixed layouts with every special
plate, Unexpected Comforts choices, skipped turns, the last-camper rule and the race home.
"""

import pytest
from campsolver.solver.camper_tour.hint import _SearchNode, leaf_values
from campsolver.solver.camper_tour.rules import (
    Camper,
    Config,
    NoParkingReturn,
    Pending,
    Phase,
    PlateKind,
    TokenRule,
    TourState,
    new_game,
    position_state,
)
from campsolver.solver.camper_tour.search import search
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.expectimax import expectimax
from campsolver.solver.core.game import CHANCE, sample_outcome
from campsolver.solver.core.seeding import rng_for
from hypothesis import given, settings
from hypothesis import strategies as st

K = PlateKind
TOLERANCE = 1e-9
SMALL_STACK = Config(plate_count=24, starting_tokens=10, specials=tuple((k, 2) for k in K if k != K.NORMAL))
SMALL_LAYOUT = Config(
    plate_count=24,
    starting_tokens=10,
    layout=tuple(
        (K.NORMAL, K.NO_PARKING, K.VILLAGE_FESTIVAL, K.UNEXPECTED_COMFORTS, K.MECHANICAL_PROBLEM, K.NORMAL)[i % 6]
        for i in range(24)
    ),
)
# The named variants, and a supply short enough to bind ("take those you can"): 4 x 10 dealt, 43 in the box.
VARIANT_LAYOUT = Config(
    plate_count=24,
    starting_tokens=10,
    layout=SMALL_LAYOUT.layout,
    token_supply=43,
    no_parking_return=NoParkingReturn.AWAY_FROM_HOME,
)
CAPPED_STACK = Config(
    plate_count=24,
    starting_tokens=10,
    specials=SMALL_STACK.specials,
    token_rule=TokenRule.PER_CAMPER_CAP,
    no_parking_return=NoParkingReturn.AWAY_FROM_HOME,
)


def reference(state: TourState, depth: int):  # type: ignore[no-untyped-def]
    return expectimax(
        _SearchNode(state), budget=Budget(120), max_depth=depth, leaf_value=lambda node: leaf_values(node.state)
    )


def assert_same_as_reference(state: TourState, depth: int) -> None:
    expected = reference(state, depth)
    alternatives, stats = search(state, depth, Budget(120))
    assert [action for action, _ in alternatives] == [alt.action for alt in expected.alternatives]
    for (action, values), alt in zip(alternatives, expected.alternatives, strict=True):
        assert values == pytest.approx(alt.values, abs=TOLERANCE), action
    assert (not stats.used_leaf) == expected.exact


def random_position(config: Config, seed: int, *, max_steps: int = 60) -> TourState | None:
    """A decision state of 2-4 campers reached by seeded random play (None if the game ended first)."""
    rng = rng_for(seed, "camper-tour-search-test")
    state = new_game(config, int(rng.integers(2, 5)), first=int(rng.integers(0, 2)))
    for _ in range(int(rng.integers(1, max_steps))):
        if state.current_player() == CHANCE:
            state = state.child(sample_outcome(state, rng))
        elif state.current_player() >= 0:
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
        else:
            return None
    while state.current_player() == CHANCE:
        state = state.child(sample_outcome(state, rng))
    return state if state.current_player() >= 0 else None


def seeded_positions(config: Config, count: int, first_seed: int) -> list[TourState]:
    found: list[TourState] = []
    seed = first_seed
    while len(found) < count:
        state = random_position(config, seed)
        seed += 1
        if state is not None:
            found.append(state)
    return found


def ret(position: int, tokens: int, marker: int, pending: Pending = Pending.NONE) -> Camper:
    return Camper(position=position, tokens=tokens, phase=Phase.RETURN, marker=marker, pending=pending)


HAND_MADE = [
    # race home: arrivals that end the game, a blocked starting plate, negative tokens
    position_state(SMALL_LAYOUT, [ret(5, 2, 14), ret(9, 0, 14)]),
    position_state(SMALL_LAYOUT, [ret(4, 1, 8), Camper(position=1, tokens=4), ret(7, 3, 12)]),
    # the last-camper rule: a failed roll eliminates
    position_state(SMALL_LAYOUT, [ret(6, 3, 13), Camper(phase=Phase.FINISHED, marker=9, tokens=1, arrival=1)]),
    # a pending Unexpected Comforts choice, and an opponent who skips its next turn
    position_state(
        SMALL_LAYOUT,
        [
            Camper(position=4, tokens=3, pending=Pending.COMFORTS_CHOICE),
            Camper(position=11, tokens=6, pending=Pending.SKIP_TURN),
        ],
    ),
    # No Parking behind occupied plates (re-rolls) on both journeys
    position_state(SMALL_LAYOUT, [Camper(position=6, tokens=5), Camper(position=4, tokens=7), ret(3, 2, 10)]),
    position_state(SMALL_LAYOUT, [ret(12, 4, 18), Camper(position=6, tokens=8), Camper(position=7, tokens=2)]),
    position_state(VARIANT_LAYOUT, [ret(12, 1, 18), Camper(position=13, tokens=8), ret(8, 0, 20)]),
    # shortfalls on the return then a festival (plate 9), a binding supply, turning back on Comforts (plate 4)
    position_state(
        VARIANT_LAYOUT,
        [ret(11, 1, 19), Camper(position=6, tokens=14), Camper(position=7, tokens=13), Camper(position=5, tokens=14)],
    ),
    position_state(
        VARIANT_LAYOUT, [Camper(position=4, tokens=2, pending=Pending.COMFORTS_CHOICE), Camper(position=10, tokens=9)]
    ),
    # arrivals level with the others (announce 2, roll 3: score 14): a returner's marker and an outward camper's
    # plate at 14 keep the game going, a finished 14 does not (the later arrival wins the tie)
    position_state(SMALL_LAYOUT, [ret(3, 0, 15), ret(8, 2, 14)]),
    position_state(SMALL_LAYOUT, [ret(3, 0, 15), Camper(position=14, tokens=5)]),
    position_state(
        SMALL_LAYOUT, [ret(3, 0, 15), Camper(phase=Phase.FINISHED, marker=16, tokens=2, arrival=1), ret(9, 1, 12)]
    ),
]


@pytest.mark.parametrize("index", range(len(HAND_MADE)))
@pytest.mark.parametrize("depth", [1, 2])
def test_hand_made_positions_match_the_generic_expectimax(index, depth):
    assert_same_as_reference(HAND_MADE[index], depth)


@pytest.mark.parametrize(
    "config",
    [pytest.param(SMALL_STACK, marks=pytest.mark.slow), SMALL_LAYOUT, VARIANT_LAYOUT],
    ids=["stack", "layout", "variants"],
)
def test_random_positions_at_depth_2_match_the_generic_expectimax(config):
    for state in seeded_positions(config, 3, first_seed=100):
        assert_same_as_reference(state, 2)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 3), st.integers(0, 100_000))
def test_random_positions_at_depth_1_match_the_generic_expectimax(config_index, seed):
    # Only usable cases are generated: seeds are tried in turn until random play stops at a decision state,
    # so every example is checked (issue 13: no silent skips).
    config = [SMALL_STACK, SMALL_LAYOUT, Config(), CAPPED_STACK][config_index]
    (state,) = seeded_positions(config, 1, first_seed=seed)
    assert_same_as_reference(state, 1)


def test_a_finished_game_line_is_exact():
    # Both return and the race ends within three plies on every line: no leaf evaluation, EXACT.
    state = position_state(SMALL_LAYOUT, [ret(3, 1, 9), Camper(phase=Phase.FINISHED, marker=6, tokens=0, arrival=1)])
    _, stats = search(state, 4, Budget(60))
    assert not stats.used_leaf
    assert_same_as_reference(state, 4)


def test_search_stops_on_a_cancelled_budget_and_refuses_solo_games():
    budget = Budget(10)
    budget.cancel()
    with pytest.raises(SolveInterrupted):
        search(HAND_MADE[0], 2, budget)
    with pytest.raises(ValueError):
        search(position_state(SMALL_LAYOUT, [ret(5, 2, 14)]), 1)


END_GAMES = [
    # the last camper on the journey, returning, a finished camper ahead or behind
    position_state(SMALL_LAYOUT, [ret(5, 2, 9), Camper(phase=Phase.FINISHED, marker=6, tokens=1, arrival=1)]),
    position_state(
        SMALL_LAYOUT, [Camper(phase=Phase.FINISHED, marker=8, tokens=0, arrival=1), ret(4, 6, 12)], to_move=1
    ),
    # the last camper still outward with few tokens, two finished campers (3-camper table)
    position_state(
        SMALL_LAYOUT,
        [
            Camper(phase=Phase.FINISHED, marker=4, tokens=0, arrival=1),
            Camper(position=3, tokens=1),
            Camper(phase=Phase.FINISHED, marker=2, tokens=1, arrival=2),
        ],
        to_move=1,
    ),
    # a Festival plate (plate 3) and shortfalls on the way home, last camper
    position_state(SMALL_LAYOUT, [ret(6, 1, 10), Camper(phase=Phase.ELIMINATED, tokens=0)]),
]


@pytest.mark.parametrize("index", range(len(END_GAMES)))
def test_end_games_valued_exactly_from_the_rules_model_alone(index):
    """Issue 13: references that share nothing with the search: the generic expectimax over the bare rules
    model (no `_SearchNode`, no leaf values, no depth limit) values these small end games exactly; the
    search must reach the end on every line (EXACT) and give the same value for every move and camper."""
    state = END_GAMES[index]
    exact = expectimax(state, budget=Budget(120))
    assert exact.exact
    alternatives, stats = search(state, 30, Budget(120))
    assert not stats.used_leaf
    expected = {alt.action: alt.values for alt in exact.alternatives}
    assert {action for action, _ in alternatives} == set(expected)
    for action, values in alternatives:
        assert values == pytest.approx(expected[action], abs=TOLERANCE), action
