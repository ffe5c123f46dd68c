"""The Campsite hint's search: every play valued one ply deep by tent value tables, then the best few played on
through the next turns in sampled worlds (the unseen cards dealt to the other seats and the pile).

What the mover may know (`SeatView`): its own hand, the table (every tent, hence every seat's unused tokens and
the turns played this round), the totals of earlier rounds and the deck, hence the unseen cards' composition
(the deck minus the table and its own hand). Nothing else is read: the other hands and the pile's order are
drawn from that composition by a generator seeded from the seed and the view itself, so the answer is the same
whatever the hidden cards are (tests/campsite/test_hint_search.py).

Values. A tent's value is a table lookup: the mean final points of a tent standing so (token; matching squares,
or terrains seen for Wilderness; open surrounding squares; doubled now) with so many cards still to come from
its owner and from the others, fitted on self-play (`hint_tables.py`, made by `bench/campsite_hint_fit.py`).
A seat's standing = its totals of earlier rounds + the values of its tents. The one-ply value of a play is the
mover's standing after it minus the best other seat's (MARGIN; own standing for EXPECTED_SCORE): the new tent's
value less what keeping its token is worth, every pitched tent's change of value, and the open square the new
tent takes from the tents around it. The look-ahead value of a play is the mean, over sampled worlds, of the
same margin after the other seats and then the mover have each played one more turn by the one-ply rule (the
round's end, if it comes first, is scored exactly). Both are HEURISTIC estimates of the final margin; the
look-ahead's is a sample mean with its standard error.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from campsolver.solver.campsite import hint_tables
from campsolver.solver.campsite import rules as R
from campsolver.solver.campsite.fast import (
    N_TOKENS,
    SURROUNDING,
    Board,
    Picture,
    Placements,
    TentOptions,
    best_tents,
    hand_pictures,
    points_table,
)
from campsolver.solver.core.budget import Budget

ALL_TOKENS = frozenset(range(N_TOKENS))


# --- what the mover may know ------------------------------------------------------------------------------------


@dataclass
class SeatView:
    """The mover's information in the engine's terms (see the module docstring)."""

    board: Board
    hand: tuple[R.Card, ...]
    player: int
    players: int
    tokens: list[frozenset[int]]  # every seat's unused tokens
    hand_sizes: list[int]
    unseen: list[R.Card]  # the other hands and the pile, as a sorted multiset
    pile_size: int
    totals: list[float]
    played: int  # turns played this round

    @property
    def total_turns(self) -> int:
        return R.TURNS_PER_ROUND * self.players

    def mover_at(self, turn: int) -> int:
        """The seat that plays turn `turn` (0-based) of this round."""
        return (self.player + turn - self.played) % self.players

    def cards_to_come(self, after_turn: int, owner: int) -> tuple[int, int]:
        """(owner's, others') cards laid after turn `after_turn` (0-based) this round."""
        own = sum(1 for t in range(after_turn + 1, self.total_turns) if self.mover_at(t) == owner)
        return own, max(self.total_turns - after_turn - 1 - own, 0)


def seat_view(
    table: R.Table,
    hand: Sequence[R.Card],
    tokens: Sequence[R.Token],
    player: int,
    players: int,
    deck: Sequence[R.Card],
    totals: Sequence[float] | None = None,
) -> SeatView:
    board = Board(table, players)
    players = board.players
    pitched: list[set[int]] = [set() for _ in range(players)]
    for tent in table.tents:
        pitched[tent.player].add(int(tent.token))
    seat_tokens = [ALL_TOKENS - frozenset(p) for p in pitched]
    seat_tokens[player] = frozenset(int(t) for t in tokens)
    left = Counter(deck)
    for card in [p.card for p in table.placements] + list(hand):
        if left[card] > 0:
            left[card] -= 1
    unseen = sorted(left.elements())
    played = len(table.tents)
    # Hand sizes: 3 dealt, one laid a turn, one drawn a turn while the pile lasts.
    initial_pile = max(len(deck) - R.STARTING_CARDS - R.HAND_SIZE * players, 0)
    starter = (player - played) % players
    sizes = [R.HAND_SIZE] * players
    for turn in range(played):
        mover = (starter + turn) % players
        sizes[mover] -= 1
        if turn < initial_pile:
            sizes[mover] += 1
    sizes[player] = len(hand)
    others = sum(sizes[k] for k in range(players) if k != player)
    if others > len(unseen):  # a request whose deck cannot hold the other hands: deal what there is
        for k in range(players):
            if k != player:
                sizes[k] = min(sizes[k], len(unseen) * sizes[k] // max(others, 1))
        others = sum(sizes[k] for k in range(players) if k != player)
    totals = [float(totals[k]) if totals is not None and k < len(totals) else 0.0 for k in range(players)]
    return SeatView(
        board, tuple(hand), player, players, seat_tokens, sizes, unseen, len(unseen) - others, totals, played
    )


# --- tent values ------------------------------------------------------------------------------------------------


class ValueModel:
    """Tent value tables by (owner's cards to come, others' cards to come) for a number of players."""

    def __init__(self, players: int, reserve_wild: float | None = None) -> None:
        self.players = players
        self.reserve_wild = reserve_wild
        self._tables = hint_tables.tables_for(players)
        self._reserve: dict[tuple[int, int], np.ndarray] = {}
        self._cache: dict[tuple[int, int], np.ndarray] = {}
        self._points = points_table()
        self.stacks: dict[tuple[int, int, int], np.ndarray] = {}  # (mover, turns played, turn) -> tables

    def table(self, own: int, other: int) -> np.ndarray:
        key = (own, other)
        found = self._cache.get(key)
        if found is None:
            found = self._points if own + other == 0 else self._tables(own, other)
            self._cache[key] = found
        return found

    def reserve(self, own: int, other: int) -> np.ndarray:
        """What keeping each token is worth with so many cards to come (subtracted from a new tent's value)."""
        found = self._reserve.get((own, other))
        if found is None:
            found = hint_tables.reserve(self.players, own, other, self.reserve_wild)
            self._reserve[(own, other)] = found
        return found


# --- one ply ----------------------------------------------------------------------------------------------------


@dataclass
class Ply:
    """Every placement of one seat's hand valued one ply deep: the best tent for each, and the value."""

    pl: Placements
    options: TentOptions
    value: np.ndarray  # (P,) the mover's standing after minus the best other seat's (or own standing)
    own_delta: np.ndarray  # (P,) change of the mover's pitched tents' values
    rise: np.ndarray  # (P,) how much the best other seat's standing rises
    standing: np.ndarray  # (players,) standings before the play
    tables: np.ndarray  # (players, 7, 9, 9, 2) each seat's tent values after the play
    new_table: np.ndarray  # the mover's new-tent values (less the kept tokens' worth)
    bonus: np.ndarray  # per square: what a new tent there takes from (or denies) the tents around it


def _tent_index(
    owner: np.ndarray, token: np.ndarray, base: np.ndarray, opens: np.ndarray, fair: np.ndarray
) -> np.ndarray:
    """Flat index into a (players, 7, 9, 9, 2) stack of tables."""
    return (owner * 7 + token) * 162 + base * 18 + opens * 2 + fair  # opens 0-8 (callers clip what may not be)


def standings(board: Board, tables: np.ndarray, totals: Sequence[float]) -> np.ndarray:
    out = np.array(totals, dtype=np.float64)
    if len(board.t_r):
        index = _tent_index(board.t_player, board.t_token, board.t_base, board.t_open, board.t_fair)
        np.add.at(out, board.t_player, np.take(tables.ravel(), index))
    return out


def _tables(view: SeatView, model: ValueModel, turn: int) -> np.ndarray:
    """Each seat's tent values after turn `turn` (cached on the model)."""
    key = (view.player, view.played, turn)
    found = model.stacks.get(key)
    if found is None:
        found = np.stack([model.table(*view.cards_to_come(turn, k)) for k in range(view.players)])
        model.stacks[key] = found
    return found


def one_ply(
    view: SeatView,
    board: Board,
    hand: Sequence[R.Card] | Sequence[Picture],
    mover: int,
    tokens: frozenset[int],
    turn: int,
    model: ValueModel,
    totals: Sequence[float],
    margin: bool = True,
    leak: float = 0.0,
) -> Ply:
    """Every placement of `hand` by `mover` on `board` at turn `turn` (0-based) of the round, valued one ply.
    `leak`: weight of how much better the best square for any other seat's unused tokens gets by the card
    (that seat may take it on its turn), subtracted under MARGIN."""
    players = view.players
    tables = _tables(view, model, turn)
    flat_tables = tables.ravel()
    needed = set(tokens)
    if leak and margin:
        for k in range(players):
            if k != mover:
                needed |= view.tokens[k]
    pl = board.placements(hand, sorted(needed))
    standing = standings(board, tables, totals)
    delta = np.zeros((players, len(pl)))
    bonus = np.zeros(board.occ.shape)
    others = [k for k in range(players) if k != mover]
    leader = max(others, key=lambda k: standing[k]) if others else None
    if len(board.t_r):
        owner, token = board.t_player, board.t_token
        before = np.take(flat_tables, _tent_index(owner, token, board.t_base, board.t_open, board.t_fair))
        after = np.take(
            flat_tables, _tent_index(owner[:, None], token[:, None], pl.tent_base, pl.tent_open, pl.tent_fair)
        )
        np.add.at(delta, owner, after - before[:, None])
        # A new tent on an open square next to a pitched tent takes that square from it.
        blocked = (
            np.take(flat_tables, _tent_index(owner, token, board.t_base, np.maximum(board.t_open - 1, 0), board.t_fair))
            - before
        )
        weight = np.where(owner == mover, 1.0, 0.0)
        if margin and leader is not None:
            weight = np.where(owner == leader, -1.0, weight)
        if weight.any():
            width = bonus.shape[1]
            cells = (board.t_r * width + board.t_c)[None, :] + _SURROUND_OFFSETS(width)[:, None]
            np.add.at(bonus.ravel(), cells.ravel(), np.broadcast_to(weight * blocked, cells.shape).ravel())
    new_table = tables[mover] - model.reserve(*view.cards_to_come(turn, mover))[:, None, None, None]
    options = best_tents(board, pl, sorted(tokens), new_table, bonus)
    own = delta[mover] + options.value
    if margin and others:
        before_best = standing[others].max()
        rise = (standing[others][:, None] + delta[others]).max(axis=0) - before_best
        value = standing[mover] - before_best + own - rise
        if leak:
            value = value - leak * _leak(view, board, pl, others, tables)
    else:
        rise = np.zeros(len(pl))
        value = standing[mover] + own
    return Ply(pl, options, value, delta[mover], rise, standing, tables, new_table, bonus)


def _leak(view: SeatView, board: Board, pl: Placements, others: list[int], tables: np.ndarray) -> np.ndarray:
    """(P,) the most any other seat's best new-tent value (its unused tokens, its tent values) rises by each
    placement."""
    fr, fc = board.free_cells()
    out = np.zeros(len(pl))
    for k in others:
        tokens = sorted(view.tokens[k])
        if not tokens:
            continue
        after = best_tents(board, pl, tokens, tables[k]).value
        now = -np.inf
        if len(fr):
            token_arr = np.array(tokens)[:, None]
            base = board.base_at(token_arr, fr[None, :], fc[None, :])
            now = float(
                tables[k][
                    token_arr, base, board.opn[fr, fc][None], (board.fwbits[fr, fc] != 0)[None].astype(np.int64)
                ].max()
            )
        out = np.maximum(out, np.where(np.isfinite(after), after - now, 0.0) if np.isfinite(now) else 0.0)
    return out


def _SURROUND_OFFSETS(width: int) -> np.ndarray:
    found = _OFFSETS.get(width)
    if found is None:
        found = np.array([dr * width + dc for dr, dc in SURROUNDING])
        _OFFSETS[width] = found
    return found


_OFFSETS: dict[int, np.ndarray] = {}


# --- worlds and the look-ahead ----------------------------------------------------------------------------------


def view_seed(view: SeatView, seed: int) -> int:
    """A seed from the request seed and what the mover sees (never from hidden cards)."""
    text = repr(
        (
            seed,
            sorted(c.text() for c in view.hand),
            sorted((int(v), int(w)) for v, w in zip(*np.nonzero(view.board.occ), strict=True)),
            view.board.cmask[view.board.occ].tolist(),
            list(
                zip(
                    view.board.t_player.tolist(),
                    view.board.t_token.tolist(),
                    view.board.t_r.tolist(),
                    view.board.t_c.tolist(),
                    strict=True,
                )
            ),
            view.player,
        )
    )
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


@dataclass
class World:
    """One deal of the unseen cards: every other seat's hand, then the pile in order."""

    hands: list[list[R.Card]]
    pile: list[R.Card]


def sample_world(view: SeatView, rng: np.random.Generator) -> World:
    cards = list(view.unseen)
    order = rng.permutation(len(cards))
    shuffled = [cards[i] for i in order]
    hands: list[list[R.Card]] = []
    pos = 0
    for k in range(view.players):
        if k == view.player:
            hands.append(list(view.hand))
        else:
            hands.append(shuffled[pos : pos + view.hand_sizes[k]])
            pos += view.hand_sizes[k]
    return World(hands, shuffled[pos : pos + view.pile_size])


@dataclass
class Candidate:
    """A play looked ahead: its sampled values, one a world. `reference`: set when the play left the race
    (`halving`): the best play that stayed, sampled on every world this one saw and more."""

    index: int  # placement index at the root
    token: int
    row: int  # array cell of the tent (root board)
    col: int
    one_ply: float
    samples: list[float] = field(default_factory=list)
    reference: Candidate | None = None

    @property
    def mean(self) -> float:
        """The sample mean; for a play that left the race, the paired estimate: the reference's mean minus the
        mean difference on the worlds both saw (unbiased like its own mean, and paired: never above the
        reference that beat it there)."""
        if self.reference is not None and self.samples:
            shared = len(self.samples)
            gap = float(np.mean(np.array(self.reference.samples[:shared]) - np.array(self.samples)))
            return self.reference.mean - gap
        return float(np.mean(self.samples)) if self.samples else self.one_ply

    @property
    def standard_error(self) -> float | None:
        """The sample mean's standard error; for a play that left the race, the reference's and the paired
        difference's combined."""
        if len(self.samples) < 2:
            return None
        if self.reference is not None:
            shared = len(self.samples)
            diffs = np.array(self.reference.samples[:shared]) - np.array(self.samples)
            own = float(np.std(diffs, ddof=1) / np.sqrt(shared))
            return float(np.hypot(self.reference.standard_error or 0.0, own))
        return float(np.std(self.samples, ddof=1) / np.sqrt(len(self.samples)))


def play_out(
    view: SeatView,
    root: Ply,
    candidate: Candidate,
    world: World,
    model: ValueModel,
    margin: bool,
    depth: int,
    budget: Budget | None = None,
    standings_out: bool = False,
) -> float | np.ndarray | None:
    """The mover's margin (or standing) after its candidate play and `depth` more turns by the one-ply rule in
    `world`, valued by the tent tables at that point (exactly at the round's end); None when `budget` ran out
    first (checked before every turn). `standings_out`: every seat's standing instead."""
    board = view.board.copy()
    pl = root.pl
    pic = pl.pictures[int(pl.pic[candidate.index])]
    r, c = view.board.cell(candidate.row, candidate.col)
    board.place(pic, int(pl.row[candidate.index]), int(pl.col[candidate.index]), derive=False)
    board.pitch(view.player, candidate.token, r - board.r0, c - board.c0)
    hands = [list(h) for h in world.hands]
    hands[view.player].remove(pic.card)
    tokens = list(view.tokens)
    tokens[view.player] = tokens[view.player] - {candidate.token}
    pile = list(world.pile)
    if pile:
        hands[view.player].append(pile.pop(0))
    turn = view.played + 1
    for _ in range(depth):
        if turn >= view.total_turns:
            break
        mover = view.mover_at(turn)
        if not hands[mover] or not tokens[mover]:
            break
        if budget is not None and budget.expired():
            return None
        ply = one_ply(view, board, hands[mover], mover, tokens[mover], turn, model, view.totals, margin)
        if not len(ply.pl):
            break
        best = int(np.argmax(ply.value))
        pic = ply.pl.pictures[int(ply.pl.pic[best])]
        tr, tc = board.cell(ply.options.row[best], ply.options.col[best])
        token = int(ply.options.token[best])
        board.place(pic, int(ply.pl.row[best]), int(ply.pl.col[best]), derive=False)
        board.pitch(mover, token, tr - board.r0, tc - board.c0)
        hands[mover].remove(pic.card)
        tokens[mover] = tokens[mover] - {token}
        if pile:
            hands[mover].append(pile.pop(0))
        turn += 1
    standing = standings(board, _tables(view, model, turn - 1), view.totals)
    for k in range(view.players):
        if N_TOKENS - 1 in tokens[k]:  # what keeping the Wilderness token is still worth (see `reserve`)
            standing[k] += model.reserve(*view.cards_to_come(turn - 1, k))[N_TOKENS - 1]
    if standings_out:
        return standing
    others = [k for k in range(view.players) if k != view.player]
    if margin and others:
        return float(standing[view.player] - standing[others].max())
    return float(standing[view.player])


@dataclass
class SearchResult:
    root: Ply
    candidates: list[Candidate]  # the plays looked ahead, best first
    worlds: int  # worlds every candidate still in the race was played out in
    depth: int
    finalists: int = 0  # candidates still in the race at the end (all of them without `halving`)
    cut: bool = False  # the budget ended the look-ahead before its `max_worlds` worlds


def search(
    view: SeatView,
    budget: Budget,
    *,
    margin: bool = True,
    seed: int = 0,
    width: int = 6,
    depth: int | None = None,
    max_worlds: int = 64,
    distinct: bool = False,
    halving: int = 0,
    leak: float = 0.0,
    reserve_wild: float | None = None,
    every_card: bool = False,
) -> SearchResult:
    """One ply over every play, then the `width` best (by one-ply value) played out `depth` more turns (default:
    until the mover has played once more) in sampled worlds, all candidates in the same worlds, while the budget
    lasts (a world is counted only when every candidate still in the race was played out in it). `distinct`: at
    most one candidate per (card, token, tent square). `every_card`: every card of the hand (its best play) among
    the candidates, the other places by one-ply value (else the `width` best by one-ply value, often one card's
    placements). `halving`: every that many worlds, the candidate with
    the lowest mean leaves the race (while more than two are left), so the rest get more worlds; its value is then
    paired with the best play that stayed (`Candidate.mean`)."""
    model = ValueModel(view.players, reserve_wild)
    root = one_ply(
        view,
        view.board,
        hand_pictures(view.hand),
        view.player,
        view.tokens[view.player],
        view.played,
        model,
        view.totals,
        margin,
        leak,
    )
    if depth is None:
        depth = view.players
    candidates: list[Candidate] = []
    keys: set[tuple] = set()
    ranked = np.argsort(-root.value, kind="stable").tolist()
    if every_card:  # each card's best play first (best first), then the rest by one-ply value
        firsts: dict[R.Card, int] = {}
        for i in ranked:
            firsts.setdefault(root.pl.pictures[int(root.pl.pic[i])].card, i)
        chosen = set(list(firsts.values())[:width])
        ranked = [i for i in ranked if i in chosen] + [i for i in ranked if i not in chosen]
    for i in ranked:
        if len(candidates) >= width:
            break
        token, row, col = int(root.options.token[i]), int(root.options.row[i]), int(root.options.col[i])
        key = (root.pl.pictures[int(root.pl.pic[i])].card, token, row, col)
        if distinct and key in keys:
            continue
        keys.add(key)
        candidates.append(Candidate(int(i), token, row, col, float(root.value[i])))
    remaining = view.total_turns - view.played - 1
    worlds = 0
    racing = list(candidates)
    looks_ahead = len(candidates) > 1 and remaining > 0 and depth > 0
    if looks_ahead:
        rng = np.random.default_rng(view_seed(view, seed))
        while worlds < max_worlds and not budget.expired():
            world = sample_world(view, rng)
            done = 0
            for candidate in racing:
                value = play_out(view, root, candidate, world, model, margin, depth, budget)
                if value is None:
                    break
                candidate.samples.append(value)
                done += 1
            if done < len(racing):
                for candidate in racing[:done]:
                    candidate.samples.pop()  # an unfinished world is dropped for every candidate
                break
            worlds += 1
            if halving and worlds % halving == 0 and len(racing) > 2:
                racing.remove(min(racing, key=lambda c: c.mean))
    cut = looks_ahead and worlds < max_worlds
    if len(racing) < len(candidates):  # the plays that left the race: valued paired with the best that stayed
        reference = max(racing, key=lambda c: c.mean)
        for candidate in candidates:
            if candidate not in racing:
                candidate.reference = reference
    candidates.sort(key=lambda c: -c.mean)
    return SearchResult(root, candidates, worlds, depth, len(racing), cut)
