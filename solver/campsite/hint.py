"""Hints: every play of the turn ranked by immediate gain plus an estimate of what is still to come.

Value of a play (card placement x token x square), for the mover m:

    own  = immediate gain of m (new tent + changes to m's earlier tents) + future estimate of m's tents it touches
    opp  = how much the best opponent's standing rises: each opponent k stands at `totals[k]` (earlier rounds) +
           points of k's tents now + their future estimate; after the play at that + k's immediate gain + change
           of k's future estimate; opp = max_k(after) - max_k(before) (feeding a trailing opponent who stays
           behind the leader costs nothing; feeding the leader costs all of it)
    value = own - opp            (objective MARGIN over the best opponent, the multiplayer default)
    value = own                  (objective EXPECTED_SCORE, the solo default)

The future estimate of one tent is `open squares around it x P(a later card shows its terrain there) x fill`:
- open squares: neighbours with no card or an empty square without a tent (a later card may still cover them);
- P(terrain): the share of the unseen cards' squares that are coloured and feature the tent's terrain (for
  Wilderness: that feature a terrain it does not see yet), computed from the deck minus every visible card;
- fill: the expected share of open squares covered by the end of the round, 1 - exp(-FILL_RATE x cards still to be
  laid after this turn), and doubled where a Fair Weather card is already adjacent.
It is a heuristic (proof HEURISTIC); the bench measures it head to head against a greedy player.

Order: the hint ranks the placements in `spread_order` (each card and rotation in turn, corners spread over the
table), so a budget cut leaves out a sample of every card's placements rather than the last cards of the rules
model's card-by-card order. Why: a 4-player turn late in a round has up to ~1,200 placements (0.05-0.13 CPU-s to
rank them all); cut at 0.05 CPU-s in card order, the hint never saw its third card in many turns, and its
margin over 3 greedy players was 2.3 points a game below the complete ranking's (bench/results/campsite.md). The
greedy baseline keeps the rules model's order.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from campsolver.solver.campsite.evaluate import Surroundings, TurnEvaluator
from campsolver.solver.campsite.rules import (
    CARD_SQUARES,
    FAIR_WEATHER_FACTOR,
    CampsiteState,
    Card,
    Placement,
    Stage,
    Table,
    Tent,
    Terrain,
    Token,
)
from campsolver.solver.core.budget import Budget, SolveInterrupted
from campsolver.solver.core.hint import HintClock, HintResultBase, RankedChoice

#: Per card laid later in the round, the share of a tent's open squares that gets covered (fitted by the bench).
FILL_RATE = 0.06
#: Alternatives returned when the caller does not say.
DEFAULT_TOP = 20


#: What a one-ply value is (`RankedPlay.note`).
ONE_PLY_NOTE = "one-ply: estimated right after this play by the fitted tent tables"
ONE_PLY_METHOD = "every play one ply by fitted tent tables"


@dataclass(kw_only=True)
class RankedPlay(RankedChoice[tuple[Placement, Tent]]):
    """One play of the turn (`choice`: the card's placement and the tent) and its value: `kind` LOOK_AHEAD (a
    sample mean over `samples` worlds, with its standard error from 2 samples on) or ONE_PLY (the tent tables'
    estimate right after the play; the one-ply ranking, `hint_one_ply`, says ONE_PLY). `loss`: against the best
    value of the ranking's own quantity (the looked-ahead plays when there are any, else the one-ply ones)."""

    immediate_gain: int
    future_estimate: float
    opponent_gain: int
    kind: str = "ONE_PLY"

    @property
    def placement(self) -> Placement:
        return self.choice[0]

    @property
    def tent(self) -> Tent:
        return self.choice[1]


@dataclass(kw_only=True)
class HintResult(HintResultBase[RankedPlay]):
    """The best plays (at most `top`), best first, and how much of the turn was ranked."""

    plays_ranked: int = 0
    placements: int = 0  # placements evaluated
    total_placements: int = 0
    # `interrupted`: the budget ended the look-ahead before its `max_worlds` sampled deals (every play is still
    # valued one ply: `placements` is every placement)
    worlds: int = 0  # worlds every look-ahead play was played out in
    depth: int = 0  # turns played out after the play (the other seats', then the mover's)


@dataclass(frozen=True)
class FutureModel:
    """Chances that a later card shows a terrain on an open square, and how many squares get filled."""

    terrain_share: tuple[float, ...]  # per terrain: P(a square of an unseen card is coloured and features it)
    new_terrain_share: tuple[float, ...]  # per mask of terrains seen: P(a square adds a terrain not in it)
    fill: float

    def tent_future(self, token: Token, around: Surroundings) -> float:
        if not around.open or self.fill <= 0:
            return 0.0
        factor = FAIR_WEATHER_FACTOR if around.fair else 1
        if token == Token.WILDERNESS:
            missing = 6 - _POPCOUNT[around.seen]
            if not missing:
                return 0.0
            return factor * min(missing, around.open * self.new_terrain_share[around.seen] * self.fill)
        terrain_value = int(token)
        room = 8 - around.values[terrain_value] // factor
        return factor * min(room, around.open * self.terrain_share[terrain_value] * self.fill)


_POPCOUNT = tuple(bin(mask).count("1") for mask in range(64))


def future_model(unseen: Sequence[Card], cards_to_come: int) -> FutureModel:
    if not unseen or cards_to_come <= 0:
        return FutureModel((0.0,) * len(Terrain), (0.0,) * 64, 0.0)
    squares = CARD_SQUARES * len(unseen)
    by_mask: Counter[int] = Counter()
    for card in unseen:
        by_mask[card.mask] += len(card.pattern)
    share = tuple(sum(n for mask, n in by_mask.items() if mask & t.bit) / squares for t in Terrain)
    new_share = tuple(sum(n for mask, n in by_mask.items() if mask & ~seen) / squares for seen in range(64))
    return FutureModel(share, new_share, 1.0 - math.exp(-FILL_RATE * cards_to_come))


def unseen_cards(deck: Sequence[Card], table: Table, hand: Sequence[Card]) -> list[Card]:
    """The deck minus the visible cards and the mover's hand (opponents' hands stay unseen)."""
    left = Counter(deck)
    for card in [p.card for p in table.placements] + list(hand):
        if left[card] > 0:
            left[card] -= 1
    return sorted(left.elements())


def rank_plays(
    table: Table,
    hand: Sequence[Card],
    tokens: Iterable[Token],
    player: int,
    players: int,
    future: FutureModel,
    budget: Budget,
    *,
    margin: bool = True,
    top: int = DEFAULT_TOP,
    totals: Sequence[int] | None = None,
    spread: bool = False,
) -> HintResult:
    """The `top` best plays by the hint's value, and how many plays were ranked. `totals`: each player's points of
    the rounds already scored (default none), for the opponents' standing. `spread`: rank the placements in
    `spread_order` (a budget cut then leaves out a sample of every card's placements, not the last cards; ties
    among equal values keep the earlier play in that order) instead of the rules model's card-by-card order."""
    ranker = _Ranker(table, sorted(set(tokens)), player, players, future, margin, top, totals)
    # No early return on an expired budget: the set-up and the first placement are a few ms of Python, and they
    # give a valid ranked answer (the best play of the first placement); the budget decides how many follow.
    legal = table.legal_placements(hand)  # one pass over the table, a few ms: never cut
    if spread:
        legal = spread_order(legal)
    interrupted = False
    for index, placement in enumerate(legal):
        if index and budget.expired():  # the first placement always (an answer); one check costs ~1 us
            interrupted = True
            break
        ranker.add(placement)
    return HintResult(
        choices=ranker.plays(),
        plays_ranked=ranker.ranked,
        placements=ranker.placements,
        total_placements=len(legal),
        wall_time_s=budget.elapsed(),
        interrupted=interrupted,
        method=ONE_PLY_METHOD,
    )


class _Ranker:
    """`rank_plays`' state: the table's evaluator, the standing before the turn, the best `top` plays so far."""

    def __init__(
        self,
        table: Table,
        tokens: list[Token],
        player: int,
        players: int,
        future: FutureModel,
        margin: bool,
        top: int,
        totals: Sequence[int] | None,
    ) -> None:
        self.tokens, self.player, self.future, self.margin, self.top = tokens, player, future, margin, top
        self.evaluator = evaluator = TurnEvaluator(table, max(players, player + 1))
        self.opponents = [k for k in range(evaluator.players) if k != player]
        self.tent_future_now = {t: future.tent_future(t.token, s) for t, s in evaluator.tent_surroundings.items()}
        standing = [
            float(totals[k]) if totals is not None and k < len(totals) else 0.0 for k in range(evaluator.players)
        ]
        for k, points in enumerate(evaluator.tent_points_now()):
            standing[k] += points
        for tent, value in self.tent_future_now.items():
            standing[tent.player] += value
        self.standing = standing
        self.leader_before = max((standing[k] for k in self.opponents), default=0.0)
        self.far_values = sorted(
            (
                (around.values[token] + future.tent_future(token, around), cell, token, around.values[token])
                for cell, around in evaluator.base_surroundings.items()
                for token in tokens
            ),
            key=lambda item: (-item[0], item[1], item[2]),
        )
        self.token_values: dict[Surroundings, list[tuple[float, int, Token, int]]] = {}
        self.heap: list[tuple[float, int, tuple]] = []  # the `top` best so far: (value, -order, details), min first
        self.counter = 0
        self.ranked = 0
        self.placements = 0

    def threshold(self) -> float:
        return self.heap[0][0] if len(self.heap) >= self.top else -math.inf

    def offer(self, total: float, details: tuple) -> float:
        """Keep the play if it is among the `top` best so far; the new threshold."""
        self.counter += 1
        item = (total, -self.counter, details)
        if len(self.heap) < self.top:
            heapq.heappush(self.heap, item)
        else:
            heapq.heappushpop(self.heap, item)
        return self.threshold()

    def base_value(self, effect) -> tuple[float, tuple[int, float, int]]:
        """The placement's value before the tent (own change + own future - the best opponent's), and its
        details (own points change, own future change, the best opponent's points change)."""
        evaluator, future, player, opponents = self.evaluator, self.future, self.player, self.opponents
        own_delta = effect.delta[player]
        future_delta = [0.0] * evaluator.players
        for tent, after in effect.changed:
            future_delta[tent.player] += future.tent_future(tent.token, after) - self.tent_future_now[tent]
        best_opponent = 0.0
        best_opponent_now = 0
        if opponents and self.margin:
            leader_after, best_opponent_now = max(
                ((self.standing[k] + effect.delta[k] + future_delta[k], effect.delta[k]) for k in opponents),
                key=lambda x: x[0],
            )
            best_opponent = leader_after - self.leader_before
        elif opponents:
            best_opponent_now = max(effect.delta[k] for k in opponents)
        return own_delta + future_delta[player] - best_opponent, (own_delta, future_delta[player], best_opponent_now)

    def add(self, placement: Placement) -> None:
        """Every tent after `placement`: the squares it changes, then the others best first."""
        effect = self.evaluator.effect(placement)
        self.placements += 1
        base, details = self.base_value(effect)
        tokens, future = self.tokens, self.future
        threshold = self.threshold()
        for cell, around in effect.options:
            by_value = self.token_values.get(around)
            if by_value is None:
                by_value = sorted(
                    ((around.values[t] + future.tent_future(t, around), -int(t), t, around.values[t]) for t in tokens),
                    reverse=True,
                )
                self.token_values[around] = by_value
            for value, _, token, points in by_value:
                total = base + value
                if total <= threshold:
                    break  # the rest of this square's tokens are no better; ties keep the earlier play
                threshold = self.offer(total, (effect.placement, cell, token, points, value, *details))
        base_cells = self.evaluator.base_surroundings
        blocked_far = sum(1 for cell in effect.reach if cell in base_cells)
        self.ranked += len(effect.options) * len(tokens) + len(self.far_values) - blocked_far * len(tokens)
        for value, cell, token, points in self.far_values:  # best first
            total = base + value
            if total <= threshold:
                break
            if cell in effect.reach:
                continue
            threshold = self.offer(total, (effect.placement, cell, token, points, value, *details))

    def plays(self) -> list[RankedPlay]:
        """The kept plays, best first."""
        plays = []
        for total, _, (placement, cell, token, points, value, own_delta, own_future, opponent_now) in sorted(
            self.heap, reverse=True
        ):
            plays.append(
                RankedPlay(
                    choice=(placement, Tent(self.player, token, cell[0], cell[1])),
                    value=total,
                    immediate_gain=own_delta + points,
                    future_estimate=own_future + value - points,
                    opponent_gain=opponent_now,
                    note=ONE_PLY_NOTE,
                )
            )
        return plays


def spread_order(placements: Sequence[Placement]) -> list[Placement]:
    """The same placements, reordered so that every prefix samples each card and rotation evenly across the table:
    one group per (card, rotation), each group's corners in bit-reversed index order (a low-discrepancy sample of
    its rows and columns), the groups taken in turn."""
    groups: dict[tuple[Card, int], list[Placement]] = {}
    for placement in placements:
        groups.setdefault((placement.card, placement.rotation), []).append(placement)
    ordered = [[group[i] for i in _bit_reversed(len(group))] for group in groups.values()]
    out: list[Placement] = []
    for index in range(max((len(group) for group in ordered), default=0)):
        out.extend(group[index] for group in ordered if index < len(group))
    return out


def _bit_reversed(n: int) -> list[int]:
    bits = max(n - 1, 1).bit_length()
    return sorted(range(n), key=lambda i: int(format(i, f"0{bits}b")[::-1], 2))


def one_ply_future(
    table: Table, hand: Sequence[Card], players: int, deck: Sequence[Card], cards_to_come: int | None = None
) -> FutureModel:
    """The one-ply ranking's future estimate: the unseen cards and the cards laid after this turn in the round
    (default: the turns left by the tents on the table)."""
    if cards_to_come is None:
        cards_to_come = max(7 * max(players, 1) - len(table.tents) - 1, 0)
    return future_model(unseen_cards(deck, table, hand), cards_to_come)


# --- the hint: one ply over every play, then a look-ahead on the best few ----------------------------------------

#: Plays looked ahead (the best by one-ply value).
SEARCH_WIDTH = 6
#: Most worlds the look-ahead samples (then it stops, whatever the budget).
MAX_WORLDS = 64
#: Each card of the hand (its best play by one-ply value) among the plays looked ahead, the other places by one-ply
#: value. Why: the best six by one-ply value are often six placements of one card, so the look-ahead never weighed
#: which card to play and which to keep. Paired games at 0.15 CPU-s a call (seeds 6,600,000+, seats rotated,
#: against the sparring partners planner, cardtent, margin1 and the hint itself, 306 games): margin +2.5 +- 0.6
#: points a game (each partner +1.6 to +4.1), win share +0.034 +- 0.024, the same CPU a call (mean 0.141, median
#: 0.151 CPU-s; bench/results/campsite_hint_every_card.json).
EVERY_CARD = True


@dataclass(frozen=True)
class HintOptions:
    """The hint's knobs. `margin`: rank by the final margin over the best opponent (default with opponents) or
    the mover's own score; `top`: plays listed; `cards_to_come`: cards laid after this turn in the round (default:
    the turns left by the tents on the table); `seed`: the sampled worlds; `width`: plays looked ahead; `depth`:
    turns played out (default to the round's end); `max_worlds`: most worlds sampled; `distinct`, `halving`,
    `leak`, `reserve_wild`, `every_card`: the look-ahead's variants (`lookahead.search`)."""

    margin: bool | None = None
    top: int = DEFAULT_TOP
    cards_to_come: int | None = None
    seed: int = 0
    width: int = SEARCH_WIDTH
    depth: int | None = None
    max_worlds: int = MAX_WORLDS
    distinct: bool = False
    halving: int = 0
    leak: float = 0.0
    reserve_wild: float | None = None
    every_card: bool = EVERY_CARD


def seat_state(
    table: Table,
    hand: Sequence[Card],
    tokens: Iterable[Token],
    player: int,
    players: int,
    deck: Sequence[Card],
    totals: Sequence[int] | None = None,
) -> CampsiteState:
    """A state as one seat sees its turn (the table, its own hand and tokens, the totals, the deck; the other
    hands unknown, left empty): what the hint reads, for callers that hold a turn rather than a whole game (the
    service's `state` request, the bench). The other seats' tokens are what their tents on the table leave."""
    pitched: list[set[Token]] = [set() for _ in range(players)]
    for tent in table.tents:
        if tent.player < players:
            pitched[tent.player].add(tent.token)
    seat_tokens = [frozenset(Token) - frozenset(p) for p in pitched]
    seat_tokens[player] = frozenset(tokens)
    hands = tuple(tuple(hand) if k == player else () for k in range(players))
    return CampsiteState(
        players=players,
        deck=tuple(deck),
        stage=Stage.CARD,
        hands=hands,
        table=table,
        tokens=tuple(seat_tokens),
        totals=tuple(totals or ()),
        starter=player,
    )


class _SeatOf:
    """What the mover's seat sees of a state."""

    seat: int
    hand: tuple[Card, ...]
    tokens: list[Token]
    totals: Sequence[int] | None

    def __init__(self, state: CampsiteState) -> None:
        if state.stage is not Stage.CARD:
            raise ValueError(f"no hint at stage {state.stage.value}: a hint ranks whole turns (card and tent)")
        self.seat = state.to_move
        self.hand = tuple(state.hands[self.seat])
        self.tokens = sorted(state.tokens[self.seat])
        self.totals = state.totals or None


def hint(state: CampsiteState, budget: Budget, *, options: HintOptions = HintOptions()) -> HintResult:
    """Rank the plays of the mover's turn (`lookahead.search`): every play valued one ply deep by the tent value
    tables, the best `width` played on in sampled worlds while the budget lasts. Reads what the mover's seat sees
    only (`seat_state`): the table, its hand and tokens, the totals and the deck. The best looked-ahead plays come
    first (value: the mean final margin, or own standing, over the worlds), then the other plays by their one-ply
    value (their `kind` says so)."""
    from campsolver.solver.campsite import lookahead

    clock = HintClock()
    seat = _SeatOf(state)
    margin = state.players > 1 if options.margin is None else options.margin
    view = lookahead.seat_view(state.table, seat.hand, seat.tokens, seat.seat, state.players, state.deck, seat.totals)
    if options.cards_to_come is not None:
        view.played = max(view.total_turns - 1 - options.cards_to_come, 0)
    result = lookahead.search(
        view,
        budget,
        margin=margin,
        seed=options.seed,
        width=options.width,
        depth=options.depth,
        max_worlds=options.max_worlds,
        distinct=options.distinct,
        halving=options.halving,
        leak=options.leak,
        reserve_wild=options.reserve_wild,
        every_card=options.every_card,
    )
    plays = _listed_plays(view, result, options.top, state.table)
    searched = [p for p in plays if p.kind == "LOOK_AHEAD"]
    best = max((p.value for p in searched or plays if p.value is not None), default=0.0)
    for p in searched or plays:
        p.loss = max(best - p.value, 0.0) + 0.0 if p.value is not None else None
    root = result.root
    method = (
        f"{ONE_PLY_METHOD}; the best {len(searched)} looked ahead in {result.worlds} sampled deals"
        + (f" (raced: {len(searched) - result.finalists} left early)" if 0 < result.finalists < len(searched) else "")
        if searched
        else ONE_PLY_METHOD
    )
    return HintResult(
        choices=plays,
        method=method,
        wall_time_s=clock.wall(),
        cpu_time_s=clock.cpu(),
        plays_ranked=_plays_valued(view, root),
        placements=len(root.pl),
        total_placements=len(root.pl),
        worlds=result.worlds,
        depth=result.depth if result.worlds else 0,
        interrupted=result.cut,
    )


def hint_one_ply(state: CampsiteState, budget: Budget, *, options: HintOptions = HintOptions()) -> HintResult:
    """The one-ply ranking this hint used before the look-ahead (`rank_plays` with the open-square future
    estimate over the placements in `spread_order`): kept for comparisons in the bench and for the review. Of the
    options it reads `margin`, `top` and `cards_to_come`."""
    view = _SeatOf(state)
    future = one_ply_future(state.table, view.hand, state.players, state.deck, options.cards_to_come)
    margin = state.players > 1 if options.margin is None else options.margin
    return rank_plays(
        state.table,
        view.hand,
        view.tokens,
        view.seat,
        state.players,
        future,
        budget,
        margin=margin,
        top=options.top,
        totals=view.totals,
        spread=True,
    )


def greedy_play(
    table: Table, hand: Sequence[Card], tokens: Iterable[Token], player: int, players: int, budget: Budget
) -> tuple[Placement, Tent]:
    """The play with the best immediate own gain (ties: first in the rules model's order): the baseline."""
    no_future = future_model((), 0)
    result = rank_plays(table, hand, tokens, player, players, no_future, budget, margin=False, top=1)
    if not result.choices:
        raise SolveInterrupted("deadline")
    best = result.choices[0]
    return best.placement, best.tent


def _plays_valued(view, root) -> int:
    """Plays (placement x token x square) the one-ply ranking valued."""
    board, pl = view.board, root.pl
    if not len(pl):
        return 0
    free_now = board.free[pl.cell_r, pl.cell_c].sum(axis=1)
    squares = pl.free.sum(axis=1) + int(board.free.sum()) - free_now
    return int(squares.sum()) * len(view.tokens[view.player])


def _listed_plays(view, result, top: int, table: Table) -> list[RankedPlay]:
    import numpy as np

    board, root = view.board, result.root
    pl = root.pl
    if not len(pl):
        return []
    searched = result.candidates if result.worlds else []
    entries: list[tuple[float, int, int, int, int, str, int, float | None]] = []
    seen: set[tuple[int, int, int, int]] = set()
    for c in searched:
        kind = "LOOK_AHEAD" if c.reference is None else "LOOK_AHEAD_PAIRED"
        entries.append((c.mean, c.index, c.token, c.row, c.col, kind, len(c.samples), c.standard_error))
        seen.add((c.index, c.token, c.row, c.col))
    # One-ply plays: the best `top` placements, every tent of each.
    order = np.argsort(-root.value, kind="stable")[: max(top, 1)]
    tokens = sorted(view.tokens[view.player])
    more: list[tuple[float, int, int, int, int]] = []
    for index in order.tolist():
        placement_value = float(root.value[index] - root.options.value[index])
        for value, token, row, col in _placement_tents(board, pl, index, tokens, root.new_table, root.bonus):
            if (index, token, row, col) not in seen:
                more.append((placement_value + value, index, token, row, col))
    more.sort(key=lambda e: -e[0])
    for value, index, token, row, col in more[: max(top - len(entries), 0)]:
        entries.append((value, index, token, row, col, "ONE_PLY", 0, None))
    entries = entries[:top] if top else entries
    points_now = board.tent_points()
    plays = []
    for value, index, token, row, col, kind, samples, se in entries:
        placement = board.placement_of(pl, index)
        r, c = board.cell(row, col)
        base, opens, fair = _square_after(board, pl, index, token, row, col)
        new_points = base * (2 if fair else 1)
        gains = [0] * view.players
        own_future = 0.0
        mine = view.player
        for j in range(len(board.t_r)):
            after = int(pl.tent_base[j, index]) * (2 if pl.tent_fair[j, index] else 1)
            owner = int(board.t_player[j])
            gains[owner] += after - int(points_now[j])
            if owner == mine:
                own_future += (
                    float(
                        root.tables[
                            mine,
                            board.t_token[j],
                            pl.tent_base[j, index],
                            min(max(int(pl.tent_open[j, index]), 0), 8),
                            int(pl.tent_fair[j, index]),
                        ]
                    )
                    - after
                )
        own_future += float(root.tables[mine, token, base, min(max(opens, 0), 8), int(fair)]) - new_points
        gain = gains[mine] + new_points
        opponent_gain = max((gains[k] for k in range(view.players) if k != mine), default=0)
        note = ONE_PLY_NOTE if kind == "ONE_PLY" else f"look-ahead: the mean over {samples} sampled worlds"
        if kind == "LOOK_AHEAD_PAIRED":  # left the race early: valued paired with the best play that stayed
            kind, note = "LOOK_AHEAD", f"look-ahead: the best play's mean less the mean gap on {samples} shared worlds"
        plays.append(
            RankedPlay(
                choice=(placement, Tent(mine, Token(token), r, c)),
                value=float(value),
                immediate_gain=int(gain),
                future_estimate=own_future,
                opponent_gain=int(opponent_gain),
                kind=kind,
                samples=samples,
                standard_error=se,
                note=note,
            )
        )
    return plays


def _square_after(board, pl, index: int, token: int, row: int, col: int) -> tuple[int, int, bool]:
    """(matching squares or terrains seen, open squares, doubled) of array cell (row, col) after placement
    `index`: from the placement's reach when the cell lies in it, else as the table stands."""
    import numpy as np

    hits = np.flatnonzero((pl.cell_r[index] == row) & (pl.cell_c[index] == col))
    if len(hits):
        q = int(hits[0])
        return int(pl.base_of(token)[index, q]), int(pl.open[index, q]), bool(pl.fair[index, q])
    base = int(board.base_at(np.array([token]), np.array([row]), np.array([col]))[0])
    return base, int(board.opn[row, col]), bool(board.fwbits[row, col])


def _placement_tents(board, pl, index: int, tokens: list[int], table, bonus) -> list[tuple[float, int, int, int]]:
    """Every tent (value by `table` + the square's `bonus`, token, array cell) after placement `index`: its reach
    cells as they stand after it, every other free square as it stands now."""
    import numpy as np

    out = []
    h = pl.pictures[int(pl.pic[index])].height
    w = pl.pictures[int(pl.pic[index])].width
    r0, c0 = int(pl.row[index]), int(pl.col[index])
    for q in range(pl.cell_r.shape[1]):
        if not pl.free[index, q]:
            continue
        for token in tokens:
            value = table[token, pl.base_of(token)[index, q], min(max(pl.open[index, q], 0), 8), int(pl.fair[index, q])]
            value += bonus[pl.cell_r[index, q], pl.cell_c[index, q]]
            out.append((float(value), token, int(pl.cell_r[index, q]), int(pl.cell_c[index, q])))
    fr, fc = board.free_cells()
    outside = ~((fr >= r0 - 1) & (fr <= r0 + h) & (fc >= c0 - 1) & (fc <= c0 + w))
    fr, fc = fr[outside], fc[outside]
    for token in tokens:
        base = board.base_at(np.full(len(fr), token), fr, fc)
        values = table[token, base, np.clip(board.opn[fr, fc], 0, 8), (board.fwbits[fr, fc] != 0).astype(np.int64)]
        values = values + bonus[fr, fc]
        out.extend((float(v), token, int(r), int(c)) for v, r, c in zip(values, fr, fc, strict=True))
    return out
