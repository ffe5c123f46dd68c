"""Happy Campers review adapter: each drawing ranked by the hint (`hint.hint`) for `solver.core.review`.

The hint is asked exactly as the service asks it for a game in progress (`service.games.happy_campers`,
`_hint_request_of_game`): solo, the two maps and the roll (a two-map turn is one decision, both drawings, as the
hint ranks pairs; the second drawing alone when the record gives the first by itself); in the multi-player game the
map due, its owner's margin over the best rival (or own score on request) with the other maps in seat order, and
on a double the neighbour's map, valued as minus its owner's expected final score (the default: hurt the owner).
The dice ahead are unknown to everybody, so the hint sees what the player saw.

The hint races its best screened moves; a played drawing screened out (or a solo pair the per-map pre-screen left
unlisted) has no value there and is valued on its own: fresh rollouts of the position after it with the hint's own
rollout policy (`hint.rollout_policy`; solo: `policies.modes_solo_rollout`, multi-player:
`multiplayer_rollout.multiplayer_rollout`), their mean and standard error. That is the quantity the hint's top value
estimates (the mean of fresh rollouts after the move), so the loss is read against it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np
from campsolver.solver.core import review
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.game import CHANCE, TERMINAL
from campsolver.solver.core.seeding import rng_for
from campsolver.solver.happy_campers import hint as hints
from campsolver.solver.happy_campers.modes import MultiplayerState, SoloDraw, SoloState, SoloStep, roll_distribution
from campsolver.solver.happy_campers.multiplayer_rollout import multiplayer_rollout
from campsolver.solver.happy_campers.policies import (
    DEFAULT_MISSING_PENALTY,
    SOLO_NORMAL,
    FastMap,
    board_tables,
    modes_solo_rollout,
    rollout,
)
from campsolver.solver.happy_campers.rules import (
    DEFAULT_COMPONENTS,
    Challenge,
    Components,
    Grid,
    Placement,
    draw,
    empty_grid,
    legal_placements,
    score,
)
from campsolver.solver.happy_campers.vector_rollout import supports as vector_supports
from campsolver.solver.happy_campers.vector_rollout import vector_rollout

#: Default CPU seconds a decision.
DECISION_CPU_S = 1.0
#: Fresh rollouts of a played drawing valued on its own (at most; its budget may stop them first).
OWN_ROLLOUTS = 300

SCORE_THRESHOLDS = review.Thresholds(
    1.0,
    3.0,
    6.0,
    "points of expected final score",
    "a point is the smallest step of the score; a final score's spread over the dice is about 4 points, so 3 points "
    "is most of a standard deviation given away in one drawing and 6 points about one and a half",
)
MARGIN_THRESHOLDS = review.Thresholds(
    1.0,
    3.0,
    6.0,
    "points of expected margin over the best rival",
    "a point is the smallest step of the score and can decide the game; a final score's spread over the dice is "
    "about 4 points, so 3 points is most of a standard deviation given away in one drawing and 6 points about one "
    "and a half",
)


@dataclass(frozen=True)
class SingleMapGame:
    """The one-map game under forced play (the batch tournament's Happy Campers game, as `policies.play_game` plays
    it): roll the dice, draw the roll on the map, until a roll fits nowhere or `rolls_left` run out. Player 0 only."""

    grid: Grid
    challenges: tuple[Challenge, ...] = ()
    components: Components = DEFAULT_COMPONENTS
    roll: tuple[int, int] | None = None
    over: bool = False
    rolls_left: int = 40

    @classmethod
    def new(
        cls, rolls: int = 40, challenges: tuple[Challenge, ...] = (), components: Components = DEFAULT_COMPONENTS
    ) -> SingleMapGame:
        return cls(empty_grid(components), challenges, components, rolls_left=rolls)

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.roll is None else 0

    def chance_outcomes(self) -> tuple[tuple[tuple[int, int], Fraction], ...]:
        return roll_distribution() if self.current_player() == CHANCE else ()

    def legal_actions(self) -> list[Placement]:
        if self.roll is None or self.over:
            return []
        return legal_placements(self.grid, self.roll, self.components)

    def child(self, action: Any) -> SingleMapGame:
        if self.current_player() == CHANCE:
            roll = (min(action), max(action))
            if not legal_placements(self.grid, roll, self.components):
                return replace(self, over=True, rolls_left=self.rolls_left - 1)
            return replace(self, roll=roll, rolls_left=self.rolls_left - 1)
        if action not in self.legal_actions():
            raise ValueError(f"{action!r} is not a legal drawing of the roll {self.roll}")
        return replace(self, grid=draw(self.grid, action, self.components), roll=None, over=self.rolls_left <= 0)

    def returns(self) -> tuple[float]:
        return (float(score(self.grid, self.challenges, self.components).total),)


GameFlow = SoloState | MultiplayerState | SingleMapGame


def _actions(state: GameFlow, move: hints.HintMove) -> tuple[Any, ...]:
    """A hinted move as the rules model's actions (solo: a `SoloDraw` per map drawn)."""
    if isinstance(state, SoloState):
        return tuple(SoloDraw(index, p) for index, p in enumerate(move.placements) if p is not None)
    return tuple(p for p in move.placements if p is not None)


def _hint_move(state: GameFlow, actions: tuple[Any, ...]) -> hints.HintMove:
    if isinstance(state, SoloState):
        placements: list[Placement | None] = [None, None]
        for action in actions:
            placements[action.map_index] = action.placement
        return hints.HintMove(tuple(placements))
    return hints.HintMove(tuple(actions))


class HappyCampersReview:
    """The review adapter of one game (`margin`: the multi-player value; solo always the expected score)."""

    information = (
        "Happy Campers hides nothing but the dice ahead, unknown to everybody: each drawing is valued from "
        "the maps as the player saw them"
    )

    def __init__(self, solo: bool, margin: bool = True, rollouts: int | None = None) -> None:
        self.solo = solo
        self.margin = margin and not solo
        self.thresholds = MARGIN_THRESHOLDS if self.margin else SCORE_THRESHOLDS
        self.rollouts = rollouts

    def continues(self, start: GameFlow, now: GameFlow, player: int) -> bool:
        return (
            isinstance(start, SoloState)
            and isinstance(now, SoloState)
            and start.step is SoloStep.FIRST_OF_TWO
            and now.step is SoloStep.SECOND
        )

    def label(self, state: GameFlow, actions: tuple[Any, ...]) -> str:
        return _hint_move(state, actions).label()

    def _unit(self, state: GameFlow) -> tuple[str, float]:
        """The unit of a decision's values and the sign the hint's values get (the service's wire sign)."""
        if isinstance(state, SoloState):
            return "points of expected final score (the lower map's)", 1.0
        if isinstance(state, SingleMapGame):
            return "points of expected final score", 1.0
        assert state.roll is not None
        if state.roll[0] == state.roll[1]:
            return "minus the map owner's expected final score (points; a neighbour's map on a double)", -1.0
        return self.thresholds.unit, 1.0

    def _ask(self, state: GameFlow, budget: Budget, seed: int) -> hints.HintResult:
        """The hint as the service asks it for a game in progress."""
        roll = state.roll
        assert roll is not None
        # Without `rollouts` the hint plans its rollouts from the budget's time limit at a nominal rate (never
        # from the measured speed): a CPU budget gives the same plan, hence the same answer, on any machine.
        options = hints.HintOptions(
            seed=seed,
            rollouts=self.rollouts,
            multiplayer_value=hints.MultiplayerValue.MARGIN if self.margin else hints.MultiplayerValue.SCORE,
        )
        if isinstance(state, SingleMapGame):
            return hints.hint(
                hints.MapTurn(state.grid, roll, state.challenges, state.components), budget, options=options
            )
        # A solo turn or a multi-player drawing (the owner's on a plain roll, a neighbour's on a double, hurting the
        # owner: the options' default objective) is the rules model's own state.
        return hints.hint(state, budget, options=options)

    def rank(
        self, decision: review.Decision, budget: Budget, seed: int, earlier: Sequence[review.Decision]
    ) -> review.Ranking:
        state: GameFlow = decision.state
        unit, sign = self._unit(state)
        result = self._ask(state, budget, seed)
        choices = []
        for alternative in result.alternatives:
            value = None
            note = ""
            if alternative.value is not None:
                value = review.Value(sign * alternative.value, alternative.standard_error, alternative.value_samples)
                note = (
                    "fresh rollouts (unbiased)"
                    if alternative.estimate == "fresh"
                    else "the top value minus its paired shortfall (may read low)"
                    if alternative.estimate == "paired"
                    else "the rollouts that chose it (may read high)"
                )
            elif result.ranked_by_screen:
                note = "no value: the budget cut the race before enough rollouts"
            else:
                note = "screened out before any rollout"
            choices.append(review.Choice(_actions(state, alternative.move), alternative.label, value, note))
        note = f"monte-carlo rollouts with the hint's rollout policy ({result.rollouts} rollouts)"
        if result.unlisted_pairs:
            note += f"; {result.unlisted_pairs} legal pairs not listed by the per-map pre-screen"
        return review.Ranking(tuple(choices), unit, note, interrupted=result.interrupted)

    def evaluate(
        self,
        decision: review.Decision,
        ranking: review.Ranking,
        budget: Budget,
        seed: int,
        earlier: Sequence[review.Decision],
    ) -> review.Valuation:
        """The hint's answer and the played drawing, each by fresh rollouts of the position after it on the same
        futures (common random numbers): a paired comparison of the quantity the hint's top value estimates."""
        state: GameFlow = decision.state
        best = ranking.choices[0]
        after_best = state
        for action in best.actions:
            after_best = after_best.child(action)
        _, sign = self._unit(state)
        samplers = [self._sampler(state, after_best), self._sampler(state, decision.after)]
        turns = board_tables(state.components).max_turns()
        rng = rng_for(seed, "happy-campers-review-own")
        values: list[list[float]] = [[], []]
        try:
            for _ in range(OWN_ROLLOUTS):
                budget.check()
                dice = rng.integers(1, 7, size=(turns, 2), dtype=np.int64)
                keys = rng.integers(0, 2**31, size=turns, dtype=np.int64)
                pair = [sign * sample(dice, keys) for sample in samplers]
                for side, value in zip(values, pair, strict=True):
                    side.append(value)
        except SolveInterrupted:
            if budget.cancelled:
                raise
        n = len(values[1])
        if n < 2:
            return review.Valuation(None, "the budget ended before two rollouts of the played drawing")
        best_value, played_value = (_mean_value(side) for side in values)
        differences = [b - p for b, p in zip(values[0], values[1], strict=True)]
        paired = _mean_value(differences).standard_error
        note = (
            f"the played drawing had no value in the hint's race: it and the hint's answer are valued by the same "
            f"{n} fresh rollouts with the hint's rollout policy (paired futures)"
        )
        replacement = review.Ranking(
            (
                review.Choice(best.actions, best.label, best_value),
                review.Choice(decision.actions, self.label(state, decision.actions), played_value),
            ),
            ranking.unit,
            ranking.note,
            interrupted=n < OWN_ROLLOUTS,
        )
        return review.Valuation(played_value, note, replacement, loss_standard_error=paired)

    def _sampler(self, state: GameFlow, after: GameFlow) -> Any:
        """One rollout of the position after the played drawing, as the hint's rollouts play it."""
        components = state.components
        policy = hints.rollout_policy()
        if isinstance(after, SoloState):
            assert isinstance(state, SoloState)
            if after.current_player() == TERMINAL:
                final = float(after.final_score())
                return lambda dice, keys: final
            maps = [
                FastMap.from_grid(g, cards, components) for g, cards in zip(after.maps, after.challenges, strict=True)
            ]
            phase = after.last_turn_map if after.last_turn_map is not None else SOLO_NORMAL
            return lambda dice, keys: float(
                modes_solo_rollout(
                    [m.copy() for m in maps], phase, dice, keys, components, DEFAULT_MISSING_PENALTY, after.double_gap
                )
            )
        if isinstance(state, SingleMapGame):
            assert isinstance(after, SingleMapGame)
            if after.over:
                final = after.returns()[0]
                return lambda dice, keys: final
            drawn = FastMap.from_grid(after.grid, state.challenges, components)
            single = True
        else:
            assert isinstance(state, MultiplayerState) and state.roll is not None
            target = state.to_draw[0]
            drawn = FastMap.from_grid(after.maps[target], state.challenges, components)
            single = state.roll[0] == state.roll[1]
        if single:

            def one_map(dice: np.ndarray, keys: np.ndarray) -> float:
                start = drawn.copy()
                if vector_supports(start):
                    return float(vector_rollout(start, dice, keys, policy, components))
                return float(rollout(start, dice, keys, policy, components))

            return one_map
        assert isinstance(state, MultiplayerState) and state.roll is not None
        cards = state.challenges
        count = len(state.maps)
        others = [FastMap.from_grid(state.maps[(target + k) % count], cards, components) for k in range(1, count)]
        return lambda dice, keys: float(
            multiplayer_rollout(
                [drawn.copy(), *(m.copy() for m in others)],
                state.roll,
                state.bonus_turn,
                dice,
                keys,
                policy,
                cards,
                components,
                margin=self.margin,
            )
        )


def _mean_value(values: list[float]) -> review.Value:
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return review.Value(mean, spread, n)
