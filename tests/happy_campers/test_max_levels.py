"""The proof by card levels (`max_levels`) against the exhaustive oracle on tiny maps.

The levels partition the maps by the capped cards' points; a level or bound left out of the partition would
let CP-SAT "prove" a maximum below the true one. So each test starts the levels from a deliberately poor
incumbent (CP-SAT's first solution) and checks that they close with exactly the oracle's maximum, that the
answer replays through the rules model to its score, and that a bound they report is never below it.
"""

from __future__ import annotations

import pytest
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import solve
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import exhaustive, max_levels, max_models, maximise, rules
from campsolver.solver.happy_campers.rules import Challenge, Components
from ortools.sat.python import cp_model

TINY = Components(rows=3, cols=5)
ROLLS = 5
#: Card sets and the seeds of `instance` whose oracle maximum is a complete map found in about a second
#: (scanned once: most tiny sequences end incomplete, and the oracle takes up to 30 s on others).
LEVEL_CASES = [
    ((Challenge.PRIVACY,), (4, 9)),
    ((Challenge.TENT_TOGETHER,), (2, 8, 13)),
    ((Challenge.RIVER_TOWN,), (0, 4, 7)),
    ((Challenge.QUICK_PEE,), (3, 9, 12)),
    ((Challenge.PRIVACY, Challenge.DANGEROUS_ANIMALS), (0, 2, 3)),
    ((Challenge.RIVER_TOWN, Challenge.TENT_TOGETHER), (2, 6, 8)),
]
SOLVE_S = 20.0


def instance(seed: int, cards: tuple[Challenge, ...]):
    rng = rng_for(seed, "test_max_levels", "+".join(c.value for c in cards))
    rolls = [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(ROLLS, 2))]
    return TINY, rolls


def first_answer(problem: maximise.MaxProblem):
    """CP-SAT's first complete map (a poor incumbent on purpose) with its checked answer and the bound."""
    built = max_models._build_clairvoyant(problem, "complete")

    def first_only(solver: cp_model.CpSolver) -> None:
        maximise._configure(solver)
        solver.parameters.stop_after_first_solution = True

    result = solve(built.model, Budget(SOLVE_S), configure=first_only)
    if not result.has_solution:
        return built, None, None
    return built, maximise._checked_answer(problem, built, result), int(result.bound + 1e-6)


def _case_id(value: object) -> str:
    if isinstance(value, tuple) and value and isinstance(value[0], Challenge):
        return "+".join(card.value for card in value)
    return "seeds"


@pytest.mark.parametrize(("cards", "seeds"), LEVEL_CASES, ids=_case_id)
def test_levels_close_on_the_oracle_maximum(cards, seeds):
    """Would fail if a level, the rest problem or the level ceilings dropped a map: the levels, started from
    a poor incumbent, must end closed at exactly the oracle's maximum with a replayable answer."""
    checked = 0
    for seed in seeds:
        components, rolls = instance(seed, cards)
        oracle = exhaustive.clairvoyant_max(None, rolls, cards, components)
        if not rules.score(oracle.final_grid, cards, components).complete:
            continue  # an incomplete map (0) is phase B's business, not the levels'
        problem = maximise.MaxProblem(
            "clairvoyant",
            components,
            tuple(sorted(cards, key=lambda c: c.value)),
            rules.empty_grid(components),
            rolls=tuple(rolls),
        )
        # (Quick Pee alone is not split by default, `LEVEL_CARDS`, but its cap makes the split just as valid.)
        built, incumbent, bound = first_answer(problem)
        assert incumbent is not None and bound is not None
        proof = max_levels.prove_by_levels(
            problem,
            built,
            incumbent,
            incumbent[2],
            bound,
            Budget(SOLVE_S),
            workers=2,
            configure=maximise._configure,
            record=lambda result: None,
            check=lambda level_built, result, problem=problem: maximise._checked_answer(problem, level_built, result),
        )
        assert proof.closed, (seed, proof)
        assert proof.value == oracle.score == proof.bound, (seed, proof.value, oracle.score)
        grid = rules.empty_grid(components)
        for turn in proof.answer[1]:
            if turn.placement is not None:
                grid = rules.draw(grid, turn.placement, components)
        assert rules.score(grid, cards, components).total == proof.value
        checked += 1
    assert checked == len(seeds), checked


def test_levels_skip_nature_reserve_and_card_free_games():
    components, rolls = instance(0, ())
    for cards, expected in [
        ((Challenge.PRIVACY,), True),
        ((Challenge.PRIVACY, Challenge.NATURE_RESERVE), False),
        ((Challenge.DANGEROUS_ANIMALS,), False),
        ((Challenge.QUICK_PEE,), False),
        ((Challenge.QUICK_PEE, Challenge.RIVER_TOWN), True),
        ((), False),
    ]:
        start = rules.empty_grid(components)
        problem = maximise.MaxProblem("clairvoyant", components, cards, start, rolls=tuple(rolls))
        assert max_levels.levels_apply(problem) is expected, cards


def test_clairvoyant_max_through_the_levels_matches_the_oracle(monkeypatch):
    """End to end with the levels switched on and the main solve stopped at its first map (a poor incumbent),
    so that the answer and its OPTIMAL claim come from the levels: exactly the oracle's maximum, and the play
    replays to it."""
    monkeypatch.setattr(maximise, "LEVEL_PROOF", True)
    real_solve, real_levels = maximise.solve, maximise.prove_by_levels
    calls = []

    def first_map_only(model, budget, *, configure=None, **kwargs):
        def stop_at_first(solver: cp_model.CpSolver) -> None:
            configure(solver)
            solver.parameters.stop_after_first_solution = True

        return real_solve(model, budget, configure=stop_at_first if configure else None, **kwargs)

    def counted_levels(*args, **kwargs):
        calls.append(1)
        return real_levels(*args, **kwargs)

    monkeypatch.setattr(maximise, "solve", first_map_only)  # the levels solve through max_levels.solve
    monkeypatch.setattr(maximise, "prove_by_levels", counted_levels)
    for cards, seeds in (LEVEL_CASES[0], LEVEL_CASES[2]):
        for seed in seeds[:2]:
            components, rolls = instance(seed, cards)
            oracle = exhaustive.clairvoyant_max(None, rolls, cards, components)
            result = maximise.clairvoyant_max(None, rolls, cards, components, Budget(SOLVE_S))
            assert result.proof is not None and result.proof.value == "OPTIMAL", (cards, seed, result.proof)
            assert result.score == oracle.score == result.bound, (cards, seed, result.score, oracle.score)
            grid = rules.empty_grid(components)
            for placement in result.placements:
                grid = rules.draw(grid, placement, components)
            assert rules.score(grid, cards, components).total == result.score
    assert calls, "the main solve proved every case by itself: the levels were not exercised"


def test_levels_with_a_short_budget_report_a_valid_bound(monkeypatch):
    """Out of time, the levels must not claim a proof, and their bound must still be >= the oracle's maximum."""
    monkeypatch.setattr(maximise, "LEVEL_PROOF", True)
    cards, seeds = LEVEL_CASES[0]
    for seed in seeds:
        components, rolls = instance(seed, cards)
        oracle = exhaustive.clairvoyant_max(None, rolls, cards, components)
        if not rules.score(oracle.final_grid, cards, components).complete:
            continue
        result = maximise.clairvoyant_max(None, rolls, cards, components, Budget(0.05))
        if result.bound is not None:
            assert result.bound >= oracle.score, (seed, result.bound, oracle.score)
        if result.proof is not None and result.proof.value == "OPTIMAL":
            assert result.score == oracle.score
