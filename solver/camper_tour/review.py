"""Camper Tour review adapter: each decision ranked by the hint (`hint.hint`) for `solver.core.review`.

A decision is one choice (an announcement, turning back, a pass or the Unexpected Comforts turn). The values are
the hint's: the win probability with 2-4 campers (playouts of the whole race against the opponent models the
game's record shows, as the hint reads them), the expected final score solo or on request (the exact solo
solver, or the max^n expectimax). Camper Tour hides nothing, so the hint sees what the player saw.

A played move the win-probability hint did not compare (it samples the rule of thumb's move and its neighbours,
not every announcement) is valued on its own: the hint's answer and the played move are played out on the same
seeded playouts (common random numbers, the hint's own playout model: the mover continues with `race`, the
others with the opponent models), and the loss is the difference of the two win rates on them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from campsolver.solver.camper_tour import hint as hints
from campsolver.solver.camper_tour.opponents import Decision as HistoryDecision
from campsolver.solver.camper_tour.opponents import record_window
from campsolver.solver.camper_tour.players import Player, race
from campsolver.solver.camper_tour.rules import Action, TourState
from campsolver.solver.core import review
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.game import sample_outcome
from campsolver.solver.core.proof import Proof
from campsolver.solver.core.seeding import rng_for

#: Win-probability playouts per compared move at most (a fixed effort: with the decision's CPU budget left
#: over, the ranking is a function of the position and the seed alone).
REVIEW_PLAYOUTS = 120
#: Default CPU seconds a decision.
DECISION_CPU_S = 0.8
#: Playouts of the own valuation of a move the hint did not compare (with the hint's answer, paired).
OWN_PLAYOUTS = 120
#: Fewest playouts behind the played move's and the answer's win rates for their difference to be the loss (the
#: hint's sequential stopping may leave 4); below it both are valued on their own paired playouts.
MIN_LOSS_SAMPLES = 30
#: Steps of one playout at most (a real race is a few hundred).
MAX_PLAYOUT_STEPS = 20_000

WIN_THRESHOLDS = review.Thresholds(
    0.05,
    0.10,
    0.15,
    "win probability",
    "the win-probability drops a chess site marks (winning chances falling by 0.1 / 0.2 / 0.3 on a -1..1 scale are "
    "0.05 / 0.10 / 0.15 of a 0..1 win probability); the hint's playout estimates carry standard errors of about "
    "0.04 at its default effort, so a loss below 0.05 is within noise",
)
SCORE_THRESHOLDS = review.Thresholds(
    0.5,
    1.5,
    3.0,
    "points of expected final score",
    "a Camper Tour score is the place marker minus the tokens left: a token wasted or a plate lost is one point; "
    "half a point of expectation is a visible slip, 1.5 points a plate-and-token error, 3 points about what one "
    "failed roll on the way home costs (a roll of 7 against an announcement of 10 pays 3 tokens)",
)


class CamperTourReview:
    """The review adapter of one game (`objective` as the hint takes it; None: the hint's default)."""

    information = (
        "Camper Tour hides nothing (the stack's order is unknown to everybody): each decision is valued "
        "from the position as the player saw it, the opponents' style read from the record before it, as "
        "the hint reads a game's history"
    )

    def __init__(
        self,
        objective: hints.Objective | None,
        campers: int,
        label: Callable[[Action], str],
        playouts: int = REVIEW_PLAYOUTS,
    ) -> None:
        self.objective = objective or (
            hints.Objective.WIN_PROBABILITY if campers >= 2 else hints.Objective.EXPECTED_SCORE
        )
        if campers == 1:
            self.objective = hints.Objective.EXPECTED_SCORE  # solo: the exact solo solver, whatever was asked
        self.win = self.objective is hints.Objective.WIN_PROBABILITY
        self.thresholds = WIN_THRESHOLDS if self.win else SCORE_THRESHOLDS
        self._label = label
        self.playouts = playouts

    def continues(self, start: TourState, now: TourState, player: int) -> bool:
        return False  # every choice is a decision of its own (turning back, then the announcement home)

    def label(self, state: TourState, actions: tuple[Action, ...]) -> str:
        return self._label(actions[0])

    def _history(self, state: TourState, earlier: Sequence[review.Decision]) -> list[HistoryDecision]:
        """The game's record so far as the hint reads it (the window it reads the opponents' style from)."""
        window = record_window([d.state.to_move for d in earlier], state)
        return [HistoryDecision(earlier[i].state, earlier[i].actions[0]) for i in window]

    def rank(
        self, decision: review.Decision, budget: Budget, seed: int, earlier: Sequence[review.Decision]
    ) -> review.Ranking:
        state: TourState = decision.state
        result = hints.hint(
            state,
            budget,
            options=hints.HintOptions(
                objective=self.objective,
                seed=seed,
                max_playouts=self.playouts,
                history=self._history(state, earlier),
                record_checked=True,
            ),
        )
        exact = result.proof is Proof.EXACT
        choices = []
        for move in result.moves:
            value: review.Value | None = None
            note = move.note
            if move.evaluated:
                if move.samples:
                    value = review.Value(move.value, move.standard_error, move.samples)
                else:
                    value = review.Value(move.value, 0.0 if exact else None, exact=exact)
            elif move.samples:
                # Compared, with a mean above the answer's but not clearly better: the hint shows no value (ranks
                # follow values); for the review its mean is its value (the loss is then 0).
                mean = move.values[0]
                value = review.Value(mean, hints.win_standard_error(mean * move.samples, move.samples), move.samples)
            elif not note:
                note = "not compared by the hint (outside its candidate moves, or cut by the time limit)"
            choices.append(review.Choice((move.action,), self._label(move.action), value, note))
        if self.win and choices and choices[0].actions != decision.actions:
            choices = self._too_few(choices, decision.actions)
        if self.win:
            unit_note = f"win probability against {result.opponents}" if result.opponents else "win probability"
            if result.method == hints.BEST_RESPONSE_METHOD:
                unit_note = "win probability under the best response to solo-policy campers (a model value)"
        else:
            unit_note = (
                "exact expected final score"
                if exact
                else f"expected final score of a depth-{result.depth} search (solo values at its leaves)"
            )
        if result.fallback:
            unit_note += f"; {result.fallback}"
        return review.Ranking(
            tuple(choices), self.thresholds.unit, unit_note, interrupted=result.interrupted and not exact
        )

    @staticmethod
    def _too_few(choices: list[review.Choice], played: tuple[Action, ...]) -> list[review.Choice]:
        """The played move's value withheld when it or the answer rests on fewer than MIN_LOSS_SAMPLES playouts:
        the hint stops sampling a move once it is clearly worse, or the answer once nothing else is left, which is
        enough to decide but not to measure a loss (4 playouts a side). Such a move is valued on its own."""
        best = choices[0].value
        for index, choice in enumerate(choices):
            if choice.actions != played or choice.value is None or best is None:
                continue
            fewest = min(choice.value.samples, best.samples)
            if 0 < fewest < MIN_LOSS_SAMPLES:
                choices[index] = review.Choice(
                    choice.actions, choice.label, None, f"too few playouts for a loss ({fewest})"
                )
        return choices

    def evaluate(
        self,
        decision: review.Decision,
        ranking: review.Ranking,
        budget: Budget,
        seed: int,
        earlier: Sequence[review.Decision],
    ) -> review.Valuation:
        if not self.win:
            return review.Valuation(None, "the search valued every legal move it finished; this one was not")
        state: TourState = decision.state
        best = ranking.choices[0]
        models = hints.opponent_models(state, self._history(state, earlier))
        played_action, best_action = decision.actions[0], best.actions[0]
        results: dict[Action, list[float]] = {best_action: [], played_action: []}
        target = max(min(OWN_PLAYOUTS, self.playouts), 1)
        try:
            for i in range(target):
                for action in (best_action, played_action):
                    results[action].append(
                        _playout(
                            state.child(action),
                            state.to_move,
                            models[i % len(models)],
                            rng_for(seed, "camper-tour-review", i),
                            budget,
                        )
                    )
        except SolveInterrupted:
            if budget.cancelled:
                raise
            pairs = min(len(v) for v in results.values())
            for action in results:
                del results[action][pairs:]
        n = len(results[played_action])
        if not n:
            return review.Valuation(
                None, "the hint did not compare the played move and the decision's budget ended before a playout of it"
            )

        def value(action: Action) -> review.Value:
            wins = sum(results[action])
            return review.Value(wins / n, hints.win_standard_error(wins, n), n)

        note = (
            f"the hint's playouts did not measure the played move against its answer (not compared, or too few "
            f"playouts): both are valued on the same {n} playouts (common random numbers)"
        )
        replacement = review.Ranking(
            (
                review.Choice(best.actions, best.label, value(best_action)),
                review.Choice(decision.actions, self._label(played_action), value(played_action)),
            ),
            ranking.unit,
            ranking.note,
            interrupted=n < target,
        )
        differences = [b - p for b, p in zip(results[best_action], results[played_action], strict=True)]
        mean = sum(differences) / n
        paired = (sum((d - mean) ** 2 for d in differences) / (n - 1) / n) ** 0.5 if n > 1 else None
        return review.Valuation(
            value(played_action),
            note,
            replacement,
            loss_standard_error=paired if n >= review.MIN_SAMPLES_FOR_STANDARD_ERROR else None,
        )


def _playout(state: TourState, player: int, opponents: Player, rng: object, budget: Budget) -> float:
    """1 if `player` wins after it plays `race` and everybody else `opponents` to the end (the hint's model)."""
    for step in range(MAX_PLAYOUT_STEPS):
        if state.game_over:
            return 1.0 if state.winner() == player else 0.0
        if state.current_player() >= 0:
            if step % 8 == 0:
                budget.check()
            state = state.child((race if state.to_move == player else opponents)(state))
        else:
            state = state.child(sample_outcome(state, rng))  # type: ignore[arg-type]
    raise RuntimeError("playout did not end")
