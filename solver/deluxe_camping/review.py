"""Deluxe Camping review adapter: each decision ranked by the hint for `solver.core.review`.

A decision is one choice: a setup placement (ranked by `hint.setup_hint`, the territory estimate one placement
deep), a turn's movement or its free barrier (ranked by `hint.hint` as the service runs it: the reply search by
default, every choice by the territory estimate and the best turns after the next player's best reply, as many as
the decision's CPU budget allows; the deepening search with securable-score or estimate leaves on request). Only
the top group's values are one quantity (the service lists the others without a value): a played choice outside
it is valued again with every choice, best included, one turn deep by the estimate (`leaf=ESTIMATE,
max_replies=0`: one quantity for all), and the loss is read there. Nothing is hidden in Deluxe
Camping but the pain-in-the-neck before the reveal, which nobody knows: the hint sees what the player saw.
"""

from __future__ import annotations

from collections.abc import Sequence

from campsolver.solver.core import review
from campsolver.solver.core.budget import Budget
from campsolver.solver.deluxe_camping import hint as hints
from campsolver.solver.deluxe_camping import rules
from campsolver.solver.deluxe_camping.rules import Action, DCState

#: Default CPU seconds a decision (the service's hint default is 1 s of wall time).
DECISION_CPU_S = 1.0

MARGIN_THRESHOLDS = review.Thresholds(
    1.0,
    3.0,
    6.0,
    "points of margin over the best opponent",
    "a point is one square of a site, the smallest step of the score and what decides a close game; 3 points is a "
    "small site given away; 6 points is about a typical winning margin of a two-player game from the default board",
)
OWN_THRESHOLDS = review.Thresholds(
    1.0,
    3.0,
    6.0,
    "points of own score",
    "a point is one square of a site; 3 points a small site; 6 points about a typical winning margin",
)


class DeluxeCampingReview:
    """The review adapter of one game."""

    information = (
        "Deluxe Camping hides nothing (the pain-in-the-neck is unknown to everybody until the reveal): each "
        "decision is valued from the position the player saw"
    )

    def __init__(self, objective: hints.HintObjective = hints.HintObjective.MARGIN) -> None:
        self.objective = objective
        self.thresholds = MARGIN_THRESHOLDS if objective is hints.HintObjective.MARGIN else OWN_THRESHOLDS

    def not_ranked(self, decision: review.Decision) -> str:
        """Setup placements are listed, not ranked: the hint's setup value is the territory estimate one placement
        deep, which early in the setup is no forecast of the final margin (a bungalow alone on the board 'owns'
        every square: 200 points), so its losses would swamp the turns'."""
        if decision.state.stage in hints.SETUP_STAGES:
            return (
                "a setup placement: the hint's value here is the territory estimate one placement deep, not a "
                "forecast of the final margin, so it is not ranked"
            )
        return ""

    def continues(self, start: DCState, now: DCState, player: int) -> bool:
        return False  # the movement and the free barrier are two decisions, as the hint ranks them

    def label(self, state: DCState, actions: tuple[Action, ...]) -> str:
        return rules.describe_action(state.config, actions[0])

    def _choices(self, state: DCState, result: hints.HintResult, group_of: object) -> list[review.Choice]:
        valued = [m for m in result.choices if m.value is not None]
        top = min((group_of(m) for m in valued), default=None)  # type: ignore[operator]
        choices = []
        for move in result.choices:
            value = None
            if move.value is not None and group_of(move) == top:  # type: ignore[operator]
                value = review.Value(move.value, 0.0 if move.exact else None, exact=move.exact)
                note = ""
            elif move.value is not None:
                note = f"valued by another quantity ({move.kind.value}), not comparable with the ranked values"
            else:
                note = "not evaluated: the budget ran out"
            choices.append(review.Choice((move.choice,), rules.describe_action(state.config, move.choice), value, note))
        return choices

    def rank(
        self, decision: review.Decision, budget: Budget, seed: int, earlier: Sequence[review.Decision]
    ) -> review.Ranking:
        state: DCState = decision.state
        if state.stage in hints.SETUP_STAGES:
            result = hints.setup_hint(state, budget, options=hints.HintOptions(self.objective))
            note = "territory estimate one placement deep (a setup placement)"
            return review.Ranking(
                tuple(self._choices(state, result, lambda m: 0)),
                self.thresholds.unit,
                note,
                interrupted=result.interrupted,
            )
        result = hints.hint(state, budget, options=hints.HintOptions(self.objective))
        if result.leaf is hints.Leaf.REPLY:
            note = (
                "the hint's reply search: every choice by the territory estimate, the best turns after the next "
                f"player's best reply ({result.reply_plies} reply ply); a heuristic"
            )
        else:
            leaves = "securable-score leaves" if result.leaf is hints.Leaf.SECURABLE else "estimate leaves"
            note = (
                f"the hint's search: every choice one turn deep by the territory estimate, the best {hints.DEEPEN} "
                f"searched {result.reply_plies} reply ply(ies) deeper with {leaves}; a heuristic"
            )
        choices = self._choices(state, result, lambda m: hints.comparison_group(m, result.leaf))
        return review.Ranking(tuple(choices), self.thresholds.unit, note, interrupted=result.interrupted)

    def evaluate(
        self,
        decision: review.Decision,
        ranking: review.Ranking,
        budget: Budget,
        seed: int,
        earlier: Sequence[review.Decision],
    ) -> review.Valuation:
        state: DCState = decision.state
        if state.stage in hints.SETUP_STAGES:
            return review.Valuation(None, "the setup ranking ended before it reached the played placement")
        options = hints.HintOptions(self.objective, hints.Leaf.ESTIMATE, max_replies=0)
        result = hints.hint(state, budget, options=options)
        choices = self._choices(state, result, lambda m: hints.comparison_group(m, hints.Leaf.ESTIMATE))
        note = (
            "the played choice is outside the choices the hint valued by its ranking's own quantity: every "
            "choice, the best included, valued again one turn deep by the territory estimate (one quantity), the "
            "loss read there"
        )
        replacement = review.Ranking(
            tuple(choices), ranking.unit, "territory estimate one turn deep", interrupted=result.interrupted
        )
        return review.Valuation(None, note, replacement)
