"""The best solo round of a known deck order by exact branch and bound (proof EXACT when the search completes).

Why the tents can wait until the end (the "final picture" reading of a round, checked against the rules model in
tests/campsite/test_best_round.py):
- a tent never moves and is never covered, and coloured squares are never covered either, so a tent's points are
  decided by the final table alone;
- the tent pitched on turn t stands on a square that is visible at the end and whose top card was laid on a turn
  a <= t (a = 0 for the starting cards): a card laid after the tent would have to cover it, which is illegal;
- conversely, any choice of distinct final visible empty squares, one per turn with a <= t, is a legal sequence of
  tent placements: on turn t the square is already visible (its final top card is down) and no later card covers
  it, so no card placement is blocked by a tent. The squares can be given to turns exactly when, for every s,
  at most T - s + 1 of them have a >= s (Hall's condition on nested sets; greedy by a ascending realises it).

So the search branches only on the card placements (which hand card, where, turned how), and at each leaf the
tents are the best assignment of the round's T tokens to distinct final squares under that condition (an exact
dynamic programme over token subsets). A card is legal exactly as in the rules model (touch or overlap, cover
empty squares only); a tent square is never covered, which the final assignment guarantees.

The window: every legal placement is enumerated (the anchors that touch the table and cover no coloured square),
so the search covers the whole table. They all lie within the starting cards' box grown by 3 squares per turn
(a card must touch what is down and reaches at most 3 squares past it), which bounds the search without cutting
any play.

The bound at a node with r placements to go (proven, `node_bound`): a final tent stands on a square that is now
visible and empty or now bare table (a later card brings it). Its matching squares are those already around it
plus at most min(open squares around it, F_j), where F_j is the most coloured squares featuring terrain j that
r of the cards still to come can show (coloured squares are never covered, so today's matches stay); it is
doubled only when a Fair Weather square is around it now or a Fair Weather card is still to come and a square
around it is open. Wilderness: the terrains around it plus at most 2 per open square, at most the terrains still
to come, capped at 6. The round bound is the sum of each token's best value over all squares (the best T tokens).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from campsolver.solver.campsite.rules import (
    CARD_COLS,
    FAIR_WEATHER_FACTOR,
    SURROUNDING,
    Card,
    Cell,
    Placement,
    Token,
    outline_offsets,
)
from campsolver.solver.core.budget import Budget

#: Base points a terrain tent can reach (its 8 surrounding squares) and a Wilderness tent (six terrains).
TERRAIN_CAP = 8
WILDERNESS_CAP = 6
TERRAIN_COUNT = 6
#: A coloured square features two terrains: at most two new terrains per square for a Wilderness tent.
TERRAINS_PER_SQUARE = 2
#: What `best_tents` answers when no set of squares can take one tent a turn.
INFEASIBLE = -1
#: Check the budget every this many nodes, and every this many children bounded (about 1 ms each).
NODE_STRIDE = 8
CHILD_STRIDE = 4

_ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
_BITS = tuple(tuple(bit for bit in range(TERRAIN_COUNT) if mask >> bit & 1) for mask in range(64))
_POPCOUNT = tuple(bin(mask).count("1") for mask in range(1 << 7))


@dataclass(frozen=True)
class Sq:
    """The visible square of a cell: coloured?, terrain bits, Fair Weather card?, turn its card was laid."""

    coloured: bool
    mask: int
    fair: bool
    time: int


_SHAPES = {0: outline_offsets(2, 3), 1: outline_offsets(3, 2)}  # rotation % 2 -> footprint, side ring


@dataclass(frozen=True)
class Picture:
    """One distinct look of a card: its rotation and the offsets of its squares (coloured or not)."""

    card: Card
    rotation: int
    squares: tuple[tuple[Cell, bool], ...]


def pictures(card: Card) -> list[Picture]:
    """The card's rotations with distinct pictures (a 180-degree symmetric pattern has two, not four)."""
    seen = set()
    found = []
    for rotation in (0, 1, 2, 3):
        squares = tuple(sorted(Placement(card, 0, 0, rotation).squares().items()))
        if squares not in seen:
            seen.add(squares)
            found.append(Picture(card, rotation, squares))
    return found


def legal_anchors(top: dict[Cell, Sq], shape: int) -> set[Cell]:
    """Top-left corners where a card of this shape (0 landscape, 1 portrait) may be laid now.

    The same test as `Table.check_placement`: cover no coloured square, and overlap or share a side with a card.
    """
    foot, ring = _SHAPES[shape]
    touching = {(r - dr, c - dc) for r, c in top for dr, dc in foot + ring}
    blocked = {(r - dr, c - dc) for (r, c), sq in top.items() if sq.coloured for dr, dc in foot}
    return touching - blocked


def around(top: dict[Cell, Sq], cell: Cell) -> tuple[list[int], int, bool, int]:
    """Matching counts per terrain, terrain bits seen, Fair Weather around?, open squares (bare or empty)."""
    return around_over(top, {}, cell)


def final_values(top: dict[Cell, Sq], tokens: Sequence[Token]) -> list[tuple[Cell, int, list[int]]]:
    """(cell, turn its top card was laid, points of each token) for every visible empty square."""
    found = []
    for cell, sq in top.items():
        if sq.coloured:
            continue
        counts, seen, fair, _ = around(top, cell)
        factor = FAIR_WEATHER_FACTOR if fair else 1
        values = [
            factor * (_POPCOUNT[seen] if token is Token.WILDERNESS else counts[int(token)]) for token in tokens
        ]
        found.append((cell, sq.time, values))
    return found


# --- The tents of a final table: the best assignment ---------------------------------------------------------------


def _candidates(values: list[tuple[Cell, int, list[int]]], count: int, turns: int) -> list[tuple[Cell, int, list[int]]]:
    """Keep, per token and per laying turn, the `turns` best squares: an optimal assignment uses only these (a
    square beyond them can be swapped for an unused one of the same turn, worth at least as much, without
    changing which turns the squares can go to)."""
    keep: set[int] = set()
    by_time: dict[int, list[int]] = {}
    for index, (_, time, _) in enumerate(values):
        by_time.setdefault(time, []).append(index)
    for indices in by_time.values():
        for token in range(count):
            best = sorted(indices, key=lambda i: -values[i][2][token])[:turns]
            keep.update(best)
    return [values[i] for i in sorted(keep)]


def best_tents(values: list[tuple[Cell, int, list[int]]], count: int, turns: int) -> int:
    """The best sum over `turns` distinct tokens (of `count`) on distinct squares, at most T - s + 1 squares laid
    on turn s or later for every s (a dynamic programme over token subsets, squares by laying turn, latest first;
    `_decode` is the same programme with back pointers). INFEASIBLE when no choice fits the turns."""
    cells = sorted(_candidates(values, count, turns), key=lambda v: -v[1])
    # Quick exit: every token on its best square, distinct squares, turns fine: nothing can beat it.
    best_each = sorted(
        ((max((v[2][t], -v[1], v[0]) for v in cells), t) for t in range(count)), key=lambda x: -x[0][0]
    )[:turns]
    chosen_cells = [entry[0][2] for entry in best_each]
    if len(set(chosen_cells)) == len(chosen_cells) and _turns_fit(sorted(-entry[0][1] for entry in best_each), turns):
        return sum(entry[0][0] for entry in best_each)
    size = 1 << count
    minus = -(10**9)
    dp = np.full(size, minus, dtype=np.int64)
    dp[0] = 0
    popcount = np.array([_POPCOUNT[m] for m in range(size)])
    without = [np.array([m for m in range(size) if not m >> t & 1]) for t in range(count)]
    current_time = None
    for _cell, time, vals in cells:
        if current_time is not None and time < current_time:
            dp[popcount > turns - current_time + 1] = minus
        current_time = time
        new = dp.copy()
        for t in range(count):
            source = without[t]
            target = source | (1 << t)
            candidate = dp[source] + vals[t]
            better = candidate > new[target]
            if better.any():
                new[target[better]] = candidate[better]
        dp = new
    if current_time is not None and current_time >= 1:
        dp[popcount > turns - current_time + 1] = minus
    best = int(np.max(np.where(popcount == turns, dp, minus)))
    return best if best >= 0 else INFEASIBLE


def _turns_fit(times: list[int], turns: int) -> bool:
    """Squares whose top cards were laid on these turns (ascending) can take one tent a turn, turns 1..T."""
    return all(time <= index + 1 for index, time in enumerate(times)) and len(times) <= turns


def _decode(cells: list[tuple[Cell, int, list[int]]], count: int, turns: int) -> list[tuple[int, Cell]]:
    """The same dynamic programme in plain Python with back pointers (run once, for the answer)."""
    states: dict[int, tuple[int, tuple[tuple[int, Cell], ...]]] = {0: (0, ())}
    current_time = None
    for cell, time, vals in cells:
        if current_time is not None and time < current_time:
            states = {m: s for m, s in states.items() if _POPCOUNT[m] <= turns - current_time + 1}
        current_time = time
        new = dict(states)
        for mask, (value, picks) in states.items():
            if _POPCOUNT[mask] >= turns:
                continue
            for t in range(count):
                if mask >> t & 1:
                    continue
                key = mask | 1 << t
                candidate = value + vals[t]
                if key not in new or candidate > new[key][0]:
                    new[key] = (candidate, (*picks, (t, cell)))
        states = new
    if current_time is not None and current_time >= 1:
        states = {m: s for m, s in states.items() if _POPCOUNT[m] <= turns - current_time + 1}
    full = [s for m, s in states.items() if _POPCOUNT[m] == turns]
    return list(max(full, key=lambda s: s[0])[1])


# --- The search ----------------------------------------------------------------------------------------------------


@dataclass
class RoundSearch:
    best: int  # best round score found (-1: none)
    placements: list[Placement]
    tents: list[tuple[Token, Cell, int]]  # token, square, turn (1-based) it is pitched on
    bound: int  # proven upper bound (the root's)
    complete: bool  # every node whose bound beats the best was searched: `best` is the optimum
    nodes: int
    leaves: int


class _Search:
    def __init__(
        self, order: Sequence[Card], turns: int, hand_size: int, tokens: Sequence[Token], budget: Budget
    ) -> None:
        self.order = list(order)
        self.turns = turns
        self.hand_size = hand_size
        self.tokens = sorted(set(tokens))
        self.budget = budget
        # Only the cards that can reach the hand this round are ever laid.
        self.pictures = [pictures(card) for card in self.order[: 2 + hand_size + turns]]
        self.best = -1
        self.best_plays: list[Placement] = []
        self.best_top: dict[Cell, Sq] | None = None
        self.nodes = 0
        self.leaves = 0
        self.stopped = False

    # The cards a node may still lay: its hand and the draws that arrive before the last turn.
    def future_cards(self, hand: tuple[int, ...], drawn: int, left: int) -> list[int]:
        return list(hand) + list(range(drawn, min(len(self.order), drawn + left - 1)))

    def cell_potentials(
        self, top: dict[Cell, Sq], hand: tuple[int, ...], left: int
    ) -> tuple[dict[Cell, list[int]], list[int]]:
        """Per visible empty or bare square next to the table: each token's most points with `left` of the hand's
        cards still to come (the same reasoning as `node_bound`); and the most for a square no card is around yet
        (a new card's empty square two squares out from the table)."""
        cards = [self.order[i] for i in hand]
        sizes = {t: sorted((len(c.pattern) for c in cards if c.mask >> t & 1), reverse=True) for t in range(6)}
        future = [sum(sizes[t][:left]) for t in range(TERRAIN_COUNT)]
        future_terrains = 0
        for card in cards:
            future_terrains |= card.mask
        fair_to_come = any(c.fair_weather for c in cards)
        cells = {cell for cell, sq in top.items() if not sq.coloured}
        cells |= {(r + dr, c + dc) for r, c in top for dr, dc in SURROUNDING if (r + dr, c + dc) not in top}
        potentials = {}
        for cell in cells:
            counts, seen, fair, open_squares = around(top, cell)
            factor = FAIR_WEATHER_FACTOR if fair or (fair_to_come and open_squares) else 1
            values = []
            for token in self.tokens:
                if token is Token.WILDERNESS:
                    new = min(TERRAINS_PER_SQUARE * open_squares, _POPCOUNT[future_terrains & ~seen])
                    values.append(factor * min(WILDERNESS_CAP, _POPCOUNT[seen] + new))
                else:
                    t = int(token)
                    values.append(factor * min(TERRAIN_CAP, counts[t] + min(open_squares, future[t])))
            potentials[cell] = values
        bare_factor = FAIR_WEATHER_FACTOR if fair_to_come else 1
        bare = [
            bare_factor
            * (
                min(WILDERNESS_CAP, _POPCOUNT[future_terrains])
                if token is Token.WILDERNESS
                else min(TERRAIN_CAP, future[int(token)])
            )
            for token in self.tokens
        ]
        return potentials, bare

    def node_bound(self, top: dict[Cell, Sq], hand: tuple[int, ...], drawn: int, left: int) -> int:
        cards = [self.order[i] for i in self.future_cards(hand, drawn, left)]
        sizes = {t: sorted((len(c.pattern) for c in cards if c.mask >> int(t) & 1), reverse=True) for t in range(6)}
        future = [sum(sizes[t][:left]) for t in range(TERRAIN_COUNT)]
        future_terrains = 0
        for card in cards:
            future_terrains |= card.mask
        fair_to_come = any(c.fair_weather for c in cards)
        best = {token: 0 for token in self.tokens}
        # Bare cells: around no card yet (only future cards around them).
        bare_factor = FAIR_WEATHER_FACTOR if fair_to_come else 1
        for token in self.tokens:
            if token is Token.WILDERNESS:
                base = min(WILDERNESS_CAP, _POPCOUNT[future_terrains], TERRAINS_PER_SQUARE * 8)
            else:
                base = min(TERRAIN_CAP, future[int(token)])
            best[token] = bare_factor * base
        cells = {cell for cell, sq in top.items() if not sq.coloured}
        cells |= {(r + dr, c + dc) for r, c in top for dr, dc in SURROUNDING if (r + dr, c + dc) not in top}
        for cell in cells:
            counts, seen, fair, open_squares = around(top, cell)
            factor = FAIR_WEATHER_FACTOR if fair or (fair_to_come and open_squares) else 1
            for token in self.tokens:
                if token is Token.WILDERNESS:
                    new = min(TERRAINS_PER_SQUARE * open_squares, _POPCOUNT[future_terrains & ~seen])
                    value = factor * min(WILDERNESS_CAP, _POPCOUNT[seen] + new)
                else:
                    t = int(token)
                    value = factor * min(TERRAIN_CAP, counts[t] + min(open_squares, future[t]))
                if value > best[token]:
                    best[token] = value
        return sum(sorted(best.values(), reverse=True)[: self.turns])

    def children(self, top: dict[Cell, Sq], hand: tuple[int, ...]) -> list[tuple[int, Picture, Cell]]:
        anchors = {shape: sorted(legal_anchors(top, shape)) for shape in (0, 1)}
        found = []
        seen_cards = set()
        for index in hand:
            card = self.order[index]
            if card in seen_cards:
                continue  # two copies of a card in hand lay the same pictures
            seen_cards.add(card)
            for picture in self.pictures[index]:
                for anchor in anchors[picture.rotation % 2]:
                    found.append((index, picture, anchor))
        return found

    def search(self, top: dict[Cell, Sq], hand: tuple[int, ...], drawn: int, plays: list[Placement]) -> None:
        depth = len(plays)
        self.nodes += 1
        if self.nodes % NODE_STRIDE == 0 and self.budget.expired():
            self.stopped = True
            return
        left = self.turns - depth
        if self.node_bound(top, hand, drawn, left) <= self.best:
            return
        if left == 1:
            self.last_turn(top, hand, plays)
            return
        scored = []
        for number, (index, picture, (row, col)) in enumerate(self.children(top, hand)):
            if number % CHILD_STRIDE == 0 and self.budget.expired():
                self.stopped = True
                return
            child = dict(top)
            card = picture.card
            for (dr, dc), coloured in picture.squares:
                child[(row + dr, col + dc)] = Sq(coloured, card.mask if coloured else 0, card.fair_weather, depth + 1)
            rest = tuple(i for i in hand if i != index)
            next_drawn = drawn
            if drawn < len(self.order):
                rest = (*rest, drawn)
                next_drawn = drawn + 1
            bound = self.node_bound(child, rest, next_drawn, left - 1)
            if bound > self.best:
                scored.append((bound, number, child, rest, next_drawn, Placement(card, row, col, picture.rotation)))
        scored.sort(key=lambda item: (-item[0], item[1]))
        for bound, _, child, rest, next_drawn, placement in scored:
            if self.stopped:
                return
            if bound > self.best:
                self.search(child, rest, next_drawn, [*plays, placement])

    def last_turn(self, top: dict[Cell, Sq], hand: tuple[int, ...], plays: list[Placement]) -> None:
        """Every last placement, scored incrementally: a card changes the squares within one of its footprint only."""
        depth = len(plays)
        count = len(self.tokens)
        base = final_values(top, self.tokens)
        # Per token, the squares best first (to find the best one a placement leaves untouched).
        ranked = [sorted(range(len(base)), key=lambda i, t=t: -base[i][2][t]) for t in range(count)]
        potential, bare = self.cell_potentials(top, hand, 1)
        by_shape: dict[int, list[Picture]] = {0: [], 1: []}
        seen_cards = set()
        for index in hand:
            if self.order[index] not in seen_cards:
                seen_cards.add(self.order[index])
                for picture in self.pictures[index]:
                    by_shape[picture.rotation % 2].append(picture)
        for shape, shape_pictures in by_shape.items():
            if not shape_pictures:
                continue
            height, width = (3, 2) if shape else (2, 3)
            for row, col in sorted(legal_anchors(top, shape)):
                if self.budget.expired():  # one corner scores up to six pictures: check at each
                    self.stopped = True
                    return
                self.leaves += len(shape_pictures)
                reach = {(r, c) for r in range(row - 1, row + height + 1) for c in range(col - 1, col + width + 1)}
                # Each token's best square the card leaves alone, then a bound without scoring: squares in reach
                # at most their potential with one card to come (shared by every card of this outline here).
                outside = []
                for t in range(count):
                    best_out = 0
                    for i in ranked[t]:
                        if base[i][0] not in reach:
                            best_out = base[i][2][t]
                            break
                    outside.append(best_out)
                rough = sorted(
                    (
                        max(outside[t], max(potential.get(cell, bare)[t] for cell in reach))
                        for t in range(count)
                    ),
                    reverse=True,
                )
                if sum(rough[: self.turns]) <= self.best:
                    continue
                kept = None
                for picture in shape_pictures:
                    self.score_last(top, picture, row, col, reach, outside, depth, plays, base, count, kept)
                    if kept is None:
                        kept = [v for v in base if v[0] not in reach]

    def score_last(
        self,
        top: dict[Cell, Sq],
        picture: Picture,
        row: int,
        col: int,
        reach: set[Cell],
        outside: list[int],
        depth: int,
        plays: list[Placement],
        base: list[tuple[Cell, int, list[int]]],
        count: int,
        kept: list[tuple[Cell, int, list[int]]] | None,
    ) -> None:
        """Score one last placement exactly (squares in reach rescored; the tents' best assignment if it can win)."""
        card = picture.card
        overlay = {
            (row + dr, col + dc): Sq(coloured, card.mask if coloured else 0, card.fair_weather, depth + 1)
            for (dr, dc), coloured in picture.squares
        }
        changed = []
        for cell in reach:
            sq = overlay.get(cell) or top.get(cell)
            if sq is None or sq.coloured:
                continue
            counts, seen, fair, _ = around_over(top, overlay, cell)
            factor = FAIR_WEATHER_FACTOR if fair else 1
            values = [
                factor * (_POPCOUNT[seen] if token is Token.WILDERNESS else counts[int(token)]) for token in self.tokens
            ]
            changed.append((cell, sq.time, values))
        quick = sorted(
            (max(outside[t], max((v[2][t] for v in changed), default=0)) for t in range(count)), reverse=True
        )
        if sum(quick[: self.turns]) <= self.best:
            return
        if kept is None:
            kept = [v for v in base if v[0] not in reach]
        total = best_tents(kept + changed, count, self.turns)
        if total > self.best:
            self.best = total
            self.best_plays = [*plays, Placement(card, row, col, picture.rotation)]
            final = dict(top)
            final.update(overlay)
            self.best_top = final
            self.budget.report(best=self.best, depth=len(self.best_plays))


def around_over(top: dict[Cell, Sq], overlay: dict[Cell, Sq], cell: Cell) -> tuple[list[int], int, bool, int]:
    """`around` on the table with a laid card's squares on top."""
    counts = [0] * TERRAIN_COUNT
    seen = 0
    fair = False
    open_squares = 0
    row, col = cell
    for dr, dc in SURROUNDING:
        key = (row + dr, col + dc)
        sq = overlay.get(key) or top.get(key)
        if sq is None:
            open_squares += 1
            continue
        if sq.fair:
            fair = True
        if sq.coloured:
            seen |= sq.mask
            for bit in _BITS[sq.mask]:
                counts[bit] += 1
        else:
            open_squares += 1
    return counts, seen, fair, open_squares


def start_top(order: Sequence[Card]) -> dict[Cell, Sq]:
    """The starting play area: order[0] and order[1] side by side (turn 0)."""
    top: dict[Cell, Sq] = {}
    for slot in range(2):
        card = order[slot]
        for (r, c), coloured in Placement(card, 0, CARD_COLS * slot, 0).squares().items():
            top[(r, c)] = Sq(coloured, card.mask if coloured else 0, card.fair_weather, 0)
    return top


def search_round(
    order: Sequence[Card],
    turns: int,
    budget: Budget,
    *,
    hand_size: int = 3,
    tokens: Sequence[Token] = tuple(Token),
    incumbent: int = -1,
) -> RoundSearch:
    """Branch and bound over the placements of a `turns`-turn solo round. `incumbent`: a score known to be reachable
    (a warm start); the search then only looks for better rounds and reports `best = -1` if none exists."""
    search = _Search(order, turns, hand_size, tokens, budget)
    top = start_top(order)
    hand = tuple(range(2, 2 + hand_size))
    drawn = 2 + hand_size
    root_bound = search.node_bound(top, hand, drawn, turns)
    search.best = incumbent
    search.search(top, hand, drawn, [])
    found_better = search.best > incumbent and search.best_top is not None
    tents: list[tuple[Token, Cell, int]] = []
    if found_better:
        values = final_values(search.best_top, search.tokens)
        cells = sorted(_candidates(values, len(search.tokens), turns), key=lambda v: -v[1])
        picks = _decode(cells, len(search.tokens), turns)
        times = {cell: time for cell, time, _ in values}
        by_time = sorted(picks, key=lambda p: times[p[1]])
        tents = [(search.tokens[t], cell, turn + 1) for turn, (t, cell) in enumerate(by_time)]
    budget.report(best=search.best, bound=root_bound, samples=search.nodes)
    return RoundSearch(
        best=search.best if found_better else -1,
        placements=search.best_plays if found_better else [],
        tents=tents,
        bound=root_bound,
        complete=not search.stopped,
        nodes=search.nodes,
        leaves=search.leaves,
    )
