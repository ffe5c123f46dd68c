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

The window (why it holds every optimal play): the search enumerates every legal placement of every hand card at
every node (the corners that touch the table and cover no coloured square, the rules model's test), so it cuts no
play at all. All of them lie within the starting cards' box grown by 3 squares per turn (a card must touch what
is down and reaches at most 3 squares past it), the bounded window of a T-turn round. Only the bound below prunes,
and it is an upper bound of every completion of the node.

The bound at a node with r placements to go (proven, `node_bound`), from `tent_bound`: a final tent stands on a
square that is now visible and empty or now bare table (coloured squares are never covered). Its matches are the
ones around it now plus at most the largest union of the coloured squares that r of the cards still to come can
put on the squares around it that are open now: each card in one of its placements that reach the 3 x 3 window,
cover no square coloured now and put no coloured square on the tent's own square; one of them must cover a bare
tent square with an empty square, and when no Fair Weather square is around now, doubling needs one of them to
be a Fair Weather card reaching the window. Wilderness: the terrains around it plus at most 2 per open square and
per card, at most the terrains still to come, capped at 6. Every laid card comes from the pool (the hand and the
next r - 1 draws) and exactly r are laid, so the bound is the best over which r of the pool are laid (one set for
every tent; `COUPLED_MAX_LEFT`), each token taking its best square, the best `turns` tokens summed. On the last
turn each corner is bounded the same way with that one card before its pictures are scored exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
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
from campsolver.solver.campsite.tent_bound import FULL_WINDOW, NO_COVER, best_cover
from campsolver.solver.core.budget import Budget

#: Base points a terrain tent can reach (its 8 surrounding squares) and a Wilderness tent (six terrains).
TERRAIN_CAP = 8
WILDERNESS_CAP = 6
TERRAIN_COUNT = 6
#: A coloured square features two terrains: at most two new terrains per square for a Wilderness tent.
TERRAINS_PER_SQUARE = 2
#: What `best_tents` answers when no set of squares can take one tent a turn.
INFEASIBLE = -1
#: Check the budget every this many nodes, and every this many children bounded (a few ms each).
NODE_STRIDE = 8
CHILD_STRIDE = 1
#: Entries kept in the memo of last-card potentials before it is emptied (memory stays a few tens of MB).
SQUARE_MEMO_SIZE = 200_000
#: The kind of a bare square no card is around yet (all 8 squares open, nothing matched, no Fair Weather).
BARE_KIND = (FULL_WINDOW, False, True, (0,) * TERRAIN_COUNT, 0)
#: Squares ranked per token for the children of a node two turns before the end: more than a card reaches (its
#: footprint and the squares around it, 4 x 5), so the best square out of a child's reach is always among them.
RANKED_SQUARES = 21
#: Up to this many turns to go, a node's bound is the best over which of the cards to come are laid (one set for
#: every tent); beyond it each tent may use any of them (cheaper, looser).
COUPLED_MAX_LEFT = 7

_ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
_BITS = tuple(tuple(bit for bit in range(TERRAIN_COUNT) if mask >> bit & 1) for mask in range(64))
_POPCOUNT = tuple(bin(mask).count("1") for mask in range(1 << 8))  # token subsets and 8-square masks


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


class _OutOfTime(Exception):
    """The budget ran out inside a bound (caught by `node_bound`)."""


class _CoverContext:
    """`best_cover` answers for one set of cards to come and a card limit, per token, memoised by square kind."""

    def __init__(self, infos: list[tuple[tuple[Cell, ...], bool, int]], limit: int, tokens: Sequence[Token]) -> None:
        self.terrains = 0
        for _, _, mask in infos:
            self.terrains |= mask
        self.fair_to_come = any(fair for _, fair, _ in infos)
        self.covers = []
        for token in tokens:
            bit = 1 << int(token) if token is not Token.WILDERNESS else 0
            matching = tuple(sorted((key, fair) for key, fair, mask in infos if mask & bit))
            other_any = any(not mask & bit for _, _, mask in infos)
            other_fair = any(fair and not mask & bit for _, fair, mask in infos)
            self.covers.append(self._memo(matching, other_any, other_fair, limit, self.fair_to_come))

    @staticmethod
    def _memo(matching: tuple, other_any: bool, other_fair: bool, limit: int, fair_to_come: bool):
        table: dict[tuple[int, bool], tuple[int, int]] = {}

        def cover(open_mask: int, bare: bool) -> tuple[int, int]:
            """(most squares coloured, the same with a Fair Weather card among the cards; NO_COVER: impossible)."""
            found = table.get((open_mask, bare))
            if found is None:
                plain = best_cover(open_mask, matching, other_any, other_fair, limit, bare, False)
                doubled = (
                    best_cover(open_mask, matching, other_any, other_fair, limit, bare, True)
                    if fair_to_come and plain >= 0
                    else NO_COVER
                )
                found = table[(open_mask, bare)] = (plain, doubled)
            return found

        return cover


@dataclass
class _LastTurn:
    """A node one turn before the end, ready for `last_turn`: its bound, the squares' values as they stand (and
    per token their order), the legal corners per outline, and per hand card and outline the per-corner bounds."""

    bound: int
    base: list[tuple[Cell, int, list[int]]]
    ranked: list[list[int]]
    anchors: dict[int, list[Cell]]
    corners: list[tuple[int, list[Picture], np.ndarray, np.ndarray]]


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
        #: (pattern as sorted cells, Fair Weather?, terrain bits) of each card, for `tent_bound`.
        self.info = [(tuple(sorted(card.pattern)), card.fair_weather, card.mask) for card in self.order]
        self.contexts: dict[tuple[tuple[int, ...], int], _CoverContext] = {}
        #: Each card's potentials of a kind of square (siblings share most squares): (card, kind) -> values.
        self.square_memo: dict[tuple, list[int]] = {}
        self.best = -1
        self.best_plays: list[Placement] = []
        self.best_top: dict[Cell, Sq] | None = None
        self.nodes = 0
        self.leaves = 0
        self.stopped = False

    # The cards a node may still lay: its hand and the draws that arrive before the last turn.
    def future_cards(self, hand: tuple[int, ...], drawn: int, left: int) -> list[int]:
        return list(hand) + list(range(drawn, min(len(self.order), drawn + left - 1)))

    def configs(self, top: dict[Cell, Sq]) -> dict[tuple[int, bool, bool], tuple[list[int], set[int]]]:
        """The squares a final tent can stand on, grouped by what the bound needs: (open squares around as a
        mask, Fair Weather around now?, bare?) -> (most matches now per terrain, terrain sets seen around). A bare
        square out of reach of every card is the all-open bare group."""
        groups: dict[tuple[int, bool, bool], tuple[list[int], set[int]]] = {
            (FULL_WINDOW, False, True): ([0] * TERRAIN_COUNT, {0})
        }
        cells = [cell for cell, sq in top.items() if not sq.coloured]
        cells += list({(r + dr, c + dc) for r, c in top for dr, dc in SURROUNDING if (r + dr, c + dc) not in top})
        for cell in cells:
            counts, seen, fair, open_mask = around_mask(top, cell)
            key = (open_mask, fair, cell not in top)
            group = groups.get(key)
            if group is None:
                groups[key] = (counts, {seen})
            else:
                best, seens = group
                for t in range(TERRAIN_COUNT):
                    if counts[t] > best[t]:
                        best[t] = counts[t]
                seens.add(seen)
        return groups

    def token_values(
        self, groups: dict[tuple[int, bool, bool], tuple[list[int], set[int]]], cards: Sequence[int], limit: int
    ) -> list[int]:
        """Each token's most points on any square when at most `limit` of `cards` are still laid (`tent_bound`)."""
        context = self._context(cards, limit)
        values = []
        for token, cover in zip(self.tokens, context.covers, strict=True):
            best = 0
            if token is Token.WILDERNESS:
                terrains = context.terrains
                new_cap = min(TERRAINS_PER_SQUARE * limit, _POPCOUNT[terrains])
                for (open_mask, fair, _bare), (_, seens) in groups.items():
                    open_squares = _POPCOUNT[open_mask]
                    factor = FAIR_WEATHER_FACTOR if fair or (context.fair_to_come and open_squares) else 1
                    for seen in seens:
                        new = min(TERRAINS_PER_SQUARE * open_squares, new_cap, _POPCOUNT[terrains & ~seen])
                        best = max(best, factor * min(WILDERNESS_CAP, _POPCOUNT[seen] + new))
                values.append(best)
                continue
            t = int(token)
            for (open_mask, fair, bare), (counts, _) in groups.items():
                if self.budget.expired():  # a cover not seen before costs up to ~10 ms
                    raise _OutOfTime
                plain, doubled = cover(open_mask, bare)
                if plain < 0:
                    continue
                current = counts[t]
                if fair:
                    value = FAIR_WEATHER_FACTOR * (current + plain)
                elif doubled >= 0:
                    value = max(current + plain, FAIR_WEATHER_FACTOR * (current + doubled))
                else:
                    value = current + plain
                if value > best:
                    best = value
            values.append(best)
        return values

    def cell_potentials(
        self, top: dict[Cell, Sq], cards: Sequence[int], cells: dict[Cell, tuple] | None = None
    ) -> list[tuple[dict[Cell, list[int]], list[int]]]:
        """For each of `cards` as the one card still to come: per visible empty or bare square next to the table,
        each token's most points (`token_values` of that square alone); and the same for a square no card is
        around yet."""
        kinds: dict[tuple, list[Cell]] = {}
        for cell, kind in (cells if cells is not None else self.cell_kinds(top)).items():
            kinds.setdefault(kind, []).append(cell)
        answers = []
        for index in cards:
            context = self._context((index,), 1)
            potentials = {}
            for kind, where in kinds.items():
                values = self.last_card_values(index, context, kind)
                for cell in where:
                    potentials[cell] = values
            answers.append((potentials, self.last_card_values(index, context, BARE_KIND)))
        return answers

    def cell_kinds(self, top: dict[Cell, Sq]) -> dict[Cell, tuple[int, bool, bool, tuple[int, ...], int]]:
        """The squares a final tent can stand on (visible empty, or bare next to a card) and their kinds: (open
        squares around as a mask, Fair Weather around?, bare?, matches per terrain, terrains seen)."""
        cells = [cell for cell, sq in top.items() if not sq.coloured]
        cells += list({(r + dr, c + dc) for r, c in top for dr, dc in SURROUNDING if (r + dr, c + dc) not in top})
        return {cell: _kind(top, cell) for cell in cells}

    @staticmethod
    def kinds_after(
        cells: dict[Cell, tuple], child: dict[Cell, Sq], reach: Sequence[Cell]
    ) -> dict[Cell, tuple[int, bool, bool, tuple[int, ...], int]]:
        """`cell_kinds` of a child from its parent's: a card changes only the squares it reaches (its footprint
        and the squares around it), and every square it reaches is a tent square unless coloured."""
        after = dict(cells)
        for cell in reach:
            sq = child.get(cell)
            if sq is not None and sq.coloured:
                after.pop(cell, None)
            else:
                after[cell] = _kind(child, cell)
        return after

    def last_card_values(self, index: int, context: _CoverContext, kind: tuple) -> list[int]:
        """Each token's most points on a square of this kind when card `index` is the one card still to come
        (memoised: sibling nodes share most of their squares)."""
        memo_key = (index, kind)
        values = self.square_memo.get(memo_key)
        if values is None:
            if len(self.square_memo) > SQUARE_MEMO_SIZE:
                self.square_memo.clear()
            values = self.square_memo[memo_key] = self._square_values(context, *kind, 1)
        return values

    def last_card_bound(self, kinds: Iterable[tuple], hand: tuple[int, ...]) -> int:
        """`node_bound` with one turn to go, the same value from the memoised squares of these kinds: the best
        over the hand's cards of the best `turns` tokens, each on its best square with that card to come."""
        bound = 0
        for index in dict.fromkeys(hand):
            context = self._context((index,), 1)
            best = self.last_card_values(index, context, BARE_KIND)[:]
            for kind in kinds:
                for t, value in enumerate(self.last_card_values(index, context, kind)):
                    if value > best[t]:
                        best[t] = value
            bound = max(bound, sum(sorted(best, reverse=True)[: self.turns]))
        return bound

    def last_card_ranking(self, cells: dict[Cell, tuple], cards: Iterable[int]) -> dict[int, tuple]:
        """For a node two turns before the end, per card that can be the last one: the bare square's values and,
        per token, the `RANKED_SQUARES` best squares (value, cell), so that each child's `last_card_bound` only
        rescores the squares its card reaches (`last_card_bound_after`)."""
        ranking = {}
        for index in dict.fromkeys(cards):
            context = self._context((index,), 1)
            per_cell = [(cell, self.last_card_values(index, context, kind)) for cell, kind in cells.items()]
            tops = []
            for t in range(len(self.tokens)):
                ordered = sorted(((values[t], cell) for cell, values in per_cell), reverse=True)
                tops.append((ordered[:RANKED_SQUARES], len(ordered) > RANKED_SQUARES))
            ranking[index] = (self.last_card_values(index, context, BARE_KIND), tops, context)
        return ranking

    def last_card_bound_after(
        self, ranking: dict[int, tuple], cells: dict[Cell, tuple], reach: Sequence[Cell], hand: tuple[int, ...]
    ) -> int:
        """`last_card_bound(set(cells.values()), hand)` for a child whose card reaches `reach` (every square out of
        reach keeps its parent's kind, so its best value is the parent's best outside the reach): the same value."""
        reached = set(reach)
        bound = 0
        for index in dict.fromkeys(hand):
            bare, tops, context = ranking[index]
            best = list(bare)
            for t, (ordered, truncated) in enumerate(tops):
                for value, cell in ordered:
                    if cell not in reached:
                        if value > best[t]:
                            best[t] = value
                        break
                else:
                    if truncated:  # cannot happen: a card reaches fewer squares than are ranked
                        raise RuntimeError("a card reached more squares than RANKED_SQUARES")
            for cell in reach:
                kind = cells.get(cell)
                if kind is None:
                    continue
                for t, value in enumerate(self.last_card_values(index, context, kind)):
                    if value > best[t]:
                        best[t] = value
            bound = max(bound, sum(sorted(best, reverse=True)[: self.turns]))
        return bound

    def _context(self, cards: Sequence[int], limit: int) -> _CoverContext:
        key = (tuple(sorted(cards)), limit)
        context = self.contexts.get(key)
        if context is None:
            context = self.contexts[key] = _CoverContext([self.info[i] for i in cards], limit, self.tokens)
        return context

    def _square_values(
        self,
        context: _CoverContext,
        open_mask: int,
        fair: bool,
        bare: bool,
        counts: Sequence[int],
        seen: int,
        limit: int,
    ) -> list[int]:
        """Each token's most points on one square (the same as `token_values` for a single square)."""
        values = []
        for token, cover in zip(self.tokens, context.covers, strict=True):
            if token is Token.WILDERNESS:
                open_squares = _POPCOUNT[open_mask]
                factor = FAIR_WEATHER_FACTOR if fair or (context.fair_to_come and open_squares) else 1
                new = min(
                    TERRAINS_PER_SQUARE * open_squares,
                    TERRAINS_PER_SQUARE * limit,
                    _POPCOUNT[context.terrains & ~seen],
                )
                values.append(factor * min(WILDERNESS_CAP, _POPCOUNT[seen] + new))
                continue
            plain, doubled = cover(open_mask, bare)
            if plain < 0:
                values.append(0)
                continue
            current = counts[int(token)]
            if fair:
                values.append(FAIR_WEATHER_FACTOR * (current + plain))
            elif doubled >= 0:
                values.append(max(current + plain, FAIR_WEATHER_FACTOR * (current + doubled)))
            else:
                values.append(current + plain)
        return values

    def node_bound(self, top: dict[Cell, Sq], hand: tuple[int, ...], drawn: int, left: int) -> int:
        """The round bound of a node: the best `turns` tokens, each on its best square (module docstring), and,
        for a few cards to go, the best over which `left` of the cards to come are laid (one set for all tents).
        When the budget runs out meanwhile: the trivial bound (every tent doubled at its cap)."""
        try:
            return self._node_bound(top, hand, drawn, left)
        except _OutOfTime:
            self.stopped = True
            return FAIR_WEATHER_FACTOR * TERRAIN_CAP * self.turns

    def _node_bound(self, top: dict[Cell, Sq], hand: tuple[int, ...], drawn: int, left: int) -> int:
        pool = self.future_cards(hand, drawn, left)
        groups = self.configs(top)
        bound = sum(sorted(self.token_values(groups, pool, left), reverse=True)[: self.turns])
        if bound <= self.best or left > COUPLED_MAX_LEFT or len(pool) <= left:
            return bound
        coupled = 0
        for chosen in itertools.combinations(pool, left):
            if self.budget.expired():
                return bound  # the bound with any cards for each tent still holds
            value = sum(sorted(self.token_values(groups, chosen, left), reverse=True)[: self.turns])
            coupled = max(coupled, value)
            if coupled >= bound:
                break
        return min(bound, coupled)

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

    def search(
        self,
        top: dict[Cell, Sq],
        hand: tuple[int, ...],
        drawn: int,
        plays: list[Placement],
        bound: int | None = None,
        prepared: _LastTurn | None = None,
    ) -> None:
        """Search the node (its bound and, one turn before the end, its last-turn data when the parent has them)."""
        depth = len(plays)
        self.nodes += 1
        if self.stopped or (self.nodes % NODE_STRIDE == 0 and self.budget.expired()):
            self.stopped = True
            return
        left = self.turns - depth
        if bound is None:
            bound = self.node_bound(top, hand, drawn, left)
        if bound <= self.best:
            return
        if left == 1:
            self.last_turn(top, hand, plays, prepared)
            return
        scored = []
        cells = self.cell_kinds(top) if left - 1 == 1 else {}
        ranking = None
        if left - 1 == 1:
            upcoming = (*hand, drawn) if drawn < len(self.order) else hand
            ranking = self.last_card_ranking(cells, upcoming)
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
            child_prepared = None
            if left - 1 == 1:
                height, width = (3, 2) if picture.rotation % 2 else (2, 3)
                reach = [(r, c) for r in range(row - 1, row + height + 1) for c in range(col - 1, col + width + 1)]
                child_cells = self.kinds_after(cells, child, reach)
                child_bound = self.last_card_bound_after(ranking, child_cells, reach, rest)
            else:
                child_bound = self.node_bound(child, rest, next_drawn, left - 1)
            if left - 1 == 1 and child_bound > self.best:
                # One card to go: it lies in one place for every tent (the per-corner bound of the last turn).
                child_prepared = self.prepare_last_turn(child, rest, child_cells)
                child_bound = min(child_bound, child_prepared.bound)
            if child_bound > self.best:
                placement = Placement(card, row, col, picture.rotation)
                scored.append((child_bound, number, child, rest, next_drawn, placement, child_prepared))
        scored.sort(key=lambda item: (-item[0], item[1]))
        for child_bound, _, child, rest, next_drawn, placement, child_prepared in scored:
            if self.stopped:
                return
            if child_bound > self.best:
                self.search(child, rest, next_drawn, [*plays, placement], child_bound, child_prepared)

    def prepare_last_turn(
        self, top: dict[Cell, Sq], hand: tuple[int, ...], cells: dict[Cell, tuple] | None = None
    ) -> _LastTurn:
        """Everything the last turn needs before scoring pictures, and its bound: per hand card, outline and legal
        corner, the best `turns` tokens each at the larger of its best square now and its most potential over the
        squares the card reaches there (a card changes only the squares within one of its footprint)."""
        count = len(self.tokens)
        base = final_values(top, self.tokens)
        # Per token, the squares best first (to find the best one a placement leaves untouched).
        ranked = [sorted(range(len(base)), key=lambda i, t=t: -base[i][2][t]) for t in range(count)]
        best_now = [base[ranked[t][0]][2][t] if base else 0 for t in range(count)]
        by_card: dict[Card, tuple[int, list[Picture]]] = {}
        for index in hand:
            if self.order[index] not in by_card:
                by_card[self.order[index]] = (index, self.pictures[index])
        anchors = {shape: sorted(legal_anchors(top, shape)) for shape in (0, 1)}
        potentials = self.cell_potentials(top, [index for index, _ in by_card.values()], cells)
        floor = np.array(best_now, dtype=np.int64)[:, None]
        corners = []
        bound = 0
        for (_index, card_pictures), (potential, bare) in zip(by_card.values(), potentials, strict=True):
            grid, origin = _potential_grid(potential, bare)
            for shape in (0, 1):
                shape_pictures = [p for p in card_pictures if p.rotation % 2 == shape]
                if not shape_pictures or not anchors[shape]:
                    continue
                height, width = (3, 2) if shape else (2, 3)
                reach_max = _window_max(grid, height + 2, width + 2)
                rows = np.array([row - 1 - origin[0] for row, _ in anchors[shape]])
                cols = np.array([col - 1 - origin[1] for _, col in anchors[shape]])
                if rows.min() < 0 or cols.min() < 0:
                    raise RuntimeError("a card's reach left the potential grid")  # GRID_MARGIN too small
                inside = reach_max[:, rows, cols]
                rough = np.sort(np.maximum(inside, floor), axis=0)[count - self.turns :].sum(axis=0)
                bound = max(bound, int(rough.max()))
                corners.append((shape, shape_pictures, inside, rough))
        return _LastTurn(bound, base, ranked, anchors, corners)

    def last_turn(
        self, top: dict[Cell, Sq], hand: tuple[int, ...], plays: list[Placement], prepared: _LastTurn | None = None
    ) -> None:
        """Every last placement whose corner's bound beats the best, scored incrementally."""
        if prepared is None:
            prepared = self.prepare_last_turn(top, hand)
        if prepared.bound <= self.best:
            return
        depth = len(plays)
        count = len(self.tokens)
        base, ranked = prepared.base, prepared.ranked
        for shape, shape_pictures, inside, rough in prepared.corners:
            height, width = (3, 2) if shape else (2, 3)
            corners = prepared.anchors[shape]
            for k in np.nonzero(rough > self.best)[0].tolist():
                if self.budget.expired():  # one corner scores up to four pictures: check at each
                    self.stopped = True
                    return
                if rough[k] <= self.best:  # the best may have risen since
                    continue
                row, col = corners[k]
                self.leaves += len(shape_pictures)
                reach = {(r, c) for r in range(row - 1, row + height + 1) for c in range(col - 1, col + width + 1)}
                # Each token's best square the card leaves alone: a tighter bound than its best square now.
                outside = []
                for t in range(count):
                    best_out = 0
                    for i in ranked[t]:
                        if base[i][0] not in reach:
                            best_out = base[i][2][t]
                            break
                    outside.append(best_out)
                here = inside[:, k].tolist()
                tight = sorted((max(outside[t], here[t]) for t in range(count)), reverse=True)
                if sum(tight[: self.turns]) <= self.best:
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
    """`around` on the table with a laid card's squares on top: counts, terrain bits, Fair Weather?, open squares."""
    counts, seen, fair, open_mask = around_mask(top, cell, overlay)
    return counts, seen, fair, open_mask.bit_count()


#: Rows and columns kept around the table in a potential grid: a card's reach (its footprint and one square
#: around) from any legal corner stays within this margin.
GRID_MARGIN = 5


def _potential_grid(potential: dict[Cell, list[int]], bare: list[int]) -> tuple[np.ndarray, Cell]:
    """The potentials as an array (token, row, column) over the table grown by GRID_MARGIN; other squares bare."""
    rows = [r for r, _ in potential]
    cols = [c for _, c in potential]
    origin = (min(rows) - GRID_MARGIN, min(cols) - GRID_MARGIN)
    shape = (len(bare), max(rows) + GRID_MARGIN + 1 - origin[0], max(cols) + GRID_MARGIN + 1 - origin[1])
    grid = np.empty(shape, dtype=np.int64)
    grid[:] = np.array(bare, dtype=np.int64)[:, None, None]
    for (r, c), values in potential.items():
        grid[:, r - origin[0], c - origin[1]] = values
    return grid, origin


def _window_max(grid: np.ndarray, height: int, width: int) -> np.ndarray:
    """out[:, i, j] = the maximum of grid[:, i:i + height, j:j + width]."""
    rows = grid.shape[1] - height + 1
    out = grid[:, :rows, :]
    for k in range(1, height):
        out = np.maximum(out, grid[:, k : k + rows, :])
    cols = grid.shape[2] - width + 1
    result = out[:, :, :cols]
    for k in range(1, width):
        result = np.maximum(result, out[:, :, k : k + cols])
    return result


def _kind(top: dict[Cell, Sq], cell: Cell) -> tuple[int, bool, bool, tuple[int, ...], int]:
    """A tent square's kind (see `_Search.cell_kinds`)."""
    counts, seen, fair, open_mask = around_mask(top, cell)
    return (open_mask, fair, cell not in top, tuple(counts), seen)


def around_mask(
    top: dict[Cell, Sq], cell: Cell, overlay: dict[Cell, Sq] | None = None
) -> tuple[list[int], int, bool, int]:
    """Matching counts per terrain, terrain bits seen, Fair Weather around?, open squares (bare or empty) as a mask
    (bit i for `SURROUNDING[i]`); `overlay`: a laid card's squares on top of the table."""
    counts = [0] * TERRAIN_COUNT
    seen = 0
    fair = False
    open_mask = 0
    row, col = cell
    for index, (dr, dc) in enumerate(SURROUNDING):
        key = (row + dr, col + dc)
        sq = (overlay.get(key) if overlay else None) or top.get(key)
        if sq is None:
            open_mask |= 1 << index
            continue
        if sq.fair:
            fair = True
        if sq.coloured:
            seen |= sq.mask
            for bit in _BITS[sq.mask]:
                counts[bit] += 1
        else:
            open_mask |= 1 << index
    return counts, seen, fair, open_mask


def start_top(order: Sequence[Card]) -> dict[Cell, Sq]:
    """The starting play area: order[0] and order[1] side by side (turn 0)."""
    top: dict[Cell, Sq] = {}
    for slot in range(2):
        card = order[slot]
        for (r, c), coloured in Placement(card, 0, CARD_COLS * slot, 0).squares().items():
            top[(r, c)] = Sq(coloured, card.mask if coloured else 0, card.fair_weather, 0)
    return top


def root_bound(
    order: Sequence[Card], turns: int, budget: Budget, *, hand_size: int = 3, tokens: Sequence[Token] = tuple(Token)
) -> int:
    """The branch and bound's proven bound at the root (what the search starts from), without searching."""
    search = _Search(order, turns, hand_size, tokens, budget)
    return search.node_bound(start_top(order), tuple(range(2, 2 + hand_size)), 2 + hand_size, turns)


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
