"""The rules model's fast paths for rollouts: `child_of_legal` gives `child`'s successor, the State-only `replace`
keeps equality and hashing, and the cached equipment levels are the sums the rulebook defines (hypothesis)."""

import pytest
from campsolver.solver.adventure_tours import rules
from campsolver.solver.adventure_tours.policies import random_action
from campsolver.solver.adventure_tours.rules import Config, MoneyFloor, Variation, new_game
from campsolver.solver.core.game import CHANCE, TERMINAL, sample_outcome
from campsolver.solver.core.seeding import rng_for
from hypothesis import given, settings
from hypothesis import strategies as st


def _levels_by_definition(state: rules.State, player: int) -> list[int]:
    cfg = state.config
    board = state.board(player)
    return [
        board.start[colour] + sum(cfg.value[c] for c in state.equipment[player] if cfg.colour[c] == colour)
        for colour in range(3)
    ]


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(3, 6),
    expert=st.booleans(),
    variation=st.sampled_from(list(Variation)),
    money_floor=st.sampled_from(list(MoneyFloor)),
)
def test_fast_successors_equal_the_checked_ones(
    seed: int, players: int, expert: bool, variation: Variation, money_floor: MoneyFloor
) -> None:
    state = new_game(Config(players, expert=expert, variation=variation, money_floor=money_floor))
    rng = rng_for(seed, "fast paths")
    while state.current_player() != TERMINAL:
        for player in range(players):
            assert [state.equipment_level(player, c) for c in range(3)] == _levels_by_definition(state, player)
        if state.current_player() == CHANCE:
            state = state.child(sample_outcome(state, rng))
            continue
        for action in state.legal_actions():
            fast, checked = state.child_of_legal(action), state.child(action)
            assert fast == checked and hash(fast) == hash(checked)
            assert fast.__dict__.keys() - {"_hash", "_levels"} == checked.__dict__.keys() - {"_hash", "_levels"}
        state = state.child(random_action(state, rng))


def test_replace_refuses_an_unknown_field_and_drops_the_caches() -> None:
    state = new_game(Config(3))
    hash(state)
    state.equipment_level(0, 0)
    copy = rules.replace(state, totals=(5, 0, 0))
    assert "_hash" not in copy.__dict__ and "_levels" not in copy.__dict__
    assert copy.totals == (5, 0, 0) and copy != state and copy.hands == state.hands
    with pytest.raises(TypeError, match="nonsense"):
        rules.replace(state, nonsense=1)
