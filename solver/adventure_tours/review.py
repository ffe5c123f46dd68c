"""Adventure Tours review adapter: each play ranked by the hint for `solver.core.review`.

A decision is a play as the hint ranks it (`hint.enumerate_plays`: the mover's run of decisions up to the next
card drawn, another player's decision or the next regular play). The hint sees only what the mover saw
(`information.observe`: its own hand, the public table and the other hands' sizes), and values a play by the
objective at the round's end when the player then follows the patient rule and each other player the patient or
the greedy rule (the hint's rollout model, `hint.ROLLOUT_POLICY`): exactly by expectimax over the hidden
hands and draws when the unseen pool is small, else by Monte Carlo determinisations with standard errors. A play
the budget left without a sample is valued on its own, with the hint's answer, on the same sampled worlds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from campsolver.solver.adventure_tours import hint as hints
from campsolver.solver.adventure_tours.information import observe
from campsolver.solver.adventure_tours.rules import Action, State
from campsolver.solver.core import review
from campsolver.solver.core.budget import Budget
from campsolver.solver.core.proof import Proof

#: Default CPU seconds a decision.
DECISION_CPU_S = 0.8
#: Samples per play at most (a fixed effort: with budget to spare the ranking depends on the position and seed).
REVIEW_SAMPLES = 200

COIN_THRESHOLDS = {
    hints.Objective.MARGIN: review.Thresholds(
        1.0,
        3.0,
        6.0,
        "coins of round margin over the best opponent",
        "a coin is the smallest step of the money that decides the game; 3 coins is about a demand card's "
        "difference in a round; 6 coins about a typical round's winning margin at three players",
    ),
    hints.Objective.EXPECTED_SCORE: review.Thresholds(
        1.0,
        3.0,
        6.0,
        "coins of round income",
        "a coin is the smallest step of the money; 3 coins about a demand card's difference; 6 coins a large share "
        "of a round's income",
    ),
    hints.Objective.WIN_PROBABILITY: review.Thresholds(
        0.05,
        0.10,
        0.15,
        "win probability (no opponent with more money after the round)",
        "the win-probability drops a chess site marks (0.1 / 0.2 / 0.3 of winning chances on a -1..1 scale)",
    ),
}

Label = Callable[[State, tuple[Action, ...]], str]


class AdventureToursReview:
    """The review adapter of one game."""

    information = (
        "each play is valued from what its player could see: the player's own hand, the public table "
        "and the other hands' sizes (other hands and the pile order unknown), as the hint is asked"
    )

    def __init__(self, objective: hints.Objective, label: Label, samples: int = REVIEW_SAMPLES) -> None:
        self.objective = objective
        self.thresholds = COIN_THRESHOLDS[objective]
        self._label = label
        self.samples = samples

    def continues(self, start: State, now: State, player: int) -> bool:
        step = now.step()
        return (
            now.current_player() == player
            and step is not None
            and step.kind != "play"
            and now.round_index == start.round_index
        )  # `hint.enumerate_plays` cuts a play there

    def label(self, state: State, actions: tuple[Action, ...]) -> str:
        return self._label(state, actions)

    def rank(
        self, decision: review.Decision, budget: Budget, seed: int, earlier: Sequence[review.Decision]
    ) -> review.Ranking:
        state: State = decision.state
        result = hints.hint(
            observe(state, decision.player),
            budget,
            options=hints.HintOptions(objective=self.objective, seed=seed, max_samples=self.samples),
        )
        exact = result.proof is Proof.EXACT
        choices = []
        for item in result.plays:
            value = None
            note = ""
            if exact:
                value = review.Value(item.value, 0.0, exact=True)
            elif item.samples:
                value = review.Value(item.value, item.standard_error, item.samples)
                if item.screened:
                    note = "screened out: clearly worse, sampling stopped early"
            else:
                note = "not evaluated: the budget ended before any sample"
            choices.append(review.Choice(item.play, self._label(state, item.play), value, note))
        note = (
            f"{self.objective.value} at the round end; the player plays this, then follows the patient rule and each "
            "other player the patient or the greedy rule (even odds); "
            + ("exact expectimax over hidden hands and draws" if exact else "Monte Carlo")
        )
        if result.notes:
            note += "; " + "; ".join(result.notes)
        return review.Ranking(tuple(choices), self.thresholds.unit, note, interrupted=result.interrupted)

    def evaluate(
        self,
        decision: review.Decision,
        ranking: review.Ranking,
        budget: Budget,
        seed: int,
        earlier: Sequence[review.Decision],
    ) -> review.Valuation:
        best = ranking.choices[0]
        plays = [best.actions, decision.actions]
        valued, drawn, _ = hints.sampled_values(
            observe(decision.state, decision.player), plays, self.objective, budget, seed, self.samples, screen=False
        )
        if not drawn or not valued[1].samples:
            return review.Valuation(None, "the budget ended before a sample of the played play")
        pair = [review.Value(v.value, v.standard_error, v.samples) for v in valued]
        note = (
            f"the played play had no sample in the hint's ranking: it and the hint's answer are valued on the "
            f"same {valued[1].samples} sampled worlds"
        )
        replacement = review.Ranking(
            (
                review.Choice(best.actions, best.label, pair[0]),
                review.Choice(decision.actions, self._label(decision.state, decision.actions), pair[1]),
            ),
            ranking.unit,
            ranking.note,
            interrupted=True,
        )
        return review.Valuation(pair[1], note, replacement)
