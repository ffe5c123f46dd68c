"""The territory board behind the hint: incremental values equal values from scratch, legal barriers equal the
rules model's."""

from __future__ import annotations

import numpy as np
import pytest
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.deluxe_camping import rules, territory
from campsolver.solver.deluxe_camping.rules import Barrier, Config, Stage


def random_positions(config: Config, seed: int, games: int) -> list[rules.DCState]:
    """Every decision state of `games` random games from random setups."""
    rng = rng_for(seed, "territory board test")
    found = []
    for _ in range(games):
        state = rules.random_setup(config, rng)
        while state.stage is not Stage.OVER:
            found.append(state)
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
    return found


CONFIGS = [Config(players=2), Config(players=3, rows=6, cols=7, supply=30), Config(players=4, rows=8, cols=8)]


@pytest.mark.parametrize("config", CONFIGS, ids=["2p", "3p-6x7", "4p-8x8"])
def test_incremental_values_equal_values_from_scratch(config: Config) -> None:
    rng = np.random.default_rng(5)
    checked = 0
    for state in random_positions(config, 11, 2)[::3]:
        board = territory.board_of(state)
        assert board.features() == territory.features(
            state.config,
            state.owner_at,
            territory.barrier_ids(state),
            state.pool,
            state.ice_creams,
            state.nuisance,
            state.supply_left,
        )
        actions = state.legal_actions()
        for i in rng.choice(len(actions), min(6, len(actions)), replace=False):
            action = actions[int(i)]
            child = state.child(action)
            if isinstance(action, Barrier):
                got = board.with_barrier(territory.edge_id(config.squares, action.edge))
            else:
                change = territory.move_change(state, action)
                got = board.after(change.trailers, change.blocked, change.nuisance)
            assert got == territory.state_features(child), (action, state)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("config", CONFIGS, ids=["2p", "3p-6x7", "4p-8x8"])
def test_legal_barriers_equal_the_rules_models(config: Config) -> None:
    for state in random_positions(config, 12, 2)[::2]:
        if state.stage is not Stage.BARRIER:
            continue
        n = config.squares
        want = sorted(territory.edge_id(n, e) for e in state.legal_barriers())
        assert territory.board_of(state).legal_barriers() == want


def test_strict_colours_legal_barriers_equal_the_rules_models() -> None:
    config = Config(players=2, rows=6, cols=6, trailers=3, supply=30, strict_colours=True)
    for state in random_positions(config, 13, 3):
        if state.stage is Stage.BARRIER:
            want = sorted(territory.edge_id(config.squares, e) for e in state.legal_barriers())
            assert territory.board_of(state).legal_barriers() == want


def test_a_move_of_the_pain_in_the_neck_only_moves_its_penalty() -> None:
    state = rules.random_setup(Config(players=2), rng_for(3, "nuisance move"))
    moves = [
        m
        for m in state.legal_moves()
        if m.steps and all(a == state.nuisance or a in {b for _, b in m.steps} for a, _ in m.steps[:1])
    ]
    assert moves
    for move in moves[:5]:
        change = territory.move_change(state, move)
        got = territory.board_of(state).after(change.trailers, change.blocked, change.nuisance)
        assert got == territory.state_features(state.child(move))


@pytest.mark.parametrize("config", CONFIGS, ids=["2p", "3p-6x7", "4p-8x8"])
def test_allotted_points_are_the_rules_models_scores(config: Config) -> None:
    """The board's own region scoring (the reply search's final values) against the rules model's `scores()`, at
    every state of random games, and every finished game is `over` on the board."""
    rng = rng_for(21, "territory vs rules scores")
    ends = 0
    for _ in range(3):
        state = rules.random_setup(config, rng)
        while True:
            found = territory.state_features(state)
            assert found.allotted == pytest.approx([float(s) for s in state.scores()]), state
            if state.stage is Stage.OVER:
                assert found.over
                ends += 1
                break
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
    assert ends == 3
