"""Happy Campers clairvoyant maxima: the proof by card levels.

With Privacy, Tent Together, River Town or Quick Pee the main model's bound sits at "most base score plus
every card at its cap" (about 45 + cap on the 5x9 map): its linear relaxation cannot tie "the card scores
a lot" to "the map then loses base points", and CP-SAT's search rarely closes that gap. Splitting the
question on the cards' points does: for each level v of the capped cards' points (the model's `bonus`),
one CP-SAT problem asks for a map with bonus == v scoring more than the best map known. The top levels are
infeasible at once (the card's squares leave no room for a good base), the level of the optimum often
finds it (a full map at that level meets the level's own bound at once), and levels low enough cannot beat
the incumbent because the rest of the score is at most `target_value(problem, {})` (most squares, one
cluster per element): a last problem, "bonus below the lowest level and score above the incumbent",
closes them (CP-SAT's presolve sees it). The levels and that rest partition every map of the model (whose
card caps already bound the bonus from above), so the maximum is proven when every one of these problems
is closed by CP-SAT (OPTIMAL or INFEASIBLE); nothing here is an assumption of ours.

Every map a level finds is checked by the caller (replayed and re-scored by the rules model) before it
becomes the incumbent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from campsolver.solver.core.budget import Budget
from campsolver.solver.core.cpsat import CpSolveResult, solve
from campsolver.solver.happy_campers.max_caps import clairvoyant_card_caps, target_value
from campsolver.solver.happy_campers.max_problem import MaxProblem, _Built
from campsolver.solver.happy_campers.rules import Challenge
from ortools.sat.python import cp_model

#: Cards the levels split on: the capped cards (`clairvoyant_card_caps`). Nature Reserve is not among them:
#: its isolated empty squares also raise the rest of the score's ceiling, so "rest <= target" does not hold.
LEVEL_BLOCKERS = frozenset({Challenge.NATURE_RESERVE})
#: Cards worth splitting on: the ones whose bound the main model leaves at base + cap. Dangerous Animals
#: alone (cap 0) and Quick Pee alone (target model) are left out: on Quick Pee 15-roll seeds the levels
#: stayed open at every level in 1.5 s each and only took time from the main solve (57/59 -> 53/59).
#: With one of these in play the others' points are part of the split bonus too.
LEVEL_CARDS = frozenset({Challenge.PRIVACY, Challenge.TENT_TOGETHER, Challenge.RIVER_TOWN})


#: CP-SAT parameter overrides for the level problems (on top of the main model's).
LEVEL_PARAMETERS: dict[str, object] = {}


def _level_configure(solver: cp_model.CpSolver, configure: Callable[[cp_model.CpSolver], None]) -> None:
    configure(solver)
    for name, value in LEVEL_PARAMETERS.items():
        setattr(solver.parameters, name, type(getattr(solver.parameters, name))(value))


def levels_apply(problem: MaxProblem) -> bool:
    """Whether the proof by levels is sound (no Nature Reserve) and worth trying (a capped card in play)."""
    cards = set(problem.challenges)
    return problem.kind == "clairvoyant" and bool(cards & LEVEL_CARDS) and not cards & LEVEL_BLOCKERS


@dataclass
class LevelProof:
    """What the levels proved: the best checked answer (the incumbent or better), whether every part of the
    partition was closed by CP-SAT, and a proven upper bound on the maximum."""

    answer: tuple | None
    value: int
    closed: bool
    bound: int
    levels_closed: int
    levels_total: int


def prove_by_levels(
    problem: MaxProblem,
    built: _Built,
    incumbent: tuple,
    incumbent_value: int,
    main_bound: int | None,
    budget: Budget,
    *,
    workers: int,
    configure: Callable[[cp_model.CpSolver], None],
    record: Callable[[CpSolveResult], None],
    check: Callable[[_Built, CpSolveResult], tuple],
) -> LevelProof:
    """Close the gap between `incumbent_value` and `main_bound` one card level at a time (module doc).

    `check` replays and re-scores a level's map (returning the answer tuple, value third); `record` tallies
    each solve. Levels are visited from the top down in rounds; each solve gets the remaining budget
    divided by the levels still to visit in the round, so quickly closed levels pass their time on.
    """
    assert built.bonus is not None and built.objective is not None
    rest_max = target_value(problem, {})  # every map: objective - bonus <= rest_max (`target_value`)
    top = sum(clairvoyant_card_caps(problem).values())  # the model's own caps bound the bonus
    best, answer = incumbent_value, incumbent
    # Upper bound on the objective within each level (tightened by a level's solve when it stays open).
    # (`main_bound` is None when the main solve ended without one.)
    cap = main_bound if main_bound is not None else top + rest_max
    ceiling = {v: min(v + rest_max, cap) for v in range(top, incumbent_value - rest_max, -1)}
    open_levels = [v for v in ceiling if ceiling[v] > best]
    total = len(open_levels)

    def attempt(extra: Callable[[cp_model.CpModel], None], share: Budget) -> CpSolveResult:
        model = built.model.clone()
        extra(model)
        model.add(built.objective >= best + 1)
        result = solve(model, share, workers=workers, configure=lambda solver: _level_configure(solver, configure))
        record(result)
        return result

    while open_levels and not budget.expired():
        still_open = []
        for i, v in enumerate(open_levels):
            if ceiling[v] <= best:
                continue  # the incumbent grew past it; the final rest problem covers it
            if budget.expired():
                still_open.append(v)
                continue
            share = budget.limited(budget.remaining() / (len(open_levels) - i))
            result = attempt(lambda m, v=v: m.add(built.bonus == v), share)
            if result.has_solution:
                found = check(built, result)
                if found[2] <= best:
                    raise AssertionError("a level map must beat the incumbent (the model asks for it)")
                best, answer = found[2], found
            if result.status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                continue
            if result.bound is not None:
                ceiling[v] = min(ceiling[v], int(result.bound + 1e-6))
            if ceiling[v] > best:
                still_open.append(v)
            budget.report(best=best, bound=max([best, *(ceiling[u] for u in open_levels[i:])]), depth=v)
        open_levels = still_open
    # Levels at or below `low` cannot beat `best`: rest <= rest_max. CP-SAT must say so itself.
    low = best - rest_max
    rest_closed = False
    if not open_levels and not budget.expired():
        result = attempt(lambda m: m.add(built.bonus <= low), budget)
        rest_closed = result.status == cp_model.INFEASIBLE
        if result.has_solution:  # cannot happen when target_value is right; the caller's check would tell
            raise AssertionError("a map below the lowest level beat the incumbent")
    # Open levels keep their ceilings; closed ones and the rest (rest <= rest_max, `target_value`) are <= best.
    bound = max([best, *(ceiling[v] for v in open_levels)])
    closed = rest_closed and not open_levels
    return LevelProof(answer, best, closed, bound, total - len(open_levels), total)
