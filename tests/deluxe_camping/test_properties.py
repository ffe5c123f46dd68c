"""Whole random games played to the end by the rules model, invariants checked at every step (hypothesis)."""

from __future__ import annotations

import itertools

import numpy as np
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import Barrier, Config, Move, Stage
from hypothesis import assume, given, settings
from hypothesis import strategies as st

SETTINGS = settings(max_examples=25, deadline=None)


def all_step_sequences(state: rules.DCState) -> set[tuple]:
    """Every movement by brute force over step sequences (up to two orthogonal steps), through `child`."""
    squares = range(state.config.squares)
    results = set()
    table = rules.neighbour_table(state.config.rows, state.config.cols)
    singles = [(a, b) for a in squares for b in squares if b in table[a]]
    for length in (0, 1, 2):
        for steps in itertools.product(singles, repeat=length):
            try:
                after = state.child(Move(tuple(steps)))
            except rules.IllegalAction:
                continue
            results.add((after.trailers[state.to_move], after.nuisance))
    return results


def play_to(state: rules.DCState, stage: Stage, wanted: int, rng: np.random.Generator) -> rules.DCState | None:
    """Play random legal actions and stop at the `wanted`-th state (from 0) at `stage`; when the game ends first,
    the last state it had at that stage; None only when the game never reached that stage.

    The property tests below play to the stage they test instead of returning early when a random number of
    actions lands elsewhere: every example they draw asserts."""
    seen = None
    reached = 0
    while state.stage is not Stage.OVER:
        if state.stage is stage:
            seen = state
            if reached == wanted:
                return state
            reached += 1
        actions = state.legal_actions()
        state = state.child(actions[int(rng.integers(len(actions)))])
    return seen


def check_invariants(state: rules.DCState, before: rules.DCState) -> None:
    config = state.config
    # pieces conserved: same counts, bungalows, pool and stands never move
    assert state.bungalows == before.bungalows and state.pool == before.pool
    assert state.ice_creams == before.ice_creams
    assert [len(t) for t in state.trailers] == [config.trailers] * config.players
    squares = [*state.bungalows, *itertools.chain(*state.trailers), state.pool, state.nuisance, *state.ice_creams]
    assert len(set(squares)) == len(squares)  # no square holds two pieces
    # barriers only added, within supply, every region holds a trailer or bungalow
    assert before.barriers <= state.barriers and len(state.barriers) <= config.supply
    assert all(site.owners for site in state.sites)
    # no two pieces of different players side by side without a barrier
    assert not rules.automatic_barriers(config, state.owner_at, state.barriers)
    # allotment is never undone
    for square in before.owner_at:
        if before.allotted(square) is not None:
            moved = square in state.owner_at
            assert not moved or state.allotted(square) == before.allotted(square)
    # a stopped player never moves and never is to move
    if state.stage in (Stage.MOVE, Stage.BARRIER):
        assert not state.stopped(state.to_move)
    # the free barrier exists exactly when the cheap test says so
    if state.stage is Stage.BARRIER:
        assert state.has_free_barrier() == bool(state.legal_barriers())
    if state.stage is Stage.MOVE:
        assert state.has_free_barrier() == bool(state.legal_barriers())


@SETTINGS
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), supply=st.sampled_from([60, 25, 8]))
def test_random_games_keep_every_invariant(seed: int, players: int, supply: int) -> None:
    rng = np.random.default_rng(seed)
    config = Config(rows=6, cols=6, players=players, trailers={2: 3, 3: 2, 4: 1}[players], supply=supply)
    state = rules.random_setup(config, rng)
    rules.validate(state)
    steps = 0
    while state.stage is not Stage.OVER:
        actions = state.legal_actions()
        assert actions and len(set(actions)) == len(actions)
        before = state
        state = state.child(actions[int(rng.integers(len(actions)))])
        check_invariants(state, before)
        steps += 1
        assert steps < 10_000
    assert state.supply_left == 0 or all(state.stopped(p) for p in range(players)) or state.idle_turns >= 1
    assert sum(state.scores()) <= 2 * config.squares + 10


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 12))
def test_listed_movements_are_exactly_the_brute_force_ones(seed: int, turns: int) -> None:
    rng = np.random.default_rng(seed)
    state = play_to(
        rules.random_setup(Config(rows=5, cols=5, players=2, trailers=2, supply=40), rng), Stage.MOVE, turns, rng
    )
    assume(state is not None)  # a game that never reached a movement (not seen in practice) is not an example
    assert state.stage is Stage.MOVE
    listed = set()
    for move in state.legal_moves():
        after = state.child(move)
        listed.add((after.trailers[state.to_move], after.nuisance))
    assert listed == all_step_sequences(state)
    assert len(listed) == len(state.legal_moves())  # one movement per distinct outcome


@SETTINGS
@given(seed=st.integers(0, 10_000))
def test_free_barriers_listed_are_exactly_those_leaving_no_empty_region(seed: int) -> None:
    rng = np.random.default_rng(seed)
    state = play_to(
        rules.random_setup(Config(rows=5, cols=5, players=2, trailers=2, supply=40), rng),
        Stage.BARRIER,
        int(rng.integers(0, 8)),
        rng,
    )
    assume(state is not None)  # a game with no free-barrier decision at all is not an example
    assert state.stage is Stage.BARRIER
    expected = set()
    for edge in rules.all_edges(state.config.rows, state.config.cols):
        if edge in state.barriers or state.allotted(edge[0]) is not None:
            continue
        regions = rules.regions(state.config, state.barriers | {edge})
        owners: dict[int, set[int]] = {}
        for square, label in enumerate(regions):
            owners.setdefault(label, set())
            if square in state.owner_at:
                owners[label].add(state.owner_at[square])
        if all(owners.values()):
            expected.add(edge)
    assert set(state.legal_barriers()) == expected
    for edge in expected:
        state.child(Barrier(edge))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), strict=st.booleans(), optional=st.booleans())
def test_random_games_under_the_free_barrier_variants(seed: int, strict: bool, optional: bool) -> None:
    # Whole random games under the named variants: under strict colours no free barrier ever goes between one
    # player's own pieces (while the free barrier stays available whenever the default would offer one); under
    # the optional free barrier, leaving it out is offered at every free-barrier decision and only then.
    rng = np.random.default_rng(seed)
    config = Config(
        rows=5, cols=5, players=2, trailers=2, supply=20, strict_colours=strict, optional_free_barrier=optional
    )
    state = rules.random_setup(config, rng)
    steps = 0
    while state.stage is not Stage.OVER:
        actions = state.legal_actions()
        assert actions and len(set(actions)) == len(actions)
        if state.stage is Stage.BARRIER:
            assert (Barrier(None) in actions) is optional
            edges = [a.edge for a in actions if isinstance(a, Barrier) and a.edge is not None]
            assert edges  # the turn only stops at BARRIER when a free barrier is legal
            owners = state.owner_at
            own = [(a, b) for a, b in edges if a in owners and owners.get(b) == owners[a]]
            assert not (strict and own)
        state = state.child(actions[int(rng.integers(len(actions)))])
        steps += 1
        assert steps < 10_000
