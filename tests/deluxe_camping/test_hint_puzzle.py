"""Hints (legal, ranked, within the budget, finding the obvious closing barrier) and fence puzzles (re-scored,
unique by re-solving, the answer kept apart from the statement)."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof
from campsolver.solver.deluxe_camping import hint as hints
from campsolver.solver.deluxe_camping import maximise as maxima
from campsolver.solver.deluxe_camping import puzzle as puzzles
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import Barrier, Config, DCState, Stage, parse_board

CLOSE_ME = """
+-----------+
|A . . . . .|
+ + + + + + +
|. . . . . .|
+-+-+-+-+-+ +
|. . . . . B|
+-----------+
"""


def assert_ranked(result: hints.HintResult) -> None:
    """Choices searched with the reply ply first, then one-turn ones, then unevaluated ones; each group best
    first (values of different depths are not comparable: the reply only lowers a value)."""
    depths = [m.depth for m in result.moves]
    assert depths == sorted(depths, reverse=True)
    for depth in (2, 1):
        values = [m.value for m in result.moves if m.depth == depth]
        assert None not in values and values == sorted(values, reverse=True)
    assert all(m.value is None for m in result.moves if m.depth == 0)


def test_hint_finds_the_barrier_that_closes_the_movers_site() -> None:
    state = parse_board(CLOSE_ME, stage=Stage.BARRIER)
    result = hints.hint(state, Budget(5))
    assert result.moves[0].action == Barrier((11, 17))
    assert result.moves[0].exact  # closing it ends the game: the value is the final margin
    assert {m.action for m in result.moves} == set(state.legal_actions())
    assert_ranked(result)


def reply_value(state: DCState, action: rules.Action, me: int) -> float:
    """The deepened value rebuilt from the rules model alone: the mover's action, then the next player stays
    put and places the barrier best for their own margin (every legal one tried), valued by the estimate."""
    after = state.child(action)
    if after.stage is Stage.OVER:
        return hints.utility(after.scores(), me, hints.HintObjective.MARGIN)
    stay = after.child(rules.Move(()))
    other = stay.to_move
    best = max(stay.legal_barriers(), key=lambda e: (hints.evaluate(stay.child(Barrier(e)), other,
                                                                      hints.HintObjective.MARGIN), [-x for x in e]))
    return hints.evaluate(stay.child(Barrier(best)), me, hints.HintObjective.MARGIN)


def test_deepened_values_are_the_next_players_best_reply() -> None:
    rng = np.random.default_rng(5)
    state = rules.random_setup(Config(players=2), rng)
    for _ in range(12):  # a few random turns into the game, at a free-barrier decision
        actions = state.legal_actions()
        state = state.child(actions[int(rng.integers(len(actions)))])
    while state.stage is not Stage.BARRIER:
        state = state.child(rules.Move(()))
    result = hints.hint(state, Budget(30))
    deep = [m for m in result.moves if m.depth == 2]
    assert len(deep) == min(hints.DEEPEN, len(result.moves)) and not result.interrupted
    for move in deep:
        assert move.value == pytest.approx(reply_value(state, move.action, state.to_move))


@pytest.mark.parametrize("players", [2, 4])
def test_hint_ranks_every_movement_within_its_budget(players: int) -> None:
    state = rules.random_setup(Config(players=players), np.random.default_rng(players))
    started = time.monotonic()
    result = hints.hint(state, Budget(1.0))
    elapsed = time.monotonic() - started
    assert elapsed < 1.0 + 0.25  # the budget holds (generous margin for a loaded CI machine)
    assert [m.action for m in result.moves if m.value is not None]
    assert {m.action for m in result.moves} == set(state.legal_actions())
    assert result.proof is Proof.HEURISTIC
    assert_ranked(result)


def test_hint_own_objective_ignores_the_opponents() -> None:
    state = parse_board(CLOSE_ME, stage=Stage.BARRIER)
    own = hints.hint(state, Budget(5), hints.HintObjective.OWN)
    assert own.moves[0].value == 12  # the closed site of 12 squares
    margin = hints.hint(state, Budget(5), hints.HintObjective.MARGIN)
    assert margin.moves[0].value == 12 - 6


def test_territory_estimate_is_exact_on_a_finished_board() -> None:
    state = parse_board(CLOSE_ME, stage=Stage.BARRIER).child(Barrier((11, 17)))
    assert hints.territory_scores(state) == state.scores() == (12, 6)


@pytest.fixture(scope="module")
def puzzle() -> puzzles.Puzzle:
    return puzzles.generate(2, Budget(120))


@pytest.mark.slow
def test_puzzle_is_reproducible(puzzle: puzzles.Puzzle) -> None:
    again = puzzles.generate(2, Budget(120))
    assert again.state == puzzle.state and again.solution == puzzle.solution


def test_puzzle_is_rescored(puzzle: puzzles.Puzzle) -> None:
    assert len(puzzle.solution) <= puzzle.barriers
    board = maxima.final_board(puzzle.state, puzzle.solution)
    assert board.scores()[puzzle.player] == puzzle.points
    assert puzzle.proof is Proof.OPTIMAL and puzzle.unique


def test_puzzle_optimum_is_unique_by_re_solving(puzzle: puzzles.Puzzle) -> None:
    other = maxima.maximise(puzzle.state, Budget(60), player=puzzle.player, forbid=[puzzle.solution])
    assert other.proof in (Proof.OPTIMAL, Proof.INFEASIBLE)
    assert other.value is None or other.value < puzzle.points


def test_puzzle_statement_keeps_the_answer_apart(puzzle: puzzles.Puzzle) -> None:
    assert "#" not in puzzle.text and "=" not in puzzle.text  # new barriers are drawn only in the solution
    assert "#" in puzzle.solution_text or "=" in puzzle.solution_text
    assert puzzle.question in puzzle.text
    for picture in (puzzle.svg, puzzle.solution_svg):
        ET.fromstring(picture)
    assert puzzle.svg != puzzle.solution_svg
    assert rules.parse_board(puzzle.text.split("\n", 2)[2], supply=puzzle.state.config.supply) is not None


def test_hint_answers_even_when_the_budget_is_spent_before_any_choice_is_valued() -> None:
    state = rules.random_setup(Config(players=2), np.random.default_rng(0))
    result = hints.hint(state, Budget(1e-6))
    assert result.interrupted
    assert {m.action for m in result.moves} == set(state.legal_actions())
    assert_ranked(result)


# --- securable-score leaves (CP-SAT) ---------------------------------------------------------------------------

SMALL = Config(rows=6, cols=6, players=2, trailers=2, supply=24)


def small_position(seed: int, turns: int) -> DCState:
    """A seeded small board a few random turns into the game (CP-SAT proves its leaves quickly)."""
    rng = np.random.default_rng(seed)
    state = rules.random_setup(SMALL, rng)
    for _ in range(turns):
        if state.stage is Stage.OVER:
            break
        actions = state.legal_actions()
        state = state.child(actions[int(rng.integers(len(actions)))])
    return state


def replay(state: DCState, line: tuple[rules.Action, ...]) -> DCState:
    """The leaf of a searched choice rebuilt by the rules model: every action legal where it is played."""
    for action in line:
        assert action in state.legal_actions()
        state = state.child(action)
    return state


@pytest.mark.parametrize("objective", list(hints.HintObjective))
@pytest.mark.parametrize("seed", [1, 2])
def test_securable_leaf_values_are_maximise_values_at_the_rebuilt_leaf(
    seed: int, objective: hints.HintObjective, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hints, "LEAF_LIMIT_S", 5.0)  # long enough to prove each leaf of the small board
    monkeypatch.setattr(hints, "_LEAF_CACHE", {})
    state = small_position(seed, 6)
    me = state.to_move
    result = hints.hint(state, Budget(60), objective, leaf=hints.Leaf.SECURABLE)
    assert {m.action for m in result.moves} == set(state.legal_actions())
    securable = (hints.ValueKind.SECURABLE_OPTIMAL, hints.ValueKind.SECURABLE_FOUND)
    secured = [m for m in result.moves if m.kind in securable]
    assert secured and result.leaves_solved == len(secured)
    for move in secured:
        assert move.line[0] == move.action
        leaf = replay(state, move.line)
        again = maxima.maximise(leaf, Budget(30), player=me, objective=hints._OBJECTIVE_TO_MAX[objective])
        assert again.proof is Proof.OPTIMAL
        if move.kind is hints.ValueKind.SECURABLE_OPTIMAL:
            assert move.value == again.value == move.bound
        else:  # a partition's value: at most the optimum, which is at most CP-SAT's bound
            assert move.value <= again.value <= move.bound
    assert result.leaves_proven == sum(m.kind is hints.ValueKind.SECURABLE_OPTIMAL for m in result.moves) > 0


def assert_kinds(result: hints.HintResult) -> None:
    """Every evaluated choice has a value of a stated kind; groups in order, each best first."""
    for move in result.moves:
        assert (move.value is None) == (move.kind is hints.ValueKind.NONE)
        if move.kind is hints.ValueKind.SECURABLE_FOUND:
            assert move.bound is not None and move.bound >= move.value
    groups = [hints.comparison_group(m, result.leaf) for m in result.moves]
    assert groups == sorted(groups)
    for group in set(groups) - {max(hints._GROUP.values())}:
        values = [m.value for m, g in zip(result.moves, groups, strict=True) if g == group]
        assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("players", [2, 4])
def test_securable_hint_answers_within_its_budget_on_the_default_board(players: int) -> None:
    rng = np.random.default_rng(10 + players)
    state = rules.random_setup(Config(players=players), rng)
    for stage in (Stage.MOVE, Stage.BARRIER):
        while state.stage is not stage:
            state = state.child(rules.Move(()))
        started = time.monotonic()
        result = hints.hint(state, Budget(0.6), leaf=hints.Leaf.SECURABLE)
        assert time.monotonic() - started < 0.6 + 0.1  # the overrun goal is 50 ms; margin for a loaded machine
        assert {m.action for m in result.moves} == set(state.legal_actions())
        assert result.leaves_solved > 0
        assert_kinds(result)


def test_estimate_hint_values_say_their_kind() -> None:
    state = small_position(3, 4)
    result = hints.hint(state, Budget(5))
    assert result.leaf is hints.DEFAULT_LEAF
    assert_kinds(result)
    kinds = {m.kind for m in result.moves}
    assert hints.ValueKind.SEARCHED in kinds or hints.ValueKind.EXACT in kinds
