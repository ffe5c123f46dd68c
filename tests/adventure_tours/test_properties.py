"""Whole random games played by the rules model, with invariants checked after every step (hypothesis)."""

from campsolver.solver.adventure_tours.policies import greedy_action, random_action
from campsolver.solver.adventure_tours.rules import Config, MoneyFloor, Variation, new_game
from campsolver.solver.core.game import CHANCE, TERMINAL, sample_outcome
from campsolver.solver.core.seeding import rng_for
from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(3, 6),
    expert=st.booleans(),
    variation=st.sampled_from(list(Variation)),
    greedy_share=st.floats(0, 1),
    money_floor=st.sampled_from(list(MoneyFloor)),
)
def test_random_games_keep_every_invariant(
    seed: int, players: int, expert: bool, variation: Variation, greedy_share: float, money_floor: MoneyFloor
) -> None:
    config = Config(players, expert=expert, variation=variation, money_floor=money_floor)
    rng = rng_for(seed, "properties")
    state = new_game(config)
    totals = state.totals
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes and sum(p for _, p in outcomes) == 1
            state = state.child(sample_outcome(state, rng))
        else:
            legal = state.legal_actions()
            assert legal, state.step()
            if rng.random() < greedy_share:
                action = greedy_action(state)
                assert action in legal
            else:
                action = random_action(state, rng)
            state = state.child(action)
        counts = state.all_cards()
        assert len(counts) == len(config.deck) and set(counts.values()) == {1}  # cards conserved
        assert all(t >= 0 for t in state.totals)  # "no lower than 0 with his money"
        if state.totals != totals:  # a round was scored: its change is what the round score says
            assert [t - p for t, p in zip(state.totals, totals, strict=True)] == list(state.last_round)
        if money_floor is MoneyFloor.ROUND:
            assert all(t >= p for t, p in zip(state.totals, totals, strict=True))  # money never goes back
            assert all(s >= 0 for s in state.last_round)  # a round never costs money
        totals = state.totals
        if not state.over and not state.choosing:  # variation 2 hands boards over one by one
            assert len(set(state.seat_boards)) == players
    assert state.round_index == config.rounds - 1
    assert sum(state.last_round) <= sum(state.totals)
    assert state.config.money_floor is money_floor
