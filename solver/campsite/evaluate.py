"""Exact, incremental evaluation of every play of one turn (card placement x token x square).

A turn changes the table only inside the laid card's footprint, so only the tents and tent squares within one
square of it (the "reach") change value. This module scores every placement's effect on the tents already pitched
(per player) and every tent option it leaves, without rebuilding the table: the exact enumeration behind the fast
best-turn solver (`best_turn_exact`), the hint and the greedy player. Scores are the rules model's
(`rules.tent_points` on an overlaid grid); tests compare them with the rules model on whole tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from campsolver.solver.campsite.rules import (
    FAIR_WEATHER_FACTOR,
    SURROUNDING,
    Card,
    Cell,
    Placement,
    Square,
    Table,
    Tent,
    Token,
)
from campsolver.solver.core.budget import Budget

#: Check the budget every this many placements.
BUDGET_STRIDE = 16


class Overlay:
    """The table's grid with one placement laid on top, read without copying the grid."""

    __slots__ = ("base", "top")

    def __init__(self, base: dict[Cell, Square], placement: Placement | None) -> None:
        self.base = base
        self.top: dict[Cell, Square] = {}
        if placement is not None:
            card = placement.card
            layer = len(base)
            for cell, coloured in placement.squares().items():
                self.top[cell] = Square(layer, coloured, card.mask if coloured else 0, card.fair_weather)

    def get(self, cell: Cell) -> Square | None:
        square = self.top.get(cell)
        return square if square is not None else self.base.get(cell)


@dataclass(frozen=True)
class Surroundings:
    """What the 8 squares around a cell show: per-terrain counts, all terrains seen, Fair Weather, open squares."""

    counts: tuple[int, ...]
    seen: int
    fair: bool
    open: int  # squares that a later card could still fill (no card, or an empty square without a tent)

    def points(self, token: Token) -> int:
        terrain = token.terrain
        base = bin(self.seen).count("1") if terrain is None else self.counts[terrain.value]
        return base * (FAIR_WEATHER_FACTOR if self.fair else 1)


def surroundings(grid: Overlay | dict[Cell, Square], cell: Cell, tent_cells: dict[Cell, Tent] | set[Cell]) -> Surroundings:
    counts = [0] * 6
    seen = 0
    fair = False
    open_squares = 0
    row, col = cell
    for dr, dc in SURROUNDING:
        neighbour = (row + dr, col + dc)
        square = grid.get(neighbour)
        if square is None:
            open_squares += 1
            continue
        fair = fair or square.fair_weather
        if square.coloured:
            mask = square.mask
            seen |= mask
            for bit in range(6):
                if mask >> bit & 1:
                    counts[bit] += 1
        elif neighbour not in tent_cells:
            open_squares += 1
    return Surroundings(tuple(counts), seen, fair, open_squares)


@dataclass(frozen=True)
class PlacementEffect:
    """One card placement: how it changes each player's pitched tents, and the tent options after it."""

    placement: Placement
    delta: tuple[int, ...]  # change of each player's pitched-tent points
    changed: tuple[tuple[Tent, Surroundings], ...]  # pitched tents within reach, as they stand after
    options: tuple[tuple[Cell, Surroundings], ...]  # free squares within reach (their value changed)
    covered: frozenset[Cell]  # squares the card lies on (a free square there is no longer free if coloured)
    reach: frozenset[Cell]


class TurnEvaluator:
    """Every placement of a hand on a table, evaluated incrementally."""

    def __init__(self, table: Table, players: int) -> None:
        self.table = table
        self.players = players
        self.grid = table.grid
        self.tent_cells = table.tent_cells
        self.free = table.free_squares()
        self.base_surroundings = {cell: surroundings(self.grid, cell, self.tent_cells) for cell in self.free}
        self.tent_surroundings = {t: surroundings(self.grid, t.cell, self.tent_cells) for t in table.tents}

    def tent_points_now(self) -> list[int]:
        totals = [0] * self.players
        for tent, around in self.tent_surroundings.items():
            totals[tent.player] += around.points(tent.token)
        return totals

    def effects(self, hand: Sequence[Card], budget: Budget | None = None) -> Iterator[PlacementEffect]:
        for index, placement in enumerate(self.table.legal_placements(hand)):
            if budget is not None and index % BUDGET_STRIDE == 0:
                budget.check()
            yield self.effect(placement)

    def effect(self, placement: Placement) -> PlacementEffect:
        overlay = Overlay(self.grid, placement)
        footprint = frozenset(overlay.top)
        reach = frozenset((r + dr, c + dc) for r, c in footprint for dr, dc in ((0, 0), *SURROUNDING))
        delta = [0] * self.players
        changed = []
        for cell in reach:
            tent = self.tent_cells.get(cell)
            if tent is None:
                continue
            after = surroundings(overlay, cell, self.tent_cells)
            delta[tent.player] += after.points(tent.token) - self.tent_surroundings[tent].points(tent.token)
            changed.append((tent, after))
        options = []
        for cell in reach:
            square = overlay.get(cell)
            if square is None or square.coloured or cell in self.tent_cells:
                continue
            options.append((cell, surroundings(overlay, cell, self.tent_cells)))
        return PlacementEffect(placement, tuple(delta), tuple(changed), tuple(options), footprint, reach)

    def unaffected_options(self, effect: PlacementEffect) -> Iterable[tuple[Cell, Surroundings]]:
        """Free squares out of the card's reach: their value is as before."""
        return ((cell, s) for cell, s in self.base_surroundings.items() if cell not in effect.reach)


@dataclass(frozen=True)
class Play:
    placement: Placement
    tent: Tent
    score: int  # the mover's round score after the play
    gain: int


def best_turn_exact(
    table: Table, hand: Sequence[Card], tokens: Iterable[Token], player: int, players: int, budget: Budget
) -> tuple[list[Play], int]:
    """Every play that maximises the mover's round score (exhaustive, exact), and the placements evaluated.

    Raises `SolveInterrupted` when the budget runs out before every placement was evaluated.
    """
    tokens = sorted(set(tokens))
    evaluator = TurnEvaluator(table, max(players, player + 1))
    before = evaluator.tent_points_now()[player]
    # Best unaffected options per token, best first, so each placement scans only a few of them.
    ranked_far = sorted(
        ((around.points(token), cell, token) for cell, around in evaluator.base_surroundings.items() for token in tokens),
        key=lambda item: (-item[0], item[1], item[2]),
    )
    best_value = -1
    best: list[Play] = []
    count = 0
    for effect in evaluator.effects(hand, budget):
        count += 1
        existing = before + effect.delta[player]
        candidates: list[tuple[int, Cell, Token]] = []
        for cell, around in effect.options:
            for token in tokens:
                candidates.append((around.points(token), cell, token))
        top_far = None
        for points, cell, token in ranked_far:
            if cell not in effect.reach:
                top_far = points
                break
        if top_far is not None:
            for points, cell, token in ranked_far:
                if points < top_far:
                    break
                if cell not in effect.reach:
                    candidates.append((points, cell, token))
        for points, cell, token in candidates:
            value = existing + points
            if value > best_value:
                best_value = value
                best = []
            if value == best_value:
                best.append(Play(effect.placement, Tent(player, token, cell[0], cell[1]), value, value - before))
    return best, count
