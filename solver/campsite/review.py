"""Campsite review adapter: each turn (a card and a tent) ranked by the hint for `solver.core.review`.

The hint sees what the mover sees: the table, its own hand and unused tokens, and the deck's composition (the
other hands are unseen cards to it), exactly as the service's hint of a game is asked. Its value is the hint's
one-ply value (`hint_one_ply`: the immediate gain plus an estimate of the future gain, minus the best opponent's
rise (margin), or the own part alone (expected score); a heuristic), not the sampled look-ahead the live hint
adds on top, so that a review does not depend on its budget or seed. The hint lists its best plays only
(`REVIEW_TOP`); a played turn outside them is valued by the same formula on its own (the hint's ranking restricted
to the played card and token, with the future estimated from the whole hand as before), so its value is the same
quantity.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from campsolver.solver.campsite import hint as hints
from campsolver.solver.campsite import rules as R
from campsolver.solver.core import review
from campsolver.solver.core.budget import Budget

#: Default CPU seconds a decision (ranking every play of a 4-player turn takes at most about 0.12 CPU-s).
DECISION_CPU_S = 0.5
#: Plays the hint lists per decision.
REVIEW_TOP = 20
#: Plays ranked at most when the played turn is valued on its own (one card, one token: every placement and tent).
OWN_TOP = 100_000

MARGIN_THRESHOLDS = review.Thresholds(
    1.0,
    3.0,
    6.0,
    "points of margin over the best opponent",
    "a point is one terrain square a tent scores; 3 points is a tent's worth in an average turn; 6 points about "
    "what a good turn scores, so a blunder gives away a turn",
)
SCORE_THRESHOLDS = review.Thresholds(
    1.0,
    3.0,
    6.0,
    "points of own score",
    "a point is one terrain square a tent scores; 3 points a tent's worth in an average turn; 6 points a good turn",
)

Label = Callable[[R.Placement, R.Tent], str]


class CampsiteReview:
    """The review adapter of one game."""

    information = (
        "each turn is valued from what its player could see: the table, the player's own hand and tokens "
        "and the deck's composition (the other hands unseen), as the hint is asked"
    )

    def __init__(self, margin: bool, label: Label) -> None:
        self.margin = margin
        self.thresholds = MARGIN_THRESHOLDS if margin else SCORE_THRESHOLDS
        self._label = label

    def continues(self, start: R.CampsiteState, now: R.CampsiteState, player: int) -> bool:
        return start.stage is R.Stage.CARD and now.stage is R.Stage.TENT  # a turn is the card, then the tent

    def label(self, state: R.CampsiteState, actions: tuple[R.Action, ...]) -> str:
        card = actions[0]
        assert isinstance(card, R.PlayCard)
        if len(actions) < 2:
            return f"lay {card.placement.label()}"
        tent = actions[1]
        assert isinstance(tent, R.PitchTent)
        return self._label(card.placement, R.Tent(state.to_move, tent.token, tent.row, tent.col))

    def _view(self, state: R.CampsiteState) -> tuple[tuple[R.Card, ...], tuple[R.Token, ...]]:
        seat = state.to_move
        return tuple(state.hands[seat]), tuple(sorted(state.tokens[seat]))

    def _choices(self, result: hints.HintResult) -> list[review.Choice]:
        return [
            review.Choice(
                (R.PlayCard(p.placement), R.PitchTent(p.tent.token, p.tent.row, p.tent.col)),
                self._label(p.placement, p.tent),
                review.Value(p.value),
            )
            for p in result.choices
        ]

    def rank(
        self, decision: review.Decision, budget: Budget, seed: int, earlier: Sequence[review.Decision]
    ) -> review.Ranking:
        state: R.CampsiteState = decision.state
        # The one-ply ranking, not the hint's sampled look-ahead: a played turn outside the list is valued by the
        # same deterministic formula (`evaluate`), so best and played are one quantity whatever the budget.
        # Earlier rounds' totals left out, as `evaluate` leaves them out of the played turn's value.
        options = hints.HintOptions(margin=self.margin and state.players > 1, top=REVIEW_TOP)
        result = hints.hint_one_ply(replace(state, totals=()), budget, options=options)
        note = "immediate gain + future estimate" + (" - best opponent's" if self.margin and state.players > 1 else "")
        if result.interrupted:
            note += f"; ranked among the first {result.placements} of {result.total_placements} placements"
        return review.Ranking(tuple(self._choices(result)), self.thresholds.unit, note, interrupted=result.interrupted)

    def evaluate(
        self,
        decision: review.Decision,
        ranking: review.Ranking,
        budget: Budget,
        seed: int,
        earlier: Sequence[review.Decision],
    ) -> review.Valuation:
        state: R.CampsiteState = decision.state
        card, tent = decision.actions
        assert isinstance(card, R.PlayCard) and isinstance(tent, R.PitchTent)
        hand, _ = self._view(state)
        players = state.players
        future = hints.one_ply_future(state.table, hand, players, state.deck)  # as `rank` (hint_one_ply) has it
        result = hints.rank_plays(
            state.table,
            (card.placement.card,),
            (tent.token,),
            state.to_move,
            players,
            future,
            budget,
            margin=self.margin and players > 1,
            top=OWN_TOP,
        )
        for play in result.choices:
            if (
                R.PlayCard(play.placement),
                R.PitchTent(play.tent.token, play.tent.row, play.tent.col),
            ) == decision.actions:
                return review.Valuation(
                    review.Value(play.value),
                    f"the played turn is outside the hint's best {REVIEW_TOP}: valued on its own by the same formula",
                )
        return review.Valuation(None, "the decision's budget ended before the played turn's placement was valued")
