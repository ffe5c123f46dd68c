"""The generic expectimax engine on tiny games whose values are known in closed form."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.expectimax import expectimax
from campsolver.solver.core.game import CHANCE, TERMINAL

DIE = [(face, Fraction(1, 6)) for face in range(1, 7)]


@dataclass(frozen=True)
class StopOrRoll:
    """Roll a die up to `rolls_left` times; keep the last roll or stop. Optimal play is a known threshold rule."""

    rolls_left: int
    current: int | None = None
    rolling: bool = False

    def current_player(self) -> int:
        if self.rolling:
            return CHANCE
        if self.current is not None and self.rolls_left == 0:
            return TERMINAL
        return 0

    def legal_actions(self) -> list[str]:
        if self.current is None:
            return ["roll"]
        return ["stop", "roll"] if self.rolls_left > 0 else ["stop"]

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        return DIE

    def child(self, action: object) -> StopOrRoll:
        if self.rolling:
            return StopOrRoll(self.rolls_left - 1, int(action))  # type: ignore[arg-type]
        if action == "stop":
            return StopOrRoll(0, self.current)
        return StopOrRoll(self.rolls_left, self.current, rolling=True)

    def returns(self) -> list[float]:
        return [float(self.current or 0)]


def test_dice_keep_game_matches_closed_form() -> None:
    # One roll: 3.5. Two rolls: keep 4+ -> (4+5+6)/6 + 3/6*3.5 = 4.25. Three: keep 5+ -> 11/6 + 4/6*4.25 = 14/3.
    assert expectimax(StopOrRoll(1)).values[0] == pytest.approx(3.5, abs=1e-12)
    assert expectimax(StopOrRoll(2)).values[0] == pytest.approx(4.25, abs=1e-12)
    assert expectimax(StopOrRoll(3)).values[0] == pytest.approx(14 / 3, abs=1e-12)


def test_root_alternatives_are_all_reported() -> None:
    result = expectimax(StopOrRoll(1, current=2))
    values = {alt.action: alt.values[0] for alt in result.alternatives}
    assert values == {"stop": 2.0, "roll": pytest.approx(3.5)}
    assert result.best(0).action == "roll"
    assert result.exact


@dataclass(frozen=True)
class RetryRace:
    """Reach 0 from `distance`: announce 1 or 2; announcing a succeeds with probability p(a), else retry (free).

    Reward: 10 minus the number of successful moves. Retries are free, so announcing 2 is always best.
    """

    distance: int
    announced: int = 0

    def current_player(self) -> int:
        if self.distance == 0:
            return TERMINAL
        return CHANCE if self.announced else 0

    def legal_actions(self) -> list[int]:
        return [a for a in (1, 2) if a <= self.distance]

    def chance_outcomes(self) -> list[tuple[bool, Fraction]]:
        success = Fraction(5, 6) if self.announced == 1 else Fraction(1, 6)
        return [(True, success), (False, 1 - success)]

    def child(self, action: object) -> RetryRace:
        if self.announced:
            if action:
                return RetryRace(self.distance - self.announced)
            return RetryRace(self.distance)  # nothing happened: the deciding state again
        return RetryRace(self.distance, int(action))  # type: ignore[arg-type]

    def returns(self) -> list[float]:
        return [0.0]


@dataclass(frozen=True)
class CountingRace(RetryRace):
    moves: int = 0

    def child(self, action: object) -> CountingRace:
        if self.announced:
            if action:
                return CountingRace(self.distance - self.announced, moves=self.moves + 1)
            return CountingRace(self.distance, moves=self.moves)
        return CountingRace(self.distance, int(action), self.moves)  # type: ignore[arg-type]

    def returns(self) -> list[float]:
        return [10.0 - self.moves]


def test_retry_outcomes_condition_on_progress() -> None:
    result = expectimax(CountingRace(4))
    # Free retries: two moves of 2 -> reward 8 exactly, whatever the success probability.
    assert result.values[0] == pytest.approx(8.0, abs=1e-12)
    assert result.best(0).action == 2


def test_depth_limit_uses_leaf_evaluator() -> None:
    result = expectimax(StopOrRoll(3), max_depth=1, leaf_value=lambda s: [100.0])
    assert not result.exact
    assert result.values[0] == pytest.approx(100.0)


def test_budget_interrupts_search() -> None:
    budget = Budget(10.0)
    budget.cancel()
    with pytest.raises(SolveInterrupted) as caught:
        expectimax(StopOrRoll(200), budget=budget)
    assert caught.value.reason == "cancelled"


@dataclass(frozen=True)
class RollHistory:
    """Roll a die up to `limit` times, keeping every roll seen (so no two histories share a memo entry)."""

    limit: int
    rolls: tuple[int, ...] = ()
    rolling: bool = False
    stopped: bool = False

    def current_player(self) -> int:
        if self.rolling:
            return CHANCE
        return TERMINAL if self.stopped or len(self.rolls) == self.limit else 0

    def legal_actions(self) -> list[str]:
        return ["stop", "roll"] if self.rolls else ["roll"]

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        return DIE

    def child(self, action: object) -> RollHistory:
        if self.rolling:
            return RollHistory(self.limit, (*self.rolls, int(action)))  # type: ignore[call-overload]
        if action == "stop":
            return RollHistory(self.limit, self.rolls, stopped=True)
        return RollHistory(self.limit, self.rolls, rolling=True)

    def returns(self) -> list[float]:
        return [float(self.rolls[-1])]


def test_progress_reports_nodes_and_the_deepest_ply_reached() -> None:
    budget = Budget(60)
    reports: list[dict] = []
    budget.progress = reports.append
    limit = 5
    result = expectimax(RollHistory(limit), budget=budget)
    assert result.values[0] == pytest.approx(expectimax(StopOrRoll(limit)).values[0])  # same game, no memo
    assert len(reports) >= 2, f"{result.nodes} nodes, {len(reports)} progress reports"
    assert all(0 <= r["depth"] <= limit and r["nodes"] <= result.nodes for r in reports)
    assert [r["nodes"] for r in reports] == sorted(r["nodes"] for r in reports)
    assert reports[-1]["depth"] == limit  # by then the search has been down to the last roll
