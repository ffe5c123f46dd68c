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
from typing import NamedTuple

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
from campsolver.solver.core.budget import Budget, SolveInterrupted

#: Check the budget every this many placements.
BUDGET_STRIDE = 16
#: A card changes the value of tents on its squares' 3 x 3 blocks.
_REACH = ((0, 0), *SURROUNDING)


class Surroundings(NamedTuple):
    """What the 8 squares around a cell show, and the points of each token there (indexed by token value).

    A named tuple, not a frozen dataclass: one is built per square a placement touches (thousands per hint), and
    a tuple is several times cheaper to build; equality and hashing are the same (field by field)."""

    values: tuple[int, ...]  # points of Desert..Trail, then Wilderness
    fair: bool
    open: int  # squares that a later card could still fill (no card, or an empty square without a tent)
    seen: int  # terrain bits of every coloured square around

    def points(self, token: Token) -> int:
        return self.values[token]


_BITS = tuple(tuple(bit for bit in range(6) if mask >> bit & 1) for mask in range(64))
_POPCOUNT = tuple(bin(mask).count("1") for mask in range(64))


def surroundings(
    grid: dict[Cell, Square],
    cell: Cell,
    tent_cells: dict[Cell, Tent] | set[Cell],
    top: dict[Cell, Square] | None = None,
) -> Surroundings:
    """The surroundings of `cell` on `grid`, with `top` (a laid card's squares) lying over it."""
    counts = [0, 0, 0, 0, 0, 0]
    seen = 0
    fair = False
    open_squares = 0
    row, col = cell
    grid_get = grid.get
    top_get = top.get if top else None
    for dr, dc in SURROUNDING:
        neighbour = (row + dr, col + dc)
        square = top_get(neighbour) if top_get is not None else None
        if square is None:
            square = grid_get(neighbour)
        if square is None:
            open_squares += 1
            continue
        if square.fair_weather:
            fair = True
        if square.coloured:
            mask = square.mask
            seen |= mask
            for bit in _BITS[mask]:
                counts[bit] += 1
        elif neighbour not in tent_cells:
            open_squares += 1
    counts.append(_POPCOUNT[seen])
    if fair:
        counts = [FAIR_WEATHER_FACTOR * v for v in counts]
    return Surroundings(tuple(counts), fair, open_squares, seen)


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
        self.players = max([players] + [t.player + 1 for t in table.tents])
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
        for index, placement in enumerate(self.table.legal_placements(hand, budget)):
            if budget is not None and index % BUDGET_STRIDE == 0:
                budget.check()
            yield self.effect(placement)

    def effect(self, placement: Placement) -> PlacementEffect:
        card = placement.card
        coloured_square = Square(-1, True, card.mask, card.fair_weather)
        empty_square = Square(-1, False, 0, card.fair_weather)
        top = {cell: coloured_square if coloured else empty_square for cell, coloured in placement.squares().items()}
        footprint = frozenset(top)
        # The card's rectangle grown by one square on every side (a card is a full 2 x 3 or 3 x 2 rectangle).
        tall = placement.rotation % 2 == 1
        height, width = (3, 2) if tall else (2, 3)
        row0, col0 = placement.row, placement.col
        reach = frozenset((r, c) for r in range(row0 - 1, row0 + height + 1) for c in range(col0 - 1, col0 + width + 1))
        delta = [0] * self.players
        changed = []
        options = []
        grid = self.grid
        tent_cells = self.tent_cells
        for cell in reach:
            tent = tent_cells.get(cell)
            if tent is not None:
                after = surroundings(grid, cell, tent_cells, top)
                delta[tent.player] += after.values[tent.token] - self.tent_surroundings[tent].values[tent.token]
                changed.append((tent, after))
                continue
            square = top.get(cell) or grid.get(cell)
            if square is None or square.coloured:
                continue
            options.append((cell, surroundings(grid, cell, tent_cells, top)))
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

    Raises `SolveInterrupted` when the budget runs out before every placement was evaluated (use
    `best_turn_search` for the best found so far).
    """
    result = best_turn_search(table, hand, tokens, player, players, budget)
    if result.interrupted:
        raise SolveInterrupted("deadline")
    return result.plays, result.evaluated


@dataclass
class TurnSearch:
    plays: list[Play]  # every best play found (all optimal ones when not interrupted)
    evaluated: int  # placements evaluated
    total: int  # legal placements
    interrupted: bool


def best_turn_search(
    table: Table, hand: Sequence[Card], tokens: Iterable[Token], player: int, players: int, budget: Budget
) -> TurnSearch:
    """Exhaustive best turn; when the budget runs out, the best of the placements evaluated so far."""
    tokens = sorted(set(tokens))
    evaluator = TurnEvaluator(table, max(players, player + 1))
    before = evaluator.tent_points_now()[player]
    # Best unaffected options per token, best first, so each placement scans only a few of them.
    ranked_far = sorted(
        (
            (around.points(token), cell, token)
            for cell, around in evaluator.base_surroundings.items()
            for token in tokens
        ),
        key=lambda item: (-item[0], item[1], item[2]),
    )
    best_value = -1
    best: list[Play] = []
    count = 0
    placements = table.legal_placements(hand)  # one pass over the table, a few ms: never cut
    interrupted = False
    for index, placement in enumerate(placements):
        if index and budget.expired():  # the first placement always: a best-so-far answer exists early
            interrupted = True
            break
        effect = evaluator.effect(placement)
        count += 1
        existing = before + effect.delta[player]
        candidates: list[tuple[int, Cell, Token]] = []
        for cell, around in effect.options:
            values = around.values
            for token in tokens:
                candidates.append((values[token], cell, token))
        top_far = None
        for points, cell, _token in ranked_far:
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
    return TurnSearch(best, count, len(placements), interrupted)


def turn_upper_bound(table: Table, hand: Sequence[Card], tokens: Iterable[Token], player: int) -> int:
    """A proven ceiling on the mover's round score after one more play (card + tent), whatever the play.

    Coloured squares are never covered, so after the card a pitched tent's terrain count is at most its count
    now plus the squares around it that are open now (no card, or an empty square without a tent), and doubled
    only if a Fair Weather square is around it now or a Fair Weather card is in hand; a count is at most 8
    (Wilderness: 6 terrains). The new tent scores at most twice the largest count a token allows.
    """
    evaluator = TurnEvaluator(table, player + 1)
    fair_in_hand = any(card.fair_weather for card in hand)
    total = 0
    for tent, around in evaluator.tent_surroundings.items():
        if tent.player != player:
            continue
        factor = FAIR_WEATHER_FACTOR if around.fair else 1
        doubled = FAIR_WEATHER_FACTOR if around.fair or fair_in_hand else 1
        if tent.token == Token.WILDERNESS:
            count = min(6, _POPCOUNT[around.seen] + around.open)
        else:
            count = min(8, around.values[tent.token] // factor + around.open)
        total += doubled * count
    new_tent = max((6 if token == Token.WILDERNESS else 8) for token in tokens)
    return total + FAIR_WEATHER_FACTOR * new_tent  # a Fair Weather square may lie next to it already
