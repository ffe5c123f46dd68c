"""The default hint (the reply search): every legal choice ranked, every line it shows legal in the rules model,
every value what its kind says (re-computed here from the rules model's positions), exact values equal to a
brute-force oracle, the budget kept in CPU terms."""

from __future__ import annotations

import time

import numpy as np
import pytest
from campsolver.solver.core.budget import Budget, CpuBudget
from campsolver.solver.core.proof import Proof
from campsolver.solver.deluxe_camping import hint as hints
from campsolver.solver.deluxe_camping import reply_search, rules, territory
from campsolver.solver.deluxe_camping.rules import Barrier, Config, DCState, Move, Stage

from tests.timing import Timed


def position(players: int, seed: int, turns: int, stage: Stage, config: Config | None = None) -> DCState:
    """A seeded position `turns` random decisions into the game, at the first `stage` decision after them."""
    rng = np.random.default_rng(seed)
    state = rules.random_setup(config or Config(players=players), rng)
    for _ in range(turns):
        if state.stage is Stage.OVER:
            break
        actions = state.legal_actions()
        state = state.child(actions[int(rng.integers(len(actions)))])
    while state.stage not in (stage, Stage.OVER):
        state = state.child(Move(()) if state.stage is Stage.MOVE else state.legal_actions()[0])
    assert state.stage is stage
    return state


def replay(state: DCState, line: tuple[rules.Action, ...], players: list[int] | None = None) -> DCState:
    """The line played by the rules model: every action legal where it is played (`players`: who played each)."""
    for action in line:
        if players is not None:
            players.append(state.to_move)
        state = state.child(action)  # raises IllegalAction when it is not legal
    return state


def margin(state: DCState, player: int, own: bool = False) -> float:
    """The reply search's estimate of a position, re-computed from scratch (the closure share as the search's)."""
    return reply_search.value_of(
        territory.state_features(state), player, own, reply_search.closure_weights(state.config.supply)
    )


def final_margin(state: DCState, player: int) -> float:
    scores = state.scores()
    return float(scores[player] - max(s for p, s in enumerate(scores) if p != player))


def assert_ranked(result: hints.HintResult) -> None:
    """Groups in order (after the reply or final, after the turn, after the movement, none), best first in
    each; a value iff a kind."""
    groups = [hints.comparison_group(m, result.leaf) for m in result.choices]
    assert groups == sorted(groups)
    for group in set(groups) - {3}:
        values = [m.value for m, g in zip(result.choices, groups, strict=True) if g == group]
        assert None not in values and values == sorted(values, reverse=True)
    for move in result.choices:
        assert (move.value is None) == (move.kind is hints.ValueKind.NONE)


def assert_honest(state: DCState, result: hints.HintResult) -> None:
    """Every value re-computed from the rules model's positions along its line: the estimate where it says
    estimate, the rules' final margin where the line ends the game."""
    me = state.to_move
    for move in result.choices:
        if move.value is None:
            continue
        players: list[int] = []
        leaf = replay(state, move.line, players)
        kind = move.kind
        if kind in (hints.ValueKind.EXACT, hints.ValueKind.LINE_FINAL):
            assert leaf.stage is Stage.OVER, move
            assert move.value == final_margin(leaf, me)
        elif kind is hints.ValueKind.REPLY:
            assert len(move.line) >= 2 and move.replies == 1
            assert players[0] == me and players[-1] != me  # the mover's turn, then the next player's reply
            assert move.value == pytest.approx(margin(leaf, me))
        elif kind is hints.ValueKind.TURN:
            assert move.value == pytest.approx(margin(leaf, me))
        elif kind is hints.ValueKind.MOVED:
            assert move.line == () and move.value == pytest.approx(margin(state.child(move.choice), me))
        else:
            raise AssertionError(f"the reply search gave a value of kind {kind}")


@pytest.mark.parametrize(
    ("players", "seed", "turns", "stage"),
    [
        (2, 1, 0, Stage.MOVE),
        (2, 2, 14, Stage.BARRIER),
        (2, 3, 40, Stage.MOVE),
        (2, 4, 60, Stage.BARRIER),
        (3, 5, 20, Stage.MOVE),
        (4, 6, 10, Stage.BARRIER),
        (4, 7, 30, Stage.MOVE),
    ],
)
def test_every_choice_ranked_every_line_legal_every_value_its_kind(
    players: int, seed: int, turns: int, stage: Stage
) -> None:
    state = position(players, seed, turns, stage)
    for budget in (CpuBudget(0.05), CpuBudget(0.6)):
        result = hints.hint(state, budget)
        assert result.leaf is hints.Leaf.REPLY is hints.DEFAULT_LEAF
        assert [m.choice for m in result.choices].count(result.choices[0].choice) == 1
        assert {m.choice for m in result.choices} == set(state.legal_actions())
        assert len(result.choices) == len(state.legal_actions())
        assert_ranked(result)
        assert_honest(state, result)
        assert result.choices[0].value is not None


def test_a_generous_budget_replies_to_every_choice() -> None:
    state = position(2, 8, 20, Stage.BARRIER)
    result = hints.hint(state, Budget(60))
    assert not result.interrupted and result.reply_plies == 1
    assert all(
        m.kind in (hints.ValueKind.REPLY, hints.ValueKind.LINE_FINAL, hints.ValueKind.EXACT) for m in result.choices
    )


def test_max_replies_zero_values_the_turns_only() -> None:
    state = position(2, 9, 20, Stage.BARRIER)
    result = hints.hint(state, Budget(60), options=hints.HintOptions(max_replies=0))
    assert result.reply_plies == 0 and all(m.replies == 0 for m in result.choices)
    assert_honest(state, result)


def last_barrier_position(stage: Stage) -> DCState:
    """A small board one barrier from the end of the supply."""
    config = Config(rows=5, cols=5, players=2, trailers=2, supply=10)
    for seed in range(200):
        rng = np.random.default_rng(seed)
        state = rules.random_setup(config, rng)
        while state.stage is not Stage.OVER and not (state.supply_left == 1 and state.stage is stage):
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
        if state.stage is stage and len(state.legal_actions()) > 3:
            return state
    raise AssertionError("no position one barrier from the end")


def test_exact_values_equal_a_brute_force_oracle_at_the_last_barrier() -> None:
    """The last barrier ends the game: every choice is valued by the rules' final margin, and at a movement by
    the best of every legal barrier after it (brute force here); the answer is EXACT."""
    for stage in (Stage.BARRIER, Stage.MOVE):
        state = last_barrier_position(stage)
        me = state.to_move
        result = hints.hint(state, Budget(60))
        assert result.proof is Proof.EXACT
        for move in result.choices:
            after = state.child(move.choice)
            if after.stage is Stage.OVER:
                oracle = final_margin(after, me)
            else:
                assert after.stage is Stage.BARRIER and after.to_move == me
                oracle = max(final_margin(after.child(Barrier(e)), me) for e in after.legal_barriers())
            assert move.exact and move.kind is hints.ValueKind.EXACT and move.value == oracle, move
        assert result.choices[0].value == max(m.value for m in result.choices)  # type: ignore[type-var]


def test_own_objective_values_the_movers_own_score() -> None:
    state = position(2, 10, 24, Stage.BARRIER)
    result = hints.hint(state, Budget(60), options=hints.HintOptions(hints.HintObjective.OWN))
    me = state.to_move
    for move in result.choices[:10]:
        leaf = replay(state, move.line)
        if move.kind is hints.ValueKind.REPLY:
            assert move.value == pytest.approx(margin(leaf, me, own=True))


@pytest.mark.parametrize("players", [2, 4])
def test_single_piece_reply_moves_are_legal_and_valued_as_played(players: int) -> None:
    state = position(players, 11, 12, Stage.MOVE)
    board = territory.board_of(state)
    me = state.to_move
    moves = reply_search.single_piece_moves(board, me)
    assert moves
    for move in moves:
        change = reply_search.change_on(board, move, me)
        child = state.child(move)  # legal by the rules model
        assert change is not None
        assert board.after(change.trailers, change.blocked, change.nuisance) == territory.state_features(child)


@pytest.mark.timing
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("stage", [Stage.MOVE, Stage.BARRIER])
def test_the_budget_holds_in_cpu_terms(players: int, stage: Stage) -> None:
    """The bench's 0.05 CPU-s a call and a 0.3 s wall budget: CPU spent at most the budget plus a few ms."""
    state = position(players, 12, 16, stage)
    started = time.process_time()
    result = hints.hint(state, CpuBudget(0.05))
    spent = time.process_time() - started
    assert spent <= 0.05 + 0.01, spent
    assert result.choices[0].value is not None
    with Timed() as timed:
        hints.hint(state, Budget(0.3))
    assert timed.within(0.3, 0.02), timed.explain(0.3, 0.02)


def test_a_tiny_budget_still_answers_every_choice() -> None:
    state = position(2, 13, 0, Stage.MOVE)
    result = hints.hint(state, Budget(1e-6))
    assert {m.choice for m in result.choices} == set(state.legal_actions())
    assert result.choices[0].rule_of_thumb and result.choices[0].choice == Move(())
    assert_ranked(result)


@pytest.mark.parametrize("stage", [Stage.MOVE, Stage.BARRIER])
def test_the_variants_strict_colours_and_optional_free_barrier(stage: Stage) -> None:
    config = Config(players=2, rows=7, cols=7, trailers=3, supply=30, strict_colours=True, optional_free_barrier=True)
    state = position(2, 14, 10, stage, config)
    result = hints.hint(state, Budget(60))
    assert {m.choice for m in result.choices} == set(state.legal_actions())
    assert_ranked(result)
    assert_honest(state, result)
    if stage is Stage.BARRIER:
        assert Barrier(None) in {m.choice for m in result.choices if m.value is not None}
