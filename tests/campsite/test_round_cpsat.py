"""The whole-round CP-SAT model (`round_cpsat`): an engine independent of the branch and bound's search and bound.

Checked three ways: every legal round (random play through the rules model, tents included) is a solution of the
model and the model scores it exactly as the rules model does (so no legal play is cut and the objective is the
round score); on tiny rounds its proven optimum equals the exhaustive 2-turn search and the branch and bound on
3 turns (two engines that share no search code); OPTIMAL is claimed only from the solver's status and only over
the whole reachable window.
"""

from __future__ import annotations

import random

import pytest
from campsolver.solver.campsite import round_cpsat as RC
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.best_round import best_round
from campsolver.solver.core import cpsat
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.proof import Proof

from tests.campsite.test_best_round import dense_order, exhaustive_two_turns, legal_round, replay_score


def random_legal_round(order: list[R.Card], turns: int, rng: random.Random) -> list[tuple[R.Placement, R.Tent]]:
    """Random legal play of a solo round by the rules model, with a hand of three and every token."""
    return legal_round(order, turns, 3, list(R.Token), rng)


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow), pytest.param(2, marks=pytest.mark.slow)])
def test_every_legal_round_is_a_solution_scored_as_the_rules_model(seed: int) -> None:
    rng = random.Random(seed)
    order = list(R.default_deck())
    rng.shuffle(order)
    turns = 3
    plays = random_legal_round(order, turns, rng)
    round_model = RC.build_round_model(order, turns)
    assert round_model.whole
    wanted = {(turn, p.card, tuple(sorted(p.squares().items()))) for turn, (p, _) in enumerate(plays, start=1)}
    matched = 0
    for lay, var in round_model.lays:
        chosen = (lay.turn, order[lay.index], tuple(sorted(lay.squares))) in wanted
        matched += chosen
        round_model.model.add(var == int(chosen))
    assert matched == turns  # every placement of the round is one of the model's placement Booleans
    tents = {(tent.token, tent.cell) for _, tent in plays}
    for key, var in round_model.tents.items():
        round_model.model.add(var == int(key in tents))
    result = cpsat.solve(round_model.model, Budget(60))
    assert result.proof is Proof.OPTIMAL  # feasible: nothing legal is cut
    table = R.table_from_placements(
        [*R.starting_table(order[0], order[1]).placements, *(p for p, _ in plays)], [t for _, t in plays]
    )
    assert round(result.objective) == R.player_scores(table, 1)[0]


@pytest.mark.parametrize("seed", [1, pytest.param(0, marks=pytest.mark.slow), pytest.param(2, marks=pytest.mark.slow)])
def test_two_turn_optimum_equals_exhaustive_search(seed: int) -> None:
    order = dense_order(seed)
    tokens = [R.Token.DESERT, R.Token.FOREST]
    found = RC.solve_round(order, 2, Budget(300), hand_size=1, tokens=tokens)
    assert found.proof is Proof.OPTIMAL and found.status == cpsat.cp_model.OPTIMAL
    assert replay_score(order, found.plays, 1, tokens) == found.score
    assert found.score == exhaustive_two_turns(order, 1, tokens)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_three_turn_optimum_equals_the_branch_and_bound(seed: int) -> None:
    """An independent check of the branch and bound's 3-turn proofs (CP-SAT 9-28 s idle, the branch and bound 0.2 s)."""
    order = dense_order(seed)
    tokens = [R.Token.DESERT, R.Token.FOREST, R.Token.WILDERNESS]
    found = RC.solve_round(order, 3, Budget(900), hand_size=1, tokens=tokens)  # ~30 s idle; slack for load
    assert found.proof is Proof.OPTIMAL
    assert replay_score(order, found.plays, 1, tokens) == found.score
    searched = best_round(order, 3, Budget(300), hand_size=1, tokens=tokens)
    assert searched.proof is Proof.EXACT
    assert searched.score == found.score


def test_a_partial_window_never_claims_a_proof() -> None:
    order = dense_order(1)
    tokens = [R.Token.DESERT, R.Token.FOREST]
    found = RC.solve_round(order, 2, Budget(60), hand_size=1, tokens=tokens, growth=2)
    assert not found.whole and found.proof is None
    if found.plays:
        assert replay_score(order, found.plays, 1, tokens) == found.score
        optimum = RC.solve_round(order, 2, Budget(300), hand_size=1, tokens=tokens)
        assert optimum.proof is Proof.OPTIMAL and found.score <= optimum.score


def test_a_spent_budget_gives_no_answer_and_no_proof() -> None:
    order = dense_order(1)
    with pytest.raises(SolveInterrupted):
        RC.solve_round(order, 2, Budget(1e-6), hand_size=1, tokens=[R.Token.DESERT, R.Token.FOREST])
