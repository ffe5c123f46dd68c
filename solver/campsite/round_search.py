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
empty squares only; `round_board`, held equal to the rules model by tests); a tent square is never covered, which
the final assignment guarantees.

The window (why it holds every optimal play): the search enumerates every legal placement of every hand card at
every node (the corners that touch the table and cover no coloured square), so it cuts no play at all. All of them
lie within the starting cards' box grown by 3 squares per turn (a card must touch what is down and reaches at most
3 squares past it), the frame of `round_board`. Only the bounds below prune, and each is an upper bound of every
completion of what it prunes.

The bounds (`round_bound`): every child of a node (card X at corner p, `left` turns to go) gets a bound before it is
built: the best `turns` tokens, each at the larger of its best potential with the other cards to come (one set Z of
`left - 1` of them for every tent) and its best potential within X's reach with Z and X. Children whose bound is not
above the best round found are never built; the others are searched best bound first. On the last turn the pictures
of each corner whose bound beats the best are scored exactly.

The bound it reports when the budget runs out is the highest bound among the branches still open (each branch's
bound from its parent, or the highest of its own open children once it was expanded), never less than the best
round found: every round not searched lies in one of those branches.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from campsolver.solver.campsite.round_board import (
    SHAPES,
    Board,
    Frame,
    Picture,
    card_pictures,
    final_squares,
    start_board,
)
from campsolver.solver.campsite.round_bound import (
    CoverTables,
    Places,
    Potentials,
    Region,
    corner_bounds,
    first_card_bounds,
    node_bound,
    placed_bounds,
    placed_card_bound,
)
from campsolver.solver.campsite.rules import Card, Cell, Placement, Tent, Token
from campsolver.solver.core.budget import Budget, SolveInterrupted

#: What `best_tents` answers when no set of squares can take one tent a turn.
INFEASIBLE = -1
#: Check the budget every this many leaves scored (a leaf is ~0.1-0.3 ms).
LEAF_STRIDE = 16
#: No open branch above the best.
CLOSED = -1
#: Branches with at most this many turns to go are searched depth first (best first above).
DEPTH_FIRST_LEFT = 2
#: Work out a queued first-level branch's own bound (`_Search.own_bound`, ~0.1-1 CPU-s) before expanding it (it was
#: bounded from the root's view). Off: on a 4-turn round (seed 5,100,000) the proof took 26.7 CPU-s with it, 20.1
#: without (the same 5,640 nodes as before the card-once bound); at every depth it cost 5-8x the nodes at 7 turns
#: for 0-2 points of bound. The tests turn it on.
REBOUND = False
#: The warm start's last turns re-searched exactly before the best-first search (`_Search.polish`): its last 1, 2,
#: ... POLISH_TURNS turns, each with the turns before kept; a finder, it proves and bounds nothing.
POLISH_TURNS = 3
#: Share of the budget left that the polish may use.
POLISH_SHARE = 0.25
#: Children of best-first nodes at depth below this are capped by the bound of laying their card first at their
#: place with each other card to come in one place too (`round_bound.first_card_bounds`, ~0.3 CPU-s a node at 4
#: turns): 0 turns it off.
FIRST_CARD_DEPTH = 1
#: One branch in this many taken best first is dived into (followed down its best child to a depth-first subtree).
DIVE_EVERY = 8
_POPCOUNT = tuple(bin(mask).count("1") for mask in range(1 << 8))  # token subsets and 8-square masks


def pictures(card: Card) -> list[Picture]:
    """The card's rotations with distinct pictures (a 180-degree symmetric pattern has two, not four)."""
    return card_pictures(-1, card)


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
    best_each = sorted(((max((v[2][t], -v[1], v[0]) for v in cells), t) for t in range(count)), key=lambda x: -x[0][0])[
        :turns
    ]
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
    best: int  # best round score found (-1: none better than the incumbent)
    placements: list[Placement]
    tents: list[tuple[Token, Cell, int]]  # token, square, turn (1-based) it is pitched on
    bound: int  # proven upper bound: the highest bound among the branches left open (the best when complete)
    root_bound: int  # the root's own bound (what the search started from)
    complete: bool  # every branch whose bound beats the best was searched: `best` is the optimum
    nodes: int
    leaves: int


@dataclass(frozen=True)
class _Child:
    bound: int
    index: int  # the card's index in the order
    picture: Picture
    i: int
    j: int


class _Search:
    def __init__(
        self, order: Sequence[Card], turns: int, hand_size: int, tokens: Sequence[Token], budget: Budget
    ) -> None:
        self.order = list(order)
        self.turns = turns
        self.hand_size = hand_size
        self.tokens = sorted(set(tokens))
        self.budget = budget
        self.frame = Frame(turns)
        last = min(len(self.order), 2 + hand_size + turns - 1)
        self.pictures = {i: card_pictures(i, self.order[i]) for i in range(2, last)}
        self.by_shape: dict[int, dict[int, list[Picture]]] = {}
        self.coloured: dict[tuple[int, int], np.ndarray] = {}
        for i, card_pictures_ in self.pictures.items():
            shapes: dict[int, list[Picture]] = {}
            for picture in card_pictures_:
                shapes.setdefault(picture.shape, []).append(picture)
            self.by_shape[i] = shapes
            for shape, shape_pictures in shapes.items():
                self.coloured[(i, shape)] = np.stack([p.coloured for p in shape_pictures])
        first: dict[Card, int] = {}
        #: index -> the first index of an equal card (two copies lay the same pictures and bound the same).
        self.card_key = [first.setdefault(card, i) for i, card in enumerate(self.order)]
        self.tables = CoverTables(self.order, budget)
        #: each card's outlines (a card whose pictures are all landscape has one), by card key
        self.outlines = {self.card_key[i]: tuple(sorted(shapes)) for i, shapes in self.by_shape.items()}
        self.best = -1
        self.best_plays: list[_Child] = []
        self.best_board: Board | None = None
        self.nodes = 0
        self.leaves = 0
        self.stopped = False
        #: queue entries (by number) whose own bound was already worked out
        self.tightened: set[int] = set()

    def pool(self, hand: Sequence[int], drawn: int, left: int) -> list[int]:
        """The cards a node may still lay: its hand and the draws that arrive before the last turn."""
        return list(hand) + list(range(drawn, min(len(self.order), drawn + left - 1)))

    def potentials(self, board: Board) -> Potentials:
        return Potentials(self.tables, self.tokens, Region(board), self.card_key)

    def own_bound(self, board: Board, hand: Sequence[int], drawn: int, left: int) -> int:
        """The node's bound before any child is looked at: `round_bound.placed_card_bound` (each card to come in
        turn laid in one place for every tent), never above `round_bound.node_bound`."""
        pool = self.pool(hand, drawn, left)
        potentials = self.potentials(board)
        first = node_bound(potentials, pool, left, self.turns)  # cheap: what a short budget still gets
        pictures = {i: {shape: self.coloured[(i, shape)] for shape in self.by_shape[i]} for i in pool}
        try:
            return placed_card_bound(potentials, board, pool, left, self.turns, pictures, self.budget)
        except SolveInterrupted:
            self.stopped = True  # the budget ran out inside the tighter bound: the search stops with this one
            return first

    def capped(self, board: Board, hand: Sequence[int], drawn: int, left: int, children: list[_Child]) -> list[_Child]:
        """The children with their bounds capped by the bound of laying their card first at their place
        (`round_bound.first_card_bounds`), those still above the best, best bound first."""
        pool = self.pool(hand, drawn, left)
        pictures = {i: {shape: self.coloured[(i, shape)] for shape in self.by_shape[i]} for i in pool}
        caps = first_card_bounds(self.potentials(board), board, hand, pool, left, self.turns, pictures, self.budget)
        found = []
        for child in children:
            key = self.card_key[child.index]
            looks = self.by_shape[child.index][child.picture.shape]
            cap = caps.of(key, child.picture.shape, looks.index(child.picture), len(looks), child.i, child.j)
            bound = min(child.bound, caps.anywhere.get(key, child.bound) if cap is None else cap)
            if bound > self.best:
                found.append(_Child(bound, child.index, child.picture, child.i, child.j))
        found.sort(key=lambda child: -child.bound)
        return found

    def children(self, board: Board, hand: Sequence[int], drawn: int, left: int) -> list[_Child]:
        """Every legal placement of the hand whose bound beats the best, best bound first (a card's copies once,
        each distinct picture once). Two stages: the bound of the card anywhere within its reach (all corners of an
        outline at once), then, for the corners it leaves, the bound of each picture placed exactly."""
        potentials = self.potentials(board)
        corners = {shape: board.legal_corners(shape) for shape in (0, 1)}
        places = Places(board, potentials.region, left - 1, corners, self.outlines)
        upcoming = list(range(drawn, min(len(self.order), drawn + left - 1)))
        found: list[_Child] = []
        done: set[int] = set()
        for index in hand:
            if self.card_key[index] in done:
                continue
            done.add(self.card_key[index])
            rest = [h for h in hand if h != index] + upcoming
            for shape, shape_pictures in self.by_shape[index].items():
                where = corners[shape]
                if not where.shape[0]:
                    continue
                rough = corner_bounds(potentials, index, rest, left, self.turns, SHAPES[shape], where)
                kept = np.nonzero(rough > self.best)[0]
                if not kept.size:
                    continue
                picks = np.repeat(np.arange(len(shape_pictures)), kept.size)
                at = np.tile(kept, len(shape_pictures))
                coloured = self.coloured[(index, shape)][picks]
                exact = placed_bounds(
                    potentials, board, index, rest, left, self.turns, coloured, where[at], places, self.best
                )
                bounds = np.minimum(exact, rough[at])
                for k in np.nonzero(bounds > self.best)[0].tolist():
                    i, j = where[at[k]].tolist()
                    found.append(_Child(int(bounds[k]), index, shape_pictures[int(picks[k])], i, j))
        found.sort(key=lambda child: -child.bound)
        return found

    def search(self, board: Board, hand: tuple[int, ...], drawn: int, plays: list[_Child], bound: int) -> int:
        """Search the node whose bound is `bound`; the highest bound of its branches left open when the budget runs
        out (CLOSED when every branch above the best was searched)."""
        self.nodes += 1
        if self.stopped or self.budget.expired():
            self.stopped = True
            return bound
        depth = len(plays)
        left = self.turns - depth
        try:
            children = self.children(board, hand, drawn, left)
        except SolveInterrupted:
            self.stopped = True
            return bound
        if left == 1:
            return self.last_turn(board, plays, children, bound)
        for number, child in enumerate(children):
            if child.bound <= self.best:
                break
            rest = tuple(h for h in hand if h != child.index)
            next_drawn = drawn
            if drawn < len(self.order):
                rest = (*rest, drawn)
                next_drawn = drawn + 1
            after = board.child(child.picture, child.i, child.j, depth + 1)
            open_bound = self.search(after, rest, next_drawn, [*plays, child], child.bound)
            if self.stopped:
                waiting = [c.bound for c in children[number + 1 :] if c.bound > self.best]
                return min(bound, max([open_bound, *waiting]))
        return CLOSED

    def best_first(self, board: Board, hand: tuple[int, ...], drawn: int, bound: int) -> int:
        """The best-first loop (`search_round`): the highest bound among the branches left open when the budget runs
        out, CLOSED when none is above the best. Every `DIVE_EVERY`-th branch taken (the first included) is followed
        down its best child to a depth-first subtree (its other children queued), so rounds are found early."""
        start = board
        queue: list[tuple[int, int, int, tuple[_Child, ...], tuple[int, ...], int]] = [(-bound, 0, 0, (), hand, drawn)]
        count = taken = 0
        while queue:
            negative, _, _, plays, hand, drawn = queue[0]
            if -negative <= self.best:
                return CLOSED  # every open branch is at most the best
            if self.stopped or self.budget.expired():
                self.stopped = True
                return -negative
            _, rank, uid, _, _, _ = heapq.heappop(queue)
            board = start
            for depth, child in enumerate(plays, start=1):
                board = board.child(child.picture, child.i, child.j, depth)
            left = self.turns - len(plays)
            if REBOUND and len(plays) == 1 and left > DEPTH_FIRST_LEFT and uid not in self.tightened:
                # Bounded so far from its parent's view; its own bound with each card to come in one place may be
                # lower: then it goes back to the queue with that bound (or is dropped), unexpanded.
                self.tightened.add(uid)
                try:
                    tight = self.own_bound(board, hand, drawn, left)
                except SolveInterrupted:
                    self.stopped = True
                    return max(-negative, -queue[0][0] if queue else CLOSED)
                if self.stopped:
                    return max(min(tight, -negative), -queue[0][0] if queue else CLOSED)
                if tight < -negative:
                    if tight > self.best:
                        heapq.heappush(queue, (-tight, rank, uid, plays, hand, drawn))
                    continue
            dive = taken % DIVE_EVERY == 0
            taken += 1
            node_bound = -negative
            while True:
                left = self.turns - len(plays)
                if left <= DEPTH_FIRST_LEFT:
                    open_bound = self.search(board, hand, drawn, list(plays), node_bound)
                    if self.stopped:
                        waiting = -queue[0][0] if queue else CLOSED
                        return max(open_bound, waiting)
                    break
                self.nodes += 1
                try:
                    children = self.children(board, hand, drawn, left)
                    if len(plays) < FIRST_CARD_DEPTH and children:
                        children = self.capped(board, hand, drawn, left, children)
                except SolveInterrupted:
                    self.stopped = True
                    return max(node_bound, -queue[0][0] if queue else CLOSED)
                children = [child for child in children if child.bound > self.best]
                if not children:
                    break
                for child in children[1:] if dive else children:
                    count += 1
                    rest, next_drawn = self.after(hand, drawn, child)
                    # A branch is never above its parent's bound (the root's and re-bounded branches' own bounds
                    # are tighter than their children's first bounds).
                    heapq.heappush(
                        queue,
                        (-min(child.bound, node_bound), -len(plays) - 1, count, (*plays, child), rest, next_drawn),
                    )
                if not dive:
                    break
                first = children[0]
                board = board.child(first.picture, first.i, first.j, len(plays) + 1)
                hand, drawn = self.after(hand, drawn, first)
                plays = (*plays, first)
                node_bound = min(first.bound, node_bound)
        return CLOSED

    def warm_children(self, plays: Sequence[tuple[Placement, Tent]]) -> list[_Child] | None:
        """A known legal round's placements as the search's children (card index in hand, distinct picture,
        array corner); None when one is not a play of this round (not in hand, or outside the frame)."""
        hand, drawn = _start(self)[1:]
        found: list[_Child] = []
        for placement, _ in plays:
            index = next((h for h in hand if self.order[h] == placement.card), None)
            if index is None:
                return None
            looks = self.pictures[index]
            picture = next((p for p in looks if p.rotation == placement.rotation), None)
            picture = picture or next((p for p in looks if p.rotation == placement.rotation - 2), None)
            i, j = self.frame.index((placement.row, placement.col))
            if picture is None or not self.frame.inside((placement.row, placement.col)):
                return None
            child = _Child(0, index, picture, i, j)
            found.append(child)
            hand, drawn = self.after(hand, drawn, child)
        return found

    def polish(self, plays: list[_Child], budget: Budget) -> None:
        """Re-search exactly (depth first, the best so far as the cut) the last 1, 2, ... `POLISH_TURNS` turns of
        `plays`, the turns before kept: better rounds near a good one. It only finds rounds (each scored at its
        leaf like any other); it prunes nothing of the main search and its stop is not the search's."""
        main_budget, self.budget = self.budget, budget
        start = _start(self)
        try:
            for keep in range(self.turns - 1, max(0, self.turns - POLISH_TURNS) - 1, -1):
                if self.best_plays:
                    plays = list(self.best_plays)
                board, hand, drawn = start
                for depth, child in enumerate(plays[:keep], start=1):
                    board = board.child(child.picture, child.i, child.j, depth)
                    hand, drawn = self.after(hand, drawn, child)
                self.search(board, hand, drawn, list(plays[:keep]), 2 * 8 * self.turns)
                if self.stopped:
                    break
        finally:
            self.budget = main_budget
            self.stopped = False

    def after(self, hand: tuple[int, ...], drawn: int, child: _Child) -> tuple[tuple[int, ...], int]:
        """The hand after laying the child's card (the next card of the order drawn), and the cards drawn."""
        rest = tuple(h for h in hand if h != child.index)
        if drawn < len(self.order):
            return (*rest, drawn), drawn + 1
        return rest, drawn

    def last_turn(self, board: Board, plays: list[_Child], children: list[_Child], bound: int) -> int:
        """Score every last placement whose bound (its exact squares against the best of the others) beats the best:
        the squares it reaches rescored, then the tents' best assignment."""
        count = len(self.tokens)
        base = final_squares(board, self.tokens)
        origin = self.frame.origin
        for number, child in enumerate(children):
            if child.bound <= self.best:
                break
            if number % LEAF_STRIDE == 0 and number and self.budget.expired():
                self.stopped = True
                waiting = [c.bound for c in children[number:] if c.bound > self.best]
                return min(bound, max(waiting)) if waiting else CLOSED
            self.leaves += 1
            (i0, i1, j0, j1), changed = board.reach_squares(child.picture, child.i, child.j, self.turns, self.tokens)
            reach = (i0 - origin, i1 - origin, j0 - origin, j1 - origin)
            values = [v for v in base if _outside(v[0], reach)] + changed
            total = best_tents(values, count, self.turns)
            if total > self.best:
                self.best = total
                self.best_plays = [*plays, child]
                self.best_board = board.child(child.picture, child.i, child.j, self.turns)
                self.budget.report(best=self.best, depth=len(self.best_plays))
        return CLOSED


def _outside(cell: Cell, reach: tuple[int, int, int, int]) -> bool:
    """The cell lies outside rows reach[0]..reach[1]-1, columns reach[2]..reach[3]-1."""
    return not (reach[0] <= cell[0] < reach[1] and reach[2] <= cell[1] < reach[3])


def _start(search: _Search) -> tuple[Board, tuple[int, ...], int]:
    hand = tuple(range(2, 2 + search.hand_size))
    return start_board(search.order, search.frame), hand, 2 + search.hand_size


def root_bound(
    order: Sequence[Card], turns: int, budget: Budget, *, hand_size: int = 3, tokens: Sequence[Token] = tuple(Token)
) -> int:
    """The root's own bound (`_Search.own_bound`), without searching."""
    search = _Search(order, turns, hand_size, tokens, budget)
    board, hand, drawn = _start(search)
    return search.own_bound(board, hand, drawn, turns)


def first_level_bound(
    order: Sequence[Card], turns: int, budget: Budget, *, hand_size: int = 3, tokens: Sequence[Token] = tuple(Token)
) -> int:
    """The highest bound among the root's children, never above the root's own: what the search reports once every
    first card is bounded (capped by `_Search.capped` as the search caps them)."""
    search = _Search(order, turns, hand_size, tokens, budget)
    board, hand, drawn = _start(search)
    own = search.own_bound(board, hand, drawn, turns)
    if turns == 1:
        return own
    children = search.children(board, hand, drawn, turns)
    if FIRST_CARD_DEPTH > 0 and turns > DEPTH_FIRST_LEFT and children:
        children = search.capped(board, hand, drawn, turns, children)
    return min(own, max((child.bound for child in children), default=0))


def search_round(
    order: Sequence[Card],
    turns: int,
    budget: Budget,
    *,
    hand_size: int = 3,
    tokens: Sequence[Token] = tuple(Token),
    incumbent: int = -1,
    warm: Sequence[tuple[Placement, Tent]] = (),
) -> RoundSearch:
    """Branch and bound over the placements of a `turns`-turn solo round. `incumbent`: a score known to be reachable
    (a warm start); the search then only looks for better rounds and reports `best = -1` if none exists.

    Best first: the open branch with the highest bound is expanded next (its children bounded and queued), so the
    bound reported when the budget runs out (the highest open bound) falls as fast as the bounds allow; a branch
    with at most `DEPTH_FIRST_LEFT` turns to go is searched depth first at once (small subtrees, where the leaves
    are). `warm`: the incumbent's round, whose last turns are re-searched first (`_Search.polish`)."""
    search = _Search(order, turns, hand_size, tokens, budget)
    board, hand, drawn = _start(search)
    try:
        start_bound = search.own_bound(board, hand, drawn, turns)
    except SolveInterrupted:
        start_bound = 2 * 8 * turns
        search.stopped = True
    search.best = incumbent
    warm_plays = search.warm_children(warm) if warm and turns > 1 and not search.stopped else None
    if warm_plays:
        search.polish(warm_plays, budget.sub_budget(POLISH_SHARE))
    # Stopped while bounding the root: nothing below it is closed, so the root's (fallback) bound is what is open.
    open_bound = start_bound if search.stopped else CLOSED
    if not search.stopped:
        open_bound = search.best_first(board, hand, drawn, start_bound)
    found_better = search.best > incumbent and search.best_board is not None
    placements: list[Placement] = []
    tents: list[tuple[Token, Cell, int]] = []
    if found_better:
        for child in search.best_plays:
            cell = search.frame.cell(child.i, child.j)
            placements.append(Placement(child.picture.card, cell[0], cell[1], child.picture.rotation))
        values = final_squares(search.best_board, search.tokens)
        cells = sorted(_candidates(values, len(search.tokens), turns), key=lambda v: -v[1])
        picks = _decode(cells, len(search.tokens), turns)
        times = {cell: time for cell, time, _ in values}
        by_time = sorted(picks, key=lambda p: times[p[1]])
        tents = [(search.tokens[t], cell, turn + 1) for turn, (t, cell) in enumerate(by_time)]
    complete = not search.stopped
    bound = max(search.best, incumbent) if complete else max(search.best, incumbent, open_bound)
    budget.report(best=search.best, bound=bound, samples=search.nodes)
    return RoundSearch(
        best=search.best if found_better else -1,
        placements=placements,
        tents=tents,
        bound=bound,
        root_bound=start_bound,
        complete=complete,
        nodes=search.nodes,
        leaves=search.leaves,
    )
