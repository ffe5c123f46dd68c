"""Happy Campers clairvoyant maxima: more warm starts for CP-SAT, each a legal forced play of the known rolls.

- `guided_plays`: the randomised greedy of `cpsat_warmstart.greedy_play` with the per-roll assignment programme
  as a guide (`max_assignment`): each drawing gets the most a complete final map can still score after it (from
  the counts the map would then hold: drawn squares, elements present, the cards' counts), and drawings after
  which no complete map is possible are left out while another exists. The plain greedy is card-aware only
  through per-move terms; the guide also sees what the later rolls can still bring (the last roll offering
  water, the squares left for the trees on the edge), which the plain one learns only when it is too late.
- `policy_plays`: the plays of the game's own players on these rolls, which do not know the later rolls: the
  shaped greedy rollout policy (`policies.ShapedGreedyPolicy` through `policies.play_game`) and the hint engine
  (`hint.hint`, its best move each turn, a few rollouts a move).

Only hints: the maximiser keeps the best of all its warm starts by `rules.score` (`maximise._better_hint`), and
every answer is still replayed and re-scored; a proof comes from CP-SAT alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from campsolver.solver.core.budget import Budget
from campsolver.solver.happy_campers import hint as hint_engine
from campsolver.solver.happy_campers.card_moves import card_bonus
from campsolver.solver.happy_campers.cpsat_warmstart import greedy_play
from campsolver.solver.happy_campers.max_assignment import NO_VALUE, AssignmentProgramme
from campsolver.solver.happy_campers.max_problem import MaxProblem
from campsolver.solver.happy_campers.policies import ShapedGreedyPolicy, play_game
from campsolver.solver.happy_campers.rules import Grid, Placement, draw, fill

#: Guided greedy: weight of a drawing's assignment value (points) against the greedy move score (3 a square).
GUIDE_WEIGHT = 1.0
#: Shaped greedy plays (tie-break seeds) and hint-engine rollouts per move of the hint's play.
POLICY_SEEDS = 3
HINT_ROLLOUTS = 32


def guided_plays(
    problem: MaxProblem, programme: AssignmentProgramme, rng: np.random.Generator, rollouts: int, budget: Budget
) -> tuple[int, list[Placement | None]] | None:
    """The best of `rollouts` guided randomised greedy plays (rules score, plays), within `budget`."""
    across = programme.left_cols & programme.right_cols or None

    def guide(turn: int, grid: Grid, moves: Sequence[Placement]) -> list[float | None]:
        terms: list[float | None] = []
        for move in moves:
            after = fill(grid, move.cells, move.element)
            crossing = 0
            if across is not None:  # pieces across the line are not in the map; count the squares on it instead
                crossing = min(sum(1 for row in after for c in across if row[c]), len(after))
            value = programme.to_go_of(turn + 1, programme.state_of(after, crossing))
            terms.append(None if value == NO_VALUE else GUIDE_WEIGHT * value)
        return terms

    return greedy_play(
        problem.start_grid,
        problem.rolls,
        problem.challenges,
        problem.components,
        rng,
        rollouts,
        festival_won=problem.festival_won,
        bonus=card_bonus(problem.challenges, problem.components),
        budget=budget,
        guide=guide,
    )


def policy_plays(problem: MaxProblem, budget: Budget, seed: int) -> list[list[Placement | None]]:
    """The shaped greedy player's plays (POLICY_SEEDS tie-break seeds) and the hint engine's play, each padded
    with None for the rolls after the game ended; the hint's play is left out when the budget runs out first."""
    plays: list[list[Placement | None]] = []
    for k in range(POLICY_SEEDS):
        if k and budget.expired():
            return plays
        game = play_game(
            problem.start_grid,
            problem.rolls,
            problem.challenges,
            problem.components,
            ShapedGreedyPolicy(),
            seed=seed + k,
        )
        plays.append([*game.placements, *([None] * (len(problem.rolls) - len(game.placements)))])
    grid = problem.start_grid
    hinted: list[Placement | None] = []
    for roll in problem.rolls:
        if budget.expired():
            return plays
        turn_budget = budget.limited(budget.remaining())
        result = hint_engine.hint(
            hint_engine.turn_state(grid, roll, problem.challenges, problem.components),
            turn_budget,
            options=hint_engine.HintOptions(seed=seed, rollouts=HINT_ROLLOUTS),
        )
        if result.blocked or result.best is None:
            break
        placement = result.best.move.placements[0]
        assert placement is not None
        grid = draw(grid, placement, problem.components)
        hinted.append(placement)
    plays.append([*hinted, *([None] * (len(problem.rolls) - len(hinted)))])
    return plays
