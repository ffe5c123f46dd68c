"""The best single turn: which card, where, turned how, and which tent on which square, with a proof.

The value of a turn is the mover's round score as the table stands after it: every tent of the mover scored as
at round end (a card laid next to an earlier tent raises it; one that covers the last visible Fair Weather square
next to it lowers it).

Two independent engines, cross-checked in the tests and the bench:
- `best_turn_exact` (evaluate.py): every legal placement x token x square, scored incrementally; EXACT.
- `best_turn` (this module): a CP-SAT model. A laid card changes the table only within one square of its
  footprint (its "reach"), so the tent either goes within the reach of the chosen card (its value depends on
  that card) or outside every square the card touches (its value is the table's as it stands). Booleans:
  `lay[p]` per legal placement (exactly one), `near[p]` (tent within p's reach, only with p), `far[c]` per free
  square (only if the laid card's reach avoids c); exactly one tent choice. The coefficients are the rules
  model's scores; the token of a tent is the best one for its square (a single turn has no later use for it).
  OPTIMAL comes from CP-SAT's own status; the returned play is re-scored by the rules model.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from campsolver.solver.campsite.evaluate import Surroundings, TurnEvaluator
from campsolver.solver.campsite.rules import Card, Cell, IllegalMove, Placement, Table, Tent, Token, score_tent
from campsolver.solver.core import cpsat
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.proof import Proof
from ortools.sat.python import cp_model

#: Check the budget every this many placements while building the model (each costs ~0.1 ms of Python).
MODEL_CHECK_STRIDE = 16
#: CP-SAT needs this long to start, stop and answer even when asked for less; kept back from its time limit, and a
#: budget with less than twice that left does not start a search (the turn is then interrupted, never late).
CP_SAT_STOP_MARGIN_S = 0.05


@dataclass
class TurnModel:
    """The CP-SAT model of one turn, with the variables that decide it and what each choice means."""

    model: cp_model.CpModel
    placements: list[Placement]
    lay: list[cp_model.IntVar]
    near: list[cp_model.IntVar]
    near_choice: list[tuple[Token, Cell]]
    far: dict[Cell, cp_model.IntVar]
    far_choice: dict[Cell, Token]
    baseline: int  # the mover's score before the turn


@dataclass
class BestTurn:
    placement: Placement | None
    tent: Tent | None
    score: int | None  # the mover's round score after the turn (rules model)
    gain: int | None  # score minus the score before the turn
    proof: Proof | None
    bound: float | None
    wall_time_s: float
    branches: int
    conflicts: int
    candidates: int  # distinct legal card placements
    interrupted: bool
    method: str = "cp-sat"


def _best_token(around: Surroundings, tokens: Sequence[Token]) -> tuple[int, Token]:
    return max((around.points(token), -token.value, token) for token in tokens)[0::2]  # type: ignore[return-value]


def build_turn_model(
    table: Table, hand: Sequence[Card], tokens: Iterable[Token], player: int, budget: Budget | None = None
) -> TurnModel:
    tokens = sorted(set(tokens))
    if not tokens:
        raise IllegalMove("no tent token left to pitch")
    players = max([player + 1] + [t.player + 1 for t in table.tents])
    evaluator = TurnEvaluator(table, players)
    baseline = evaluator.tent_points_now()[player]
    effects = list(evaluator.effects(hand, budget))
    if not effects:
        raise IllegalMove("no legal card placement")
    model = cp_model.CpModel()
    placements = [e.placement for e in effects]
    lay = [model.new_bool_var(f"lay[{p.label()}]") for p in placements]
    model.add_exactly_one(lay)
    near: list[cp_model.IntVar] = []
    near_choice: list[tuple[Token, Cell]] = []
    objective: list[cp_model.LinearExprT] = []
    reaching: dict[Cell, list[cp_model.IntVar]] = defaultdict(list)
    for index, (effect, laid) in enumerate(zip(effects, lay, strict=True)):
        if budget is not None and index % MODEL_CHECK_STRIDE == 0:
            budget.check()
        if effect.delta[player]:
            objective.append(effect.delta[player] * laid)
        for cell in effect.reach:
            reaching[cell].append(laid)
        if effect.options:
            (points, token), cell = max(
                ((_best_token(around, tokens), cell) for cell, around in effect.options), key=lambda x: (x[0][0], x[1])
            )
            var = model.new_bool_var(f"near[{effect.placement.label()}]")
            model.add_implication(var, laid)
            near.append(var)
            near_choice.append((token, cell))
            objective.append(points * var)
    far: dict[Cell, cp_model.IntVar] = {}
    far_choice: dict[Cell, Token] = {}
    for cell, around in evaluator.base_surroundings.items():
        points, token = _best_token(around, tokens)
        var = model.new_bool_var(f"far[{cell}]")
        # The square keeps its value only when the laid card's reach avoids it.
        model.add_at_most_one([var, *reaching.get(cell, [])])
        far[cell] = var
        far_choice[cell] = token
        objective.append(points * var)
    model.add_exactly_one(near + list(far.values()))
    model.maximize(baseline + sum(objective))
    return TurnModel(model, placements, lay, near, near_choice, far, far_choice, baseline)


def best_turn(
    table: Table,
    hand: Sequence[Card],
    tokens: Iterable[Token],
    player: int,
    budget: Budget,
    *,
    seed: int = 0,
    workers: int = cpsat.DEFAULT_WORKERS,
) -> BestTurn:
    """The turn that maximises the mover's round score as the table will stand; OPTIMAL when CP-SAT proves it."""
    turn = build_turn_model(table, hand, tokens, player, budget)
    remaining = budget.remaining()
    if remaining < 2 * CP_SAT_STOP_MARGIN_S:
        raise SolveInterrupted("deadline")
    result = cpsat.solve(
        turn.model,
        budget,
        seed=seed,
        workers=workers,
        time_fraction=(remaining - CP_SAT_STOP_MARGIN_S) / remaining,
        whole_problem=True,
    )
    if not result.has_solution:
        return BestTurn(
            None,
            None,
            None,
            None,
            result.proof,
            None,
            result.wall_time_s,
            result.branches,
            result.conflicts,
            len(turn.placements),
            interrupted=True,
        )
    placement, tent = decode(turn, result, player)
    after = table.place(placement).pitch(tent)
    score = sum(score_tent(after, t).points for t in after.tents if t.player == player)
    if result.proof is Proof.OPTIMAL and result.objective is not None and score != round(result.objective):
        raise RuntimeError(f"CP-SAT claims {result.objective} but the rules model scores the turn {score}")
    return BestTurn(
        placement=placement,
        tent=tent,
        score=score,
        gain=score - turn.baseline,
        proof=result.proof,
        bound=result.bound,
        wall_time_s=result.wall_time_s,
        branches=result.branches,
        conflicts=result.conflicts,
        candidates=len(turn.placements),
        interrupted=result.proof is not Proof.OPTIMAL,
    )


def decode(turn: TurnModel, result: cpsat.CpSolveResult, player: int) -> tuple[Placement, Tent]:
    placement = next(p for p, var in zip(turn.placements, turn.lay, strict=True) if result.boolean(var))
    for var, (token, cell) in zip(turn.near, turn.near_choice, strict=True):
        if result.boolean(var):
            return placement, Tent(player, token, cell[0], cell[1])
    cell = next(c for c, var in turn.far.items() if result.boolean(var))
    return placement, Tent(player, turn.far_choice[cell], cell[0], cell[1])
