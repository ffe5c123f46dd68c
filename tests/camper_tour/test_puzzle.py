"""Puzzles: deterministic, legal, unique by the margin under an independent re-solve, graded."""

import pytest
from campsolver.solver.camper_tour.hint import _SearchNode, leaf_values
from campsolver.solver.camper_tour.puzzle import (
    DEFAULT_MARGIN,
    OPPONENT_DEPTH,
    Grade,
    budgeting_heuristic,
    generate,
    grade_for,
)
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import Proof
from campsolver.solver.core.expectimax import expectimax


def independent_values(puzzle):
    """Solo: brute-force expectimax on the rules model (not the solo DP). Opponent: the plain search."""
    state = puzzle.state
    if len(state.campers) == 1:
        result = expectimax(state, budget=Budget(60))
    else:
        result = expectimax(_SearchNode(state), budget=Budget(60), max_depth=OPPONENT_DEPTH,
                            leaf_value=lambda n: leaf_values(n.state))
    return {alt.action: alt.values[0] for alt in result.alternatives}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_puzzle_is_deterministic_unique_and_rechecked(seed):
    puzzle = generate(seed, Budget(30))
    assert generate(seed, Budget(30)) == puzzle
    assert puzzle.solution in puzzle.state.legal_actions()
    values = independent_values(puzzle)
    ranked = sorted(values.values(), reverse=True)
    assert max(values, key=values.get) == puzzle.solution
    assert ranked[0] - ranked[1] >= DEFAULT_MARGIN
    assert ranked[0] - ranked[1] == pytest.approx(puzzle.margin, abs=1e-9)
    expected_proof = Proof.EXACT if len(puzzle.state.campers) == 1 else Proof.HEURISTIC
    assert puzzle.evidence.proof == expected_proof


def test_grade_comes_from_the_heuristic_loss():
    puzzle = generate(5, Budget(30), grade=Grade.HARD)
    assert puzzle.grade == Grade.HARD
    heuristic = budgeting_heuristic(puzzle.state)
    loss = next(m.loss for m in puzzle.evidence.moves if m.action == heuristic)
    assert loss == puzzle.evidence.heuristic_loss and grade_for(loss) == Grade.HARD and loss > 0
    assert grade_for(0.0) == Grade.EASY and grade_for(10.0) == Grade.EXPERT
